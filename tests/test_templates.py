"""The fed's templates/ override the packaged ones; a broken one is a clear error."""

from __future__ import annotations

from conftest import snapshot


def test_the_demo_feds_card_template_extends_the_stock_one(demo_fed, fedtool):
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    card = (demo_fed / "outbox/week-01/card.md").read_text(encoding="utf-8")
    assert card.startswith("# Delta Championship Wrestling: Week 1: Opening Night")  # the stock body
    assert card.rstrip().endswith("results every Sunday.*")  # the fed's footer block


def test_a_fed_template_replaces_a_packaged_one(demo_fed, fedtool):
    (demo_fed / "templates/matchmatch").mkdir()
    (demo_fed / "templates/matchmatch/match.md.j2").write_text("{{ match.headline }} -- {{ match.finish }}\n", encoding="utf-8")
    assert fedtool("run", "1", "--fed", demo_fed).exit_code == 0
    assert (demo_fed / "outbox/week-01/m2.md").read_text(encoding="utf-8") == (
        "Rocky Ridge def. Big Earl Hollis (by pinfall, round 17) -- Rocky Ridge pins Big Earl Hollis in round 17.\n"
    )


def test_a_broken_fed_template_is_refused_and_nothing_is_written(demo_fed, fedtool):
    (demo_fed / "templates/card.md.j2").write_text("line one\n{% if %}\n", encoding="utf-8")
    before = snapshot(demo_fed)
    result = fedtool("run", "1", "--fed", demo_fed)
    assert result.exit_code == 1
    assert "card.md.j2" in result.stderr and "line 2" in result.stderr and "[writeup templates]" in result.stderr
    assert snapshot(demo_fed) == before
