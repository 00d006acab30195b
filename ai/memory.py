"""What one side's AI remembers between decisions, keyed by where the fight stands.

Two kinds of memory, both owned here:

- Per creature, one `TurnMemo` per turn it decided in: where it started, whether it attacked,
  the enemy it walked toward, whether it was fleeing. They drive the planner's habits (a
  creature idle for turns grows bolder, keeps its goal, doesn't walk back where it came from,
  flees with hysteresis). Each is keyed by the engine's `FightPoint` (`engine.progress`):
  after an undo the memos of the undone turns are forgotten, and a memo made at a turn's
  start is made again if the fight goes back to that start; another fight starts afresh.
- Caches the side's creatures share (distance maps per enemy, each enemy's danger per round,
  long paths): values worked out from the state, dropped when the fight goes back (undo) or
  changes, so that a stale value never outlives the state it was read from.

Nothing here is keyed by the identity of an `Encounter` object: undo and resume rebuild it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.distances import DistanceCache
from engine.progress import FightKey, FightPoint

Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Danger:
    """How much an enemy can hurt the deciding creature's side with one attack."""

    melee: float
    ranged: float
    rng: int
    speed: int
    reach: int


@dataclass(slots=True)
class TurnMemo:
    """One turn of one creature, as its first decision found it and its decisions left it."""

    turn: int
    """The engine's turn counter."""
    records: int
    """Actions recorded when the turn's first decision was made."""
    start: Square
    acted: bool | None = None
    """Its first decision attacked (or used a power); None until that decision is made."""
    goal: str | None = None
    """The enemy it last walked toward this turn."""
    fleeing: bool | None = None
    """Whether it was breaking off (see `ai.planner.Planner`), once decided this turn."""


class SideMemory:
    """The memory of one side's planner (see the module docstring)."""

    def __init__(self) -> None:
        self.fight: FightKey | None = None
        self.records = 0
        self.dcache = DistanceCache()
        """Walking distances to each enemy (`ai.distances.DistanceCache`)."""
        self.dangers: dict[tuple[str, str, int], Danger] = {}
        """(enemy, my side, round) -> `Danger` (`ai.scoring.Context.danger`)."""
        self.paths: dict[tuple[str, str, Square], list[Square]] = {}
        """(creature, goal, goal's square) -> a long walk toward the goal (`ai.moving`)."""
        self._turns: dict[str, list[TurnMemo]] = {}

    def sync(self, pt: FightPoint) -> None:
        """Follow the fight: forget everything for another fight, the caches after an undo."""
        if pt.fight != self.fight:
            self.fight = pt.fight
            self.dcache = DistanceCache()
            self._turns.clear()
            self.dangers.clear()
            self.paths.clear()
        elif pt.records < self.records:
            self.dangers.clear()
            self.paths.clear()
        self.records = pt.records

    def begin(self, cid: str, pt: FightPoint, pos: Square) -> bool:
        """Note a decision of `cid` at `pt`; True if it is the first of its turn (the turn's
        memo is made now, after forgetting any from turns an undo took back)."""
        self.sync(pt)
        memos = self._turns.setdefault(cid, [])
        while memos and (
            memos[-1].turn > pt.turn
            or (memos[-1].turn == pt.turn and memos[-1].records >= pt.records)
        ):
            memos.pop()
        if memos and memos[-1].turn == pt.turn:
            return False
        memos.append(TurnMemo(pt.turn, pt.records, pos))
        return True

    def now(self, cid: str, turn: int) -> TurnMemo | None:
        """The memo of `cid`'s turn `turn`, if `begin` made one."""
        memos = self._turns.get(cid)
        return memos[-1] if memos and memos[-1].turn == turn else None

    def idle(self, cid: str) -> int:
        """Decided turns in a row, latest first, in which it attacked nothing."""
        n = 0
        for m in reversed(self._turns.get(cid, ())):
            if m.acted is None:
                continue
            if m.acted:
                break
            n += 1
        return n

    def came_from(self, cid: str, turn: int) -> Square | None:
        """Where it started its previous turn (before turn `turn`)."""
        earlier = [m for m in self._turns.get(cid, ()) if m.turn < turn]
        return earlier[-1].start if earlier else None

    def goal(self, cid: str) -> str | None:
        """The enemy it last walked toward."""
        for m in reversed(self._turns.get(cid, ())):
            if m.goal is not None:
                return m.goal
        return None

    def fleeing(self, cid: str) -> bool:
        """Whether it was last breaking off."""
        for m in reversed(self._turns.get(cid, ())):
            if m.fleeing is not None:
                return m.fleeing
        return False
