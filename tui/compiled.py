"""The optional compiled engine at startup: use the copy `skirmish compile` built, but only
when it was built from exactly the sources installed now.

`skirmish compile` (`tui.cli_compile`) compiles the hot modules of `engine` and `ai` with mypyc
into a per-user cache entry (`entry_dir`). Every `skirmish` command calls `activate()` before
anything imports the engine: when an entry matches the installed sources (every `.py` file of
both packages, hashed) and this Python, an import finder of ours goes first on `sys.meta_path`
and loads those modules from the entry's extension files; every other module (the packages'
`__init__`, the modules left pure, everything outside `engine` and `ai`) is found as before.
An edited source changes the hash, so a stale build is never used: the command runs pure
Python, the reference, and `skirmish --version` / `skirmish compile --status` say which.
`SKIRMISH_PURE=1` turns the compiled copy off.

When there is no cache entry at all this costs one failed `stat`; with one, reading and
hashing the sources (about 2 MB) costs a few milliseconds.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

PACKAGES = ("engine", "ai")
"""The packages whose sources key a build (all of their files, compiled or not)."""
MANIFEST = "manifest.json"
"""What an entry holds, written last by the build (an entry without it is incomplete)."""
PURE_ENV = "SKIRMISH_PURE"
"""Set (to anything but "" or "0") to run pure Python even when a matching build exists."""


def cache_root() -> Path:
    """Where the builds live: the user's cache folder (platformdirs), `compiled/` in it."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("skirmish", appauthor=False)) / "compiled"


def python_tag() -> str:
    """This interpreter as far as an extension module cares: version, build and ABI."""
    return f"{sys.version} {sysconfig.get_config_var('EXT_SUFFIX')}"


def package_dirs() -> list[Path]:
    """The installed `engine` and `ai` package folders (found, not imported)."""
    out = []
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            raise ImportError(f"the {name!r} package is not installed")
        out.append(Path(next(iter(spec.submodule_search_locations))))
    return out


def source_files(dirs: Sequence[Path]) -> list[tuple[str, Path]]:
    """Every `.py` file under `dirs`, as (path relative to the packages' parent, path), sorted."""
    files = []
    for d in dirs:
        for path in d.rglob("*.py"):
            files.append((path.relative_to(d.parent).as_posix(), path))
    return sorted(files)


def source_digest(dirs: Sequence[Path] | None = None) -> str:
    """A hash of the sources' names and bytes: any edit, new or removed file changes it."""
    import hashlib  # (only when there is a build to check: its import costs at every start)

    h = hashlib.blake2b(digest_size=16)
    for rel, path in source_files(package_dirs() if dirs is None else dirs):
        data = path.read_bytes()
        h.update(f"{rel}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def entry_prefix(sources: str, python: str | None = None) -> str:
    """The start of a cache entry's name: the sources and the interpreter."""
    import hashlib

    h = hashlib.blake2b(digest_size=10)
    h.update(f"{sources}\0{python_tag() if python is None else python}".encode())
    return h.hexdigest()


def entry_name(sources: str, mypyc_version: str, python: str | None = None) -> str:
    """A cache entry's name: keyed by the sources, the interpreter and the mypyc version."""
    return f"{entry_prefix(sources, python)}-mypyc{mypyc_version}"


@dataclass(frozen=True, slots=True)
class Build:
    """One complete cache entry, as its manifest describes it."""

    path: Path
    sources: str
    python: str
    mypyc: str
    modules: dict[str, str]
    """Module name -> extension file (relative to `path`), the mypyc runtime group included."""

    @classmethod
    def read(cls, path: Path) -> Build | None:
        """The entry at `path`, or None if it is incomplete or not one of ours."""
        try:
            data = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
            build = cls(
                path,
                str(data["sources"]),
                str(data["python"]),
                str(data["mypyc"]),
                {str(k): str(v) for k, v in data["modules"].items()},
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        if not all((path / f).is_file() for f in build.modules.values()):
            return None
        return build


def builds(root: Path | None = None) -> list[Build]:
    """Every complete entry in the cache."""
    root = cache_root() if root is None else root
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    found = (Build.read(root / n) for n in names if not n.startswith("."))
    return [b for b in found if b is not None]


def matching(root: Path | None = None, sources: str | None = None) -> Build | None:
    """The entry built from the installed sources for this interpreter, if any (the cache
    is not read when it doesn't exist, and the sources are hashed only when it does)."""
    root = cache_root() if root is None else root
    if not root.is_dir():
        return None
    candidates = builds(root)
    if not candidates:
        return None
    sources = source_digest() if sources is None else sources
    python = python_tag()
    for b in candidates:
        if b.sources == sources and b.python == python:
            return b
    return None


class CompiledFinder:
    """Finds the modules of one build, and nothing else: any other name (the packages
    themselves, the modules left pure, everything outside `engine` and `ai`) goes on to
    the next finder. (A meta path finder by its `find_spec`; not derived from
    `importlib.abc.MetaPathFinder`, whose import costs more than all of this module.)"""

    def __init__(self, build: Build) -> None:
        self.build = build

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        rel = self.build.modules.get(fullname)
        if rel is None:
            return None
        so = str(self.build.path / rel)
        loader = importlib.machinery.ExtensionFileLoader(fullname, so)
        return importlib.util.spec_from_file_location(fullname, so, loader=loader)


ACTIVE: Build | None = None
"""The build this process runs, if any (set by `activate`)."""


def activate(root: Path | None = None) -> Build | None:
    """Put the matching build's finder first on `sys.meta_path` (once), unless turned off,
    or an engine module is already imported (it would then be a mix), or no build matches.
    Never fails: a problem reading the cache means running pure."""
    global ACTIVE
    if ACTIVE is not None:
        return ACTIVE
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    if any(m == p or m.startswith(p + ".") for m in sys.modules for p in PACKAGES):
        return None
    try:
        build = matching(root)
    except (OSError, ImportError):
        return None
    if build is not None:
        sys.meta_path.insert(0, CompiledFinder(build))
        ACTIVE = build
    return build


def describe() -> str:
    """Which engine this process runs, for `--version` and `compile --status`."""
    if ACTIVE is not None:
        count = sum(not name.endswith("__mypyc") for name in ACTIVE.modules)
        return f"compiled engine ({count} modules, mypyc {ACTIVE.mypyc})"
    return "pure Python engine"
