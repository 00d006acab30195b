"""The bundled content (issue 5): it checks clean, it lists, and it covers what it promises.

The party covers every kind of power, the bestiary every role and special rule with 4e-like
numbers, and each named encounter shows off the rule it is there for. `mirror` belongs to the
AI work: it is only required to check clean and use its own sides.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from engine.content.bundled import bundled_encounters, bundled_files, check_files
from engine.content.loader import LoadedEncounter, load_encounter
from engine.content.schema import Creature, EffectSpec, Library, Outcome, Power
from engine.grid import Cell
from engine.grid.terrain import Terrain

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
NAMED = ("default", "ambush", "fog", "chasm", "battle")
ROLES = {"brute", "soldier", "skirmisher", "artillery", "controller", "lurker"}


def library(rel: str) -> Library:
    return Library.model_validate(yaml.safe_load((MAPS / rel).read_text(encoding="utf-8")))


def bestiary() -> tuple[list[Creature], dict[str, Power]]:
    creatures: list[Creature] = []
    powers: dict[str, Power] = {}
    for rel in bundled_files():
        if rel.startswith("bestiary/") and rel != "bestiary/mirror.yaml":
            lib = library(rel)
            creatures += lib.creatures
            powers.update({p.id: p for p in lib.powers})
    return creatures, powers


def outcomes(p: Power) -> list[Outcome]:
    return [o for o in (p.hit, p.miss, p.effect) if o is not None]


def effects(p: Power) -> Iterator[EffectSpec]:
    for o in outcomes(p):
        for e in o.effects:
            yield e
            if e.aftereffect is not None:
                yield e.aftereffect


# --- check and list ------------------------------------------------------------------------


@pytest.mark.slow
def test_skirmish_check_passes_on_all_bundled_content(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import main

    files = bundled_files()
    assert {
        "party/lanterns.yaml",
        "bestiary/marauders.yaml",
        "bestiary/mistfen.yaml",
        "bestiary/crags.yaml",
    } <= set(files)
    assert {f"encounters/{n}.yaml" for n in NAMED} <= set(files)
    assert check_files(files) == []
    assert main(["check"]) == 0
    assert f"{len(files)} files OK" in capsys.readouterr().out


def test_skirmish_list_shows_every_encounter(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import main

    assert main(["list"]) == 0
    out = capsys.readouterr().out
    infos = bundled_encounters()
    assert {i.name for i in infos} >= set(NAMED)
    for info in infos:
        assert info.description and "\n" not in info.description, info.name
        line = next(ln for ln in out.splitlines() if ln.split()[0] == info.name)
        assert f"{info.width}x{info.height}" in line and info.description in line


@pytest.mark.parametrize("name", [e.name for e in bundled_encounters()])
def test_every_bundled_encounter_loads_with_its_sides(name: str) -> None:
    loaded = load_encounter(name)
    sides = {c.side for c in loaded.spec.combatants}
    league = ("mirror", "field", "gate")  # the symmetric maps of the AI league
    assert sides == ({"east", "west"} if name in league else {"party", "monsters"})
    assert loaded.spec.description


def test_the_docs_list_every_bundled_library_creature_and_encounter() -> None:
    docs = (ROOT / "docs" / "content.md").read_text(encoding="utf-8")
    bundled = docs[docs.index("## Bundled content") :]
    for rel in bundled_files():
        if rel.startswith(("party/", "bestiary/")) and rel != "bestiary/mirror.yaml":
            assert f"`{rel.removesuffix('.yaml')}`" in bundled, rel
            for creature in library(rel).creatures:
                assert f"`{creature.id}`" in bundled, f"{rel}: {creature.id}"
    for info in bundled_encounters():
        assert f"| `{info.name}` |" in bundled, info.name


# --- the party ---------------------------------------------------------------------------


def test_the_party_is_five_level_1_to_3_heroes_with_4_to_6_powers() -> None:
    lib = library("party/lanterns.yaml")
    powers = {p.id: p for p in lib.powers}
    assert len(lib.creatures) == 5
    for pc in lib.creatures:
        assert pc.kind == "pc" and 1 <= pc.level <= 3, pc.id
        assert pc.armor is not None and pc.weapons and pc.healing_surges > 0, pc.id
        assert pc.abilities != type(pc.abilities)(), pc.id  # real ability scores
        # 4 to 6 powers to choose from on its turn, and at most one that triggers by itself
        triggered = [p for p in pc.powers if powers[p].trigger is not None]
        assert 4 <= len(pc.powers) - len(triggered) <= 6 and len(triggered) <= 1, pc.id
        usages = {powers[p].usage for p in pc.powers}
        assert {"at-will", "encounter", "daily"} <= usages, pc.id
        # a melee basic attack: what opportunity attacks use
        assert any(powers[p].basic and powers[p].kind == "melee" for p in pc.powers), pc.id


def test_the_party_powers_cover_every_kind_of_effect() -> None:
    powers = library("party/lanterns.yaml").powers
    kinds = {p.kind for p in powers if p.attack is not None}
    assert {"melee", "ranged", "close", "area"} <= kinds
    assert any(p.kind == "close" and p.blast for p in powers)
    assert any(p.kind == "close" and p.burst for p in powers)
    assert any(p.kind == "area" and p.burst for p in powers)
    assert any(o.heal and o.heal.surge for p in powers for o in outcomes(p))
    forced = {o.forced.kind for p in powers for o in outcomes(p) if o.forced}
    assert forced == {"push", "pull", "slide"}
    all_effects = [e for p in powers for e in effects(p)]
    assert any(e.ongoing for e in all_effects)
    assert any(e.duration == "save_ends" and e.conditions for e in all_effects)
    assert any(e.duration.startswith("sustain_") for e in all_effects)


# --- the bestiary ------------------------------------------------------------------------


def test_the_bestiary_has_every_role_and_special_creature() -> None:
    creatures, powers = bestiary()
    assert len(creatures) >= 16
    assert {c.role for c in creatures} == ROLES
    assert any(c.size == "large" for c in creatures)
    assert any(c.insubstantial for c in creatures)
    assert any(c.resist for c in creatures) and any(c.vulnerable for c in creatures)
    assert any(c.minion and c.hp == 1 for c in creatures)
    assert any(powers[p].usage == "recharge" and powers[p].recharge for p in powers)

    def reach(c: Creature) -> int:
        weapon = max((w.reach for w in c.weapons if w.kind == "melee"), default=1)
        power = max((powers[p].reach or 1 for p in c.powers), default=1)
        return max(c.reach or 1, weapon, power)

    assert any(reach(c) >= 2 for c in creatures)

    def hides(c: Creature) -> bool:
        return c.invisible or any(
            "invisible" in e.conditions for p in c.powers for e in effects(powers[p])
        )

    assert any(c.role == "lurker" and hides(c) for c in creatures)


def _monster_attacks(c: Creature, powers: dict[str, Power]) -> Iterator[Power]:
    for pid in c.powers:
        p = powers[pid]
        if p.attack is not None and p.usage == "at-will" and p.basic:
            yield p


@pytest.mark.parametrize("creature", bestiary()[0], ids=lambda c: c.id)
def test_monster_numbers_are_4e_like(creature: Creature) -> None:
    """Level N: attack +N+5 vs AC, +N+3 vs the rest; AC 14+N (soldier +2, artillery -2);
    hit points by role; at-will damage about 1d8+N+3. Within a small tolerance."""
    _, powers = bestiary()
    c, n = creature, creature.level
    assert c.defenses is not None and c.role is not None
    ac = 14 + n + {"soldier": 2, "artillery": -2}.get(c.role, 0)
    assert abs(c.defenses.ac - ac) <= 1, f"AC {c.defenses.ac}, expected about {ac}"
    for d in (c.defenses.fortitude, c.defenses.reflex, c.defenses.will):
        assert 10 + n <= d <= 15 + n
    if c.minion:
        assert c.hp == 1
    else:
        hp = {
            "brute": 26 + 10 * n,
            "soldier": 24 + 8 * n,
            "skirmisher": 24 + 8 * n,
            "controller": 24 + 8 * n,
            "artillery": 22 + 6 * n,
            "lurker": 22 + 6 * n,
        }[c.role]
        assert abs(c.hp - hp) <= 0.15 * hp, f"hp {c.hp}, expected about {hp}"
    basics = list(_monster_attacks(c, powers))
    assert any(p.kind == "melee" for p in basics), "a melee basic attack (for opportunity attacks)"
    for p in basics:
        assert p.attack is not None
        want = n + 5 if p.attack.vs == "ac" else n + 3
        low = 2 if c.role == "artillery" and p.kind == "melee" else 1  # artillery melee is weak
        bonus = p.attack.bonus
        assert want - low <= bonus <= want + 1, f"{p.id}: +{bonus} vs {p.attack.vs}"


# --- the encounters ----------------------------------------------------------------------


def _cells(loaded: LoadedEncounter) -> list[Cell]:
    return [loaded.bmap.cell(sq) for sq in loaded.bmap.squares()]


def _count(loaded: LoadedEncounter, side: str) -> int:
    return sum(1 for c in loaded.spec.combatants if c.side == side)


def test_default_is_a_real_first_fight() -> None:
    loaded = load_encounter("default")
    assert 28 <= loaded.bmap.width <= 32 and 18 <= loaded.bmap.height <= 22
    assert _count(loaded, "party") == 5
    # "About 8 monsters", counted as 4e budgets them: four minions are worth one monster.
    worth = sum(
        0.25 if loaded.creature_of(c).minion else 1.0
        for c in loaded.spec.combatants
        if c.side == "monsters"
    )
    assert 7 <= worth <= 9
    cells = _cells(loaded)
    terrain = {c.terrain for c in cells}
    assert {Terrain.WALL, Terrain.PILLAR} <= terrain
    assert any(c.difficult for c in cells)
    assert any(c.obscured.value != "none" for c in cells)
    assert all(loaded.control(c) == "player" for c in loaded.spec.combatants if c.side == "party")


def test_ambush_has_a_surprise_round() -> None:
    loaded = load_encounter("ambush")
    surprise = loaded.spec.surprise
    assert surprise is not None
    assert surprise.mode == "stealth" and surprise.hidden == ["monsters"]


def test_fog_has_every_kind_of_obscurement_and_the_unseen() -> None:
    loaded = load_encounter("fog")
    kinds = {c.obscured.value for c in _cells(loaded)}
    assert {"lightly_obscured", "heavily_obscured", "totally_obscured"} <= kinds
    placed = [loaded.creature_of(c) for c in loaded.spec.combatants]
    assert any(c.invisible for c in placed)
    assert any(c.insubstantial for c in placed)


def test_chasm_has_pits_and_forced_movement_to_use_them() -> None:
    loaded = load_encounter("chasm")
    pits = [c for c in _cells(loaded) if c.terrain == Terrain.PIT]
    assert pits and any(c.depth > 10 for c in pits)
    placed = {c.creature for c in loaded.spec.combatants}
    forced = {
        o.forced.kind
        for cid in placed
        for pid in loaded.creatures[cid].powers
        for o in outcomes(loaded.powers[pid])
        if o.forced
    }
    assert {"push", "pull"} <= forced
    assert any(loaded.creatures[cid].size == "large" for cid in placed)


def test_battle_is_the_big_performance_case() -> None:
    loaded = load_encounter("battle")
    assert (loaded.bmap.width, loaded.bmap.height) == (60, 60)
    assert len(loaded.spec.combatants) >= 25
