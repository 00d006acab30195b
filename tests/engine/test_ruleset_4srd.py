"""Ruleset `4srd` (file 002): one test or more per clause S-1..S-15, each named by its id.

Every fight here is written as YAML with `ruleset: 4srd` and goes through the real loader and
encounter; where a clause changes an ffd20 rule, the same fight under `ffd20` is the contrast.
Dice are scripted: the first faces are the initiative rolls, one per combatant as listed.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import EndTurn, Move, UsePower, Withdraw
from engine.encounter import Encounter
from engine.events import (
    ActionSpent,
    Attack,
    Damage,
    DeathSave,
    Initiative,
    InitiativeOrder,
    Moved,
    Provoke,
    Save,
)
from engine.hp import deal_damage
from engine.preview import damage_expr
from engine.rulesets.srd4 import range_penalty
from tests.support.helpers import Answers, Builder, duel, events, mods

GRID = "\n".join(["." * 32] * 4) + "\n"


def power(pid: str, **over: Any) -> dict[str, Any]:
    p: dict[str, Any] = {
        "id": pid,
        "name": pid.title(),
        "kind": "melee",
        "attack": {"bonus": 5, "vs": "ac"},
        "hit": {"damage": {"dice": "1d6"}},
    }
    p.update(over)
    return p


def weapon_power(pid: str, weapon: str, ability: str, **over: Any) -> dict[str, Any]:
    return power(
        pid,
        keywords=["weapon"],
        weapon=weapon,
        attack={"ability": ability, "vs": "ac"},
        hit={"damage": {"dice": "1[W]", "ability": ability}},
        **over,
    )


POWERS = [
    power("jab", basic=True),
    power("zap", kind="ranged", range=10),
    power("feeble", attack={"bonus": 30, "vs": "ac"}, hit={"damage": {"dice": "1d4", "bonus": -8}}),
    power(
        "twin",
        attack={"bonus": 30, "vs": "ac"},
        hit={"damage": {"dice": "1d6", "bonus": 3, "multiplier": 2}},
    ),
    power(
        "shove",
        attack={"bonus": 30, "vs": "ac"},
        hit={"forced": {"kind": "push", "distance": 2}},
    ),
    {
        "id": "focus",
        "name": "Focus",
        "kind": "personal",
        "target": "self",
        "action": "minor",
        "effect": {
            "effects": [
                {
                    "duration": "start_of_next_turn",
                    "to": "self",
                    "modifiers": [{"stat": "attack", "value": 1}],
                }
            ]
        },
    },
    weapon_power("melee-basic", "sword", "str", basic=True),
    weapon_power("hurl", "javelin", "dex", basic=True, kind="ranged", range=10),
    weapon_power("flick", "dagger", "str", basic=True, kind="ranged", range=10),
    weapon_power("bow-shot", "bow", "str", basic=True, kind="ranged", range=30),
    power(
        "plain-cut",
        keywords=["weapon"],
        weapon="sword",
        attack={"ability": "str", "vs": "ac"},
        hit={"damage": {"dice": "1[W]"}},
    ),
    power(
        "plain-bow",
        keywords=["weapon"],
        weapon="bow",
        kind="ranged",
        range=30,
        attack={"ability": "dex", "vs": "ac"},
        hit={"damage": {"dice": "1[W]"}},
    ),
    power(
        "plain-hurl",
        keywords=["weapon"],
        weapon="javelin",
        kind="ranged",
        range=10,
        attack={"ability": "str", "vs": "ac"},
        hit={"damage": {"dice": "1[W]"}},
    ),
]


def unit(cid: str = "unit", **over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": cid,
        "name": cid.title(),
        "role": "soldier",
        "level": 1,
        "hp": 40,
        "defenses": {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12},
        "initiative": 0,
        "speed": 6,
        "powers": ["jab", "zap", "feeble", "twin", "shove"],
    }
    base.update(over)
    return base


HERO: dict[str, Any] = {
    "id": "hero",
    "name": "Hero",
    "kind": "pc",
    "level": 4,
    "hp": 30,
    "speed": 6,
    "healing_surges": 4,
    "abilities": {"str": 16, "con": 14, "dex": 14, "int": 10, "wis": 12, "cha": 8},
    "armor": {"name": "leather", "weight": "light", "bonus": 2},
    "shield": {"name": "light shield", "bonus": 1},
    "weapons": [
        {"id": "sword", "name": "sword", "dice": "1d8", "proficiency": 3},
        {
            "id": "javelin",
            "name": "javelin",
            "dice": "1d6",
            "kind": "thrown",
            "range": 5,
            "proficiency": 2,
        },
        {
            "id": "dagger",
            "name": "dagger",
            "dice": "1d4",
            "kind": "thrown",
            "range": 5,
            "handed": "light",
        },
        {
            "id": "bow",
            "name": "bow",
            "dice": "1d10",
            "kind": "ranged",
            "range": 10,
            "proficiency": 2,
        },
    ],
    "powers": [
        "melee-basic",
        "hurl",
        "flick",
        "bow-shot",
        "plain-cut",
        "plain-bow",
        "plain-hurl",
        "focus",
        "jab",
    ],
}


def fight(
    build: Builder,
    combatants: list[dict[str, Any]],
    faces: list[int],
    *,
    ruleset: str = "4srd",
    creatures: list[dict[str, Any]] | None = None,
    **kw: Any,
) -> Encounter:
    """`combatants` act in the order listed (initiative rolls 20, 15, 10, ...)."""
    init = [max(1, 20 - 5 * i) for i in range(len(combatants))]
    return build(
        kw.pop("grid", GRID),
        combatants,
        creatures=creatures or [unit(), HERO],
        powers=POWERS,
        faces=[*init, *faces],
        ruleset=ruleset,
        **kw,
    )


def mon(cid: str, pos: tuple[int, int], creature: str = "unit", side: str = "monsters") -> Any:
    return {"id": cid, "creature": creature, "side": side, "pos": list(pos)}


def pc(cid: str, pos: tuple[int, int], creature: str = "hero", side: str = "party") -> Any:
    return {"id": cid, "creature": creature, "side": side, "pos": list(pos)}


def provokes(out: list[Any]) -> list[tuple[str, str, tuple[int, int], bool]]:
    return [(p.mover, p.by, tuple(p.at), p.taken) for p in events(out, Provoke)]


def walk(*path: tuple[int, int], mode: str = "walk") -> Move:
    return Move(tuple(path), mode)


# --- S-1: flat-footed until it first acts -----------------------------------------------------
@pytest.mark.parametrize(("ruleset", "first", "later"), [("4srd", 13, 15), ("ffd20", 17, 17)])
def test_S_1_flat_footed_until_it_first_acts(
    build: Builder, ruleset: str, first: int, later: int
) -> None:
    # the hero's AC: 10 + leather 2 + shield 1 + Dex 2 (4srd, no half level); flat-footed: no Dex
    enc = fight(build, [mon("s", (1, 1)), pc("h", (2, 1), "hero")], [2, 2, 2], ruleset=ruleset)
    b = enc.battle
    assert b.has(b["h"], "flat_footed") == (ruleset == "4srd")
    a1 = events(enc.apply(UsePower("jab", ("h",))), Attack)[0]
    assert a1.defense == first
    enc.apply(EndTurn())
    enc.apply(walk((2, 1), (2, 2)))  # the hero acts: no longer flat-footed
    assert not b.has(b["h"], "flat_footed")
    enc.apply(EndTurn())
    a2 = events(enc.apply(UsePower("jab", ("h",))), Attack)[0]
    assert a2.defense == later


def test_S_1_a_monster_loses_the_dex_share_of_its_printed_ac(build: Builder) -> None:
    quick = unit("quick", abilities={"dex": 16, "int": 12})  # +3 Dex, +1 Int: the higher, 3
    enc = fight(
        build,
        [mon("s", (1, 1)), mon("q", (2, 1), "quick", side="party")],
        [],
        creatures=[unit(), quick],
    )
    rs, q = enc.battle.ruleset, enc.battle["q"]
    assert rs.defense(q, "ac", flat_footed=True) == 12
    assert rs.defense(q, "ac") == 15
    assert rs.defense(q, "reflex", flat_footed=True) == 14, "AC only"


def test_S_1_a_dex_penalty_stays_when_flat_footed(build: Builder) -> None:
    clumsy = dict(HERO, id="clumsy", abilities={"dex": 6, "int": 6})  # -2
    enc = fight(
        build, [mon("s", (1, 1)), pc("c", (2, 1), "clumsy")], [], creatures=[unit(), clumsy]
    )
    rs, c = enc.battle.ruleset, enc.battle["c"]
    assert rs.defense(c, "ac", flat_footed=True) == rs.defense(c, "ac") == 10 + 2 + 1 - 2


# --- S-2: the surprise round: one standard or one move action ------------------------------
@pytest.mark.parametrize("ruleset", ["4srd", "ffd20"])
def test_S_2_the_surprise_round_allows_a_standard_or_a_move_not_a_minor(
    build: Builder, ruleset: str
) -> None:
    enc = fight(
        build,
        [pc("h", (1, 1), "hero"), mon("u", (5, 1))],
        [],
        ruleset=ruleset,
        surprise={"mode": "stated", "surprised": ["monsters"]},
    )
    assert enc.battle.surprise_round and enc.current is not None and enc.current.id == "h"
    assert enc.can_spend("standard") and enc.can_spend("move")
    minor = enc.validate(UsePower("focus", ()))
    if ruleset == "4srd":
        assert not enc.can_spend("minor") and minor is not None
    else:
        assert enc.can_spend("minor") and minor is None
    enc.apply(walk((1, 1), (2, 1)))
    assert not enc.can_spend("standard") and not enc.can_spend("move")


def test_S_2_surprised_combatants_act_not_at_all_and_grant_combat_advantage(
    build: Builder,
) -> None:
    enc = fight(
        build,
        [mon("s", (1, 1), side="party"), mon("u", (2, 1))],
        [12],
        surprise={"mode": "stated", "surprised": ["monsters"]},
    )
    atk = events(enc.apply(UsePower("jab", ("u",))), Attack)[0]
    assert atk.combat_advantage and mods(atk)["combat_advantage"] == 2
    enc.apply(EndTurn())
    assert enc.battle.round == 1, "the surprised monster's surprise turn was skipped"


# --- S-3: natural 1 misses, 20 hits; a crit when 20 + modifiers would hit ---------------------
@pytest.mark.parametrize(
    ("natural", "ac", "outcome"),
    [
        pytest.param(20, 15, "crit", id="20-that-would-hit-is-a-crit"),
        pytest.param(20, 25, "hit", id="20-that-would-miss-is-a-plain-hit"),
        pytest.param(1, 1, "miss", id="1-always-misses"),
        pytest.param(15, 15, "hit", id="equals-or-beats"),
    ],
)
def test_S_3_natural_20_and_1(build: Builder, natural: int, ac: int, outcome: str) -> None:
    from tests.support.helpers import attack_on, dummy

    enc = duel(build, [natural, 3], target=dummy(ac=ac), ruleset="4srd")
    assert attack_on(enc, "poke-ac").outcome == outcome


# --- S-4: attack bonus of basic attacks, range penalties ----------------------------------
@pytest.mark.parametrize(
    ("pid", "ruleset", "bonus"),
    [
        # level 4 (+2), Str 16 (+3), Dex 14 (+2); proficiency as F-ATK-2
        pytest.param("melee-basic", "4srd", 2 + 3 + 3, id="basic-melee-str"),
        pytest.param("hurl", "4srd", 2 + 3 + 2, id="heavy-thrown-str-whatever-the-power-says"),
        pytest.param("hurl", "ffd20", 2 + 2 + 2, id="ffd20-the-power-names-dex"),
        pytest.param("flick", "4srd", 2 + 2, id="light-thrown-dex"),
        pytest.param("bow-shot", "4srd", 2 + 2 + 2, id="ranged-weapon-dex"),
        pytest.param("bow-shot", "ffd20", 2 + 3 + 2, id="ffd20-ranged-the-power-names-str"),
    ],
)
def test_S_4_basic_attack_bonus(build: Builder, pid: str, ruleset: str, bonus: int) -> None:
    enc = fight(build, [pc("h", (1, 1), "hero"), mon("u", (9, 1))], [], ruleset=ruleset)
    h = enc.battle["h"]
    p = h.power(pid)
    assert p is not None
    got = enc.battle.ruleset.attack_modifiers(h, p, h.weapon_for(p))
    assert got[0].source == "attack_bonus" and sum(m.value for m in got) == bonus


@pytest.mark.parametrize(
    ("dist", "penalty"), [(1, 0), (10, 0), (11, -2), (20, -2), (21, -4), (30, -4)]
)
def test_S_4_range_penalty_is_minus_2_per_range_increment_beyond(dist: int, penalty: int) -> None:
    from engine.content.schema import Power, Weapon

    bow = Weapon(id="bow", name="bow", dice="1d10", kind="ranged", range=10)
    shot = Power.model_validate(POWERS[9])
    assert range_penalty(shot, bow, dist) == penalty


@pytest.mark.parametrize(("ruleset", "penalty"), [("4srd", -2), ("ffd20", None)])
def test_S_4_range_penalty_on_the_attack_roll(build: Builder, ruleset: str, penalty: Any) -> None:
    enc = fight(build, [pc("h", (1, 1), "hero"), mon("u", (15, 1))], [12, 3], ruleset=ruleset)
    atk = events(enc.apply(UsePower("bow-shot", ("u",))), Attack)[0]
    assert mods(atk).get("range") == penalty
    assert atk.total == atk.natural + sum(m.value for m in atk.modifiers)


# --- S-5: minimum damage -------------------------------------------------------------------------
@pytest.mark.parametrize(("ruleset", "amount"), [("4srd", 1), ("ffd20", 0)])
def test_S_5_a_hit_deals_at_least_1(build: Builder, ruleset: str, amount: int) -> None:
    enc = fight(build, [mon("s", (1, 1)), mon("u", (2, 1), side="party")], [10, 3], ruleset=ruleset)
    d = events(enc.apply(UsePower("feeble", ("u",))), Damage)[0]
    assert (d.rolled, d.amount) == (3 - 8, amount)
    if amount:
        assert [(m.source, m.value) for m in d.adjustments] == [("minimum", 6)]


# --- S-6: Str to melee and thrown weapon damage ----------------------------------------------
@pytest.mark.parametrize(
    ("pid", "ruleset", "text"),
    [
        pytest.param("plain-cut", "4srd", "1d8+3", id="melee-adds-str"),
        pytest.param("plain-hurl", "4srd", "1d6+3", id="thrown-adds-str"),
        pytest.param("plain-bow", "4srd", "1d10", id="a-bow-adds-none"),
        pytest.param("plain-cut", "ffd20", "1d8", id="ffd20-only-what-the-power-names"),
    ],
)
def test_S_6_str_to_melee_and_thrown_damage(
    build: Builder, pid: str, ruleset: str, text: str
) -> None:
    enc = fight(build, [pc("h", (1, 1), "hero"), mon("u", (2, 1))], [], ruleset=ruleset)
    h = enc.battle["h"]
    p = h.power(pid)
    assert p is not None and p.hit is not None and p.hit.damage is not None
    assert str(damage_expr(enc.battle, h, p.hit.damage, h.weapon_for(p))) == text


# --- S-7: multiplying damage ---------------------------------------------------------------------
def test_S_7_multiplied_damage_rolls_the_dice_again_and_adds_bonuses_once(build: Builder) -> None:
    enc = fight(build, [mon("s", (1, 1)), mon("u", (2, 1), side="party")], [10, 4, 5])
    d = events(enc.apply(UsePower("twin", ("u",))), Damage)[0]
    assert (d.dice, d.rolls, d.rolled) == ("2d6+3", (4, 5), 12)


# --- S-8: defenses without half level --------------------------------------------------------
@pytest.mark.parametrize(
    ("ruleset", "want"),
    [
        # AC 10 + 2 + 1 + Dex 2; Fort 10 + Str 3; Reflex 10 + Dex 2 (no shield); Will 10 + Wis 1
        ("4srd", {"ac": 15, "fortitude": 13, "reflex": 12, "will": 11}),
        ("ffd20", {"ac": 17, "fortitude": 15, "reflex": 15, "will": 13}),
    ],
)
def test_S_8_defenses(build: Builder, ruleset: str, want: dict[str, int]) -> None:
    enc = fight(build, [pc("h", (1, 1), "hero"), mon("u", (5, 1))], [], ruleset=ruleset)
    rs = enc.battle.ruleset
    assert {d: rs.defense(enc.battle["h"], d) for d in want} == want
    assert rs.defense(enc.battle["u"], "ac") == 15, "a monster's printed defenses stand"


def test_S_8_enhancement_bonuses_add(build: Builder) -> None:
    hero = dict(
        HERO,
        id="knight",
        armor={"name": "+1 leather", "bonus": 2, "enhancement": 1},
        typed_bonuses=[{"stat": "will", "type": "enhancement", "value": 2}],
    )
    enc = fight(build, [pc("h", (1, 1), "knight"), mon("u", (5, 1))], [], creatures=[unit(), hero])
    rs, h = enc.battle.ruleset, enc.battle["h"]
    assert rs.defense(h, "ac") == 16 and rs.defense(h, "will") == 13


# --- S-9: same-type bonuses don't stack ---------------------------------------------------------
BONUSES = [
    {"stat": "ac", "type": "feat", "value": 2},
    {"stat": "ac", "type": "feat", "value": 1},
    {"stat": "ac", "type": "item", "value": 1},
    {"stat": "ac", "value": 1},
    {"stat": "ac", "value": 1},
    {"stat": "ac", "type": "enhancement", "value": 2},
    {"stat": "attack", "type": "feat", "value": 1},
    {"stat": "attack", "type": "feat", "value": 1},
    {"stat": "attack", "type": "power", "value": 2},
    {"stat": "attack", "type": "power", "value": -1},
]


@pytest.mark.parametrize(
    ("ruleset", "ac", "attack"),
    [
        # 4srd: feat 2 + item 1 + untyped 2 + enhancement max(2, armor's 1) = +7; attack: feat 1
        # + power 2 - 1 (a penalty always counts) = +2
        ("4srd", 15 + 7, 2 + 3 + 3 + 2),
        ("ffd20", 17 + 1 + 8, 2 + 3 + 3 + 3),  # every bonus adds (F-DEF-6)
    ],
)
def test_S_9_bonuses_of_the_same_type_do_not_stack(
    build: Builder, ruleset: str, ac: int, attack: int
) -> None:
    hero = dict(
        HERO,
        id="lucky",
        typed_bonuses=BONUSES,
        armor={"name": "+1 leather", "bonus": 2, "enhancement": 1},
    )
    enc = fight(
        build,
        [pc("h", (1, 1), "lucky"), mon("u", (2, 1))],
        [],
        creatures=[unit(), hero],
        ruleset=ruleset,
    )
    rs, h = enc.battle.ruleset, enc.battle["h"]
    assert rs.defense(h, "ac") == ac
    p = h.power("melee-basic")
    assert p is not None
    assert sum(m.value for m in rs.attack_modifiers(h, p, h.weapon_for(p))) == attack


# --- S-10: hit points, dying, death ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("hp", "state"),
    [
        (30, "healthy"),
        (16, "healthy"),
        (15, "bloodied"),
        (0, "unconscious"),
        (-1, "dying"),
        (-14, "dying"),
        (-15, "dead"),
    ],
)
def test_S_10_hit_point_states(build: Builder, hp: int, state: str) -> None:
    enc = fight(build, [mon("s", (1, 1)), pc("h", (2, 1), "hero")], [])
    h = enc.battle["h"]
    deal_damage(
        enc.battle,
        h,
        source=None,
        power=None,
        cause="effect",
        dice=str(30 - hp),
        rolls=(),
        rolled=30 - hp,
        types=(),
        adjustments=[],
    )
    assert h.state == state


def test_S_10_three_failed_death_saves_kill(build: Builder) -> None:
    cast = [mon("s", (1, 1)), pc("h", (2, 1)), mon("a", (9, 3), side="party")]
    enc = fight(build, cast, [5, 5, 5])
    h = enc.battle["h"]
    deal_damage(
        enc.battle,
        h,
        source=None,
        power=None,
        cause="effect",
        dice="31",
        rolls=(),
        rolled=31,
        types=(),
        adjustments=[],
    )
    for _ in range(3):
        enc.apply(EndTurn())  # s; the dying hero's turn passes with a death save
        enc.apply(EndTurn())  # a
    assert [d.result for d in events(enc, DeathSave)] == ["fail"] * 3
    assert h.state == "dead"


# --- S-11: speed by race and armor, double move, running --------------------------------------
@pytest.mark.parametrize(
    ("race", "armor", "speed"),
    [
        ("dwarf", "light", 5),
        ("dwarf", "heavy", 5),
        ("gnome", "light", 5),
        ("halfling", "heavy", 4),
        ("elf", "light", 7),
        ("elf", "heavy", 6),
        ("human", "light", 6),
        ("human", "heavy", 5),
        ("tiefling", "heavy", 5),
    ],
)
def test_S_11_speed_by_race_and_armor(build: Builder, race: str, armor: str, speed: int) -> None:
    walker = {k: v for k, v in HERO.items() if k != "speed"}
    walker.update(id="walker", race=race, armor={"name": "armor", "weight": armor, "bonus": 2})
    enc = fight(
        build, [pc("w", (0, 0), "walker"), mon("u", (30, 3))], [], creatures=[unit(), walker]
    )
    b = enc.battle
    assert b.speed(b["w"]) == speed
    assert enc.validate(Move(tuple((x, 0) for x in range(speed + 1)))) is None
    assert enc.validate(Move(tuple((x, 0) for x in range(speed + 2)))) is not None
    start = events(enc, type(events(enc)[0]))[0]
    assert next(c for c in start.combatants if c["id"] == "w")["speed"] == speed


def test_S_11_a_written_speed_wins_over_the_race(build: Builder) -> None:
    elf = dict(HERO, id="slow-elf", race="elf", speed=4)
    enc = fight(
        build, [pc("w", (0, 0), "slow-elf"), mon("u", (30, 3))], [], creatures=[unit(), elf]
    )
    assert enc.battle.speed(enc.battle["w"]) == 4


def test_S_11_double_move_and_running(build: Builder) -> None:
    enc = fight(build, [pc("h", (0, 0), "hero"), mon("u", (30, 3))], [12])
    enc.apply(Move(tuple((x, 0) for x in range(7))))
    enc.apply(Move(tuple((x, 0) for x in range(6, 13))))
    assert enc.battle["h"].pos == (12, 0), "two move actions: double speed"
    enc.apply(EndTurn())
    enc.apply(EndTurn())  # the unit
    out = enc.apply(Move(tuple((x, 0) for x in range(12, 21)), "run"))  # speed + 2
    assert enc.battle["h"].pos == (20, 0)
    assert enc.battle.effect_flag(enc.battle["h"], "grants_ca")
    effect = next(e for e in events(out) if e.type == "effect_start")
    assert {"modifier": "attack", "value": -5} in effect.parts


# --- S-12: immediate saving throws at an edge -------------------------------------------------
@pytest.mark.parametrize(("natural", "falls"), [(10, False), (9, True)])
def test_S_12_forced_over_an_edge_an_immediate_save(
    build: Builder, natural: int, falls: bool
) -> None:
    grid = "........\n....^...\n........\n"
    enc = fight(
        build,
        [mon("a", (2, 1), side="party"), mon("t", (3, 1))],
        [10, natural, 6],
        grid=grid,
        deciders=lambda _cid: Answers(),
    )
    out = enc.apply(UsePower("shove", ("t",)))
    save = events(out, Save)[0]
    assert (save.when, save.success) == ("immediate", not falls)
    t = enc.battle["t"]
    assert enc.battle.has(t, "prone")
    assert t.pos == ((4, 1) if falls else (3, 1))


# --- S-13: initiative: a Dex check; ties by modifier, then a roll-off ----------------------------
def test_S_13_initiative_is_a_dex_check(build: Builder) -> None:
    enc = fight(build, [pc("h", (1, 1), "hero"), mon("u", (5, 1))], [])
    init = next(e for e in events(enc, Initiative) if e.id == "h")
    assert init.modifier == 2, "Dex +2, no half level (ffd20 would give 4)"


@pytest.mark.parametrize(
    ("dexes", "faces", "order", "rolloffs"),
    [
        pytest.param((16, 12), [10, 12], ("a", "b"), 0, id="higher-modifier-wins-a-tie"),
        pytest.param((14, 14), [10, 10, 4, 15], ("b", "a"), 2, id="equal-modifiers-roll-off"),
    ],
)
def test_S_13_initiative_ties(
    build: Builder, dexes: tuple[int, int], faces: list[int], order: tuple[str, ...], rolloffs: int
) -> None:
    a = dict(HERO, id="pa", abilities={"dex": dexes[0]})
    b = dict(HERO, id="pb", abilities={"dex": dexes[1]})
    enc = build(
        GRID,
        [pc("a", (1, 1), "pa"), pc("b", (8, 1), "pb", side="monsters")],
        creatures=[a, b],
        powers=POWERS,
        faces=faces,
        strict=True,
        ruleset="4srd",
    )
    assert events(enc, InitiativeOrder)[0].order == order
    assert len([e for e in events(enc, Initiative) if e.rolloff]) == rolloffs


# --- S-14: attacks of opportunity -------------------------------------------------------------
def test_S_14_one_opportunity_attack_per_round(build: Builder) -> None:
    cast = [mon("m", (1, 1), side="party"), mon("n", (3, 1), side="party"), mon("e", (2, 1))]
    enc = fight(build, cast, [2, 2, 2, 2])
    assert provokes(enc.apply(walk((1, 1), (0, 1)))) == [("m", "e", (1, 1), True)]
    enc.apply(EndTurn())
    assert provokes(enc.apply(walk((3, 1), (4, 1)))) == [], "e's one attack this round is spent"
    enc.apply(EndTurn())
    enc.apply(EndTurn())  # e
    assert provokes(enc.apply(walk((0, 1), (0, 0)))) == [], "out of reach already"
    enc.apply(EndTurn())
    assert provokes(enc.apply(walk((4, 1), (5, 1)))) == [], "not threatened there"


def test_S_14_ffd20_by_contrast_one_per_turn(build: Builder) -> None:
    cast = [mon("m", (1, 1), side="party"), mon("n", (3, 1), side="party"), mon("e", (2, 1))]
    enc = fight(build, cast, [2, 2, 2, 2], ruleset="ffd20")
    assert provokes(enc.apply(walk((1, 1), (0, 1)))) == [("m", "e", (1, 1), True)]
    enc.apply(EndTurn())
    assert provokes(enc.apply(walk((3, 1), (4, 1)))) == [("n", "e", (3, 1), True)]


def test_S_14_combat_reflexes_adds_the_dex_modifier(build: Builder) -> None:
    sentry = unit("sentry", feats=["combat_reflexes"], abilities={"dex": 14})  # +2: 3 a round
    cast = [
        mon("m", (1, 1), side="party"),
        mon("n", (3, 1), side="party"),
        mon("o", (2, 0), side="party"),
        mon("p", (2, 2), side="party"),
        mon("e", (2, 1), "sentry"),
    ]
    enc = fight(build, cast, [2] * 8, creatures=[unit(), sentry])
    assert len(provokes(enc.apply(walk((1, 1), (0, 1))))) == 1
    enc.apply(EndTurn())
    assert len(provokes(enc.apply(walk((3, 1), (4, 1))))) == 1
    enc.apply(EndTurn())
    assert len(provokes(enc.apply(walk((2, 0), (1, 0))))) == 1
    enc.apply(EndTurn())
    assert provokes(enc.apply(walk((2, 2), (3, 3)))) == [], "1 + Dex 2 = 3 a round"


def test_S_14_several_squares_of_one_opponent_in_a_round_are_one_opportunity(
    build: Builder,
) -> None:
    sentry = unit("sentry", feats=["combat_reflexes"], abilities={"dex": 18})
    enc = fight(
        build,
        [mon("m", (1, 1), side="party"), mon("e", (2, 2), "sentry")],
        [2, 2],
        creatures=[unit(), sentry],
    )
    first = enc.apply(walk((1, 1), (1, 0)))
    assert provokes(first) == [("m", "e", (1, 1), True)], "one attack for one opportunity"
    assert len([a for a in events(first, Attack) if a.opportunity]) == 1
    second = enc.apply(walk((1, 0), (2, 1), (3, 0)))  # leaves (2,1), e's square, again
    assert provokes(second) == [], "the same opponent, the same round: the same opportunity"


def test_S_14_a_distracting_act_is_another_opportunity(build: Builder) -> None:
    sentry = unit("sentry", feats=["combat_reflexes"], abilities={"dex": 18})
    enc = fight(
        build,
        [mon("m", (1, 1), side="party"), mon("e", (2, 2), "sentry")],
        [2, 2, 2],
        creatures=[unit(), sentry],
    )
    enc.apply(walk((1, 1), (2, 1)))  # within e's reach all along: nothing left yet
    out = enc.apply(UsePower("zap", ("e",)))
    assert provokes(out) == [("m", "e", (2, 1), True)]


def test_S_14_the_count_starts_again_next_round(build: Builder) -> None:
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (2, 2))], [2, 2])
    assert provokes(enc.apply(walk((1, 1), (1, 0)))) != []
    enc.apply(EndTurn())
    enc.apply(EndTurn())  # e
    assert provokes(enc.apply(walk((1, 0), (2, 1), (3, 0)))) == [("m", "e", (2, 1), True)]


# --- S-15: the 5-foot step and withdraw --------------------------------------------------------
@pytest.mark.parametrize("ruleset", ["4srd", "ffd20"])
def test_S_15_a_five_foot_step_only_in_a_turn_with_no_other_movement(
    build: Builder, ruleset: str
) -> None:
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (9, 3))], [], ruleset=ruleset)
    enc.apply(walk((1, 1), (2, 1)))
    step = enc.validate(walk((2, 1), (3, 1), mode="shift"))
    assert (step is not None) == (ruleset == "4srd")


def test_S_15_no_other_movement_after_a_five_foot_step(build: Builder) -> None:
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (9, 3))], [])
    enc.apply(walk((1, 1), (2, 1), mode="shift"))
    assert enc.validate(walk((2, 1), (3, 1))) is not None
    assert enc.validate(Withdraw(((2, 1), (3, 1)))) is not None


def test_S_15_a_five_foot_step_provokes_nothing(build: Builder) -> None:
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (2, 2))], [])
    out = enc.apply(walk((1, 1), (1, 0), mode="shift"))
    assert provokes(out) == []


def test_S_15_withdraw_is_a_full_round_double_move_whose_first_square_provokes_nothing(
    build: Builder,
) -> None:
    enc = fight(build, [mon("m", (13, 1), side="party"), mon("e", (14, 1))], [])
    path = tuple((x, 1) for x in range(13, 0, -1))  # 12 squares: double speed
    out = enc.apply(Withdraw(path))
    assert provokes(out) == []
    spent = [(a.kind, a.name) for a in events(out, ActionSpent)]
    assert spent == [("full_round", "withdraw")]
    assert [(m.mode, m.cost) for m in events(out, Moved)] == [("withdraw", 12)]
    assert enc.battle["m"].pos == (1, 1)
    assert not enc.can_spend("standard") and not enc.can_spend("move")
    assert enc.can_spend("minor")


def test_S_15_withdraw_later_squares_still_provoke(build: Builder) -> None:
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (2, 2))], [2])
    out = enc.apply(Withdraw(((1, 1), (2, 1), (3, 1), (4, 0))))  # (2,1) is e's too
    assert provokes(out) == [("m", "e", (2, 1), True)]


def test_S_15_withdraw_limits(build: Builder) -> None:
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (20, 3))], [])
    assert enc.validate(Withdraw(tuple((x, 1) for x in range(1, 15)))) is not None, "13 > 12"
    enc.apply(walk((1, 1), (2, 1)))
    assert enc.validate(Withdraw(((2, 1), (3, 1)))) is not None, "the move action is spent"
    ffd = fight(build, [mon("m", (1, 1), side="party"), mon("e", (20, 3))], [], ruleset="ffd20")
    assert ffd.validate(Withdraw(((1, 1), (0, 1)))) is not None


def test_4srd_bundled_encounter_plays_to_the_end() -> None:
    from ai.sim import play
    from engine.content.loader import load_encounter

    loaded = load_encounter("crossroads-4srd")
    assert loaded.spec.ruleset == "4srd"
    enc, _result = play(loaded, 3, {"party": "tactical", "monsters": "tactical"})
    assert enc.over and enc.battle.ruleset.name == "4srd"
    lira = enc.battle["lira"]
    assert enc.battle.ruleset.base_speed(lira) == 7, "an elf with no written speed (S-11)"
