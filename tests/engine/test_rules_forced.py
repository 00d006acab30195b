"""Forced movement (F-DMG-11) and pits (S-12 as ffd20 adopts it): push, pull and slide as the
attacker chooses, never through walls or creatures, never provoking; a creature forced into a
pit saves to fall prone at the edge, or falls, takes 1d10 per 10 feet and lands prone."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from engine.actions import Move, UsePower
from engine.decisions import ForcedMoveQuestion
from engine.encounter import Encounter
from engine.events import Damage, EffectStart, Moved, Provoke, Save
from engine.grid import distance
from tests.support.helpers import Answers, Builder, events, mon, put_effect


def mover(pid: str, forced: str, n: int, **over: Any) -> dict[str, Any]:
    p = {
        "id": pid,
        "name": pid.title(),
        "kind": "melee",
        "attack": {"bonus": 30, "vs": "ac"},
        "hit": {"forced": {"kind": forced, "distance": n}},
    }
    p.update(over)
    return p


POWERS = [
    mover("shove", "push", 2),
    mover("yank", "pull", 2, kind="ranged", range=10),
    mover("fling", "slide", 2),
    {
        "id": "jab",
        "name": "Jab",
        "kind": "melee",
        "basic": True,
        "attack": {"bonus": 5, "vs": "ac"},
        "hit": {"damage": {"dice": "1d6"}},
    },
]
UNIT = {
    "id": "unit",
    "name": "Unit",
    "role": "controller",
    "level": 1,
    "hp": 30,
    "defenses": {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12},
    "initiative": 0,
    "powers": ["shove", "yank", "fling", "jab"],
}


def fight(
    build: Builder,
    grid: str,
    where: dict[str, tuple[int, int]],
    faces: list[int],
    choice: int = 0,
    **kw: Any,
) -> tuple[Encounter, Answers]:
    """`a` (party, first) forces `t` (monsters); others in `where` are monsters too."""
    ans = Answers(forced=choice)
    combatants = [mon("a", where["a"], "unit", side="party"), mon("t", where["t"], "unit")]
    combatants += [mon(k, v, "unit") for k, v in where.items() if k not in ("a", "t")]
    init = [20, 1, *[10] * (len(combatants) - 2)]
    enc = build(
        grid,
        combatants,
        creatures=[UNIT],
        powers=POWERS,
        faces=[*init, 10, *faces],
        deciders=lambda _cid: ans,
        **kw,
    )
    return enc, ans


def options(ans: Answers) -> list[tuple[tuple[int, int], ...]]:
    qs = [q for q in ans.asked if isinstance(q, ForcedMoveQuestion)]
    assert len(qs) == 1
    return list(qs[0].options)


OPEN = "........\n........\n........\n........\n........\n"


@pytest.mark.parametrize(
    ("power", "t_pos", "check"),
    [
        pytest.param("shove", (2, 2), "farther", id="push-each-square-farther"),
        pytest.param("yank", (6, 2), "closer", id="pull-each-square-closer"),
        pytest.param("fling", (2, 2), "any", id="slide-any-squares"),
    ],
)
def test_F_DMG_11_push_pull_slide(
    build: Builder, power: str, t_pos: tuple[int, int], check: str
) -> None:
    enc, ans = fight(build, OPEN, {"a": (1, 2), "t": t_pos}, [])
    out = enc.apply(UsePower(power, ("t",)))
    opts = options(ans)
    a_sq = ((1, 2),)
    for path in opts:
        assert 2 <= len(path) <= 3 and path[0] == t_pos
        ds = [distance(a_sq, (sq,)) for sq in path]
        if check == "farther":
            assert all(d2 > d1 for d1, d2 in itertools.pairwise(ds))
        elif check == "closer":
            assert all(d2 < d1 for d1, d2 in itertools.pairwise(ds))
    if check == "any":
        assert any(distance(a_sq, (p[-1],)) <= 1 for p in opts), "a slide may go anywhere"
    moved = events(out, Moved)[0]
    assert (moved.id, moved.mode, moved.path) == ("t", power_kind(power), opts[0])
    assert moved.cost == len(opts[0]) - 1
    assert enc.battle["t"].pos == opts[0][-1]


def power_kind(power: str) -> str:
    return {"shove": "push", "yank": "pull", "fling": "slide"}[power]


def test_F_DMG_11_the_attacker_chooses_where_it_ends(build: Builder) -> None:
    enc, ans = fight(build, OPEN, {"a": (1, 2), "t": (2, 2)}, [], choice=3)
    enc.apply(UsePower("shove", ("t",)))
    assert enc.battle["t"].pos == options(ans)[3][-1]
    assert ans.asked[0].who == "a", "the attacker's controller is asked"


def test_F_DMG_11_not_through_walls_or_creatures(build: Builder) -> None:
    grid = "........\n...#....\n...#....\n...#....\n........\n"
    enc, ans = fight(build, grid, {"a": (1, 2), "t": (2, 2), "x": (2, 3)}, [])
    enc.apply(UsePower("fling", ("t",)))
    ends = {p[-1] for p in options(ans)}
    assert ends and all(
        sq not in ((3, 1), (3, 2), (3, 3), (2, 3), (1, 2)) for p in options(ans) for sq in p[1:]
    )
    assert (4, 2) not in ends, "not through the wall either"


def test_F_DMG_11_stopped_by_blocking_terrain(build: Builder) -> None:
    # nothing but a wall behind: no square is farther away, so the push does nothing
    grid = "#####\n#..##\n#####\n"
    enc, _ans = fight(build, grid, {"a": (1, 1), "t": (2, 1)}, [])
    out = enc.apply(UsePower("shove", ("t",)))
    assert events(out, Moved) == [] and enc.battle["t"].pos == (2, 1)


def test_F_DMG_11_forced_movement_never_provokes(build: Builder) -> None:
    # the target is slid out of the squares its enemy `a` threatens: `a` gets no opportunity
    enc, _ = fight(build, OPEN, {"a": (1, 2), "t": (2, 2)}, [])
    out = enc.apply(UsePower("fling", ("t",)))
    assert events(out, Provoke) == []


def test_F_DMG_11_a_restrained_creature_cannot_be_moved(build: Builder) -> None:
    enc, ans = fight(build, OPEN, {"a": (1, 2), "t": (2, 2)}, [])
    put_effect(enc, "t", source="a", conditions=("restrained",))
    out = enc.apply(UsePower("shove", ("t",)))
    assert events(out, Moved) == [] and ans.asked == []


# --- pits -------------------------------------------------------------------------------------
PIT = "........\n....^...\n........\n"


@pytest.mark.parametrize(
    ("natural", "falls"),
    [pytest.param(10, False, id="save-prone-at-edge"), pytest.param(9, True, id="fail-falls-in")],
)
def test_S_12_pushed_into_a_pit_an_immediate_save(
    build: Builder, natural: int, falls: bool
) -> None:
    enc, ans = fight(build, PIT, {"a": (2, 1), "t": (3, 1)}, [natural, 6])
    out = enc.apply(UsePower("shove", ("t",)))
    assert options(ans)[0][-1] == (4, 1), "the pit is offered first"
    save = events(out, Save)[0]
    assert (save.id, save.when, save.natural, save.success) == (
        "t",
        "immediate",
        natural,
        not falls,
    )
    t = enc.battle["t"]
    prone = [e for e in events(out, EffectStart) if {"condition": "prone"} in e.parts]
    assert len(prone) == 1 and enc.battle.has(t, "prone")
    if falls:
        fall = events(out, Moved)[-1]
        assert (fall.mode, fall.path) == ("fall", ((3, 1), (4, 1)))
        d = events(out, Damage)[0]
        assert (d.cause, d.dice, d.rolls, d.amount, d.source) == ("fall", "1d10", (6,), 6, None)
        assert t.pos == (4, 1)
    else:
        assert t.pos == (3, 1) and events(out, Damage) == []


def test_S_12_deeper_pits_deal_1d10_per_10_feet(build: Builder) -> None:
    enc, _ = fight(
        build,
        "........\n....V...\n........\n",
        {"a": (2, 1), "t": (3, 1)},
        [1, 3, 4, 5],
        legend={"V": {"terrain": "pit", "depth": 30}},
    )
    out = enc.apply(UsePower("shove", ("t",)))
    d = events(out, Damage)[0]
    assert (d.dice, d.rolls, d.amount) == ("3d10", (3, 4, 5), 12)


def test_S_12_climbing_out_of_a_pit_takes_a_move(build: Builder) -> None:
    enc, _ = fight(build, PIT, {"a": (2, 1), "t": (3, 1)}, [1, 2])
    enc.apply(UsePower("shove", ("t",)))
    enc.battle["a"].pos = (0, 0)
    enc.battle.moved()
    from engine.actions import EndTurn, StandUp

    enc.apply(EndTurn())
    assert enc.current is not None and enc.current.id == "t"
    enc.apply(StandUp())
    reason = enc.validate(Move(((4, 1), (5, 1), (6, 1)), "walk"))
    assert reason is not None, "only one square out"
    out = enc.apply(Move(((4, 1), (5, 1)), "walk"))
    assert events(out, Moved)[0].path == ((4, 1), (5, 1))
    assert enc.battle["t"].pos == (5, 1)
