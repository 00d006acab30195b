"""Searches over the map's networkx movement graph that the tactical AI needs every turn.

Two kinds, both plain-Python loops over the engine's movement graph (`graph_of`):

- `DistanceCache`: walking distance from every square to one enemy, capped (2 x speed + reach
  by default), by the engine's own `engine.grid.distance_map`. One map per enemy, shared by
  every creature of a side (the cache lives in the side's policy) and kept while that enemy
  stays where it is. Creatures are ignored in these maps: an approximation that lets one
  enemy's move invalidate only its own map. Maps of fewer than `LAZY_SQUARES` squares are
  searched whole and memoized by the terrain (`terrain_distances`); longer ones (a goal
  across a big map) are `LazyDistances`: the same answers, searched only for the squares
  asked about, by an A* toward them that stops once they are settled (a disc of radius 48
  is 9,000 squares).
- routes (every square a mover can end on, by the least provoking path) are `ai.routes`'s,
  built on this module's `MapGraph` and `neighbours`.
- `path_toward`: an A* walk toward a far-away enemy when it lies beyond the capped maps.

Costs and steps are the engine's (`engine.grid.entry_costs`, `adjacency`, `step_neighbours`:
1, or 2 in difficult terrain, no cut corners); allies may be passed through, enemies may not;
a move may not end in another creature's square. The engine still checks every path the AI
submits.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.grid import (
    BattleMap,
    adjacency,
    distance_map,
    entry_costs,
    line_of_effect,
    step_neighbours,
)

Square = tuple[int, int]
BIG = 1 << 30


@dataclass(frozen=True, slots=True)
class MapGraph:
    """The engine's movement graph as flat lookups (`engine.grid.adjacency`, `entry_costs`):
    square -> neighbours, square -> entry cost; and the map, for the squares off the graph."""

    adj: Mapping[Square, tuple[Square, ...]]
    cost: Mapping[Square, int]
    bmap: BattleMap


def graph_of(bmap: BattleMap) -> MapGraph:
    """The map's movement graph as the engine flattens it (once per map: maps are immutable)."""
    return MapGraph(adjacency(bmap), entry_costs(bmap), bmap)


class Distances(Protocol):
    """A capped distance map as its readers see it: square -> walking cost into the creature,
    None beyond the cap or out of reach (a dict, or a `LazyDistances`)."""

    def get(self, sq: Square, default: None = None, /) -> int | None: ...


LAZY_SQUARES = 2500
"""Distance maps that would hold at least this many squares (the disc within the cap, or
the whole map if smaller) are `LazyDistances` (see the module docstring): on a small map
the A* settles most of it anyway, and costs more a square than the plain search."""


LAZY_SHARE = 0.5
"""A `LazyDistances` searches its whole map once its A* searches have settled this share of
the squares within its cap (several creatures of a side walking toward the same enemy: the
whole map then serves them all; the A* never costs more than about twice the better of the
two)."""


class LazyDistances:
    """A distance map with cap `cap` into `sources` (what `engine.grid.distance_map` returns,
    creatures ignored) whose squares are searched when asked for: `settle(squares)` runs an
    A* from the sources toward the box around the squares not yet known (the Chebyshev
    distance to the box never overestimates: every step moves one square and costs at least
    1), and stops when they are all settled or every path left is longer than the cap. A
    square settled by A* with a consistent estimate has its exact cost (every square a
    search settles is kept, asked for or not: the next search, a second move's squares or
    another creature's, often finds its squares there), so `get` answers as the whole map
    would (`tests/ai/test_terrain_distances.py`). Once its searches have
    spent `LAZY_SHARE` of what the whole map costs, it searches the whole map and reads
    that."""

    __slots__ = ("bmap", "cap", "known", "sources", "spent", "whole")

    def __init__(self, bmap: BattleMap, sources: Sequence[Square], cap: int) -> None:
        self.bmap = bmap
        self.sources = tuple(sources)
        self.cap = cap
        self.known: dict[Square, int | None] = {}
        self.spent = 0
        """Squares the A* searches have settled so far."""
        self.whole: dict[Square, int] | None = None

    def get(self, sq: Square, default: None = None, /) -> int | None:
        whole = self.whole
        if whole is not None:
            return whole.get(sq)
        known = self.known
        if sq not in known:
            self.settle((sq,))
            if self.whole is not None:
                return self.whole.get(sq)
        return known[sq]

    def settled(self, squares: Iterable[Square]) -> Distances:
        """`settle(squares)`, then a plain mapping whose `get` answers as this map's does for
        each of `squares` (the whole map, or the squares known so far: a lookup each with
        no method call, for a loop over a turn's squares). Read-only for callers."""
        self.settle(squares)
        return self.whole if self.whole is not None else self.known

    def settle(self, squares: Iterable[Square]) -> None:
        """Search the cost of every square of `squares` not yet known."""
        if self.whole is not None:
            return
        known = self.known
        todo = {sq for sq in squares if sq not in known}
        if not todo:
            return
        if self.spent >= LAZY_SHARE * whole_size(self.bmap, self.cap):
            self.whole = distance_map(self.bmap, self.sources, self.cap)
            self.known = {}
            return
        self.spent += _astar(self.bmap, self.sources, self.cap, todo, known)


def whole_size(bmap: BattleMap, cap: int) -> int:
    """About how many squares a distance map with cap `cap` holds: the disc within the cap,
    or the map's walkable squares if fewer."""
    side = 2 * cap + 1
    return min(side * side, len(bmap._entry_cost))


def _astar(
    bmap: BattleMap,
    sources: tuple[Square, ...],
    cap: int,
    todo: set[Square],
    known: dict[Square, int | None],
) -> int:
    """`LazyDistances.settle`: the cost of every square of `todo` into `known` (None beyond
    `cap`), by an A* whose estimate is the Chebyshev distance to the box around `todo`.
    Returns how many squares it settled."""
    x0 = min(x for x, _ in todo)
    x1 = max(x for x, _ in todo)
    y0 = min(y for _, y in todo)
    y1 = max(y for _, y in todo)
    nbrs = bmap.nbrs
    cost = bmap._entry_cost
    best: dict[Square, int] = {}
    buckets: list[list[Square]] = [[] for _ in range(cap + 1)]
    for s in sources:
        if s not in best:
            best[s] = 0
            h = _box_gap(s, x0, y0, x1, y1)
            if h <= cap:
                buckets[h].append(s)
    settled = 0
    for f in range(cap + 1):
        bucket = buckets[f]
        while bucket:
            v = bucket.pop()  # the latest first: deeper along the way, among equals
            d = best[v]
            x, y = v
            dx = x0 - x if x < x0 else x - x1 if x > x1 else 0
            dy = y0 - y if y < y0 else y - y1 if y > y1 else 0
            if d + (dx if dx > dy else dy) != f:
                continue  # a cheaper way to v was found after this entry was made
            settled += 1
            known[v] = d  # settled: exact, and kept for the next searches of this map
            if v in todo:
                todo.discard(v)
                if not todo:
                    return settled
            # Walking from u into v costs v's entry cost (as `distance_map` counts it).
            nd = d + cost.get(v, 1)
            if nd > cap:
                continue
            vs = nbrs.get(v)
            if vs is None:
                vs = step_neighbours(bmap, v)
            for u in vs:
                if nd < best.get(u, BIG):
                    best[u] = nd
                    x, y = u
                    dx = x0 - x if x < x0 else x - x1 if x > x1 else 0
                    dy = y0 - y if y < y0 else y - y1 if y > y1 else 0
                    fu = nd + (dx if dx > dy else dy)
                    if fu <= cap:
                        buckets[fu].append(u)
    for sq in todo:
        known[sq] = None
    return settled


def _box_gap(sq: Square, x0: int, y0: int, x1: int, y1: int) -> int:
    """Chebyshev distance from `sq` to the box x0..x1, y0..y1."""
    x, y = sq
    dx = x0 - x if x < x0 else x - x1 if x > x1 else 0
    dy = y0 - y if y < y0 else y - y1 if y > y1 else 0
    return dx if dx > dy else dy


_WARM: set[int] = set()


def warm_lines(radius: int) -> None:
    """Fill the engine's per-displacement line tables (used by every line of effect and cover
    test) for every offset within `radius`, once per process: a long simulation ends up
    with them all anyway, and doing it up front (before the simulator forks its workers)
    keeps the cost out of the decisions and shares it between the processes."""
    radius = max(1, min(radius, 30))
    if radius in _WARM or any(r >= radius for r in _WARM):
        return
    size = 2 * radius + 1
    scratch = BattleMap.from_ascii("\n".join(["." * size] * size))
    here = ((radius, radius),)
    for dx in range(-radius, radius + 1):
        for dy in range(-radius, radius + 1):
            line_of_effect(scratch, here, ((radius + dx, radius + dy),))
    _WARM.add(radius)


def neighbours(mg: MapGraph, sq: Square) -> tuple[Square, ...]:
    """Graph neighbours; a square off the graph (a pit) steps to enterable neighbours (the
    engine's corner rule: `engine.grid.step_neighbours`)."""
    vs = mg.adj.get(sq)
    return vs if vs is not None else step_neighbours(mg.bmap, sq)


class DistanceCache:
    """One capped distance map per enemy position (and size), kept until the enemy moves.

    Caps come in steps of 8, and a map searched with a larger cap serves every smaller one,
    so the creatures of a side share one map per enemy however far each of them stands.
    Each map is tagged with when it was searched (the fight's record count): `rollback`
    forgets the maps searched after a point an undo went back to, so that what a decision
    finds here depends only on the fight up to now.
    """

    STEP = 8

    def __init__(self, limit: int = 96) -> None:
        self._maps: dict[tuple[Square, int], list[tuple[int, int, Distances]]] = {}
        self._bmap: BattleMap | None = None
        self._limit = limit
        self.computed = 0
        """How many maps were searched (for tests and the benchmark)."""

    def get(self, bmap: BattleMap, pos: Square, size: int, cap: int, tag: int = 0) -> Distances:
        """Square -> walking cost into the creature at `pos`, for every square within `cap`
        (and possibly more). `tag`: the fight's record count now."""
        if self._bmap is not bmap:
            self._maps.clear()
            self._bmap = bmap
        key = (pos, size)
        versions = self._maps.get(key)
        if versions and versions[-1][1] >= cap:
            return versions[-1][2]
        if versions is None and len(self._maps) >= self._limit:
            self._maps.clear()
        cap = -(-cap // self.STEP) * self.STEP
        dm: Distances
        if whole_size(bmap, cap) >= LAZY_SQUARES:
            x, y = pos
            sources = [(x + i, y + j) for j in range(size) for i in range(size)]
            dm = LazyDistances(bmap, sources, cap)
        else:
            dm = terrain_distances(bmap, pos, size, cap)
        self._maps.setdefault(key, []).append((tag, cap, dm))
        self.computed += 1
        return dm

    def rollback(self, tag: int) -> None:
        """Forget the maps searched after record count `tag` (an undo went back there)."""
        for key in list(self._maps):
            versions = self._maps[key]
            while versions and versions[-1][0] > tag:
                versions.pop()
            if not versions:
                del self._maps[key]


DIST_MEMO_SQUARES = 200_000
"""Squares held by one terrain's distance maps (`terrain_distances`) past which they are
dropped wholesale (about 6 MB at most, 31 bytes a square; a refill only recomputes)."""
_DIST_KEY = "ai.distances"


class _DistMemo:
    """One terrain's distance maps by (position, size, cap), and how many squares they hold."""

    __slots__ = ("held", "maps")

    def __init__(self) -> None:
        self.maps: dict[tuple[Square, int, int], dict[Square, int]] = {}
        self.held = 0


def terrain_distances(bmap: BattleMap, pos: Square, size: int, cap: int) -> dict[Square, int]:
    """`engine.grid.distance_map` into the creature of `size` at `pos` (creatures ignored),
    memoized by the terrain (`BattleMap.tables`): a pure function of the terrain, so every
    side, fight and map drawn the same shares it (the fights of a simulation start from the
    same squares). Read-only for callers."""
    extra = bmap.tables.extra
    memo: _DistMemo | None = extra.get(_DIST_KEY)
    if memo is None:
        memo = extra[_DIST_KEY] = _DistMemo()
    key = (pos, size, cap)
    dm = memo.maps.get(key)
    if dm is not None:
        return dm
    x, y = pos
    sources = [(x + i, y + j) for j in range(size) for i in range(size)]
    dm = distance_map(bmap, sources, cap)
    if memo.held + len(dm) > DIST_MEMO_SQUARES:
        memo.maps.clear()
        memo.held = 0
    memo.held += len(dm)
    memo.maps[key] = dm
    return dm


def path_toward(
    mg: MapGraph,
    start: Square,
    goals: set[Square],
    blocked: frozenset[Square] | set[Square],
    target: Square,
    limit: int = 4000,
) -> list[Square] | None:
    """A* from `start` to the nearest of `goals` (Chebyshev heuristic toward `target`),
    passing through anything not `blocked`; None when no goal is found within `limit` pops."""
    if not goals:
        return None
    tx, ty = target
    best: dict[Square, int] = {start: 0}
    prev: dict[Square, Square | None] = {start: None}
    heap: list[tuple[int, int, Square]] = [(0, 0, start)]
    adj = mg.adj
    cost = mg.cost
    push = heapq.heappush
    pop = heapq.heappop
    pops = 0
    while heap and pops < limit:
        _, d, u = pop(heap)
        pops += 1
        if u in goals:
            path = [u]
            p = prev[u]
            while p is not None:
                path.append(p)
                p = prev[p]
            path.reverse()
            return path
        if d > best[u]:
            continue
        vs = adj.get(u)
        if vs is None:
            vs = neighbours(mg, u)
        for v in vs:
            if v in blocked:
                continue
            nd = d + cost[v]
            if nd < best.get(v, BIG):
                best[v] = nd
                prev[v] = u
                dx = v[0] - tx
                dy = v[1] - ty
                if dx < 0:
                    dx = -dx
                if dy < 0:
                    dy = -dy
                push(heap, (nd + (dx if dx > dy else dy), nd, v))
    return None
