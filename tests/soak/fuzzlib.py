"""The harness both fuzzers share: run cases in worker processes with limits, count outcomes.

Each worker is a forked process that runs one case at a time under:

- an address-space limit (RLIMIT_AS) of its start-up size plus `MEMORY_LIMIT` (1 GB): a case
  that needs more gets MemoryError, reported as "over 1 GB" (the worker is then replaced);
- a time limit: a case that takes more than `HANG_SECONDS` (5 s) of CPU is a hang; one that
  doesn't answer within `WALL_SECONDS` (blocked on a FIFO, say) is killed with its worker and
  is a hang too. CPU time, not wall time, is what counts below a minute: the machine these
  run on is shared, and a 1 s case can take 8 s of wall time when eight processes share two
  cores.

A case is a picklable description; the fuzzer's `run(case)` returns None when the program
behaved (accepted the input, or refused it with a proper one-line error) or a short text
saying what went wrong (a traceback's last frame, an error printed on two lines, ...).
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import resource
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

MEMORY_LIMIT = 1 << 30
HANG_SECONDS = 5.0
WALL_SECONDS = 60.0

Runner = Callable[[Any], str | None]


@dataclass
class Report:
    """What a fuzz run found: counts, and the first example of each kind of failure."""

    cases: int = 0
    ok: int = 0
    crashes: Counter[str] = field(default_factory=Counter)
    hangs: int = 0
    memory: int = 0
    slowest: float = 0.0
    """CPU seconds of the slowest case."""
    peak_rss_mb: float = 0.0
    examples: dict[str, Any] = field(default_factory=dict)
    elapsed: float = 0.0

    def line(self, name: str) -> str:
        return (
            f"{name}: {self.cases} cases in {self.elapsed:.0f} s: "
            f"{sum(self.crashes.values())} crashes, {self.hangs} hangs over {HANG_SECONDS:.0f} s, "
            f"{self.memory} runs over 1 GB; slowest case {self.slowest:.2f} s CPU, "
            f"peak worker RSS {self.peak_rss_mb:.0f} MB"
        )

    def details(self) -> list[str]:
        out = []
        for kind, n in self.crashes.most_common():
            out.append(f"  {n:5d} x {kind}   e.g. {str(self.examples.get(kind))[:300]}")
        for kind in ("hang", "memory"):
            if kind in self.examples:
                out.append(f"  {kind}: e.g. {str(self.examples[kind])[:300]}")
        return out


def _worker(conn: Connection, run: Runner) -> None:
    with open("/proc/self/statm") as statm:
        vm = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    limit = vm + MEMORY_LIMIT
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    while True:
        case = conn.recv()
        if case is None:
            return
        start = time.process_time()
        try:
            outcome: tuple[str, str | None] = ("done", run(case))
        except MemoryError:
            outcome = ("memory", None)
        except BaseException as exc:  # the runner's own bug or an escaped error: a crash
            tb = traceback.extract_tb(exc.__traceback__)
            where = f"{tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno}" if tb else "?"
            outcome = ("done", f"{type(exc).__name__} at {where}: {str(exc)[:120]}")
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        conn.send((*outcome, time.process_time() - start, rss))


class _Slot:
    def __init__(self, run: Runner) -> None:
        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child, run), daemon=True)
        self.proc.start()
        child.close()
        self.case: Any = None
        self.sent = 0.0

    def kill(self) -> None:
        self.proc.kill()
        self.proc.join()
        self.conn.close()

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.kill()


def fuzz(
    run: Runner,
    cases: Iterable[Any],
    workers: int = 2,
    progress: bool = False,
    budget_s: float | None = None,
) -> Report:
    """Run every case (see the module docstring); never raises for a case's behaviour. With
    `budget_s`, no new case starts after that many seconds (the report says how many ran)."""
    report = Report()
    started = time.perf_counter()
    todo = iter(cases)
    slots = [_Slot(run) for _ in range(max(1, workers))]
    busy: list[_Slot] = []

    def feed(slot: _Slot) -> bool:
        if budget_s is not None and time.perf_counter() - started > budget_s:
            return False
        case = next(todo, None)
        if case is None:
            return False
        slot.case, slot.sent = case, time.perf_counter()
        slot.conn.send(case)
        busy.append(slot)
        return True

    for slot in slots:
        feed(slot)
    try:
        while busy:
            ready = mp.connection.wait([s.conn for s in busy], timeout=0.2)
            now = time.perf_counter()
            for slot in list(busy):
                if slot.conn in ready:
                    try:
                        answer = slot.conn.recv()
                    except (EOFError, OSError):  # the worker died (a segfault, the OOM killer)
                        answer = ("done", "worker died", now - slot.sent, 0.0)
                    replace = answer[0] == "memory" or answer[1] == "worker died"
                    _record(report, slot, answer)
                elif now - slot.sent > WALL_SECONDS:
                    report.cases += 1
                    report.hangs += 1
                    report.examples.setdefault("hang", slot.case)
                    replace = True
                else:
                    continue
                busy.remove(slot)
                if replace:
                    slot.kill()
                    slots[slots.index(slot)] = slot = _Slot(run)
                feed(slot)
                if progress and report.cases % 500 == 0:
                    print(f"  ... {report.cases} cases", flush=True)
    finally:
        for slot in slots:
            slot.stop()
    report.elapsed = time.perf_counter() - started
    return report


def _record(report: Report, slot: _Slot, answer: tuple[str, str | None, float, float]) -> None:
    kind, problem, seconds, rss = answer
    report.cases += 1
    report.slowest = max(report.slowest, seconds)
    report.peak_rss_mb = max(report.peak_rss_mb, rss)
    if kind == "memory":
        report.memory += 1
        report.examples.setdefault("memory", slot.case)
    elif problem is None:
        report.ok += 1
    else:
        key = problem.split(":", 1)[0] if " at " in problem.split(":", 1)[0] else problem[:60]
        report.crashes[key] += 1
        report.examples.setdefault(key, (problem, slot.case))
    if seconds > HANG_SECONDS:
        report.hangs += 1
        report.examples.setdefault("hang", slot.case)
