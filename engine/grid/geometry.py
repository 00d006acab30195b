"""Distances, footprints and adjacency on the square grid.

4e counts a diagonal step as 1 square, so distance is Chebyshev. Creatures bigger than Medium
occupy several squares (a footprint); every distance between creatures is the shortest
distance between any square of one and any square of the other, which is what reach, range,
adjacency and flanking all need.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.grid.terrain import Square

STEPS: tuple[Square, ...] = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
"""The 8 one-square moves, in a fixed order so that every search is deterministic."""


def chebyshev(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def footprint(pos: Square, size: int = 1) -> tuple[Square, ...]:
    """Squares of a creature `size` squares per side whose top-left square is `pos`."""
    x, y = pos
    if size == 1:
        return (pos,)
    return tuple((x + i, y + j) for j in range(size) for i in range(size))


def distance(a_squares: Iterable[Square], b_squares: Iterable[Square]) -> int:
    """Least Chebyshev distance between any square of `a_squares` and any of `b_squares`."""
    if (
        type(a_squares) is tuple
        and type(b_squares) is tuple
        and len(a_squares) == 1
        and len(b_squares) == 1
    ):
        # Two single-square creatures: most calls on the hot path (issue 14); the same
        # answer as the loop below (tests/engine/test_geometry_fast.py pins it).
        (ax, ay), (bx, by) = a_squares[0], b_squares[0]
        dx = ax - bx if ax >= bx else bx - ax
        dy = ay - by if ay >= by else by - ay
        return dx if dx >= dy else dy
    bs = b_squares if type(b_squares) is tuple else tuple(b_squares)
    best: int | None = None
    for ax, ay in a_squares:
        for bx, by in bs:
            d = max(abs(ax - bx), abs(ay - by))
            if best is None or d < best:
                best = d
    if best is None:
        raise ValueError("distance() needs at least one square on each side")
    return best


def adjacent(a_squares: Iterable[Square], b_squares: Iterable[Square]) -> bool:
    """True when the two groups are exactly 1 square apart (touching, not overlapping)."""
    if (
        type(a_squares) is tuple
        and type(b_squares) is tuple
        and len(a_squares) == 1
        and len(b_squares) == 1
    ):  # two single squares (flanking asks for every ally): `distance`'s fast path, inlined
        (ax, ay), (bx, by) = a_squares[0], b_squares[0]
        dx, dy = ax - bx, ay - by
        return -1 <= dx <= 1 and -1 <= dy <= 1 and (dx != 0 or dy != 0)
    return distance(a_squares, b_squares) == 1


def in_range(attacker_squares: Iterable[Square], target_squares: Iterable[Square], n: int) -> bool:
    """Is some target square within `n` squares of some attacker square?"""
    return distance(attacker_squares, target_squares) <= n


def squares_within(squares: Sequence[Square], n: int) -> set[Square]:
    """Every square (on or off any map) within `n` of some square of `squares`."""
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    # A footprint is a rectangle, so its n-neighbourhood is its bounding box grown by n.
    if len(set(squares)) == (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1):
        return {
            (x, y)
            for x in range(min(xs) - n, max(xs) + n + 1)
            for y in range(min(ys) - n, max(ys) + n + 1)
        }
    out: set[Square] = set()
    for sx, sy in squares:
        out.update((x, y) for x in range(sx - n, sx + n + 1) for y in range(sy - n, sy + n + 1))
    return out
