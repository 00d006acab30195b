#!/usr/bin/env python3
"""Soak the `4srd` and `d20srd` rulesets: headless fights through the installed `skirmish`
command, then `../shared/conformance/check_log.py` on every log.

    .venv/bin/python tests/soak/soak_rulesets.py --runs 200
    .venv/bin/python tests/soak/soak_rulesets.py --runs 5 --default-runs 5 --jobs 1

The cases: each ruleset's bundled encounter (`crossroads-4srd`, `keep-d20`) `--runs` times,
and the ffd20 `default` encounter played under each of the two (`--ruleset 4srd|d20srd`,
monsters with printed defenses) `--default-runs` times. Each case is
`skirmish sim ENCOUNTER [--ruleset R] --runs N --seed S --log-dir DIR` exactly as a user
would type it; one line per case: wins, rounds, and check_log.py's summary, then any finding.
Exit status 0 when every fight ended and every log is clean, 1 otherwise.

`soak()` is the same as a function, for tests/content/test_rulesets_soak.py.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK_LOG = ROOT.parent / "shared" / "conformance" / "check_log.py"
CASES = (
    ("crossroads-4srd", None),
    ("keep-d20", None),
    ("default", "4srd"),
    ("default", "d20srd"),
)


@dataclass
class CaseResult:
    encounter: str
    ruleset: str
    runs: int
    logs: int = 0
    ended: int = 0
    passed: int = 0
    failed: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    mean_rounds: float = 0.0
    seconds: float = 0.0
    findings: list[str] = field(default_factory=list)
    error: str = ""

    @property
    def clean(self) -> bool:
        return (
            not self.error
            and self.logs == self.ended == self.passed == self.runs
            and self.failed == 0
        )

    def line(self) -> str:
        wins = "  ".join(f"{s} {n}" for s, n in self.wins.items())
        return (
            f"{self.encounter:<16} {self.ruleset:<7} runs {self.runs:>3}  {wins}  "
            f"rounds {self.mean_rounds:4.1f}  check_log: {self.passed} passed, "
            f"{self.failed} failed  [{self.seconds:.1f} s]"
            + (f"  ERROR {self.error}" if self.error else "")
        )


def _summary(logs: list[Path]) -> tuple[int, dict[str, int], list[int]]:
    ended = 0
    wins: dict[str, int] = {}
    rounds: list[int] = []
    for log in logs:
        lines = [ln for ln in log.read_text(encoding="utf-8").splitlines() if ln.strip()]
        last = json.loads(lines[-1]) if lines else {}
        if last.get("type") == "encounter_end":
            ended += 1
            key = last.get("winner") or "draw"
            wins[key] = wins.get(key, 0) + 1
            rounds.append(int(last.get("rounds", 0)))
    return ended, wins, rounds


def soak_case(
    encounter: str, ruleset: str | None, runs: int, seed: int, jobs: int | None, log_dir: Path
) -> CaseResult:
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
    if ruleset is not None:
        cmd += ["--ruleset", ruleset]
    if jobs is not None:
        cmd += ["--jobs", str(jobs)]
    result = CaseResult(encounter, ruleset or "(own)", runs)
    t0 = time.perf_counter()
    sim = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    if sim.returncode != 0:
        result.error = f"skirmish sim exited {sim.returncode}: {sim.stderr.strip()[-500:]}"
    logs = sorted(log_dir.glob("run-*-seed-*.jsonl"))
    result.logs = len(logs)
    if logs:
        first = json.loads(logs[0].read_text(encoding="utf-8").splitlines()[0])
        result.ruleset = first.get("ruleset", result.ruleset)
        result.ended, result.wins, rounds = _summary(logs)
        result.mean_rounds = sum(rounds) / len(rounds) if rounds else 0.0
        checked = subprocess.run(
            [sys.executable, str(CHECK_LOG), *map(str, logs)],
            capture_output=True,
            text=True,
            check=False,
        )
        report = checked.stdout.rstrip().splitlines()
        summary = report[-1] if report else ""
        try:
            passed_text, failed_text = summary.split(",")
            result.passed = int(passed_text.split()[0])
            result.failed = int(failed_text.split()[0])
        except ValueError:
            result.error = result.error or f"check_log.py gave no summary: {checked.stdout!r}"
        result.findings = report[:-1]
    result.seconds = time.perf_counter() - t0
    return result


def soak(
    runs: int,
    default_runs: int,
    *,
    seed: int = 1,
    jobs: int | None = None,
    keep: Path | None = None,
    echo: bool = False,
) -> list[CaseResult]:
    out = []
    with tempfile.TemporaryDirectory(prefix="soak-rulesets-") as tmp:
        base = keep if keep is not None else Path(tmp)
        for encounter, ruleset in CASES:
            n = runs if ruleset is None else default_runs
            if n <= 0:
                continue
            log_dir = base / f"{encounter}-{ruleset or 'own'}"
            log_dir.mkdir(parents=True, exist_ok=True)
            result = soak_case(encounter, ruleset, n, seed, jobs, log_dir)
            if echo:
                print(result.line(), flush=True)
                for line in result.findings[:20]:
                    print(f"  {line}")
            out.append(result)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200, help="fights of each ruleset's encounter")
    ap.add_argument(
        "--default-runs",
        type=int,
        default=20,
        help="fights of `default` under each ruleset (0: skip)",
    )
    ap.add_argument("--seed", type=int, default=1, help="run i uses seed + i")
    ap.add_argument("--jobs", type=int, default=None, help="processes (default: all cores)")
    ap.add_argument("--keep", type=Path, default=None, metavar="DIR", help="keep the logs here")
    args = ap.parse_args(argv)
    if not CHECK_LOG.is_file():
        print(f"check_log.py not found at {CHECK_LOG}", file=sys.stderr)
        return 1
    print(
        f"soak: {args.runs} fights per ruleset encounter, {args.default_runs} of default "
        f"under each ruleset, seed {args.seed}"
    )
    results = soak(
        args.runs, args.default_runs, seed=args.seed, jobs=args.jobs, keep=args.keep, echo=True
    )
    bad = [r for r in results if not r.clean]
    print("all clean" if not bad else f"{len(bad)} case(s) not clean")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
