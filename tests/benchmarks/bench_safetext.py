"""Cost of making user-supplied text safe for the terminal (`tui.safetext`, issue 17).

Every name on screen and every log line goes through `clean`, names in columns through `pad`
(display cells), so their cost is paid on each repaint. Prints microseconds per call for
plain ASCII names (the common case, a fast path), hostile names (escapes, bidi, zero-width,
wide, 200 characters), and a whole fight's log formatted to lines (`tui.logtext`, which now
cleans each line): the per-line cost with and without the cleaning.

Run from the repository root: `.venv/bin/python -m tests.benchmarks.bench_safetext [--quick]`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout: tests.support

from tests.support.hostile import NAMES
from tui import logtext, safetext

ASCII = ["Goblin Cutter", "Kara", "Brak the Bold", "Orc Berserker 3"]


def per_call_us(fn: Callable[[], object], calls: int) -> float:
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    return 1e6 * (time.perf_counter() - t0) / calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (CI)")
    args = parser.parse_args(argv)
    n = 2_000 if args.quick else 50_000
    hostile = list(NAMES.values())
    rows = [
        ("clean ascii name", lambda: [safetext.clean(s) for s in ASCII], len(ASCII)),
        ("clean hostile name", lambda: [safetext.clean(s) for s in hostile], len(hostile)),
        ("pad ascii name to 24", lambda: [safetext.pad(s, 24) for s in ASCII], len(ASCII)),
        ("pad hostile name to 24", lambda: [safetext.pad(s, 24) for s in hostile], len(hostile)),
    ]
    for label, fn, per in rows:
        print(f"{label:<28} {per_call_us(fn, n // per) / per:8.2f} us/call")

    from engine.content.loader import load_encounter
    from engine.encounter import Encounter
    from tests.support.fights import AI_ONLY, play

    loaded = load_encounter("default")
    enc: Encounter = play(loaded, 3, control=AI_ONLY)
    names = logtext.names_of_encounter(enc)
    events = list(enc.log)
    reps = 3 if args.quick else 20
    with_clean = per_call_us(lambda: logtext.LogFormatter(names).lines(events), reps)
    original = logtext.clean
    logtext.clean = lambda text, **_: text
    try:
        without = per_call_us(lambda: logtext.LogFormatter(names).lines(events), reps)
    finally:
        logtext.clean = original
    lines = len(logtext.LogFormatter(names).lines(events))
    print(
        f"log of a default fight: {len(events)} events, {lines} lines: "
        f"{with_clean / lines:.2f} us/line cleaned, {without / lines:.2f} us/line without"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
