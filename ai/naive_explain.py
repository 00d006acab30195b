"""The naive baseline's `decision` events: one short, true line per action it takes.

The naive policy (`ai.naive`) thinks little, so its explanation says little, but every
action of an AI is explained in the log (issue 15, target 7; ../shared/log-schema.md): "Short
Blade on Brom, the nearest enemy in reach", "walks 4 squares toward Brom, provoking Kael's
opportunity attack", "stands up". Who an action provokes is asked of the engine
(`engine.movement`), never guessed. When an opportunity attack or an interrupt cuts its walk
short, its next action, an end of turn included, says so ("(plans again: its move was cut
short)"), as the tactical policy's re-plans do: what the walk still had to provoke won't come.
Kept apart from `ai.naive` so that the policy's speed work and its explanations don't meet in
one file.
"""

from __future__ import annotations

import time

from ai.explain import attacks_of, provokers, square_text
from engine.actions import Action, EndTurn, Move, StandUp, UsePower
from engine.battle import Battle
from engine.content.schema import Power
from engine.events import Decision
from engine.grid import Terrain, distance, footprint
from engine.movement import move_provocations, threatening
from engine.powers import provoking_kind
from engine.state import Combatant

POLICY = "naive"
CUT = "plans again: its move was cut short"

Square = tuple[int, int]


class NaiveExplainer:
    """The naive policy's explanations; remembers where its last walk was to end (one per
    policy: a fight's side)."""

    def __init__(self) -> None:
        self._walk: tuple[int, str, Square] | None = None
        """(turn, creature, end square) of the last walk it explained."""
        self._texts: dict[tuple[str, str, tuple[str, ...]], tuple[str, str, bool]] = {}
        """(creature, power, targets) -> (its line, its candidate's text, whether the power
        provokes): an attack's words depend only on names, which never change in a fight."""

    def decision(self, b: Battle, c: Combatant, act: Action, t0: float) -> Decision | None:
        """The `decision` event of `act` for `c`: None for an end of turn, unless a walk of
        this turn was cut short; `t0`: when the decision began (`time.perf_counter`)."""
        walk, self._walk = self._walk, None
        cut = walk is not None and walk[:2] == (b.turn_counter, c.id) and c.pos != walk[2]
        if isinstance(act, Move):
            self._walk = (b.turn_counter, c.id, act.path[-1])
        if isinstance(act, EndTurn) and not cut:
            return None
        if isinstance(act, UsePower) and not cut:
            return self._attack(b, c, act, t0)
        return naive_decision(b, c, act, t0, CUT if cut else "")

    def _attack(self, b: Battle, c: Combatant, act: UsePower, t0: float) -> Decision:
        """`naive_decision` of an attack, its words remembered: the same event."""
        key = (c.id, act.power, act.targets)
        hit = self._texts.get(key)
        if hit is None:
            p = c.power(act.power)
            text, cand = _attack_words(b, c, act, p)
            hit = self._texts[key] = (f"{c.name} {text}", cand, p is not None and provoking_kind(p))
        line, cand, provoking = hit
        if provoking:
            provoked = provokers(b, c, act)
            if provoked:
                line += f", provoking {attacks_of(b, provoked)}"
        ms = (time.perf_counter() - t0) * 1000
        return Decision(c.id, POLICY, line, ({"action": cand, "score": 0.0},), round(ms, 3))


def naive_decision(
    b: Battle, c: Combatant, act: Action, t0: float, again: str = ""
) -> Decision | None:
    """The `decision` event of the naive policy's `act` for `c` (None for an end of turn,
    unless `again` says why it plans again); `t0`: when the decision began."""
    if isinstance(act, UsePower):
        text, cand = _attack(b, c, act)
    elif isinstance(act, Move):
        text, cand = _walk(b, c, act)
    elif isinstance(act, StandUp):
        text, cand = "stands up", "stand up"
    elif isinstance(act, EndTurn) and again:
        text, cand = "ends its turn", "end turn"
    else:
        return None
    ms = (time.perf_counter() - t0) * 1000
    line = c.name + (f" ({again})" if again else "") + f" {text}"
    return Decision(c.id, POLICY, line, ({"action": cand, "score": 0.0},), round(ms, 3))


def _attack(b: Battle, c: Combatant, act: UsePower) -> tuple[str, str]:
    text, cand = _attack_words(b, c, act, c.power(act.power))
    provoked = provokers(b, c, act)
    if provoked:
        text += f", provoking {attacks_of(b, provoked)}"
    return text, cand


def _attack_words(b: Battle, c: Combatant, act: UsePower, p: Power | None) -> tuple[str, str]:
    """An attack's text without who it provokes, and its candidate's text."""
    name = p.name if p is not None else act.power
    who = ", ".join(b[t].name for t in act.targets)
    return f"attacks the nearest enemy in reach: {name} on {who}", f"{name} -> {who}"


def _walk(b: Battle, c: Combatant, act: Move) -> tuple[str, str]:
    path = list(act.path)
    end = path[-1]
    n = len(path) - 1
    goal = _toward(b, c, end)
    verb = "climbs out of the pit" if n == 1 and _in_pit(b, c) else f"walks {_squares(n)}"
    text = verb + (f" toward {goal.name}" if goal else "")
    who: list[str] = []
    if _threat_near(b, c, path):
        # Only enemies threatening a square the walk leaves can be provoked: the engine's
        # move asks just those (`engine.movement._perform_move`), and so does this.
        left = {sq for p in path[:-1] for sq in footprint(p, c.size)}
        threat = threatening(b, c, left)
        who = [e for _, e in move_provocations(b, c, path, act.mode, threat)]
    if who:
        text += f", provoking {attacks_of(b, list(dict.fromkeys(who)))}"
    return text, f"{act.mode} {square_text(end)}"


def _threat_near(b: Battle, c: Combatant, path: list[Square]) -> bool:
    """Could any enemy threaten a square the walk leaves? Not when every enemy stands farther
    than its reach from the box around those squares (a creature threatens only squares
    within its reach: `engine.grid.threatened_squares`), and then no one need be asked
    whether it could react (the engine's `threatening` asks every enemy, sight included)."""
    if len(path) < 2:
        return False
    (x0, y0) = (x1, y1) = path[0]
    for x, y in path[1:-1]:  # the squares left: all but the last
        x0, x1 = (x, x1) if x < x0 else (x0, x if x > x1 else x1)
        y0, y1 = (y, y1) if y < y0 else (y0, y if y > y1 else y1)
    grow = c.size - 1
    x1 += grow
    y1 += grow
    side = c.side
    for e in b.combatants.values():
        if e.side == side or e.state == "dead":  # `Battle.enemies_of`
            continue
        (ex, ey), s = e.pos, e.size - 1
        gap = max(ex - x1, x0 - (ex + s), ey - y1, y0 - (ey + s))
        if gap <= 0 or gap <= _reach(e.creature, e):
            return True
    return False


_REACHES: dict[int, tuple[object, int]] = {}
"""`Combatant.reach` by creature definition (its content object, which never changes)."""


def _reach(creature: object, e: Combatant) -> int:
    hit = _REACHES.get(id(creature))
    if hit is None or hit[0] is not creature:
        if len(_REACHES) > 4096:  # many encounters loaded in one process: start afresh
            _REACHES.clear()
        hit = _REACHES[id(creature)] = (creature, e.reach)
    return hit[1]


def _squares(n: int) -> str:
    return f"{n} square{'s' if n != 1 else ''}"


def _in_pit(b: Battle, c: Combatant) -> bool:
    return b.map.cell(c.pos).terrain == Terrain.PIT


def _toward(b: Battle, c: Combatant, end: tuple[int, int]) -> Combatant | None:
    """The enemy the move brings it nearest to, among those it gets closer to."""
    start_sq = footprint(c.pos, c.size)
    end_sq = footprint(end, c.size)
    best: tuple[int, str, Combatant] | None = None
    for e in b.enemies_of(c):
        theirs = footprint(e.pos, e.size)
        after = distance(end_sq, theirs)
        if after >= distance(start_sq, theirs):
            continue
        if best is None or (after, e.id) < best[:2]:
            best = (after, e.id, e)
    return best[2] if best is not None else None
