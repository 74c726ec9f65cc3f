"""fedtool's YAML: what it writes, it can read back (its loader refuses aliases)."""

from __future__ import annotations

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
