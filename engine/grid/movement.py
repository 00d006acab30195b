"""Where a creature can walk, and the cheapest way there, over the map's movement graph.

The map's movement graph (built once per map, see `battlemap`: `BattleMap.nbrs`, the adjacency
the searches read, and `BattleMap.graph`, the same graph in networkx for callers that want it)
holds terrain: which squares can be entered, what entering each costs (1, or 2 in difficult
terrain: `entry_costs`), and which steps are legal (edges; no diagonal cuts the corner of a
square that blocks movement). Creatures are layered on per query: a mover may pass through its
allies' squares (same side) but not its enemies' (any other side), and may not end its move in
any other creature's square.

The searches here are a hand-written Dijkstra (and A* for single paths) over that graph's
adjacency rather than `nx.single_source_dijkstra`, which measured about twice as slow and
could not express "cost of the node entered" or the footprint of a Large creature.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Iterable, Mapping

from engine.grid.battlemap import BattleMap
from engine.grid.geometry import STEPS, footprint
from engine.grid.occupancy import OccupancyLike, as_occupancy
from engine.grid.terrain import Square

ReachMap = dict[Square, tuple[int, Square | None]]
"""Square (top-left for Large movers) -> (cheapest cost, predecessor; None at the start)."""

_Stepper = Callable[[Square], list[tuple[Square, int]]]


def adjacency(bmap: BattleMap) -> dict[Square, tuple[Square, ...]]:
    """The graph's adjacency as plain sorted tuples (derived once per map, without building
    the networkx graph; the searches' hot loop)."""
    return bmap.nbrs


def entry_costs(bmap: BattleMap) -> Mapping[Square, int]:
    """Square -> the cost of entering it (1, or 2 in difficult terrain), for every square a
    creature can enter: the graph's nodes and their `cost` (read-only for callers)."""
    return bmap._entry_cost


def step_neighbours(bmap: BattleMap, sq: Square) -> tuple[Square, ...]:
    """The squares one step from `sq` can enter: the graph's neighbours, or, for a square
    outside the graph (a creature that fell into a pit), its enterable neighbours under the
    same corner rule (no diagonal step cuts the corner of a square that blocks movement)."""
    vs = adjacency(bmap).get(sq)
    if vs is not None:
        return vs
    cost = bmap._entry_cost
    x, y = sq
    out = []
    for dx, dy in STEPS:
        v = (x + dx, y + dy)
        if v not in cost:
            continue
        if dx and dy and ((x + dx, y) not in cost or (x, y + dy) not in cost):
            continue
        out.append(v)
    return tuple(out)


def _stepper(bmap: BattleMap, size: int, enemies: Collection[Square]) -> _Stepper:
    """Legal steps from a position, with their costs, for a mover of `size`."""
    nbrs = adjacency(bmap)
    cost = bmap._entry_cost

    if size == 1:

        def step1(u: Square) -> list[tuple[Square, int]]:
            vs = nbrs.get(u)
            if vs is None:
                vs = step_neighbours(bmap, u)
            return [(v, cost[v]) for v in vs if v not in enemies]

        return step1

    def ok(pos: Square) -> bool:
        return all(s in cost for s in footprint(pos, size))

    def step_big(u: Square) -> list[tuple[Square, int]]:
        ux, uy = u
        here = set(footprint(u, size))
        out = []
        for dx, dy in STEPS:
            v = (ux + dx, uy + dy)
            new = [s for s in footprint(v, size) if s not in here]
            if any(s not in cost or s in enemies for s in new):
                continue
            if dx and dy and not (ok((ux + dx, uy)) and ok((ux, uy + dy))):
                continue
            out.append((v, max(cost[s] for s in new)))
        return out

    return step_big


def reachable(
    bmap: BattleMap,
    start: Square,
    budget: int,
    mover_id: str,
    mover_side: str,
    size: int = 1,
    occupancy: OccupancyLike | None = None,
) -> ReachMap:
    """Every position reachable within `budget` squares of movement, with cost and predecessor.

    Includes the start (cost 0) and allies' squares the mover can pass through but not stop
    in: filter with `endable` for legal end squares.
    """
    enemies, _ = as_occupancy(occupancy).split_for(mover_id, mover_side)
    best: dict[Square, int] = {start: 0}
    out: ReachMap = {start: (0, None)}
    heap: list[tuple[int, Square]] = [(0, start)]
    pop, push = heapq.heappop, heapq.heappush
    if size == 1:
        # Inlined single-square case: the AI calls this for every monster every turn.
        nbrs = adjacency(bmap)
        cost = bmap._entry_cost
        flat = bmap.flat
        far = 1 << 30
        while heap:
            d, u = pop(heap)
            if d >= budget or d > best[u]:
                continue  # (a step costs at least 1: nothing beyond the budget is tried)
            vs = nbrs.get(u)
            if vs is None:
                vs = step_neighbours(bmap, u)
            elif u in flat:  # every neighbour costs 1: the same relaxations, in the same order
                nd = d + 1
                for v in vs:
                    if nd < best.get(v, far) and v not in enemies:
                        best[v] = nd
                        out[v] = (nd, u)
                        push(heap, (nd, v))
                continue
            for v in vs:
                nd = d + cost[v]
                if nd <= budget and nd < best.get(v, far) and v not in enemies:
                    best[v] = nd
                    out[v] = (nd, u)
                    push(heap, (nd, v))
        return out
    step = _stepper(bmap, size, enemies)
    while heap:
        d, u = pop(heap)
        if d > best[u]:
            continue
        for v, c in step(u):
            nd = d + c
            if nd <= budget and nd < best.get(v, 1 << 30):
                best[v] = nd
                out[v] = (nd, u)
                push(heap, (nd, v))
    return out


def endable(
    square: Square, mover_id: str, occupancy: OccupancyLike | None = None, size: int = 1
) -> bool:
    """May the mover stop at `square` (top-left)? Not if any other creature is there."""
    occ = as_occupancy(occupancy)
    return all(occ.at(s) in (None, mover_id) for s in footprint(square, size))


def end_squares(
    reach: ReachMap, mover_id: str, occupancy: OccupancyLike | None = None, size: int = 1
) -> list[Square]:
    """The positions of a reach map where the mover may end its move, in sorted order."""
    occ = as_occupancy(occupancy)
    if size == 1:  # `endable` inlined for the common case (every move search)
        at = occ.by_square.get
        return sorted(sq for sq in reach if at(sq) in (None, mover_id))
    return sorted(sq for sq in reach if endable(sq, mover_id, occ, size))


def path_to(reach: ReachMap, goal: Square) -> list[Square]:
    """Start .. goal, following the predecessors of a reach map (KeyError if unreachable)."""
    path = [goal]
    prev = reach[goal][1]
    while prev is not None:
        path.append(prev)
        prev = reach[prev][1]
    path.reverse()
    return path


def cheapest_path(
    bmap: BattleMap,
    start: Square,
    goal: Square,
    mover_id: str,
    mover_side: str,
    size: int = 1,
    occupancy: OccupancyLike | None = None,
    budget: int | None = None,
) -> tuple[list[Square], int] | None:
    """The cheapest legal move from `start` to `goal` and its cost, or None.

    None when the goal cannot be reached (within `budget`, if given) or is not a legal end
    square (another creature is there). A* with the Chebyshev distance as heuristic, which
    never overestimates since every step moves one square and costs at least 1.
    """
    occ = as_occupancy(occupancy)
    if not endable(goal, mover_id, occ, size):
        return None
    enemies, _ = occ.split_for(mover_id, mover_side)
    step = _stepper(bmap, size, enemies)
    limit = (1 << 30) if budget is None else budget
    gx, gy = goal
    best: dict[Square, int] = {start: 0}
    prev: dict[Square, Square | None] = {start: None}
    heap: list[tuple[int, int, Square]] = [(max(abs(start[0] - gx), abs(start[1] - gy)), 0, start)]
    while heap:
        _, d, u = heapq.heappop(heap)
        if u == goal:
            path = [goal]
            p = prev[goal]
            while p is not None:
                path.append(p)
                p = prev[p]
            path.reverse()
            return path, d
        if d > best[u]:
            continue
        for v, c in step(u):
            nd = d + c
            if nd <= limit and nd < best.get(v, 1 << 30):
                best[v] = nd
                prev[v] = u
                h = max(abs(v[0] - gx), abs(v[1] - gy))
                heapq.heappush(heap, (nd + h, nd, v))
    return None


def distance_map(
    bmap: BattleMap,
    sources: Iterable[Square],
    cap: int,
    occupancy: OccupancyLike | None = None,
    blocked_sides: Collection[str] = frozenset(),
) -> dict[Square, int]:
    """Square -> movement cost of walking from it into the nearest source, up to `cap`.

    For the AI: pass an enemy's squares as sources to get, for every square, how far it is
    from that enemy on foot. Cost counts each square entered (the source included), so it
    equals `reachable(square)[source]` for a single-square mover with no creatures in the way.
    Squares of creatures whose side is in `blocked_sides` cannot be walked through (sources
    excepted). Single-square movers only.
    """
    occ = as_occupancy(occupancy)
    blocked = {sq for sq, oid in occ.by_square.items() if occ.side_of(oid) in blocked_sides}
    nbrs = adjacency(bmap)
    cost = bmap._entry_cost
    dist: dict[Square, int] = {}
    # Dial's buckets (entry costs are 1 or 2): about twice as fast as a heap here, and the AI
    # asks for one of these per enemy.
    buckets: list[list[Square]] = [[] for _ in range(cap + 3)]
    for s in sources:
        if s not in dist:
            dist[s] = 0
            buckets[0].append(s)
    blocked.difference_update(dist)
    for d in range(cap + 1):
        for v in buckets[d]:
            if dist[v] != d:
                continue
            # Walking from u into v costs v's entry cost; the graph is symmetric, so v's
            # neighbours are exactly the squares that can step into v.
            nd = d + cost.get(v, 1)
            if nd > cap:
                continue
            vs = nbrs.get(v)
            if vs is None:
                vs = step_neighbours(bmap, v)
            for u in vs:
                if nd < dist.get(u, 1 << 30) and u not in blocked:
                    dist[u] = nd
                    buckets[nd].append(u)
    return dist
