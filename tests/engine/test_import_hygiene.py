"""Imports go one way: tui -> ai -> engine. The engine and the AI load in a fresh interpreter
without Textual or the tui package (design.md, style point 1), so the headless simulator
starts fast and runs where no terminal is."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import importlib, json, pkgutil, sys
loaded = []
for top in {tops!r}:
    pkg = importlib.import_module(top)
    loaded.append(top)
    for info in pkgutil.walk_packages(pkg.__path__, top + "."):
        importlib.import_module(info.name)
        loaded.append(info.name)
mods = sorted(sys.modules)
print(json.dumps({{"loaded": loaded, "modules": mods}}))
"""


def fresh_import(*tops: str) -> dict[str, list[str]]:
    """Import every module of the packages `tops` in a new interpreter; what got loaded."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(tops=list(tops))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, list[str]] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def tops(modules: list[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


@pytest.mark.parametrize("package", ["engine", "ai"])
def test_engine_and_ai_import_without_textual_or_tui(package: str) -> None:
    got = fresh_import(package)
    assert len(got["loaded"]) > 3, "every module of the package was imported"
    leaked = tops(got["modules"]) & {"textual", "tui"}
    assert leaked == set(), f"{package} pulled in {sorted(leaked)}"


def test_engine_does_not_import_ai() -> None:
    got = fresh_import("engine")
    assert "ai" not in tops(got["modules"])


def test_the_headless_commands_do_not_load_textual() -> None:
    probe = (
        "import sys; from tui.cli import main; rc = main(['list']); "
        "print('TEXTUAL' if any(m.split('.')[0] == 'textual' for m in sys.modules) "
        "else 'CLEAN')"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "CLEAN"
