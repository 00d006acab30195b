"""Exact line geometry, checked against a slow independent reference (F-MOD-3).

The reference walks each segment with `Fraction` parameters: it splits the segment wherever it
meets a grid line and classifies each piece by its midpoint (inside a square, or along an
edge), and each grid point it passes. The engine uses a column walk and precomputed tables
instead; Hypothesis checks that both agree on random segments, maps and creatures.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grid import (
    BattleMap,
    Terrain,
    corners,
    cover,
    crossed_squares,
    line_of_effect,
    segment_crosses,
)

Sq = tuple[int, int]


def ref_walk(p: Sq, q: Sq) -> tuple[set[Sq], set[tuple[Sq, Sq]], set[Sq]]:
    """(squares whose interior the open segment crosses, edges it runs along as the pair of
    squares sharing them, grid points strictly inside it)."""
    (px, py), (qx, qy) = p, q
    dx, dy = qx - px, qy - py
    if dx == 0 and dy == 0:
        return set(), set(), set()
    ts = {Fraction(0), Fraction(1)}
    if dx:
        ts.update(Fraction(k - px, dx) for k in range(min(px, qx), max(px, qx) + 1))
    if dy:
        ts.update(Fraction(k - py, dy) for k in range(min(py, qy), max(py, qy) + 1))
    order = sorted(t for t in ts if 0 <= t <= 1)
    interiors: set[Sq] = set()
    edges: set[tuple[Sq, Sq]] = set()
    points: set[Sq] = set()
    for t0, t1 in itertools.pairwise(order):
        tm = (t0 + t1) / 2
        mx, my = px + tm * dx, py + tm * dy
        fx, fy = mx.numerator // mx.denominator, my.numerator // my.denominator
        if mx.denominator != 1 and my.denominator != 1:
            interiors.add((fx, fy))
        elif my.denominator == 1:
            edges.add(((fx, fy - 1), (fx, fy)))
        else:
            edges.add(((fx - 1, fy), (fx, fy)))
    for t in order[1:-1]:
        x, y = px + t * dx, py + t * dy
        if x.denominator == 1 and y.denominator == 1:
            points.add((int(x), int(y)))
    return interiors, edges, points


def ref_blocked(
    bmap: BattleMap, p: Sq, q: Sq, ends: set[Sq], blockers: frozenset[Sq]
) -> tuple[bool, bool]:
    """(blocked for cover, blocked for effect) of one line, straight from the rules."""

    def solid(sq: Sq) -> bool:  # walls, pillars and the map edge are solid masses
        return not bmap.in_bounds(sq) or bmap.cell(sq).terrain in (Terrain.WALL, Terrain.PILLAR)

    interiors, edges, points = ref_walk(p, q)
    interiors -= ends
    wall = any(solid(s) for s in interiors)
    wall = wall or any(solid(a) and solid(b) for a, b in edges)
    for x, y in points:
        nw, ne, sw, se = (x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)
        wall = wall or (solid(nw) and solid(se)) or (solid(ne) and solid(sw))
    low = any(bmap.cell(s).terrain is Terrain.OBSTACLE or s in blockers for s in interiors)
    return wall or low, wall


def ref_cover(
    bmap: BattleMap, attacker: list[Sq], target: list[Sq], blockers: frozenset[Sq]
) -> str:
    best = 3
    for a in attacker:
        for t in target:
            for c in corners(a):
                lines = [ref_blocked(bmap, c, d, {a, t}, blockers) for d in corners(t)]
                n = sum(cov for cov, _ in lines)
                if n == 0:
                    level = 0
                elif n <= 2:
                    level = 1
                else:
                    level = 2 if not all(eff for _, eff in lines) else 3
                best = min(best, level)
    return ("none", "cover", "superior", "blocked")[best]


def ref_line_of_effect(bmap: BattleMap, a: Sq, t: Sq) -> bool:
    return any(
        not ref_blocked(bmap, c, d, {a, t}, frozenset())[1] for c in corners(a) for d in corners(t)
    )


points = st.tuples(st.integers(-6, 6), st.integers(-6, 6))


@given(points, points)
def test_crossed_squares_match_reference(p: Sq, q: Sq) -> None:
    assert crossed_squares(p, q) == ref_walk(p, q)[0]
    assert crossed_squares(p, q) == crossed_squares(q, p)


@given(points, points, points)
def test_segment_crosses_matches_crossed_squares(p: Sq, q: Sq, sq: Sq) -> None:
    assert segment_crosses(p, q, sq) == (sq in crossed_squares(p, q))


def test_F_MOD_3_edges_and_corners_do_not_block() -> None:
    # Along an edge: not through either square sharing it.
    assert crossed_squares((0, 1), (5, 1)) == frozenset()
    # Through a corner point only: the squares touched at that corner are not crossed.
    assert crossed_squares((0, 0), (2, 2)) == {(0, 0), (1, 1)}
    assert not segment_crosses((0, 0), (2, 2), (1, 0))
    assert not segment_crosses((0, 0), (2, 2), (0, 1))
    # A shallow line crosses exactly the squares it passes through.
    assert crossed_squares((0, 0), (3, 1)) == {(0, 0), (1, 0), (2, 0)}
    assert crossed_squares((0, 0), (2, 3)) == {(0, 0), (0, 1), (1, 1), (1, 2)}


def test_a_thick_wall_has_no_seams_to_see_through() -> None:
    m = BattleMap.from_ascii(
        """
        ..#..
        ..#..
        ..#..
        """
    )
    # Row 1 to row 1: the horizontal lines run along the seams between wall squares.
    assert not line_of_effect(m, [(0, 1)], [(4, 1)])
    assert cover(m, [(0, 1)], [(4, 1)]) == "blocked"
    # The top row: the line along the map edge is along the wall's edge and the map edge.
    assert not line_of_effect(m, [(0, 0)], [(4, 0)])


def test_a_diagonal_wall_is_solid() -> None:
    m = BattleMap.from_ascii(
        """
        ....#
        ...#.
        ..#..
        .#...
        #....
        """
    )
    assert not line_of_effect(m, [(1, 1)], [(3, 3)])
    assert not line_of_effect(m, [(0, 0)], [(4, 4)])
    assert line_of_effect(m, [(0, 0)], [(3, 0)])


@st.composite
def maps(draw: st.DrawFn) -> BattleMap:
    w = draw(st.integers(2, 8))
    h = draw(st.integers(2, 8))
    rows = ["".join(draw(st.sampled_from("....#O=~,")) for _ in range(w)) for _ in range(h)]
    return BattleMap.from_ascii(rows)


@pytest.mark.slow  # 300 random maps
@settings(max_examples=300, deadline=None)
@given(maps(), st.data())
def test_cover_and_effect_match_reference_on_random_maps(
    bmap: BattleMap, data: st.DataObject
) -> None:
    squares = bmap.squares()
    a = data.draw(st.sampled_from(squares))
    t = data.draw(st.sampled_from(squares))
    blockers = frozenset(data.draw(st.lists(st.sampled_from(squares), max_size=4)))
    assert cover(bmap, [a], [t], blockers=blockers) == ref_cover(bmap, [a], [t], blockers)
    assert cover(bmap, [a], [t]) == ref_cover(bmap, [a], [t], frozenset())
    assert line_of_effect(bmap, [a], [t]) == ref_line_of_effect(bmap, a, t)


@pytest.mark.slow  # 100 random maps
@settings(max_examples=100, deadline=None)
@given(maps(), st.data())
def test_large_creatures_cover_matches_reference(bmap: BattleMap, data: st.DataObject) -> None:
    xs = st.integers(0, bmap.width - 2)
    ys = st.integers(0, bmap.height - 2)
    ax, ay, tx, ty = data.draw(xs), data.draw(ys), data.draw(xs), data.draw(ys)
    big_a = [(ax, ay), (ax + 1, ay), (ax, ay + 1), (ax + 1, ay + 1)]
    big_t = [(tx, ty), (tx + 1, ty), (tx, ty + 1), (tx + 1, ty + 1)]
    assert cover(bmap, big_a, big_t) == ref_cover(bmap, big_a, big_t, frozenset())
