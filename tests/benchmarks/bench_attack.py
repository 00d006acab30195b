#!/usr/bin/env python3
"""Attack resolutions per second: a basic melee attack with damage, on one core.

    .venv/bin/python tests/benchmarks/bench_attack.py           # the full measurement
    .venv/bin/python tests/benchmarks/bench_attack.py --quick   # CI: a short run
    .venv/bin/python tests/benchmarks/bench_attack.py --profile  # where an attack's time goes

Two figures, each with its target:
- `engine.powers.resolve` alone (no legality): the attack roll with every modifier (F-ATK-*,
  F-MOD-*), hit or miss, the damage roll with its adjustments, the hit point bookkeeping and
  the events. Target >= 30,000/s (issue 2).
- the same attack as a whole action through `Encounter.apply(UsePower(...))`, adding the one
  legality check, the action's bookkeeping and the replay record. Target >= 60,000/s
  (issue 14, target 4: "the public path, legality included").
Times are the CPU time of this one process ("one core"), so other work on the machine
doesn't distort them much (a crowded machine still slows every figure: compare before and
after in one run, as tests/benchmarks/bench_speed.py does). Not a timed test: the script
prints the numbers and says whether each target is met. The fighter attacks a dummy with hit
points enough never to drop.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from engine.actions import EndTurn, UsePower  # noqa: E402
from engine.content.loader import load_encounter  # noqa: E402
from engine.encounter import Encounter  # noqa: E402
from engine.powers import resolve  # noqa: E402
from tests.support.helpers import BASIC_MELEE, FIGHTER, mon, pc, write_encounter  # noqa: E402

TARGET = 30_000
"""Attack resolutions/s through `powers.resolve` (issue 2)."""
TARGET_APPLY = 60_000
"""Whole attack actions/s through `Encounter.apply`, legality included (issue 14)."""
DUMMY = {
    "id": "dummy",
    "name": "Dummy",
    "role": "brute",
    "level": 1,
    "hp": 1000,
    "defenses": {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12},
    "powers": [],
}


def arena() -> Encounter:
    """A level 2 fighter (longsword 1d8+3, +7) next to the dummy, the fighter's turn."""
    with tempfile.TemporaryDirectory() as tmp:
        path = write_encounter(
            Path(tmp),
            "....\n....\n",
            [pc("f", (1, 0)), mon("t", (2, 0), "dummy")],
            creatures=[FIGHTER, DUMMY],
            powers=[BASIC_MELEE],
        )
        loaded = load_encounter(path)
    enc = Encounter.create(loaded, seed=7)
    enc.start()
    while enc.current is not None and enc.current.id != "f":
        enc.apply(EndTurn())
    return enc


def through_apply(enc: Encounter) -> Callable[[int], None]:
    b = enc.battle
    act = UsePower("basic-melee", ("t",))
    target = b["t"]

    def run(n: int) -> None:
        for i in range(n):
            b.spent["standard"] = 0  # one standard action a turn: give it back each time
            enc.apply(act)
            if target.hp < 100:
                target.hp = 1000
            if i % 500 == 499:  # a fight's log is a few hundred events, not a million
                del b.log[:], enc.records[:]

    return run


def resolution_only(enc: Encounter) -> Callable[[int], None]:
    b = enc.battle
    f, target = b["f"], b["t"]
    power = f.power("basic-melee")
    assert power is not None
    act = UsePower("basic-melee", ("t",))
    targets = ["t"]

    def run(n: int) -> None:
        for i in range(n):
            resolve(b, f, power, act, targets)
            if target.hp < 100:
                target.hp = 1000
            if i % 500 == 499:
                del b.log[:]
                b.dice.take()

    return run


def measure(fn: Callable[[int], None], n: int, repeats: int) -> float:
    """Best-of and median attacks per second over `repeats` runs of `n`."""
    fn(min(n, 2000))  # warm caches (dice expressions, cover memo, defenses)
    rates = []
    for _ in range(repeats):
        gc.collect()
        t0 = time.process_time()  # CPU time of this one process: "on one core", even when
        fn(n)  # other work shares the machine
        rates.append(n / (time.process_time() - t0))
    return statistics.median(rates)


def profile(n: int, top: int = 25) -> None:
    """Each function's own time per attack through `Encounter.apply`, in microseconds, as
    cProfile sees it (its own cost per call inflates functions called often: compare rows,
    not the total with the plain rate)."""
    import cProfile
    import pstats

    fn = through_apply(arena())
    fn(min(n, 2000))
    prof = cProfile.Profile()
    prof.runcall(fn, n)
    stats = pstats.Stats(prof)
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])  # type: ignore[attr-defined]
    total = sum(v[2] for _, v in rows)
    print(f"own time per attack through apply (cProfile, {n:,} attacks): {total / n * 1e6:.1f} us")
    for (path, line, name), (_, calls, own, _cum, _) in rows[:top]:
        where = f"{Path(path).parent.name}/{Path(path).name}:{line}" if line else path
        print(f"{own / n * 1e6:7.2f} us {calls / n:5.2f} calls  {name}  {where}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="attack resolutions per second")
    ap.add_argument("--quick", action="store_true", help="a short run (CI)")
    ap.add_argument("--profile", action="store_true", help="own time per function instead")
    args = ap.parse_args(argv)
    n, repeats = (3_000, 3) if args.quick else (50_000, 5)
    if args.profile:
        profile(n)
        return 0
    core = measure(resolution_only(arena()), n, repeats)
    full = measure(through_apply(arena()), n, repeats)
    print(f"attack resolutions/s (basic melee attack with damage, powers.resolve): {core:>9,.0f}")
    print(f"whole actions/s (the same attack through Encounter.apply):             {full:>9,.0f}")
    verdict = "meets" if core >= TARGET else "BELOW"
    print(f"target >= {TARGET:,} attack resolutions/s on one core: {verdict}")
    verdict = "meets" if full >= TARGET_APPLY else "BELOW"
    print(f"target >= {TARGET_APPLY:,} whole attack actions/s on one core: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
