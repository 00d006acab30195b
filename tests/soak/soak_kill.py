"""Kill soak: SIGKILL a fight at truly random moments, resume it each time, lose nothing.

A child process (`python -m tests.soak.fight_driver SAVE SEED`) plays a fight of `default` as
a table does (`tests.soak.table_play`: player actions, undo, redo, every die typed in), with
autosave, and prints `shown L` once the save holds L durable lines (what a screen would then
show). This script kills it with SIGKILL after a delay drawn uniformly over the child's whole
expected run (start-up, the resume's replay, actions, writes: not just after a `shown` line),
then checks:

1. the save reads; it holds at least the L lines shown;
2. its records are byte for byte those of an uninterrupted run of the same fight (in this
   process), as far as it goes, and replaying it gives the state that run had there;
3. a new child resumes from the save with the state the uninterrupted run had at that line;
and when a fight ends, that the save holds exactly the uninterrupted run's lines (no action,
undo or redo lost or repeated across all the kills). Then it starts the next seed.

That a killed process loses nothing the kernel has can't show a missing fsync; the file
layer of `tests/engine/test_save_durability.py` does.

    python tests/soak/soak_kill.py --kills 100 --seed 1      (prints "N kills, M mismatches")
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.content.loader import load_encounter
from engine.save import SaveError, read_save
from tests.soak.table_play import Table, begin, save_lines, step
from tests.support.fights import snapshot_digest

ROOT = Path(__file__).resolve().parents[2]
STATS: Counter[str] = Counter()


@dataclass
class Reference:
    """The uninterrupted fight: its save's lines, and the state digest at each line count."""

    lines: list[bytes] = field(default_factory=list)
    digests: dict[int, str] = field(default_factory=dict)
    seconds: float = 0.0


def reference(seed: int, folder: Path) -> Reference:
    ref = Reference()
    path = folder / f"reference-{seed}.save.jsonl"
    start = time.perf_counter()
    table = Table(seed)
    hist = begin(load_encounter("default"), table, path)
    while step(hist, table, path):
        ref.digests[save_lines(path)] = snapshot_digest(hist.enc)
    hist.saver.close()  # type: ignore[union-attr]
    ref.seconds = time.perf_counter() - start
    ref.lines = path.read_bytes().split(b"\n")[:-1]
    path.unlink()
    return ref


@dataclass
class Run:
    lines: list[str]
    killed: bool
    code: int | None


def run_child(save: Path, seed: int, delay: float | None) -> Run:
    """Start the driver; with a `delay`, SIGKILL it that many seconds after it started."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.soak.fight_driver", str(save), str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    killed = False
    try:
        out, err = proc.communicate(timeout=delay)
    except subprocess.TimeoutExpired:
        os.kill(proc.pid, signal.SIGKILL)
        killed = True
        out, err = proc.communicate()
    if proc.returncode not in (0, -signal.SIGKILL):
        raise RuntimeError(f"the driver failed ({proc.returncode}): {err.strip()[-500:]}")
    if killed and proc.returncode == 0:
        killed = False  # it finished just before
    lines = [x.strip() for x in out.splitlines() if x.strip()]
    return Run(lines, killed, proc.returncode)


def last_shown(lines: list[str]) -> int:
    shown = [int(x.split()[1]) for x in lines if x.startswith("shown ")]
    return shown[-1] if shown else 0


def check_save(save: Path, shown: int, ref: Reference) -> list[str]:
    """Points 1 and 2 of the module docstring."""
    if not save.exists():
        return [] if shown == 0 else [f"{shown} lines shown but no save"]
    try:
        saved = read_save(save)
    except SaveError as exc:
        return [f"unreadable save after a kill: {exc}"]
    if saved.torn:
        STATS["torn last line dropped on load"] += 1
    lines = save.read_bytes()[: saved.good_size].split(b"\n")[:-1]
    problems = []
    if len(lines) < shown:
        problems.append(f"{save.name}: {shown} lines shown but only {len(lines)} saved")
    if len(lines) > shown:
        STATS["durable but not yet shown at the kill"] += 1
    if lines[1:] != ref.lines[1 : len(lines)]:
        problems.append(f"{save.name}: the saved records differ from the uninterrupted run's")
    elif len(lines) in ref.digests and (
        snapshot_digest(saved.encounter()) != ref.digests[len(lines)]
    ):
        problems.append(f"{save.name}: replaying the save gives another state")
    return problems


def check_resume(run: Run, shown: int, ref: Reference) -> list[str]:
    """Point 3."""
    resumed = [x.split() for x in run.lines if x.startswith("resumed ")]
    if not resumed:  # a new fight, or killed before it had rebuilt the fight
        return []
    n, digest = int(resumed[0][1]), resumed[0][2]
    if n < shown:
        return [f"resumed with {n} lines after {shown} were shown"]
    if n in ref.digests and digest != ref.digests[n]:
        return [f"resumed with {n} lines in another state than the fight had"]
    STATS["resumed"] += 1
    return []


def calibrate(folder: Path, seed: int) -> float:
    """Seconds an uninterrupted child takes from start to exit (start-up included): the kill
    delays are drawn over this span, so a kill lands anywhere in a child's life."""
    save = folder / "calibrate.save.jsonl"
    start = time.perf_counter()
    run_child(save, seed, None)
    save.unlink()
    return time.perf_counter() - start


def play_fight(  # type: ignore[no-untyped-def]
    seed: int, folder: Path, rng: random.Random, kills_left: int, per_fight: int, span: float
):
    """Kill and resume one fight until it ends; (kills, mismatches)."""
    ref = reference(seed, folder)
    save = folder / f"fight-{seed}.save.jsonl"
    shown = kills = 0
    mismatches: list[str] = []
    while True:
        kill = kills < min(kills_left, per_fight)
        run = run_child(save, seed, rng.uniform(0.0, span) if kill else None)
        mismatches += check_resume(run, shown, ref)
        shown = max(shown, last_shown(run.lines))
        if not run.killed:
            break
        kills += 1
        if not any(x.startswith("shown") for x in run.lines):
            STATS["killed during start-up or the resume's replay"] += 1
        else:
            STATS["killed while playing"] += 1
        mismatches += check_save(save, shown, ref)
    final = save.read_bytes().split(b"\n")[:-1]
    if final[1:] != ref.lines[1:]:
        mismatches.append(
            f"{save.name}: after the kills the save differs from an uninterrupted run "
            f"({len(final)} vs {len(ref.lines)} lines)"
        )
    return kills, mismatches


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-fight", type=int, default=8, help="kills per fight at most")
    parser.add_argument("--keep", action="store_true", help="keep the saves (printed folder)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    kills = fights = 0
    mismatches: list[str] = []
    t0 = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="skirmish-soak-"))
    seed = args.seed * 1000
    span = calibrate(tmp, seed)
    while kills < args.kills:
        seed += 1
        fights += 1
        done, problems = play_fight(seed, tmp, rng, args.kills - kills, args.per_fight, span)
        kills += done
        mismatches += [f"seed {seed}: {p}" for p in problems]
    for m in mismatches:
        print(m)
    for what, n in sorted(STATS.items()):
        print(f"  {n} x {what}")
    print(
        f"{kills} kills, {len(mismatches)} mismatches "
        f"({fights} fights, {time.perf_counter() - t0:.1f} s)"
    )
    if args.keep:
        print(f"saves kept in {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
