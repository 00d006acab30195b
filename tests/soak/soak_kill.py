"""Kill soak: SIGKILL a fight at random moments, resume it each time, lose nothing.

A child process (`python -m tests.soak.fight_driver SAVE SEED`) plays an AI-vs-AI fight of
`default` with autosave and prints `shown N` once record N is durable (what a screen would
then show). This script kills it with SIGKILL at random points (during start-up, between
records, in the middle of an action or a write), then checks:

1. the save holds at least the N records shown, and they are the records the fight made
   (compared with an uninterrupted reference run of the same seed, in this process);
2. an independent replay of the save's first N records has the state the fight had after
   record N (the reference run's snapshot);
3. a new child resumes from the save with M = N or N + 1 records (one may have become durable
   just before the kill, unshown) and the reference run's state after M records;
and when a fight ends, that the save holds exactly the reference run's records (no action
lost or repeated across all the kills). Then it starts the next seed.

    python tests/soak/soak_kill.py --kills 100 --seed 1      (prints "N kills, M mismatches")
"""

from __future__ import annotations

import argparse
import os
import random
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
from engine.encounter import Encounter, Record
from engine.save import SaveError, read_save, same_record
from tests.support.fights import AI_ONLY, play, snapshot_digest

ROOT = Path(__file__).resolve().parents[2]
STATS: Counter[str] = Counter()


@dataclass
class Reference:
    records: list[Record] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)
    """digests[k - 1]: the state after k records."""


def reference(seed: int) -> Reference:
    ref = Reference()

    def after(enc: Encounter) -> None:
        ref.digests.append(snapshot_digest(enc))

    enc = play(load_encounter("default"), seed, player="naive", control=AI_ONLY, after=after)
    ref.records = list(enc.records)
    return ref


@dataclass
class Run:
    lines: list[str]
    killed: bool
    code: int | None


def run_child(save: Path, seed: int, rng: random.Random, kill: bool, shown_before: int) -> Run:
    """Start the driver; with `kill`, SIGKILL it at a random moment."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.soak.fight_driver", str(save), str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    lines: list[str] = []
    killed = False
    if kill:
        if rng.random() < 0.1:  # during start-up or the resume's replay
            time.sleep(rng.uniform(0.0, 0.8))
        else:
            target = shown_before + rng.randint(1, 40)
            for line in proc.stdout:
                lines.append(line.strip())
                if line.startswith("shown") and int(line.split()[1]) >= target:
                    break
            time.sleep(rng.choice([0.0, 0.0, rng.uniform(0, 0.003)]))
        done = any(x.startswith("done") for x in lines)  # over: let it exit by itself
        if not done and proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            killed = True
            if not any(x.startswith(("shown", "resumed")) for x in lines):
                STATS["killed during start-up or the resume's replay"] += 1
    # Read the rest through the same file object: `for line in proc.stdout` reads ahead,
    # and communicate() would read the pipe underneath, losing what was read ahead.
    lines += [x.strip() for x in proc.stdout.read().splitlines() if x.strip()]
    assert proc.stderr is not None
    err = proc.stderr.read()
    proc.wait()
    if proc.returncode not in (0, -signal.SIGKILL):
        raise RuntimeError(f"the driver failed ({proc.returncode}): {err.strip()[-500:]}")
    return Run(lines, killed, proc.returncode)


def last_shown(lines: list[str]) -> int:
    shown = [int(x.split()[1]) for x in lines if x.startswith("shown ")]
    return shown[-1] if shown else 0


def check_save(save: Path, shown: int, ref: Reference) -> list[str]:
    """Points 1 and 2 of the module docstring."""
    if shown == 0 and not save.exists():
        return []
    try:
        saved = read_save(save)
    except SaveError as exc:
        return [f"unreadable save after a kill: {exc}"]
    recs = saved.records
    problems = []
    if len(recs) < shown:
        problems.append(f"{save.name}: {shown} records shown but only {len(recs)} saved")
    if not all(same_record(a, b) for a, b in zip(recs, ref.records, strict=False)):
        problems.append(f"{save.name}: the saved records differ from the fight's")
    if shown and snapshot_digest(saved.encounter(upto=shown)) != ref.digests[shown - 1]:
        problems.append(f"{save.name}: replaying the {shown} shown records gives another state")
    return problems


def check_resume(run: Run, shown: int, ref: Reference) -> list[str]:
    """Point 3."""
    resumed = [x.split() for x in run.lines if x.startswith("resumed ")]
    if resumed and int(resumed[0][1]) == shown + 1:
        STATS["resumed with one durable record the screen hadn't shown"] += 1
    if not resumed:  # fine if it was a new fight, or killed before it had rebuilt the fight
        ok = shown == 0 or (run.killed and not any(x.startswith("shown") for x in run.lines))
        return [] if ok else ["the resumed driver didn't report its state"]
    m, digest = int(resumed[0][1]), resumed[0][2]
    if not shown <= m <= shown + 1:
        return [f"resumed with {m} records after {shown} were shown"]
    if m and digest != ref.digests[m - 1]:
        return [f"resumed with {m} records in another state than the fight had"]
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--per-fight",
        type=int,
        default=8,
        help="kills at most this many times per fight, then lets it finish",
    )
    parser.add_argument("--keep", action="store_true", help="keep the saves (printed folder)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    kills = 0
    mismatches: list[str] = []
    fights = 0
    t0 = time.perf_counter()
    tmp = tempfile.mkdtemp(prefix="skirmish-soak-")
    seed = args.seed * 1000
    while kills < args.kills:
        seed += 1
        fights += 1
        ref = reference(seed)
        save = Path(tmp) / f"fight-{seed}.save.jsonl"
        shown = 0
        here = 0
        while True:
            kill = kills < args.kills and here < args.per_fight
            run = run_child(save, seed, rng, kill=kill, shown_before=shown)
            mismatches += check_resume(run, shown, ref)
            shown = max(shown, last_shown(run.lines))
            if not run.killed:
                break
            kills += 1
            here += 1
            mismatches += check_save(save, shown, ref)
        final = read_save(save)
        if not (
            len(final.records) == len(ref.records)
            and all(same_record(a, b) for a, b in zip(final.records, ref.records, strict=True))
        ):
            mismatches.append(
                f"{save.name}: after the kills the fight's records differ from "
                f"an uninterrupted run ({len(final.records)} vs {len(ref.records)})"
            )
        if final.finished is None:
            mismatches.append(f"{save.name}: the finished fight isn't marked finished")
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
        for p in Path(tmp).iterdir():
            p.unlink()
        os.rmdir(tmp)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
