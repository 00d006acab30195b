"""The side-turn bench (issue 14, target 2) runs in CI at a tiny size, and its stage timers
leave the AI's functions as they found them.

`tests/benchmarks/bench_side.py` times the stages of the monsters' side turns and counts what
repeats across their decisions; the full run is by hand (docs/ai.md, "One side's turn").
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

from tests.support.helpers import load_script

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests" / "benchmarks" / "bench_side.py"


def test_the_bench_runs_small_and_prints_the_stages_and_the_repeats() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--quick", "--monsters", "10", "--rounds", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "40x40 with 10 raiders, 1 fights" in out
    assert "side turn CPU: mean" in out
    assert "attack search (attack_plans)" in out
    assert "repeated: square values asked again" in out


def test_the_counted_run_plays_and_prints_the_decisions_digest() -> None:
    """What `--valgrind` runs under callgrind (`--counted`), without callgrind: the same
    fights, a stage called through `functools.reduce`, the decisions' digest."""
    args = ["--counted", "--monsters", "10", "--fights", "1", "--rounds", "1"]
    done = subprocess.run(
        [sys.executable, str(BENCH), *args, "--stage", "ai.moving.stayers"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert " decisions, digest " in done.stdout


def test_the_probe_puts_every_function_back() -> None:
    bench = load_script("benchmarks/bench_side.py")
    owners = [(importlib.import_module(m), name) for m, name, _ in bench.STAGES]
    owners += [(getattr(importlib.import_module(m), c), n) for m, c, n, _ in bench.METHODS]
    owners += [(importlib.import_module(m), "kept_routes") for m in ("ai.moving", "ai.squares")]
    before = [getattr(o, n) for o, n in owners]
    with bench.probed(bench.Probe()):
        assert [getattr(o, n) for o, n in owners] != before
    assert [getattr(o, n) for o, n in owners] == before
