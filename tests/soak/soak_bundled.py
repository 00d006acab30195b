#!/usr/bin/env python3
"""Soak the bundled encounters: N headless fights of each, then check_log.py on every log.

    .venv/bin/python tests/soak/soak_bundled.py --runs 50
    .venv/bin/python tests/soak/soak_bundled.py --runs 5 --only default fog --policy naive

Every fight is played by the simulator (`ai.sim`, both sides AI, the `tactical` policy unless
`--policy` says otherwise), writes its JSON Lines log, and the logs of each encounter are
checked by `../shared/conformance/check_log.py`. One line per encounter: runs, wins per side,
draws, mean rounds, AI actions the engine refused, and check_log's summary; then any finding.
Exit status 0 when every fight ended and every log is clean, 1 otherwise.

`soak()` is the same thing as a function, for tests/content/test_bundled_soak.py.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ai.sim import Job, default_jobs, run_many  # noqa: E402
from engine.content.bundled import bundled_encounters  # noqa: E402
from engine.content.loader import load_encounter  # noqa: E402


def find_check_log() -> Path:
    """check_log.py: $SKIRMISH_SHARED/conformance, else ../shared next to the checkout."""
    candidates = []
    if os.environ.get("SKIRMISH_SHARED"):
        candidates.append(Path(os.environ["SKIRMISH_SHARED"]) / "conformance" / "check_log.py")
    candidates.append(ROOT.parent / "shared" / "conformance" / "check_log.py")
    for path in candidates:
        if path.is_file():
            return path
    raise FileNotFoundError(
        "check_log.py not found (looked in: " + ", ".join(str(p) for p in candidates) + ")"
    )


@dataclass
class EncounterSoak:
    """What `runs` fights of one bundled encounter did."""

    name: str
    runs: int
    sides: list[str]
    wins: dict[str, int]
    draws: int
    mean_rounds: float
    max_rounds: int
    unfinished: int
    """Fights whose log has no `encounter_end` (the simulator stopped them): should be 0."""
    illegal: list[str]
    """Actions the AI chose that the engine refused (the simulator ended the turn instead)."""
    check_passed: int
    check_failed: int
    findings: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def clean(self) -> bool:
        return self.unfinished == 0 and self.check_failed == 0 and self.check_passed == self.runs

    def line(self) -> str:
        wins = "  ".join(f"{s} {self.wins.get(s, 0)}" for s in self.sides)
        return (
            f"{self.name:<12} runs {self.runs:>3}  {wins}  draw {self.draws}  "
            f"rounds {self.mean_rounds:4.1f} (max {self.max_rounds})  "
            f"refused {len(self.illegal)}  check_log: {self.check_passed} passed, "
            f"{self.check_failed} failed  [{self.seconds:.1f} s]"
        )


def _ended(log: Path) -> bool:
    """True if the log's last event is `encounter_end`."""
    lines = [ln for ln in log.read_text(encoding="utf-8").splitlines() if ln.strip()]
    return bool(lines) and json.loads(lines[-1]).get("type") == "encounter_end"


def run_check_log(logs: list[Path]) -> tuple[int, int, list[str]]:
    """(passed, failed, finding lines) of check_log.py over `logs`."""
    script = find_check_log()
    proc = subprocess.run(
        [sys.executable, str(script), *map(str, logs)], capture_output=True, text=True, check=False
    )
    lines = proc.stdout.splitlines()
    summary = lines[-1] if lines else ""
    try:
        passed_text, failed_text = summary.split(",")
        passed = int(passed_text.split()[0])
        failed = int(failed_text.split()[0])
    except ValueError:
        return 0, len(logs), [f"check_log.py gave no summary: {proc.stdout!r} {proc.stderr!r}"]
    return passed, failed, lines[:-1]


def soak_one(
    name: str,
    runs: int,
    *,
    seed: int = 1,
    policy: str = "tactical",
    jobs: int | None = None,
    log_dir: Path | None = None,
) -> EncounterSoak:
    t0 = time.perf_counter()
    loaded = load_encounter(name)
    sides = list(dict.fromkeys(c.side for c in loaded.spec.combatants))
    with tempfile.TemporaryDirectory(prefix=f"soak-{name}-") as tmp:
        out = (log_dir / name) if log_dir is not None else Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        batch = [
            Job(name, i, seed + i, {s: policy for s in sides}, None, str(out), None)
            for i in range(runs)
        ]
        results = run_many(batch, jobs if jobs is not None else default_jobs())
        logs = sorted(out.glob("run-*.jsonl"))
        unfinished = sum(1 for p in logs if not _ended(p))
        unfinished += max(0, runs - len(logs))
        passed, failed, findings = run_check_log(logs)
    wins = {s: sum(1 for r in results if r.winner == s) for s in sides}
    rounds = [r.rounds for r in results]
    return EncounterSoak(
        name=name,
        runs=runs,
        sides=sides,
        wins=wins,
        draws=sum(1 for r in results if r.winner is None),
        mean_rounds=statistics.fmean(rounds) if rounds else 0.0,
        max_rounds=max(rounds, default=0),
        unfinished=unfinished,
        illegal=[f"run {r.index}: {x}" for r in results for x in r.illegal],
        check_passed=passed,
        check_failed=failed,
        findings=findings,
        seconds=time.perf_counter() - t0,
    )


def soak(
    runs: int,
    *,
    only: list[str] | None = None,
    runs_for: dict[str, int] | None = None,
    seed: int = 1,
    policy: str = "tactical",
    jobs: int | None = None,
    log_dir: Path | None = None,
    echo: bool = False,
) -> list[EncounterSoak]:
    """Soak every bundled encounter (or those in `only`); `runs_for` overrides `runs` per name."""
    names = [e.name for e in bundled_encounters()]
    if only:
        unknown = [n for n in only if n not in names]
        if unknown:
            raise SystemExit(f"no bundled encounter {unknown[0]!r} (have: {', '.join(names)})")
        names = [n for n in names if n in only]
    out = []
    for name in names:
        n = (runs_for or {}).get(name, runs)
        result = soak_one(name, n, seed=seed, policy=policy, jobs=jobs, log_dir=log_dir)
        if echo:
            print(result.line(), flush=True)
        out.append(result)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=50, help="fights per encounter (default 50)")
    p.add_argument(
        "--big-runs",
        type=int,
        default=None,
        help="fights of `battle`, the 60x60 performance case (default: --runs)",
    )
    p.add_argument("--only", nargs="+", default=None, metavar="NAME", help="these encounters")
    p.add_argument("--seed", type=int, default=1, help="run i uses seed + i")
    p.add_argument("--policy", choices=["tactical", "naive"], default="tactical")
    p.add_argument("--jobs", type=int, default=None, help="processes (default: all cores)")
    p.add_argument(
        "--keep",
        type=Path,
        default=None,
        metavar="DIR",
        help="keep the logs under DIR/ENCOUNTER/ instead of a temporary folder",
    )
    args = p.parse_args(argv)
    runs_for = {"battle": args.big_runs} if args.big_runs is not None else None
    print(f"soak: {args.runs} fights per encounter, policy {args.policy}, seed {args.seed}")
    results = soak(
        args.runs,
        only=args.only,
        runs_for=runs_for,
        seed=args.seed,
        policy=args.policy,
        jobs=args.jobs,
        log_dir=args.keep,
        echo=True,
    )
    bad = [r for r in results if not r.clean]
    for r in results:
        for line in r.findings[:20]:
            print(f"  {r.name}: {line}")
        for line in r.illegal[:5]:
            print(f"  {r.name}: refused: {line}")
    total = sum(r.runs for r in results)
    print(
        f"{len(results)} encounters, {total} fights: "
        + ("all logs clean" if not bad else f"problems in {', '.join(r.name for r in bad)}")
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
