"""Hypothesis properties of movement and forced movement on random maps.

Paths are checked step by step against the terrain directly (not through the movement code):
no blocking square, no cut wall corner, no enemy square, cost = sum of entry costs <= budget.
The hand-written Dijkstra must agree with networkx's own on the same graph.
"""

from __future__ import annotations

import itertools

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grid import (
    BattleMap,
    ForcedKind,
    Occupancy,
    Occupant,
    Terrain,
    cheapest_path,
    distance_map,
    endable,
    footprint,
    forced_path_ok,
    forced_steps,
    path_to,
    reachable,
    validate_path,
)

Sq = tuple[int, int]
SIDE = "pcs"


@st.composite
def worlds(draw: st.DrawFn) -> tuple[BattleMap, Occupancy, Sq]:
    """A random map, a mover "me" on an enterable square, and a few allies and enemies."""
    w = draw(st.integers(3, 9))
    h = draw(st.integers(3, 9))
    rows = ["".join(draw(st.sampled_from("......~~#O=^")) for _ in range(w)) for _ in range(h)]
    bmap = BattleMap.from_ascii(rows)
    free = [s for s in bmap.squares() if bmap.entry_cost(s)]
    if not free:
        rows[0] = "." + rows[0][1:]
        bmap = BattleMap.from_ascii(rows)
        free = [(0, 0)]
    start = draw(st.sampled_from(free))
    others = draw(st.lists(st.sampled_from(free), max_size=5, unique=True))
    occ = [Occupant("me", SIDE, start)]
    for i, sq in enumerate(s for s in others if s != start):
        occ.append(Occupant(f"c{i}", draw(st.sampled_from([SIDE, "monsters"])), sq))
    return bmap, Occupancy.of(occ), start


def check_path_by_terrain(bmap: BattleMap, occ: Occupancy, path: list[Sq]) -> int:
    """Assert every step is legal from first principles; return the summed entry cost."""
    cost = 0
    for u, v in itertools.pairwise(path):
        dx, dy = v[0] - u[0], v[1] - u[1]
        assert max(abs(dx), abs(dy)) == 1
        assert bmap.in_bounds(v)
        assert bmap.cell(v).terrain is Terrain.FLOOR
        if dx and dy:
            assert not bmap.blocks_movement((u[0] + dx, u[1]))
            assert not bmap.blocks_movement((u[0], u[1] + dy))
        oid = occ.at(v)
        assert oid is None or occ.side_of(oid) == SIDE
        cost += 2 if bmap.cell(v).difficult else 1
    return cost


@pytest.mark.slow  # 200 random worlds
@settings(max_examples=200, deadline=None)
@given(worlds(), st.integers(0, 8))
def test_reachable_paths_are_legal_and_within_budget(
    world: tuple[BattleMap, Occupancy, Sq], budget: int
) -> None:
    bmap, occ, start = world
    reach = reachable(bmap, start, budget, "me", SIDE, 1, occ)
    for sq, (cost, _) in reach.items():
        path = path_to(reach, sq)
        assert path[0] == start and path[-1] == sq
        assert check_path_by_terrain(bmap, occ, path) == cost <= budget
        if endable(sq, "me", occ):
            check = validate_path(bmap, path, "me", SIDE, 1, occ, budget)
            assert check.ok and check.cost == cost


@pytest.mark.slow  # 200 random worlds
@settings(max_examples=200, deadline=None)
@given(worlds(), st.data())
def test_cheapest_path_is_legal_and_optimal(
    world: tuple[BattleMap, Occupancy, Sq], data: st.DataObject
) -> None:
    bmap, occ, start = world
    goal = data.draw(st.sampled_from(bmap.squares()))
    found = cheapest_path(bmap, start, goal, "me", SIDE, 1, occ)
    reach = reachable(bmap, start, 10_000, "me", SIDE, 1, occ)
    if found is None:
        assert goal not in reach or not endable(goal, "me", occ)
        return
    path, cost = found
    assert check_path_by_terrain(bmap, occ, path) == cost == reach[goal][0]
    assert cheapest_path(bmap, start, goal, "me", SIDE, 1, occ, budget=cost) is not None
    if cost > 0:
        assert cheapest_path(bmap, start, goal, "me", SIDE, 1, occ, budget=cost - 1) is None


@settings(max_examples=200, deadline=None)
@given(worlds(), st.integers(0, 12))
def test_reachable_agrees_with_networkx_dijkstra(
    world: tuple[BattleMap, Occupancy, Sq], budget: int
) -> None:
    bmap, occ, start = world
    g = bmap.graph
    enemies = occ.enemy_squares(SIDE)
    view = nx.subgraph_view(g, filter_node=lambda n: n not in enemies)
    expected = nx.single_source_dijkstra_path_length(
        view, start, cutoff=budget, weight=lambda u, v, d: g.nodes[v]["cost"]
    )
    got = reachable(bmap, start, budget, "me", SIDE, 1, occ)
    assert {sq: c for sq, (c, _) in got.items()} == expected


@settings(max_examples=100, deadline=None)
@given(worlds())
def test_distance_map_is_reachable_backwards(world: tuple[BattleMap, Occupancy, Sq]) -> None:
    bmap, _, start = world
    dmap = distance_map(bmap, [start], cap=8)
    for sq in bmap.graph.nodes:
        forward = reachable(bmap, sq, 8, "x", SIDE)
        assert dmap.get(sq) == (forward[start][0] if start in forward else None)


@settings(max_examples=150, deadline=None)
@given(worlds(), st.integers(0, 6))
def test_large_mover_paths_are_legal(world: tuple[BattleMap, Occupancy, Sq], budget: int) -> None:
    bmap, occ, start = world
    if not all(bmap.entry_cost(s) for s in footprint(start, 2)):
        return
    big = Occupancy.of(
        [o for o in occ.by_id.values() if o.id != "me" and o.pos not in footprint(start, 2)]
        + [Occupant("me", SIDE, start, 2)]
    )
    reach = reachable(bmap, start, budget, "me", SIDE, 2, big)
    for pos, (cost, _) in reach.items():
        path = path_to(reach, pos)
        total = 0
        for u, v in itertools.pairwise(path):
            here = set(footprint(u, 2))
            new = [s for s in footprint(v, 2) if s not in here]
            # Each footprint square makes the step alone, without cutting a corner.
            for s in footprint(u, 2):
                check_path_by_terrain(bmap, big, [s, (s[0] + v[0] - u[0], s[1] + v[1] - u[1])])
            total += max(2 if bmap.cell(s).difficult else 1 for s in new)
        assert total == cost <= budget
        if endable(pos, "me", big, 2):
            assert validate_path(bmap, path, "me", SIDE, 2, big, budget).ok


@settings(max_examples=200, deadline=None)
@given(worlds(), st.data(), st.sampled_from(["push", "pull", "slide"]), st.integers(1, 2))
def test_forced_movement_stays_on_open_unoccupied_squares(
    world: tuple[BattleMap, Occupancy, Sq], data: st.DataObject, kind: ForcedKind, size: int
) -> None:
    bmap, occ, start = world
    if not all(bmap.in_bounds(s) for s in footprint(start, size)):
        return
    source = [data.draw(st.sampled_from(bmap.squares()))]
    pos = start
    path = [pos]
    for _ in range(4):
        steps = forced_steps(bmap, kind, source, pos, size, occ, "me")
        if not steps or any(bmap.cell(s).terrain is Terrain.PIT for s in footprint(pos, size)):
            break
        nxt = data.draw(st.sampled_from(steps))
        for s in footprint(nxt, size):
            assert bmap.in_bounds(s)
            assert bmap.cell(s).terrain in (Terrain.FLOOR, Terrain.PIT)
            assert occ.at(s) in (None, "me")
        dx, dy = nxt[0] - pos[0], nxt[1] - pos[1]
        if dx and dy:
            for s in footprint((pos[0] + dx, pos[1]), size) + footprint(
                (pos[0], pos[1] + dy), size
            ):
                assert bmap.cell(s).terrain in (Terrain.FLOOR, Terrain.PIT)
        pos = nxt
        path.append(pos)
    assert forced_path_ok(bmap, kind, source, path, 4, size, occ, "me").ok
