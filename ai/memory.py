"""What one side's AI remembers between decisions, keyed by where the fight stands.

Everything here is tagged with the fight's record count when it was learnt (`engine.progress`:
each applied action is one record), and the memory follows the fight's records (`sync`): when
they no longer begin with the records it last saw (an undo, an undo and other actions, a
resume of another fight), it forgets everything learnt after the records they still share.
What a decision finds here then depends only on the fight as it now stands, never on a
future an undo took back, nor on the identity of the `Encounter` object (which undo, redo
and resume rebuild).

Two kinds of memory:

- Notes per creature, from its decisions: where each of its turns started, whether the
  turn's first decision attacked, the enemy it walked toward, whether it was fleeing. They
  drive the planner's habits (a creature idle for turns grows bolder, keeps its goal,
  doesn't walk back where it came from, flees with hysteresis).
- Values the side's creatures share (distance maps per enemy, each enemy's danger per round,
  long paths), worked out from the state and kept for the next decisions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ai.comers import Sighting
from ai.distances import DistanceCache
from engine.encounter import Encounter, Record
from engine.progress import FightKey, fight_key

Square = tuple[int, int]
NoteKind = Literal["start", "acted", "goal", "fleeing", "seen"]


@dataclass(frozen=True, slots=True)
class Danger:
    """How much an enemy can hurt the deciding creature's side with one attack."""

    melee: float
    ranged: float
    rng: int
    speed: int
    reach: int


@dataclass(frozen=True, slots=True)
class Note:
    """One thing a creature's decision left to remember."""

    tag: int
    """The fight's record count at that decision."""
    turn: int
    """The engine's turn counter then."""
    kind: NoteKind
    value: Any
    """"start": the square the turn started on; "acted": the first decision attacked;
    "goal": the enemy walked toward; "fleeing": whether it was breaking off; "seen": the
    fight as it saw it at the turn's start (`ai.comers.Sighting`)."""


def _common(seen: Sequence[Record], records: Sequence[Record]) -> int:
    """How many records the two histories share from the start."""
    n = min(len(seen), len(records))
    if n and records[n - 1] is seen[n - 1]:  # appended to (or redone): the same objects
        return n
    i = 0
    while i < n and records[i] == seen[i]:
        i += 1
    return i


class SideMemory:
    """The memory of one side's planner (see the module docstring)."""

    def __init__(self) -> None:
        self.fight: FightKey | None = None
        self.seen: list[Record] = []
        """The fight's records as the last `sync` saw them."""
        self.dcache = DistanceCache()
        """Walking distances to each enemy (`ai.distances.DistanceCache`)."""
        self.dangers: dict[tuple[str, str, int], tuple[int, Danger]] = {}
        """(enemy, my side, round) -> (tag, `Danger`) (`ai.scoring.Context.danger`)."""
        self.paths: dict[tuple[str, str, Square], tuple[int, list[Square]]] = {}
        """(creature, goal, goal's square) -> (tag, a long walk toward the goal)
        (`ai.moving.far_path`)."""
        self._notes: dict[str, list[Note]] = {}

    @property
    def tag(self) -> int:
        """The record count of the fight as last synced (what new values are tagged with)."""
        return len(self.seen)

    def sync(self, enc: Encounter) -> None:
        """Follow the fight (see the module docstring)."""
        key = fight_key(enc)
        if key != self.fight:
            self.fight = key
            self.seen = []
            self.dcache = DistanceCache()
            self._notes.clear()
            self.dangers.clear()
            self.paths.clear()
        records = enc.records
        common = _common(self.seen, records)
        if common < len(self.seen):
            self._forget_after(common)
            del self.seen[common:]
        self.seen.extend(records[common:])

    def _forget_after(self, tag: int) -> None:
        self.dcache.rollback(tag)
        self.dangers = {k: v for k, v in self.dangers.items() if v[0] <= tag}
        self.paths = {k: v for k, v in self.paths.items() if v[0] <= tag}
        for notes in self._notes.values():
            while notes and notes[-1].tag > tag:
                notes.pop()

    def begin(self, enc: Encounter, cid: str, pos: Square) -> bool:
        """Note a decision of `cid` now; True if it is the first of its turn (a decision at
        this very state before, one that was not acted on, is made again)."""
        self.sync(enc)
        tag, turn = self.tag, enc.battle.turn_counter
        notes = self._notes.setdefault(cid, [])
        while notes and notes[-1].tag >= tag:
            notes.pop()
        if any(n.turn == turn and n.kind == "start" for n in reversed(notes)):
            return False
        notes.append(Note(tag, turn, "start", pos))
        return True

    def note(self, cid: str, turn: int, kind: NoteKind, value: Any) -> None:
        """Remember what a decision of `cid` in turn `turn` did (see `Note.value`)."""
        self._notes.setdefault(cid, []).append(Note(self.tag, turn, kind, value))

    def _last(self, cid: str, kind: NoteKind) -> Note | None:
        for n in reversed(self._notes.get(cid, ())):
            if n.kind == kind:
                return n
        return None

    def idle(self, cid: str) -> int:
        """Turns in a row, latest first, whose first decision attacked nothing."""
        count = 0
        for n in reversed(self._notes.get(cid, ())):
            if n.kind != "acted":
                continue
            if n.value:
                break
            count += 1
        return count

    def idle_before(self, cid: str, turn: int) -> int:
        """`idle`, counting only the turns before turn `turn` (a replan mid-turn must not
        count its own turn as idle)."""
        last = self._last(cid, "acted")
        idle = self.idle(cid)
        return idle - 1 if last is not None and last.turn == turn and not last.value else idle

    def came_from(self, cid: str, turn: int) -> Square | None:
        """Where it started its last turn before turn `turn`."""
        for n in reversed(self._notes.get(cid, ())):
            if n.kind == "start" and n.turn < turn:
                value: Square = n.value
                return value
        return None

    def sighting_before(self, cid: str, turn: int) -> Sighting | None:
        """The `ai.comers.Sighting` noted at the start of its last turn before turn `turn`
        (None: none noted)."""
        for n in reversed(self._notes.get(cid, ())):
            if n.kind == "seen" and n.turn < turn:
                seen: Sighting = n.value
                return seen
        return None

    def goal(self, cid: str) -> str | None:
        """The enemy it last walked toward."""
        n = self._last(cid, "goal")
        return None if n is None else str(n.value)

    def fleeing(self, cid: str) -> bool:
        """Whether it was last breaking off."""
        n = self._last(cid, "fleeing")
        return bool(n is not None and n.value)
