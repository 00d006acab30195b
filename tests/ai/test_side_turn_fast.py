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
import random
import tempfile
import types
from pathlib import Path

from hypothesis import given, reject, settings
from hypothesis import strategies as st

from ai.moving import second_move
from ai.plan import Option
from ai.planner import Planner
from ai.provoking import deadly, reckon_two_moves
from ai.routes import threat_near
from ai.tactical import TacticalPolicy
from ai.turn import Turn
from engine.content.errors import ContentErrors
from engine.content.loader import load_encounter
from engine.encounter import Encounter
from tests.ai.random_fights import CREATURES, KINDS, MID_FIGHTS, POWERS, mid_fight_of
from tests.support.helpers import write_encounter


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


@settings(max_examples=40, deadline=None)
@given(**MID_FIGHTS)
def test_decisions_equal_the_plain_code(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str
) -> None:
    enc = mid_fight_of(map_seed, n, seed, steps, ruleset)
    if enc is None:
        return
    fast, plain = TacticalPolicy(), plain_policy()
    for _ in range(24):
        if enc.over or enc.current is None:
            return
        got, want = fast.next_action(enc), plain.next_action(enc)
        assert got.action == want.action
        g, w = got.decision, want.decision
        assert (g is None) == (w is None)
        if g is not None and w is not None:
            assert (g.id, g.summary, g.candidates) == (w.id, w.summary, w.candidates)
        enc.apply(got.action, got.decision)


def far_fight(map_seed: int, ruleset: str) -> Encounter:
    """Two sides 14-30 squares apart on a random long map (walls, obstacles, difficult and
    obscured squares, pits; a Large ogre among the kinds): the first rounds are double
    moves whose second legs reach enemies the first Context did not reckon (the random
    fights of `random_fights` are too small for that)."""
    rng = random.Random(map_seed)
    w, h = rng.randint(24, 34), rng.randint(8, 14)
    terrain = "..........#=~,;^&"
    cells = [[rng.choice(terrain) for _ in range(w)] for _ in range(h)]
    combatants: list[dict[str, object]] = []
    taken: set[tuple[int, int]] = set()
    for i in range(rng.randint(4, 8)):
        side = "party" if i % 2 == 0 else "monsters"
        kind = rng.choice(KINDS)
        size = 2 if kind == "ogre" else 1
        x0 = 0 if side == "party" else w - 5
        x, y = rng.randint(x0, x0 + 5 - size), rng.randint(0, h - size)
        foot = {(x + a, y + b) for a in range(size) for b in range(size)}
        if foot & taken:
            continue
        for fx, fy in foot:
            cells[fy][fx] = "."
        taken |= foot
        combatants.append({"id": f"c{i}", "creature": kind, "side": side, "pos": [x, y]})
    if len({c["side"] for c in combatants}) < 2:
        reject()
    grid = "\n".join("".join(r) for r in cells)
    with tempfile.TemporaryDirectory() as tmp:
        path = write_encounter(
            Path(tmp),
            grid,
            combatants,
            creatures=copy.deepcopy(CREATURES),
            powers=copy.deepcopy(POWERS),
        )
        try:
            loaded = load_encounter(path)
        except ContentErrors:
            reject()
    enc = Encounter.create(
        loaded, seed=map_seed, control={"party": "ai", "monsters": "ai"}, ruleset=ruleset
    )
    enc.start()
    return enc


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["ffd20", "4srd", "d20srd"]))
def test_far_fights_decide_as_the_plain_code(map_seed: int, ruleset: str) -> None:
    """The first rounds of fights whose sides start far apart (double moves, second legs)."""
    enc = far_fight(map_seed, ruleset)
    fast, plain = TacticalPolicy(), plain_policy()
    for _ in range(40):
        if enc.over or enc.current is None:
            return
        got, want = fast.next_action(enc), plain.next_action(enc)
        assert got.action == want.action
        g, w = got.decision, want.decision
        assert (g is None) == (w is None)
        if g is not None and w is not None:
            assert (g.id, g.summary, g.candidates) == (w.id, w.summary, w.candidates)
        enc.apply(got.action, got.decision)


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
@given(st.integers(0, 2**32 - 1), st.sampled_from(["ffd20", "4srd", "d20srd"]))
def test_unreckoned_second_legs_equal_reckoned_ones(map_seed: int, ruleset: str) -> None:
    """Every second leg planned without the far enemies' figures (nothing threatened in its
    reach) equals the one planned with them: the same route, provoked enemies, score and
    deadly verdict."""
    enc = far_fight(map_seed, ruleset)
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
