"""The headless simulator: whole encounters played by policies on every side, many times.

Run i uses seed S + i, so `--runs 1 --seed S+i` reproduces run i whatever `--jobs` was, and
each run can write its combat log as JSON Lines (`run-NNNN-seed-S.jsonl`).

With `--jobs N` the fights go to N forked worker processes in tasks of a few fights each
(`chunks`): the content is loaded and warmed once, before the fork, and each task carries only
job descriptions out and `RunResult`s back. Ctrl-C stops the workers and raises `Interrupted`
with the fights that finished. `RunResult.decision_ms` times every `next_action` call (the
turn driver's `DriverStep.ms`), not only the first plan of a turn.
"""

from __future__ import annotations

import contextlib
import gc
import json
import math
import multiprocessing
import os
import signal
import statistics
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ai.distances import graph_of, warm_lines
from ai.driver import MAX_ACTIONS_PER_TURN as MAX_ACTIONS_PER_TURN  # re-exported: its home
from ai.driver import POLICIES as POLICIES
from ai.driver import DriverStep, TurnDriver, make_policy
from ai.policy import Policy
from ai.styles import StylePick
from engine.content.loader import LoadedEncounter, load_encounter
from engine.decisions import Question
from engine.dice import ScriptedDice, SeededDice
from engine.encounter import Encounter


@dataclass
class RunResult:
    index: int
    seed: int
    winner: str | None
    reason: str
    rounds: int
    policies: dict[str, str]
    damage_dealt: dict[str, int] = field(default_factory=dict)
    damage_taken: dict[str, int] = field(default_factory=dict)
    drops: dict[str, int] = field(default_factory=dict)
    decision_ms: list[float] = field(default_factory=list)
    illegal: list[str] = field(default_factory=list)
    ms: float = 0.0


class _SideDecider:
    """Routes the engine's questions to the policy playing the asking creature's side."""

    def __init__(self, policies: dict[str, Policy], holder: list[Encounter]) -> None:
        self.policies = policies
        self.holder = holder

    def answer(self, question: Question) -> Any:
        enc = self.holder[0]
        side = enc.battle[question.who].side
        return self.policies[side].answer(enc, question)


def play(
    loaded: LoadedEncounter,
    seed: int,
    policy_names: dict[str, str],
    *,
    ruleset: str | None = None,
    dice_prefix: list[int] | None = None,
    on_event: Callable[[dict[str, Any]], None] | None = None,
    index: int = 0,
    styles: Mapping[str, StylePick] | None = None,
    explain: bool = True,
) -> tuple[Encounter, RunResult]:
    """Play one fight to its end with the named policy on each side (`styles`: the command
    line's `--ai-style` choices per side, `ai.styles`). `explain=False`: nobody reads the
    fight's events, so the tactical policy writes no decision texts (the same decisions)."""
    t0 = time.perf_counter()
    sides = list(dict.fromkeys(c.side for c in loaded.spec.combatants))
    styles = styles or {}
    policies = {s: _policy(policy_names.get(s, "tactical"), styles.get(s)) for s in sides}
    if not explain:
        for pol in policies.values():
            if hasattr(pol, "explain"):
                pol.explain = False
    holder: list[Encounter] = []
    decider = _SideDecider(policies, holder)
    dice = ScriptedDice(dice_prefix, fallback=SeededDice(seed)) if dice_prefix else None
    enc = Encounter.create(
        loaded,
        seed=seed,
        dice=dice,
        deciders=lambda _cid: decider,
        control={s: "ai" for s in sides},
        ruleset=ruleset,
    )
    holder.append(enc)
    result = RunResult(index, seed, None, "", 0, {s: policies[s].name for s in sides})
    emitted = 0

    def flush() -> None:
        nonlocal emitted
        if on_event is not None:
            for ev in enc.log[emitted:]:
                on_event(ev.to_json())
        emitted = len(enc.log)

    for pol in policies.values():
        prepare = getattr(pol, "prepare", None)
        if prepare is not None:  # per-map set-up outside any decision's time
            prepare(enc)
    enc.start()
    flush()

    def note(step: DriverStep) -> None:
        if not step.capped:  # every policy call, replans and action points included
            result.decision_ms.append(step.ms)
        if step.refused is not None:
            result.illegal.append(f"{step.who}: {step.chosen!r}: {step.refused}")
        flush()

    TurnDriver(lambda c: policies[c.side]).run(enc, on_step=note)
    flush()
    b = enc.battle
    result.winner, result.reason, result.rounds = b.winner, b.end_reason or "", b.round
    for c in b.combatants.values():
        result.damage_dealt[c.id] = c.damage_dealt
        result.damage_taken[c.id] = c.damage_taken
        result.drops[c.id] = c.drops
    result.ms = (time.perf_counter() - t0) * 1000
    # The fight asks nothing more: cut the decider's links back to it (enc -> decider ->
    # holder, policies' memos -> enc), so it is freed by reference counting when the caller
    # lets go, not by the collector's passes over every event (about 10% of a brawl).
    holder.clear()
    decider.policies = {}
    return enc, result


def _policy(name: str, style: StylePick | None) -> Policy:
    """`make_policy`, given a style only when there is one (a caller may wrap it)."""
    return make_policy(name) if style is None else make_policy(name, style)


# --- many runs ---------------------------------------------------------------------------
_LOADED: dict[tuple[str, str | None], LoadedEncounter] = {}


def _loaded(source: str, ruleset: str | None) -> LoadedEncounter:
    key = (source, ruleset)
    if key not in _LOADED:
        _LOADED[key] = load_encounter(source, ruleset)
    return _LOADED[key]


@dataclass(frozen=True)
class Job:
    source: str
    index: int
    seed: int
    policies: dict[str, str]
    ruleset: str | None
    log_dir: str | None
    dice: tuple[int, ...] | None = None
    styles: dict[str, StylePick] | None = None
    """`--ai-style` choices per side (`ai.styles`)."""


def run_job(job: Job) -> RunResult:
    loaded = _loaded(job.source, job.ruleset)
    lines: list[str] = []
    sink = (lambda ev: lines.append(json.dumps(ev))) if job.log_dir else None
    _, result = play(
        loaded,
        job.seed,
        job.policies,
        ruleset=job.ruleset,
        dice_prefix=list(job.dice) if job.dice else None,
        on_event=sink,
        index=job.index,
        styles=job.styles,
        explain=sink is not None,
    )
    if job.log_dir:
        write_log(Path(job.log_dir) / f"run-{job.index:04d}-seed-{job.seed}.jsonl", lines)
    return result


def prepare_log_dir(folder: Path) -> str | None:
    """Create `--log-dir` if needed; why it can't hold logs (one line), or None."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        return f"--log-dir {folder}: is a file, not a folder"
    except OSError as exc:
        return f"--log-dir {folder}: can't create it: {exc.strerror or exc}"
    if not folder.is_dir():
        return f"--log-dir {folder}: is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"--log-dir {folder}: can't write there: permission denied"
    return None


def write_log(path: Path, lines: list[str]) -> None:
    """The whole log or no file at all (a full disk leaves no empty or cut-short log); an
    OSError whose text is one line naming the file."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise OSError(exc.errno, f"can't write {path}: {exc.strerror or exc}") from None


def _drop_unfinished_logs(jobs: list[Job]) -> None:
    """The temporary files of logs a stopped worker was writing (`write_log`'s `.NAME.tmp`)."""
    for folder in {j.log_dir for j in jobs if j.log_dir}:
        for tmp in Path(folder).glob(".run-*.jsonl.tmp"):
            with contextlib.suppress(OSError):
                tmp.unlink()


def prewarm(loaded: LoadedEncounter) -> None:
    """Per-process set-up shared by every fight of an encounter: the flattened movement graph
    and the engine's line tables out to the longest range of any power in it."""
    graph_of(loaded.bmap)
    # default=0: an encounter whose creatures have no powers at all still simulates.
    longest = max(((p.range or 0) + (p.burst or 0) for p in loaded.powers.values()), default=0)
    warm_lines(min(max(longest, 12), 24))


class Interrupted(Exception):
    """Ctrl-C stopped `run_many`: its workers are gone; `results` are the fights that finished
    (in job order), for a partial summary."""

    def __init__(self, results: list[RunResult], total: int) -> None:
        super().__init__(f"interrupted after {len(results)} of {total} fights")
        self.results = results
        self.total = total


GC_YOUNG = 5000
"""The collector's youngest-generation threshold while `run_many` plays (Python's is 700): a
fight allocates in bursts that die young; brawl 0.55 -> 0.15 ms of collection a fight."""

CHUNK_MAX = 8
"""Fights per task at most: a task is a few fights (~1 s of work), so the bar moves and no
worker idles long at the end, while the per-task cost (one small pickle each way) is noise."""


def chunks(jobs: list[Job], workers: int) -> list[list[Job]]:
    """The jobs cut into tasks for `workers` processes: at least 16 tasks per worker when
    there are enough jobs (the last ones to finish are short), at most `CHUNK_MAX` fights each."""
    size = max(1, min(CHUNK_MAX, len(jobs) // (max(1, workers) * 16)))
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


_Content = dict[tuple[str, str | None], LoadedEncounter]


def _init_worker(content: _Content) -> None:
    """A worker's start: the content comes once per worker (inherited as is under fork), never
    with each fight; Ctrl-C is the parent's to handle (it stops the pool), so a worker ignores
    it rather than print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # forked with the parent's mask (`_pool`)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _LOADED.update(content)


def _pool(ctx: Any, workers: int, content: _Content) -> Any:
    """The worker pool, its helper threads (task feeder, result reader, worker keeper) started
    with SIGINT blocked: a Ctrl-C sent to the process then goes to the main thread, whose wait
    for the next result it interrupts at once. Left to the kernel, it may go to a helper
    thread, and the main thread learns of it only when the next task's results wake it (and
    the KeyboardInterrupt can then surface inside `threading.Condition.wait`'s clean-up)."""
    blocked = hasattr(signal, "pthread_sigmask")
    if blocked:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        return ctx.Pool(workers, _init_worker, (content,))
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _run_chunk(chunk: list[Job]) -> list[RunResult]:
    return [run_job(job) for job in chunk]


def run_many(
    jobs: list[Job], workers: int, progress: Callable[[int], None] | None = None
) -> list[RunResult]:
    """Play every job, in `workers` processes; results in job order whatever `workers` is.
    Ctrl-C raises `Interrupted` (carrying the fights that finished) once no worker is left."""
    frozen = len(jobs) >= 10
    threshold = gc.get_threshold()
    try:
        keys = sorted({(j.source, j.ruleset) for j in jobs}, key=lambda k: (k[0], k[1] or ""))
        content = {k: _loaded(*k) for k in keys}
        if frozen:
            for loaded in content.values():  # load and warm up once here: workers inherit it
                prewarm(loaded)
            # What exists now lives for the whole run: keep the collector from rescanning it
            # (and, with fork, from touching the pages the workers share).
            gc.collect()
            gc.freeze()
            gc.set_threshold(GC_YOUNG, *threshold[1:])  # fewer young passes (measured)
        if workers <= 1 or len(jobs) <= 1:
            return _run_here(jobs, progress)
        return _run_pool(jobs, workers, content, progress)
    except KeyboardInterrupt:  # before any fight (loading, warming up, starting workers)
        raise Interrupted([], len(jobs)) from None
    finally:
        if frozen:
            gc.unfreeze()
            gc.set_threshold(*threshold)


def _run_here(jobs: list[Job], progress: Callable[[int], None] | None) -> list[RunResult]:
    results: list[RunResult] = []
    try:
        for job in jobs:
            results.append(run_job(job))
            if progress:
                progress(len(results))
    except KeyboardInterrupt:
        _drop_unfinished_logs(jobs)
        raise Interrupted(results, len(jobs)) from None
    return results


def _run_pool(
    jobs: list[Job],
    workers: int,
    content: _Content,
    progress: Callable[[int], None] | None,
) -> list[RunResult]:
    tasks = chunks(jobs, workers)
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    results: list[RunResult] = []
    pool = _pool(ctx, min(workers, len(tasks)), content)
    try:
        for done in pool.imap_unordered(_run_chunk, tasks):
            results.extend(done)
            if progress:
                progress(len(results))
    except KeyboardInterrupt:
        pool.terminate()  # the fights under way are dropped, and their unfinished logs
        pool.join()
        _drop_unfinished_logs(jobs)
        raise Interrupted(sorted(results, key=lambda r: r.index), len(jobs)) from None
    except BaseException:
        pool.terminate()
        pool.join()
        raise
    pool.close()
    pool.join()
    return sorted(results, key=lambda r: r.index)


def default_jobs() -> int:
    """One worker per core this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    cores = len(affinity(0)) if affinity is not None else os.cpu_count()
    return max(1, cores or 1)


# --- summary -----------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for k successes in n."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    k = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return s[k]


def summarize(
    results: list[RunResult], sides: Iterable[str], elapsed: float, *, by_policy: bool = False
) -> dict[str, Any]:
    """The `--json` summary. `by_policy` (or runs that differ in who plays what) adds
    `wins_by_policy`: wins per policy name, plus `draw`."""
    runs = len(results)
    wins: dict[str, int] = {s: 0 for s in sides}
    wins["draw"] = 0
    names = sorted({p for r in results for p in r.policies.values()})
    per_policy: dict[str, int] = {p: 0 for p in names}
    for r in results:
        if r.winner is None:
            wins["draw"] += 1
        else:
            wins[r.winner] = wins.get(r.winner, 0) + 1
            pol = r.policies.get(r.winner, "?")
            per_policy[pol] = per_policy.get(pol, 0) + 1
    rounds = [r.rounds for r in results]
    ms = [m for r in results for m in r.decision_ms]
    creatures = sorted({cid for r in results for cid in r.damage_dealt})
    out: dict[str, Any] = {
        "runs": runs,
        "wins": wins,
        "win_rate": {s: (wins[s] / runs if runs else 0.0) for s in wins},
        "win_ci95": {s: list(wilson(wins[s], runs)) for s in wins},
        "mean_rounds": statistics.fmean(rounds) if rounds else 0.0,
        "stdev_rounds": statistics.pstdev(rounds) if rounds else 0.0,
        "decisions": len(ms),
        "decision_ms": {
            "p50": percentile(ms, 0.5),
            "p95": percentile(ms, 0.95),
            "max": max(ms, default=0.0),
        },
        "fight_ms": {"p50": percentile([r.ms for r in results], 0.5)},
        "elapsed_s": elapsed,
        "illegal_actions": sum(len(r.illegal) for r in results),
        "creatures": {
            cid: {
                "damage_dealt": statistics.fmean(r.damage_dealt.get(cid, 0) for r in results),
                "damage_taken": statistics.fmean(r.damage_taken.get(cid, 0) for r in results),
                "drop_rate": sum(1 for r in results if r.drops.get(cid, 0)) / runs,
            }
            for cid in creatures
        }
        if runs
        else {},
    }
    mixed = len({tuple(sorted(r.policies.items())) for r in results}) > 1
    if by_policy or mixed or len(names) > 1:
        out["wins_by_policy"] = {**per_policy, "draw": wins["draw"]}
    return out
