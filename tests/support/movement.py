"""The movement rules tests' world (tests/engine/test_rules_movement.py, and the tests of
questions and of a fourth ruleset that reuse it): units with reach, a brute, a tripper, a
ghost, a hero, and `fight`, where combatants act in the order listed."""

from __future__ import annotations

from typing import Any

from engine.encounter import Encounter
from tests.support.helpers import Builder

GRID = "..........\n..........\n..........\n..........\n"


def power(pid: str, **over: Any) -> dict[str, Any]:
    p = {
        "id": pid,
        "name": pid.title(),
        "kind": "melee",
        "attack": {"bonus": 5, "vs": "ac"},
        "hit": {"damage": {"dice": "1d6"}},
    }
    p.update(over)
    return p


POWERS = [
    power("jab", basic=True),
    power("zap", kind="ranged", range=10),
    power("nova", kind="close", burst=1, target="enemy", targets=8),
    power("flare", kind="area", range=10, burst=1, target="enemy", targets=9),
    power("spear", basic=True, reach=2),
    power("maul", basic=True, attack={"bonus": 30, "vs": "ac"}, hit={"damage": {"dice": "25"}}),
    power(
        "trip",
        basic=True,
        attack={"bonus": 30, "vs": "ac"},
        hit={"effects": [{"duration": "save_ends", "conditions": ["prone"]}]},
    ),
]


def unit(cid: str = "unit", basic: str = "jab", **over: Any) -> dict[str, Any]:
    base = {
        "id": cid,
        "name": cid.title(),
        "role": "soldier",
        "level": 1,
        "hp": 30,
        "defenses": {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12},
        "initiative": 0,
        "speed": 6,
        "powers": [basic, "zap", "nova", "flare"],
    }
    base.update(over)
    return base


CREATURES = [
    unit(),
    unit("lancer", "spear", reach=2),
    unit("ogre", "maul"),
    unit("tripper", "trip"),
    unit("ghost", invisible=True),
    unit("pacifist", powers=["zap"]),
    {
        "id": "hero",
        "name": "Hero",
        "kind": "pc",
        "level": 1,
        "hp": 20,
        "speed": 6,
        "powers": ["jab", "zap"],
        "healing_surges": 4,
    },
]


def mon(
    cid: str, pos: tuple[int, int], creature: str = "unit", side: str = "monsters"
) -> dict[str, Any]:
    return {"id": cid, "creature": creature, "side": side, "pos": list(pos)}


def fight(
    build: Builder, combatants: list[dict[str, Any]], faces: list[int], **kw: Any
) -> Encounter:
    """`combatants` act in the order listed (initiative 20, 19, ...)."""
    init = [20 - i for i in range(len(combatants))]
    return build(
        kw.pop("grid", GRID),
        combatants,
        creatures=CREATURES,
        powers=POWERS,
        faces=[*init, *faces],
        **kw,
    )
