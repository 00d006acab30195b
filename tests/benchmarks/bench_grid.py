"""Timing of the grid hot paths the AI and engine hit every turn.

Builds a 40x40 and a 100x100 map from a fixed seed (wall segments, pillars, low obstacles,
difficult terrain), then prints median and p95 of: reachable squares within speed 6 with ten
occupied squares; the cheapest path across the map; a cover check at range <= 10 uncached
(pair memo cold, displacement tables warm), fully cold (tables cleared too) and cached.
Targets (medians): reachable <= 0.5 ms; cover <= 15 us uncached, <= 1 us cached.

Run from the repository root: `.venv/bin/python -m tests.benchmarks.bench_grid [--quick]`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from engine.grid import (
    BattleMap,
    Occupancy,
    Occupant,
    Square,
    cheapest_path,
    cover,
    reachable,
)
from engine.grid.lines import corner_table
from engine.grid.sight import _flat_table, _line_box, _offset_masks

SEED = 20240611


def build_map(width: int, height: int, rng: random.Random) -> BattleMap:
    rows = [["." for _ in range(width)] for _ in range(height)]
    area = width * height
    for _ in range(area // 60):  # wall segments
        x, y = rng.randrange(width), rng.randrange(height)
        dx, dy = rng.choice([(1, 0), (0, 1)])
        for i in range(rng.randint(3, 8)):
            if 0 <= x + i * dx < width and 0 <= y + i * dy < height:
                rows[y + i * dy][x + i * dx] = "#"
    for ch, share in (("O", 80), ("=", 60), ("~", 12), (",", 60)):
        for _ in range(area // share):
            rows[rng.randrange(height)][rng.randrange(width)] = ch
    # Keep the corners open for the across-the-map path.
    for x, y in ((1, 1), (width - 2, height - 2)):
        rows[y][x] = "."
    return BattleMap.from_ascii(["".join(r) for r in rows], name=f"bench{width}")


def open_squares(bmap: BattleMap) -> list[Square]:
    return sorted(bmap._entry_cost)


def timed(
    fn: Callable[[], object], n: int, before: Callable[[], object] | None = None
) -> list[float]:
    out = []
    for _ in range(n):
        if before is not None:
            before()
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def report(label: str, samples: list[float], unit: float, unit_name: str) -> None:
    samples = sorted(samples)
    med = statistics.median(samples)
    p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
    print(f"{label:<42} median {med / unit:9.2f} {unit_name}   p95 {p95 / unit:9.2f} {unit_name}")


def bench(bmap: BattleMap, rng: random.Random, n: int) -> None:
    free = open_squares(bmap)
    print(f"-- {bmap.name}: {bmap.width}x{bmap.height}, {len(free)} open squares")
    bmap.graph  # noqa: B018 - built once per map, outside the timings
    cases = []
    for i in range(n):
        start = rng.choice(free)
        others = rng.sample([s for s in free if s != start], 10)
        occ = Occupancy.of(
            Occupant(f"c{j}", "monsters" if j % 2 else "heroes", sq) for j, sq in enumerate(others)
        )
        cases.append((start, occ, i))
    it = iter(cases * 2)

    def one_reach() -> None:
        start, occ, _ = next(it)
        reachable(bmap, start, 6, "mover", "heroes", 1, occ)

    report("reachable(speed 6, 10 occupied)", timed(one_reach, n), 1e-3, "ms")

    goal = (bmap.width - 2, bmap.height - 2)
    report(
        "cheapest_path (1,1) -> far corner",
        timed(lambda: cheapest_path(bmap, (1, 1), goal, "m", "heroes"), max(5, n // 10)),
        1e-3,
        "ms",
    )

    pairs: list[tuple[tuple[Square], tuple[Square]]] = []
    while len(pairs) < n:
        a = rng.choice(free)
        t = (a[0] + rng.randint(-10, 10), a[1] + rng.randint(-10, 10))
        if t != a and t in bmap._entry_cost:
            pairs.append(((a,), (t,)))
    for a_sq, t_sq in pairs:  # warm the displacement tables
        cover(bmap, a_sq, t_sq)
    pit = iter(pairs * 3)

    def clear_memo() -> None:
        bmap._line_memo.clear()
        bmap._level_memo.clear()

    def clear_all() -> None:
        clear_memo()
        corner_table.cache_clear()
        _flat_table.cache_clear()
        _line_box.cache_clear()
        _offset_masks.cache_clear()

    def one_cover() -> None:
        a_sq, t_sq = next(pit)
        cover(bmap, a_sq, t_sq)

    report("cover, range <= 10, uncached", timed(one_cover, n, clear_memo), 1e-6, "us")
    report("cover, range <= 10, cold tables", timed(one_cover, n, clear_all), 1e-6, "us")
    for a_sq, t_sq in pairs:
        cover(bmap, a_sq, t_sq)
    report("cover, range <= 10, cached", timed(one_cover, n), 1e-6, "us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few iterations (for CI)")
    args = parser.parse_args()
    n = 50 if args.quick else 2000
    rng = random.Random(SEED)
    for w, h in ((40, 40), (100, 100)):
        t = time.perf_counter()
        bmap = build_map(w, h, rng)
        bmap.graph  # noqa: B018
        print(f"build {w}x{h} map + graph: {(time.perf_counter() - t) * 1e3:.1f} ms")
        bench(bmap, rng, n)


if __name__ == "__main__":
    main()
