"""Timing of the tactical AI (issue 4): decisions, side turns, whole fights, and the simulator's
throughput with two processes.

1. Decision time (p50/p95/max of the `decision` events' `ms`, the planning of each AI turn)
   and side-turn time (all the turns of one side's creatures in one round: every policy call
   plus the engine applying the actions) for 10 and 20 Red Hand raiders against the five
   Lantern Company heroes on generated 40x40 and 100x100 maps, both sides tactical.
   Targets: decision p50 <= 2 ms, p95 <= 10 ms, max <= 25 ms; side turn p95 <= 50 ms (40x40),
   <= 100 ms (100x100).
2. A 5 heroes vs 8 raiders fight on a 40x40 map, all rules, both sides tactical, played to
   the end headless (`ai.sim.play`): median <= 250 ms.
3. `run_many` with 2 processes vs 1 on the same runs of the `mirror` encounter: throughput
   ratio (time with 1 / time with 2, medians of repeated batches) >= 1.7.

Times are wall-clock (what a player waits for); CPU time per decision is printed too, since a
busy machine inflates wall-clock.

Run from the repository root: `.venv/bin/python -m tests.benchmarks.bench_ai [--quick]`.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ai.distances import warm_lines  # noqa: E402
from ai.sim import Job, play, run_many  # noqa: E402
from ai.tactical import TacticalPolicy  # noqa: E402
from engine.actions import EndTurn, Impossible  # noqa: E402
from engine.content.loader import LoadedEncounter, load_encounter  # noqa: E402
from engine.decisions import Question  # noqa: E402
from engine.encounter import Encounter  # noqa: E402

SEED = 20240611
HEROES = ["kael", "nix", "seren", "vessa", "sorrel"]
RAIDERS = [
    "raider-captain",
    "raider-pikeman",
    "raider-thug",
    "raider-duelist",
    "raider-crossbow",
    "raider-rabble",
    "raider-rabble",
    "raider-rabble",
    "raider-hexer",
    "raider-knifer",
]
"""Cycled through: the first eight are the bundled default encounter's raiders."""


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    if not s:
        return 0.0
    return s[min(len(s) - 1, max(0, round(q * len(s) + 0.5) - 1))]


def grid(width: int, height: int, rng: random.Random) -> list[list[str]]:
    """Open ground with wall segments, pillars, barricades, rubble and ivy."""
    rows = [["." for _ in range(width)] for _ in range(height)]
    area = width * height
    for _ in range(area // 70):
        x, y = rng.randrange(width), rng.randrange(height)
        dx, dy = rng.choice([(1, 0), (0, 1)])
        for i in range(rng.randint(3, 7)):
            if 0 <= x + i * dx < width and 0 <= y + i * dy < height:
                rows[y + i * dy][x + i * dx] = "#"
    for ch, share in (("O", 90), ("=", 70), ("~", 14), (",", 60)):
        for _ in range(area // share):
            rows[rng.randrange(height)][rng.randrange(width)] = ch
    return rows


def encounter(tmp: Path, size: int, monsters: int, rng: random.Random, gap: int) -> Path:
    """Heroes in a knot on the left third, `monsters` raiders spread `gap` squares east."""
    rows = grid(size, size, rng)
    cy = size // 2
    hx = max(2, size // 2 - gap // 2 - 2)
    taken: set[tuple[int, int]] = set()
    combatants: list[dict[str, Any]] = []

    def place(cid: str, creature: str, side: str, x: int, y: int) -> None:
        while (x, y) in taken:
            y += 1
        taken.add((x, y))
        rows[y][x] = "."
        combatants.append({"id": cid, "creature": creature, "side": side, "pos": [x, y]})

    for i, hero in enumerate(HEROES):
        place(hero, hero, "party", hx + i % 2 * 2, cy - 3 + i * 2 - i % 2)
    mx = min(size - 4, hx + gap)
    span = max(8, monsters + 2)
    for i in range(monsters):
        x = mx + rng.randint(0, 3)
        y = max(1, min(size - 2, cy - span // 2 + rng.randint(0, span)))
        place(f"m{i}", RAIDERS[i % len(RAIDERS)], "monsters", x, y)
    doc = {
        "name": f"bench-{size}-{monsters}",
        "include": ["party/lanterns", "bestiary/marauders"],
        "map": {"name": f"bench {size}x{size}", "grid": "\n".join("".join(r) for r in rows)},
        "sides": {"party": {"control": "ai"}, "monsters": {"control": "ai"}},
        "combatants": combatants,
        "round_limit": 30,
    }
    path = tmp / f"bench-{size}-{monsters}.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


class _Router:
    def __init__(self, policies: dict[str, TacticalPolicy], holder: list[Encounter]) -> None:
        self.policies, self.holder = policies, holder

    def answer(self, q: Question) -> Any:
        enc = self.holder[0]
        return self.policies[enc.battle[q.who].side].answer(enc, q)


def timed_fight(
    loaded: LoadedEncounter, seed: int, max_rounds: int
) -> tuple[list[float], list[float], dict[str, list[float]], dict[str, list[float]]]:
    """Play one fight; (decision ms, decision CPU ms, side -> side-turn ms per round, and the
    same in CPU ms)."""
    policies = {"party": TacticalPolicy(), "monsters": TacticalPolicy()}
    holder: list[Encounter] = []
    router = _Router(policies, holder)
    enc = Encounter.create(
        loaded, seed=seed, deciders=lambda _cid: router, control={"party": "ai", "monsters": "ai"}
    )
    holder.append(enc)
    enc.start()
    wall: list[float] = []
    cpu: list[float] = []
    side_time: dict[tuple[int, str], float] = {}
    side_cpu: dict[tuple[int, str], float] = {}
    while not enc.over and enc.battle.round <= max_rounds:
        c = enc.current
        assert c is not None
        key = (enc.battle.round, c.side)
        mark = enc.battle.turn_counter
        for _ in range(24):
            if enc.over or enc.current is not c or enc.battle.turn_counter != mark:
                break
            t0 = time.perf_counter()
            c0 = time.thread_time()
            choice = policies[c.side].next_action(enc)
            if choice.decision is not None:
                wall.append(choice.decision.ms)
                cpu.append((time.thread_time() - c0) * 1000)
            try:
                enc.apply(choice.action, choice.decision)
            except Impossible:
                enc.apply(EndTurn())
            side_time[key] = side_time.get(key, 0.0) + (time.perf_counter() - t0) * 1000
            side_cpu[key] = side_cpu.get(key, 0.0) + (time.thread_time() - c0) * 1000
    sides: dict[str, list[float]] = {}
    for (_, side), ms in side_time.items():
        sides.setdefault(side, []).append(ms)
    sides_cpu: dict[str, list[float]] = {}
    for (_, side), ms in side_cpu.items():
        sides_cpu.setdefault(side, []).append(ms)
    return wall, cpu, sides, sides_cpu


def bench_decisions(quick: bool) -> None:
    rng = random.Random(SEED)
    fights = 1 if quick else 4
    warm = 1 if quick else 2
    max_rounds = 4 if quick else 12
    print("-- decisions and side turns (both sides tactical, 5 heroes vs N raiders)")
    warm_lines(20)  # as `skirmish sim` does before its runs (ai.sim.prewarm)
    with tempfile.TemporaryDirectory() as tmp:
        for size, gap in ((40, 12), (100, 24)):
            for monsters in (10, 20):
                path = encounter(Path(tmp), size, monsters, rng, gap)
                loaded = load_encounter(str(path))
                # Warm up on the same map: the engine's line tables and the per-map memos
                # fill once per process, which a long simulation amortises.
                for i in range(warm):
                    timed_fight(loaded, SEED + 100 + i, 30)
                wall: list[float] = []
                cpu: list[float] = []
                side: list[float] = []
                side_cpu: list[float] = []
                for i in range(fights):
                    # A full garbage collection can land inside any decision and take tens
                    # of ms with the engine's memo tables grown: freeze what exists now (as
                    # `skirmish sim` does before forking its workers).
                    gc.collect()
                    gc.freeze()
                    w, c, s, sc = timed_fight(loaded, SEED + i, max_rounds)
                    wall += w
                    cpu += c
                    side += s.get("monsters", [])
                    side_cpu += sc.get("monsters", [])
                print(
                    f"{size:>3}x{size:<3} {monsters:>2} raiders: {len(wall):>4} decisions "
                    f"p50 {percentile(wall, 0.5):5.2f} p95 {percentile(wall, 0.95):5.2f} "
                    f"max {max(wall):6.2f} ms (cpu p50 {percentile(cpu, 0.5):4.2f} "
                    f"p95 {percentile(cpu, 0.95):5.2f} max {max(cpu):5.2f}); monsters' side "
                    f"turn p50 {percentile(side, 0.5):5.1f} p95 {percentile(side, 0.95):5.1f} ms "
                    f"(cpu p95 {percentile(side_cpu, 0.95):5.1f})"
                )


def bench_fight(quick: bool) -> None:
    rng = random.Random(SEED + 1)
    n = 5 if quick else 40
    with tempfile.TemporaryDirectory() as tmp:
        loaded = load_encounter(str(encounter(Path(tmp), 40, 8, rng, 12)))
        warm_lines(20)
        for i in range(2):
            play(loaded, SEED + 100 + i, {})
        times = []
        cpu = []
        rounds = []
        gc.collect()
        gc.freeze()
        for i in range(n):
            c0 = time.thread_time()
            _, r = play(loaded, SEED + i, {})
            cpu.append((time.thread_time() - c0) * 1000)
            times.append(r.ms)
            rounds.append(r.rounds)
    print(
        f"-- 5 heroes vs 8 raiders (the default's raiders), 40x40, both tactical, {n} fights: "
        f"median {statistics.median(times):.0f} ms (cpu {statistics.median(cpu):.0f} ms; "
        f"p95 {percentile(times, 0.95):.0f} ms, mean rounds {statistics.fmean(rounds):.1f})"
    )


def bench_jobs(quick: bool) -> None:
    runs = 40 if quick else 200
    repeats = 1 if quick else 3
    jobs = [Job("mirror", i, SEED + i, {}, None, None) for i in range(runs)]
    elapsed: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[float]] = {1: [], 2: []}
    run_many(jobs[:10], 1)  # load and warm up here (forked workers inherit it all)
    for _ in range(repeats):
        for workers in (1, 2):
            r0 = resource.getrusage(resource.RUSAGE_SELF).ru_utime
            k0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
            t0 = time.perf_counter()
            run_many(jobs, workers)
            elapsed[workers].append(time.perf_counter() - t0)
            used = resource.getrusage(resource.RUSAGE_SELF).ru_utime - r0
            used += resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - k0
            cpu[workers].append(used)
    one, two = statistics.median(elapsed[1]), statistics.median(elapsed[2])
    best = min(elapsed[1]) / min(elapsed[2])
    print(
        f"-- run_many, {runs} mirror fights x {repeats}: --jobs 1 {one:.2f} s, "
        f"--jobs 2 {two:.2f} s: throughput ratio {one / two:.2f}x (medians; best runs "
        f"{best:.2f}x); CPU used {statistics.median(cpu[1]):.1f} s vs "
        f"{statistics.median(cpu[2]):.1f} s (equal CPU = no parallel overhead; the wall ratio "
        f"needs two idle cores, load average now {os.getloadavg()[0]:.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few fights (for CI)")
    parser.add_argument("--only", choices=["decisions", "fight", "jobs"], default=None)
    args = parser.parse_args()
    t0 = time.perf_counter()
    if args.only in (None, "decisions"):
        bench_decisions(args.quick)
    if args.only in (None, "fight"):
        bench_fight(args.quick)
    if args.only in (None, "jobs"):
        bench_jobs(args.quick)
    print(f"(bench_ai took {time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
