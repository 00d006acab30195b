"""Is a compiled engine worth it (issue 14)? mypyc builds the hot modules of this tree into C
extensions in a temporary copy, and bench_speed's own measurements run on that copy and on a
pure copy of the same files, side by side, with the ratios.

What it prints (CPU time; each part on both copies in turn, the order alternating):
1. the gridless brawl (bundled `brawl`, naive both sides): creature-turns per CPU second;
2. attack resolutions/s through `Encounter.apply` and through `powers.resolve` alone;
3. CPU per `default` fight and per 5 v 8 fight on 40x40, both sides tactical;
4. decision time (every decision), p50/p95 on 40x40 and 100x100 (with --decisions).

The same build as `skirmish compile` (`tui.cli_compile`: its module list, with the reason for
each module left out, and its mypyc settings), made in a copy of the tree (`--keep DIR` to
build once, `--reuse DIR` to measure again; a build takes several minutes of one core). Before
measuring, the compiled copy plays the differential fixtures (the AI's decisions and the log
digests: `FIXTURES`); the script exits 1 if any of them differs there. Needs a C compiler, the
Python headers and mypy (a test dependency); without them it says so and exits 0.

Run from the repository root: `.venv/bin/python tests/benchmarks/bench_compiled.py [--quick]`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tui import cli_compile  # noqa: E402  (run as a script: the checkout first on the path)

FIXTURES = (
    "tests/ai/test_ai_decisions_unchanged.py",
    "tests/ai/test_decisions_unchanged.py",
    "tests/engine/test_log_digests.py",
)
"""The differential fixtures: the compiled copy must play them exactly as recorded."""


def copy_tree(dest: Path) -> None:
    """The files the benchmarks import, without build products or caches."""
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", ".mypy_cache", "build")
    for name in ("engine", "ai", "tui", "maps", "tests"):
        shutil.copytree(ROOT / name, dest / name, ignore=ignore)


IN_USE = """\
import sys
import ai.moving, engine.attacks
bad = [m.__file__ for m in (ai.moving, engine.attacks) if not m.__file__.endswith(".so")]
sys.exit(f"not the compiled copy: {bad}" if bad else 0)
"""
"""Run in the fixtures' environment first: they must import the compiled modules."""


def play_fixtures(tree: Path) -> bool:
    """Whether `tree` plays the differential fixtures as recorded (pytest in `tree`, with
    `tree` first on the path: the checkout's own `pythonpath` setting would put the pure
    sources first, and the fixtures would pass without running a compiled line)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    check = subprocess.run(
        [sys.executable, "-c", IN_USE], cwd=tree, env=env, capture_output=True, text=True
    )
    if check.returncode != 0:
        print(f"differential fixtures on {tree.name}: {check.stderr.strip()}")
        return False
    done = subprocess.run(
        # (pytest's settings from the checkout: a pyproject.toml in `tree` would be setuptools'
        # to read when building there)
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-c",
            str(ROOT / "pyproject.toml"),
            "--rootdir",
            str(tree),
            "-o",
            f"pythonpath={tree}",
            "-p",
            "tests.support.compiled_check",
            *FIXTURES,
        ],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    lines = (done.stdout + done.stderr).strip().splitlines()
    print(f"differential fixtures on {tree.name}: {lines[-1] if lines else '(no output)'}")
    if done.returncode != 0:
        print("\n".join(lines[-40:]))
    return done.returncode == 0


PROBE = "import engine.attacks as m, ai.planner as p; print(m.__file__, p.__file__)"


def check_compiled(tree: Path) -> str:
    """Where `engine.attacks` and `ai.planner` come from when `tree` is first on the path."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=tree,
        env=dict(os.environ, PYTHONPATH=str(tree)),
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def measure(trees: list[Path], parts: list[str], quick: bool) -> list[dict[str, Any]]:
    from tests.benchmarks import bench_speed

    args = argparse.Namespace(quick=quick, sim_runs=20)
    results: list[dict[str, Any]] = [{} for _ in trees]
    with tempfile.TemporaryDirectory() as tmp:
        maps = bench_speed.write_maps(Path(tmp))
        for i, part in enumerate(parts):
            order = list(range(len(trees)))
            if i % 2:
                order.reverse()
            for k in order:
                results[k].update(bench_speed.run_part(trees[k], part, maps, args))
    return results


def report(compiled: dict[str, Any], pure: dict[str, Any]) -> None:
    def row(label: str, key: str, fmt: str, better_low: bool) -> None:
        if key not in compiled:
            return
        a, b = compiled[key], pure[key]
        ratio = (b / a if better_low else a / b) if a and b else 0.0
        print(f"{label:<50} compiled {format(a, fmt):>9}  pure {format(b, fmt):>9}  {ratio:4.2f}x")

    row("brawl (5 v 8, naive), creature-turns per CPU s", "brawl", ",.0f", False)
    row("attacks/s through Encounter.apply", "attack_apply", ",.0f", False)
    row("attacks/s through powers.resolve", "attack_resolve", ",.0f", False)
    row("CPU per default fight (tactical), ms", "fight_default", ".1f", True)
    row("CPU per 5 v 8 fight on 40x40 (tactical), ms", "fight_40x40x8", ".1f", True)
    for size in (40, 100):
        for m in (10, 20):
            key = f"dec_{size}x{size}x{m}"
            if key in compiled:
                c, p = compiled[key], pure[key]
                print(
                    f"decisions {size}x{size} {m:>2}: p50 {c[1]:5.2f} vs {p[1]:5.2f} ms"
                    f" ({p[1] / c[1]:4.2f}x), p95 {c[2]:6.2f} vs {p[2]:6.2f} ms"
                    f" ({p[2] / c[2]:4.2f}x)"
                )
    print(f"(load average now {os.getloadavg()[0]:.1f}: the machine is shared)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="few fights (the build still runs)")
    ap.add_argument("--decisions", action="store_true", help="also decision p50/p95")
    ap.add_argument("--keep", metavar="DIR", help="build into DIR (new) and keep it")
    ap.add_argument("--reuse", metavar="DIR", help="measure a DIR that --keep built")
    args = ap.parse_args(argv)
    why = cli_compile.missing_toolchain()
    if why is not None:
        print(f"bench_compiled: skipped: {why}")
        return 0
    parts = ["brawl", "attacks", "fights"] + (["decisions"] if args.decisions else [])
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(args.reuse or args.keep or tmp)
        pure, compiled = base / "pure", base / "compiled"
        if not args.reuse:
            for tree in (pure, compiled):
                tree.mkdir(parents=True)
                copy_tree(tree)
            print(
                f"building {len(cli_compile.modules(compiled))} modules with mypyc ...", flush=True
            )
            try:
                seconds = cli_compile.run_mypyc(compiled)
            except cli_compile.CompileError as exc:
                sys.exit(f"bench_compiled: {exc}")
            print(f"mypyc build: {seconds:.0f} s wall")
        print("compiled tree imports:", check_compiled(compiled))
        if not play_fixtures(compiled):
            print("bench_compiled: the compiled copy does not play as the pure one")
            return 1
        now, before = measure([compiled, pure], parts, args.quick)
    report(now, before)
    return 0


if __name__ == "__main__":
    sys.exit(main())
