"""Exact geometry of lines between square corners (F-MOD-3).

Cover and line of effect are decided by straight lines from corner points (integer
coordinates) to corner points. A line is blocked by a square only if the open segment passes
through that square's interior: a line running exactly along an edge, or touching only a
corner point, is not blocked (F-MOD-3: "a line isn't blocked if it runs along the edge").
Floating point gets exactly those boundary cases wrong, so everything here is integer
arithmetic. Walls and pillars add one rule on top (`wall_seams`): two solid squares side by
side, or touching at a corner, leave no gap for a line to pass between them.

Which squares a segment crosses depends only on the displacement between its ends, so the
expensive part is done once per displacement (`corner_table`) and then translated, which is
what makes the cover check fast.
"""

from __future__ import annotations

from functools import lru_cache
from math import gcd

from engine.grid.terrain import Square

Point = tuple[int, int]
"""A corner point: square (x, y) has corners (x, y), (x+1, y), (x, y+1), (x+1, y+1)."""

# Corner order used for the 4-bit groups in corner tables and cover bitmasks.
CORNER_OFFSETS: tuple[Point, ...] = ((0, 0), (1, 0), (0, 1), (1, 1))


def corners(sq: Square) -> tuple[Point, Point, Point, Point]:
    """The 4 corner points of a square, in `CORNER_OFFSETS` order."""
    x, y = sq
    return (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)


def segment_crosses(p: Point, q: Point, sq: Square) -> bool:
    """Does the segment p-q pass through the interior of square `sq`? (reference test)

    The segment must overlap the square's x and y ranges, and the line through p and q must
    strictly separate two of the square's corners: a line that only touches a corner or runs
    along an edge leaves all corners on one (closed) side.
    """
    (px, py), (qx, qy) = p, q
    dx, dy = qx - px, qy - py
    if dx == 0 or dy == 0:
        # Between integer points such a line runs along grid lines: never through an interior.
        return False
    x, y = sq
    if not (min(px, qx) <= x < max(px, qx) and min(py, qy) <= y < max(py, qy)):
        return False
    sides = [dx * (cy - py) - dy * (cx - px) for cx, cy in corners(sq)]
    return min(sides) < 0 < max(sides)


def crossed_squares(p: Point, q: Point) -> frozenset[Square]:
    """Every square whose interior the segment p-q passes through."""
    return frozenset(_crossed(p, q))


def _crossed(p: Point, q: Point) -> list[Square]:
    (px, py), (qx, qy) = p, q
    if qx < px:
        px, py, qx, qy = qx, qy, px, py
    dx, dy = qx - px, qy - py
    if dx == 0 or dy == 0:
        return []
    out: list[Square] = []
    for cx in range(px, qx):
        # y of the line at both edges of this column, as numerators over dx (dx > 0).
        n0 = py * dx + dy * (cx - px)
        n1 = n0 + dy
        lo, hi = (n0, n1) if n0 < n1 else (n1, n0)
        first = lo // dx  # floor(lo / dx)
        last = -((-hi) // dx) - 1  # ceil(hi / dx) - 1
        out.extend((cx, cy) for cy in range(first, last + 1))
    return out


def wall_seams(p: Point, q: Point) -> list[tuple[Square, Square]]:
    """Pairs of squares that block the segment p-q for line of effect when BOTH are solid.

    Walls and pillars form solid masses, so a line may not slip through one where the
    interior test alone would let it: along the edge shared by two solid squares (the seam
    inside a thick wall), or through the point where two solid squares touch diagonally (a
    wall drawn as a staircase; the movement corner rule closes that gap too). A line along
    the edge of a single solid square, or touching a single corner, stays unblocked (F-MOD-3).
    Squares may be one off the map: the map edge counts as solid.
    """
    (px, py), (qx, qy) = p, q
    dx, dy = qx - px, qy - py
    out: list[tuple[Square, Square]] = []
    if dx == 0 and dy == 0:
        return out
    if dy == 0:
        for cx in range(min(px, qx), max(px, qx)):
            out.append(((cx, py - 1), (cx, py)))
    elif dx == 0:
        for cy in range(min(py, qy), max(py, qy)):
            out.append(((px - 1, cy), (px, cy)))
    g = gcd(abs(dx), abs(dy))
    sx, sy = dx // g, dy // g
    for k in range(1, g):
        x, y = px + k * sx, py + k * sy
        nw, ne, sw, se = (x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)
        # The diagonal pair the line passes between (the other pair's interiors it crosses,
        # unless it is axis-aligned, when it passes between both pairs).
        if sx * sy >= 0:
            out.append((ne, sw))
        if sx * sy <= 0:
            out.append((nw, se))
    return out


CornerTable = tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, int, int, int, int], ...]]
"""(cells, seams): cells as (ox, oy, mask), seams as (ox1, oy1, ox2, oy2, mask)."""


@lru_cache(maxsize=16384)
def corner_table(dx: int, dy: int) -> CornerTable:
    """What blocks the 16 corner-to-corner lines from square (0, 0) to square (dx, dy).

    Offsets are relative to the from-square; bit `4 * i + j` of a mask stands for the line
    from from-corner i to to-corner j (`CORNER_OFFSETS` order). `cells` are the squares whose
    interior a line crosses (the two end squares left out: a creature's own square, or an
    origin square, never blocks its own lines); `seams` are the pairs of `wall_seams`.
    """
    cells: dict[Square, int] = {}
    seams: dict[tuple[Square, Square], int] = {}
    for i, a in enumerate(corners((0, 0))):
        for j, b in enumerate(corners((dx, dy))):
            bit = 1 << (4 * i + j)
            for sq in _crossed(a, b):
                cells[sq] = cells.get(sq, 0) | bit
            for pair in wall_seams(a, b):
                seams[pair] = seams.get(pair, 0) | bit
    cells.pop((0, 0), None)
    cells.pop((dx, dy), None)
    return (
        tuple((ox, oy, m) for (ox, oy), m in sorted(cells.items())),
        tuple((a[0], a[1], b[0], b[1], m) for (a, b), m in sorted(seams.items())),
    )
