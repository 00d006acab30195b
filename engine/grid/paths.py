"""Checking a path a player (or the AI) proposes, with a reason a person can read.

The engine refuses an illegal move with a reason and changes nothing; the reason is built
here, naming the step, the squares and what is wrong ("step 3 (5,4)->(6,5) cuts the corner of
a wall at (6,4)"), so that the UI can show it as is.

Modes: `walk` and `run` are checked the same way (the caller passes speed, or speed + 2 for a
run, as the budget). `shift` must be exactly one square; a shift into difficult terrain costs
2 squares of movement, so it is legal only when the budget is at least 2 (a speed-1 creature
cannot shift into difficult terrain).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.grid.battlemap import BattleMap
from engine.grid.geometry import chebyshev, footprint
from engine.grid.occupancy import OccupancyLike, as_occupancy
from engine.grid.terrain import Square, Terrain
from engine.refusals import Refusal

MoveMode = Literal["walk", "run", "shift"]


@dataclass(frozen=True, slots=True)
class PathCheck:
    """Outcome of a path check: `index` is the position in the path where it went wrong."""

    ok: bool
    cost: int
    reason: str | None = None
    index: int | None = None
    code: Refusal | None = None
    """Why, as a refusal code (None when `ok`)."""


def fmt(sq: Square) -> str:
    """A square as the messages write it: (x,y)."""
    return f"({sq[0]},{sq[1]})"


_TERRAIN_NAMES = {
    Terrain.WALL: "a wall",
    Terrain.PILLAR: "a pillar",
    Terrain.OBSTACLE: "an obstacle",
    Terrain.PIT: "a pit",
}


def _blocker(bmap: BattleMap, squares: Sequence[Square]) -> tuple[Square, str] | None:
    for s in squares:
        if not bmap.in_bounds(s):
            return s, "the edge of the map"
        if bmap.blocks_movement(s):
            return s, _TERRAIN_NAMES[bmap.cell(s).terrain]
    return None


def validate_path(
    bmap: BattleMap,
    path: Sequence[Square],
    mover_id: str,
    mover_side: str,
    size: int = 1,
    occupancy: OccupancyLike | None = None,
    budget: int | None = None,
    mode: MoveMode = "walk",
) -> PathCheck:
    """Check a move from `path[0]` (the mover's position, top-left) along `path`.

    Each step goes to one of the 8 neighbours, enters no blocking terrain or pit, cuts no
    corner of movement-blocking terrain, enters no enemy's square, and the move ends in no
    other creature's square; the summed entry costs must not exceed `budget` (None: no limit).
    """
    if not path:
        return PathCheck(False, 0, "empty path", None, Refusal.BAD_PATH)
    if mode == "shift" and len(path) != 2:
        return PathCheck(
            False, 0, f"a shift moves exactly 1 square, not {len(path) - 1}", None, Refusal.BAD_PATH
        )
    occ = as_occupancy(occupancy)
    cost = 0
    over_at: int | None = None
    for k in range(1, len(path)):
        u, v = path[k - 1], path[k]
        head = f"step {k} {fmt(u)}->{fmt(v)}"
        if chebyshev(u, v) != 1:
            return PathCheck(False, cost, f"{head}: not adjacent", k, Refusal.BAD_PATH)
        here = set(footprint(u, size))
        new = [s for s in footprint(v, size) if s not in here]
        hit = _blocker(bmap, new)
        if hit is not None:
            sq, what = hit
            verb = "enters a pit" if what == "a pit" else f"runs into {what}"
            where = "" if what == "the edge of the map" else f" at {fmt(sq)}"
            return PathCheck(False, cost, f"{head} {verb}{where}", k, Refusal.BLOCKED)
        dx, dy = v[0] - u[0], v[1] - u[1]
        if dx and dy:
            sides = footprint((u[0] + dx, u[1]), size) + footprint((u[0], u[1] + dy), size)
            hit = _blocker(bmap, sides)
            if hit is not None:
                sq, what = hit
                why = f"{head} cuts the corner of {what} at {fmt(sq)}"
                return PathCheck(False, cost, why, k, Refusal.BLOCKED)
        for s in new:
            oid = occ.at(s)
            if oid is not None and oid != mover_id and occ.side_of(oid) != mover_side:
                why = f"{head}: {fmt(s)} is occupied by an enemy ({oid})"
                return PathCheck(False, cost, why, k, Refusal.OCCUPIED)
        cost += max(bmap._entry_cost[s] for s in new)
        if budget is not None and cost > budget and over_at is None:
            over_at = k
    last = len(path) - 1
    for s in footprint(path[-1], size):
        oid = occ.at(s)
        if oid is not None and oid != mover_id:
            return PathCheck(
                False, cost, f"may not end in an ally's square ({oid})", last, Refusal.OCCUPIED
            )
    if over_at is not None:
        return PathCheck(
            False, cost, f"cost {cost} exceeds speed {budget}", over_at, Refusal.TOO_FAR
        )
    return PathCheck(True, cost, None, None)
