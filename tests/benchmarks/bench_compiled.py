"""Is a compiled engine worth it (issue 14)? mypyc builds the hot modules of this tree into C
extensions in a temporary copy, and bench_speed's own measurements run on that copy and on a
pure copy of the same files, side by side, with the ratios.

What it prints (CPU time; each part on both copies in turn, the order alternating):
1. the gridless brawl (bundled `brawl`, naive both sides): creature-turns per CPU second;
2. attack resolutions/s through `Encounter.apply` and through `powers.resolve` alone;
3. CPU per `default` fight and per 5 v 8 fight on 40x40, both sides tactical;
4. decision time (every decision), p50/p95 on 40x40 and 100x100 (with --decisions).

The verdict the project took from it (docs/ai.md "Speed"): a compiled build is integrated only
if it gives >= 1.8x on the brawl AND on `default` with the whole suite green on the compiled
copy. The copy is built with `mypycify` over `MODULES` (about 8 minutes of one core: use
`--keep DIR` to build once and `--reuse DIR` to measure again). Needs a C compiler, the Python
headers and mypy (a test dependency); without them it says so and exits 0.

Modules left out, and why (mypyc 1.x, Python 3.11):
- engine/actions.py, engine/events.py: frozen dataclass hierarchies whose base declares a
  `ClassVar` default (`name`, `type`); compiled, `dataclasses` takes the ClassVar for a field
  and the module fails at import ("non-default argument follows default argument");
- engine/decisions.py: `Question(ABC, Generic[T])` as a native class fails at import
  ("attribute '__dict__' of 'type' objects is not writable");
- engine/grid/battlemap.py: `ai.position` keeps its per-map memos in a WeakKeyDictionary, and
  a native class can't be weakly referenced ("cannot create weak reference to 'BattleMap'");
- engine/save.py (and the save and log modules built on it: savewriter, savecheck, autosave,
  history, logfile, replay): compiled, importing it crashes the interpreter (segfault); they
  are not on the hot path;
- ai/tactical.py: `next_action` sets `self._why = None`, calls a method that sets it again,
  then tests it; mypy keeps the attribute narrowed to None across the call, and compiled code
  trusts that ("None object expected; got tuple");
- engine/handlers/*, engine/rulesets/*: classes registered by a class decorator (`@register`)
  become non-native, and mypyc refuses a non-native class under a native base;
- engine/content/*, engine/importers/*, ai/sim.py, tui/*: loading, import, process pools and
  screens, not the hot loop.

Run from the repository root: `.venv/bin/python tests/benchmarks/bench_compiled.py [--quick]`.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LEFT_OUT = (
    "engine/actions.py",
    "engine/events.py",
    "engine/decisions.py",
    "engine/grid/battlemap.py",
    "engine/save.py",
    "engine/savewriter.py",
    "engine/savecheck.py",
    "engine/autosave.py",
    "engine/history.py",
    "engine/logfile.py",
    "engine/replay.py",
    "ai/tactical.py",
    "ai/sim.py",
)
"""Modules of the compiled packages that stay pure (see the module docstring for why)."""
PACKAGES = ("engine", "engine/grid", "ai")
"""Where the compiled modules live (their `__init__` stays pure)."""

MYPY_CONFIG = """\
[mypy]
python_version = 3.11
explicit_package_bases = True
plugins = pydantic.mypy
[mypy-networkx]
ignore_missing_imports = True
[mypy-networkx.*]
ignore_missing_imports = True
"""

BUILD = """\
import sys
from setuptools import setup
from mypyc.build import mypycify

mods = sys.argv[1:]
sys.argv = [sys.argv[0], "build_ext", "--inplace"]
setup(name="skirmish-compiled-bench", ext_modules=mypycify(["--config-file=mypyc.ini", *mods]))
"""


def modules(root: Path) -> list[str]:
    """The module files compiled, relative to `root`."""
    out = []
    for pkg in PACKAGES:
        for path in sorted((root / pkg).glob("*.py")):
            rel = path.relative_to(root).as_posix()
            if path.name != "__init__.py" and rel not in LEFT_OUT:
                out.append(rel)
    return out


def missing_toolchain() -> str | None:
    """Why a build can't happen here, or None."""
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        return "no C compiler (cc/gcc) on PATH"
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not include.exists():
        return f"no Python headers ({include} is missing)"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (it comes with mypy: pip install -e '.[test]')"
    return None


def copy_tree(dest: Path) -> None:
    """The files the benchmarks import, without build products or caches."""
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", ".mypy_cache", "build")
    for name in ("engine", "ai", "tui", "maps", "tests"):
        shutil.copytree(ROOT / name, dest / name, ignore=ignore)


def build(dest: Path) -> float:
    """Compile `modules` in place in `dest`; the wall seconds it took."""
    (dest / "mypyc.ini").write_text(MYPY_CONFIG)
    (dest / "build_compiled.py").write_text(BUILD)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "build_compiled.py", *modules(dest)],
        cwd=dest,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.exit(
            f"bench_compiled: the mypyc build failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )
    return time.perf_counter() - t0


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
    sys.path.insert(0, str(ROOT))
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
    why = missing_toolchain()
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
            print(f"building {len(modules(compiled))} modules with mypyc ...", flush=True)
            print(f"mypyc build: {build(compiled):.0f} s wall")
        print("compiled tree imports:", check_compiled(compiled))
        now, before = measure([compiled, pure], parts, args.quick)
    report(now, before)
    return 0


if __name__ == "__main__":
    sys.exit(main())
