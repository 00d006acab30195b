"""Loading: the bundled content, includes, the content hash, reloading from saved texts, docs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from engine.content import (
    ContentErrors,
    Library,
    bundled_encounters,
    bundled_files,
    check_files,
    load_encounter,
    load_library,
    weapon_for,
)
from engine.content import schema as schema_module
from engine.content.docs import CONDITIONS_END, CONDITIONS_START, conditions_markdown
from tests.support.content_errors import ENC, LIB, line_of, write

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "content.md"


# --- the bundled content -------------------------------------------------------------------


def test_bundled_goblin_hall_loads() -> None:
    # goblin-hall is the small fight the loader tests pin down; `default` grows with content.
    loaded = load_encounter("goblin-hall")
    assert loaded.source == "goblin-hall"
    assert loaded.path is None
    assert (loaded.bmap.width, loaded.bmap.height) == (20, 12)
    assert sorted(loaded.sources) == [
        "maps/bestiary/goblins.yaml",
        "maps/encounters/goblin-hall.yaml",
        "maps/party/heroes.yaml",
    ]
    sides = {c.side for c in loaded.spec.combatants}
    assert sides == {"party", "monsters"}
    players = [c.id for c in loaded.spec.combatants if loaded.control(c) == "player"]
    assert players == ["brom", "ilsa", "mara"]
    assert len(loaded.spec.combatants) == 8
    roles = {loaded.creature_of(c).role for c in loaded.spec.combatants if c.side == "monsters"}
    assert roles == {"brute", "skirmisher", "artillery", "soldier"}
    assert len(loaded.content_hash) == 64


def test_bundled_goblin_hall_exercises_the_rules() -> None:
    loaded = load_encounter("goblin-hall")
    powers = loaded.powers.values()
    assert any(p.kind == "close" and p.blast and p.usage == "encounter" for p in powers)
    assert any(p.kind == "area" and p.burst for p in powers)
    assert any(p.effect and p.effect.heal and p.effect.heal.surge for p in powers)
    outcomes = [o for p in powers for o in (p.hit, p.miss, p.effect) if o is not None]
    effects = [e for o in outcomes for e in o.effects]
    assert any(e.duration == "save_ends" and e.conditions for e in effects)
    assert any(e.ongoing for e in effects)
    assert any(o.forced and o.forced.kind == "push" for o in outcomes)
    cells = {loaded.bmap.cell(sq) for sq in loaded.bmap.squares()}
    kinds = {c.terrain.value for c in cells} | {c.obscured.value for c in cells}
    assert {"wall", "pillar", "obstacle", "lightly_obscured"} <= kinds
    assert any(c.difficult for c in cells)
    for pc in ("brom", "ilsa", "mara"):
        creature = loaded.creatures[pc]
        assert 3 <= len(creature.powers) <= 5
        assert any(loaded.powers[p].basic for p in creature.powers)
    brom = loaded.creatures["brom"]
    weapon = weapon_for(brom, loaded.powers["whirling-steel"])
    assert weapon is not None and weapon.id == "longsword"


def test_every_bundled_file_checks_clean() -> None:
    files = bundled_files()
    assert "encounters/default.yaml" in files
    assert "bestiary/goblins.yaml" in files and "party/heroes.yaml" in files
    assert check_files(files) == []


def test_bundled_encounters_listing() -> None:
    (info,) = [e for e in bundled_encounters() if e.name == "goblin-hall"]
    assert (info.width, info.height, info.creatures) == (20, 12, 8)
    (default,) = [e for e in bundled_encounters() if e.name == "default"]
    assert (default.width, default.height) == (30, 20)
    assert info.ruleset == "ffd20"
    assert info.description and "\n" not in info.description


# --- check_files -------------------------------------------------------------------------


def test_check_files_tells_libraries_from_encounters(tmp_path: Path) -> None:
    write(tmp_path, {"lib.yaml": LIB.replace("[club]", "[clubb]"), "enc.yaml": ENC})
    errors = check_files([tmp_path / "lib.yaml", str(tmp_path / "enc.yaml")])
    assert [e.field for e in errors] == ["creatures[1].powers[0]"]
    assert errors[0].file == str(tmp_path / "lib.yaml")


def test_library_is_self_contained(tmp_path: Path) -> None:
    write(tmp_path, {"lib.yaml": LIB.replace("    powers: [club]\n", "    powers: [zap]\n")})
    with pytest.raises(ContentErrors) as info:
        load_library(tmp_path / "lib.yaml")
    assert "unknown power 'zap'" in str(info.value)
    write(tmp_path, {"lib.yaml": LIB})
    library = load_library(tmp_path / "lib.yaml")
    assert isinstance(library, Library)
    assert [c.id for c in library.creatures] == ["hero", "orc"]


# --- includes ------------------------------------------------------------------------------


def test_include_relative_then_bundled(tmp_path: Path) -> None:
    enc = ENC.replace("include: [lib.yaml]", "include: [lib, bestiary/goblins]")
    write(tmp_path, {"lib.yaml": LIB, "enc.yaml": enc})
    loaded = load_encounter(tmp_path / "enc.yaml")
    assert "goblin-cutter" in loaded.creatures and "orc" in loaded.creatures
    assert str(tmp_path / "lib.yaml") in loaded.sources
    assert "maps/bestiary/goblins.yaml" in loaded.sources


def test_a_local_file_wins_over_a_bundled_library(tmp_path: Path) -> None:
    enc = ENC.replace("include: [lib.yaml]", "include: [bestiary/goblins]")
    write(tmp_path, {"bestiary/goblins.yaml": LIB, "enc.yaml": enc})
    loaded = load_encounter(tmp_path / "enc.yaml")
    assert "orc" in loaded.creatures and "goblin-cutter" not in loaded.creatures


def test_include_from_a_sibling_folder(tmp_path: Path) -> None:
    enc = ENC.replace("include: [lib.yaml]", "include: [../libs/lib.yaml]")
    write(tmp_path, {"libs/lib.yaml": LIB, "fights/enc.yaml": enc})
    loaded = load_encounter(tmp_path / "fights" / "enc.yaml")
    assert "orc" in loaded.creatures


def test_inline_creature_may_use_included_powers(tmp_path: Path) -> None:
    enc = ENC + (
        "creatures:\n  - id: ogre\n    name: Ogre\n    role: brute\n    hp: 40\n"
        "    defenses: {ac: 14, fortitude: 16, reflex: 12, will: 12}\n    powers: [club]\n"
    )
    enc = enc.replace("creature: orc,", "creature: ogre,")
    write(tmp_path, {"lib.yaml": LIB, "enc.yaml": enc})
    loaded = load_encounter(tmp_path / "enc.yaml")
    assert loaded.creatures["ogre"].powers == ["club"]


def test_including_a_file_twice(tmp_path: Path) -> None:
    enc = ENC.replace("include: [lib.yaml]", "include: [lib.yaml, lib]")
    write(tmp_path, {"lib.yaml": LIB, "enc.yaml": enc})
    with pytest.raises(ContentErrors) as info:
        load_encounter(tmp_path / "enc.yaml")
    (error,) = info.value.errors
    assert (error.line, error.field) == (line_of(enc, "include:"), "include[1]")
    assert "already included" in error.message


# --- the content hash and reloading from texts --------------------------------------------


def test_content_hash_is_stable_and_ignores_key_order(tmp_path: Path) -> None:
    write(tmp_path, {"lib.yaml": LIB, "enc.yaml": ENC})
    first = load_encounter(tmp_path / "enc.yaml").content_hash
    assert load_encounter(tmp_path / "enc.yaml").content_hash == first
    # The same content with every mapping's keys in another order, in another folder.
    other = tmp_path / "other"
    reordered = {
        name: yaml.safe_dump(yaml.safe_load(text), sort_keys=True)
        for name, text in (("lib.yaml", LIB), ("enc.yaml", ENC))
    }
    write(other, reordered)
    assert load_encounter(other / "enc.yaml").content_hash == first


def test_content_hash_changes_with_content(tmp_path: Path) -> None:
    write(tmp_path, {"lib.yaml": LIB, "enc.yaml": ENC})
    first = load_encounter(tmp_path / "enc.yaml").content_hash
    assert load_encounter(tmp_path / "enc.yaml", ruleset="4srd").content_hash != first
    write(tmp_path, {"lib.yaml": LIB.replace("bonus: 6", "bonus: 7")})
    assert load_encounter(tmp_path / "enc.yaml").content_hash != first


def test_bundled_hash_is_stable_across_runs() -> None:
    loaded = load_encounter("default")
    again = load_encounter("default", texts=loaded.sources)
    assert again.content_hash == loaded.content_hash
    assert again.sources == loaded.sources
    # Another interpreter with another hash seed computes the same hash.
    code = (
        "from engine.content import load_encounter; print(load_encounter('default').content_hash)"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == loaded.content_hash


def test_reload_from_saved_texts_without_the_files(tmp_path: Path) -> None:
    write(tmp_path, {"lib.yaml": LIB, "enc.yaml": ENC})
    loaded = load_encounter(tmp_path / "enc.yaml")
    (tmp_path / "lib.yaml").unlink()
    (tmp_path / "enc.yaml").unlink()
    again = load_encounter(tmp_path / "enc.yaml", texts=loaded.sources)
    assert again.content_hash == loaded.content_hash
    assert again.path is None


def test_ruleset_override() -> None:
    loaded = load_encounter("default", ruleset="d20srd")
    assert loaded.spec.ruleset == "d20srd"


# --- docs/content.md ------------------------------------------------------------------------


def test_docs_conditions_table_is_generated() -> None:
    text = DOCS.read_text(encoding="utf-8")
    start = text.index(CONDITIONS_START) + len(CONDITIONS_START)
    end = text.index(CONDITIONS_END)
    assert text[start:end] == "\n" + conditions_markdown()


def _models() -> list[type[schema_module.Model]]:
    return [
        obj
        for obj in vars(schema_module).values()
        if isinstance(obj, type)
        and issubclass(obj, schema_module.Model)
        and obj is not schema_module.Model
    ]


@pytest.mark.parametrize("model", _models(), ids=lambda m: m.__name__)
def test_docs_describe_every_field(model: type[schema_module.Model]) -> None:
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(rf"^#+ {model.__name__}\n(.*?)(?=^#+ )", text, re.S | re.M)
    assert found, f"docs/content.md has no section for {model.__name__}"
    for name in model.model_fields:
        assert f"| `{name}` |" in found.group(1), f"{model.__name__}.{name} is not documented"


def test_docs_worked_example_loads(tmp_path: Path) -> None:
    text = DOCS.read_text(encoding="utf-8")
    example = text.split("## Worked example", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "crypt.yaml").write_text(example, encoding="utf-8")
    loaded = load_encounter(tmp_path / "crypt.yaml")
    assert loaded.spec.name == "crypt-ambush"
    assert loaded.bmap.blocks_movement((7, 5))  # the custom sarcophagus symbol
