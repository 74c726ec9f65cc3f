"""Commentary as data (issue 16 item 1): fedtool/kernel/commentary.py's phrase tables.

A table is checked when it is read, packaged or a fed's own, and a fed's file that cannot be
read is refused with a FedError naming file and line, never a traceback; a teller chooses
by the match's key and a count (never by dice), never repeats a kind's last phrase while
another would do, and honours `when:`. docs/commentary.md's reference of every ruleset's
kinds, fields and facts is generated from the tables (`python tests/test_commentary.py`
writes it) and checked here.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtool.kernel.commentary import Commentary, load_commentary
from fedtool.kernel.errors import FedError
from fedtool.rulesets import REGISTRY, get_ruleset

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "commentary.md"

PACKAGED = """\
facts: [alignment, match_type]
kinds:
  near_fall:
    fields: [attacker, defender]
    phrases:
      - "{attacker} hooks the leg... {defender} kicks out at two!"
      - "ONE... TWO... NO!"
      - text: "{attacker} grabs a handful of tights... TWO... NO!"
        when: {alignment: heel}
  pinfall:
    fields: [attacker, defender]
    phrases:
      - "ONE... TWO... THREE!"
  cage_only:
    fields: [attacker]
    phrases:
      - text: "{attacker} climbs the cage."
        when: {match_type: cage}
      - text: "{attacker} climbs the cage, a heel's way."
        when: {match_type: cage, alignment: heel}
"""


def table(tmp: Path, fed_text: str | None = None) -> Commentary:
    packaged = tmp / "commentary.yaml"
    packaged.write_text(PACKAGED, encoding="utf-8")
    fed = None
    if fed_text is not None:
        fed = tmp / "fed.yaml"
        fed.write_text(fed_text, encoding="utf-8")
    return load_commentary(packaged, "packaged.yaml", fed, "templates/commentary/test.yaml")


def refusal(tmp: Path, fed_text: str):
    with pytest.raises(FedError) as caught:
        table(tmp, fed_text)
    return caught.value.problems


# ---------------------------------------------------------------- a fed's file, checked when read


def test_a_fed_file_adds_phrases_and_replace_replaces_them(tmp_path):
    added = table(tmp_path, 'near_fall:\n  - "{defender} will not stay down!"\n')
    assert [p.text for p in added.phrases["near_fall"]][-1] == "{defender} will not stay down!"
    assert len(added.phrases["near_fall"]) == 4
    replaced = table(tmp_path, 'pinfall:\n  replace:\n    - "It is over: {attacker} wins!"\n')
    assert [p.text for p in replaced.phrases["pinfall"]] == ["It is over: {attacker} wins!"]
    assert replaced.teller("k").say("pinfall", attacker="Sam") == "It is over: Sam wins!"


def test_a_fed_file_with_an_unknown_kind_is_refused_with_its_file_and_line(tmp_path):
    (problem,) = refusal(tmp_path, 'near_fall:\n  - "fine"\nnear_falls: ["a typo"]\n')
    assert (problem.file, problem.place) == ("templates/commentary/test.yaml", "line 3")
    assert "no kind 'near_falls'" in problem.message and "near_fall" in problem.message


def test_a_fed_file_naming_an_attribute_or_an_unknown_field_is_refused(tmp_path):
    """A fed's phrases are data, not code: `{attacker.__class__}` never reaches str.format."""
    (problem,) = refusal(tmp_path, 'near_fall:\n  - "fine"\n  - "{attacker.__class__}"\n')
    assert (problem.file, problem.place) == ("templates/commentary/test.yaml", "line 3")
    assert "not a plain field name" in problem.message
    (problem,) = refusal(tmp_path, 'near_fall:\n  - "{referee} counts"\n')
    assert problem.place == "line 2" and "no field {referee}" in problem.message
    (problem,) = refusal(tmp_path, 'near_fall:\n  - "{attacker!r} and {defender:>10}"\n')
    assert "not a plain field name" in problem.message


def test_a_fed_file_choosing_by_an_unknown_fact_is_refused(tmp_path):
    (problem,) = refusal(tmp_path, 'near_fall:\n  - "fine"\n  - text: "{attacker} again"\n    when: {weather: rain}\n')
    assert (problem.file, problem.place) == ("templates/commentary/test.yaml", "line 3")
    assert "no fact 'weather'" in problem.message


def test_every_problem_of_a_fed_file_is_reported_at_once(tmp_path):
    problems = refusal(tmp_path, 'nope: ["x"]\nnear_fall:\n  - "{bad}"\npinfall:\n  replace: []\n')
    assert [p.place for p in problems] == ["line 1", "line 3", "line 5"]



def test_a_kind_given_as_a_block_is_named_at_its_own_line(tmp_path):
    """A kind whose phrases follow on the lines below it: a problem with the kind names the
    kind's line, not its first phrase's."""
    problems = refusal(tmp_path, 'near_fall:\n  - "fine"\nnope:\n  - "x"\npinfall:\n  replace: []\n')
    assert [(p.place, p.message.split(":")[0]) for p in problems] == [("line 3", "no kind 'nope' to tell (kinds"), ("line 6", "kind 'pinfall'")]

def test_a_replace_whose_phrases_are_all_refused_is_not_called_empty(tmp_path):
    """`replace:` with one phrase naming no field of its kind: the phrase is refused, and that
    is the one problem (it is not also told "needs at least one phrase": one was given)."""
    (problem,) = refusal(tmp_path, 'pinfall:\n  replace:\n    - "{bogus} wins"\n')
    assert problem.place == "line 3" and "no field {bogus}" in problem.message

# plain YAML values, nested: whatever a fed's file could hold
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=12),
                     st.sampled_from(["near_fall", "pinfall", "cage_only", "replace", "text", "when", "{attacker}", "{x.y}", "{", "alignment", "heel"]))
_KEYS = st.one_of(st.sampled_from(["near_fall", "pinfall", "cage_only", "replace", "text", "when", "alignment", "match_type", "nope"]), st.text(max_size=6))
_YAML = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=4)), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(data=_YAML)
def test_any_yaml_in_a_fed_file_is_read_or_refused_never_a_traceback(data):
    text = yaml.safe_dump(data, allow_unicode=True)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            read = table(Path(tmp), text)
        except FedError as exc:
            assert all(p.file == "templates/commentary/test.yaml" for p in exc.problems)
            return
        teller = read.teller("any")
        for kind in read.phrases:  # whatever was read can be told
            assert isinstance(teller.say(kind, {"alignment": "heel", "match_type": "cage"}, attacker="A", defender="B"), str)


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=80))
def test_any_text_in_a_fed_file_is_read_or_refused_never_a_traceback(text):
    with tempfile.TemporaryDirectory() as tmp:
        try:
            table(Path(tmp), text)
        except FedError:
            pass


# ---------------------------------------------------------------- the chooser


@settings(max_examples=60, deadline=None)
@given(key=st.text(max_size=20), alignment=st.sampled_from(["face", "heel"]))
def test_a_kind_never_repeats_its_last_phrase_while_another_applies(key, alignment):
    with tempfile.TemporaryDirectory() as tmp:
        teller = table(Path(tmp)).teller(key)
    said = [teller.say("near_fall", {"alignment": alignment}, attacker="A", defender="B") for _ in range(40)]
    assert all(a != b for a, b in zip(said, said[1:]))
    # the only phrase there is may repeat: there is no other
    assert {teller.say("pinfall") for _ in range(3)} == {"ONE... TWO... THREE!"}


def test_a_phrase_is_chosen_only_where_its_when_holds(tmp_path):
    heel_line = "A grabs a handful of tights... TWO... NO!"
    face = [table(tmp_path).teller(f"k{k}").say("near_fall", {"alignment": "face"}, attacker="A", defender="B") for k in range(200)]
    heel = [table(tmp_path).teller(f"k{k}").say("near_fall", {"alignment": "heel"}, attacker="A", defender="B") for k in range(200)]
    unknown = [table(tmp_path).teller(f"k{k}").say("near_fall", attacker="A", defender="B") for k in range(200)]
    assert heel_line not in face and heel_line not in unknown
    # matching a `when` weighs a phrase by how much it matches: 2 of 4 shares for the heel's line
    assert 60 <= heel.count(heel_line) <= 140
    # two facts matched outweigh one: the heel's cage line, 3 shares against 2
    cage = [table(tmp_path).teller(f"k{k}").say("cage_only", {"match_type": "cage", "alignment": "heel"}, attacker="A") for k in range(200)]
    assert cage.count("A climbs the cage, a heel's way.") > cage.count("A climbs the cage.") > 0


def test_a_kind_whose_every_phrase_is_ruled_out_still_tells_one(tmp_path):
    """No phrase's `when` holds (no cage here): the teller falls back on the kind's phrases
    without `when`, else on all of them, rather than telling nothing."""
    said = table(tmp_path).teller("k").say("cage_only", {"match_type": "singles"}, attacker="A")
    assert said in ("A climbs the cage.", "A climbs the cage, a heel's way.")


def test_the_same_key_tells_the_same_words_and_another_key_others(tmp_path):
    def tell(key: str) -> list[str]:
        teller = table(tmp_path).teller(key)
        return [teller.say("near_fall", {"alignment": "heel"}, attacker="A", defender="B") for _ in range(12)]

    assert tell("week-01 m1") == tell("week-01 m1")
    assert any(tell("week-01 m1") != tell(f"week-01 m{k}") for k in range(2, 6))


def test_a_value_is_told_as_plain_text_never_formatted_again(tmp_path):
    teller = table(tmp_path).teller("k")
    said = teller.say("pinfall", attacker="{defender.__class__}")  # a name is never a format string
    assert said == "ONE... TWO... THREE!"
    teller = table(tmp_path, 'pinfall:\n  replace:\n    - "{attacker} wins"\n').teller("k")
    assert teller.say("pinfall", attacker="{defender.__class__}") == "{defender.__class__} wins"


# ---------------------------------------------------------------- docs/commentary.md, generated


def rulesets_with_tables() -> list:
    return [r for r in (get_ruleset(rid) for rid in sorted(REGISTRY)) if r.commentary() is not None]


def reference(ruleset) -> str:
    """The generated part of docs/commentary.md for one ruleset: its facts, kinds and fields."""
    table_ = ruleset.commentary()
    lines = [f"### {ruleset.name} (`{ruleset.id}`)", "",
             f"Packaged table: `fedtool/rulesets/{ruleset.id}/data/commentary.yaml`; a fed's own: `templates/commentary/{ruleset.id}.yaml`.", "",
             f"Facts: {', '.join(f'`{f}`' for f in sorted(table_.facts)) or 'none'}.", "",
             "| kind | fields | phrases |", "| --- | --- | --- |"]
    for kind in sorted(table_.phrases):
        fields = ", ".join(f"`{{{f}}}`" for f in sorted(table_.fields[kind])) or "none"
        lines.append(f"| `{kind}` | {fields} | {len(table_.phrases[kind])} |")
    return "\n".join(lines) + "\n"


BEGIN, END = "<!-- generated: the kinds of every ruleset (python tests/test_commentary.py) -->", "<!-- end of generated -->"


def generated() -> str:
    return BEGIN + "\n\n" + "\n".join(reference(r) for r in rulesets_with_tables()) + "\n" + END


def test_the_doc_lists_every_rulesets_kinds_fields_and_facts():
    text = DOC.read_text(encoding="utf-8")
    assert BEGIN in text and END in text, "docs/commentary.md has lost its generated section"
    shown = text[text.index(BEGIN):text.index(END) + len(END)]
    assert shown == generated(), "docs/commentary.md is out of date: run `python tests/test_commentary.py`"


def test_every_ruleset_table_loads_and_has_its_facts_documented():
    text = DOC.read_text(encoding="utf-8")
    for ruleset in rulesets_with_tables():
        for fact in ruleset.commentary().facts:
            assert re.search(rf"`{fact}`", text), f"{ruleset.id}: fact {fact} is not explained in docs/commentary.md"


if __name__ == "__main__":  # rewrite the generated section of docs/commentary.md
    sys.path.insert(0, str(ROOT))
    text = DOC.read_text(encoding="utf-8")
    DOC.write_text(text[:text.index(BEGIN)] + generated() + text[text.index(END) + len(END):], encoding="utf-8")
    print(f"wrote {DOC}")


# ---------------------------------------------------------------- a packaged table kept between commands (issue 18)
# A ruleset's packaged table, once read and found good, is kept in the checked files' cache
# (fedtool.kernel.checked) under its bytes' SHA-256: the next command reads that, not the YAML.

PACKAGED_TABLES = sorted((ROOT / "fedtool" / "rulesets").glob("*/data/commentary.yaml"))


@pytest.mark.parametrize("packaged", PACKAGED_TABLES, ids=lambda p: p.parent.parent.name)
def test_a_packaged_table_kept_reads_back_equal_and_unparsed(packaged, tmp_path, monkeypatch):
    import fedtool.kernel.commentary as commentary

    monkeypatch.setenv("FEDTOOL_CACHE_DIR", "")
    read = load_commentary(packaged, "packaged.yaml")  # the cache off: the table is read
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", str(tmp_path / "cache"))
    first = load_commentary(packaged, "packaged.yaml")  # read, then kept
    parsed = []
    monkeypatch.setattr(commentary, "parse_yaml", lambda *a: parsed.append(a) or pytest.fail("parsed again"))
    again = load_commentary(packaged, "packaged.yaml")
    assert parsed == []
    assert read == first == again
    assert [p.when for p in again.phrases[next(iter(again.phrases))]] == [p.when for p in read.phrases[next(iter(read.phrases))]]


def test_a_broken_packaged_table_is_never_kept_and_says_the_same_every_time(tmp_path, monkeypatch):
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", str(tmp_path / "cache"))
    table = tmp_path / "commentary.yaml"
    table.write_text(PACKAGED.replace("fields: [attacker, defender]", "fields: [attacker, 9]", 1), encoding="utf-8")
    messages = []
    for _ in range(2):
        with pytest.raises(FedError) as refused:
            load_commentary(table, "t.yaml")
        messages.append(str(refused.value))
    assert messages[0] == messages[1]
    assert "t.yaml" in messages[0] and "`fields:` is a list of names" in messages[0]
    assert not [p for p in (tmp_path / "cache").rglob("*.json")]


def test_a_damaged_kept_table_is_read_again(tmp_path, monkeypatch):
    monkeypatch.setenv("FEDTOOL_CACHE_DIR", str(tmp_path / "cache"))
    table = tmp_path / "commentary.yaml"
    table.write_text(PACKAGED, encoding="utf-8")
    first = load_commentary(table, "t.yaml")
    (entry,) = (tmp_path / "cache").rglob("*.json")
    entry.write_text(entry.read_text(encoding="utf-8").replace("kicks out", "stays down"), encoding="utf-8")  # its sum no longer holds
    assert load_commentary(table, "t.yaml") == first
    table.write_text(PACKAGED.replace("ONE... TWO... NO!", "ONE... TWO... THREE? NO!"), encoding="utf-8")  # new bytes: a new entry
    changed = load_commentary(table, "t.yaml")
    assert "ONE... TWO... THREE? NO!" in [p.text for p in changed.phrases["near_fall"]]
