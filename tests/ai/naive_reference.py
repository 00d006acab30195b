"""The naive policy as it was before its speed work (issue 14), kept as the plain reference
that `ai.naive` must agree with, choice for choice and explanation for explanation
(tests/ai/test_naive_fast.py). Its explanations are `ai.naive_explain` as it was then.

Not for use outside tests: every decision asks the engine for the whole reach map and every
target, and builds each text afresh.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from ai.explain import attacks_of, provokers, square_text
from ai.policy import Choice
from engine.actions import Action, EndTurn, Move, StandUp, UsePower
from engine.battle import Battle
from engine.content.schema import Power
from engine.decisions import Question
from engine.encounter import Encounter
from engine.events import Decision
from engine.grid import Terrain, cheapest_path, distance, footprint
from engine.movement import move_provocations, threatening
from engine.powers import usable_refusal
from engine.state import Combatant

Square = tuple[int, int]


def basic_powers(c: Combatant) -> list[Power]:
    basics = [p for p in c.powers if p.basic and p.attack is not None]
    if not basics:  # no power marked basic: any at-will attack will do
        basics = [
            p
            for p in c.powers
            if p.usage == "at-will" and p.attack is not None and p.kind in ("melee", "ranged")
        ]
    return basics


class ReferenceNaive:
    name = "naive"

    def __init__(self) -> None:
        self._basics: dict[str, tuple[tuple[Power, ...], list[Power]]] = {}
        """`basic_powers` by creature, with the powers tuple it was read from (a creature's
        powers never change in a fight; a new fight's creature of the same id has its own)."""
        self._explain = NaiveExplainer()
        """Its `decision` events (`ai.naive_explain`)."""

    def answer(self, enc: Encounter, question: Question[Any]) -> Any:
        return question.default()  # as the AutoDecider: no thought

    def next_action(self, enc: Encounter) -> Choice:
        """Attack the nearest enemy in reach, else walk toward the nearest, else end the turn;
        once next to an enemy it stays there (and ends its turn after attacking).
        Whatever it picks is checked with `Encounter.validate` first (never an illegal
        action: EndTurn instead)."""
        t0 = time.perf_counter()
        c = enc.current
        if c is None:
            return Choice(EndTurn())
        for act in self._candidates(enc, c):
            if act is not None and enc.validate(act) is None:
                return Choice(act, self._explain.decision(enc.battle, c, act, t0))
        return Choice(EndTurn(), self._explain.decision(enc.battle, c, EndTurn(), t0))

    def _candidates(self, enc: Encounter, c: Combatant) -> Iterator[Action | None]:
        """In order of preference; lazily, so that a legal attack skips the path search."""
        yield self._attack(enc, c)
        prone = enc.battle.has(c, "prone")
        if self._engaged(enc, c):
            # Already next to an enemy: walking on would only provoke opportunity attacks.
            if prone and enc.can_spend("move"):
                yield StandUp()
            return
        if enc.can_spend("move") and not prone:
            if enc.battle.map.cell(c.pos).terrain == Terrain.PIT:
                yield self._climb(enc, c)
            else:
                yield self._approach(enc, c)
        if prone and enc.can_spend("move"):
            yield StandUp()

    @staticmethod
    def _climb(enc: Encounter, c: Combatant) -> Move | None:
        """Out of a pit: one square toward the nearest enemy (a whole move)."""
        b = enc.battle
        enemies = [e.pos for e in b.enemies_of(c)]
        options = sorted(
            enc.reachable("walk"),
            key=lambda sq: (min((distance((sq,), (e,)) for e in enemies), default=0), sq),
        )
        for sq in options:
            if distance((c.pos,), (sq,)) == 1:
                return Move((c.pos, sq), "walk")
        return None

    def _basic(self, c: Combatant) -> list[Power]:
        hit = self._basics.get(c.id)
        if hit is None or hit[0] is not c.powers:
            hit = (c.powers, basic_powers(c))
            self._basics[c.id] = hit
        return hit[1]

    def _attack(self, enc: Encounter, c: Combatant) -> UsePower | None:
        """The first basic power (in the creature's order) that `Encounter.power_refusals`
        would pass, on its nearest target; only the basic powers are asked about."""
        b = enc.battle
        for power in self._basic(c):
            if usable_refusal(b, c, power) is not None:
                continue
            if power.action in ("standard", "move", "minor") and not enc.can_spend(power.action):
                continue
            targets = enc.targets(power.id)
            if not targets:
                continue
            nearest = min(targets, key=lambda t: (self._dist(enc, c, t), t))
            return UsePower(power.id, (nearest,))
        return None

    @staticmethod
    def _engaged(enc: Encounter, c: Combatant) -> bool:
        """Is a standing enemy within reach (adjacent, for most)?"""
        b = enc.battle
        mine = b.squares(c)
        reach = max(1, c.reach)
        return any(e.standing and distance(mine, b.squares(e)) <= reach for e in b.enemies_of(c))

    @staticmethod
    def _dist(enc: Encounter, c: Combatant, tid: str) -> int:
        b = enc.battle
        return distance(b.squares(c), b.squares(b[tid]))

    def _approach(self, enc: Encounter, c: Combatant) -> Move | None:
        b = enc.battle
        enemies = sorted(b.enemies_of(c), key=lambda e: (self._dist(enc, c, e.id), e.id))
        reach = enc.reachable("walk")
        if not reach or not enemies:
            return None
        occ = b.occupancy()
        for enemy in enemies[:3]:
            goal = _nearest(b.squares(enemy), reach)
            if distance(b.squares(enemy), (goal,)) >= self._dist(enc, c, enemy.id):
                continue
            found = cheapest_path(b.map, c.pos, goal, c.id, c.side, c.size, occ)
            if found is not None:
                return Move(tuple(found[0]), "walk")
        return None


def _nearest(theirs: tuple[Square, ...], reach: dict[Square, int]) -> Square:
    """The square of `reach` nearest `theirs`, then the cheapest, then the least: the min
    of (distance, cost, square) (one tuple per square: this runs for every approach)."""
    if len(theirs) == 1:
        (ex, ey) = theirs[0]
        best = min(
            (max(x - ex if x >= ex else ex - x, y - ey if y >= ey else ey - y), cost, (x, y))
            for (x, y), cost in reach.items()
        )
    else:
        best = min((distance(theirs, (sq,)), cost, sq) for sq, cost in reach.items())
    return best[2]


POLICY = "naive"
CUT = "plans again: its move was cut short"


class NaiveExplainer:
    """The naive policy's explanations; remembers where its last walk was to end (one per
    policy: a fight's side)."""

    def __init__(self) -> None:
        self._walk: tuple[int, str, Square] | None = None
        """(turn, creature, end square) of the last walk it explained."""

    def decision(self, b: Battle, c: Combatant, act: Action, t0: float) -> Decision | None:
        """The `decision` event of `act` for `c`: None for an end of turn, unless a walk of
        this turn was cut short; `t0`: when the decision began (`time.perf_counter`)."""
        walk, self._walk = self._walk, None
        cut = walk is not None and walk[:2] == (b.turn_counter, c.id) and c.pos != walk[2]
        if isinstance(act, Move):
            self._walk = (b.turn_counter, c.id, act.path[-1])
        if isinstance(act, EndTurn) and not cut:
            return None
        return naive_decision(b, c, act, t0, CUT if cut else "")


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
    p = c.power(act.power)
    name = p.name if p is not None else act.power
    who = ", ".join(b[t].name for t in act.targets)
    text = f"attacks the nearest enemy in reach: {name} on {who}"
    provoked = provokers(b, c, act)
    if provoked:
        text += f", provoking {attacks_of(b, provoked)}"
    return text, f"{name} -> {who}"


def _walk(b: Battle, c: Combatant, act: Move) -> tuple[str, str]:
    path = list(act.path)
    end = path[-1]
    n = len(path) - 1
    goal = _toward(b, c, end)
    verb = "climbs out of the pit" if n == 1 and _in_pit(b, c) else f"walks {_squares(n)}"
    text = verb + (f" toward {goal.name}" if goal else "")
    who = [e for _, e in move_provocations(b, c, path, act.mode, threatening(b, c))]
    if who:
        text += f", provoking {attacks_of(b, list(dict.fromkeys(who)))}"
    return text, f"{act.mode} {square_text(end)}"


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
