"""Push, pull and slide: the legal squares of forced movement (F-DMG-11, S-12).

Forced movement is moved square by square by whoever forces it, so the helpers here answer
"where may the next square go" and "is this whole forced path legal". Differences from a
walk: difficult terrain costs nothing extra (each square is 1), allies give no passage (the
target cannot enter any other creature's square), and pits may be entered: the engine then
offers the S-12 saving throw to fall prone at the edge instead, or applies the fall.
Walls, pillars, low obstacles and the map edge stop it, and a diagonal step may not cut the
corner of a wall, pillar or obstacle.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from engine.grid.battlemap import BattleMap
from engine.grid.geometry import STEPS, distance, footprint
from engine.grid.occupancy import OccupancyLike, as_occupancy
from engine.grid.paths import PathCheck, fmt
from engine.grid.terrain import COVER_BLOCKING, Square, Terrain

ForcedKind = Literal["push", "pull", "slide"]


def _open(bmap: BattleMap, squares: Sequence[Square]) -> bool:
    # Pits are open to forced movement; solid terrain and the map edge are not.
    return all(bmap.in_bounds(s) and bmap.cell(s).terrain not in COVER_BLOCKING for s in squares)


def forced_steps(
    bmap: BattleMap,
    kind: ForcedKind,
    source_squares: Sequence[Square],
    target_pos: Square,
    size: int = 1,
    occupancy: OccupancyLike | None = None,
    target_id: str = "",
) -> list[Square]:
    """Legal next positions (top-left) for one square of forced movement of the target.

    push: strictly farther from `source_squares` (the pusher's footprint, or the origin
    square) than now; pull: strictly closer; slide: any neighbour. A returned square may be a
    pit: check `bmap.cell(sq).terrain is Terrain.PIT` (S-12).
    """
    occ = as_occupancy(occupancy)
    here = footprint(target_pos, size)
    now = distance(source_squares, here)
    x, y = target_pos
    out = []
    for dx, dy in STEPS:
        pos = (x + dx, y + dy)
        squares = footprint(pos, size)
        if not _open(bmap, squares):
            continue
        if any(occ.at(s) not in (None, target_id) for s in squares):
            continue
        if (
            dx
            and dy
            and not (
                _open(bmap, footprint((x + dx, y), size))
                and _open(bmap, footprint((x, y + dy), size))
            )
        ):
            continue
        if kind != "slide":
            d = distance(source_squares, squares)
            if (kind == "push" and d <= now) or (kind == "pull" and d >= now):
                continue
        out.append(pos)
    return out


def forced_path_ok(
    bmap: BattleMap,
    kind: ForcedKind,
    source_squares: Sequence[Square],
    path: Sequence[Square],
    max_squares: int,
    size: int = 1,
    occupancy: OccupancyLike | None = None,
    target_id: str = "",
) -> PathCheck:
    """Check a whole forced path: `path[0]` is where the target stands; at most `max_squares`.

    Each step must be one of `forced_steps` from the previous position; the path stops at a
    pit (the target falls or saves at the edge, so it cannot be moved on). `cost` is the
    number of squares moved.
    """
    if not path:
        return PathCheck(False, 0, "empty path", None)
    moved = len(path) - 1
    if moved > max_squares:
        return PathCheck(False, 0, f"{kind} moves {moved} squares, more than {max_squares}", None)
    occ = as_occupancy(occupancy)
    for k in range(1, len(path)):
        u, v = path[k - 1], path[k]
        if k > 1 and any(
            bmap.in_bounds(s) and bmap.cell(s).terrain is Terrain.PIT for s in footprint(u, size)
        ):
            return PathCheck(False, k - 1, f"the {kind} ends in the pit at {fmt(u)}", k)
        if v not in forced_steps(bmap, kind, source_squares, u, size, occ, target_id):
            why = {"push": "farther from", "pull": "closer to", "slide": "open next to"}[kind]
            return PathCheck(
                False,
                k - 1,
                f"step {k} {fmt(u)}->{fmt(v)} is not a legal {kind} ({fmt(v)} must be an open "
                f"square {why} the source)",
                k,
            )
    return PathCheck(True, moved, None, None)
