"""The side turn's shortcuts in the movement half (issue 14, target 2) decide exactly what the
plain code decides:

- a double move's second leg reckons the far enemies' opportunity attacks
  (`ai.provoking.reckon_two_moves`) only when a threatened square lies within its reach
  (`Planner._second_move`): with none, it provokes no one and their figures change nothing.

Each is compared with the plain code at every decision of random fights (walls, difficult
terrain, pits, a Large ogre, conditions, the three rulesets): the same action and the same
decision text and candidates. The decision fixtures and log digests show whole fights
unchanged."""

from __future__ import annotations

import copy
import dataclasses
import types

from hypothesis import given, reject, settings
from hypothesis import strategies as st

from ai.moving import second_move
from ai.plan import Option
from ai.planner import Planner
from ai.provoking import deadly, reckon_two_moves
from ai.routes import threat_near
from ai.tactical import TacticalPolicy
from ai.turn import Turn
from engine.encounter import Encounter
from tests.ai.random_fights import MID_FIGHTS, load_fight, mid_fight_of

FAR = st.integers(0, 2**32 - 1)
"""The map seeds of `far_fight`."""
RULESETS = st.sampled_from(["ffd20", "4srd", "d20srd"])


def _plain_second_move(self: Planner, turn: Turn, best: Option) -> None:
    """`Planner._second_move` as it was: the far enemies reckoned before every second leg."""
    before = (best.post, best.provoked, best.replan_after)
    if self.config.calm:
        reckon_two_moves(turn.ctx)
    second_move(turn, best, self.config.calm)
    if self.config.calm and best.post is not None and deadly(turn, best):
        best.post, best.provoked, best.replan_after = before


def plain_policy() -> TacticalPolicy:
    """A tactical policy with the plain code in place of this module's shortcuts."""
    pol = TacticalPolicy()
    planner = pol.planner
    planner._second_move = types.MethodType(_plain_second_move, planner)  # type: ignore[method-assign]
    return pol


def decide_alike(enc: Encounter, steps: int) -> None:
    """Play up to `steps` actions with this tree's policy and the plain one deciding side by
    side: the same action, decision text and candidates at every step."""
    fast, plain = TacticalPolicy(), plain_policy()
    for _ in range(steps):
        if enc.over or enc.current is None:
            return
        got, want = fast.next_action(enc), plain.next_action(enc)
        assert got.action == want.action
        g, w = got.decision, want.decision
        assert (g is None) == (w is None)
        if g is not None and w is not None:
            assert (g.id, g.summary, g.candidates) == (w.id, w.summary, w.candidates)
        enc.apply(got.action, got.decision)


@settings(max_examples=40, deadline=None)
@given(**MID_FIGHTS)
def test_decisions_equal_the_plain_code(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str
) -> None:
    enc = mid_fight_of(map_seed, n, seed, steps, ruleset)
    if enc is None:
        return
    decide_alike(enc, 24)


def far_fight(map_seed: int, n: int, ruleset: str) -> Encounter:
    """A fight whose sides start 14-30 squares apart (`random_fights.make_fight(...,
    apart=True)`: walls, obstacles, difficult and obscured squares, pits, a Large ogre among
    the kinds), started: its first rounds are double moves whose second legs reach enemies
    the first move's reckoning left out (the other random fights are too small for that)."""
    loaded = load_fight(map_seed, n, apart=True)
    if loaded is None:
        reject()
    enc = Encounter.create(
        loaded, seed=map_seed, control={"party": "ai", "monsters": "ai"}, ruleset=ruleset
    )
    enc.start()
    return enc


@settings(max_examples=30, deadline=None)
@given(FAR, st.integers(4, 8), RULESETS)
def test_far_fights_decide_as_the_plain_code(map_seed: int, n: int, ruleset: str) -> None:
    """The first rounds of fights whose sides start far apart (double moves, second legs)."""
    enc = far_fight(map_seed, n, ruleset)
    decide_alike(enc, 40)


class _Checked(Planner):
    """A planner that, at every second leg it plans without reckoning the far enemies (no
    threatened square in its reach), plans it again after reckoning them, on a copy of the
    decision's context and option, and records both."""

    seen: list[tuple[object, object]]

    def _second_move(self, turn: Turn, best: Option) -> None:
        near = threat_near(turn.ctx.f.threat_mask, best.end, turn.speed)
        if self.config.calm and not near and not turn.ctx.two_moves:
            ctx = copy.copy(turn.ctx)
            other = dataclasses.replace(turn, ctx=ctx)
            alt = copy.copy(best)
            _plain_second_move(self, other, alt)
            assert ctx.two_moves  # the far enemies were reckoned there
            super()._second_move(turn, best)
            self.seen.append((_leg(best, deadly(turn, best)), _leg(alt, deadly(other, alt))))
            return
        super()._second_move(turn, best)


def _leg(o: Option, dead: bool) -> tuple[object, ...]:
    post = o.post
    route = None if post is None else (post.end, post.cost, post.mask, post.mode, post.path)
    return route, o.provoked, o.replan_after, o.score, dead


@settings(max_examples=30, deadline=None)
@given(FAR, st.integers(4, 8), RULESETS)
def test_unreckoned_second_legs_equal_reckoned_ones(map_seed: int, n: int, ruleset: str) -> None:
    """Every second leg planned without the far enemies' figures (nothing threatened in its
    reach) equals the one planned with them: the same route, provoked enemies, score and
    deadly verdict."""
    enc = far_fight(map_seed, n, ruleset)
    pol = TacticalPolicy()
    checked = _Checked(pol.config)
    checked.seen = []
    pol.planner = checked
    for _ in range(40):
        if enc.over or enc.current is None:
            break
        choice = pol.next_action(enc)
        enc.apply(choice.action, choice.decision)
    for got, want in checked.seen:
        assert got == want
