"""The AI's searches agree with the engine: distance maps, routes within speed (every route
is a path the engine accepts), the least provoking route, and the roles."""

from __future__ import annotations

import random

import pytest

from ai.distances import DistanceCache, graph_of
from ai.roles import ROLE_WEIGHTS, role_of
from ai.routes import routes
from engine.actions import Move
from engine.content.loader import load_encounter
from engine.encounter import Encounter
from engine.grid import BattleMap, distance_map, provocations, reachable, validate_path

MAP = """
..........
..#...~~..
..#...~~..
..#.......
......=...
.~~.......
""".strip("\n")


def test_distance_maps_equal_the_walks_the_engine_allows() -> None:
    """The AI's distance maps are the engine's `distance_map` (one search, Dial's buckets):
    each entry is the cost of the cheapest walk the engine's `reachable` finds into the
    source, corner rule and difficult terrain included."""
    bmap = BattleMap.from_ascii(MAP)
    cache = DistanceCache()
    for src in [(0, 0), (5, 3), (9, 5)]:
        dm = cache.get(bmap, src, 1, 12)
        assert dm == distance_map(bmap, [src], 16)  # caps come in steps of 8
        walkable = [sq for sq in bmap.squares() if bmap.entry_cost(sq) is not None]
        for sq in walkable:
            walk = reachable(bmap, sq, 16, "m", "s").get(src)
            assert dm.get(sq) == (walk[0] if walk is not None else None), sq


def test_distance_cache_shares_and_invalidates() -> None:
    bmap = BattleMap.from_ascii(MAP)
    cache = DistanceCache()
    a = cache.get(bmap, (0, 0), 1, 10)
    assert cache.get(bmap, (0, 0), 1, 10) is a
    assert cache.computed == 1
    cache.get(bmap, (1, 0), 1, 10)  # the enemy moved: a new map
    assert cache.computed == 2


@pytest.mark.parametrize("seed", range(6))
def test_routes_are_legal_and_cheapest(seed: int) -> None:
    rng = random.Random(seed)
    bmap = BattleMap.from_ascii(MAP)
    mg = graph_of(bmap)
    free = sorted(bmap._entry_cost)
    start = rng.choice(free)
    others = rng.sample([s for s in free if s != start], 4)
    enemies = set(others[:2])
    occupied = set(others)
    out = routes(mg, start, 6, frozenset(enemies), occupied, {}, [])
    from engine.grid import Occupancy, Occupant

    occ = Occupancy.of(
        [Occupant("me", "a", start)]
        + [Occupant(f"e{i}", "b", sq) for i, sq in enumerate(others[:2])]
        + [Occupant(f"f{i}", "a", sq) for i, sq in enumerate(others[2:])]
    )
    engine = reachable(bmap, start, 6, "me", "a", 1, occ)
    ends = {sq for sq in engine if sq != start and sq not in occupied}
    assert set(out) == ends
    for sq, r in out.items():
        check = validate_path(bmap, list(r.path), "me", "a", 1, occ, 6, "walk")
        assert check.ok, (r.path, check.reason)
        assert r.cost == engine[sq][0]


def test_route_avoids_an_opportunity_attack_when_it_can() -> None:
    # The mover at (1,1) is next to an enemy at (2,1) that threatens its 8 neighbours. The
    # cheapest way to (4,1) goes through threatened squares; leaving (1,1) provokes anyway,
    # and it should leave no other threatening enemy's reach on the way.
    bmap = BattleMap.from_ascii("\n".join(["........"] * 5))
    mg = graph_of(bmap)
    ring_a = {(x, y) for x in range(1, 4) for y in range(0, 3)} - {(2, 1)}
    ring_b = {(x, y) for x in range(4, 7) for y in range(2, 5)} - {(5, 3)}
    mask = {sq: 0 for sq in ring_a | ring_b}
    for sq in ring_a:
        mask[sq] |= 1
    for sq in ring_b:
        mask[sq] |= 2
    out = routes(mg, (1, 1), 6, frozenset({(2, 1), (5, 3)}), {(2, 1), (5, 3)}, mask, [5.0, 5.0])
    r = out[(4, 2)]
    provoked = {
        e for _, e in provocations(list(r.path), {"a": frozenset(ring_a), "b": frozenset(ring_b)})
    }
    assert provoked == {"a"}  # leaving (1,1) provokes a; b's reach is only entered
    assert r.mask == 1


def test_pc_roles_come_from_powers() -> None:
    enc = Encounter.create(load_encounter("default"), seed=1)
    b = enc.battle
    assert role_of(b["vessa"]) == "controller"  # ranged and area spells
    assert role_of(b["kael"]) in ROLE_WEIGHTS
    assert role_of(b["thug"]) == "brute"  # a monster keeps its role


def test_a_walk_the_engine_refuses_is_never_returned() -> None:
    """The routes' paths are submitted as is: a sample of them applied for real."""
    enc = Encounter.create(load_encounter("mirror"), seed=4)
    enc.start()
    c = enc.current
    assert c is not None
    mg = graph_of(enc.battle.map)
    occ = enc.battle.occupancy()
    enemies = frozenset(s for s, o in occ.by_square.items() if occ.side_of(o) != c.side)
    others = {s for s, o in occ.by_square.items() if o != c.id}
    out = routes(mg, c.pos, enc.battle.speed(c), enemies, others, {}, [])
    for r in list(out.values())[:20]:
        assert enc.validate(Move(r.path, "walk")) is None
