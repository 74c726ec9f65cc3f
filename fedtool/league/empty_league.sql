-- fedtool's empty league, every migration applied: m001_initial m002_team_members m003_tv_grades_and_grudges m004_stakes m005_sent_mail m006_inbox_seen m007_titles m008_match_writeups m009_mail_loop m010_allies_foes_challenges m011_ruleset_state m012_week_runs m013_ticks m014_away m015_roster_and_titles m016_seasons m017_lean_weeks
CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY,
   "migration_set" TEXT,
   "name" TEXT,
   "applied_at" TEXT
);
CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"
    ON "_sqlite_migrations" ("migration_set", "name");
CREATE TABLE "wrestlers" (
   "id" TEXT PRIMARY KEY,
   "name" TEXT,
   "ruleset" TEXT,
   "owner_name" TEXT,
   "members" TEXT, "retired_after" INTEGER);
CREATE TABLE "weeks" (
   "week" INTEGER PRIMARY KEY,
   "title" TEXT,
   "ran_at" TEXT,
   "dice_source" TEXT,
   "matches" INTEGER
);
CREATE TABLE "matches" (
   "id" TEXT PRIMARY KEY,
   "week" INTEGER REFERENCES "weeks"("week"),
   "match" TEXT,
   "position" INTEGER,
   "ruleset" TEXT,
   "title" TEXT,
   "winner" TEXT,
   "method" TEXT,
   "end_round" INTEGER,
   "seed" TEXT,
   "summary" TEXT,
   "notes" TEXT
, "stars" REAL);
CREATE TABLE "match_sides" (
   "match_id" TEXT REFERENCES "matches"("id"),
   "side" INTEGER,
   "wrestler_id" TEXT REFERENCES "wrestlers"("id"),
   "outcome" TEXT,
   "week" INTEGER,
   PRIMARY KEY ("match_id", "side")
);
CREATE TABLE "wrestler_states" (
   "week" INTEGER,
   "wrestler_id" TEXT REFERENCES "wrestlers"("id"),
   "push_level" INTEGER,
   "push_points" TEXT,
   "injury" INTEGER,
   "reason" TEXT, "tv_grade" TEXT, "grudge" INTEGER, "left_town" INTEGER, "title_shot" INTEGER, "allies" TEXT, "foes" TEXT, "challenge" TEXT, "other" TEXT,
   PRIMARY KEY ("week", "wrestler_id")
);
CREATE INDEX "idx_matches_week"
    ON "matches" ("week");
CREATE INDEX "idx_match_sides_wrestler_id"
    ON "match_sides" ("wrestler_id");
CREATE INDEX "idx_wrestler_states_wrestler_id"
    ON "wrestler_states" ("wrestler_id");
CREATE TABLE "sent_mail" (
   "message_id" TEXT PRIMARY KEY,
   "file" TEXT,
   "to" TEXT,
   "sent_at" TEXT
);
CREATE TABLE "inbox_seen" (
   "message_id" TEXT PRIMARY KEY,
   "sender" TEXT,
   "verdict" TEXT,
   "why" TEXT,
   "read_at" TEXT
, "week" INTEGER, "wrestler_id" TEXT, "arrived" TEXT);
CREATE TABLE "title_matches" (
   "match_id" TEXT PRIMARY KEY REFERENCES "matches"("id"),
   "week" INTEGER,
   "title_id" TEXT,
   "holder_before" TEXT,
   "winner" TEXT,
   "method" TEXT,
   "result" TEXT,
   "reason" TEXT
);
CREATE INDEX "idx_title_matches_title_id"
    ON "title_matches" ("title_id");
CREATE TABLE "title_rulings" (
   "id" INTEGER PRIMARY KEY,
   "title_id" TEXT,
   "action" TEXT,
   "wrestler_id" TEXT,
   "after_week" INTEGER,
   "reason" TEXT,
   "made_at" TEXT
);
CREATE TABLE "player_passwords" (
   "email" TEXT PRIMARY KEY,
   "hash" TEXT,
   "set_at" TEXT
);
CREATE TABLE "week_runs" (
   "week" INTEGER,
   "run" INTEGER,
   "ran_at" TEXT,
   "dice_source" TEXT,
   PRIMARY KEY ("week", "run")
);
CREATE TABLE "ticks" (
   "at" TEXT,
   "did" TEXT
);
CREATE TABLE "away" (
   "email" TEXT PRIMARY KEY,
   "name" TEXT,
   "from_day" TEXT,
   "to_day" TEXT,
   "set_at" TEXT
);
CREATE TABLE "punctuality" (
   "week" INTEGER,
   "match" TEXT,
   "wrestler_id" TEXT,
   "owner_email" TEXT,
   "owner_name" TEXT,
   "record" TEXT,
   PRIMARY KEY ("week", "match", "wrestler_id")
);
CREATE INDEX "idx_punctuality_owner_email"
    ON "punctuality" ("owner_email");
CREATE TABLE "owners" (
   "wrestler_id" TEXT PRIMARY KEY REFERENCES "wrestlers"("id"),
   "owner_email" TEXT
);
CREATE TABLE "roster_changes" (
   "id" INTEGER PRIMARY KEY,
   "wrestler_id" TEXT REFERENCES "wrestlers"("id"),
   "action" TEXT,
   "after_week" INTEGER,
   "reason" TEXT,
   "sheet" TEXT,
   "previous" TEXT,
   "made_at" TEXT
);
CREATE INDEX "idx_roster_changes_wrestler_id"
    ON "roster_changes" ("wrestler_id");
CREATE TABLE "team_members" (
   "team_id" TEXT REFERENCES "wrestlers"("id"),
   "member_id" TEXT,
   "position" INTEGER,
   PRIMARY KEY ("team_id", "member_id")
);
CREATE TABLE "titles" (
   "id" TEXT PRIMARY KEY,
   "position" INTEGER,
   "name" TEXT,
   "ruleset" TEXT,
   "division" TEXT,
   "teams" INTEGER,
   "first_holder" TEXT,
   "changes_on" TEXT,
   "holder" TEXT
);
CREATE TABLE "title_reigns" (
   "title_id" TEXT REFERENCES "titles"("id"),
   "reign" INTEGER,
   "wrestler_id" TEXT REFERENCES "wrestlers"("id"),
   "won_week" INTEGER,
   "won_match" TEXT,
   "how" TEXT,
   "lost_week" INTEGER,
   "lost_how" TEXT,
   "defences" INTEGER,
   "weeks" INTEGER,
   PRIMARY KEY ("title_id", "reign")
);
CREATE INDEX "idx_title_reigns_wrestler_id"
    ON "title_reigns" ("wrestler_id");
CREATE TABLE "seasons" (
   "season" INTEGER PRIMARY KEY,
   "name" TEXT,
   "first_week" INTEGER,
   "last_week" INTEGER,
   "closed_at" TEXT,
   "archive" TEXT
);
CREATE TABLE "season_states" (
   "season" INTEGER REFERENCES "seasons"("season"),
   "wrestler_id" TEXT REFERENCES "wrestlers"("id"),
   "push_level" INTEGER,
   "push_points" TEXT,
   "injury" INTEGER,
   "tv_grade" TEXT,
   "grudge" INTEGER,
   "left_town" INTEGER,
   "title_shot" INTEGER,
   "allies" TEXT,
   "foes" TEXT,
   "challenge" TEXT,
   "other" TEXT,
   "reason" TEXT,
   PRIMARY KEY ("season", "wrestler_id")
);
CREATE TABLE "lean_writeups" (
   "week" INTEGER PRIMARY KEY,
   "data" BLOB
);
CREATE TABLE "lean_rounds" (
   "week" INTEGER PRIMARY KEY,
   "data" BLOB
);
CREATE TABLE "lean_dice" (
   "week" INTEGER PRIMARY KEY,
   "data" BLOB
);
CREATE VIEW [match_writeups] AS SELECT j.value AS match_id, w.week AS week, fedtool_cell(w.data, j.value, 0) AS headline, fedtool_cell(w.data, j.value, 1) AS markdown, fedtool_cell(w.data, j.value, 2) AS html FROM lean_writeups w, json_each(fedtool_keys(w.data)) j;
CREATE VIEW [rounds] AS SELECT fedtool_cell(w.data, j.value, 0) AS match_id, fedtool_cell(w.data, j.value, 1) AS round, w.week AS week, fedtool_cell(w.data, j.value, 2) AS style, fedtool_cell(w.data, j.value, 3) AS winner, fedtool_cell(w.data, j.value, 4) AS margin, fedtool_cell(w.data, j.value, 5) AS detail FROM lean_rounds w, json_each(fedtool_keys(w.data)) j;
CREATE VIEW [match_summaries] AS SELECT id AS match_id, week, match, fedtool_inflate(summary) AS summary FROM matches;
CREATE VIEW [dice_rolls] AS SELECT w.week AS week, fedtool_cell(w.data, j.value, 0) AS match_id, fedtool_cell(w.data, j.value, 1) AS seq, fedtool_cell(w.data, j.value, 2) AS round, fedtool_cell(w.data, j.value, 3) AS purpose, fedtool_cell(w.data, j.value, 4) AS faces FROM lean_dice w, json_each(fedtool_keys(w.data)) j;
