"""Undo and redo, by replaying the fight's records without the last steps.

The engine is event-sourced, so undo never reverses anything: it rebuilds the fight with
`Encounter.replay` from all but the undone records, and redo rebuilds it with them put back.
Replay gives each kept action its recorded dice, and leaves the seeded stream where it stood
after them, so an undone action done again the same way gets the same dice: undo can't be
used to re-roll.

What one undo step is. Each action a person took is a step. In a fight with at least one
player-controlled creature an undo always lands where a person decides: going back past AI
turns takes back those turns whole, together with the player action before them (landing
between AI turns would be pointless: the AI would play them again, identically). In a fight
with no player (a replay, the simulator, the soak) each AI creature's consecutive records
form one step.

The history keeps the undone records as a redo stack until a new action is applied (doing
the undone action again, which gets the same dice, counts as its redo). With a
saver (`engine.autosave.Autosaver`), every change reaches the save before the method
returns: applied and redone records are appended, an undo appends an `undo` marker (see
`engine.save` for why a marker and not a rewrite).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.actions import Action
from engine.decisions import Decider
from engine.dice import DiceSource
from engine.encounter import Encounter, Record
from engine.events import Decision, Logged
from engine.replay import Replay
from engine.save import same_record


class Saver(Protocol):
    def sync(self, enc: Encounter, actors: Sequence[str | None] | None = None) -> int: ...


def control_of(enc: Encounter) -> dict[str, str]:
    """Who plays each creature, by id: what a replay needs to rebuild the same sides."""
    return {c.id: c.control for c in enc.battle.combatants.values()}


@dataclass(frozen=True, slots=True)
class Step:
    """Where one record stands in the fight (what a replay viewer steps through)."""

    actor: str | None
    """Whose turn it was (None for the start)."""
    round: int
    """The round after it."""
    events: int
    """The log's length after it: record k's events are log[steps[k-1].events:events]."""


def trace(enc: Encounter) -> list[Step]:
    """A `Step` for each of `enc`'s records, by replaying them with a note taken at each.
    Needed for records applied with no History or Autosaver watching (they note the actor
    as they go), and by the replay viewer to tell which events each action caused."""
    replay = Replay(
        enc.loaded,
        enc.records,
        seed=enc.seed,
        control=control_of(enc),
        ruleset=enc.ruleset_name,
        exact=True,
    )
    return [Step(s.actor, s.enc.battle.round, len(s.enc.log)) for s in replay]


class History:
    """An encounter with undo and redo. Apply actions through it; read `enc` afresh after
    each undo or redo (they replace it with a rebuilt one)."""

    def __init__(
        self,
        enc: Encounter,
        *,
        deciders: Callable[[str], Decider] | None = None,
        live: DiceSource | None = None,
        saver: Saver | None = None,
        actors: Sequence[str | None] | None = None,
        redo: Sequence[tuple[Record, str | None]] = (),
    ) -> None:
        """`deciders` and `live` are what `enc` was created with (rebuilds need them: `live`
        only for dice typed in by hand, and it must keep no state of its own). `actors` (whose
        turn each record was) is worked out by a replay if not given. `redo` is a redo stack
        to start with (a save keeps one)."""
        self.enc = enc
        self.deciders = deciders
        self.live = live
        self.saver = saver
        self._actors: list[str | None] = (
            list(actors) if actors is not None else [s.actor for s in trace(enc)]
        )
        if len(self._actors) != len(enc.records):
            raise ValueError(f"{len(self._actors)} actors for {len(enc.records)} records")
        self._future: list[tuple[Record, str | None]] = list(redo)

    # --- reading ------------------------------------------------------------------------
    @property
    def records(self) -> list[Record]:
        return self.enc.records

    @property
    def actors(self) -> list[str | None]:
        """Whose turn it was for each record (None for the start)."""
        return list(self._actors)

    @property
    def redo_stack(self) -> list[tuple[Record, str | None]]:
        return list(self._future)

    def can_undo(self) -> bool:
        return bool(self._starts(self._actors, 1, len(self._actors) - 1))

    def can_redo(self) -> bool:
        return bool(self._future)

    def _starts(self, actors: Sequence[str | None], lo: int, hi: int) -> list[int]:
        """Positions k in [lo, hi] where a step begins (keeping records[:k] undoes it)."""
        out = []
        # who plays whom now (the encounter holds it): a person may take over mid-fight
        players = any(c.control == "player" for c in self.enc.battle.combatants.values())
        for k in range(max(lo, 1), min(hi, len(actors) - 1) + 1):
            who = actors[k]
            if players:
                if who is not None and self.enc.battle[who].control == "player":
                    out.append(k)
            elif who != actors[k - 1]:
                out.append(k)
        return out

    # --- changing -----------------------------------------------------------------------
    def start(self) -> list[Logged]:
        events = self.enc.start()
        self._actors.append(None)
        self._sync()
        return events

    def apply(self, action: Action, decision: Decision | None = None) -> list[Logged]:
        """Apply for the current creature (Impossible: nothing changed). A new action drops
        the redo stack; the undone action done again with the same dice and answers is a
        redo and keeps the rest (as a save reads it). With a saver, the record is durable
        before this returns."""
        cur = self.enc.current
        events = self.enc.apply(action, decision)
        self._actors.append(cur.id if cur is not None else None)
        if self._future and same_record(self._future[0][0], self.enc.records[-1]):
            del self._future[0]
        else:
            self._future.clear()
        self._sync()
        return events

    def undo(self, steps: int = 1) -> int:
        """Take back `steps` steps (as many as there are, if fewer); return how many records
        were undone (0: nothing to undo)."""
        starts = self._starts(self._actors, 1, len(self._actors) - 1)
        if not starts or steps < 1:
            return 0
        target = starts[-min(steps, len(starts))]
        recs = self.enc.records
        undone = list(zip(recs[target:], self._actors[target:], strict=True))
        self._future[:0] = undone
        self._rebuild(list(recs[:target]), self._actors[:target])
        return len(undone)

    def redo(self, steps: int = 1) -> int:
        """Put back `steps` undone steps with their recorded dice and answers; return how many
        records were redone."""
        if not self._future or steps < 1:
            return 0
        recs = [*self.enc.records, *(r for r, _ in self._future)]
        actors = [*self._actors, *(a for _, a in self._future)]
        here = len(self._actors)
        starts = self._starts(actors, here + 1, len(actors) - 1)
        target = starts[steps - 1] if steps <= len(starts) else len(actors)
        self._future = self._future[target - here :]
        self._rebuild(recs[:target], actors[:target])
        return target - here

    def _rebuild(self, records: list[Record], actors: list[str | None]) -> None:
        enc = self.enc
        self.enc = Encounter.replay(
            enc.loaded,
            records,
            seed=enc.seed,
            ruleset=enc.ruleset_name,
            control=control_of(enc),
            deciders=self.deciders,
            live=self.live,
        )
        self._actors = actors
        self._sync()

    def sync(self) -> None:
        """Bring the save up to date now (a change of who plays whom: the saver notes it)."""
        self._sync()

    def _sync(self) -> None:
        if self.saver is not None:
            self.saver.sync(self.enc, self._actors)
