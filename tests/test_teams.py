"""Tag teams, MatchMatch I.2 and IV.1.a, computed by hand."""

from __future__ import annotations

import pytest
import yaml

from fedtool.kernel.errors import FedError
from fedtool.fed.settings import Fed
from fedtool.league.sheets import read_roster_sheet
from mm_builders import make_setup, make_sheet, make_strategy, run, uniform_grid


def team_sheet(fed_dir, changes: dict | None = None, name: str = "rulebook-rivals"):
    path = fed_dir / f"rosters/{name}.yaml"
    data = yaml.safe_load(path.read_text())
    for dotted, value in (changes or {}).items():
        node = data
        *parents, last = dotted.split(".")
        for key in parents:
            node = node[key]
        if value is None:
            node.pop(last, None)
        else:
            node[last] = value
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return read_roster_sheet(Fed.load(fed_dir), name)


def test_the_rulebook_sample_team_is_legal(demo_fed):
    """I.2's table: Stamina 10; Technical 3, Power 1, Martial Arts 1, Brawling 3, Weight 5,
    High-Flying 2, Cheating 4, TeamWork 0; defenses Technical 1, Martial Arts 1, High-Flying 1,
    Cheating 2; High Spots 1. 10 + 19 + 5x2 + 1x3 = 42."""
    team = team_sheet(demo_fed)
    assert team.members == ("brother-bob", "friendly-sam")
    assert team.sheet.cost() == 42
    assert team.sheet.styles == {"technical": 3, "power": 1, "martial_arts": 1, "brawling": 3, "high_flying": 2,
                                 "weight": 5, "cheating": 4, "teamwork": 0}


@pytest.mark.parametrize(
    "changes, message",
    [
        # "Sam has a Technical Score of 5, Bob has a Technical Score of 3. The team could have a technical score of 3,4 or 5."
        ({"styles.Technical": 6, "styles.Cheating": 1}, "Technical 6 is outside the members' range 3-5 (Brother Bob 3, Friendly Sam 5)"),
        # "Sam has a Stamina of 10, Bob has a Stamina of 10. The team must have a Stamina of 10."
        ({"stamina": 9, "styles.Brawling": 4}, "Stamina 9 is outside the members' range 10-10 (Brother Bob 10, Friendly Sam 10)"),
        # "Power 0 0 0 (must be 0)" (defenses)
        ({"defenses.Power": 1, "styles.Brawling": 1}, "Power defense 1 is outside the members' range 0-0"),
        # "the Team must have a teamwork no higher than the lowest teamwork score of the members"
        ({"styles.Teamwork": 1, "styles.Brawling": 2}, "Teamwork 1 is higher than the lowest member's (0)"),
    ],
)
def test_team_values_must_lie_within_the_members_range(demo_fed, changes, message):
    with pytest.raises(FedError) as caught:
        team_sheet(demo_fed, changes)
    assert message in str(caught.value)
    assert "rosters/rulebook-rivals.yaml" in str(caught.value) and "MatchMatch I.2" in str(caught.value)


def test_high_spots_are_exempt_from_the_range(demo_fed):
    """I.2: "High Spots are exempt from this rule -- a Tag Team can have more High Spots than
    it's members": 4 High Spots (neither member has more than 3), paid with 9 style points
    (Cheating 4 -> 1, Weight 5 -> 1, Brawling 3 -> 1, each still within the members' range)."""
    team = team_sheet(demo_fed, {"high_spots": 4, "styles.Cheating": 1, "styles.Weight": 1, "styles.Brawling": 1})
    assert team.sheet.high_spots == 4 and team.sheet.cost() == 42


def test_a_team_is_still_42_points(demo_fed):
    with pytest.raises(FedError, match="costs 41 points"):
        team_sheet(demo_fed, {"styles.Cheating": 3})


def test_use_member_takes_a_members_scores_with_the_lowest_teamwork(demo_fed):
    """I.2: "They could use Friendly Sam's scores, with one exception. Sam has a Teamwork of 1,
    but Bob has a Teamwork of 0 ... the team would have to have a Teamwork of 0.\""""
    team = team_sheet(demo_fed, {"use_member": "friendly-sam", "stamina": None, "styles": None, "defenses": None, "high_spots": None})
    sam = read_roster_sheet(Fed.load(demo_fed), "friendly-sam").sheet
    assert team.sheet.styles == dict(sam.styles, teamwork=0)
    assert team.sheet.defenses == sam.defenses and team.sheet.high_spots == 3
    assert team.sheet.name == "The Rulebook Rivals"  # the team keeps its own name and push


def test_use_member_and_own_scores_together_is_refused(demo_fed):
    with pytest.raises(FedError, match="give either use_member or the team's own scores"):
        team_sheet(demo_fed, {"use_member": "friendly-sam"})


def test_a_tag_match_has_teamwork_in_its_six_entry_style_table():
    """IV.1.a: "If it were a tag match, the table would be: 1 Power 2 Power 3 Cheat 4 High-Fly
    5 Tech 6 Teamwork": with Teamwork the d6 maps straight onto six entries (no roll again),
    and the victory check subtracts 6 styles ("usually 5, or 6 for tag matches").

    The rulebook's table: side 1 +Power +Power is illegal (the "+" styles differ), so side 1
    takes Power and Cheat, side 2 High-Fly and Tech, and the grid gives Power.
    Round 1: d6 6 -> Teamwork. A (Teamwork 3): 5+5+5 = 15 + 3 = 18; B (Teamwork 1): 1+1+1 = 3
    + 1 = 4; A by 14: 3 damage, B's Stamina 10 -> 7; injury check 1+1+1 = 3 - 7 - 1 - 0 = -5.
    Victory check 6+6+5 = 17 + 0 - 7 - 6 styles = 4: A wins by pinfall."""
    a = make_sheet("a", stamina=10, styles={"power": 4, "cheating": 2, "teamwork": 3, "high_flying": 1, "technical": 1})
    b = make_sheet("b", stamina=10, styles={"power": 2, "cheating": 1, "teamwork": 1, "high_flying": 3, "technical": 2})
    sa = make_strategy(("power", "cheating"), "weight", "A", [("normal", "stamina")])
    sb = make_strategy(("high_flying", "technical"), "weight", "1", [("normal", "stamina")])
    setup = make_setup(a, sa, b, sb, uniform_grid("power"), tag=True)
    assert setup.style_table() == ["power", "cheating", "high_flying", "technical", "power", "teamwork"]
    result = run(setup, [6, 5, 5, 5, 1, 1, 1, 1, 1, 1, 6, 6, 5])
    (rnd,) = result.rounds
    assert rnd.style == "teamwork" and rnd.style_faces == [6]
    assert [s.total for s in rnd.sides] == [18, 4]
    assert [(c.total, c.count) for c in rnd.checks] == [(4, 3)]
    assert rnd.checks[0].styles == 6
    assert (result.winner, result.method) == (0, "pin")


def test_tag_matches_are_teams_against_teams(demo_fed, fedtool):
    card = demo_fed / "strategies/week-01/card.yaml"
    card.write_text(card.read_text().replace("sides: [rocky-ridge, big-earl]", "sides: [rocky-ridge, heavy-industry]"))
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "match m2: a tag match is teams against teams: every side must be a team sheet [MatchMatch I.2, IV.1.a]" in result.stderr
