"""A double move's second leg never provokes needlessly (issue 15, target 5; S-14).

The planner plans a double move's second leg at once, from where the first ends
(`ai.moving.second_move`). Under `calm` (the `tactical` configuration) it is held to what
the first leg is: a shift is one of its ways where the ruleset allows a shift after a walk,
each provoked opportunity attack costs the tie-breaker, and a leg that provokes gives way to
one provoking a strict subset that ends on a square worth as much and as near the goal
(`ai.provoking.calmest`). The oracle is the audit's (`tests/soak/soak_provoke.py`,
`_needless_second`)."""

from __future__ import annotations

from typing import Any

from ai.config import CLASSIC, CONFIGS
from ai.moving import second_move
from ai.plan import Option
from ai.planner import Planner
from engine.actions import Move
from tests.ai.test_roles_read import _joined
from tests.support.helpers import BASIC_MELEE, CLAW, FIGHTER, load_script, mon, pc
from tests.support.scenarios import monster, until_turn

SOAK = load_script("soak/soak_provoke.py")
OPEN = "\n".join(["........."] * 5)
NIBBLE = {
    "id": "nibble",
    "name": "Nibble",
    "kind": "melee",
    "basic": True,
    "attack": {"bonus": 0, "vs": "ac"},
    "hit": {"damage": {"dice": "1d2"}},
}
START, END = (0, 2), (4, 2)
"""The brute's square, and where its first leg ends: next to the pest, two squares from the
fighter it walks toward."""


def _lane(build: Any, ruleset: str | None = None) -> Any:
    creatures = [
        FIGHTER,
        monster("brute", "brute", ["claw"]),
        monster("pest", "soldier", ["nibble"]),
    ]
    extra = {"ruleset": ruleset} if ruleset else {}
    enc = build(
        OPEN,
        [
            mon("b", START, creature="brute"),
            mon("pest", (5, 1), creature="pest", side="party"),
            pc("hero", (6, 2)),
        ],
        creatures=creatures,
        powers=[BASIC_MELEE, CLAW, NIBBLE],
        **extra,
    )
    until_turn(enc, "b")
    return enc


def _second_leg(enc: Any, cfg: Any) -> tuple[Option, Any]:
    pl = Planner(cfg)
    pl.decide(enc, enc.current)
    turn = pl.last_turn
    assert turn is not None and END in turn.moves
    first = Option("move", 0.0, END, turn.moves[END], provoked=turn.route_cost[END][2])
    second_move(turn, first, calm=cfg.calm)
    return first, turn


def test_S_14_issue_15_target_5_the_second_leg_shifts_where_a_walk_would_provoke(
    build: Any,
) -> None:
    """Next to the pest, two squares from the fighter: any walk out of the pest's reach
    provokes it; a shift reaches the same square next to the fighter provoking no one."""
    enc = _lane(build)
    first, turn = _second_leg(enc, CONFIGS["tactical"])
    assert first.post is not None and first.route is not None
    assert first.post.mode == "shift" and first.post.end == (5, 2)
    assert first.provoked == ()
    assert SOAK._needless_second(turn, first) is None
    enc.apply(Move(first.route.path, first.route.mode))  # the engine takes a shift after it
    assert enc.validate(Move(first.post.path, first.post.mode)) is None


def test_S_14_issue_15_target_5_classic_walks_the_second_leg_provoking(build: Any) -> None:
    """The scenario shows what the fix changes: `classic` (no `calm`) walks the same square,
    provoking the pest, and the audit calls it needless."""
    first, turn = _second_leg(_lane(build), CLASSIC)
    assert first.post is not None and first.post.mode == "walk"
    assert first.provoked == ("pest",)
    assert SOAK._needless_second(turn, first) is not None


def test_S_15_no_shift_after_a_walk_under_d20srd(build: Any) -> None:
    """S-15: the 5-foot step only in a turn with no other movement. The second leg walks
    (provoking, with no other way there), and the audit agrees nothing better was legal."""
    enc = _lane(build, "d20srd")
    first, turn = _second_leg(enc, CONFIGS["tactical"])
    assert first.post is not None and first.post.mode == "walk"
    assert first.provoked == ("pest",)
    assert SOAK._needless_second(turn, first) is None


def test_S_14_issue_15_target_5_the_second_leg_pays_for_enemies_beyond_one_move(
    build: Any,
) -> None:
    """Hal, Ivo and Jo stand 11-12 squares off: beyond one move of the skirmisher, within
    two. Their opportunity attacks were reckoned only within one move (speed + 2), so a
    second leg walked past them for free (it ended by Ivo through Hal's and Ivo's reach).
    Under `calm` the decision reckons them within both moves, and the second leg goes round."""
    enc = _joined(build, x=3)
    pl = Planner(CONFIGS["tactical"])
    o = pl.decide(enc, enc.battle["k"])  # its turn (`_joined`)
    turn = pl.last_turn
    assert turn is not None
    assert all(x > 0 for x in turn.ctx.oa_exp), turn.ctx.oa_exp
    assert o.kind == "move" and o.post is not None
    assert o.provoked == ()
