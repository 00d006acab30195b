"""The fight loops: how often an action's legality is checked per applied action in headless
fights (the turn driver and the AI's validate share one check), fights per second through
the one turn driver, and the replay iterator's records per second.

Prints numbers, asserts nothing. Run from the repository root:

    .venv/bin/python -m tests.benchmarks.bench_loops            # 30 fights of default
    .venv/bin/python -m tests.benchmarks.bench_loops --quick    # 5 fights (CI)
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from ai.sim import play
from engine.content.loader import load_encounter
from engine.encounter import Encounter
from engine.history import control_of
from engine.replay import Replay


def count_checks(runs: int, encounter: str) -> None:
    loaded = load_encounter(encounter)
    counts = {"check": 0, "apply": 0}
    real_check, real_apply = Encounter._check_now, Encounter.apply

    def check_now(self: Encounter, action: Any) -> Any:
        counts["check"] += 1
        return real_check(self, action)

    def apply(self: Encounter, *args: Any, **kwargs: Any) -> Any:
        counts["apply"] += 1
        return real_apply(self, *args, **kwargs)

    Encounter._check_now = check_now  # type: ignore[method-assign]
    Encounter.apply = apply  # type: ignore[method-assign]
    encs = []
    try:
        t0 = time.perf_counter()
        for i in range(runs):
            encs.append(play(loaded, 1 + i, {})[0])
        elapsed = time.perf_counter() - t0
    finally:
        Encounter._check_now = real_check  # type: ignore[method-assign]
        Encounter.apply = real_apply  # type: ignore[method-assign]
    ratio = counts["check"] / max(1, counts["apply"])
    print(f"{encounter}: {runs} fights in {elapsed:.2f} s ({runs / elapsed:.1f} fights/s)")
    print(f"legality checks {counts['check']:,} for {counts['apply']:,} applies ({ratio:.3f})")
    records = sum(len(e.records) for e in encs)
    t0 = time.perf_counter()
    for e in encs:
        for _ in Replay(loaded, e.records, seed=e.seed, control=control_of(e)):
            pass
    elapsed = time.perf_counter() - t0
    print(f"replay: {records:,} records in {elapsed:.2f} s ({records / elapsed:,.0f} records/s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="5 fights (CI)")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--encounter", default="default")
    args = ap.parse_args()
    count_checks(5 if args.quick else args.runs, args.encounter)


if __name__ == "__main__":
    main()
