"""The content's `ai` fields (issue 15 target 4): read on a combatant, a creature and a side;
a typo or a bad value reported at its file, line and field; kept in a save's embedded content;
content without them hashing as it did before they existed (old saves resume)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.content import load_encounter
from engine.content.styles import AIStyle
from tests.support.content_errors import ENC, LIB, find, line_of, load_errors, write

HASH_BEFORE_STYLES = "5555824100819f8913ffc9df8a2f448460796b18161db4e2d76537fa12659f1a"
"""`ENC` with `LIB` as hashed by the loader before styles existed: a save records it, and
resuming checks it. (If a new content field changes it, old saves stop resuming: leave unset
fields out of the hash, as `drop_unset_styles` does.)"""

STYLED_LIB = LIB.replace("    powers: [club]\n", "    powers: [club]\n    ai: {flee: true}\n")
STYLED_ENC = ENC.replace("  foes: {}\n", "  foes: {ai: {ruthless: true, caution: bold}}\n").replace(
    "  - {id: o1, creature: orc, side: foes, pos: [5, 3]}\n",
    "  - {id: o1, creature: orc, side: foes, pos: [5, 3], ai: {caution: cautious}}\n",
)


def test_styles_are_read_at_every_level(tmp_path: Path) -> None:
    write(tmp_path, {"lib.yaml": STYLED_LIB, "enc.yaml": STYLED_ENC})
    loaded = load_encounter(tmp_path / "enc.yaml")
    assert loaded.creatures["orc"].ai == AIStyle(flee=True)
    assert loaded.creatures["hero"].ai is None
    assert loaded.spec.sides["foes"].ai == AIStyle(ruthless=True, caution="bold")
    assert loaded.spec.combatants[1].ai == AIStyle(caution="cautious")
    # a save embeds the texts it was loaded from: resuming reads the same styles
    again = load_encounter(tmp_path / "enc.yaml", texts=loaded.sources)
    assert again.spec == loaded.spec and again.creatures == loaded.creatures
    assert again.content_hash == loaded.content_hash


def test_content_without_styles_hashes_as_before(tmp_path: Path) -> None:
    write(tmp_path, {"lib.yaml": LIB, "enc.yaml": ENC})
    assert load_encounter(tmp_path / "enc.yaml").content_hash == HASH_BEFORE_STYLES
    write(tmp_path, {"lib.yaml": STYLED_LIB, "enc.yaml": ENC})
    assert load_encounter(tmp_path / "enc.yaml").content_hash != HASH_BEFORE_STYLES


@pytest.mark.parametrize(
    ("where", "ai", "field", "needle"),
    [
        ("side", "{ruthles: true}", "sides.foes.ai.ruthles", "unknown key 'ruthles' (did you mean"),
        ("side", "{caution: carefull}", "sides.foes.ai.caution", "must be one of: bold, normal"),
        ("creature", '{flee: "yes"}', "creatures[1].ai.flee", "expected true or false"),
        ("creature", "{flee: 1}", "creatures[1].ai.flee", "expected true or false"),
        ("combatant", "wild", "combatants[1].ai", "expected a mapping"),
        ("combatant", "{caution: 3}", "combatants[1].ai.caution", "must be one of"),
        ("combatant", "[ruthless]", "combatants[1].ai", "expected a mapping"),
    ],
)
def test_a_bad_style_names_file_line_and_field(
    tmp_path: Path, where: str, ai: str, field: str, needle: str
) -> None:
    lib, enc = LIB, ENC
    if where == "side":
        enc = ENC.replace("  foes: {}\n", f"  foes: {{ai: {ai}}}\n")
        file, line = "enc.yaml", line_of(enc, "foes: {ai")
    elif where == "creature":
        lib = LIB.replace("    powers: [club]\n", f"    powers: [club]\n    ai: {ai}\n")
        file, line = "lib.yaml", line_of(lib, "ai:")
    else:
        old = "  - {id: o1, creature: orc, side: foes, pos: [5, 3]}\n"
        enc = ENC.replace(old, old.replace("]}", f"], ai: {ai}}}"))
        file, line = "enc.yaml", line_of(enc, "id: o1")
    errors = load_errors(tmp_path, lib=lib, enc=enc)
    error = find(errors, tmp_path / file, line, field)
    assert needle in error.message
