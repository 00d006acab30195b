"""Adding a ruleset is its module, its content and its tests (issue 13, docs/rulesets.md):
this test registers a tiny fourth ruleset in the test alone and plays fights with it. It
names itself in content (`ruleset: tiny`), describes its one extra action (the S-15
withdraw, with its own exemption), keeps its own per-creature state and computes defenses
through the base class's memo, and nothing outside this file knows it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ai.sim import play
from engine.actions import FullAttack, Move, UsePower, Withdraw
from engine.content.errors import ContentErrors
from engine.content.loader import load_encounter
from engine.content.schema import Creature, Power, Weapon
from engine.events import Attack, Damage, EncounterStart, Mod, Provoke
from engine.movement import move_provocations, threatening
from engine.refusals import Refusal
from engine.rulesets import (
    RULESETS,
    CreatureRules,
    ExtraAction,
    Ruleset,
    names_offering,
    register,
    ruleset_names,
    unregister,
)
from engine.rulesets.ffd20 import ffd20_attack_modifiers, ffd20_defense
from engine.state import Combatant
from tests.support.helpers import Builder, events
from tests.support.movement import CREATURES, POWERS, mon

GRID = "..........\n..........\n..........\n..........\n"
TACTICAL = {"party": "tactical", "monsters": "tactical"}


@dataclass(slots=True)
class Grudges(CreatureRules):
    """The tiny ruleset's own record: how many opportunity attacks each creature took."""

    taken: int = 0


class Tiny(Ruleset):
    """ffd20's numbers, a minimum of 3 damage on a hit, and a withdraw whose first TWO
    squares provoke nothing."""

    name = "tiny"
    minimum_damage_on_hit = 3
    extra_actions = (ExtraAction("withdraw", "Withdraw", "double move, 2 squares free", "T-1"),)

    def _defense(self, cr: Creature, which: str, flat_footed: bool, touch: bool) -> int:
        return ffd20_defense(cr, which)

    def _attack_modifiers(self, c: Combatant, power: Power, weapon: Weapon | None) -> list[Mod]:
        return ffd20_attack_modifiers(c, power, weapon)

    def new_state(self, c: Combatant) -> Grudges:
        return Grudges()

    def note_opportunity(self, c: Combatant, turn_counter: int, round_no: int) -> None:
        super().note_opportunity(c, turn_counter, round_no)
        grudges: Grudges = c.rules
        grudges.taken += 1

    def unprovoked_squares(self, mode: str) -> int:
        return 2 if mode == "withdraw" else 0


@pytest.fixture
def tiny() -> Iterator[None]:
    register(Tiny)
    try:
        yield
    finally:
        unregister("tiny")


def test_a_ruleset_is_known_once_registered(tiny: None) -> None:
    assert RULESETS["tiny"] is Tiny
    assert ruleset_names() == ("ffd20", "4srd", "d20srd", "tiny")
    assert names_offering("withdraw") == ("4srd", "d20srd", "tiny")
    assert names_offering("full_attack") == ("d20srd",)


def test_an_unregistered_ruleset_is_a_content_error(build: Builder) -> None:
    with pytest.raises(ContentErrors, match=r"ruleset: must be one of: ffd20, 4srd, d20srd "):
        build(GRID, [mon("m", (1, 1), side="party"), mon("e", (5, 1))], ruleset="tiny")


def test_S_15_a_fourth_ruleset_describes_and_rules_its_withdraw(build: Builder, tiny: None) -> None:
    enc = build(
        GRID,
        [mon("m", (1, 1), side="party"), mon("e", (2, 1))],
        creatures=CREATURES,
        powers=POWERS,
        faces=[20, 19],
        ruleset="tiny",
    )
    assert events(enc, EncounterStart)[0].ruleset == "tiny"
    assert enc.battle.ruleset.offers("withdraw") and not enc.battle.ruleset.offers("shift")
    refusal = enc.refusal(FullAttack("jab", ("e",)))
    assert refusal is not None and refusal.code is Refusal.NOT_IN_RULESET
    assert refusal.reason == "there is no full attack in tiny (d20srd)"
    # m leaves (1,1) and then (1,2), both in e's reach: a walk provokes, the tiny withdraw
    # (its first two squares free) doesn't; the app's path preview asks the same function
    path = [(1, 1), (1, 2), (0, 3)]
    threat = threatening(enc.battle, enc.battle["m"])
    assert move_provocations(enc.battle, enc.battle["m"], path, "walk", threat) != []
    assert move_provocations(enc.battle, enc.battle["m"], path, "withdraw", threat) == []
    out = enc.apply(Withdraw(tuple(path)))
    assert events(out, Provoke) == []
    assert enc.battle["m"].pos == (0, 3)


def test_S_5_a_fourth_ruleset_sets_its_minimum_damage(build: Builder, tiny: None) -> None:
    enc = build(
        GRID,
        [mon("e", (2, 1)), mon("m", (1, 1), side="party")],
        creatures=CREATURES,
        powers=POWERS,
        faces=[20, 19, 15, 1],  # e hits (15 + 5 vs AC 15) for a 1 on its d6
        ruleset="tiny",
    )
    out = enc.apply(UsePower("jab", ("m",)))
    assert [d.amount for d in events(out, Damage)] == [3]


def test_a_fourth_ruleset_keeps_its_own_creature_state(build: Builder, tiny: None) -> None:
    enc = build(
        GRID,
        [mon("m", (1, 1), side="party"), mon("e", (2, 1))],
        creatures=CREATURES,
        powers=POWERS,
        faces=[20, 19, 15, 3],
        ruleset="tiny",
    )
    assert isinstance(enc.battle["e"].rules, Grudges)
    out = enc.apply(Move(((1, 1), (0, 1))))  # leaves e's reach: e takes its attack
    assert [p.taken for p in events(out, Provoke)] == [True]
    assert events(out, Attack)[0].attacker == "e"
    assert enc.battle["e"].rules.taken == 1


def test_whole_fights_in_a_fourth_ruleset_end_cleanly(tiny: None) -> None:
    loaded = load_encounter("default", "tiny")
    for seed in range(3):
        enc, result = play(loaded, seed, TACTICAL, ruleset="tiny")
        assert enc.over and result.illegal == []
        assert events(enc, EncounterStart)[0].ruleset == "tiny"
        hits = [d for d in events(enc, Damage) if d.cause in ("hit", "crit")]
        assert hits and all(d.amount >= 3 for d in hits), "the ruleset's own minimum"


def test_the_docs_example_ruleset_registers_and_plays() -> None:
    """docs/rulesets.md's module, run as written, is a working ruleset."""
    doc = Path(__file__).resolve().parents[2] / "docs" / "rulesets.md"
    code = doc.read_text(encoding="utf-8").split("```python\n", 1)[1].split("```", 1)[0]
    try:
        exec(compile(code, str(doc), "exec"), {"__name__": "grim_example"})
        assert "grim" in ruleset_names()
        enc, result = play(load_encounter("default", "grim"), 1, TACTICAL, ruleset="grim")
        assert enc.over and result.illegal == []
    finally:
        unregister("grim")
