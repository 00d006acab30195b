"""Bursts and blasts: which squares an area or close attack covers.

Legal targets of area and close powers come from these squares (the engine then picks the
creatures in them). Every area stops at walls and pillars: a square is in the area only if it
has line of effect from the origin (area burst) or from the attacker (close burst, blast).
"""

from __future__ import annotations

from engine.grid.battlemap import BattleMap
from engine.grid.geometry import distance, footprint, squares_within
from engine.grid.sight import line_of_effect
from engine.grid.terrain import Square


def _visible_from(
    bmap: BattleMap, sources: tuple[Square, ...], squares: set[Square]
) -> frozenset[Square]:
    return frozenset(
        sq
        for sq in squares
        if bmap.in_bounds(sq) and not bmap.blocks_sight(sq) and line_of_effect(bmap, sources, (sq,))
    )


def burst_squares(bmap: BattleMap, origin: Square, n: int) -> frozenset[Square]:
    """Area burst n: squares within n of `origin` with line of effect from it (walls out)."""
    return _visible_from(bmap, (origin,), squares_within((origin,), n))


def close_burst_squares(bmap: BattleMap, pos: Square, size: int, n: int) -> frozenset[Square]:
    """Close burst n: within n of the attacker's footprint, line of effect from it.

    The footprint itself is included; whether the attacker is a target is the engine's call.
    """
    own = footprint(pos, size)
    return _visible_from(bmap, own, squares_within(own, n))


def blast_origins(bmap: BattleMap, pos: Square, size: int, n: int) -> list[Square]:
    """Top-left squares of every n x n blast adjacent to the attacker's footprint.

    Adjacent means touching the footprint without overlapping it; blasts with no square on
    the map are left out. Sorted, so callers iterate in a stable order.
    """
    own = footprint(pos, size)
    x0, y0 = pos
    out = []
    for tx in range(x0 - n, x0 + size + 1):
        for ty in range(y0 - n, y0 + size + 1):
            sq = footprint((tx, ty), n)
            if distance(own, sq) != 1:
                continue
            if any(bmap.in_bounds(s) for s in sq):
                out.append((tx, ty))
    return sorted(out)


def blast_squares(
    bmap: BattleMap, pos: Square, size: int, n: int, top_left: Square
) -> frozenset[Square]:
    """The n x n blast at `top_left`: its squares with line of effect from the attacker.

    F-MOD-4 makes the attacker's square next to the blast the origin; line of effect is
    taken from any footprint square, which is the same for a Medium attacker.
    """
    own = footprint(pos, size)
    return _visible_from(bmap, own, set(footprint(top_left, n)))
