"""The single-square fast path of `engine.grid.movement.reachable` (issue 14) against the plain
Dijkstra it replaced, and the map's `flat` squares (derived once per map) against the terrain.

The fast path skips squares at the budget, and steps out of a square whose neighbours all cost
1 without looking their costs up (`BattleMap.flat`). It must give the very same reach map:
the same costs, the same predecessors and the same order (callers iterate over it), on random
maps with difficult terrain, walls, pits, and allies and enemies of one or two squares a side.
"""

from __future__ import annotations

import heapq

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grid import BattleMap, Occupancy, Occupant, footprint, reachable
from engine.grid.movement import ReachMap, _stepper

Sq = tuple[int, int]
SIDE = "pcs"


@st.composite
def worlds(draw: st.DrawFn) -> tuple[BattleMap, Occupancy, Sq]:
    """A random map, a mover "me" on an enterable square, allies and enemies, some Large."""
    w, h = draw(st.integers(2, 12)), draw(st.integers(2, 12))
    rows = ["".join(draw(st.sampled_from("......~~#O=^")) for _ in range(w)) for _ in range(h)]
    rows[0] = "." + rows[0][1:]
    bmap = BattleMap.from_ascii(rows)
    free = [s for s in bmap.squares() if bmap.entry_cost(s)]
    start = draw(st.sampled_from(free))
    taken = {start}
    occ = [Occupant("me", SIDE, start)]
    for i, (sq, size) in enumerate(
        draw(st.lists(st.tuples(st.sampled_from(free), st.sampled_from([1, 1, 2])), max_size=6))
    ):
        squares = set(footprint(sq, size))
        if squares & taken or not all(bmap.entry_cost(s) for s in squares):
            continue
        taken |= squares
        occ.append(Occupant(f"c{i}", draw(st.sampled_from([SIDE, "monsters"])), sq, size))
    return bmap, Occupancy.of(occ), start


def plain_dijkstra(bmap: BattleMap, start: Sq, budget: int, occ: Occupancy) -> ReachMap:
    """`reachable` as it was before the fast path: every step's cost looked up."""
    enemies, _ = occ.split_for("me", SIDE)
    step = _stepper(bmap, 1, enemies)
    best = {start: 0}
    out: ReachMap = {start: (0, None)}
    heap = [(0, start)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > best[u]:
            continue
        for v, c in step(u):
            nd = d + c
            if nd <= budget and nd < best.get(v, 1 << 30):
                best[v] = nd
                out[v] = (nd, u)
                heapq.heappush(heap, (nd, v))
    return out


@settings(max_examples=300, deadline=None)
@given(worlds(), st.integers(0, 14))
def test_fast_reachable_is_the_plain_dijkstra_in_the_same_order(
    world: tuple[BattleMap, Occupancy, Sq], budget: int
) -> None:
    bmap, occ, start = world
    fast = reachable(bmap, start, budget, "me", SIDE, 1, occ)
    assert list(fast.items()) == list(plain_dijkstra(bmap, start, budget, occ).items())


@settings(max_examples=200, deadline=None)
@given(worlds())
def test_flat_squares_are_those_whose_neighbours_all_cost_one(
    world: tuple[BattleMap, Occupancy, Sq],
) -> None:
    bmap = world[0]
    expected = {u for u, vs in bmap.nbrs.items() if all(bmap.entry_cost(v) == 1 for v in vs)}
    assert bmap.flat == expected
    assert bmap.flat is bmap.flat  # derived once per map
