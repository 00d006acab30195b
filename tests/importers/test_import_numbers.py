# ruff: noqa: E501  (tables of expected values read best one case per line)
"""Every number of every sample, compared with what the sample file says (issue 18).

The expected values below are copied by hand from the sample files under `samples/` (the
line of each is noted), not from the importer's output: level, hit points, surges, defenses,
speed, initiative, ability scores and their printed modifiers, skills, resistances,
vulnerabilities, action points, minion, role and rank, and for every power its usage and
recharge, action, range or area, attack bonus and defense, damage dice, bonus and types.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.content.schema import Abilities
from tests.support.importers import creature, imported, powers

CREATURES: list[tuple[str, str, dict[str, Any]]] = [
    (
        "brunhilde-fighter.dnd4e",
        "brunhilde-eisenfaust",
        {
            "kind": "pc", "level": 5, "hp": 53, "healing_surges": 11, "speed": 5,
            "initiative": 3, "race": "Dwarf",
            "defenses": {"ac": 21, "fortitude": 19, "reflex": 14, "will": 15},
            "abilities": {"str": 18, "con": 14, "dex": 13, "int": 10, "wis": 12, "cha": 8},
            "skills": {"perception": 8, "insight": 3, "stealth": -2, "bluff": 1},
        },
    ),
    (
        "ilvaris-wizard.dnd4e",
        "ilvaris-of-the-silver-tower",
        {
            "kind": "pc", "level": 3, "hp": 34, "healing_surges": 7, "speed": 6,
            "initiative": 3, "race": "Eladrin",
            "defenses": {"ac": 16, "fortitude": 13, "reflex": 17, "will": 15},
            "abilities": {"str": 10, "con": 13, "dex": 14, "int": 18, "wis": 12, "cha": 11},
            "skills": {"perception": 2, "insight": 7, "stealth": 3, "bluff": 1},
        },
    ),
    (
        "ogre-warhulk.html",
        "ogre-warhulk",
        {
            "level": 8, "role": "brute", "size": "large", "hp": 212, "speed": 8,
            "initiative": 4, "action_points": 1, "resist": {"poison": 5},
            "defenses": {"ac": 22, "fortitude": 23, "reflex": 18, "will": 19},
            "abilities": {"str": 23, "con": 21, "dex": 11, "int": 6, "wis": 12, "cha": 9},
            "skills": {"perception": 5},
        },
    ),
    (
        "fen-raiders.txt",
        "bog-goblin-skulker",
        {
            "level": 2, "role": "skirmisher", "size": "small", "hp": 1, "minion": True,
            "speed": 6, "initiative": 5,
            "defenses": {"ac": 16, "fortitude": 12, "reflex": 14, "will": 12},
            "abilities": {"str": 14, "con": 13, "dex": 18, "int": 8, "wis": 13, "cha": 8},
            "skills": {"perception": 1, "stealth": 10},
        },
    ),
    (
        "fen-raiders.txt",
        "mire-hag",
        {
            "level": 5, "role": "controller", "size": "medium", "hp": 62, "speed": 6,
            "initiative": 4, "resist": {"necrotic": 5}, "vulnerable": {"radiant": 5},
            "defenses": {"ac": 19, "fortitude": 16, "reflex": 17, "will": 18},
            "abilities": {"str": 12, "con": 15, "dex": 14, "int": 13, "wis": 14, "cha": 20},
            "skills": {"perception": 9, "bluff": 12, "insight": 9, "stealth": 10},
        },
    ),
    (
        "marsh-wyrm.txt",
        "marsh-wyrm",
        {
            "level": 4, "role": "lurker", "size": "large", "hp": 232, "speed": 7,
            "initiative": 9, "action_points": 2, "resist": {"acid": 15},
            "defenses": {"ac": 20, "fortitude": 18, "reflex": 20, "will": 17},
            "abilities": {"str": 18, "con": 15, "dex": 20, "int": 10, "wis": 13, "cha": 11},
            "skills": {"perception": 8, "stealth": 10},
        },
    ),
    (
        "cinder-ogre-mm3.txt",
        "cinder-ogre-bruiser",
        {
            "level": 7, "role": "soldier", "size": "large", "hp": 168, "speed": 7,
            "initiative": 6, "action_points": 1, "resist": {"fire": 10},
            "defenses": {"ac": 23, "fortitude": 21, "reflex": 18, "will": 19},
            "abilities": {"str": 24, "con": 20, "dex": 13, "int": 7, "wis": 14, "cha": 12},
            "skills": {"perception": 5},
        },
    ),
]  # fmt: skip

# The modifiers as printed: a Character Builder save's "<Ability> modifier" stats, and a
# monster's "Str 23 (+10)" (which includes half its level).
PRINTED_MODS = {
    "brunhilde-eisenfaust": {"str": 4, "con": 2, "dex": 1, "int": 0, "wis": 1, "cha": -1},
    "ilvaris-of-the-silver-tower": {"str": 0, "con": 1, "dex": 2, "int": 4, "wis": 1, "cha": 0},
    "ogre-warhulk": {"str": 10, "con": 9, "dex": 4, "int": 2, "wis": 5, "cha": 3},
    "bog-goblin-skulker": {"str": 3, "con": 2, "dex": 5, "int": 0, "wis": 2, "cha": 0},
    "mire-hag": {"str": 3, "con": 4, "dex": 4, "int": 3, "wis": 4, "cha": 7},
    "marsh-wyrm": {"str": 6, "con": 4, "dex": 7, "int": 2, "wis": 3, "cha": 2},
    "cinder-ogre-bruiser": {"str": 10, "con": 8, "dex": 4, "int": 1, "wis": 5, "cha": 4},
}

# name: (usage, recharge, action, kind, shape, attack bonus, vs, dice, bonus, types)
P = tuple[
    str, int | None, str, str, dict[str, int], int | None, str | None, str | None, int, list[str]
]
POWERS: dict[str, dict[str, P]] = {
    "brunhilde-eisenfaust": {
        "Melee Basic Attack": ("at-will", None, "standard", "melee", {}, 10, "ac", "1d8", 5, []),
        "Ranged Basic Attack": ("at-will", None, "standard", "ranged", {"range": 10}, 5, "ac", "1d6", 1, []),
        "Cleave": ("at-will", None, "standard", "melee", {}, 10, "ac", "1d8", 5, []),
        "Spinning Sweep": ("encounter", None, "standard", "melee", {}, 10, "ac", "1d8", 5, []),
        "Come and Get It": ("encounter", None, "standard", "close", {"burst": 3}, 10, "will", None, 0, []),
        "Brute Strike": ("daily", None, "standard", "melee", {}, 10, "ac", "3d8", 5, ["fire"]),
        "Boundless Endurance": ("daily", None, "minor", "personal", {}, None, None, None, 0, []),
    },
    "ilvaris-of-the-silver-tower": {
        "Magic Missile": ("at-will", None, "standard", "ranged", {"range": 20}, 6, "reflex", "2d4", 5, ["force"]),
        "Thunderwave": ("at-will", None, "standard", "close", {"blast": 3}, 6, "fortitude", "1d6", 5, ["thunder"]),
        "Scorching Burst": ("at-will", None, "standard", "area", {"burst": 1, "range": 10}, 6, "reflex", "1d6", 5, ["fire"]),
        "Chill Strike": ("encounter", None, "standard", "ranged", {"range": 10}, 6, "fortitude", "2d8", 5, ["cold"]),
        "Acid Arrow": ("daily", None, "standard", "ranged", {"range": 20}, 6, "reflex", "2d8", 5, ["acid"]),
        "Sleep": ("daily", None, "standard", "area", {"burst": 2, "range": 20}, 6, "will", None, 0, []),
        "Shield": ("encounter", None, "immediate", "personal", {}, None, None, None, 0, []),
    },
    "ogre-warhulk": {
        "Greatclub": ("at-will", None, "standard", "melee", {"reach": 2}, 11, "ac", "2d10", 6, []),
        "Skull Crack": ("encounter", None, "standard", "melee", {"reach": 2}, 11, "ac", "3d10", 6, []),
        "Sweeping Club": ("recharge", 5, "standard", "close", {"blast": 2}, 9, "reflex", "2d8", 6, []),
        "Hurl Boulder": ("recharge", 6, "standard", "ranged", {"range": 10}, 9, "ac", "2d10", 6, []),
        "Bloodied Rampage": ("encounter", None, "free", "personal", {}, None, None, None, 0, []),
    },
    "bog-goblin-skulker": {
        "Rusty Spear": ("at-will", None, "standard", "melee", {}, 7, "ac", "5", 0, []),
        "Dart": ("at-will", None, "standard", "ranged", {"range": 10}, 7, "ac", "4", 0, []),
        "Goblin Tactics": ("at-will", None, "immediate", "personal", {}, None, None, None, 0, []),
    },
    "mire-hag": {
        "Clawed Hand": ("at-will", None, "standard", "melee", {}, 10, "ac", "1d8", 4, []),
        "Bog Bolt": ("at-will", None, "standard", "ranged", {"range": 10}, 8, "reflex", "1d6", 4, ["necrotic"]),
        "Choking Mire": ("recharge", 5, "standard", "area", {"burst": 1, "range": 10}, 8, "fortitude", "2d6", 4, ["necrotic"]),
        "Wail of the Drowned": ("encounter", None, "standard", "close", {"blast": 3}, 8, "will", "1d10", 4, ["psychic"]),
        "Hag's Step": ("encounter", None, "move", "personal", {}, None, None, None, 0, []),
    },
    "marsh-wyrm": {
        "Bite": ("at-will", None, "standard", "melee", {"reach": 2}, 9, "ac", "1d10", 4, []),
        "Claw": ("at-will", None, "standard", "melee", {}, 9, "ac", "1d6", 4, []),
        "Acid Breath": ("recharge", 5, "standard", "close", {"blast": 5}, 7, "reflex", "2d6", 5, ["acid"]),
        "Spit Bile": ("encounter", None, "standard", "area", {"burst": 1, "range": 10}, 7, "fortitude", "1d8", 4, ["acid"]),
        "Tail Lash": ("at-will", None, "immediate", "melee", {}, 9, "reflex", "1d8", 4, []),
        "Bloodied Breath": ("encounter", None, "free", "personal", {}, None, None, None, 0, []),
    },
    "cinder-ogre-bruiser": {
        "Burning Maul": ("at-will", None, "standard", "melee", {"reach": 2}, 12, "ac", "2d8", 7, ["fire"]),
        "Ash Sweep": ("recharge", 5, "standard", "close", {"blast": 2}, 10, "reflex", "2d6", 6, ["fire"]),
        "Cinder Glare": ("encounter", None, "minor", "ranged", {"range": 5}, 10, "will", None, 0, []),
        "Flare Up": ("encounter", None, "free", "personal", {}, None, None, None, 0, []),
    },
}  # fmt: skip
FILES = {cid: name for name, cid, _ in CREATURES}


@pytest.mark.parametrize(("name", "cid", "expected"), CREATURES, ids=[c[1] for c in CREATURES])
def test_creature_numbers_match_the_source(name: str, cid: str, expected: dict[str, Any]) -> None:
    got = creature(name, cid)
    for key, value in expected.items():
        assert got.get(key) == value, key
    # nothing the source doesn't give: no resistances, skills or action points made up
    for key in ("resist", "vulnerable", "action_points", "minion"):
        if key not in expected:
            assert key not in got, key


@pytest.mark.parametrize("cid", list(PRINTED_MODS))
def test_ability_modifiers_match_the_printed_ones(cid: str) -> None:
    got = creature(FILES[cid], cid)
    half = got["level"] // 2 if got.get("kind") != "pc" else 0
    abilities = Abilities(**got["abilities"])
    for ab, printed in PRINTED_MODS[cid].items():
        assert abilities.mod(ab) + half == printed, ab  # type: ignore[arg-type]


@pytest.mark.parametrize("cid", list(POWERS))
def test_every_power_number_matches_the_source(cid: str) -> None:
    got = powers(FILES[cid], cid)
    assert set(got) == set(POWERS[cid])
    for pname, exp in POWERS[cid].items():
        usage, recharge, action, kind, shape, bonus, vs, dice, dbonus, types = exp
        p = got[pname]
        assert (p["usage"], p.get("recharge"), p["action"], p["kind"]) == (
            usage, recharge, action, kind,
        ), pname  # fmt: skip
        assert {k: p[k] for k in ("reach", "range", "burst", "blast") if k in p} == shape, pname
        if bonus is None:
            assert "attack" not in p, pname
            continue
        assert p["attack"] == {"vs": vs, "bonus": bonus}, pname
        damage = p["hit"].get("damage")
        if dice is None:
            assert damage is None, pname
        else:
            assert damage == {
                "dice": dice, **({"bonus": dbonus} if dbonus else {}), **({"types": types} if types else {})
            }, pname  # fmt: skip


def test_every_creature_of_the_samples_is_imported() -> None:
    ids = {
        cid
        for name in set(FILES.values())
        for cid in [c["id"] for c, _, _ in imported(name).creatures]
    }
    assert ids == set(FILES)
    for name in set(FILES.values()):
        assert imported(name).problems == []


def test_bloodied_is_half_the_hit_points_as_printed() -> None:
    # HP 212; Bloodied 106 / 62; 31 / 232; 116 / 168; 84: Skirmish derives it
    for name, cid, hp in [
        ("ogre-warhulk.html", "ogre-warhulk", 212),
        ("fen-raiders.txt", "mire-hag", 62),
        ("marsh-wyrm.txt", "marsh-wyrm", 232),
        ("cinder-ogre-mm3.txt", "cinder-ogre-bruiser", 168),
    ]:
        assert creature(name, cid)["hp"] // 2 == {212: 106, 62: 31, 232: 116, 168: 84}[hp]
        assert not any(
            ": bloodied: printed" in w
            for w in [str(x) for _, _, r in imported(name).creatures for x in r.warnings]
        )
