"""A fight as a table plays it, for the kill soak: player actions, undo, redo, dice typed in.

Every die is typed in by a "person" (`ManualDice`), every question answered by them, and now
and then they take an action back or put it back again: the save then holds undo markers,
redo records and hand-typed faces, not just what the naive AI does. The person's choices come
from a `random.Random` reseeded before each operation from (seed, the number of lines in the
save): the line count grows with every operation and is what a resumed process reads back, so
a fight killed and resumed at any point goes on exactly as the uninterrupted one.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from engine import autosave
from engine.content.loader import LoadedEncounter
from engine.decisions import Question
from engine.dice import DiceRequest, ManualDice
from engine.encounter import Encounter
from engine.history import History
from tests.support.fights import AI_ONLY, RandomDecider, random_action

MAX_LINES = 90
"""The fight stops here if it hasn't ended (a kill soak wants many short fights)."""


class Table:
    """The person: dice, answers and choices, all from `rng` (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random()
        self._answers = RandomDecider(self.rng)

    def reseed(self, lines: int) -> None:
        self.rng.seed(f"{self.seed}:{lines}")

    def ask(self, request: DiceRequest) -> int:
        return self.rng.randint(1, request.sides)

    def answer(self, q: Question) -> Any:
        return self._answers.answer(q)

    def decider(self, _cid: str) -> Table:
        return self


def save_lines(path: Path) -> int:
    """Complete lines in the save (what the next operation's choices are seeded from)."""
    return path.read_bytes().count(b"\n")


def begin(loaded: LoadedEncounter, table: Table, path: Path) -> History:
    dice = ManualDice(table.ask)
    enc = Encounter.create(loaded, seed=None, dice=dice, control=AI_ONLY, deciders=table.decider)
    return autosave.begin(enc, deciders=table.decider, live=dice, path=path)


def resume(table: Table, path: Path) -> History:
    return autosave.resume(path, deciders=table.decider, live=ManualDice(table.ask))


def step(hist: History, table: Table, path: Path) -> bool:
    """One operation (start, an action, an undo or a redo); False once the fight is done."""
    lines = save_lines(path)
    if hist.enc.over or lines >= MAX_LINES:
        return False
    table.reseed(lines)
    if not hist.records:
        hist.start()
        return True
    roll = table.rng.random()
    if roll < 0.08 and hist.can_undo():
        hist.undo(table.rng.randint(1, 2))
    elif roll < 0.14 and hist.can_redo():
        hist.redo()
    else:
        hist.apply(random_action(hist.enc, table.rng))
    return True
