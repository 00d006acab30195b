"""The optional compiled engine's bootstrap (`tui.compiled`) and command (`tui.cli_compile`):
a build is used only when it was made from exactly the installed sources and this Python,
the finder takes only the build's modules, and a machine without a compiler is told what is
missing. (A real build takes minutes: `tests/benchmarks/bench_compiled.py` makes one and
plays the differential fixtures on it.)"""

from __future__ import annotations

import argparse
import importlib.machinery
import json
import sys
from pathlib import Path

import pytest

from tui import cli_compile, compiled

SUFFIX = ".cpython-test.so"


def packages(tmp: Path) -> list[Path]:
    for rel, text in {
        "engine/__init__.py": "",
        "engine/attacks.py": "X = 1\n",
        "engine/grid/paths.py": "Y = 2\n",
        "ai/planner.py": "Z = 3\n",
    }.items():
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp / rel).write_text(text)
    return [tmp / "engine", tmp / "ai"]


def fake_build(root: Path, sources: str, python: str | None = None, name: str = "b") -> Path:
    """A cache entry as `skirmish compile` writes it, with empty files for extensions."""
    entry = root / name
    mods = {"engine.attacks": f"engine/attacks{SUFFIX}", "abc123__mypyc": f"abc123__mypyc{SUFFIX}"}
    for rel in mods.values():
        (entry / rel).parent.mkdir(parents=True, exist_ok=True)
        (entry / rel).write_bytes(b"")
    manifest = {
        "sources": sources,
        "python": compiled.python_tag() if python is None else python,
        "mypyc": "9.9",
        "modules": mods,
    }
    (entry / compiled.MANIFEST).write_text(json.dumps(manifest))
    return entry


def test_the_key_changes_with_any_source_edit_new_file_or_rename(tmp_path: Path) -> None:
    dirs = packages(tmp_path)
    first = compiled.source_digest(dirs)
    assert compiled.source_digest(dirs) == first
    (tmp_path / "engine/attacks.py").write_text("X = 2\n")
    edited = compiled.source_digest(dirs)
    (tmp_path / "ai/new.py").write_text("")
    added = compiled.source_digest(dirs)
    (tmp_path / "ai/new.py").rename(tmp_path / "ai/other.py")
    renamed = compiled.source_digest(dirs)
    assert len({first, edited, added, renamed}) == 4
    (tmp_path / "engine/notes.txt").write_text("not a source")
    assert compiled.source_digest(dirs) == renamed


def test_the_entry_name_is_keyed_by_sources_python_and_mypyc() -> None:
    base = compiled.entry_name("s1", "1.0", "py A")
    assert base != compiled.entry_name("s2", "1.0", "py A")
    assert base != compiled.entry_name("s1", "1.0", "py B")
    assert base != compiled.entry_name("s1", "1.1", "py A")
    assert base.startswith(compiled.entry_prefix("s1", "py A"))
    here = compiled.python_tag()
    assert compiled.entry_name("s1", "1.0") == compiled.entry_name("s1", "1.0", here)


def test_a_build_of_other_sources_or_another_python_is_not_used(tmp_path: Path) -> None:
    dirs = packages(tmp_path / "src")
    root = tmp_path / "cache"
    assert compiled.matching(root, "anything") is None  # no cache at all
    fake_build(root, compiled.source_digest(dirs))
    fake_build(root, "0" * 32, name="other-sources")
    fake_build(root, compiled.source_digest(dirs), python="Python 2.7", name="other-python")
    found = compiled.matching(root, compiled.source_digest(dirs))
    assert found is not None and found.path == root / "b"
    (tmp_path / "src/engine/attacks.py").write_text("X = 'edited'\n")
    assert compiled.matching(root, compiled.source_digest(dirs)) is None


def test_an_incomplete_entry_is_no_build(tmp_path: Path) -> None:
    entry = fake_build(tmp_path, "s")
    (entry / f"engine/attacks{SUFFIX}").unlink()
    assert compiled.builds(tmp_path) == []
    (tmp_path / "half").mkdir()
    (tmp_path / "half" / compiled.MANIFEST).write_text("{not json")
    assert compiled.builds(tmp_path) == []


def test_the_finder_takes_only_the_builds_modules(tmp_path: Path) -> None:
    build = compiled.Build.read(fake_build(tmp_path, "s"))
    assert build is not None
    finder = compiled.CompiledFinder(build)
    for name in ("engine", "ai", "engine.grid.battlemap", "engine.save", "json", "tui.cli"):
        assert finder.find_spec(name) is None, name
    spec = finder.find_spec("engine.attacks")
    assert spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)
    assert spec.origin == str(tmp_path / "b" / f"engine/attacks{SUFFIX}")
    group = finder.find_spec("abc123__mypyc")
    assert group is not None and group.origin is not None and group.origin.endswith(SUFFIX)


def test_activate_never_mixes_with_an_engine_already_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "engine" in sys.modules  # the test session imported it
    fake_build(tmp_path, compiled.source_digest())
    monkeypatch.setattr(compiled, "ACTIVE", None)
    before = list(sys.meta_path)
    assert compiled.activate(tmp_path) is None
    assert sys.meta_path == before
    assert compiled.describe() == "pure Python engine"


def test_activate_respects_skirmish_pure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "ACTIVE", None)
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    monkeypatch.setattr(compiled, "matching", lambda root=None: pytest.fail("looked"))
    assert compiled.activate(tmp_path) is None


def test_a_fresh_interpreter_uses_a_matching_build_and_not_a_stale_one(tmp_path: Path) -> None:
    """In a new process (nothing imported yet) the finder goes first on `sys.meta_path` only
    for the build of the installed sources."""
    import subprocess

    probe = (
        "import sys; from pathlib import Path; from tui import compiled; "
        "b = compiled.activate(Path(sys.argv[1])); "
        "print(b is not None, isinstance(sys.meta_path[0], compiled.CompiledFinder))"
    )
    root = tmp_path / "cache"
    fake_build(root, "0" * 32)
    run = [sys.executable, "-c", probe, str(root)]
    env = {"PYTHONPATH": str(Path(__file__).resolve().parents[2]), "PATH": ""}
    assert subprocess.run(run, capture_output=True, text=True, env=env).stdout.split() == [
        "False",
        "False",
    ]
    fake_build(root, compiled.source_digest(), name="current")
    out = subprocess.run(run, capture_output=True, text=True, env=env).stdout.split()
    assert out == ["True", "True"]


def test_without_a_compiler_compile_names_what_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(cli_compile.shutil, "which", lambda _name: None)
    monkeypatch.setattr(compiled, "cache_root", lambda: tmp_path)
    args = argparse.Namespace(status=False, remove=False)
    assert cli_compile.cmd_compile(args) == 1
    err = capsys.readouterr().err
    assert err.startswith("skirmish compile: no C compiler: none of $CC, cc, gcc or clang")
    assert "build-essential" in err
    assert not any(tmp_path.iterdir())


def test_without_python_headers_compile_names_the_missing_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(cli_compile.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(
        cli_compile.sysconfig, "get_paths", lambda: {"include": str(tmp_path / "nowhere")}
    )
    why = cli_compile.missing_toolchain()
    assert why is not None and why.startswith("no Python headers: ")
    assert str(tmp_path / "nowhere" / "Python.h") in why


def test_status_and_remove(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(compiled, "cache_root", lambda: tmp_path)
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    fake_build(tmp_path, "0" * 32)
    assert cli_compile.cmd_compile(argparse.Namespace(status=True, remove=False)) == 0
    out = capsys.readouterr().out
    assert "this process: pure Python engine" in out
    assert "stale (other sources or Python)" in out and "no build matches" in out
    fake_build(tmp_path, compiled.source_digest(), name="current")
    assert cli_compile.cmd_compile(argparse.Namespace(status=True, remove=False)) == 0
    out = capsys.readouterr().out
    assert f"build: {tmp_path / 'current'} (mypyc 9.9): matches the installed sources" in out
    assert "no build matches" not in out
    assert cli_compile.cmd_compile(argparse.Namespace(status=False, remove=True)) == 0
    assert "removed 2 build(s)" in capsys.readouterr().out
    assert compiled.builds(tmp_path) == []
