"""What a side (or a set of creatures) can know about every creature in a fight.

A player, or a seat at a table, is shown only what their creatures could know (design.md, "The
table"); the GM and an all-AI watcher see everything, but want to know what is hidden from
whom. This module is the one owner of that question, a pure function of the battle state.

The rules it reads:
- F-MOD-11: an invisible creature can't be seen by normal vision.
- F-MOD-8 / F-MOD-10: a creature in a totally obscured square (darkness), or in a heavily
  obscured square not adjacent to the viewer, can't be seen (total concealment); lightly
  obscured squares and adjacent heavy fog only conceal, the creature is still seen (F-MOD-7).
- Blinded and unconscious viewers see nothing (the `cant_see` condition flag).
- A viewer needs line of sight: walls and pillars block it, obscurement does not (F-MOD-10).
- F-MOD-12: a creature that can't be seen is targeted by picking a square; what a side has
  is where it last saw it. `knowledge(..., previous=...)` carries that "last seen" square from
  one call to the next, so a caller that keeps the previous answer gets the memory for free.

The viewers' own side is always known (allies tell each other where they are).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from engine.attacks import can_see
from engine.battle import Battle
from engine.grid import Obscured, line_of_sight
from engine.state import Combatant

Square = tuple[int, int]
Sight = Literal["own", "seen", "hidden"]
"""own: on the viewers' side; seen: some viewer sees it now; hidden: no viewer does."""
HiddenBy = Literal["invisible", "darkness", "obscured", "no line of sight", "blinded"]
"""Why no viewer sees it (the first reason found for the viewer nearest to seeing it)."""


@dataclass(frozen=True, slots=True)
class Known:
    """What the viewers know about one creature."""

    id: str
    sight: Sight
    square: Square | None
    """Where it is (own, seen) or where it was last seen (hidden); None: never seen."""
    hidden_by: HiddenBy | None = None
    """Why it is hidden now (None unless `sight` is hidden)."""

    @property
    def visible(self) -> bool:
        return self.sight != "hidden"


def sees(battle: Battle, viewer: Combatant, target: Combatant) -> bool:
    """Can `viewer` see `target` now (F-MOD-8, F-MOD-10, F-MOD-11, line of sight)?"""
    return hidden_reason(battle, viewer, target) is None


def hidden_reason(battle: Battle, viewer: Combatant, target: Combatant) -> HiddenBy | None:
    """Why `viewer` can't see `target`, or None when it can."""
    if viewer.state == "dead" or battle.flag(viewer, "cant_see"):
        return "blinded"
    if battle.has(target, "invisible"):
        return "invisible"
    v_sq, t_sq = battle.squares(viewer), battle.squares(target)
    if not can_see(battle, viewer, target):
        dark = all(battle.map.cell(sq).obscured is Obscured.TOTAL for sq in t_sq)
        return "darkness" if dark else "obscured"
    if not line_of_sight(battle.map, v_sq, t_sq):
        return "no line of sight"
    return None


def side_viewers(battle: Battle, side: str) -> tuple[str, ...]:
    """The ids of every creature on `side` (the viewers of a side's view)."""
    return tuple(c.id for c in battle.combatants.values() if c.side == side)


def knowledge(
    battle: Battle,
    viewers: Iterable[str],
    previous: Mapping[str, Known] | None = None,
) -> dict[str, Known]:
    """What the creatures `viewers` (ids) know about every creature, by id.

    `previous`: the answer of an earlier call for the same viewers, for the last-seen squares
    of creatures hidden now. Nothing in the battle changes."""
    ids = set(viewers)
    mine = [battle[cid] for cid in ids]
    sides = {c.side for c in mine}
    out: dict[str, Known] = {}
    for c in battle.combatants.values():
        if c.id in ids or c.side in sides:
            out[c.id] = Known(c.id, "own", c.pos)
            continue
        reason = _best_reason(battle, mine, c)
        if reason is None:
            out[c.id] = Known(c.id, "seen", c.pos)
            continue
        before = (previous or {}).get(c.id)
        last = before.square if before is not None else None
        out[c.id] = Known(c.id, "hidden", last, reason)
    return out


def side_knowledge(
    battle: Battle, side: str, previous: Mapping[str, Known] | None = None
) -> dict[str, Known]:
    """`knowledge` for every creature on `side`."""
    return knowledge(battle, side_viewers(battle, side), previous)


def _best_reason(battle: Battle, viewers: list[Combatant], target: Combatant) -> HiddenBy | None:
    """None if any viewer sees `target`; else the reason most about the target itself
    (invisibility before darkness before fog before walls before the viewers' blindness)."""
    best: HiddenBy | None = None
    for v in viewers:
        reason = hidden_reason(battle, v, target)
        if reason is None:
            return None
        if best is None or _RANK[reason] < _RANK[best]:
            best = reason
    return best or "blinded"


# What to report when viewers disagree: the reason most specific to the target wins.
_RANK: dict[HiddenBy, int] = {
    "invisible": 0,
    "darkness": 1,
    "obscured": 2,
    "no line of sight": 3,
    "blinded": 4,
}
