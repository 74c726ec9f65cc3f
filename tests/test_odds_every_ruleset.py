"""`fedtool odds` for every ruleset and match type (issue 18): the record-free `trial` path
plays exactly what the run's `resolve` plays for the same seed, roll for roll; the report
counts each side (a team as one) and the draws; processes are started only when they pay."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtool.fed.card import load_card
from fedtool.fed.settings import Fed
from fedtool.kernel.dice import SeededDice
from fedtool.rulesets import get_ruleset
from fedtool.week import odds
from fedtool.week.booking import book_all, book_match, card_context
from fedtool.week.odds import plan_workers, simulate

# every match type the demo fed books, by ruleset (its weeks 1-5 and the Face to the Mat
# multi-man exhibitions): MatchMatch singles, a referee, tag, triangle and a cage match;
# Mat Clash's Quick Scrap and Dual Match; Face to the Mat singles, grudge, tag, both
# three-for-alls and the three battle royale methods
WEEK_MATCHES = [(1, "m1"), (1, "m5"), (2, "m1"), (2, "m2"), (2, "m3"), (2, "m4"), (3, "m1"), (3, "m2"), (3, "m3"), (4, "m1"), (5, "m1")]


@pytest.fixture(scope="module")
def bookings():
    from golden import ROOT

    fed = Fed.load(ROOT)
    found = {f"{week}/{match}": book_match(fed, week, match) for week, match in WEEK_MATCHES}
    card = load_card(fed, ROOT / "strategies" / "example-fttm-multi")
    context = card_context(fed, card, None)
    for booking in book_all(fed, card, context.wrestlers, context.states):
        found[f"example-fttm-multi/{booking.match.id}"] = booking
    return found


def full_path(booking, seed: int):
    """The run's path: `resolve` (every record and line kept), read as the odds count it."""
    ruleset = get_ruleset(booking.wrestlers[0].ruleset)
    dice = SeededDice(seed)
    result = ruleset.resolve(booking, dice)
    if ruleset.id == "matchmatch":
        return (result.winner, result.method, result.end_round), result.log, dice
    if ruleset.id == "matclash":
        length = len(result.scraps) if result.format == "dual_match" else result.scraps[0].turns
        return (result.winner, result.method, length), result.log, dice
    teams = booking.extra["teams"]  # Face to the Mat: the winning side's team
    return (None if result.winner is None else teams[result.winner], result.method, result.facs), result.log, dice


def next_rolls(dice) -> tuple:
    """What the dice roll next, on both of their streams: equal only when both paths used the same dice."""
    return tuple(dice.roll(8, 6, "after")) + tuple(dice.roll(4, 20, "after"))


SEEDS = {"matchmatch": 400, "matclash": 600, "facemat": 250}


@pytest.mark.parametrize("key", [f"{w}/{m}" for w, m in WEEK_MATCHES] + [f"example-fttm-multi/{m}" for m in ("t1", "t2", "r1", "r2", "r3")])
def test_the_record_free_trial_plays_what_the_run_plays(bookings, key):
    """Over hundreds of seeds per match type, the trial's winner, finish and length are the
    full path's, and the dice stand at the same place after both (roll for roll)."""
    booking = bookings[key]
    ruleset = get_ruleset(booking.wrestlers[0].ruleset)
    assert ruleset.plays_odds and not ruleset.rolls_per_trial(booking)
    setup = ruleset.trial_setup(booking)
    seen = set()
    for seed in range(SEEDS[ruleset.id]):
        expected, log, full_dice = full_path(booking, seed)
        dice = SeededDice(seed)
        trial = ruleset.trial(setup, dice)
        assert (trial.winner, trial.method, trial.length) == expected, f"{key} seed {seed}"
        assert next_rolls(dice) == next_rolls(full_dice), f"{key} seed {seed}: the trial rolled other dice"
        assert log  # the full path logged its rolls
        seen.add((trial.winner, trial.method))
    assert len(seen) >= 2, f"{key}: {seen}"  # the seeds played more than one result


def test_the_mat_clash_engine_keeps_no_events_without_records(bookings):
    from fedtool.rulesets.matclash import engine

    s = bookings["3/m1"].setup
    kept = engine.quick_scrap(s["names"], s["policies"], s["deck"], SeededDice(5), rules=s["rules"])
    bare = engine.quick_scrap(s["names"], s["policies"], s["deck"], SeededDice(5), rules=s["rules"], record=False)
    assert kept.events and bare.events == []
    assert (bare.winner, bare.method, bare.finish, bare.score, bare.turns) == (kept.winner, kept.method, kept.finish, kept.score, kept.turns)


def test_odds_count_each_side_of_a_triangle_and_each_team(bookings):
    triangle = simulate(bookings["2/m2"], 300, seed=11, workers=1)
    assert triangle.names == ["Skyline Sabrina", "Relámpago", "The Silent Crane"]
    assert [s.label for s in triangle.outcomes] == ["Skyline Sabrina wins", "Relámpago wins", "The Silent Crane wins", "draw"]
    assert sum(s.count for s in triangle.outcomes) == 300 == sum(s.count for s in triangle.finishes)
    tag = simulate(bookings["5/m1"], 200, seed=3, workers=1)
    assert tag.names == ["Vince Valor & Marcus Bright", "The Warden & Dutch Kessler"] and tag.unit == "FACs"
    two_on_one = simulate(bookings["example-fttm-multi/t1"], 200, seed=3, workers=1)
    assert len(two_on_one.names) == 2 and " & " in two_on_one.names[1]  # 9.d.i: the underdogs are one team
    dual = simulate(bookings["3/m2"], 40, seed=3, workers=1)
    assert dual.unit == "scraps" and 5 <= dual.mean_rounds <= 6 and {f.label.rsplit(" by ", 1)[1] for f in dual.finishes} == {"dual"}


def test_the_counts_are_the_trials_one_by_one(bookings):
    """`simulate` tallies `trial` over the seeds it names, whatever ruleset."""
    booking = bookings["3/m1"]
    ruleset = get_ruleset("matclash")
    setup = ruleset.trial_setup(booking)
    expected: dict = {}
    for seed in range(500, 800):
        trial = ruleset.trial(setup, SeededDice(seed))
        expected[(trial.winner, trial.method)] = expected.get((trial.winner, trial.method), 0) + 1
    report = simulate(booking, 300, seed=500, workers=1)
    names = report.names
    assert {s.label: s.count for s in report.finishes} == {f"{names[w]} by {m.replace('_', ' ')}": n for (w, m), n in expected.items()}


@pytest.mark.parametrize("key", ["1/m1", "3/m1", "3/m3", "2/m2"])
def test_processes_change_nothing_but_speed(bookings, key):
    one = simulate(bookings[key], 2600, seed=7, workers=1)
    two = simulate(bookings[key], 2600, seed=7, workers=2)
    chosen = simulate(bookings[key], 2600, seed=7)
    assert one.as_json() == two.as_json() == chosen.as_json()


def test_a_pool_only_when_it_pays():
    """One process unless the trials left take PAYS seconds on one; then one per core, no
    more than have PER_WORKER seconds each, nor than there are pieces to share."""
    assert plan_workers(100_000, 1e-6, 8) == 1  # 0.1 s of work: not worth a process
    assert plan_workers(100_000, 1e-4, 1) == 1  # 10 s of work, but one core
    assert plan_workers(100_000, 2.2e-5, 2) == 2  # MatchMatch's 100,000 at 45,000 a second: 2.2 s, both cores
    assert plan_workers(100_000, 1e-4, 64) == 50  # 10 s: fifty workers of 0.2 s each
    assert plan_workers(3_000, 1e-3, 64) == 12  # 3 s, but only twelve pieces of 250 trials


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 10_000_000), st.floats(1e-7, 1e-1), st.integers(1, 512))
def test_the_policy_never_asks_for_more_workers_than_cores_or_pieces(left, seconds_each, free):
    workers = plan_workers(left, seconds_each, free)
    assert 1 <= workers <= max(1, min(free, left // odds.PIECE, odds.MAX_WORKERS))
    if left * seconds_each < odds.PAYS:
        assert workers == 1
    if left * seconds_each >= 10 * odds.PAYS and left >= 100 * odds.PIECE and free >= 2:
        assert workers >= 2  # many matches and cores: more than one


def test_a_loaded_machine_still_counts_its_cores(monkeypatch):
    """The load average counts the command's own start-up and every short job of the last
    minute: on two cores it made `fedtool odds` play 100,000 matches on one process
    (issue 18: "a second worker usually gains nothing here"). Cores are the affinity's."""
    monkeypatch.setattr(odds.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(odds.os, "getloadavg", lambda: (1.2, 0.9, 0.5))
    assert odds.cores() == 2
    assert plan_workers(100_000, 2.2e-5, odds.cores()) == 2
    monkeypatch.setattr(odds.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(odds.os, "getloadavg", lambda: (9.0, 0.0, 0.0))
    assert odds.cores() == 4


def test_the_policy_picks_the_workers_simulate_uses(bookings, monkeypatch):
    """`simulate` with no --workers plays on what `plan_workers` decides from the timed
    first trials and the cores, and the counts are one process's."""
    chosen = []
    real = odds.plan_workers
    monkeypatch.setattr(odds, "plan_workers", lambda left, each, free: chosen.append(real(left, each, free)) or chosen[-1])
    monkeypatch.setattr(odds, "cores", lambda: 2)
    monkeypatch.setattr(odds, "PAYS", 0.0)  # any work pays: the pool is started
    monkeypatch.setattr(odds, "PER_WORKER", 1e-9)
    monkeypatch.setattr(odds, "CALIBRATE", 0.0)  # time the first 16 trials only: a fast machine timed all 3,000 and left none to share
    report = simulate(bookings["1/m1"], 3000, seed=9)
    assert chosen == [2]
    assert report.as_json() == simulate(bookings["1/m1"], 3000, seed=9, workers=1).as_json()


@pytest.mark.parametrize("match, sides, unit", [
    ("3/m1", ['Tommy "The Tumbler" Reyes', "Gus Halvorsen"], "turns"),
    ("3/m2", ['Ada "Iron" Okafor', "Wes Kimura"], "scraps"),
    ("4/m1", ["Vince Valor", "The Warden"], "FACs"),
    ("2/m2", ["Skyline Sabrina", "Relámpago", "The Silent Crane"], "rounds"),
])
def test_odds_command_for_every_ruleset(fedtool, match, sides, unit):
    from golden import ROOT

    result = fedtool("odds", "--match", match, "-n", "60", "--seed", "9", "--json", "--fed", ROOT)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["sides"] == sides and data["unit"] == unit and data["matches"] == 60
    assert [o["result"] for o in data["outcomes"]] == [f"{name} wins" for name in sides] + ["draw"]
    assert sum(o["count"] for o in data["outcomes"]) == 60 == sum(f["count"] for f in data["finishes"])
    text = fedtool("odds", "--match", match, "-n", "60", "--seed", "9", "--fed", ROOT)
    assert text.exit_code == 0 and f" {unit} on average" in text.output


def test_a_mat_clash_exhibition_from_sheets_is_the_card_match(fedtool):
    """`--sheet`/`--strategy` for Mat Clash wrestlers: a Quick Scrap on the fed's rules and
    deck, the same odds as the card's match of the same two strategies (week 3, m1)."""
    from golden import ROOT

    files = ["--sheet", ROOT / "rosters/tommy-reyes.yaml", "--sheet", ROOT / "rosters/gus-halvorsen.yaml",
             "--strategy", ROOT / "strategies/week-03/tommy-reyes.yaml", "--strategy", ROOT / "strategies/week-03/gus-halvorsen.yaml"]
    sheets = fedtool("odds", *files, "-n", "150", "--seed", "4", "--json", "--fed", ROOT)
    card = fedtool("odds", "--match", "3/m1", "-n", "150", "--seed", "4", "--json", "--fed", ROOT)
    assert sheets.exit_code == 0, sheets.output
    assert json.loads(sheets.output) == json.loads(card.output)
    refused = fedtool("odds", *files, "--rounds", "7", "--fed", ROOT)
    assert refused.exit_code == 1 and "a Mat Clash match has no rounds: leave out --rounds" in refused.stderr
