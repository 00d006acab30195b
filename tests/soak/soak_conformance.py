#!/usr/bin/env python3
"""The engine core's conformance soak: `skirmish sim default --runs N --seed 1 --log-dir DIR`,
then `../shared/conformance/check_log.py DIR/*.jsonl`, and the result printed.

    .venv/bin/python tests/soak/soak_conformance.py              # the full 200 fights
    .venv/bin/python tests/soak/soak_conformance.py --runs 20 --jobs 1

It runs the installed `skirmish` command (next to this Python), exactly as a user would, and
keeps the logs when `--keep DIR` is given. Exit status 0 when every fight ended and every log
is clean, 1 otherwise. CI does not run soak scripts; tests/test_cli.py runs a 20-fight version.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK_LOG = ROOT.parent / "shared/conformance/check_log.py"


def soak(runs: int, seed: int, jobs: int | None, log_dir: Path, encounter: str) -> int:
    skirmish = Path(sys.executable).parent / "skirmish"
    cmd = [
        str(skirmish),
        "sim",
        encounter,
        "--runs",
        str(runs),
        "--seed",
        str(seed),
        "--log-dir",
        str(log_dir),
    ]
    if jobs is not None:
        cmd += ["--jobs", str(jobs)]
    t0 = time.perf_counter()
    sim = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - t0
    print(sim.stdout.rstrip())
    if sim.returncode != 0:
        print(f"skirmish sim failed ({sim.returncode}):\n{sim.stderr}", file=sys.stderr)
        return 1
    logs = sorted(log_dir.glob("run-*-seed-*.jsonl"))
    if len(logs) != runs:
        print(f"expected {runs} logs in {log_dir}, found {len(logs)}", file=sys.stderr)
        return 1
    checked = subprocess.run(
        [sys.executable, str(CHECK_LOG), *map(str, logs)],
        capture_output=True,
        text=True,
        check=False,
    )
    report = checked.stdout.rstrip().splitlines()
    for line in report[:-1][:40]:
        print(line)
    summary = report[-1] if report else "no output from check_log.py"
    print(f"check_log.py: {summary}  ({runs} fights simulated in {elapsed:.1f} s)")
    return 0 if checked.returncode == 0 else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None, help="processes (default: all cores)")
    ap.add_argument("--encounter", default="default")
    ap.add_argument("--keep", type=Path, default=None, help="write the logs here and keep them")
    args = ap.parse_args(argv)
    if not CHECK_LOG.is_file():
        print(f"check_log.py not found at {CHECK_LOG}", file=sys.stderr)
        return 1
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        return soak(args.runs, args.seed, args.jobs, args.keep, args.encounter)
    with tempfile.TemporaryDirectory(prefix="skirmish-soak-") as tmp:
        return soak(args.runs, args.seed, args.jobs, Path(tmp), args.encounter)


if __name__ == "__main__":
    sys.exit(main())
