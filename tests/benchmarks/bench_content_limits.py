"""What content at the limits costs (target: any accepted load under 2 s), and what refusing
hostile files costs (the limits must make them cheap, not just refuse them eventually).

Prints one line per case: the time and the peak memory (tracemalloc) of loading it.

- largest: an encounter with 8 included libraries, values and bytes up to the load limits;
- biggest map: 100x100 squares with 64 combatants, loaded, then one simulated fight;
- refused: a billion-laughs file, 5,000 nested brackets, a 3000x3000 map, a 600 KB file;
- dice: the AI's odds of `200d1000` x 6 (approximate) and of 40d20 (exact, the largest).

    python tests/benchmarks/bench_content_limits.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.content import ContentErrors, load_encounter
from engine.content.limits import MAX_COMBATANTS, MAX_MAP_SIDE, MAX_VALUES
from engine.dice import DiceExpr, _table


def _run(work: Callable[[], object]) -> str:
    try:
        work()
        return "accepted"
    except ContentErrors as exc:
        return "refused: " + exc.errors[0].message[:50]


def measure(name: str, work: Callable[[], object], memory: bool = True) -> None:
    """CPU and wall time of one run; then the peak of traced memory in a second run (tracing
    slows Python down several times, so it is not timed). CPU time is the number to read on a
    shared machine: wall time there includes waiting for a core."""
    wall, cpu = time.perf_counter(), time.process_time()
    outcome = _run(work)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = 0
    if memory:
        tracemalloc.start()
        _run(work)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    print(
        f"{name:<34} {cpu * 1000:7.0f} ms CPU {wall * 1000:7.0f} ms wall "
        f"{peak / 2**20:6.1f} MB  {outcome}"
    )


def library(n: int, tag: str) -> str:
    """`n` creatures and powers: about 28 values each."""
    cre = "".join(
        f"  - {{id: {tag}c{i}, name: C{i}, role: brute, hp: 30, speed: 6, "
        f"defenses: {{ac: 15, fortitude: 14, reflex: 12, will: 12}}, powers: [{tag}p{i}]}}\n"
        for i in range(n)
    )
    pw = "".join(
        f"  - {{id: {tag}p{i}, name: P{i}, keywords: [a, b], attack: {{vs: ac, bonus: 6}}, "
        f"hit: {{damage: {{dice: 1d8+3, types: [fire]}}}}}}\n"
        for i in range(n)
    )
    return f"creatures:\n{cre}powers:\n{pw}"


def encounter(side: int, combatants: int, includes: list[str]) -> str:
    rows = ["#" * side] + ["#" + "." * (side - 2) + "#" for _ in range(side - 2)] + ["#" * side]
    grid = "".join(f"    {r}\n" for r in rows)
    comb = "".join(
        f"  - {{id: x{i}, creature: a, side: {'one' if i % 2 else 'two'}, "
        f"pos: [{1 + i // 2}, {1 if i % 2 else side - 2}]}}\n"
        for i in range(combatants)
    )
    return (
        f"name: big\ninclude: [{', '.join(includes)}]\nmap:\n  name: Big\n  grid: |\n{grid}"
        "creatures:\n  - {id: a, name: A, role: brute, hp: 12, "
        "defenses: {ac: 12, fortitude: 12, reflex: 12, will: 12}, powers: [hit]}\n"
        "powers:\n  - {id: hit, name: Hit, attack: {vs: ac, bonus: 5}, "
        "hit: {damage: {dice: 1d8}}}\n"
        f"combatants:\n{comb}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the simulated fight")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="skirmish-bench-limits-"))
    per = (MAX_VALUES - 2_000) // 8 // 28  # eight libraries, just inside the values limit
    names = []
    for k in range(8):
        (folder / f"lib{k}.yaml").write_text(library(per, f"l{k}"))
        names.append(f"lib{k}")
    (folder / "largest.yaml").write_text(encounter(20, 8, names))
    measure("largest (8 includes, ~18k values)", lambda: load_encounter(folder / "largest.yaml"))
    side = MAX_MAP_SIDE
    (folder / "map.yaml").write_text(encounter(side, MAX_COMBATANTS, []))
    measure(
        f"map {side}x{side}, {MAX_COMBATANTS} combatants",
        lambda: load_encounter(folder / "map.yaml"),
    )
    if not args.quick:
        from ai.sim import play

        loaded = load_encounter(folder / "map.yaml")
        measure("  and one simulated fight", lambda: play(loaded, 1, {}), memory=False)
    laughs = ["a: &a [x,x,x,x,x,x,x,x,x,x]"] + [
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 10) + "]"
        for i in range(9)
    ]
    (folder / "laughs.yaml").write_text("\n".join(laughs) + "\n")
    measure("refused: billion laughs", lambda: load_encounter(folder / "laughs.yaml"))
    (folder / "deep.yaml").write_text("a: " + "[" * 5000 + "]" * 5000 + "\n")
    measure("refused: 5,000 nested brackets", lambda: load_encounter(folder / "deep.yaml"))
    (folder / "huge.yaml").write_text(encounter(3000, 2, []))
    measure("refused: 3000x3000 map", lambda: load_encounter(folder / "huge.yaml"))
    (folder / "fat.yaml").write_text("# " + "x" * 600_000 + "\n")
    measure("refused: 600 KB file", lambda: load_encounter(folder / "fat.yaml"))
    for text in ["+".join(["200d1000"] * 6), "40d20"]:
        expr = DiceExpr.parse(text)
        _table.cache_clear()
        start = time.perf_counter()
        for n in range(expr.min(), expr.max() + 1, max(1, (expr.max() - expr.min()) // 50)):
            expr.prob_at_least(n)
        ms = (time.perf_counter() - start) * 1000
        kind = "exact" if expr.exact_odds else "approximate"
        print(f"odds of {text[:22]:<26} {ms:8.1f} ms  ({kind}, ~50 totals)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
