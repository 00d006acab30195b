"""The one replay loop: a fight rebuilt from its records, one record at a time.

The engine is event-sourced, so loading a save, undo and redo (`engine.history`), finding
whose turn each record was (`engine.history.trace`) and the replay viewer (`tui.replay`) all
replay records. They all iterate a `Replay`: each step is the record, whose turn it was, the
encounter just after it and the events it caused. `Encounter.replay` is a `Replay` run to
its end.

Each record gets exactly the dice faces and answers it had. Dice asked for after the records
come from `live` (default: the seeded stream, advanced past the replayed rolls so that
redoing an undone action gives the same dice; see `Encounter.replay` for table dice).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from engine.content.loader import LoadedEncounter
from engine.decisions import Decider
from engine.dice import DiceSource, ScriptedDice, SeededDice
from engine.encounter import Encounter, Record, ReplayDice
from engine.events import Logged


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One record replayed."""

    index: int
    """Its position in the records (0 is the start of the fight)."""
    record: Record
    actor: str | None
    """Whose turn it was when the record was applied (None for the start)."""
    enc: Encounter
    """The encounter just after the record (the same object at every step: read it now)."""
    events: list[Logged]
    """The events the record caused."""


class Replay:
    """Iterate to replay `records` step by step; `enc` is the encounter being rebuilt (after
    the iteration ends it holds the records, ready for new actions)."""

    def __init__(
        self,
        loaded: LoadedEncounter,
        records: Sequence[Record],
        *,
        seed: int | None,
        ruleset: str | None = None,
        control: dict[str, str] | None = None,
        deciders: Callable[[str], Decider] | None = None,
        live: DiceSource | None = None,
        exact: bool = False,
    ) -> None:
        """`exact`: the recorded faces and nothing else (a record that asks for one more die
        raises `DiceExhausted`): for reading a fight back (the viewer, `trace`), never for
        playing on."""
        self.records = list(records)
        faces: list[int] = []
        typed: set[int] = set()  # table play: which faces were typed (the log says so)
        for r in self.records:
            typed.update(len(faces) + i for i in r.typed)
            faces.extend(r.faces)
        source: DiceSource
        if exact:
            source = ScriptedDice(faces)
        else:
            fresh = getattr(live, "fresh", None)
            if callable(fresh):
                live = fresh()
            source = ReplayDice(
                faces,
                live if live is not None else SeededDice(seed or 0),
                advance_live=live is None,
                typed=typed,
            )
        self.enc = Encounter.create(
            loaded, seed=seed, dice=source, deciders=deciders, control=control, ruleset=ruleset
        )

    def __iter__(self) -> Iterator[ReplayStep]:
        enc = self.enc
        b = enc.battle
        try:
            for i, rec in enumerate(self.records):
                b.scripted_answers = list(rec.answers)
                actor = b.current
                if rec.action is None:
                    events = enc.start()
                else:
                    events = enc.apply(rec.action, rec.decision)
                yield ReplayStep(i, rec, actor if rec.action is not None else None, enc, events)
        finally:
            b.scripted_answers = None
        enc.records = list(self.records)

    def run(self) -> Encounter:
        """Replay every record; the rebuilt encounter."""
        for _ in self:
            pass
        return self.enc
