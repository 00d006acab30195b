"""Rough throughput check for the dice hot path.

The engine budget is >= 30,000 attacks/s, each of which rolls a d20 and some
damage, so "2d6+3" through the seeded source must be far faster than that.
Run from the repository root: `.venv/bin/python -m tests.benchmarks.bench_dice`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.dice import DiceExpr, SeededDice, d20, roll


def rate(label: str, fn: Callable[[], object], n: int) -> None:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    elapsed = time.perf_counter() - start
    print(f"{label:<34} {n / elapsed:>12,.0f} /s")


def main() -> None:
    dice = SeededDice(12345)
    expr = DiceExpr.parse("2d6+3")
    damage = DiceExpr.parse("1d8+4")
    n = 300_000
    rate("roll('2d6+3') seeded", lambda: roll(expr, dice), n)
    rate("parse('2d6+3') cached + roll", lambda: roll(DiceExpr.parse("2d6+3"), dice), n)
    rate("d20 + roll('1d8+4') (one attack)", lambda: (d20(dice), roll(damage, dice)), n)
    rate("prob_at_least (cached table)", lambda: expr.prob_at_least(9), n)


if __name__ == "__main__":
    main()
