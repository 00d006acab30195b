"""Routes: every square a mover can end on within its speed, by the path that provokes the
fewest (most harmless) opportunity attacks, not merely the cheapest (`routes`): a
label-setting search over (square, set of enemies provoked) with Pareto pruning, or a plain
cheapest-path search when no threatened square is in reach; `kept_routes` keeps the last
searches per terrain, keyed by every input a search reads (re-plans, second legs).

Costs and steps are the engine's, read through `ai.distances.MapGraph`; allies may be passed
through, enemies may not; a move may not end in another creature's square. The engine still
checks every path the AI submits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ai.distances import MapGraph, Square, neighbours

_Label = tuple[int, float, int, Square, int]
"""A search label: (cost, opportunity-attack cost, provoked mask, square, parent index)."""

_NEVER = float("-inf")
"""The label search's front value of a square it may never enter (below every label's
opportunity-attack cost, NaN aside, which the front test refuses as well)."""


class Route:
    """How to reach `end`: its movement cost, the bitmask of the threatening enemies whose
    opportunity attacks it provokes, and the path (start first; rebuilt from the search's
    labels, or its parent links, on first use, since only the chosen route's path is ever
    needed)."""

    __slots__ = ("_index", "_labels", "_parents", "_path", "cost", "end", "mask", "mode")

    def __init__(
        self,
        end: Square,
        path: tuple[Square, ...] | None,
        cost: int,
        mask: int,
        mode: str = "walk",
        labels: list[_Label] | None = None,
        index: int = -1,
        parents: Mapping[Square, Square | None] | None = None,
    ) -> None:
        self.end = end
        self.cost = cost
        self.mask = mask
        self.mode = mode
        self._path = path
        self._labels = labels
        self._index = index
        self._parents = parents

    @property
    def path(self) -> tuple[Square, ...]:
        if self._path is None:
            out: list[Square] = []
            parents = self._parents
            if parents is not None:
                sq: Square | None = self.end
                while sq is not None:
                    out.append(sq)
                    sq = parents[sq]
            else:
                assert self._labels is not None
                j = self._index
                while j >= 0:
                    label = self._labels[j]
                    out.append(label[3])
                    j = label[4]
            out.reverse()
            self._path = tuple(out)
        return self._path

    def __repr__(self) -> str:
        return f"Route({self.mode} {self.path} cost={self.cost} mask={self.mask})"


class _Walk(Route):
    """A route found by the plain search (`_plain_routes`): it provokes no one and its path
    comes from the search's parent links. The search makes it with `object.__new__` and sets
    only the slots read before its path (`end`, `cost`, `mode`, `_parents`; `mask` is the
    class's 0): one of these for each of the ~170 squares of every search, where the
    `__init__` call and the unread slots cost a quarter of the search."""

    __slots__ = ()
    mask = 0  # a plain walk provokes no one (never written)

    def __init__(self, end: Square, cost: int, parents: Mapping[Square, Square | None]) -> None:
        self.end = end
        self.cost = cost
        self.mode = "walk"
        self._parents = parents

    @property
    def path(self) -> tuple[Square, ...]:
        try:
            return self._path  # type: ignore[return-value]
        except AttributeError:  # not rebuilt yet: the search leaves `_path` unset
            pass
        out: list[Square] = []
        parents = self._parents
        assert parents is not None
        sq: Square | None = self.end
        while sq is not None:
            out.append(sq)
            sq = parents[sq]
        out.reverse()
        self._path = path = tuple(out)
        return path


class _Labelled(Route):
    """A route found by the label search (`_threat_routes`): its path comes from the
    search's labels. Made with `object.__new__` by `_labelled_routes`, which sets only the
    slots read before its path (no parent links, `_path` unset until asked for), for every
    square of the search."""

    __slots__ = ()

    def __init__(self, end: Square, cost: int, mask: int, labels: list[_Label], index: int) -> None:
        self.end = end
        self.cost = cost
        self.mask = mask
        self.mode = "walk"
        self._labels = labels
        self._index = index

    @property
    def path(self) -> tuple[Square, ...]:
        try:
            return self._path  # type: ignore[return-value]
        except AttributeError:  # not rebuilt yet: `_labelled_routes` leaves `_path` unset
            pass
        out: list[Square] = []
        labels = self._labels
        assert labels is not None
        j = self._index
        while j >= 0:
            label = labels[j]
            out.append(label[3])
            j = label[4]
        out.reverse()
        self._path = path = tuple(out)
        return path


def routes(
    mg: MapGraph,
    start: Square,
    budget: int,
    blocked: frozenset[Square] | set[Square],
    occupied: frozenset[Square] | set[Square],
    threat_mask: Mapping[Square, int],
    oa_cost: Sequence[float],
) -> dict[Square, Route]:
    """For each square a Medium (or Small) mover can end on within `budget`, the route whose
    provoked opportunity attacks cost least (`oa_cost[i]` for bit i), cheapest among those.

    `blocked`: enemy squares (never entered); `occupied`: other creatures' squares (passed
    through when allied, never ended on); `threat_mask[sq]`: the enemies threatening `sq`
    (leaving it provokes them, once each per move).
    """
    if not threat_near(threat_mask, start, budget):
        return _plain_routes(mg, start, budget, blocked, occupied)
    return _threat_routes(mg, start, budget, blocked, occupied, threat_mask, oa_cost)


def threat_near(threat_mask: Mapping[Square, int], start: Square, budget: int) -> bool:
    """Is a threatened square within `budget` squares (Chebyshev) of `start`? (Else no move
    of that budget can provoke: the plain search serves.)"""
    sx, sy = start
    for x, y in threat_mask:  # noqa: SIM110 (a loop: `any` over a generator is slower here)
        if -budget <= x - sx <= budget and -budget <= y - sy <= budget:
            return True
    return False


def _threat_routes(
    mg: MapGraph,
    start: Square,
    budget: int,
    blocked: frozenset[Square] | set[Square],
    occupied: frozenset[Square] | set[Square],
    threat_mask: Mapping[Square, int],
    oa_cost: Sequence[float],
) -> dict[Square, Route]:
    """`routes` when a threatened square is in reach: label setting (see below)."""
    # Labels: (cost, oa cost, mask, square, parent label index). Entry cost depends on the
    # square entered only, so the labels reaching a square arrive in non-decreasing cost
    # order; a new label is kept only if it provokes strictly less than every earlier one
    # there (Pareto front over cost and opportunity-attack cost; exact for one threatening
    # enemy, a close approximation for several). The last label kept at a square is thus
    # its least provoking one (`last`).
    labels: list[_Label] = [(0, 0.0, 0, start, -1)]
    # The enemies' squares enter the front at minus infinity, which no label improves on:
    # the front test alone keeps them out (no second lookup for every neighbour).
    front: dict[Square, float] = dict.fromkeys(blocked, _NEVER)
    front[start] = 0.0
    last: dict[Square, int] = {start: 0}
    buckets: list[list[int]] = [[] for _ in range(budget + 3)]
    buckets[0].append(0)
    cost = mg.cost
    adj = mg.adj
    flat = mg.bmap.flat
    bit_cost: dict[int, float] = {}
    n = 1
    # Every step costs at least 1, so the labels at exactly `budget` extend no further.
    for d in range(budget):
        roomy = d + 2 <= budget  # every step from here fits (a step costs 1 or 2)
        for li in buckets[d]:
            _, oa, mask, u, _ = labels[li]
            extra = threat_mask.get(u, 0) & ~mask
            if extra:
                nmask = mask | extra
                noa = bit_cost.get(nmask)
                if noa is None:
                    noa = bit_cost[nmask] = _mask_cost(nmask, oa_cost)
            else:
                nmask, noa = mask, oa
            vs = adj.get(u)
            if vs is None:
                vs = neighbours(mg, u)
            elif u in flat:  # every neighbour costs 1 to enter
                nd = d + 1
                bucket = buckets[nd]
                for v in vs:
                    best = front.get(v)
                    if best is not None and not noa < best - 1e-9:
                        continue
                    front[v] = noa
                    last[v] = n
                    labels.append((nd, noa, nmask, v, li))
                    bucket.append(n)
                    n += 1
                continue
            for v in vs:
                nd = d + cost[v]
                if not roomy and nd > budget:
                    continue
                best = front.get(v)
                if best is not None and not noa < best - 1e-9:
                    continue
                front[v] = noa
                last[v] = n
                labels.append((nd, noa, nmask, v, li))
                buckets[nd].append(n)
                n += 1
    return _labelled_routes(labels, last, start, occupied)


def _labelled_routes(
    labels: list[_Label],
    last: dict[Square, int],
    start: Square,
    occupied: frozenset[Square] | set[Square],
) -> dict[Square, Route]:
    """The label search's routes: each square's last (least provoking) label, in the order
    the squares were first reached, but the start and the other creatures' squares."""
    out: dict[Square, Route] = {}
    new = object.__new__
    for sq, i in last.items():
        if sq != start and sq not in occupied:
            label = labels[i]
            r = out[sq] = new(_Labelled)  # `_Labelled.__init__`'s slots, without its call
            r.end = sq
            r.cost = label[0]
            r.mask = label[2]
            r.mode = "walk"
            r._labels = labels
            r._index = i
    return out


ROUTES_KEPT = 2
"""Searches `kept_routes` holds per terrain before it drops them wholesale: the deciding
creature's first leg and second leg (its re-plan from where the first move ended is the
second leg's search). Holding more buys few hits and costs more than it saves: each search
keeps about 170 `Route` objects alive, and with 16 held the collector ran a third more
young-generation passes (issue 14: 100x100 with 20 monsters, 216 against 164)."""
_ROUTES_KEY = "ai.routes"


def kept_routes(
    mg: MapGraph,
    start: Square,
    budget: int,
    blocked: frozenset[Square],
    occupied: frozenset[Square],
    threat_mask: Mapping[Square, int],
    oa_cost: Sequence[float],
) -> dict[Square, Route]:
    """`routes`, kept per terrain (`BattleMap.tables`) by everything the search reads: the
    start, the budget, the enemies' and the other creatures' squares, and (when a threatened
    square is in reach) the threatened squares with their enemies and what each enemy's
    opportunity attack costs. A creature that plans again from where its first move ended
    finds the second leg it weighed there (the same search), and a decision made again at
    the same state its own. Returns a new dict the caller may add to; the routes in it are
    shared (read-only)."""
    threatened = threat_near(threat_mask, start, budget)
    if threatened:
        key: tuple[object, ...] = (
            start,
            budget,
            blocked,
            occupied,
            tuple(threat_mask.items()),
            tuple(oa_cost),
        )
    else:
        key = (start, budget, blocked, occupied)
    extra = mg.bmap.tables.extra
    table: dict[tuple[object, ...], dict[Square, Route]] | None = extra.get(_ROUTES_KEY)
    if table is None:
        table = extra[_ROUTES_KEY] = {}
    hit = table.get(key)
    if hit is None:
        if len(table) >= ROUTES_KEPT:
            table.clear()
        if threatened:
            hit = _threat_routes(mg, start, budget, blocked, occupied, threat_mask, oa_cost)
        else:
            hit = _plain_routes(mg, start, budget, blocked, occupied)
        table[key] = hit
    return dict(hit)


def _plain_routes(
    mg: MapGraph,
    start: Square,
    budget: int,
    blocked: frozenset[Square] | set[Square],
    occupied: frozenset[Square] | set[Square],
) -> dict[Square, Route]:
    """`routes` when no threatened square is in reach: Dial's search, each square kept with
    the first square it was reached from (its parent: the path is rebuilt from those links
    when asked for) and its cost, in the order the squares are found (each square's route is
    made as it is found: no cost table to copy into routes afterwards)."""
    # The enemies' squares enter the parent links (linked to nothing, never on a path): the
    # "found already" test alone keeps them out (no second lookup for every neighbour).
    parent: dict[Square, Square | None] = dict.fromkeys(blocked)
    parent[start] = None
    out: dict[Square, Route] = {}
    new = object.__new__
    buckets: list[list[Square]] = [[] for _ in range(budget + 3)]
    buckets[0].append(start)
    cost = mg.cost
    adj = mg.adj
    flat = mg.bmap.flat
    for d in range(budget):  # the squares at exactly `budget` extend no further
        roomy = d + 2 <= budget  # every step from here fits (a step costs 1 or 2)
        nd1 = d + 1
        bucket1 = buckets[nd1]
        for u in buckets[d]:
            vs = adj.get(u)
            if vs is None:
                vs = neighbours(mg, u)
            elif u in flat:  # every neighbour costs 1 to enter
                for v in vs:
                    if v in parent:
                        continue
                    parent[v] = u
                    r = out[v] = new(_Walk)  # `_Walk.__init__`'s slots, without its call
                    r.end = v
                    r.cost = nd1
                    r.mode = "walk"
                    r._parents = parent
                    bucket1.append(v)
                continue
            for v in vs:
                if v in parent:
                    continue
                nd = d + cost[v]
                if not roomy and nd > budget:
                    continue
                parent[v] = u
                r = out[v] = new(_Walk)
                r.end = v
                r.cost = nd
                r.mode = "walk"
                r._parents = parent
                buckets[nd].append(v)
    for sq in occupied:
        out.pop(sq, None)
    return out


def _mask_cost(mask: int, oa_cost: Sequence[float]) -> float:
    total = 0.0
    i = 0
    while mask:
        if mask & 1:
            total += oa_cost[i]
        mask >>= 1
        i += 1
    return total
