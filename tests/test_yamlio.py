"""fedtool's YAML: what it writes, it can read back (its loader refuses aliases)."""

from __future__ import annotations

import pytest

from fedtool.kernel.errors import FedError
from fedtool.kernel.yamlio import dump_yaml, parse_yaml


def test_shared_objects_are_written_out_in_full_not_as_aliases():
    row = ["Br", "Po", "Po"]
    data = {"week": 1, "matches": {"m1": {"grid": [row, row, row]}, "m2": {"grid": [row, row, row]}}}
    text = dump_yaml(data)
    assert "&" not in text and "*" not in text
    assert parse_yaml(text, "opening.yaml") == data


def test_every_key_and_item_knows_its_line():
    data = parse_yaml("title: x\nmatches:\n  - sides: [a, b]\n  - sides: [c, d]\n", "card.yaml")
    assert data.lines == {"title": 1, "matches": 3}
    assert data["matches"].lines == [3, 4]
    assert data["matches"][1].lines == {"sides": 4}


def test_a_strategy_text_parsed_once_still_names_each_file_it_is_read_from(tmp_path):
    """MatchMatch keeps a strategy's parsed data by its text alone (mail intake checks a
    strategy under its candidate's name, then reads it as the opponent's file): the same text
    read under two names gives the same data, and a broken one names the file it was read from."""
    from fedtool.rulesets.matchmatch import load_strategy_data

    good = "plus: [Brawling, Cheating]\nminus: Martial Arts\n# unique to this test\n"
    first, second = tmp_path / "candidate.yaml", tmp_path / "brother-bob.yaml"
    first.write_text(good)
    second.write_text(good)
    assert load_strategy_data(first, "a/candidate.yaml")[0] == {"plus": ["Brawling", "Cheating"], "minus": "Martial Arts"}
    assert load_strategy_data(second, "a/brother-bob.yaml")[0].lines == {"plus": 1, "minus": 2}
    broken = "plus: [Brawling\n# a broken text unique to this test\n"
    for path, shown in ((first, "a/candidate.yaml"), (second, "a/brother-bob.yaml")):
        path.write_text(broken)
        with pytest.raises(FedError) as caught:
            load_strategy_data(path, shown)
        assert [(p.file, p.place, p.rule) for p in caught.value.problems] == [(shown, "line 3, column 1", "YAML syntax")]
