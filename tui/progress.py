"""`skirmish sim`'s progress bar: how far, and how long until done (an ETA).

Kept apart from the command line so the text is a pure function of (done, total, elapsed)
that a test can pin without a terminal or a clock.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

WIDTH = 30


def clock(seconds: float) -> str:
    """A duration as m:ss (h:mm:ss past an hour)."""
    s = max(0, round(seconds))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def bar(done: int, total: int, elapsed: float) -> str:
    """One line: `[####....] 40/100  0:12 elapsed, ETA 0:18` (the ETA from the mean pace so
    far; "ETA --" until the first run is done)."""
    total = max(1, total)
    done = min(max(0, done), total)
    filled = WIDTH * done // total
    if done >= total:
        eta = "done"
    elif done == 0:
        eta = "ETA --:--"
    else:
        eta = "ETA " + clock(elapsed / done * (total - done))
    shown = f"[{'#' * filled}{'.' * (WIDTH - filled)}] {done}/{total}"
    return f"{shown}  {clock(elapsed)} elapsed, {eta}"


EVERY_S = 0.1
"""The bar is redrawn at most this often (and at the end): ticks come as fast as fights end,
and a terminal write per fight would cost more than the fight on a slow link."""


def progress(
    total: int,
    out: TextIO | None = None,
    now: Callable[[], float] = time.perf_counter,
    every: float = EVERY_S,
) -> Callable[[int], None]:
    """A tick(done) callback that redraws the bar on one line of `out` (stderr), at most once
    per `every` seconds, and always for the last run."""
    start = now()
    stream = out if out is not None else sys.stderr
    drawn = [start - every]

    def tick(done: int) -> None:
        t = now()
        if done < total and t - drawn[0] < every:
            return
        drawn[0] = t
        stream.write("\r" + bar(done, total, t - start) + " ")
        stream.flush()

    return tick
