"""Where a fight stands, in terms that survive undo, redo, save and resume.

Undo and redo rebuild the `Encounter` from its records (`engine.history`), and resuming a save
replays them in another process: the object changes, the fight doesn't. Anything that keeps
memory across calls (the AI's plan for the rest of a turn, what each creature did in its
earlier turns) keys it by a `FightPoint`: which fight (its content, ruleset, seed and opening
rolls, all equal in a replay), whose turn (the engine's turn counter) and how many actions
have been recorded. An undo shows as fewer records (or an earlier turn); a different fight as
another `fight`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.encounter import Encounter

FightKey = tuple[Any, ...]
"""Equal for two encounters exactly when they are the same fight (replays included)."""


@dataclass(frozen=True, slots=True)
class FightPoint:
    fight: FightKey
    turn: int
    """The engine's turn counter: every turn started in the fight, delays included."""
    actor: str | None
    """The creature whose turn it is (None before the start and after the end)."""
    records: int
    """Actions recorded so far (the start counts as one)."""


def fight_key(enc: Encounter) -> FightKey:
    """The identity of `enc`'s fight: content, ruleset, seed and the opening record (surprise
    and initiative rolls), which a replay reproduces and another fight almost never does."""
    opening = enc.records[0] if enc.records else None
    return (enc.loaded.content_hash, enc.ruleset_name, enc.seed, opening)


def fight_point(enc: Encounter) -> FightPoint:
    """Where `enc` stands now (reads only)."""
    b = enc.battle
    return FightPoint(fight_key(enc), b.turn_counter, b.current, len(enc.records))
