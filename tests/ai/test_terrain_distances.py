"""The distance maps memoized by terrain (`ai.distances.terrain_distances`, issue 14): every
memoized map equals the engine's `distance_map` searched afresh, for creatures of every size,
asked from maps drawn the same and from several side caches in turn; a full memo is dropped,
never served stale."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai import distances
from ai.distances import DistanceCache, LazyDistances, terrain_distances
from engine.grid import BattleMap, distance_map


@st.composite
def drawings(draw: st.DrawFn) -> list[str]:
    w = draw(st.integers(3, 10))
    h = draw(st.integers(3, 10))
    return ["".join(draw(st.sampled_from(".....~#O=^")) for _ in range(w)) for _ in range(h)]


@settings(max_examples=60, deadline=None)
@given(drawings(), st.data())
def test_memoized_distance_maps_equal_fresh_searches(rows: list[str], data: st.DataObject) -> None:
    maps = [BattleMap.from_ascii(rows), BattleMap.from_ascii(rows, name="again")]
    caches = [DistanceCache(), DistanceCache()]
    w, h = len(rows[0]), len(rows)
    for _ in range(8):
        bmap = data.draw(st.sampled_from(maps))
        size = data.draw(st.integers(1, 3))
        pos = (data.draw(st.integers(0, w - 1)), data.draw(st.integers(0, h - 1)))
        cap = data.draw(st.integers(1, 20))
        sources = [(pos[0] + i, pos[1] + j) for j in range(size) for i in range(size)]
        assert terrain_distances(bmap, pos, size, cap) == distance_map(bmap, sources, cap)
        cache = data.draw(st.sampled_from(caches))
        rounded = -(-cap // DistanceCache.STEP) * DistanceCache.STEP
        got = cache.get(bmap, pos, size, cap)
        # The side cache may serve a map searched with a larger cap (never a smaller one).
        assert all(got.get(sq) == d for sq, d in distance_map(bmap, sources, rounded).items())


def test_a_full_memo_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    bmap = BattleMap.from_ascii(["......", "..##..", "......"])
    monkeypatch.setattr(distances, "DIST_MEMO_SQUARES", 20)
    first = terrain_distances(bmap, (0, 0), 1, 8)
    assert terrain_distances(bmap, (0, 0), 1, 8) is first
    other = terrain_distances(bmap, (5, 2), 1, 8)  # 16 + 16 squares > 20: dropped
    assert terrain_distances(bmap, (5, 2), 1, 8) is other
    again = terrain_distances(bmap, (0, 0), 1, 8)
    assert again is not first and again == first


@settings(max_examples=80, deadline=None)
@given(drawings(), st.data())
def test_lazy_distance_maps_answer_as_the_whole_map(rows: list[str], data: st.DataObject) -> None:
    """A `LazyDistances` (A* toward the squares asked about) gives what the whole capped
    map gives, for every square of the map (off the graph, beyond the cap and out of reach
    included), asked in batches and one by one, into creatures of every size."""
    bmap = BattleMap.from_ascii(rows)
    w, h = len(rows[0]), len(rows)
    size = data.draw(st.integers(1, 3))
    pos = (data.draw(st.integers(0, w - 1)), data.draw(st.integers(0, h - 1)))
    cap = data.draw(st.integers(0, 16))
    sources = [(pos[0] + i, pos[1] + j) for j in range(size) for i in range(size)]
    whole = distance_map(bmap, sources, cap)
    lazy = LazyDistances(bmap, sources, cap)
    every = [(x, y) for y in range(h) for x in range(w)]
    # How soon it gives up the A* for the whole map: at once, after a search or two, never.
    share = data.draw(st.sampled_from([0.0, 0.02, 0.1, distances.LAZY_SHARE]))
    kept, distances.LAZY_SHARE = distances.LAZY_SHARE, share
    try:
        for _ in range(data.draw(st.integers(0, 3))):
            lazy.settle(data.draw(st.lists(st.sampled_from(every), max_size=12)))
        for sq in data.draw(st.permutations(every)):
            assert lazy.get(sq) == whole.get(sq), sq
    finally:
        distances.LAZY_SHARE = kept


def test_lazy_distance_maps_on_a_big_map() -> None:
    """The same on a generated 60x60 battlefield (walls, rubble, difficult ground) with the
    long caps the A* serves (a goal across the map), every square checked."""
    import random

    from tests.benchmarks.bench_ai import grid

    rows = ["".join(r) for r in grid(60, 60, random.Random(7))]
    bmap = BattleMap.from_ascii(rows)
    rng = random.Random(3)
    free = sorted(bmap._entry_cost)
    for cap in (24, 40, 48):
        src = [rng.choice(free)]
        whole = distance_map(bmap, src, cap)
        lazy = LazyDistances(bmap, src, cap)
        far = [sq for sq in free if max(abs(sq[0] - src[0][0]), abs(sq[1] - src[0][1])) > 20]
        x, y = rng.choice(far)
        lazy.settle([(x + i, y + j) for i in range(-6, 7) for j in range(-6, 7)])
        for sq in bmap.squares():
            assert lazy.get(sq) == whole.get(sq), (cap, sq)
    # The side's cache hands out lazy maps for long caps on a big map, whole ones otherwise.
    cache = DistanceCache()
    assert isinstance(cache.get(bmap, rng.choice(free), 1, 40), LazyDistances)
    assert isinstance(cache.get(bmap, rng.choice(free), 1, 16), dict)
    tiny = BattleMap.from_ascii(["." * 30] * 20)
    assert isinstance(DistanceCache().get(tiny, (0, 0), 1, 40), dict)
