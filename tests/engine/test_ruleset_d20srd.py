"""Ruleset `d20srd` (file 004): one test or more per clause D-1..D-11, each named by its id,
with the seed text's own examples (x2 then x3 on a d6 is 5d6; a x2 critical with a 1d6 sneak
attack on a d8 weapon is 2d8 + 1d6; the AC components), and the AI's expectations (hit and
critical chances with the confirmation roll) as the ruleset computes them.

Fights are YAML with `ruleset: d20srd` through the real loader; the first scripted faces are
the initiative rolls (one per combatant as listed), then every d20 and damage die in order.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import EndTurn, FullAttack, Move, UsePower, Withdraw
from engine.attacks import defense_value
from engine.encounter import Encounter
from engine.events import ActionSpent, Attack, Damage, Logged
from engine.preview import damage_expr
from engine.rulesets import get_ruleset
from engine.rulesets.d20srd import D20Srd
from tests.support.helpers import Builder, attack_on, duel, dummy, events, mods

GRID = "\n".join(["." * 16] * 5) + "\n"


def weapon_power(pid: str, ability: str, **over: Any) -> dict[str, Any]:
    p: dict[str, Any] = {
        "id": pid,
        "name": pid.title(),
        "kind": "melee",
        "keywords": ["weapon"],
        "basic": True,
        "attack": {"ability": ability, "vs": "ac"},
        "hit": {"damage": {"dice": "1[W]", "ability": ability}},
    }
    p.update(over)
    return p


POWERS = [
    weapon_power("strike", "str"),
    weapon_power("shot", "dex", kind="ranged", range=20),
    weapon_power("off-cut", "str", weapon="offhand"),
    weapon_power("axe", "str", weapon="greataxe"),
    weapon_power("throw", "str", weapon="javelin", kind="ranged", range=10),
    weapon_power("triple", "str", hit={"damage": {"dice": "1[W]", "multiplier": 3}}),
    weapon_power("touch", "str", attack={"ability": "str", "vs": "ac", "touch": True}),
    {
        "id": "slam",
        "name": "Slam",
        "kind": "melee",
        "basic": True,
        "attack": {"ability": "str", "vs": "ac"},
        "hit": {"damage": {"dice": "1d8"}},
    },
    {
        "id": "feeble-slam",
        "name": "Feeble Slam",
        "kind": "melee",
        "attack": {"ability": "str", "vs": "ac"},
        "hit": {"damage": {"dice": "1d8", "bonus": -4}},
    },
    {
        "id": "fire-slam",
        "name": "Fire Slam",
        "kind": "melee",
        "attack": {"ability": "str", "vs": "ac"},
        "hit": {"damage": {"dice": "1d8", "types": ["fire"]}},
    },
]
LONGSWORD = {"id": "longsword", "name": "longsword", "dice": "1d8", "crit_range": 19, "focus": True}
BOW = {
    "id": "bow",
    "name": "longbow",
    "dice": "1d8",
    "kind": "ranged",
    "range": 20,
    "crit_multiplier": 3,
}


def creature(cid: str, **over: Any) -> dict[str, Any]:
    """A d20 stat block: a monster with a `bab` and no printed defenses (D-2 computes AC)."""
    base: dict[str, Any] = {
        "id": cid,
        "name": cid.title(),
        "role": "soldier",
        "level": 6,
        "hp": 100,
        "bab": 6,
        "abilities": {"str": 16, "con": 12, "dex": 14},
        "armor": {"name": "breastplate", "bonus": 5, "max_dex": 3, "check_penalty": 4},
        "shield": {"name": "heavy shield", "bonus": 2},
        "weapons": [LONGSWORD, BOW],
        "feats": ["weapon_focus"],
        "powers": ["strike", "shot"],
    }
    base.update(over)
    return base


WARRIOR = creature("warrior")
POST: dict[str, Any] = {
    "id": "post",
    "name": "Post",
    "role": "brute",
    "level": 1,
    "hp": 100,
    "initiative": 0,
    "defenses": {"ac": 15, "fortitude": 13, "reflex": 13, "will": 13},
    "powers": ["slam"],
}


def post(ac: int = 15, **over: Any) -> dict[str, Any]:
    out = dict(POST, defenses=dict(POST["defenses"], ac=ac), **over)
    return out


def fight(
    build: Builder,
    attacker: dict[str, Any],
    target: dict[str, Any] | None = None,
    faces: list[int] | None = None,
    *,
    ruleset: str = "d20srd",
    more: list[dict[str, Any]] | None = None,
    t_pos: tuple[int, int] = (3, 2),
    **kw: Any,
) -> Encounter:
    """`a` (party, acting first) and the target `t` (monsters); `more` are extra combatants,
    as {id, creature, side, pos} entries, acting after both."""
    creatures = [attacker, target or post()]
    extra = more or []
    cast = [
        {"id": "a", "creature": attacker["id"], "side": "party", "pos": [2, 2]},
        {"id": "t", "creature": creatures[1]["id"], "side": "monsters", "pos": list(t_pos)},
        *extra,
    ]
    extra_creatures = kw.pop("creatures", [])
    return build(
        kw.pop("grid", GRID),
        cast,
        creatures=[*creatures, *extra_creatures],
        powers=POWERS,
        faces=[20, 1, *([1] * len(extra)), *(faces or [])],
        ruleset=ruleset,
        **kw,
    )


def bonus_of(enc: Encounter, cid: str, pid: str) -> list[tuple[str, int]]:
    c = enc.battle[cid]
    p = c.power(pid)
    assert p is not None
    return [(m.source, m.value) for m in enc.battle.ruleset.attack_modifiers(c, p, c.weapon_for(p))]


def dice_of(enc: Encounter, cid: str, pid: str) -> str:
    c = enc.battle[cid]
    p = c.power(pid)
    assert p is not None and p.hit is not None and p.hit.damage is not None
    return str(damage_expr(enc.battle, c, p.hit.damage, c.weapon_for(p)))


# --- D-1: the attack bonus ------------------------------------------------------------------
def test_D_1_base_attack_bonus_str_and_weapon_focus_in_melee(build: Builder) -> None:
    enc = fight(build, WARRIOR)
    assert bonus_of(enc, "a", "strike") == [("attack_bonus", 6), ("str", 3), ("weapon_focus", 1)]


def test_D_1_dex_at_range(build: Builder) -> None:
    enc = fight(build, WARRIOR)
    assert bonus_of(enc, "a", "shot") == [("attack_bonus", 6), ("dex", 2)]


@pytest.mark.parametrize(
    ("feats", "weapon", "ability"),
    [
        pytest.param(["weapon_finesse"], {"finesse": True}, ("dex", 4), id="finesse-weapon"),
        pytest.param(["weapon_finesse"], {"handed": "light"}, ("dex", 4), id="light-weapon"),
        pytest.param(["weapon_finesse"], {}, ("str", 0), id="not-a-finesse-weapon"),
        pytest.param([], {"finesse": True}, ("str", 0), id="without-the-feat"),
    ],
)
def test_D_1_weapon_finesse(
    build: Builder, feats: list[str], weapon: dict[str, Any], ability: tuple[str, int]
) -> None:
    blade = {"id": "blade", "name": "blade", "dice": "1d6", **weapon}
    rogue = creature("rogue", bab=3, abilities={"str": 10, "dex": 18}, weapons=[blade], feats=feats)
    enc = fight(build, rogue)
    assert [m for m in bonus_of(enc, "a", "strike") if m[0] in ("str", "dex")] == (
        [ability] if ability[1] else []
    )
    assert sum(v for _, v in bonus_of(enc, "a", "strike")) == 3 + ability[1]


@pytest.mark.parametrize(("size", "mod"), [("small", 1), ("medium", 0), ("large", -1)])
def test_D_1_size_modifier(build: Builder, size: str, mod: int) -> None:
    sized = creature("sized", size=size, weapons=[dict(LONGSWORD, focus=False)])
    enc = fight(build, sized, t_pos=(4, 2))
    assert sum(v for _, v in bonus_of(enc, "a", "strike")) == 6 + 3 + mod
    a = enc.battle["a"]
    assert enc.battle.ruleset.defense(a, "ac") == 19 + mod


def test_D_1_non_proficient_weapon_and_armor(build: Builder) -> None:
    clumsy = creature(
        "clumsy",
        weapons=[dict(LONGSWORD, focus=False, proficient=False)],
        armor={
            "name": "breastplate",
            "bonus": 5,
            "max_dex": 3,
            "check_penalty": 4,
            "proficient": False,
        },
    )
    enc = fight(build, clumsy)
    assert bonus_of(enc, "a", "strike") == [
        ("attack_bonus", 6),
        ("str", 3),
        ("nonproficient", -4),
        ("armor_check", -4),
    ]


def test_D_1_without_a_bab_the_ffd20_bonus_stands(build: Builder) -> None:
    plain = creature("plain", bab=None, defenses=POST["defenses"])
    enc = fight(build, plain)
    a = enc.battle["a"]
    p = a.power("strike")
    assert p is not None
    ffd20 = get_ruleset("ffd20").attack_modifiers(a, p, a.weapon_for(p))
    assert bonus_of(enc, "a", "strike") == [(m.source, m.value) for m in ffd20]


@pytest.mark.parametrize(
    ("bab", "attacks"), [(0, 1), (5, 1), (6, 2), (10, 2), (11, 3), (16, 4), (20, 4)]
)
def test_D_1_iterative_attacks_by_base_attack_bonus(bab: int, attacks: int) -> None:
    from engine.content.schema import Creature
    from engine.state import Combatant

    cr = Creature.model_validate(creature("x", bab=bab))
    c = Combatant("x", "X", "a", cr, (), "ai", (0, 0), 10, 10, 0, 0)
    assert D20Srd().attack_count(c) == attacks


def test_D_1_a_full_attack_each_further_attack_at_minus_5(build: Builder) -> None:
    veteran = creature("veteran", bab=11)  # +11/+6/+1
    enc = fight(build, veteran, faces=[10, 4, 10, 4, 10, 4])
    out = enc.apply(FullAttack("strike", ("t",)))
    assert [(a.kind, a.name) for a in events(out, ActionSpent)] == [("full_round", "strike")]
    attacks = events(out, Attack)
    assert [mods(a).get("iterative") for a in attacks] == [None, -5, -10]
    assert [a.total for a in attacks] == [10 + 15, 10 + 10, 10 + 5]
    assert [a.outcome for a in attacks] == ["hit", "hit", "hit"], "15 meets AC 15 (D-5)"
    assert not enc.can_spend("standard") and not enc.can_spend("move")
    assert enc.battle.action_modifiers == {}
    assert bonus_of(enc, "a", "strike")[0] == ("attack_bonus", 11), "later attacks: full bonus"


def test_D_1_a_full_attack_moves_on_when_its_target_falls(build: Builder) -> None:
    veteran = creature("veteran", bab=11)
    weak = post(id="weak", hp=1)
    enc = fight(
        build,
        veteran,
        faces=[15, 4, 15, 4, 15, 4],
        more=[{"id": "u", "creature": "post", "side": "monsters", "pos": [2, 3]}],
        target=weak,
        creatures=[POST],
    )
    out = enc.apply(FullAttack("strike", ("t", "t", "u")))
    assert [a.target for a in events(out, Attack)] == ["t", "u", "u"]


def test_D_1_a_full_attack_is_a_full_round_action(build: Builder) -> None:
    veteran = creature("veteran", bab=11)
    enc = fight(build, veteran, faces=[10, 4])
    assert enc.validate(FullAttack("strike", ("t", "t", "t", "t"))) is not None, "3 attacks"
    assert enc.validate(FullAttack("strike", ())) is not None
    enc.apply(Move(((2, 2), (2, 1))))
    assert enc.validate(FullAttack("strike", ("t",))) is not None, "the move is spent"
    srd4 = fight(build, veteran, ruleset="4srd")
    assert srd4.validate(FullAttack("strike", ("t",))) is not None, "d20srd only"


# --- D-2: AC from its components (the seed's list) ----------------------------------------------
AC_COMPONENTS = creature(
    "armored",
    size="small",
    abilities={"str": 10, "dex": 16},  # +3, capped at 2 by the armor
    armor={"name": "+1 breastplate", "bonus": 5, "enhancement": 1, "max_dex": 2},
    typed_bonuses=[
        {"stat": "ac", "type": "armor", "value": 4, "source": "mage armor (no stacking)"},
        {"stat": "ac", "type": "deflection", "value": 1},
        {"stat": "ac", "type": "deflection", "value": 2},
        {"stat": "ac", "type": "natural", "value": 3},
        {"stat": "ac", "type": "natural", "value": 1},
        {"stat": "ac", "type": "dodge", "value": 1},
        {"stat": "ac", "type": "dodge", "value": 1},
        {"stat": "ac", "value": 1},
    ],
)


def test_D_2_armor_class_from_its_components(build: Builder) -> None:
    # 10 + armor 6 (5 + 1 enhancement beats mage armor 4) + shield 2 + Dex 2 (3, capped) +
    # size 1 + deflection 2 (not 3) + natural 3 (not 4) + dodge 2 (they stack) + untyped 1
    enc = fight(build, AC_COMPONENTS)
    assert enc.battle.ruleset.defense(enc.battle["a"], "ac") == 29


def test_D_2_printed_defenses_stand(build: Builder) -> None:
    enc = fight(build, WARRIOR)
    assert enc.battle.ruleset.defense(enc.battle["t"], "ac") == 15


# --- D-3: touch attacks ---------------------------------------------------------------------------
def test_D_3_touch_ignores_armor_shield_and_natural_armor(build: Builder) -> None:
    enc = fight(build, WARRIOR, AC_COMPONENTS)
    b, t = enc.battle, enc.battle["t"]
    assert b.ruleset.defense(t, "ac", touch=True) == 29 - 6 - 2 - 3
    assert defense_value(b, t, "ac", b["a"], "melee", touch=True) == 29 - 11 - 4, "flat-footed"


def test_D_3_a_touch_attack_rolls_against_touch_ac(build: Builder) -> None:
    toucher = creature("toucher", powers=["touch", "strike"])
    enc = fight(build, toucher, creature("knight", abilities={"dex": 10}), faces=[1])
    knight_ac = enc.battle.ruleset.defense(enc.battle["t"], "ac")
    atk = events(enc.apply(UsePower("touch", ("t",))), Attack)[0]
    assert (knight_ac, atk.defense) == (17, 10)


# --- D-4: flat-footed, Uncanny Dodge ------------------------------------------------------------
@pytest.mark.parametrize(("feats", "ac"), [([], 29 - 2 - 2), (["uncanny_dodge"], 29 - 2)])
def test_D_4_flat_footed_loses_dex_and_dodge(build: Builder, feats: list[str], ac: int) -> None:
    target = dict(AC_COMPONENTS, feats=["weapon_focus", *feats])
    enc = fight(build, WARRIOR, target, faces=[1])
    b, t = enc.battle, enc.battle["t"]
    assert b.has(t, "flat_footed"), "it hasn't acted yet"
    atk = events(enc.apply(UsePower("strike", ("t",))), Attack)[0]
    assert atk.defense == ac


def test_D_4_not_flat_footed_once_it_has_acted(build: Builder) -> None:
    enc = build(
        GRID,
        [
            {"id": "t", "creature": "armored", "side": "monsters", "pos": [3, 2]},
            {"id": "a", "creature": "warrior", "side": "party", "pos": [2, 2]},
        ],
        creatures=[WARRIOR, AC_COMPONENTS],
        powers=POWERS,
        faces=[20, 1, 1],
        ruleset="d20srd",
    )
    enc.apply(Move(((3, 2), (4, 2))))
    enc.apply(Move(((4, 2), (3, 2))))
    enc.apply(EndTurn())
    atk = events(enc.apply(UsePower("strike", ("t",))), Attack)[0]
    assert atk.defense == 29


# --- D-5, D-6: meet or beat; natural 20 and 1 --------------------------------------------------
@pytest.mark.parametrize(
    ("natural", "ac", "outcome"),
    [
        pytest.param(15, 15, "hit", id="D-5-meeting-the-ac-hits"),
        pytest.param(14, 15, "miss", id="D-5-one-short-misses"),
        pytest.param(20, 40, "hit", id="D-6-natural-20-always-hits"),
        pytest.param(1, 1, "miss", id="D-6-natural-1-always-misses"),
    ],
)
def test_D_5_D_6_hits(build: Builder, natural: int, ac: int, outcome: str) -> None:
    enc = duel(build, [natural, 1, 3], target=dummy(ac=ac), ruleset="d20srd")
    atk = attack_on(enc, "poke-ac")
    assert atk.outcome == outcome
    if natural == 20:  # a threat: the confirmation (1) misses, so not a critical hit
        assert atk.confirm == {"natural": 1, "total": 1, "confirmed": False}


# --- D-7: Str to damage ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("pid", "text"),
    [
        pytest.param("strike", "1d8+3", id="one-handed-full-str"),
        pytest.param("off-cut", "1d6+1", id="off-hand-half-str"),
        pytest.param("axe", "1d12+4", id="two-handed-one-and-a-half-str"),
        pytest.param("throw", "1d6+3", id="thrown-str"),
        pytest.param("shot", "1d8", id="ranged-no-str"),
    ],
)
def test_D_7_strength_to_damage(build: Builder, pid: str, text: str) -> None:
    weapons = [
        LONGSWORD,
        BOW,
        {
            "id": "offhand",
            "name": "short sword",
            "dice": "1d6",
            "handed": "light",
            "off_hand": True,
        },
        {
            "id": "greataxe",
            "name": "greataxe",
            "dice": "1d12",
            "handed": "two",
            "crit_multiplier": 3,
        },
        {"id": "javelin", "name": "javelin", "dice": "1d6", "kind": "thrown", "range": 6},
    ]
    fighter = creature(
        "fighter", weapons=weapons, powers=["strike", "shot", "off-cut", "axe", "throw"]
    )
    enc = fight(build, fighter)
    assert dice_of(enc, "a", pid) == text


def test_D_7_a_str_penalty_counts_once(build: Builder) -> None:
    axe = {"id": "greataxe", "name": "greataxe", "dice": "1d12", "handed": "two"}
    weakling = creature("weakling", abilities={"str": 8}, weapons=[axe], powers=["axe"])
    assert dice_of(fight(build, weakling), "a", "axe") == "1d12-1"


def test_D_7_minimum_damage_1(build: Builder) -> None:
    feeble = creature("feeble", abilities={"str": 3}, weapons=[dict(LONGSWORD, crit_range=20)])
    enc = fight(build, feeble, faces=[19, 2])
    d = events(enc.apply(UsePower("strike", ("t",))), Damage)[0]
    assert (d.dice, d.rolled, d.amount) == ("1d8-4", -2, 1)
    assert [(m.source, m.value) for m in d.adjustments] == [("minimum", 3)]


# --- D-8: threat range and the confirmation roll ------------------------------------------------
@pytest.mark.parametrize(
    ("faces", "ac", "outcome", "confirm"),
    [
        pytest.param([19, 5], 15, "crit", (5, 15, True), id="threat-confirmed-meeting-the-ac"),
        pytest.param([19, 4], 15, "hit", (4, 14, False), id="threat-not-confirmed-a-plain-hit"),
        pytest.param([20, 20], 40, "crit", (20, 30, True), id="a-natural-20-confirms"),
        pytest.param([19, 1], 5, "hit", (1, 11, False), id="a-natural-1-never-confirms"),
        pytest.param([19], 40, "miss", None, id="a-threat-that-misses-is-no-threat"),
        pytest.param([18], 15, "hit", None, id="outside-the-threat-range"),
    ],
)
def test_D_8_critical_threat_and_confirmation(
    build: Builder, faces: list[int], ac: int, outcome: str, confirm: Any
) -> None:
    enc = fight(build, WARRIOR, post(ac), faces=[*faces, 4, 4])
    out = enc.apply(UsePower("strike", ("t",)))
    atk = events(out, Attack)[0]
    assert atk.outcome == outcome
    if confirm is None:
        assert atk.confirm is None
        assert "confirm" not in Logged(0, 1, atk).to_json()
    else:
        natural, total, confirmed = confirm
        assert atk.confirm == {"natural": natural, "total": total, "confirmed": confirmed}
        assert Logged(0, 1, atk).to_json()["confirm"] == atk.confirm


def test_D_8_other_rulesets_never_roll_a_confirmation(build: Builder) -> None:
    enc = fight(build, WARRIOR, post(15), faces=[19, 4], ruleset="ffd20")
    atk = events(enc.apply(UsePower("strike", ("t",))), Attack)[0]
    assert atk.outcome == "crit" and atk.confirm is None


def test_D_8_no_automatic_critical_for_a_coup_de_grace(build: Builder) -> None:
    enc = fight(build, WARRIOR, post(15), faces=[10, 4])
    from tests.support.helpers import put_effect

    put_effect(enc, "t", conditions=("helpless",), duration="end_of_encounter")
    atk = events(enc.apply(UsePower("strike", ("t",))), Attack)[0]
    assert atk.outcome == "hit" and atk.confirm is None


# --- D-9: critical multipliers add their rolls (the seed's example) -----------------------------
def test_D_9_a_x2_critical_rolls_the_damage_twice_modifiers_included(build: Builder) -> None:
    enc = fight(build, WARRIOR, post(15), faces=[19, 10, 3, 6])
    d = events(enc.apply(UsePower("strike", ("t",))), Damage)[0]
    assert (d.cause, d.dice, d.rolls, d.rolled) == ("crit", "2d8+6", (3, 6), 15)


def test_D_9_seed_example_x2_then_x3_on_a_d6_is_5d6(build: Builder) -> None:
    d6 = {"id": "club", "name": "club", "dice": "1d6"}
    brute = creature("brute", abilities={"str": 10}, weapons=[d6], powers=["triple"])
    enc = fight(build, brute, post(15), faces=[20, 15, 1, 2, 3, 4, 5])
    d = events(enc.apply(UsePower("triple", ("t",))), Damage)[0]
    assert (d.dice, d.rolls, d.rolled) == ("5d6", (1, 2, 3, 4, 5), 15), "2d6 + 3d6, not 6d6"


def test_D_9_the_x3_alone_outside_a_critical(build: Builder) -> None:
    d6 = {"id": "club", "name": "club", "dice": "1d6"}
    brute = creature("brute", weapons=[d6], powers=["triple"])
    assert dice_of(fight(build, brute), "a", "triple") == "3d6+9", "modifiers rolled again too"


def test_D_9_a_x3_weapon(build: Builder) -> None:
    axe = {
        "id": "greataxe",
        "name": "greataxe",
        "dice": "1d12",
        "handed": "two",
        "crit_multiplier": 3,
    }
    barbarian = creature("barbarian", weapons=[axe], powers=["axe"])
    enc = fight(build, barbarian, post(15), faces=[20, 15, 1, 2, 3])
    d = events(enc.apply(UsePower("axe", ("t",))), Damage)[0]
    assert (d.dice, d.rolled) == ("3d12+12", 18)


# --- D-10: extra dice are not multiplied (the seed's example) ------------------------------------
def rogue(**over: Any) -> dict[str, Any]:
    rapier = {"id": "rapier", "name": "rapier", "dice": "1d8", "finesse": True}
    base = creature(
        "rogue",
        abilities={"str": 10, "dex": 16},
        feats=["weapon_finesse"],
        weapons=[rapier],
        sneak_attack="1d6",
    )
    base.update(over)
    return base


def test_D_10_seed_example_x2_critical_with_sneak_attack_is_2d8_plus_1d6(build: Builder) -> None:
    enc = fight(build, rogue(), post(15), faces=[20, 15, 3, 5, 6])
    d = events(enc.apply(UsePower("strike", ("t",))), Damage)[0]
    assert (d.cause, d.dice, d.rolls, d.rolled) == ("crit", "2d8+1d6", (3, 5, 6), 14)


def test_D_10_sneak_attack_on_a_plain_hit_against_a_flat_footed_target(build: Builder) -> None:
    enc = fight(build, rogue(), post(15), faces=[12, 3, 6])
    d = events(enc.apply(UsePower("strike", ("t",))), Damage)[0]
    assert (d.dice, d.rolled) == ("1d8+1d6", 9)


def test_D_10_no_sneak_attack_against_uncanny_dodge(build: Builder) -> None:
    enc = fight(build, rogue(), post(15, feats=["uncanny_dodge"]), faces=[12, 3])
    d = events(enc.apply(UsePower("strike", ("t",))), Damage)[0]
    assert (d.dice, d.rolled) == ("1d8", 3)


def test_D_10_sneak_attack_when_flanking_but_not_otherwise(build: Builder) -> None:
    # the target walks up first (it has acted: not flat-footed); the rogue strikes alone, then
    # with the warrior on the far side
    enc = build(
        GRID,
        [
            {"id": "t", "creature": "post", "side": "monsters", "pos": [8, 2]},
            {"id": "a", "creature": "rogue", "side": "party", "pos": [2, 2]},
            {"id": "f", "creature": "warrior", "side": "party", "pos": [5, 4]},
        ],
        creatures=[rogue(), WARRIOR, POST],
        powers=POWERS,
        ruleset="d20srd",
        faces=[20, 10, 5, 12, 3, 12, 3, 6],
    )
    enc.apply(Move(tuple((x, 2) for x in range(8, 2, -1))))
    enc.apply(EndTurn())
    plain = events(enc.apply(UsePower("strike", ("t",))), Damage)[0]
    assert plain.dice == "1d8"
    enc.apply(EndTurn())
    enc.apply(Move(((5, 4), (5, 3), (4, 2))))
    enc.apply(EndTurn())
    enc.apply(EndTurn())  # t
    flanked = events(enc.apply(UsePower("strike", ("t",))), Damage)[0]
    assert (flanked.dice, flanked.rolled) == ("1d8+1d6", 9)


# --- D-11: damage reduction ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("pid", "face", "amount", "reduction"),
    [
        pytest.param("slam", 8, 3, -5, id="dr-5-takes-5"),
        pytest.param("slam", 3, 0, -3, id="down-to-0"),
        pytest.param("fire-slam", 3, 3, None, id="energy-damage-ignores-dr"),
    ],
)
def test_D_11_damage_reduction(
    build: Builder, pid: str, face: int, amount: int, reduction: int | None
) -> None:
    slammer = creature("slammer", abilities={"str": 10}, powers=["slam", "fire-slam"])
    gargoyle = post(15, id="gargoyle", damage_reduction=5)
    enc = fight(build, slammer, gargoyle, faces=[12, face])
    d = events(enc.apply(UsePower(pid, ("t",))), Damage)[0]
    assert d.amount == amount
    assert dict((m.source, m.value) for m in d.adjustments).get("damage_reduction") == reduction


def test_D_11_after_the_minimum_of_1(build: Builder) -> None:
    slammer = creature("slammer", powers=["feeble-slam"])
    enc = fight(build, slammer, post(15, id="gargoyle", damage_reduction=5), faces=[15, 1])
    d = events(enc.apply(UsePower("feeble-slam", ("t",))), Damage)[0]
    assert [(m.source, m.value) for m in d.adjustments] == [
        ("minimum", 4),
        ("damage_reduction", -1),
    ]
    assert d.amount == 0


# --- the AI's expectations come from the ruleset ------------------------------------------------
@pytest.mark.parametrize(
    ("ruleset", "hit", "crit"),
    [
        # d20srd: +10 vs AC 11, every natural but 1 hits; threats 19-20, confirmed 95% of the
        # time. ffd20 and 4srd: +6 (no `bab`), and 19-20 crit outright (F-ATK-6)
        ("d20srd", 0.95, 0.1 * 0.95),
        ("ffd20", 0.8, 0.1),
        ("4srd", 0.8, 0.1),
    ],
)
def test_the_previewed_odds_are_the_rulesets(
    build: Builder, ruleset: str, hit: float, crit: float
) -> None:
    enc = fight(build, WARRIOR, post(11), ruleset=ruleset)
    pv = enc.preview("strike", "t")
    assert pv is not None
    assert pv.hit == pytest.approx(hit) and pv.crit == pytest.approx(crit)


def test_the_previewed_damage_uses_the_d20srd_critical(build: Builder) -> None:
    enc = fight(build, WARRIOR, post(11))
    pv = enc.preview("strike", "t")
    assert pv is not None
    # hits: 1d8+3 (7.5); critical hits: 2d8+6 (15)
    assert pv.expected_damage == pytest.approx((0.95 - 0.095) * 7.5 + 0.095 * 15)


def test_the_previewed_damage_counts_sneak_attack_and_damage_reduction(build: Builder) -> None:
    enc = fight(build, rogue(), post(11, damage_reduction=2))
    pv = enc.preview("strike", "t")
    assert pv is not None
    hit, crit = 4.5 + 3.5 - 2, 9 + 3.5 - 2  # 1d8 + 1d6 sneak; 2d8 + 1d6; DR 2
    assert pv.expected_damage == pytest.approx((pv.hit - pv.crit) * hit + pv.crit * crit)


# --- shared with 4srd: withdraw, and the bundled encounter ---------------------------------------
def test_d20srd_has_the_withdraw_action(build: Builder) -> None:
    enc = fight(build, WARRIOR, post(15))
    out = enc.apply(Withdraw(((2, 2), (1, 2), (0, 2))))
    assert [(a.kind, a.name) for a in events(out, ActionSpent)] == [("full_round", "withdraw")]


def test_d20srd_bundled_encounter_plays_to_the_end() -> None:
    from ai.sim import play
    from engine.content.loader import load_encounter

    loaded = load_encounter("keep-d20")
    assert loaded.spec.ruleset == "d20srd"
    enc, _ = play(loaded, 2, {"party": "tactical", "monsters": "tactical"})
    assert enc.over and enc.battle.ruleset.name == "d20srd"
    b = enc.battle
    assert b.ruleset.defense(b["wren"], "ac") == 20
    assert b.ruleset.defense(b["aldous"], "ac") == 18


def test_full_round_actions_replay_and_round_trip_as_json(build: Builder) -> None:
    from engine.actions import action_from_json

    veteran = creature("veteran", bab=11)
    enc = fight(build, veteran, faces=[19, 12, 4, 4, 10, 4, 10, 4])
    enc.apply(FullAttack("strike", ("t",)))
    enc.apply(EndTurn())
    enc.apply(EndTurn())  # t
    enc.apply(Withdraw(((2, 2), (1, 2), (0, 2))))
    for rec in enc.records:
        if rec.action is not None:
            assert action_from_json(rec.action.to_json()) == rec.action
    again = Encounter.replay(enc.loaded, enc.records, seed=enc.seed)
    assert again.snapshot() == enc.snapshot()
    assert [lg.to_json() for lg in again.log] == [lg.to_json() for lg in enc.log]
