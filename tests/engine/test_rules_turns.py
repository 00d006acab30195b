"""Rounds, turns, initiative and surprise (F-TRN-1..6, S-13): the actions of a turn, the
initiative order and its ties, the surprise round, and the end of the encounter."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import EndTurn, Move, SpendActionPoint, UsePower
from engine.encounter import Encounter
from engine.events import (
    ActionSpent,
    Attack,
    Check,
    EncounterEnd,
    Initiative,
    InitiativeOrder,
    RoundStart,
    TurnEnd,
    TurnStart,
)
from tests.support.helpers import Builder, events, mon, pc, put_effect

GRID = "........\n........\n........\n"
STRIKE = {
    "id": "strike",
    "name": "Strike",
    "kind": "melee",
    "basic": True,
    "attack": {"bonus": 5, "vs": "ac"},
    "hit": {"damage": {"dice": "1d6"}},
}
FOCUS = {
    "id": "focus",
    "name": "Focus",
    "action": "minor",
    "kind": "personal",
    "target": "self",
    "effect": {
        "effects": [
            {
                "duration": "end_of_next_turn",
                "to": "self",
                "modifiers": [{"stat": "attack", "value": 1}],
            }
        ]
    },
}
SHOUT = {
    "id": "shout",
    "name": "Shout",
    "action": "free",
    "kind": "personal",
    "target": "self",
    "effect": {
        "effects": [
            {
                "duration": "start_of_next_turn",
                "to": "self",
                "modifiers": [{"stat": "will", "value": 1}],
            }
        ]
    },
}
POWERS = [STRIKE, FOCUS, SHOUT]


def unit(cid: str = "unit", **over: Any) -> dict[str, Any]:
    base = {
        "id": cid,
        "name": cid.title(),
        "role": "soldier",
        "level": 1,
        "hp": 30,
        "defenses": {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12},
        "initiative": 0,
        "powers": ["strike", "focus", "shout"],
        "skills": {"perception": 0, "stealth": 0},
    }
    base.update(over)
    return base


HERO = {
    "id": "hero",
    "name": "Hero",
    "kind": "pc",
    "level": 4,
    "hp": 30,
    "abilities": {"dex": 16},
    "powers": ["strike", "focus", "shout"],
    "healing_surges": 6,
}


def two(build: Builder, faces: list[int], **kw: Any) -> Encounter:
    """`a` (party) acts first, `b` (monsters) second, adjacent."""
    return build(
        GRID,
        [mon("a", (1, 1), "unit", side="party"), mon("b", (2, 1), "unit")],
        creatures=[unit()],
        powers=POWERS,
        faces=[20, 1, *faces],
        **kw,
    )


def kinds(out: list[Any]) -> list[tuple[str, str]]:
    return [(a.kind, a.name) for a in events(out, ActionSpent)]


def turns(enc: Encounter) -> list[tuple[int, str]]:
    return [(lg.round, lg.event.id) for lg in enc.log if isinstance(lg.event, TurnStart)]


# --- F-TRN-1 ----------------------------------------------------------------------------------
def do(enc: Encounter, kind: str) -> list[tuple[str, str]]:
    """Spend one action of `kind` (the mover shifts up and back, staying adjacent)."""
    if kind == "standard":
        out = enc.apply(UsePower("strike", ("b",)))
    elif kind == "minor":
        out = enc.apply(UsePower("focus", ()))
    else:
        a = enc.battle["a"]
        dest = (1, 0) if a.pos == (1, 1) else (1, 1)
        out = enc.apply(Move((a.pos, dest), "shift"))
    return kinds(out)


@pytest.mark.parametrize(
    ("plan", "refused"),
    [
        pytest.param(
            ["standard", "move", "minor"],
            ["standard", "move", "minor"],
            id="one-of-each-then-no-more",
        ),
        pytest.param(
            ["minor", "move", "standard"], ["standard", "move", "minor"], id="in-any-order"
        ),
        pytest.param(
            ["move", "move", "minor"],
            ["standard", "move", "minor"],
            id="a-standard-spent-as-a-move",
        ),
        pytest.param(
            ["minor", "minor", "minor"],
            ["standard", "move", "minor"],
            id="standard-and-move-spent-as-minors",
        ),
        pytest.param(["standard"], ["standard"], id="one-standard-only"),
        pytest.param(["move", "move"], ["standard", "move"], id="two-moves-at-most"),
    ],
)
def test_F_TRN_1_a_standard_a_move_and_a_minor_action(
    build: Builder, plan: list[str], refused: list[str]
) -> None:
    enc = two(build, [2, 2, 2])
    for kind in plan:
        assert enc.can_spend(kind)
        assert do(enc, kind)[0][1] in ("strike", "focus", "shift")
    for kind in refused:
        assert not enc.can_spend(kind)
    assert enc.validate(UsePower("strike", ("b",))) is not None or "standard" not in refused
    spent = [k for k, _ in kinds(enc.log)]
    assert spent == plan, "each action logged once, as the kind of action it used"


def test_F_TRN_1_free_actions_any_number(build: Builder) -> None:
    enc = two(build, [2])
    for _ in range(3):
        out = enc.apply(UsePower("shout", ()))
        assert kinds(out) == [("free", "shout")]
    assert enc.can_spend("standard") and enc.can_spend("move") and enc.can_spend("minor")


# --- F-TRN-2, F-TRN-3, S-13 -------------------------------------------------------------------
def test_F_TRN_2_initiative_is_d20_plus_half_level_plus_dex(build: Builder) -> None:
    enc = build(
        GRID,
        [pc("h", (1, 1), "hero"), mon("m", (5, 1), "unit"), mon("n", (6, 1), "goblin-ish")],
        creatures=[
            HERO,
            unit(initiative=3),
            unit("goblin-ish", initiative=None, level=5, abilities={"dex": 14}),
        ],
        powers=POWERS,
        faces=[10, 10, 10],
        strict=True,
    )
    got = {e.id: (e.natural, e.modifier, e.total) for e in events(enc, Initiative)}
    assert got == {"h": (10, 2 + 3, 15), "m": (10, 3, 13), "n": (10, 2 + 2, 14)}
    assert events(enc, InitiativeOrder)[0].order == ("h", "n", "m")


def test_F_TRN_2_F_TRN_3_highest_first_and_the_same_order_every_round(build: Builder) -> None:
    enc = build(
        GRID,
        [
            mon("a", (0, 0), "unit", side="party"),
            mon("b", (7, 0), "unit"),
            mon("c", (0, 2), "unit", side="party"),
            mon("d", (7, 2), "unit"),
        ],
        creatures=[unit()],
        powers=POWERS,
        faces=[5, 17, 11, 2],
    )
    order = events(enc, InitiativeOrder)[0].order
    assert order == ("b", "c", "a", "d")
    for _ in range(8):
        enc.apply(EndTurn())
    assert turns(enc) == [(r, cid) for r in (1, 2, 3) for cid in order][:9]
    rounds = [lg.round for lg in enc.log if isinstance(lg.event, RoundStart)]
    assert rounds == [1, 2, 3]
    # a round starts right after the last creature's turn ends
    log = [lg.event for lg in enc.log]
    for i, e in enumerate(log):
        if isinstance(e, RoundStart) and not isinstance(log[i - 1], InitiativeOrder):
            before, after = log[i - 1], log[i + 1]
            assert isinstance(before, TurnEnd) and before.id == "d"
            assert isinstance(after, TurnStart) and after.id == "b"


@pytest.mark.parametrize(
    ("mods", "faces", "order", "rolloffs"),
    [
        pytest.param([3, 1], [10, 12], ("a", "b"), 0, id="S-13-higher-modifier-wins-a-tie"),
        pytest.param([2, 2], [10, 10, 4, 15], ("b", "a"), 2, id="S-13-roll-off"),
        pytest.param(
            [2, 2], [10, 10, 7, 7, 3, 9], ("b", "a"), 4, id="S-13-roll-off-again-on-a-tie"
        ),
    ],
)
def test_S_13_initiative_ties(
    build: Builder, mods: list[int], faces: list[int], order: tuple[str, ...], rolloffs: int
) -> None:
    enc = build(
        GRID,
        [mon("a", (0, 0), "ua", side="party"), mon("b", (7, 0), "ub")],
        creatures=[unit("ua", initiative=mods[0]), unit("ub", initiative=mods[1])],
        powers=POWERS,
        faces=faces,
        strict=True,
    )
    assert events(enc, InitiativeOrder)[0].order == order
    assert len([e for e in events(enc, Initiative) if e.rolloff]) == rolloffs


def test_S_13_two_tied_pairs_each_rolled_off(build: Builder) -> None:
    enc = build(
        GRID,
        [
            mon("a", (0, 0), "unit", side="party"),
            mon("b", (7, 0), "unit"),
            mon("c", (0, 2), "unit", side="party"),
            mon("d", (7, 2), "unit"),
        ],
        creatures=[unit()],
        powers=POWERS,
        # a, b, c, d all 10; roll-off 5, 5, 2, 2: {a, b} and {c, d} both still tied
        faces=[10, 10, 10, 10, 5, 5, 2, 2, 1, 9, 3, 8],
        strict=True,
    )
    order = events(enc, InitiativeOrder)[0].order
    assert order == ("b", "a", "d", "c")
    assert [(e.id, e.natural) for e in events(enc, Initiative) if e.rolloff][4:] == [
        ("a", 1),
        ("b", 9),
        ("c", 3),
        ("d", 8),
    ]


# --- F-TRN-4, F-TRN-5: surprise ----------------------------------------------------------------
def surprise(build: Builder, faces: list[int], **kw: Any) -> Encounter:
    """`a` (party) ambushes `b` (monsters, surprised); `a` acts first."""
    return build(
        GRID,
        [pc("a", (1, 1), "hero"), mon("b", (2, 1), "unit")],
        creatures=[HERO, unit()],
        powers=POWERS,
        faces=[20, 1, *faces],
        surprise={"mode": "stated", "surprised": ["monsters"]},
        **kw,
    )


def test_F_TRN_4_a_surprise_round_for_the_aware_with_a_single_action(build: Builder) -> None:
    enc = surprise(build, [2, 2, 2])
    assert enc.battle.round == 0 and enc.current is not None and enc.current.id == "a"
    enc.apply(UsePower("shout", ()))  # free actions are allowed
    enc.apply(UsePower("strike", ("b",)))
    for kind in ("standard", "move", "minor"):
        assert not enc.can_spend(kind)
    assert enc.validate(UsePower("focus", ())) is not None


@pytest.mark.parametrize("first", ["move", "minor"])
def test_F_TRN_4_the_single_action_may_be_a_move_or_a_minor(build: Builder, first: str) -> None:
    enc = surprise(build, [])
    if first == "move":
        enc.apply(Move(((1, 1), (1, 0)), "shift"))
    else:
        enc.apply(UsePower("focus", ()))
    assert not enc.can_spend("standard") and not enc.can_spend("minor")


def test_F_TRN_4_no_action_points_in_the_surprise_round(build: Builder) -> None:
    enc = surprise(build, [])
    reason = enc.validate(SpendActionPoint())
    assert reason is not None and "surprise" in reason


def test_F_TRN_5_the_surprised_take_no_actions_and_grant_combat_advantage(
    build: Builder,
) -> None:
    enc = surprise(build, [10, 3])
    atk = events(enc.apply(UsePower("strike", ("b",))), Attack)[0]
    assert atk.combat_advantage
    # the ambusher walks away: the surprised creature can't take its opportunity attack
    out = enc.apply(EndTurn())
    assert turns(enc) == [(0, "a"), (1, "a")], "the surprised one got no surprise-round turn"
    assert "surprised" not in enc.battle.conditions(enc.battle["b"]), "no longer surprised"
    assert [lg for lg in out if isinstance(lg.event, RoundStart)]


def test_F_TRN_5_the_surprised_take_no_opportunity_attacks(build: Builder) -> None:
    enc = surprise(build, [])
    out = enc.apply(Move(((1, 1), (0, 1)), "walk"))
    assert [e.type for e in events(out)] == ["action", "move"], "no provoke at all"


def test_F_TRN_4_F_TRN_5_surprise_by_stealth_against_perception(build: Builder) -> None:
    # the monsters hide (Stealth 4 + 10 = 14); `a` sees them (Perception 15), `c` doesn't (13)
    enc = build(
        GRID,
        [
            mon("a", (0, 0), "unit", side="party"),
            mon("c", (0, 2), "unit", side="party"),
            mon("b", (7, 1), "sneak"),
        ],
        creatures=[unit(), unit("sneak", skills={"stealth": 4})],
        powers=POWERS,
        faces=[10, 15, 13, 20, 10, 1],
        strict=True,
        surprise={"mode": "stealth", "hidden": ["monsters"]},
    )
    checks = {e.id: (e.skill, e.total, e.success) for e in events(enc, Check)}
    assert checks == {
        "b": ("stealth", 14, None),
        "a": ("perception", 15, True),
        "c": ("perception", 13, False),
    }
    assert enc.battle.round == 0 and enc.battle["c"].surprised
    assert not enc.battle["a"].surprised


def test_F_TRN_4_no_surprise_round_when_everyone_is_surprised(build: Builder) -> None:
    enc = build(
        GRID,
        [mon("a", (0, 0), "unit", side="party"), mon("b", (7, 0), "unit")],
        creatures=[unit()],
        powers=POWERS,
        faces=[20, 1],
        surprise={"mode": "stated", "surprised": ["party", "monsters"]},
    )
    assert enc.battle.round == 1 and not enc.battle.surprise_round
    assert not any(c.surprised for c in enc.battle.combatants.values())


# --- F-TRN-6 ----------------------------------------------------------------------------------
def test_F_TRN_6_the_encounter_ends_when_one_side_is_down(build: Builder) -> None:
    enc = build(
        GRID,
        [pc("a", (1, 1), "hero"), mon("b", (2, 1), "unit"), mon("c", (6, 1), "unit")],
        creatures=[HERO, unit()],
        powers=POWERS,
        faces=[20, 1, 2, 15, 6],
    )
    enc.battle["b"].hp = 1
    put_effect(enc, "c", source="a", conditions=("stunned",))
    enc.battle["c"].hp = 0
    enc.battle["c"].state = "dead"
    out = enc.apply(UsePower("strike", ("b",)))
    end = events(out, EncounterEnd)
    assert end and (end[0].winner, end[0].reason, end[0].rounds) == ("party", "defeat", 1)
    assert enc.over and enc.current is None
    assert enc.validate(EndTurn()) is not None


def test_F_TRN_6_a_side_of_dying_and_unconscious_characters_is_defeated(build: Builder) -> None:
    enc = build(
        GRID,
        [pc("a", (1, 1), "hero"), pc("z", (1, 2), "hero"), mon("b", (2, 1), "unit")],
        creatures=[HERO, unit(powers=["smack"])],
        powers=[
            *POWERS,
            {
                "id": "smack",
                "name": "Smack",
                "kind": "melee",
                "attack": {"bonus": 30, "vs": "ac"},
                "hit": {"damage": {"dice": "31"}},
            },
        ],
        faces=[1, 2, 20, 10],
    )
    enc.battle["z"].hp = 0
    from engine.hp import update_state

    update_state(enc.battle, enc.battle["z"])  # unconscious at 0
    out = enc.apply(UsePower("smack", ("a",)))  # -1: dying
    end = events(out, EncounterEnd)
    assert end and end[0].winner == "monsters"


def test_F_TRN_6_round_limit_ends_in_a_draw(build: Builder) -> None:
    enc = two(build, [], round_limit=2)
    for _ in range(4):
        enc.apply(EndTurn())
    end = events(enc, EncounterEnd)
    assert [(e.winner, e.reason, e.rounds) for e in end] == [(None, "round_limit", 2)]
