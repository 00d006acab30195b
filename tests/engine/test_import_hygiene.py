"""Imports go one way: tui -> ai -> engine. The engine and the AI load in a fresh interpreter
without Textual or the tui package (design.md, style point 1), so the headless simulator
starts fast and runs where no terminal is."""

from __future__ import annotations

import ast
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


# --- the contracts, over every import statement -------------------------------------------
# The fresh-interpreter tests above see what importing a module loads; these read every
# `import` in the source (inside functions and `if TYPE_CHECKING:` too, which a fresh import
# never runs), so a lazy import that would break the layering is caught as well.

FORBIDDEN: dict[str, set[str]] = {
    "engine": {"ai", "tui", "textual"},
    "ai": {"tui", "textual"},
}


def imports_of(path: Path, package: str | None = None) -> list[tuple[int, str, tuple[str, ...]]]:
    """Every import in `path`: (line, module, names imported from it), relative ones made
    absolute (`package`: the module's package, by default from where it is under ROOT)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    if package is None:
        package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    out: list[tuple[int, str, tuple[str, ...]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name, ()) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            out.append((node.lineno, module, tuple(a.name for a in node.names)))
    return out


def sources(top: str) -> list[Path]:
    return sorted((ROOT / top).rglob("*.py"))


def where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_import_anywhere_breaks_the_layers(package: str) -> None:
    bad = [
        f"{where(path, line)}: {module}"
        for path in sources(package)
        for line, module, _ in imports_of(path)
        if module.split(".")[0] in FORBIDDEN[package]
    ]
    assert len(sources(package)) > 10
    assert bad == [], f"{package} must not import {sorted(FORBIDDEN[package])}"


def _private(module: str, names: tuple[str, ...]) -> list[str]:
    parts = module.split(".")
    if parts[0] != "engine":
        return []
    hidden = [p for p in parts[1:] if p.startswith("_") and p != "__future__"]
    hidden += [n for n in names if n.startswith("_") and n != "__version__"]
    return hidden


@pytest.mark.parametrize("package", ["ai", "tui"])
def test_nothing_outside_the_engine_imports_its_private_parts(package: str) -> None:
    bad = [
        f"{where(path, line)}: {module} {names}"
        for path in sources(package)
        for line, module, names in imports_of(path)
        if _private(module, names)
    ]
    assert bad == []


def test_the_contract_checker_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "def f():\n    from tui.app import SkirmishApp\n    from .battle import _x\n",
        encoding="utf-8",
    )
    got = imports_of(probe, "engine")
    assert got == [(2, "tui.app", ("SkirmishApp",)), (3, "engine.battle", ("_x",))]
    assert _private("engine.battle", ("_x",)) == ["_x"]
    assert _private("engine._cache", ("thing",)) == ["_cache"]
