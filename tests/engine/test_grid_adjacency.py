"""The movement graph's adjacency (`BattleMap.nbrs`, what every search reads) is built without
networkx (issue 14: on a 200x200 map the networkx graph held about 40 MB). It must equal the
graph the engine built with networkx before, edge for edge and in the same sorted order, on
maps with walls, pillars, obstacles, pits and difficult terrain (the corner rule)."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grid import BattleMap, adjacency, step_neighbours

Sq = tuple[int, int]


def networkx_adjacency(bmap: BattleMap) -> dict[Sq, tuple[Sq, ...]]:
    """The adjacency as the engine derived it from its networkx graph before issue 14."""
    g = nx.Graph()
    cost = dict(bmap._entry_cost)
    g.add_nodes_from(cost)
    for x, y in cost:
        if (x + 1, y) in cost:
            g.add_edge((x, y), (x + 1, y))
        if (x, y + 1) in cost:
            g.add_edge((x, y), (x, y + 1))
        if (x + 1, y + 1) in cost and (x + 1, y) in cost and (x, y + 1) in cost:
            g.add_edge((x, y), (x + 1, y + 1))
        if (x - 1, y + 1) in cost and (x - 1, y) in cost and (x, y + 1) in cost:
            g.add_edge((x, y), (x - 1, y + 1))
    return {u: tuple(sorted(g.adj[u])) for u in g.nodes}


@st.composite
def maps(draw: st.DrawFn) -> BattleMap:
    w = draw(st.integers(1, 12))
    h = draw(st.integers(1, 12))
    rows = ["".join(draw(st.sampled_from("....~~#O=^,")) for _ in range(w)) for _ in range(h)]
    return BattleMap.from_ascii(rows)


@settings(max_examples=300, deadline=None)
@given(maps())
def test_adjacency_equals_the_networkx_graphs(bmap: BattleMap) -> None:
    want = networkx_adjacency(bmap)
    assert adjacency(bmap) == want
    assert list(adjacency(bmap)) == list(want)  # same squares in the same order
    g = bmap.graph
    assert {u: tuple(sorted(g.adj[u])) for u in g.nodes} == want
    assert all(g.nodes[u]["cost"] == bmap.entry_cost(u) for u in g.nodes)
    for sq, vs in want.items():
        assert step_neighbours(bmap, sq) == vs


def test_neighbours_are_the_entry_cost_keys_themselves() -> None:
    bmap = BattleMap.from_ascii(["....", ".#..", "...."])
    keys = {sq: sq for sq in bmap._entry_cost}
    for vs in adjacency(bmap).values():
        assert all(v is keys[v] for v in vs)


def test_the_networkx_graph_is_built_only_when_asked() -> None:
    bmap = BattleMap.from_ascii(["...", "..."])
    adjacency(bmap)
    assert bmap._graph is None
    assert bmap.graph is bmap.graph
