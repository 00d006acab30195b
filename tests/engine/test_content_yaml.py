"""The YAML reader: plain data, positions of every value and key, duplicate keys, syntax."""

from __future__ import annotations

import pytest

from engine.content.errors import ContentErrors
from engine.content.yamlsrc import Mark, parse_yaml

TEXT = """\
# a comment
name: test
map:
  name: Hall
  grid: |
    ####
    #..#
    ####
combatants:
  - {id: a, pos: [1, 2]}
  - id: b
    pos: [2, 1]
"""


def test_plain_data() -> None:
    doc = parse_yaml(TEXT, "t.yaml")
    assert doc.data == {
        "name": "test",
        "map": {"name": "Hall", "grid": "####\n#..#\n####\n"},
        "combatants": [{"id": "a", "pos": [1, 2]}, {"id": "b", "pos": [2, 1]}],
    }


def test_value_and_key_positions() -> None:
    doc = parse_yaml(TEXT, "t.yaml")
    assert doc.values[("name",)] == Mark(2, 7)
    assert doc.keys[("name",)] == Mark(2, 1)
    assert doc.keys[("map", "grid")] == Mark(5, 3)
    assert doc.values[("combatants", 0, "pos", 1)] == Mark(10, 22)
    assert doc.values[("combatants", 1)] == Mark(11, 5)
    assert doc.line(("combatants", 1, "pos")) == 12
    # A missing path falls back to the nearest enclosing value...
    assert doc.line(("combatants", 1, "nope")) == 11
    # ...and a mapping or list under a key is reported at its key.
    assert doc.line(("combatants",)) == 9
    assert doc.line(("map", "legend")) == 3


def test_block_scalar_rows_map_to_file_lines() -> None:
    doc = parse_yaml(TEXT, "t.yaml")
    assert doc.blocks[("map", "grid")] == 6
    assert doc.text_line(("map", "grid"), 2) == 7
    # Not a block scalar: every row is reported at the value's line.
    assert doc.text_line(("name",), 3) == 2


def test_duplicate_keys_name_both_lines_and_all_are_reported() -> None:
    text = "a: 1\nb:\n  c: 1\n  c: 2\na: 3\n"
    with pytest.raises(ContentErrors) as info:
        parse_yaml(text, "d.yaml")
    assert str(info.value).splitlines() == [
        "d.yaml:4: b.c: duplicate key 'c' (first at line 3)",
        "d.yaml:5: a: duplicate key 'a' (first at line 1)",
    ]


def test_keys_are_kept_as_written() -> None:
    # YAML would read these keys as null, a special tag, a boolean and an integer.
    doc = parse_yaml("legend:\n  ~: {}\n  =: {}\n  on: {}\n  1: {}\n'.': {}\n", "k.yaml")
    assert list(doc.data["legend"]) == ["~", "=", "on", "1"]
    assert "." in doc.data


def test_equals_sign_value_is_text() -> None:
    assert parse_yaml("symbol: =\n", "v.yaml").data == {"symbol": "="}


def test_merge_keys_do_not_count_as_duplicates() -> None:
    text = "base: &b {hp: 10, speed: 6}\norc:\n  <<: *b\n  hp: 12\n"
    doc = parse_yaml(text, "m.yaml")
    assert doc.data["orc"] == {"hp": 12, "speed": 6}
    assert doc.line(("orc", "hp")) == 4


def test_syntax_error_has_the_line() -> None:
    with pytest.raises(ContentErrors) as info:
        parse_yaml("a: 1\nb: [1, 2\nc: 3\n", "s.yaml")
    (error,) = info.value.errors
    assert (error.file, error.field) == ("s.yaml", "yaml")
    assert error.line == 3
    assert error.message.startswith("YAML syntax error: ")


def test_unsafe_tag_is_an_error_not_an_object() -> None:
    with pytest.raises(ContentErrors) as info:
        parse_yaml("a: !!python/object:os.system {}\n", "u.yaml")
    assert str(info.value).startswith("u.yaml:1: a: cannot read this value")


def test_empty_document() -> None:
    assert parse_yaml("# nothing\n", "e.yaml").data is None


def test_two_documents_are_an_error() -> None:
    with pytest.raises(ContentErrors) as info:
        parse_yaml("a: 1\n---\nb: 2\n", "two.yaml")
    assert info.value.errors[0].line == 2
