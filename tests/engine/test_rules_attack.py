"""Making an attack (F-ATK-1..8): the roll, the base attack bonus, hit and miss, natural 20s
and 1s, precision, critical damage and the coup de grace. Every die is scripted."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import UsePower
from engine.encounter import Encounter
from engine.events import Attack, Damage
from tests.support.helpers import (
    BASIC_MELEE,
    FIGHTER,
    KEEN,
    LONG,
    POKES,
    STRIKER,
    ZAP,
    Builder,
    duel,
    dummy,
    events,
    mods,
    mon,
    pc,
    poke,
    put_effect,
)

GRID = "......\n......\n......\n"


def attack(enc: Encounter, power: str, target: str = "t") -> tuple[Attack, list[Any]]:
    out = enc.apply(UsePower(power, (target,)))
    atk = [a for a in events(out, Attack) if not a.opportunity]
    assert len(atk) == 1
    return atk[0], events(out, Damage)


# --- F-ATK-1 and F-ATK-2 --------------------------------------------------------------------
def test_F_ATK_1_total_is_d20_plus_base_bonus_situational_and_power_modifiers(
    build: Builder,
) -> None:
    enc = build(GRID, [pc("f", (0, 0)), mon("g", (1, 0))], faces=[20, 1, 9, 4])
    put_effect(
        enc,
        "f",
        source="f",
        duration="end_of_encounter",
        name="blessing",
        modifiers=(("attack", 1),),
    )
    put_effect(enc, "g", source="f", conditions=("dazed",))  # combat advantage (+2)
    atk, _ = attack(enc, "basic-melee", "g")
    assert atk.natural == 9
    assert mods(atk) == {"attack_bonus": 7, "combat_advantage": 2, "blessing": 1}
    assert atk.total == 9 + 7 + 2 + 1
    assert atk.total == atk.natural + sum(m.value for m in atk.modifiers)


def hero(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = dict(FIGHTER, id="hero", name="Hero")
    base.update(over)
    return base


MISSILE = {
    "id": "missile",
    "name": "Missile",
    "kind": "ranged",
    "range": 10,
    "keywords": ["implement"],
    "attack": {"ability": "int", "vs": "reflex", "bonus": 1},
    "hit": {"damage": {"dice": "2d4", "ability": "int"}},
}


@pytest.mark.parametrize(
    ("creature", "power", "bonus"),
    [
        pytest.param(hero(), "basic-melee", 1 + 3 + 3, id="F-ATK-2-half-level-str-proficiency"),
        pytest.param(
            hero(
                level=5,
                abilities={"str": 18},
                weapons=[
                    {"id": "axe", "name": "Axe", "dice": "1d12", "proficiency": 2, "enhancement": 1}
                ],
            ),
            "basic-melee",
            2 + 4 + 2 + 1,
            id="F-ATK-2-enhancement-adds",
        ),
        pytest.param(
            hero(level=3, abilities={"int": 18}, powers=["missile"]),
            "missile",
            1 + 4 + 1,
            id="F-ATK-2-implement-no-proficiency-power-bonus-adds",
        ),
        pytest.param(
            hero(level=2, abilities={"str": 7}),
            "basic-melee",
            1 - 2 + 3,
            id="F-ATK-2-negative-ability",
        ),
    ],
)
def test_F_ATK_2_base_attack_bonus(
    build: Builder, creature: dict[str, Any], power: str, bonus: int
) -> None:
    # A ranged power from next to the dummy would provoke its (derived, issue 16) basic melee
    # attack: it stands two squares off for the ranged one.
    t_pos = (3, 1) if power == "missile" else (2, 1)
    enc = build(
        GRID,
        [pc("h", (1, 1), "hero"), mon("t", t_pos, "dummy", side="monsters")],
        creatures=[creature, dummy()],
        powers=[BASIC_MELEE, MISSILE],
        faces=[20, 1, 10],
    )
    atk, _ = attack(enc, power)
    assert mods(atk) == {"attack_bonus": bonus}
    assert atk.total == 10 + bonus


def test_F_ATK_2_a_monster_attack_bonus_is_given(build: Builder) -> None:
    enc = build(
        GRID,
        [mon("g", (1, 1), side="party"), mon("t", (2, 1), "dummy")],
        creatures=[dict(STRIKER, id="goblin", powers=["claw"]), dummy()],
        powers=[
            {
                "id": "claw",
                "name": "Claw",
                "kind": "melee",
                "attack": {"bonus": 6, "vs": "ac"},
                "hit": {"damage": {"dice": "1d6"}},
            }
        ],
        faces=[20, 1, 10],
    )
    atk, _ = attack(enc, "claw")
    assert mods(atk) == {"attack_bonus": 6}


# --- F-ATK-3 ----------------------------------------------------------------------------------
@pytest.mark.parametrize("vs", ["ac", "fortitude", "reflex", "will"])
@pytest.mark.parametrize(
    ("delta", "outcome"),
    [
        pytest.param(0, "hit", id="equal-hits"),
        pytest.param(1, "hit", id="higher-hits"),
        pytest.param(-1, "miss", id="lower-misses"),
    ],
)
def test_F_ATK_3_hit_when_total_reaches_the_named_defense(
    build: Builder, vs: str, delta: int, outcome: str
) -> None:
    defense = {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12}[vs]
    enc = duel(build, [defense + delta, 2])
    atk, dmg = attack(enc, f"poke-{vs}")
    assert (atk.vs, atk.defense, atk.total, atk.outcome) == (vs, defense, defense + delta, outcome)
    assert len(dmg) == (1 if outcome == "hit" else 0)


# --- F-ATK-4 and F-ATK-5 ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ac", "outcome"),
    [
        pytest.param(15, "crit", id="F-ATK-4-total-reaches-crit"),
        pytest.param(20, "crit", id="F-ATK-4-total-exactly-reaches-crit"),
        pytest.param(21, "hit", id="F-ATK-4-total-short-plain-hit"),
        pytest.param(40, "hit", id="F-ATK-4-far-short-still-hits"),
    ],
)
def test_F_ATK_4_natural_20_hits_and_crits_only_if_total_reaches(
    build: Builder, ac: int, outcome: str
) -> None:
    enc = duel(build, [20, 3], target=dummy(ac=ac))
    atk, dmg = attack(enc, "poke-ac")
    assert (atk.natural, atk.total, atk.outcome) == (20, 20, outcome)
    assert dmg[0].cause == outcome
    assert dmg[0].rolled == (4 if outcome == "crit" else 3)


@pytest.mark.parametrize(
    "ac",
    [pytest.param(1, id="F-ATK-5-even-vs-defense-1"), pytest.param(8, id="F-ATK-5-total-reaches")],
)
def test_F_ATK_5_natural_1_misses(build: Builder, ac: int) -> None:
    enc = build(
        GRID,
        [pc("f", (1, 1)), mon("t", (2, 1), "dummy", side="monsters")],
        creatures=[FIGHTER, dummy(ac=ac)],
        faces=[20, 1, 1],
    )
    atk, dmg = attack(enc, "basic-melee")
    assert atk.total == 8 >= ac
    assert atk.outcome == "miss" and dmg == []


# --- F-ATK-6 ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("power", "natural", "ac", "outcome"),
    [
        pytest.param("keen", 19, 15, "crit", id="F-ATK-6-power-range-19-crits"),
        pytest.param("keen", 19, 25, "miss", id="F-ATK-6-19-short-misses"),
        pytest.param("keen", 18, 15, "hit", id="F-ATK-6-18-plain-hit"),
        pytest.param("keen", 20, 25, "hit", id="F-ATK-6-only-20-hits-automatically"),
        pytest.param("poke-ac", 19, 15, "hit", id="F-ATK-6-normal-range-19-hits"),
    ],
)
def test_F_ATK_6_precision_widens_the_critical_range_only(
    build: Builder, power: str, natural: int, ac: int, outcome: str
) -> None:
    enc = duel(build, [natural, 2], target=dummy(ac=ac))
    atk, _ = attack(enc, power)
    assert atk.outcome == outcome


def test_F_ATK_6_a_weapon_can_widen_the_range(build: Builder) -> None:
    blade = hero(
        weapons=[
            {"id": "rapier", "name": "Rapier", "dice": "1d8", "proficiency": 3, "crit_range": 18}
        ]
    )
    enc = build(
        GRID,
        [pc("h", (1, 1), "hero"), mon("t", (2, 1), "dummy", side="monsters")],
        creatures=[blade, dummy()],
        powers=[BASIC_MELEE],
        faces=[20, 1, 18],
    )
    atk, dmg = attack(enc, "basic-melee")
    assert atk.outcome == "crit" and dmg[0].rolled == 8 + 3


# --- F-ATK-7 ----------------------------------------------------------------------------------
def test_F_ATK_7_critical_damage_is_the_maximum_not_rolled(build: Builder) -> None:
    enc = build(
        GRID,
        [pc("f", (1, 1)), mon("t", (2, 1), "dummy", side="monsters")],
        creatures=[FIGHTER, dummy()],
        faces=[20, 1, 20],
        strict=True,
    )
    _, dmg = attack(enc, "basic-melee")
    d = dmg[0]
    assert (d.cause, d.dice, d.rolls, d.rolled, d.crit_extra) == ("crit", "1d8+3", (), 11, None)
    assert d.amount == 11


def test_F_ATK_7_extra_critical_dice_are_rolled_and_added(build: Builder) -> None:
    magic = hero(
        weapons=[
            {
                "id": "flame",
                "name": "Flame Tongue",
                "dice": "1d8",
                "proficiency": 3,
                "enhancement": 1,
                "crit_dice": "2d6",
            }
        ]
    )
    enc = build(
        GRID,
        [pc("h", (1, 1), "hero"), mon("t", (2, 1), "dummy", side="monsters")],
        creatures=[magic, dummy()],
        powers=[BASIC_MELEE],
        faces=[20, 1, 20, 2, 5],
        strict=True,
    )
    _, dmg = attack(enc, "basic-melee")
    d = dmg[0]
    assert d.crit_extra == {"dice": "2d6", "rolls": [2, 5], "value": 7}
    assert d.rolled == (8 + 3 + 1) + 7 and d.rolls == ()


def test_F_ATK_7_an_attack_without_damage_deals_none_on_a_crit(build: Builder) -> None:
    daze = poke(
        "ac",
        id="poke-ac",
        hit={"effects": [{"duration": "end_of_next_turn", "conditions": ["dazed"]}]},
    )
    enc = build(
        GRID,
        [mon("s", (1, 1), "striker", side="party"), mon("t", (2, 1), "dummy", side="monsters")],
        creatures=[STRIKER, dummy()],
        powers=[daze, *POKES[1:], ZAP, LONG, KEEN],
        faces=[20, 1, 20],
    )
    atk, dmg = attack(enc, "poke-ac")
    assert atk.outcome == "crit" and dmg == []
    assert "dazed" in enc.battle.conditions(enc.battle["t"])


# --- F-ATK-8 ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("power", "target_pos", "helpless", "outcome"),
    [
        pytest.param("poke-ac", (2, 1), True, "crit", id="F-ATK-8-melee-adjacent-helpless-crit"),
        pytest.param("poke-ac", (2, 1), False, "hit", id="F-ATK-8-not-helpless-plain-hit"),
        pytest.param("zap", (4, 1), True, "hit", id="F-ATK-8-ranged-is-no-coup-de-grace"),
        pytest.param("long", (3, 1), True, "hit", id="F-ATK-8-reach-not-adjacent"),
    ],
)
def test_F_ATK_8_coup_de_grace_that_hits_is_a_critical_hit(
    build: Builder, power: str, target_pos: tuple[int, int], helpless: bool, outcome: str
) -> None:
    enc = duel(build, [12, 3], target=dummy(ac=10), target_pos=target_pos)
    if helpless:
        # helpless without unconscious' -5 to defenses: a plain `helpless` effect
        put_effect(enc, "t", source="s", conditions=("helpless",))
    atk, dmg = attack(enc, power)
    assert atk.outcome == outcome
    assert dmg[0].cause == outcome
    assert dmg[0].rolled == (4 if outcome == "crit" else 3)


@pytest.mark.parametrize(
    ("natural", "outcome"),
    [pytest.param(12, "crit", id="hits-crit"), pytest.param(11, "miss", id="misses")],
)
def test_F_ATK_8_a_dying_character_is_helpless_to_a_coup_de_grace(
    build: Builder, natural: int, outcome: str
) -> None:
    enc = build(
        GRID,
        [mon("s", (1, 1), "striker"), pc("f", (2, 1))],
        creatures=[STRIKER, FIGHTER],
        powers=[*POKES, ZAP, LONG, KEEN, BASIC_MELEE],
        faces=[20, 1, natural, 3],
    )
    enc.battle["f"].hp = -3
    enc.battle["f"].state = "dying"
    atk, dmg = attack(enc, "poke-ac", "f")
    # AC 19 - 5 (unconscious) = 14; natural + 2 (combat advantage) against it
    assert atk.defense == 14 and atk.combat_advantage
    assert atk.outcome == outcome
    assert [d.rolled for d in dmg] == ([4] if outcome == "crit" else [])


GUARDED = poke(
    "ac",
    id="guarded",
    hit={
        "damage": {"dice": "1d4"},
        "effects": [
            {
                "duration": "end_of_next_turn",
                "to": "self",
                "modifiers": [{"stat": "ac", "value": 2}],
            }
        ],
    },
    miss={
        "effects": [
            {
                "duration": "end_of_next_turn",
                "to": "self",
                "modifiers": [{"stat": "will", "value": 1}],
            }
        ]
    },
)


@pytest.mark.parametrize(
    ("natural", "stat"),
    [
        pytest.param(15, "ac", id="hit-gives-the-hit-part"),
        pytest.param(2, "will", id="miss-the-miss-part"),
    ],
)
def test_F_DMG_10_a_power_benefits_its_user_on_a_hit_or_a_miss_as_it_says(
    build: Builder, natural: int, stat: str
) -> None:
    striker = dict(STRIKER, powers=["guarded"])
    enc = build(
        GRID,
        [mon("s", (1, 1), "striker", side="party"), mon("t", (2, 1), "dummy")],
        creatures=[striker, dummy()],
        powers=[GUARDED],
        faces=[20, 1, natural, 1],
    )
    enc.apply(UsePower("guarded", ("t",)))
    b = enc.battle
    got = {s: b.modifier(b["s"], s) for s in ("ac", "will")}
    assert got == {"ac": 2 if stat == "ac" else 0, "will": 1 if stat == "will" else 0}
