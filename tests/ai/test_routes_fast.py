"""The route searches' fast paths (issue 14: `ai.routes.routes` and its no-threat case
stepping out of squares whose neighbours all cost 1 without looking costs up, skipping the
budget test where every step fits, one index per square for the least provoking label)
answer exactly what the plain searches kept here answer: the same squares in the same order,
each with the same cost, provoked mask and path, over random maps (difficult terrain, walls,
pits, obstacles), random enemies, allies and threatened squares."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from ai.distances import MapGraph, graph_of, neighbours
from ai.routes import Route, _Label, _mask_cost, routes
from engine.grid import BattleMap

Square = tuple[int, int]


def plain_routes(
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
    sx, sy = start
    if not any(max(abs(x - sx), abs(y - sy)) <= budget for x, y in threat_mask):
        return plain_dial(mg, start, budget, blocked, occupied)
    # Labels: (cost, oa cost, mask, square, parent label index). Entry cost depends on the
    # square entered only, so the labels reaching a square arrive in non-decreasing cost
    # order; a new label is kept only if it provokes strictly less than every earlier one
    # there (Pareto front over cost and opportunity-attack cost; exact for one threatening
    # enemy, a close approximation for several).
    labels: list[_Label] = [(0, 0.0, 0, start, -1)]
    front: dict[Square, float] = {start: 0.0}
    at: dict[Square, list[int]] = {start: [0]}
    buckets: list[list[int]] = [[] for _ in range(budget + 3)]
    buckets[0].append(0)
    cost = mg.cost
    adj = mg.adj
    bit_cost: dict[int, float] = {}
    # Every step costs at least 1, so the labels at exactly `budget` extend no further.
    for d in range(budget):
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
            for v in vs:
                if v in blocked:
                    continue
                nd = d + cost[v]
                if nd > budget:
                    continue
                best = front.get(v)
                if best is None:
                    at[v] = [len(labels)]
                elif noa < best - 1e-9:
                    at[v].append(len(labels))
                else:
                    continue
                front[v] = noa
                labels.append((nd, noa, nmask, v, li))
                buckets[nd].append(len(labels) - 1)
    out: dict[Square, Route] = {}
    for sq, idxs in at.items():
        if sq == start or sq in occupied:
            continue
        best = idxs[-1]  # the least provoking (the front only improves)
        label = labels[best]
        out[sq] = Route(sq, None, label[0], label[2], "walk", labels, best)
    return out


def plain_dial(
    mg: MapGraph,
    start: Square,
    budget: int,
    blocked: frozenset[Square] | set[Square],
    occupied: frozenset[Square] | set[Square],
) -> dict[Square, Route]:
    """`routes` when no threatened square is in reach: one label per square (Dial)."""
    labels: list[_Label] = [(0, 0.0, 0, start, -1)]
    index: dict[Square, int] = {start: 0}
    buckets: list[list[int]] = [[] for _ in range(budget + 3)]
    buckets[0].append(0)
    cost = mg.cost
    adj = mg.adj
    for d in range(budget):  # the squares at exactly `budget` extend no further
        for li in buckets[d]:
            u = labels[li][3]
            vs = adj.get(u)
            if vs is None:
                vs = neighbours(mg, u)
            for v in vs:
                if v in index or v in blocked:
                    continue
                nd = d + cost[v]
                if nd > budget:
                    continue
                n = len(labels)
                index[v] = n
                labels.append((nd, 0.0, 0, v, li))
                buckets[nd].append(n)
    return {
        sq: Route(sq, None, labels[i][0], 0, "walk", labels, i)
        for sq, i in index.items()
        if sq != start and sq not in occupied
    }


@st.composite
def searches(
    draw: st.DrawFn,
) -> tuple[MapGraph, Square, int, set[Square], set[Square], dict[Square, int], list[float]]:
    w = draw(st.integers(3, 12))
    h = draw(st.integers(3, 12))
    rows = ["".join(draw(st.sampled_from("......~~#=^O")) for _ in range(w)) for _ in range(h)]
    bmap = BattleMap.from_ascii(rows)
    every = [(x, y) for y in range(h) for x in range(w)]
    start = draw(st.sampled_from(every))
    budget = draw(st.integers(0, 8))
    enemies = set(draw(st.lists(st.sampled_from(every), max_size=5))) - {start}
    allies = set(draw(st.lists(st.sampled_from(every), max_size=4))) - {start}
    threat: dict[Square, int] = {}
    for _ in range(draw(st.integers(0, 12))):
        sq = draw(st.sampled_from(every))
        threat[sq] = threat.get(sq, 0) | 1 << draw(st.integers(0, 3))
    costs = draw(st.lists(st.sampled_from([0.5, 1.25, 2.35, 3.0, 7.1]), min_size=4, max_size=4))
    return graph_of(bmap), start, budget, enemies, enemies | allies, threat, costs


def same(got: dict[Square, Route], want: dict[Square, Route]) -> None:
    assert list(got) == list(want)
    for sq, r in want.items():
        g = got[sq]
        assert (g.end, g.cost, g.mask, g.mode, g.path) == (r.end, r.cost, r.mask, r.mode, r.path)


@settings(max_examples=300, deadline=None)
@given(searches())
def test_routes_equal_the_plain_search(case: tuple) -> None:
    mg, start, budget, blocked, occupied, threat, costs = case
    same(
        routes(mg, start, budget, frozenset(blocked), frozenset(occupied), threat, costs),
        plain_routes(mg, start, budget, frozenset(blocked), frozenset(occupied), threat, costs),
    )
