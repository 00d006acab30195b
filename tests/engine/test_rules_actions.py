"""The action economy beyond one turn's three actions: delaying and readying (X-ACT-1), action
points (X-ACT-2), and how often a power can be used (X-PWR-1)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import (
    Delay,
    EndTurn,
    Move,
    Ready,
    SpendActionPoint,
    UsePower,
    action_from_json,
)
from engine.decisions import DelayReturnQuestion
from engine.encounter import Encounter
from engine.events import (
    ActionSpent,
    Attack,
    InitiativeOrder,
    PowerRecharge,
    TurnEnd,
    TurnStart,
)
from tests.support.actions import POWERS, UNIT
from tests.support.helpers import FIGHTER, Answers, Builder, events, mon, pc

GRID = "..........\n..........\n..........\n"


HERO = dict(FIGHTER, id="hero", hp=60, powers=[p["id"] for p in POWERS])


def three(build: Builder, faces: list[int], **kw: Any) -> Encounter:
    """Order a (party), b (monsters), c (party): a and b adjacent, c three squares off."""
    return build(
        GRID,
        [
            mon("a", (1, 1), "unit", side="party"),
            mon("b", (2, 1), "unit"),
            mon("c", (5, 1), "unit", side="party"),
        ],
        creatures=[UNIT, HERO],
        powers=POWERS,
        faces=[20, 15, 10, *faces],
        **kw,
    )


def order(enc: Encounter) -> tuple[str, ...]:
    return tuple(events(enc, InitiativeOrder)[-1].order)


def turn_ids(enc: Encounter) -> list[str]:
    return [e.id for e in events(enc, TurnStart)]


# --- X-ACT-1: delay ---------------------------------------------------------------------------
def test_X_ACT_1_delay_and_return_after_a_later_creature(build: Builder) -> None:
    ans = Answers(delay_return=False)
    enc = three(build, [], deciders=lambda _cid: ans)
    out = enc.apply(Delay())
    assert [(a.kind, a.name) for a in events(out, ActionSpent)] == [("free", "delay")]
    ends = events(out, TurnEnd)
    assert (ends[0].id, ends[0].delayed) == ("a", True)
    assert enc.current is not None and enc.current.id == "b"
    enc.apply(EndTurn())  # b ends: `a` is asked, and declines
    asked = [q for q in ans.asked if isinstance(q, DelayReturnQuestion)]
    assert [(q.who, q.after) for q in asked] == [("a", "b")]
    ans.delay_return = True
    enc.apply(EndTurn())  # c ends: `a` takes its turn now
    assert enc.current is not None and enc.current.id == "a"
    assert order(enc) == ("b", "c", "a"), "its place in the order moves to where it acted"
    enc.apply(EndTurn())
    enc.apply(EndTurn())  # round 2: b first
    assert turn_ids(enc) == ["a", "b", "c", "a", "b", "c"]


def test_X_ACT_1_delay_only_before_acting(build: Builder) -> None:
    enc = three(build, [2])
    enc.apply(UsePower("jab", ("b",)))
    reason = enc.validate(Delay())
    assert reason is not None and "before" in reason


def test_X_ACT_1_a_delayed_turn_not_taken_by_the_end_of_the_round_is_lost(
    build: Builder,
) -> None:
    ans = Answers(delay_return=False)
    enc = three(build, [], deciders=lambda _cid: ans)
    enc.apply(Delay())
    enc.apply(EndTurn())
    enc.apply(EndTurn())  # round 2 starts: the delayed turn is gone
    assert not enc.battle["a"].delayed
    assert enc.current is not None and enc.current.id == "a", "its place is unchanged"
    assert order(enc) == ("a", "b", "c")


def test_X_ACT_1_a_delayed_turn_counts_for_opportunity_attacks(build: Builder) -> None:
    # b takes an opportunity attack on c's turn; then on a's delayed turn it may take another
    enc = build(
        GRID,
        [
            mon("a", (1, 1), "unit", side="party"),
            mon("b", (2, 1), "unit"),
            mon("c", (3, 1), "unit", side="party"),
        ],
        creatures=[UNIT],
        powers=POWERS,
        faces=[20, 15, 10, 1, 1],
        deciders=lambda _cid: ans,
    )
    ans: Answers = Answers(delay_return=False)
    enc.apply(Delay())
    enc.apply(EndTurn())  # b
    out = enc.apply(Move(((3, 1), (4, 1)), "walk"))  # c leaves b's reach: an opportunity
    assert [a.attacker for a in events(out, Attack) if a.opportunity] == ["b"]
    ans.delay_return = True
    enc.apply(EndTurn())  # c ends; a comes back
    assert enc.current is not None and enc.current.id == "a"
    out = enc.apply(Move(((1, 1), (0, 1)), "walk"))
    assert [a.attacker for a in events(out, Attack) if a.opportunity] == ["b"]


# --- X-ACT-1: ready ---------------------------------------------------------------------------
def test_X_ACT_1_ready_fires_as_an_immediate_reaction_and_moves_initiative(
    build: Builder,
) -> None:
    enc = build(
        GRID,
        [
            mon("a", (1, 1), "unit", side="party"),
            mon("b", (6, 1), "unit"),
            mon("c", (8, 2), "unit", side="party"),
        ],
        creatures=[UNIT],
        powers=POWERS,
        faces=[20, 15, 10, 18, 4],
    )
    out = enc.apply(Ready("jab"))
    assert [(a.kind, a.name) for a in events(out, ActionSpent)] == [("standard", "ready")]
    assert enc.current is not None and enc.current.id == "a", "the turn goes on"
    assert enc.can_spend("move") and not enc.can_spend("standard")
    enc.apply(EndTurn())
    out = enc.apply(Move(((6, 1), (5, 1), (4, 1), (3, 1), (2, 1)), "walk"))
    spent = events(out, ActionSpent)
    assert [(a.id, a.kind, a.name) for a in spent][-1] == ("a", "immediate", "jab")
    atk = events(out, Attack)[0]
    assert (atk.attacker, atk.target, atk.natural) == ("a", "b", 18)
    moves = [m.path[-1] for m in events(out) if m.type == "move"]
    assert moves[0] == (2, 1), "it fired when b entered a square within reach"
    assert order(enc) == ("a", "b", "c")
    assert enc.battle["a"].readied is None


def test_X_ACT_1_ready_moves_the_readier_just_before_the_trigger(build: Builder) -> None:
    enc = build(
        GRID,
        [
            mon("a", (1, 1), "unit", side="party"),
            mon("c", (8, 2), "unit", side="party"),
            mon("b", (6, 1), "unit"),
        ],
        creatures=[UNIT],
        powers=POWERS,
        faces=[20, 15, 10, 18, 4],
    )
    enc.apply(Ready("jab"))
    enc.apply(EndTurn())
    enc.apply(EndTurn())  # c
    enc.apply(Move(((6, 1), (5, 1), (4, 1), (3, 1), (2, 1)), "walk"))
    assert order(enc) == ("c", "a", "b")


def test_X_ACT_1_a_readied_action_lapses_at_the_readiers_next_turn(build: Builder) -> None:
    enc = three(build, [])
    enc.apply(Ready("jab"))
    for _ in range(3):
        enc.apply(EndTurn())
    assert enc.battle["a"].readied is None


# --- X-ACT-2 ----------------------------------------------------------------------------------
def hero_fight(build: Builder, faces: list[int], **kw: Any) -> Encounter:
    return build(
        GRID,
        [pc("h", (1, 1), "hero"), mon("b", (2, 1), "unit")],
        creatures=[HERO, UNIT],
        powers=POWERS,
        faces=[20, 1, *faces],
        **kw,
    )


def test_X_ACT_2_an_action_point_buys_an_extra_action(build: Builder) -> None:
    enc = hero_fight(build, [2, 2])
    assert enc.battle["h"].action_points == 1 and enc.battle["b"].action_points == 0
    enc.apply(UsePower("jab", ("b",)))
    assert not enc.can_spend("standard")
    out = enc.apply(SpendActionPoint())
    assert [(a.kind, a.name) for a in events(out, ActionSpent)] == [("free", "action_point")]
    enc.apply(UsePower("jab", ("b",)))
    assert len(events(enc, Attack)) == 2
    assert enc.can_spend("move") and enc.can_spend("minor")
    assert enc.battle["h"].action_points == 0


def test_X_ACT_2_once_per_encounter(build: Builder) -> None:
    enc = hero_fight(build, [])
    enc.apply(SpendActionPoint())
    assert enc.validate(SpendActionPoint()) is not None
    enc.apply(EndTurn())
    enc.apply(EndTurn())
    enc.battle["h"].action_points = 2  # even with another point left
    reason = enc.validate(SpendActionPoint())
    assert reason is not None and "action point" in reason


def test_X_ACT_2_monsters_have_none_by_default(build: Builder) -> None:
    enc = three(build, [])
    assert enc.validate(SpendActionPoint()) is not None


# --- X-PWR-1 ----------------------------------------------------------------------------------
def next_turn_of(enc: Encounter, cid: str) -> None:
    enc.apply(EndTurn())
    while enc.current is not None and enc.current.id != cid:
        enc.apply(EndTurn())


@pytest.mark.parametrize(
    ("pid", "again"),
    [
        pytest.param("jab", True, id="at-will-again"),
        pytest.param("burst", False, id="encounter-once"),
        pytest.param("finale", False, id="daily-once-per-fight"),
    ],
)
def test_X_PWR_1_usage(build: Builder, pid: str, again: bool) -> None:
    enc = three(build, [2, 2, 2, 2, 2, 2])
    enc.apply(UsePower(pid, ("b",)))
    for _ in range(2):
        next_turn_of(enc, "a")
        reason = enc.validate(UsePower(pid, ("b",)))
        assert (reason is None) is again
        if not again:
            assert reason is not None and "spent" in reason
    usable = dict((p.id, r) for p, r in enc.usable_powers())
    assert (usable[pid] is None) is again


@pytest.mark.parametrize(
    ("face", "back"),
    [pytest.param(5, True, id="5-recharges"), pytest.param(4, False, id="4-does-not")],
)
def test_X_PWR_1_recharge_on_a_d6_at_the_start_of_the_turn(
    build: Builder, face: int, back: bool
) -> None:
    enc = three(build, [2, face])
    enc.apply(UsePower("breath", ("b",)))
    assert enc.validate(UsePower("breath", ("b",))) is not None
    out: list[Any] = []
    for _ in range(3):
        out += enc.apply(EndTurn())
    rec = events(out, PowerRecharge)
    assert [(r.id, r.power, r.natural, r.needed, r.recharged) for r in rec] == [
        ("a", "breath", face, 5, back)
    ]
    assert (enc.validate(UsePower("breath", ("b",))) is None) is back


def test_X_PWR_1_immediate_powers_are_not_used_on_ones_own_turn(build: Builder) -> None:
    enc = three(build, [])
    reason = enc.validate(UsePower("parry", ("b",)))
    assert reason is not None and "immediate" in reason


def test_actions_round_trip_through_json() -> None:
    from engine.actions import Bluff, SecondWind, StandUp, Sustain

    for act in (
        Move(((1, 1), (2, 2)), "run"),
        UsePower("zap", ("b",), (3, 3), ((4, 4),)),
        SecondWind(),
        StandUp(),
        Sustain("e3"),
        SpendActionPoint(),
        Delay(),
        Ready("jab"),
        Bluff("b"),
        EndTurn(),
    ):
        assert action_from_json(act.to_json()) == act
