"""Random fights for the AI's property and differential tests (Hypothesis draws the seeds).

A random map (walls, obstacles, difficult, obscured squares, pits) of 7-12 by 6-9 squares and
a handful of creatures of random kinds (one Large, a minion, player characters with weapons,
area and close powers, conditions) on random free squares, alternating sides.
"""

from __future__ import annotations

import copy
import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import reject
from hypothesis import strategies as st

from engine.content.errors import ContentErrors
from engine.content.loader import LoadedEncounter, load_encounter
from engine.encounter import Encounter
from tests.support.helpers import BASIC_MELEE, FIGHTER, write_encounter

DEF = {"ac": 14, "fortitude": 13, "reflex": 13, "will": 12}
POWERS: list[dict[str, Any]] = [
    BASIC_MELEE,
    {
        "id": "lash",
        "name": "Lash",
        "kind": "close",
        "burst": 2,
        "usage": "encounter",
        "target": "enemy",
        "targets": 1,
        "attack": {"bonus": 5, "vs": "reflex"},
        "hit": {"damage": {"dice": "2d6"}},
    },
    {
        "id": "sling-shot",
        "name": "Sling",
        "kind": "ranged",
        "range": 12,
        "keywords": ["weapon"],
        "weapon": "sling",
        "attack": {"ability": "dex", "vs": "ac"},
        "hit": {"damage": {"dice": "1[W]", "ability": "dex"}},
    },
    {
        "id": "claw",
        "name": "Claw",
        "kind": "melee",
        "basic": True,
        "attack": {"bonus": 5, "vs": "ac"},
        "hit": {"damage": {"dice": "1d6", "bonus": 3}},
    },
    {
        "id": "bolt",
        "name": "Bolt",
        "kind": "ranged",
        "range": 8,
        "basic": True,
        "attack": {"bonus": 5, "vs": "reflex"},
        "hit": {"damage": {"dice": "1d8", "bonus": 2}},
    },
    {
        "id": "pot",
        "name": "Fire Pot",
        "kind": "area",
        "range": 8,
        "burst": 1,
        "usage": "recharge",
        "recharge": 5,
        "target": "creature",
        "targets": 9,
        "attack": {"bonus": 4, "vs": "reflex"},
        "hit": {"damage": {"dice": "1d6", "bonus": 2}},
        "miss": {"half_damage": True},
    },
    {
        "id": "blast",
        "name": "Thunder",
        "kind": "close",
        "blast": 2,
        "usage": "encounter",
        "target": "creature",
        "targets": 4,
        "attack": {"bonus": 4, "vs": "fortitude"},
        "hit": {"damage": {"dice": "1d8", "bonus": 2}, "forced": {"kind": "push", "distance": 1}},
    },
    {
        "id": "whirl",
        "name": "Whirl",
        "kind": "close",
        "burst": 1,
        "usage": "encounter",
        "target": "enemy",
        "targets": 8,
        "attack": {"bonus": 5, "vs": "ac"},
        "hit": {"damage": {"dice": "1d6"}},
    },
    {
        "id": "pin",
        "name": "Pin",
        "kind": "melee",
        "usage": "encounter",
        "attack": {"bonus": 5, "vs": "ac"},
        "hit": {
            "damage": {"dice": "1d8", "bonus": 2},
            "effects": [{"duration": "save_ends", "conditions": ["immobilized"]}],
        },
    },
    {
        "id": "daze",
        "name": "Daze",
        "kind": "ranged",
        "range": 5,
        "usage": "encounter",
        "attack": {"bonus": 4, "vs": "will"},
        "hit": {
            "damage": {"dice": "1d4"},
            "effects": [{"duration": "end_of_next_turn", "conditions": ["dazed", "prone"]}],
        },
    },
    {
        "id": "mend",
        "name": "Mend",
        "kind": "close",
        "burst": 5,
        "action": "minor",
        "usage": "encounter",
        "target": "ally_or_self",
        "targets": 1,
        "effect": {"heal": {"surge": True, "dice": "1d6"}},
    },
]


def monster(cid: str, role: str, powers: list[str], **kw: Any) -> dict[str, Any]:
    return {
        "id": cid,
        "name": cid.title(),
        "role": role,
        "level": 1,
        "hp": 24,
        "defenses": DEF,
        "speed": 6,
        "powers": powers,
        **kw,
    }


SLINGER = {
    **FIGHTER,
    "id": "slinger",
    "name": "Slinger",
    "weapons": [
        {
            "id": "sling",
            "name": "Sling",
            "dice": "1d6",
            "kind": "ranged",
            "range": 3,
            "proficiency": 2,
        },
        {
            "id": "sword",
            "name": "Longsword",
            "dice": "1d8",
            "proficiency": 3,
            "crit_range": 19,
            "crit_dice": "1d6",
        },
    ],
    "powers": ["sling-shot", "basic-melee"],
}
CREATURES = [
    SLINGER,
    {**FIGHTER, "powers": ["basic-melee", "whirl", "pin"]},
    {**FIGHTER, "id": "mage", "name": "Mage", "powers": ["bolt", "blast", "pot", "mend"]},
    monster("gob", "skirmisher", ["claw", "bolt"]),
    monster("brute", "brute", ["claw", "pin"]),
    monster("archer", "artillery", ["bolt", "pot"]),
    monster("hexer", "controller", ["daze", "blast", "claw", "lash"]),
    monster("ogre", "brute", ["claw"], size="large", reach=2, hp=40),
    monster("mook", "soldier", ["claw"], hp=1, minion=True),
    monster("sneak", "lurker", ["claw"]),
]
KINDS = [c["id"] for c in CREATURES]
TERRAIN = ".......#=~,;^&"


def make_fight(map_seed: int, n: int, apart: bool = False) -> tuple[str, list[dict[str, Any]]]:
    """A random map (walls, obstacles, difficult, obscured squares, pits) and `n` creatures
    of random kinds on random free squares, alternating sides. `apart`: a long map (24-34
    by 8-14) with the party in its first five columns and the monsters in its last five, so
    that the first rounds are double moves whose second legs reach enemies the first
    move's reckoning left out."""
    rng = random.Random(map_seed)
    if apart:
        w, h = rng.randint(24, 34), rng.randint(8, 14)
    else:
        w, h = rng.randint(7, 12), rng.randint(6, 9)
    cells = [[rng.choice(TERRAIN) for _ in range(w)] for _ in range(h)]
    combatants: list[dict[str, Any]] = []
    taken: set[tuple[int, int]] = set()
    for i in range(n):
        kind = rng.choice(KINDS)
        size = 2 if kind == "ogre" else 1
        side = "party" if len(combatants) % 2 == 0 else "monsters"
        if apart:
            x0 = 0 if side == "party" else w - 5
            x = rng.randint(x0, x0 + 5 - size)
        else:
            x = rng.randint(0, w - size)
        y = rng.randint(0, h - size)
        foot = {(x + a, y + b) for a in range(size) for b in range(size)}
        if foot & taken:
            continue
        for fx, fy in foot:
            cells[fy][fx] = "."
        taken |= foot
        combatants.append({"id": f"c{i}", "creature": kind, "side": side, "pos": [x, y]})
    return "\n".join("".join(r) for r in cells), combatants


def load_fight(map_seed: int, n: int, apart: bool = False) -> LoadedEncounter | None:
    """`make_fight` through the real loader; None when it has a single side. A placement the
    loader refuses is rejected (Hypothesis draws another example; none is silently passed)."""
    grid, combatants = make_fight(map_seed, n, apart)
    if len({c["side"] for c in combatants}) < 2:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = write_encounter(
            Path(tmp),
            grid,
            combatants,
            creatures=copy.deepcopy(CREATURES),
            powers=copy.deepcopy(POWERS),
        )
        try:
            return load_encounter(path)
        except ContentErrors:
            reject()
    raise AssertionError("unreachable")


def mid_fight(loaded: LoadedEncounter, seed: int, steps: int, ruleset: str) -> Encounter | None:
    """The fight after `steps` actions of the tactical AI on both sides (None if it ended)."""
    from ai.tactical import TacticalPolicy

    pol = TacticalPolicy()
    enc = Encounter.create(
        loaded, seed=seed, control={"party": "ai", "monsters": "ai"}, ruleset=ruleset
    )
    enc.start()
    for _ in range(steps):
        if enc.over:
            return None
        enc.apply(pol.next_action(enc).action)
    return None if enc.over or enc.current is None else enc


MID_FIGHTS = {
    "map_seed": st.integers(0, 2**32 - 1),
    "n": st.integers(3, 7),
    "seed": st.integers(0, 10_000),
    "steps": st.integers(0, 30),
    "ruleset": st.sampled_from(["ffd20", "4srd", "d20srd"]),
}
"""Hypothesis's arguments for `load_fight(map_seed, n)` then `mid_fight(loaded, seed, steps,
ruleset)`: a random fight some steps in, under any of the three rulesets."""


def mid_fight_of(map_seed: int, n: int, seed: int, steps: int, ruleset: str) -> Encounter | None:
    """The fight `MID_FIGHTS` draws: `load_fight` then `mid_fight` (None where either is)."""
    loaded = load_fight(map_seed, n)
    return mid_fight(loaded, seed, steps, ruleset) if loaded is not None else None
