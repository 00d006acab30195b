"""Bad input: one clear `file:line: field: message` per problem, nothing written for a
creature that can't be imported, never a traceback (issue 18)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.importers import ImportFailed, import_all, import_bytes, import_file
from engine.importers.source import MAX_BYTES
from tests.support.importers import SAMPLES

BAD = SAMPLES / "bad"


def problems(name: str) -> list[str]:
    with pytest.raises(ImportFailed) as info:
        result = import_file(BAD / name)
        if result.problems:
            raise ImportFailed(result.problems)
    return [str(p) for p in info.value.problems]


def test_not_xml() -> None:
    assert problems("not-xml.dnd4e") == [
        f"{BAD / 'not-xml.dnd4e'}:1: xml: not well-formed XML: syntax error"
    ]


@pytest.mark.parametrize("cut", [10, 500, 3000, 9000])
def test_truncated_save_names_the_line_where_it_stops(cut: int) -> None:
    data = (SAMPLES / "ilvaris-wizard.dnd4e").read_bytes()[:cut]
    with pytest.raises(ImportFailed) as info:
        import_bytes(data, "cut.dnd4e")
    (problem,) = info.value.problems
    assert problem.file == "cut.dnd4e" and problem.field == "xml"
    assert problem.line == data.count(b"\n") + 1
    assert "not well-formed XML" in problem.message


def test_entities_and_external_files_are_refused() -> None:
    (problem,) = problems("entity-bomb.dnd4e")
    assert problem.endswith(":2: xml: a document type declaration (a save never has one)")


def test_missing_defenses() -> None:
    assert problems("no-defenses.txt") == [
        f"{BAD / 'no-defenses.txt'}:1: defenses: no defenses (AC, Fortitude, Reflex, Will) "
        "in the stat block"
    ]


def test_level_900_and_every_other_number_out_of_range() -> None:
    got = problems("level-900.txt")
    file = BAD / "level-900.txt"
    assert f"{file}:1: level: 900 is out of range (1..30)" in got
    assert f"{file}:4: hp: 10000 is out of range (1..1000)" in got
    assert f"{file}:5: ac: 950 is out of range (1..60)" in got
    assert len(got) == 7  # level, hp, four defenses, initiative: one line each


def test_only_the_good_creature_of_a_file_is_written(tmp_path: Path) -> None:
    (result,) = import_all([str(BAD / "one-good-one-bad.txt")], tmp_path)
    assert [c["id"] for c, _, _ in result.creatures] == ["ash-wolf"]
    assert [str(p) for p in result.problems] == [
        f"{BAD / 'one-good-one-bad.txt'}:15: hp: no number for hp in the source"
    ]
    text = (tmp_path / "one-good-one-bad.yaml").read_text()
    assert "ash-wolf" in text and "broken" not in text.lower()


def test_nothing_is_written_when_nothing_can_be_imported(tmp_path: Path) -> None:
    results = import_all([str(BAD / n) for n in ("not-xml.dnd4e", "level-900.txt")], tmp_path)
    assert all(r.output is None for r in results)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "no stat block found"),
        (b"\x00\x01\x02binary", "binary data"),
        (b"A shopping list\nmilk\neggs\n", "no stat block found"),
        (b"<D20Character game-system='D&amp;D4E'/>", "no <CharacterSheet>"),
        (b"<?xml version='1.0'?><Monster/>", "is not a Character Builder save"),
    ],
)
def test_other_bad_files(data: bytes, message: str) -> None:
    with pytest.raises(ImportFailed) as info:
        import_bytes(data, "bad.txt")
    assert message in str(info.value)
    assert "\n" not in str(info.value.problems[0])


def test_too_big_and_missing_files(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * (MAX_BYTES + 1))
    with pytest.raises(ImportFailed, match="too big"):
        import_file(big)
    with pytest.raises(ImportFailed, match="no such file"):
        import_file(tmp_path / "missing.dnd4e")
    with pytest.raises(ImportFailed, match="Masterplan"):
        import_bytes(b"\x00\x01\x00\x00\x00\xff\xff\xff\xff", "party.library")


def test_a_save_for_another_game_system() -> None:
    data = (SAMPLES / "ilvaris-wizard.dnd4e").read_bytes().replace(b"D&amp;D4E", b"Pathfinder")
    result = import_bytes(data, "pf.dnd4e")
    assert result.creatures == []
    assert [p.field for p in result.problems] == ["game-system"]


def test_a_power_that_cannot_be_imported_is_left_out_with_a_warning() -> None:
    text = (SAMPLES / "marsh-wyrm.txt").read_text()
    text = text.replace("Area burst 1 within 10;", "Area wall 5 within 10;")
    (c, ps, rep) = import_bytes(text.encode(), "wall.txt").creatures[0]
    assert "Spit Bile" not in [p["name"] for p in ps]
    assert any("Spit Bile" in str(w) and "not imported" in str(w) for w in rep.warnings)
    assert "Not imported: Spit Bile" in c["description"]


def test_numbers_too_long_for_int_are_problems_not_tracebacks() -> None:
    # Python refuses int() of more than 4,300 digits: such a number must be a plain problem
    digits = b"9" * 6000
    block = b"Big Thing  Level 3 Brute\nHP " + digits + b"\nAC 15; Fortitude 13, Reflex 12, "
    block += b"Will 12\nSpeed 6\nm Hit (standard; at-will)\n+5 vs. AC; " + digits + b"d6 damage."
    result = import_bytes(block, "big.txt")
    assert [str(p) for p in result.problems] == ["big.txt:2: hp: no number for hp in the source"]
    save = b"<D20Character game-system='D&amp;D4E'><CharacterSheet><Details><name>x</name>"
    save += b"<Level>" + digits + b"</Level></Details></CharacterSheet></D20Character>"
    result = import_bytes(save, "big.dnd4e")
    assert result.creatures == []
    assert any("is not a number" in str(p) for p in result.problems)


def test_an_unknown_encoding_in_the_xml_declaration() -> None:
    """Found by the fuzzer: expat asks Python for the declared codec, which raises LookupError."""
    data = (SAMPLES / "ilvaris-wizard.dnd4e").read_bytes().replace(b"utf-8", b"tf-8", 1)
    with pytest.raises(ImportFailed) as info:
        import_bytes(data, "enc.dnd4e")
    assert [str(p) for p in info.value.problems] == ["enc.dnd4e:1: xml: unknown encoding: tf-8"]
