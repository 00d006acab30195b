"""Which enemies will come: what each enemy did since the creature's last turn.

Patience (`ai.moving.Patience`) waits at the edge of the enemies' walk so that they come and
take the first blow. That only pays for an enemy that comes. An enemy that took a turn and
got no closer to my side, while my side was hurt (the fight not joined yet, so by shots,
areas or ongoing damage), is left out of the foes patience waits for when either

- one of my side was in its walk (speed plus reach) and it still held: it could have come
  and did not; or
- my side is outshot (the enemies' ranged damage means over ours, `ai.profile`): waiting
  only hands their shooters more free rounds (`crossroads-4srd` against the tactical party,
  issue 15: the goblins held at the edge of Brom's walk, Brom held out of theirs, and Lira,
  Ilsa and Mara shot the goblins).

A holder with none of us in its walk, while the shots are even, is as patient as we are:
it strikes first as soon as we walk into its walk (at the league's `gate` chokepoint,
leaving such holders out lost 70% of the fights against `exposure-x3`). An enemy that held
while nobody hurt us still counts: two sides that both wait lose nothing by waiting (the
idle turns wear the patience off).

The evidence is a `Sighting`, noted in the side's memory at the first decision of each of
the creature's turns (`ai.planner.Planner.begin`): where the log stood and every standing
enemy's footprint. At its next turn the engine's log since then says who took a turn
(`TurnStart`) and whether my side lost hit points (`Damage`); the enemies' squares now say
who came closer. Before its first turn the fight's opening (the log's `EncounterStart`)
stands for the last sighting: in `crossroads-4srd` the goblins, surprised, first act after
the heroes shot them from where they began.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ai.log_index import log_index
from engine.battle import Battle
from engine.events import EncounterStart
from engine.grid.geometry import distance, footprint
from engine.state import Combatant

Footprint = tuple[tuple[int, int], ...]
"""A creature's squares (`engine.grid.geometry.footprint`)."""


@dataclass(frozen=True, slots=True)
class Sighting:
    """The fight as a creature saw it at the start of one of its turns."""

    seq: int
    """The length of the engine's log then."""
    enemies: dict[str, Footprint]
    """Each standing enemy's squares."""


def sighting(b: Battle, me: Combatant) -> Sighting:
    """What `me` sees now (see `Sighting`)."""
    enemies = {e.id: footprint(e.pos, e.size) for e in b.enemies_of(me) if e.standing}
    return Sighting(len(b.log), enemies)


def opening(b: Battle, me: Combatant) -> Sighting | None:
    """The fight as it began (the log's `EncounterStart`): the enemies placed on the map."""
    first = b.log[0].event if b.log else None
    if not isinstance(first, EncounterStart):
        return None
    enemies = {
        str(c["id"]): footprint((int(c["pos"][0]), int(c["pos"][1])), int(c["size"]))
        for c in first.combatants
        if c["side"] != me.side and c.get("arrives_round") is None
    }
    return Sighting(1, enemies)


def gap(squares: Footprint, team: Iterable[Footprint]) -> int:
    """The least distance between a creature's squares and any of the team's (the engine's
    `distance`: Chebyshev, a large creature's whole footprint counted)."""
    if len(squares) != 1 or type(team) is not list or not team:
        return min(distance(squares, other) for other in team)
    # One square against a side's footprints (issue 14): the one-square pairs inline, as
    # `distance` works them out (tests/ai/test_comers_fast.py holds it to the line above).
    ((x, y),) = squares
    best = -1
    for other in team:
        if len(other) == 1:
            ((ox, oy),) = other
            dx = ox - x if ox >= x else x - ox
            dy = oy - y if oy >= y else y - oy
            d = dx if dx >= dy else dy
        else:
            d = distance(squares, other)
        if best < 0 or d < best:
            best = d
    return best


def since(then: Sighting, b: Battle, side: str) -> tuple[set[str], bool]:
    """From the engine's log since `then`: who took a turn, and whether my side (`side`)
    lost hit points."""
    # Read from the log's index (`ai.log_index`: each event read once, not once per
    # decision; tests/ai/test_comers_fast.py holds it to the scan of `b.log[then.seq:]`).
    return log_index(b).since(then.seq, b, side)


def keeping_off(
    then: Sighting | None,
    b: Battle,
    team: Sequence[Combatant],
    enemies: Iterable[Combatant],
    strike: dict[str, int],
    outshot: Callable[[], bool] = lambda: False,
) -> frozenset[str]:
    """The enemies that kept their distance since `then` while my side was hurt: each took a
    turn in which one of my side (`team`, me first, where it now stands) was in its walk
    (`strike`: how far it can walk up and strike, speed plus reach), and got no closer. A
    holder with none of us in its walk is as patient as we are, no evidence. Empty without
    evidence (no sighting, my side unhurt). `outshot`: whether my side is outshot, asked only
    for a holder none of us was near, and once (it reads every creature's powers)."""
    if then is None:
        return frozenset()
    acted, hurt = since(then, b, team[0].side)
    if not hurt:
        return frozenset()
    boxes = [footprint(c.pos, c.size) for c in team]
    out = []
    shots: bool | None = None
    for e in enemies:
        old = then.enemies.get(e.id)
        if old is None or e.id not in acted:
            continue
        was = gap(old, boxes)
        if was > strike.get(e.id, 0):  # none of us in its walk: evidence only if outshot
            if shots is None:  # (asked once, and only here: it reads every creature's powers)
                shots = outshot()
            if not shots:
                continue
        if gap(footprint(e.pos, e.size), boxes) >= was:
            out.append(e.id)
    return frozenset(out)
