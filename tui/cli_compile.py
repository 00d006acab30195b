"""`skirmish compile`: build the optional compiled engine (mypyc) into the user's cache, say
which engine runs (`--status`), or remove the builds (`--remove`).

What is compiled: every module of `engine`, `engine/grid`, `engine/handlers`,
`engine/rulesets` and `ai` but their `__init__` and the modules in `LEFT_OUT` (each with its
reason). `tests/benchmarks/bench_compiled.py` builds the same list into a copy of the tree to
measure it. The build needs mypy (which carries mypyc), a C compiler and the Python headers;
without one of them it says which is missing and builds nothing. `tui.compiled` decides at
every start whether the build is used.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from tui import compiled

SUBPACKAGES = ("engine", "engine/grid", "engine/handlers", "engine/rulesets", "ai")
"""Where the compiled modules live (their `__init__` stays pure)."""
LEFT_OUT = (
    "engine/decisions.py",
    "engine/grid/battlemap.py",
    "engine/native.py",
    "engine/save.py",
    "engine/savewriter.py",
    "engine/savecheck.py",
    "engine/autosave.py",
    "engine/history.py",
    "engine/logfile.py",
    "engine/replay.py",
    "ai/routes.py",
    "ai/sim.py",
)
"""Modules of those packages that stay pure, and why:
- engine/decisions.py: `Question` is a generic frozen dataclass, and mypyc 2.4 can't make a
  dataclass under `Generic` ("attribute '__dict__' of 'type' objects is not writable");
- engine/grid/battlemap.py: maps and their terrain tables are held by weak references
  (`ai.naive_reach`, the terrain table registry), and mypyc's native classes can't be;
- engine/native.py: the run-time stand-in for `mypyc_attr` (compiled, it would be missing);
- engine/save.py and the save and log modules built on it: compiled, importing it crashes
  the interpreter (mypyc 2.4), and they are not on the hot path;
- ai/routes.py: its searches make each route with `object.__new__` and leave the slots
  they don't need unset (a plain walk's `mask` is its class's), which a native class
  refuses ("object.__new__(_Labelled) is not safe");
- ai/sim.py: the process pool (fork, signals), not the hot loop.
engine/content, engine/importers and tui are not compiled: loading, import and screens."""

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

BUILD_SCRIPT = """\
import sys
from setuptools import setup
from mypyc.build import mypycify

mods = sys.argv[1:]
sys.argv = [sys.argv[0], "build_ext", "--inplace"]
setup(name="skirmish-compiled", ext_modules=mypycify(["--config-file=mypyc.ini", *mods]))
"""


class CompileError(Exception):
    """A build that can't happen or failed; the message is for a person, in a few lines."""


def modules(root: Path) -> list[str]:
    """The module files compiled, relative to `root` (the folder holding the packages)."""
    out = []
    for pkg in SUBPACKAGES:
        for path in sorted((root / pkg).glob("*.py")):
            rel = path.relative_to(root).as_posix()
            if path.name != "__init__.py" and rel not in LEFT_OUT:
                out.append(rel)
    return out


def compilers() -> list[str]:
    """The C compilers found on PATH ($CC first)."""
    names = [os.environ.get("CC", "").split(" ")[0], "cc", "gcc", "clang"]
    return [n for n in dict.fromkeys(names) if n and shutil.which(n) is not None]


def missing_toolchain() -> str | None:
    """What a build needs and this machine lacks, in one line, or None."""
    if not compilers():
        return (
            "no C compiler: none of $CC, cc, gcc or clang is on PATH"
            " (Debian/Ubuntu: apt install build-essential; macOS: xcode-select --install)"
        )
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not include.exists():
        return (
            f"no Python headers: {include} is missing"
            f" (Debian/Ubuntu: apt install python{sys.version_info[0]}.{sys.version_info[1]}-dev)"
        )
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed: it comes with mypy (pip install mypy)"
    return None


def mypyc_version() -> str:
    from importlib.metadata import version

    return version("mypy")


def copy_sources(dest: Path, dirs: list[Path]) -> None:
    """The packages' `.py` files only (no build products, caches or stale `.so` files)."""
    for d in dirs:
        for path in d.rglob("*.py"):
            target = dest / path.relative_to(d.parent)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)


def run_mypyc(tree: Path) -> float:
    """Compile `modules(tree)` in place in `tree`; the wall seconds it took."""
    (tree / "mypyc.ini").write_text(MYPY_CONFIG)
    (tree / "build_compiled.py").write_text(BUILD_SCRIPT)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "build_compiled.py", *modules(tree)],
        cwd=tree,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise CompileError(f"the mypyc build failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return time.perf_counter() - t0


def extension_modules(tree: Path) -> dict[str, str]:
    """Module name -> extension file under `tree` (the mypyc runtime group included)."""
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX"))
    out = {}
    for path in sorted(tree.rglob(f"*{suffix}")):
        rel = path.relative_to(tree).as_posix()
        if rel.startswith("build/"):
            continue
        out[rel.removesuffix(suffix).replace("/", ".")] = rel
    return out


def build(root: Path | None = None, say: bool = True) -> compiled.Build:
    """Build the compiled engine for the installed sources into the cache (replacing any
    other build there); the new entry. CompileError if it can't."""
    why = missing_toolchain()
    if why is not None:
        raise CompileError(why)
    root = compiled.cache_root() if root is None else root
    dirs = compiled.package_dirs()
    sources = compiled.source_digest(dirs)
    version = mypyc_version()
    name = compiled.entry_name(sources, version)
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root, prefix=".building-") as tmp:
        tree = Path(tmp) / "tree"
        copy_sources(tree, dirs)
        count = len(modules(tree))
        if say:
            print(
                f"compiling {count} modules of engine and ai with mypyc {version}"
                " (several minutes of one core) ...",
                flush=True,
            )
        seconds = run_mypyc(tree)
        if compiled.source_digest(dirs) != sources:
            raise CompileError("the sources changed during the build: run skirmish compile again")
        entry = Path(tmp) / "entry"
        mods = extension_modules(tree)
        for rel in mods.values():
            (entry / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(tree / rel, entry / rel)
        manifest = {
            "sources": sources,
            "python": compiled.python_tag(),
            "mypyc": version,
            "modules": mods,
            "seconds": round(seconds, 1),
        }
        (entry / compiled.MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        remove(root)
        os.replace(entry, root / name)
    made = compiled.Build.read(root / name)
    if made is None:
        raise CompileError(f"the build in {root / name} is incomplete")
    if say:
        print(f"built in {seconds:.0f} s: {root / name}")
    return made


def remove(root: Path | None = None) -> int:
    """Delete every build in the cache; how many there were."""
    root = compiled.cache_root() if root is None else root
    gone = 0
    for b in compiled.builds(root):
        shutil.rmtree(b.path, ignore_errors=True)
        gone += 1
    return gone


def status(root: Path | None = None) -> str:
    """Which engine runs now, and what the cache holds, in a few lines."""
    root = compiled.cache_root() if root is None else root
    lines = [f"this process: {compiled.describe()}"]
    found = compiled.builds(root)
    match = compiled.matching(root)
    for b in found:
        fits = match is not None and b.path == match.path
        state = "matches the installed sources" if fits else "stale (other sources or Python)"
        lines.append(f"build: {b.path} (mypyc {b.mypyc}): {state}")
    if not found:
        lines.append(f"no build in {root}: `skirmish compile` makes one")
    elif match is None:
        lines.append("no build matches: `skirmish compile` makes one for these sources")
    if os.environ.get(compiled.PURE_ENV, "") not in ("", "0"):
        lines.append(f"{compiled.PURE_ENV} is set: pure Python is used regardless")
    return "\n".join(lines)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "compile",
        help="build the optional compiled engine (faster simulations; needs a C compiler)",
        description=(
            "Compile the engine's and the AI's hot modules with mypyc into your cache folder."
            " Every skirmish command then uses them while the installed sources are the ones"
            " compiled; otherwise (or with SKIRMISH_PURE=1) it runs pure Python."
        ),
    )
    what = p.add_mutually_exclusive_group()
    what.add_argument("--status", action="store_true", help="say which engine runs and why")
    what.add_argument("--remove", action="store_true", help="delete the compiled builds")


def cmd_compile(args: argparse.Namespace) -> int:
    if args.status:
        print(status())
        return 0
    if args.remove:
        print(f"removed {remove()} build(s) from {compiled.cache_root()}")
        return 0
    try:
        build()
    except CompileError as exc:
        print(f"skirmish compile: {exc}", file=sys.stderr)
        return 1
    return 0
