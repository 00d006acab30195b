"""Shared helpers for the content tests (no tests here): a valid library and encounter to break."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.content import ContentError, ContentErrors, load_encounter

LIB = """\
creatures:
  - id: hero
    name: Hero
    kind: pc
    hp: 25
    abilities: {str: 16}
    weapons:
      - {id: sword, name: sword, dice: 1d8, proficiency: 3}
    powers: [slash]
  - id: orc
    name: Orc
    role: brute
    hp: 30
    defenses: {ac: 15, fortitude: 14, reflex: 12, will: 12}
    powers: [club]
powers:
  - id: slash
    name: Slash
    keywords: [weapon]
    attack: {vs: ac, ability: str}
    hit:
      damage: {dice: "1[W]", ability: str}
  - id: club
    name: Club
    attack: {vs: ac, bonus: 6}
    hit:
      damage: {dice: 1d8+3}
"""

ENC = """\
name: test
include: [lib.yaml]
map:
  name: Test
  grid: |
    #######
    #.....#
    #..#..#
    #.....#
    #######
sides:
  heroes: {control: player}
  foes: {}
combatants:
  - {id: h1, creature: hero, side: heroes, pos: [1, 1]}
  - {id: o1, creature: orc, side: foes, pos: [5, 3]}
"""


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """1-based line of the nth line containing `needle`."""
    hits = [i for i, line in enumerate(text.splitlines(), start=1) if needle in line]
    assert len(hits) >= nth, f"{needle!r} not in text"
    return hits[nth - 1]


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def load_errors(folder: Path, lib: str = LIB, enc: str = ENC) -> list[ContentError]:
    write(folder, {"lib.yaml": lib, "enc.yaml": enc})
    with pytest.raises(ContentErrors) as info:
        load_encounter(folder / "enc.yaml")
    return info.value.errors


def find(errors: list[ContentError], file: Path, line: int, field: str) -> ContentError:
    """The error at exactly that file, line and field (and its text says so)."""
    for error in errors:
        if (error.file, error.line, error.field) == (str(file), line, field):
            assert str(error).startswith(f"{file}:{line}: {field}: ")
            return error
    listing = "\n".join(str(e) for e in errors)
    raise AssertionError(f"no error at {file}:{line}: {field}; got:\n{listing}")
