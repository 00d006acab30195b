"""Damage (F-DMG-1..10): the damage expression, types, resistance, vulnerability,
insubstantial, ongoing damage at the start of the turn and its saving throws, and effects on a
miss. Each case asserts on the `damage` event: `amount == max(0, rolled + adjustments)`."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import EndTurn, UsePower
from engine.encounter import Encounter
from engine.events import Damage, Save
from tests.support.helpers import BASIC_MELEE, FIGHTER, Builder, dummy, events, mon, pc, put_effect

GRID = "......\n......\n......\n"


def blast(
    pid: str, dice: str = "1d8", types: list[str] | None = None, **hit: Any
) -> dict[str, Any]:
    """A melee power that always hits on a natural 10 (bonus +10), with the given damage."""
    return {
        "id": pid,
        "name": pid.title(),
        "kind": "melee",
        "attack": {"bonus": 10, "vs": "ac"},
        "hit": {"damage": {"dice": dice, "types": types or []}, **hit},
    }


POWERS = [
    blast("strike"),
    blast("fire", types=["fire"]),
    blast("cold", types=["cold"]),
    blast("frostfire", types=["fire", "cold"]),
    {
        "id": "reliable",
        "name": "Reliable",
        "kind": "melee",
        "attack": {"bonus": 10, "vs": "ac"},
        "hit": {"damage": {"dice": "2d6", "bonus": 1}},
        "miss": {"half_damage": True},
    },
    {
        "id": "graze",
        "name": "Graze",
        "kind": "melee",
        "attack": {"bonus": 10, "vs": "ac"},
        "hit": {"damage": {"dice": "1d8"}},
        "miss": {"damage": {"dice": "1d4"}},
    },
]
MAULER = {
    "id": "mauler",
    "name": "Mauler",
    "role": "brute",
    "level": 1,
    "hp": 40,
    "defenses": {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12},
    "powers": [p["id"] for p in POWERS],
}


def fight(
    build: Builder, faces: list[int], target: dict[str, Any] | None = None, **kw: Any
) -> Encounter:
    """The mauler `m` (acting first) next to the dummy `t`; faces after initiative."""
    return build(
        GRID,
        [mon("m", (1, 1), "mauler", side="party"), mon("t", (2, 1), "dummy")],
        creatures=[MAULER, target or dummy()],
        powers=POWERS,
        faces=[20, 1, *faces],
        **kw,
    )


def hit(enc: Encounter, power: str, target: str = "t") -> Damage:
    dmg = events(enc.apply(UsePower(power, (target,))), Damage)
    assert len(dmg) == 1
    d: Damage = dmg[0]
    assert d.amount == max(0, d.rolled + sum(a.value for a in d.adjustments))
    assert d.hp_after == d.hp_before - d.amount
    return d


def adj(d: Damage) -> dict[str, int]:
    return {a.source: a.value for a in d.adjustments}


# --- F-DMG-1 ----------------------------------------------------------------------------------
def hero(weapon: dict[str, Any], **over: Any) -> dict[str, Any]:
    return dict(FIGHTER, id="hero", weapons=[weapon], **over)


SWORD = {"id": "sword", "name": "Longsword", "dice": "1d8", "proficiency": 3}
FLAIL = {"id": "flail", "name": "Heavy Flail", "dice": "2d6", "proficiency": 2}
TWO_W = {
    "id": "cleave",
    "name": "Cleave",
    "kind": "melee",
    "keywords": ["weapon"],
    "attack": {"ability": "str", "vs": "ac"},
    "hit": {"damage": {"dice": "2[W]", "ability": "str", "bonus": 1}},
}


@pytest.mark.parametrize(
    ("weapon", "power", "faces", "dice", "rolled"),
    [
        pytest.param(SWORD, "basic-melee", [5], "1d8+3", 8, id="1W-plus-str"),
        pytest.param(
            FLAIL,
            "cleave",
            [1, 2, 3, 4],
            "4d6+4",
            14,
            id="2W-of-a-2d6-weapon-is-4d6-plus-str-plus-bonus",
        ),
        pytest.param(
            dict(SWORD, enhancement=2), "basic-melee", [5], "1d8+5", 10, id="enhancement-adds"
        ),
    ],
)
def test_F_DMG_1_damage_is_dice_plus_ability_plus_bonuses(
    build: Builder,
    weapon: dict[str, Any],
    power: str,
    faces: list[int],
    dice: str,
    rolled: int,
) -> None:
    enc = build(
        GRID,
        [pc("h", (1, 1), "hero"), mon("t", (2, 1), "dummy")],
        creatures=[hero(weapon, powers=["basic-melee", "cleave"]), dummy()],
        powers=[BASIC_MELEE, TWO_W],
        faces=[20, 1, 19, *faces],
        strict=True,
    )
    d = hit(enc, power)
    assert (d.dice, list(d.rolls), d.rolled, d.amount) == (dice, faces, rolled, rolled)


def test_F_DMG_1_power_bonuses_to_damage_add(build: Builder) -> None:
    enc = fight(build, [10, 4])
    put_effect(enc, "m", source="m", duration="end_of_encounter", modifiers=(("damage", 2),))
    d = hit(enc, "strike")
    assert (d.dice, d.rolled) == ("1d8+2", 6)


# --- F-DMG-2..5 -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("power", "types"),
    [
        pytest.param("strike", (), id="no-type"),
        pytest.param("fire", ("fire",), id="fire"),
        pytest.param("frostfire", ("fire", "cold"), id="two-types"),
    ],
)
def test_F_DMG_2_damage_types(build: Builder, power: str, types: tuple[str, ...]) -> None:
    d = hit(fight(build, [10, 6]), power)
    assert tuple(d.types) == types


@pytest.mark.parametrize(
    ("power", "roll", "resist", "adjust", "amount"),
    [
        pytest.param("fire", 8, {"fire": 5}, {"resist": -5}, 3, id="fire-8-resist-5"),
        pytest.param("fire", 3, {"fire": 5}, {"resist": -3}, 0, id="never-below-0"),
        pytest.param("strike", 8, {"fire": 5}, {}, 8, id="untyped-not-resisted"),
        pytest.param("cold", 8, {"fire": 5}, {}, 8, id="other-type-not-resisted"),
        pytest.param("frostfire", 8, {"fire": 5}, {}, 8, id="mixed-only-if-all-resisted"),
        pytest.param(
            "frostfire",
            8,
            {"fire": 5, "cold": 2},
            {"resist": -2},
            6,
            id="mixed-the-lowest-resistance",
        ),
    ],
)
def test_F_DMG_3_resist(
    build: Builder,
    power: str,
    roll: int,
    resist: dict[str, int],
    adjust: dict[str, int],
    amount: int,
) -> None:
    d = hit(fight(build, [10, roll], dummy(resist=resist)), power)
    assert adj(d) == adjust and d.amount == amount


@pytest.mark.parametrize(
    ("power", "target", "adjust", "amount"),
    [
        pytest.param(
            "fire", {"vulnerable": {"fire": 5}}, {"vulnerable": 5}, 9, id="vulnerable-5-fire"
        ),
        pytest.param("cold", {"vulnerable": {"fire": 5}}, {}, 4, id="other-type-no"),
        pytest.param(
            "frostfire",
            {"vulnerable": {"fire": 5, "cold": 2}},
            {"vulnerable": 7},
            11,
            id="each-type-adds",
        ),
        pytest.param(
            "fire",
            {"vulnerable": {"fire": 5}, "resist": {"fire": 2}},
            {"resist": -2, "vulnerable": 5},
            7,
            id="with-resist",
        ),
    ],
)
def test_F_DMG_4_vulnerable(
    build: Builder, power: str, target: dict[str, Any], adjust: dict[str, int], amount: int
) -> None:
    d = hit(fight(build, [10, 4], dummy(**target)), power)
    assert adj(d) == adjust and d.amount == amount


@pytest.mark.parametrize(
    ("roll", "amount"), [pytest.param(8, 4, id="half"), pytest.param(7, 3, id="rounds-down")]
)
def test_F_DMG_5_insubstantial_takes_half_damage_from_attacks(
    build: Builder, roll: int, amount: int
) -> None:
    d = hit(fight(build, [10, roll], dummy(insubstantial=True)), "strike")
    assert adj(d) == {"insubstantial": amount - roll} and d.amount == amount


def test_F_DMG_5_insubstantial_halves_ongoing_damage(build: Builder) -> None:
    enc = fight(build, [15], dummy(insubstantial=True))
    put_effect(enc, "t", source="m", ongoing=(5, "fire"))
    out = enc.apply(EndTurn())  # the dummy's turn starts: ongoing 5 fire
    d = events(out, Damage)[0]
    assert (d.cause, d.rolled, adj(d), d.amount) == ("ongoing", 5, {"insubstantial": -3}, 2)


def test_weakened_attacker_deals_half_damage(build: Builder) -> None:
    enc = fight(build, [10, 7])
    put_effect(enc, "m", source="t", conditions=("weakened",))
    d = hit(enc, "strike")
    assert adj(d) == {"weakened": -4} and d.amount == 3


# --- F-DMG-6..9: ongoing damage ----------------------------------------------------------------
def test_F_DMG_6_ongoing_damage_at_the_start_of_the_affected_creatures_turn(
    build: Builder,
) -> None:
    enc = fight(build, [15, 15])
    put_effect(enc, "t", source="m", ongoing=(5, None))
    # nothing during the source's own turn
    assert events(enc.apply(EndTurn()), Damage)[0].target == "t"
    log = enc.log
    starts = [i for i, lg in enumerate(log) if lg.type == "turn_start"]
    dmg = [i for i, lg in enumerate(log) if lg.type == "damage"]
    assert dmg[0] == starts[-1] + 1, "the first thing in the dummy's turn"
    d = log[dmg[0]].event
    assert isinstance(d, Damage)
    assert (d.cause, d.source, d.rolled, d.amount, d.rolls) == ("ongoing", "m", 5, 5, ())


@pytest.mark.parametrize(
    ("natural", "ends"),
    [pytest.param(10, True, id="10-saves"), pytest.param(9, False, id="9-fails")],
)
def test_F_DMG_7_save_at_the_end_of_the_turn_ends_ongoing_damage(
    build: Builder, natural: int, ends: bool
) -> None:
    enc = fight(build, [natural, 15])
    eid = put_effect(enc, "t", source="m", ongoing=(5, "fire"))
    enc.apply(EndTurn())  # the dummy's turn: 5 fire
    out = enc.apply(EndTurn())  # its end: the save
    save = events(out, Save)[0]
    assert (save.id, save.effect, save.natural, save.success) == ("t", eid, natural, ends)
    assert (eid in enc.battle.effects) is not ends
    enc.apply(EndTurn())  # the mauler again; then the dummy's next turn
    took = [d for d in events(enc, Damage) if d.cause == "ongoing"]
    assert len(took) == (1 if ends else 2)


def test_F_DMG_8_different_types_each_every_round_with_separate_saves(build: Builder) -> None:
    enc = fight(build, [15, 3])
    fire = put_effect(enc, "t", source="m", ongoing=(5, "fire"))
    poison = put_effect(enc, "t", source="m", ongoing=(3, "poison"))
    out = enc.apply(EndTurn())
    assert sorted((d.types, d.amount) for d in events(out, Damage)) == [
        (("fire",), 5),
        (("poison",), 3),
    ]
    saves = events(enc.apply(EndTurn()), Save)
    assert [(s.effect, s.success) for s in saves] == [(fire, True), (poison, False)]
    assert fire not in enc.battle.effects and poison in enc.battle.effects


@pytest.mark.parametrize(
    ("first", "second", "taken"),
    [
        pytest.param((5, None), (10, None), [10], id="untyped-5-then-10-is-10"),
        pytest.param((10, "fire"), (5, "fire"), [10], id="fire-10-then-5-is-10"),
        pytest.param((5, "fire"), (5, None), [5, 5], id="typed-and-untyped-differ"),
    ],
)
def test_F_DMG_9_same_type_only_the_higher_applies(
    build: Builder,
    first: tuple[int, str | None],
    second: tuple[int, str | None],
    taken: list[int],
) -> None:
    enc = fight(build, [15, 15])
    put_effect(enc, "t", source="m", ongoing=first)
    put_effect(enc, "t", source="m", ongoing=second)
    out = enc.apply(EndTurn())
    assert sorted(d.amount for d in events(out, Damage)) == taken


def test_F_DMG_9_the_lower_one_resumes_after_the_higher_is_saved(build: Builder) -> None:
    enc = fight(build, [15, 3, 3, 3])  # the 10 saved, the 5 not
    put_effect(enc, "t", source="m", ongoing=(10, None))
    put_effect(enc, "t", source="m", ongoing=(5, None))
    enc.apply(EndTurn())
    enc.apply(EndTurn())
    enc.apply(EndTurn())
    assert [d.amount for d in events(enc, Damage)] == [10, 5]


# --- F-DMG-10 ---------------------------------------------------------------------------------
def test_F_DMG_10_half_damage_on_a_miss(build: Builder) -> None:
    enc = fight(build, [1, 6, 5], dummy())
    d = hit(enc, "reliable")
    assert (d.cause, d.dice, d.rolled, adj(d), d.amount) == (
        "miss",
        "2d6+1",
        12,
        {"half_on_miss": -6},
        6,
    )


def test_F_DMG_10_a_miss_effect_of_its_own(build: Builder) -> None:
    d = hit(fight(build, [1, 3]), "graze")
    assert (d.cause, d.dice, d.amount) == ("miss", "1d4", 3)


def test_F_DMG_10_minions_take_no_damage_from_a_miss(build: Builder) -> None:
    enc = fight(build, [1, 6, 5], dummy(hp=1, minion=True))
    assert events(enc.apply(UsePower("reliable", ("t",))), Damage) == []
    assert enc.battle["t"].hp == 1


def test_F_DMG_10_no_miss_effect_no_damage(build: Builder) -> None:
    enc = fight(build, [1])
    assert events(enc.apply(UsePower("strike", ("t",))), Damage) == []
    assert enc.battle["t"].hp == 100
