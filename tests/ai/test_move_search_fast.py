"""The movement search's speed-ups (issue 14, the tactical AI's movement half) answer exactly
what the plain code answers:

- `kept_routes` (route searches kept per terrain by every input) equals a fresh `routes`,
  asked over and over while the creatures move, the threats change and the caller adds to
  what it was given, from maps drawn the same, on random terrain (difficult squares, walls,
  pits, obstacles); and at every decision of random fights (Large creatures among them);
- `joined` (once per decision, by footprint gaps) equals the pairwise footprint distances;
- `best_of` (the best few squares by a float threshold) equals the full stable sort;
- `LazyDistances.settled` reads as `get` does;
- the melee walker's approach terms (`_walk_terms`) equal the general formula;
- `path_toward` (its loop with local bindings) finds the very path the plain A* finds;
- `_allies_near` counts as the plain loop did, up to 3.

The decision fixtures (`tests/ai/test_ai_decisions_unchanged.py`,
`tests/ai/test_decisions_unchanged.py`) and the log digests show that whole fights decide the
same."""

from __future__ import annotations

import heapq
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai import routes as routes_module
from ai.distances import BIG, LazyDistances, MapGraph, graph_of, neighbours, path_toward
from ai.facts import facts_of
from ai.moving import _joined, _walk_terms, best_of
from ai.position import _allies_near, near_foes, prepare_foes, square_value
from ai.roles import weights_for
from ai.routes import Route, kept_routes, routes
from ai.scoring import Context
from ai.tactical import TacticalPolicy
from engine.battle import Battle
from engine.content.loader import load_encounter
from engine.grid import BattleMap, distance, distance_map
from engine.state import Combatant
from tests.ai.random_fights import mid_fight, mid_fight_of
from tests.ai.test_routes_fast import same

Square = tuple[int, int]
Search = tuple[
    MapGraph, Square, int, frozenset[Square], frozenset[Square], dict[Square, int], list[float]
]
"""The arguments of one `routes` search."""


@st.composite
def terrains(draw: st.DrawFn) -> list[str]:
    w = draw(st.integers(3, 12))
    h = draw(st.integers(3, 12))
    return ["".join(draw(st.sampled_from("......~~#=^O")) for _ in range(w)) for _ in range(h)]


@settings(max_examples=80, deadline=None)
@given(terrains(), st.data())
def test_kept_routes_equal_fresh_searches(rows: list[str], data: st.DataObject) -> None:
    """Searches asked in turn from two maps drawn the same, with creatures and threats moving
    between them, some asked again as they were: each answer is a fresh search's (the same
    squares in the same order, costs, masks, modes and paths), and what a caller adds to
    one answer is not in the next."""
    maps = [BattleMap.from_ascii(rows), BattleMap.from_ascii(rows, name="again")]
    w, h = len(rows[0]), len(rows)
    every = [(x, y) for y in range(h) for x in range(w)]
    asked: list[Search] = []
    for _ in range(8):
        case: Search
        again = data.draw(st.booleans())
        if asked and again:
            case = data.draw(st.sampled_from(asked))  # a re-plan at the same state
        else:
            mg = graph_of(data.draw(st.sampled_from(maps)))
            start = data.draw(st.sampled_from(every))
            budget = data.draw(st.integers(0, 8))
            enemies = frozenset(data.draw(st.lists(st.sampled_from(every), max_size=5))) - {start}
            allies = frozenset(data.draw(st.lists(st.sampled_from(every), max_size=4))) - {start}
            threat: dict[Square, int] = {}
            for _ in range(data.draw(st.integers(0, 10))):
                sq = data.draw(st.sampled_from(every))
                threat[sq] = threat.get(sq, 0) | 1 << data.draw(st.integers(0, 3))
            costs = data.draw(
                st.lists(st.sampled_from([0.5, 1.25, 2.35, 7.1]), min_size=4, max_size=4)
            )
            case = (mg, start, budget, enemies, enemies | allies, threat, costs)
            asked.append(case)
        got = kept_routes(*case)
        same(got, routes(*case))
        got[(-1, -1)] = Route((-1, -1), (case[1], (-1, -1)), 1, 0, "shift")  # a caller's shift
        assert (-1, -1) not in kept_routes(*case)


def test_a_full_routes_memo_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(routes_module, "ROUTES_KEPT", 2)
    bmap = BattleMap.from_ascii(["......", "..##..", "......"])
    mg = graph_of(bmap)
    for x in range(4):
        kept_routes(mg, (x, 0), 3, frozenset(), frozenset(), {}, [])
        assert len(bmap.tables.extra[routes_module._ROUTES_KEY]) <= 2
    same(
        kept_routes(mg, (0, 0), 3, frozenset(), frozenset(), {}, []),
        routes(mg, (0, 0), 3, frozenset(), frozenset(), {}, []),
    )


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 6), st.integers(0, 10_000), st.integers(0, 12))
def test_kept_routes_at_every_decision_of_random_fights(
    map_seed: int, n: int, seed: int, steps: int
) -> None:
    """In random fights (a Large ogre, difficult terrain, pits, creatures moving and
    falling between decisions), the deciding creature's kept routes, from where it stands and
    from each square it could reach, equal fresh searches."""
    enc = mid_fight_of(map_seed, n, seed, steps, "ffd20")
    if enc is None or enc.current is None:
        return
    pol = TacticalPolicy()
    for _ in range(3):
        me = enc.current
        if me is None or enc.over:
            return
        ctx = Context(enc, me, weights_for(me), pol.planner.memory)
        f = ctx.f
        speed = f.b.speed(me)
        args = (f.enemy_sq, f.occupied, f.threat_mask, ctx.oa_cost)
        first = kept_routes(f.mg, me.pos, speed, *args)
        same(first, routes(f.mg, me.pos, speed, *args))
        for end in list(first)[:4]:  # second legs
            same(kept_routes(f.mg, end, speed, *args), routes(f.mg, end, speed, *args))
        enc.apply(pol.next_action(enc).action)


def _joined_plain(b: Battle, allies: list[Combatant], enemies: list[Combatant]) -> bool:
    """`ai.moving.joined` as it was: every pair's footprint distance."""
    for a in allies:
        for e in enemies:
            if distance(b.squares(a), b.squares(e)) <= max(a.reach, e.reach, 1):
                return True
    return False


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 6), st.integers(0, 10_000), st.integers(0, 10))
def test_joined_equals_the_pairwise_distances(map_seed: int, n: int, seed: int, steps: int) -> None:
    enc = mid_fight_of(map_seed, n, seed, steps, "ffd20")
    if enc is None or enc.current is None:
        return
    b = enc.battle
    for me in b.combatants.values():
        f = facts_of(enc, me, weights_for(me))
        assert _joined(f.allies, f.enemies) == _joined_plain(b, list(f.allies), list(f.enemies))


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.tuples(st.integers(0, 30), st.integers(0, 30)),
        st.sampled_from([-3.5, -1.0, -0.0, 0.0, 0.25, 2.0, 2.0000001, 7.5]),
        max_size=40,
    ),
    st.integers(1, 10),
)
def test_best_of_equals_the_stable_sort(base: dict[Square, float], n: int) -> None:
    assert best_of(base, n) == sorted(base, key=lambda q: -base[q])[:n]


@settings(max_examples=60, deadline=None)
@given(terrains(), st.data())
def test_settled_lazy_maps_read_as_get(rows: list[str], data: st.DataObject) -> None:
    bmap = BattleMap.from_ascii(rows)
    w, h = len(rows[0]), len(rows)
    every = [(x, y) for y in range(h) for x in range(w)]
    src = data.draw(st.sampled_from(every))
    cap = data.draw(st.integers(1, 16))
    lazy = LazyDistances(bmap, [src], cap)
    plain = LazyDistances(bmap, [src], cap)
    whole = distance_map(bmap, [src], cap)
    for _ in range(4):
        batch = data.draw(st.lists(st.sampled_from(every), max_size=12))
        table = lazy.settled(batch)
        for sq in batch:
            assert table.get(sq) == plain.get(sq) == whole.get(sq)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20)), max_size=30, unique=True),
    st.dictionaries(st.tuples(st.integers(0, 20), st.integers(0, 20)), st.integers(0, 30)),
    st.tuples(st.integers(0, 20), st.integers(0, 20)),
    st.integers(1, 3),
    st.integers(8, 40),
    st.sampled_from([0.5, 1.0, 2.5]),
    st.booleans(),
)
def test_walk_terms_equal_the_general_formula(
    squares: list[Square],
    dm: dict[Square, int],
    goal: Square,
    reach: int,
    cap: int,
    pull: float,
    use_map: bool,
) -> None:
    gx, gy = goal
    got: dict[Square, float] = {}
    _walk_terms(got, squares, dm if use_map else None, gx, gy, reach, cap, pull)
    want = {}
    for sq in squares:
        cheb = max(abs(sq[0] - gx), abs(sq[1] - gy))
        if use_map:
            steps = dm.get(sq)
            d = float(steps - reach) if steps is not None else float(cap + cheb)
        else:
            d = float(cheb - reach)
        want[sq] = -pull * max(0.0, d)
    assert list(got.items()) == list(want.items())


def _path_toward_plain(
    mg: MapGraph,
    start: Square,
    goals: set[Square],
    blocked: frozenset[Square],
    target: Square,
    limit: int = 4000,
) -> list[Square] | None:
    """`ai.distances.path_toward` as it was."""
    if not goals:
        return None
    tx, ty = target
    best: dict[Square, int] = {start: 0}
    prev: dict[Square, Square | None] = {start: None}
    heap: list[tuple[int, int, Square]] = [(0, 0, start)]
    pops = 0
    while heap and pops < limit:
        _, d, u = heapq.heappop(heap)
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
        vs = mg.adj.get(u)
        if vs is None:
            vs = neighbours(mg, u)
        for v in vs:
            if v in blocked:
                continue
            nd = d + mg.cost[v]
            if nd < best.get(v, BIG):
                best[v] = nd
                prev[v] = u
                h = max(abs(v[0] - tx), abs(v[1] - ty))
                heapq.heappush(heap, (nd + h, nd, v))
    return None


@settings(max_examples=100, deadline=None)
@given(terrains(), st.data())
def test_path_toward_finds_the_plain_path(rows: list[str], data: st.DataObject) -> None:
    mg = graph_of(BattleMap.from_ascii(rows))
    w, h = len(rows[0]), len(rows)
    every = [(x, y) for y in range(h) for x in range(w)]
    start = data.draw(st.sampled_from(every))
    target = data.draw(st.sampled_from(every))
    goals = set(data.draw(st.lists(st.sampled_from(every), max_size=6)))
    blocked = frozenset(data.draw(st.lists(st.sampled_from(every), max_size=6))) - {start}
    limit = data.draw(st.sampled_from([3, 20, 4000]))
    assert path_toward(mg, start, goals, blocked, target, limit) == _path_toward_plain(
        mg, start, goals, blocked, target, limit
    )


@given(
    st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), max_size=25),
    st.integers(0, 12),
    st.integers(0, 12),
)
def test_allies_near_counts_as_the_plain_loop(allies: list[Square], x: int, y: int) -> None:
    near = sum(1 for ax, ay in allies if max(abs(ax - x), abs(ay - y)) <= 2)
    assert _allies_near(tuple(allies), x, y) == min(near, 3)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10_000),
    st.integers(3, 6),
    st.integers(0, 10_000),
    st.integers(0, 12),
    st.sampled_from([None, 0, 1, 2, 3, 5]),
)
def test_square_values_from_the_near_foes_equal_all_foes(
    map_seed: int, n: int, seed: int, steps: int, span: int | None
) -> None:
    """`square_value` reading only the foes that can count near where I stand
    (`ai.position.near_foes`) gives the very float it gives reading them all, for every
    square of the map (near and far), for every creature (the Large ogre among them); with
    the decision's span (two moves, all of a small map) and with short spans, which leave
    foes out on these maps."""
    enc = mid_fight_of(map_seed, n, seed, steps, "ffd20")
    if enc is None:
        return
    b = enc.battle
    pol = TacticalPolicy()
    for me in [c for c in b.combatants.values() if c.standing]:
        fast = Context(enc, me, weights_for(me), pol.planner.memory)
        if span is not None:
            fast.c.foes_near = near_foes(fast, prepare_foes(fast), span)
        plain = Context(enc, me, weights_for(me), pol.planner.memory)
        prepare_foes(plain)
        plain.c.foes_near = None  # every foe read for every square
        for y in range(b.map.height):
            for x in range(b.map.width):
                assert square_value(fast, (x, y)) == square_value(plain, (x, y))


@pytest.mark.parametrize("seed", [1, 2])
def test_near_foes_on_a_big_map_leave_foes_out_and_change_no_value(
    tmp_path: Path, seed: int
) -> None:
    """On a 40x40 map (the benchmark's heroes and raiders, a few turns in), where foes do
    stand beyond what can count near a creature, each creature's squares (all 1,600, near and
    far) are worth the same floats whether `square_value` reads the near foes or all."""
    from tests.benchmarks.bench_ai import encounter

    path = encounter(tmp_path, 40, 10, random.Random(seed), 12)
    loaded = load_encounter(str(path))
    enc = mid_fight(loaded, seed, 6 * seed, "ffd20")
    assert enc is not None
    b = enc.battle
    pol = TacticalPolicy()
    left_out = 0
    for me in [c for c in b.combatants.values() if c.standing]:
        for span in (None, 1, 4):
            fast = Context(enc, me, weights_for(me), pol.planner.memory)
            foes = prepare_foes(fast)
            if span is not None:
                fast.c.foes_near = near_foes(fast, foes, span)
            assert fast.c.foes_near is not None
            left_out += len(foes) - len(fast.c.foes_near[3])
            plain = Context(enc, me, weights_for(me), pol.planner.memory)
            prepare_foes(plain)
            plain.c.foes_near = None
            for y in range(b.map.height):
                for x in range(b.map.width):
                    assert square_value(fast, (x, y)) == square_value(plain, (x, y))
    assert left_out > 0
