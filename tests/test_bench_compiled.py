"""The compiled-engine benchmark (issue 14) and `skirmish compile`'s module list stay true to
the tree without building anything in CI.

`tests/benchmarks/bench_compiled.py` compiles a copy of the tree with mypyc (minutes of CPU), so
CI never runs the build: these checks keep its module list true to the tree (every module it
would compile exists and imports as plain Python; every module it leaves out still exists) and
show that it skips, with a one-line reason, where there is no compiler.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from tests.support.helpers import load_script
from tui import cli_compile

ROOT = Path(__file__).resolve().parents[1]


def test_compiled_module_list_imports_pure() -> None:
    listed = cli_compile.modules(ROOT)
    assert "engine/attacks.py" in listed and "ai/planner.py" in listed
    assert "engine/handlers/moving.py" in listed and "engine/rulesets/d20srd.py" in listed
    for rel in listed:
        assert not rel.endswith("__init__.py")
        module = importlib.import_module(rel.removesuffix(".py").replace("/", "."))
        assert module.__file__ is not None and module.__file__.endswith(".py"), rel


def test_left_out_modules_exist_and_are_not_listed() -> None:
    listed = set(cli_compile.modules(ROOT))
    for rel in cli_compile.LEFT_OUT:
        assert (ROOT / rel).is_file(), rel
        assert rel not in listed


def test_without_a_compiler_it_skips_with_a_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_script("benchmarks/bench_compiled.py")
    monkeypatch.setattr(cli_compile.shutil, "which", lambda _name: None)
    assert bench.main([]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("bench_compiled: skipped: no C compiler: none of $CC, cc, gcc or clang")


def test_compiled_modules_set_no_undeclared_attributes() -> None:
    """A class compiled by mypyc has no `__dict__`: an attribute set outside `__init__` that
    mypy was told to ignore (`type: ignore[attr-defined]`) raises `AttributeError` only in
    the compiled copy (CI's benchmark run caught `Context.two_moves` that way)."""
    offenders = [
        f"{rel}:{n}"
        for rel in cli_compile.modules(ROOT)
        for n, line in enumerate((ROOT / rel).read_text().splitlines(), 1)
        if "type: ignore[attr-defined]" in line
    ]
    assert offenders == []
