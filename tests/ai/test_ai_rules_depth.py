"""The tactical AI and issue 16's rules: it stabilizes a dying ally when that beats
attacking (S-10 addition: a Heal check, DC 15) and doesn't waste attacks on creatures immune
to them (issue 16 item 3). Scenarios are placed mid-way (item 7: starting hp, failed death
saves) through the real loader."""

from __future__ import annotations

from typing import Any

from ai.tactical import TacticalPolicy
from engine.actions import HealCheck, UsePower
from tests.support.helpers import BASIC_MELEE, FIGHTER, GOBLIN, mon, pc
from tests.support.scenarios import play_turn, until_turn

GRID = "\n".join(["........"] * 5)
MACE = {
    "id": "mace",
    "name": "Mace",
    "kind": "melee",
    "basic": True,
    "attack": {"bonus": 6, "vs": "ac"},
    "hit": {"damage": {"dice": "1d8", "bonus": 3}},
}
FLAMES = {
    "id": "flames",
    "name": "Searing Flames",
    "kind": "melee",
    "attack": {"bonus": 8, "vs": "reflex"},
    "hit": {"damage": {"dice": "3d8", "bonus": 4, "types": ["fire"]}},
}
CLAW = {
    "id": "claw",
    "name": "Claw",
    "kind": "melee",
    "basic": True,
    "attack": {"bonus": 4, "vs": "ac"},
    "hit": {"damage": {"dice": "1d6"}},
}
MEDIC = dict(FIGHTER, id="medic", name="Medic", powers=["mace"], skills={"heal": 8})
CLUMSY = dict(MEDIC, id="clumsy", name="Clumsy", skills={"heal": -5})
PYRO = dict(FIGHTER, id="pyro", name="Pyro", powers=["mace", "flames"])
OGRE = dict(GOBLIN, id="ogre", name="Ogre", hp=60, powers=["claw"])
SALAMANDER = dict(OGRE, id="salamander", name="Salamander", immune=["fire"])


def fight(build: Any, combatants: list[dict[str, Any]], seed: int = 3) -> Any:
    return build(
        GRID,
        combatants,
        creatures=[FIGHTER, MEDIC, CLUMSY, PYRO, OGRE, SALAMANDER],
        powers=[MACE, FLAMES, CLAW, BASIC_MELEE],
        seed=seed,
    )


def test_S_10_addition_ai_stabilizes_a_dying_ally_near_death(build: Any) -> None:
    enc = fight(
        build,
        [
            pc("hurt", (2, 2), "fighter", hp=-5, death_failures=1),
            pc("doc", (3, 2), "medic", action_points=0),
            mon("ogre", (4, 2), "ogre"),
        ],
    )
    until_turn(enc, "doc")
    assert enc.battle["hurt"].state == "dying"
    actions, decisions = play_turn(enc, TacticalPolicy())
    assert HealCheck("hurt") in actions
    assert "stabilizes" in decisions[0].summary


def test_S_10_addition_ai_attacks_when_first_aid_is_worth_less(build: Any) -> None:
    # No failed death save yet, a poor healer (Heal -5: 5% to succeed) and an enemy to hit
    enc = fight(
        build,
        [
            pc("hurt", (2, 2), "fighter", hp=-1),
            pc("doc", (3, 2), "clumsy", action_points=0),
            mon("ogre", (4, 2), "ogre", hp=4),
        ],
    )
    until_turn(enc, "doc")
    assert enc.battle["hurt"].state == "dying"
    actions, _ = play_turn(enc, TacticalPolicy())
    assert not any(isinstance(a, HealCheck) for a in actions)
    assert UsePower("mace", ("ogre",)) in actions


def test_immunity_ai_does_not_waste_fire_on_a_fire_immune_enemy(build: Any) -> None:
    enc = fight(build, [pc("p", (2, 2), "pyro", action_points=0), mon("s", (3, 2), "salamander")])
    until_turn(enc, "p")
    actions, _ = play_turn(enc, TacticalPolicy())
    used = [a.power for a in actions if isinstance(a, UsePower)]
    assert used == ["mace"]


def test_immunity_ai_uses_fire_on_an_enemy_that_is_not_immune(build: Any) -> None:
    enc = fight(build, [pc("p", (2, 2), "pyro", action_points=0), mon("o", (3, 2), "ogre")])
    until_turn(enc, "p")
    actions, _ = play_turn(enc, TacticalPolicy())
    used = [a.power for a in actions if isinstance(a, UsePower)]
    assert used == ["flames"]
