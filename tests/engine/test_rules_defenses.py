"""Defense scores (F-DEF-1..6): computed for player characters from level, abilities, armor
and shield; given for monsters; changed for a while by powers and conditions."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import EndTurn, SecondWind, UsePower
from engine.events import Attack
from tests.support.helpers import BASIC_MELEE, BOLT, CLAW, GOBLIN, Builder, events, mon, pc

GRID = "......\n......\n......\n"


def hero(**over: Any) -> dict[str, Any]:
    """A PC with every ability 10 (modifier 0), no armor, no shield, unless overridden."""
    base: dict[str, Any] = {
        "id": "hero",
        "name": "Hero",
        "kind": "pc",
        "level": 1,
        "hp": 30,
        "abilities": {"str": 10, "con": 10, "dex": 10, "int": 10, "wis": 10, "cha": 10},
        "weapons": [{"id": "club", "name": "Club", "dice": "1d6", "proficiency": 2}],
        "powers": ["basic-melee"],
        "healing_surges": 6,
    }
    base.update(over)
    return base


def defenses_of(build: Builder, creature: dict[str, Any]) -> dict[str, int]:
    enc = build(
        GRID,
        [pc("h", (0, 0), "hero"), mon("g", (5, 2))],
        creatures=[creature, GOBLIN],
        faces=[20, 1],
    )
    c = enc.battle["h"]
    return {d: enc.battle.ruleset.defense(c, d) for d in ("ac", "fortitude", "reflex", "will")}


def abil(**scores: int) -> dict[str, int]:
    out = {"str": 10, "con": 10, "dex": 10, "int": 10, "wis": 10, "cha": 10}
    out.update(scores)
    return out


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        pytest.param(1, 10, id="F-DEF-1-level-1"),
        pytest.param(4, 12, id="F-DEF-1-level-4"),
        pytest.param(5, 12, id="F-DEF-1-level-5-rounds-down"),
        pytest.param(11, 15, id="F-DEF-1-level-11"),
    ],
)
def test_F_DEF_1_every_defense_starts_at_10_plus_half_level(
    build: Builder, level: int, expected: int
) -> None:
    got = defenses_of(build, hero(level=level))
    assert got == dict.fromkeys(("ac", "fortitude", "reflex", "will"), expected)


@pytest.mark.parametrize(
    ("over", "ac"),
    [
        pytest.param(
            {
                "armor": {"name": "leather", "weight": "light", "bonus": 2},
                "abilities": abil(dex=16, int=12),
            },
            10 + 2 + 3,
            id="F-DEF-2-light-armor-adds-dex",
        ),
        pytest.param(
            {"abilities": abil(dex=10, int=18)}, 10 + 4, id="F-DEF-2-no-armor-adds-int-when-higher"
        ),
        pytest.param(
            {
                "armor": {"name": "plate", "weight": "heavy", "bonus": 8},
                "abilities": abil(dex=16, int=16),
            },
            10 + 8,
            id="F-DEF-2-heavy-armor-adds-no-ability",
        ),
        pytest.param(
            {
                "armor": {"name": "chain", "weight": "heavy", "bonus": 6},
                "shield": {"name": "heavy", "bonus": 2},
            },
            10 + 6 + 2,
            id="F-DEF-2-shield-bonus-adds",
        ),
        pytest.param(
            {
                "armor": {"name": "leather", "weight": "light", "bonus": 2},
                "abilities": abil(dex=6, int=6),
            },
            10 + 2 - 2,
            id="F-DEF-2-negative-dex-in-light-armor",
        ),
    ],
)
def test_F_DEF_2_armor_class(build: Builder, over: dict[str, Any], ac: int) -> None:
    assert defenses_of(build, hero(**over))["ac"] == ac


@pytest.mark.parametrize(
    ("scores", "fort"),
    [
        pytest.param(abil(str=18, con=12), 14, id="F-DEF-3-str-higher"),
        pytest.param(abil(str=12, con=16), 13, id="F-DEF-3-con-higher"),
        pytest.param(abil(str=8, con=8), 9, id="F-DEF-3-both-negative"),
    ],
)
def test_F_DEF_3_fortitude_adds_higher_of_str_or_con(
    build: Builder, scores: dict[str, int], fort: int
) -> None:
    assert defenses_of(build, hero(abilities=scores))["fortitude"] == fort


@pytest.mark.parametrize(
    ("over", "ref"),
    [
        pytest.param({"abilities": abil(dex=16, int=12)}, 13, id="F-DEF-4-dex-higher"),
        pytest.param({"abilities": abil(dex=12, int=18)}, 14, id="F-DEF-4-int-higher"),
        pytest.param(
            {"abilities": abil(dex=14), "shield": {"name": "light", "bonus": 1}},
            13,
            id="F-DEF-4-shield-adds",
        ),
        pytest.param(
            {"abilities": abil(dex=14), "armor": {"name": "plate", "weight": "heavy", "bonus": 8}},
            12,
            id="F-DEF-4-heavy-armor-keeps-dex",
        ),
    ],
)
def test_F_DEF_4_reflex_adds_higher_of_dex_or_int_and_shield(
    build: Builder, over: dict[str, Any], ref: int
) -> None:
    assert defenses_of(build, hero(**over))["reflex"] == ref


@pytest.mark.parametrize(
    ("scores", "will"),
    [
        pytest.param(abil(wis=16, cha=12), 13, id="F-DEF-5-wis-higher"),
        pytest.param(abil(wis=12, cha=20), 15, id="F-DEF-5-cha-higher"),
    ],
)
def test_F_DEF_5_will_adds_higher_of_wis_or_cha(
    build: Builder, scores: dict[str, int], will: int
) -> None:
    assert defenses_of(build, hero(abilities=scores))["will"] == will


def test_F_DEF_6_feat_item_and_enhancement_bonuses_add(build: Builder) -> None:
    got = defenses_of(
        build,
        hero(
            armor={"name": "magic leather", "weight": "light", "bonus": 2, "enhancement": 1},
            defense_bonuses={"ac": 1, "fortitude": 2, "reflex": 1, "will": 3},
        ),
    )
    assert got == {"ac": 10 + 2 + 1 + 1, "fortitude": 12, "reflex": 11, "will": 13}


def test_F_DEF_6_monster_defenses_are_given_and_bonuses_still_add(build: Builder) -> None:
    gob = dict(GOBLIN, defense_bonuses={"will": 2})
    enc = build(
        GRID,
        [pc("f", (0, 0)), mon("g", (5, 2))],
        creatures=[hero(id="fighter"), gob],
        faces=[20, 1],
    )
    rs, g = enc.battle.ruleset, enc.battle["g"]
    assert [rs.defense(g, d) for d in ("ac", "fortitude", "reflex", "will")] == [15, 13, 14, 14]


# A power that lowers a defense for a while, to see F-DEF-6's temporary changes in the rolls.
EXPOSE = {
    "id": "expose",
    "name": "Expose",
    "kind": "melee",
    "attack": {"bonus": 0, "vs": "ac"},
    "hit": {
        "effects": [
            {
                "name": "exposed",
                "duration": "end_of_next_turn",
                "modifiers": [{"stat": "ac", "value": -3}, {"stat": "reflex", "value": -1}],
            }
        ]
    },
}


def test_F_DEF_6_a_power_changes_a_defense_until_it_ends(build: Builder) -> None:
    fighter = hero(id="fighter", powers=["basic-melee", "expose"])
    enc = build(
        GRID,
        [pc("f", (0, 0)), mon("g", (1, 0))],
        creatures=[fighter, GOBLIN],
        powers=[BASIC_MELEE, CLAW, BOLT, EXPOSE],
        # initiative, then the fighter's three attack rolls
        faces=[20, 1, 20, 2, 2],
    )
    enc.apply(UsePower("expose", ("g",)))
    enc.apply(EndTurn())
    assert enc.current is not None and enc.current.id == "g"
    enc.apply(EndTurn())
    # Fighter's turn 2: the effect ends at the end of this turn (F-DUR-3); attack now.
    out = enc.apply(UsePower("basic-melee", ("g",)))
    atk = events(out, Attack)[0]
    assert atk.defense == 15 - 3
    enc.apply(EndTurn())
    enc.apply(EndTurn())  # the goblin's turn
    atk = events(enc.apply(UsePower("basic-melee", ("g",))), Attack)[0]
    assert atk.defense == 15, "the penalty ended with the end of the creator's next turn"


def test_F_DEF_6_second_wind_gives_plus_2_to_all_defenses(build: Builder) -> None:
    enc = build(
        GRID,
        [pc("f", (0, 0)), mon("g", (1, 0))],
        creatures=[hero(id="fighter"), GOBLIN],
        faces=[20, 1, 10],
    )
    b = enc.battle
    f = b["f"]
    f.hp = 10
    enc.apply(SecondWind())
    enc.apply(EndTurn())
    # The goblin's claw (+6) against the fighter's AC 10 + 2 = 12.
    atk = events(enc.apply(UsePower("claw", ("f",))), Attack)[0]
    assert atk.defense == 12
    assert b.modifier(f, "fortitude") == b.modifier(f, "reflex") == b.modifier(f, "will") == 2


@pytest.mark.parametrize(
    ("condition", "power", "attacker_pos", "delta"),
    [
        pytest.param("unconscious", "claw", (1, 0), -5, id="unconscious-minus-5"),
        pytest.param("prone", "bolt", (4, 0), 2, id="prone-plus-2-vs-ranged-from-afar"),
        pytest.param("prone", "bolt", (1, 0), 0, id="prone-no-bonus-vs-adjacent-ranged"),
        pytest.param("prone", "claw", (1, 0), 0, id="prone-no-bonus-vs-melee"),
    ],
)
def test_F_DEF_6_conditions_change_defenses(
    build: Builder, condition: str, power: str, attacker_pos: tuple[int, int], delta: int
) -> None:
    enc = build(
        GRID,
        [pc("f", (0, 0)), mon("g", attacker_pos)],
        creatures=[hero(id="fighter"), GOBLIN],
        faces=[1, 20, 10],
    )
    from engine.content.schema import EffectSpec
    from engine.effects import add_effect

    b = enc.battle
    add_effect(b, EffectSpec(duration="save_ends", conditions=[condition]), b["f"], b["g"], "x")
    vs = "ac" if power == "claw" else "reflex"
    base = b.ruleset.defense(b["f"], vs)
    # (a ranged power used next to the fighter provokes it first: look at the goblin's roll)
    atk = next(a for a in events(enc.apply(UsePower(power, ("f",))), Attack) if a.attacker == "g")
    assert atk.defense == base + delta
