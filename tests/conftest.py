"""Fixtures shared by every test folder. The helpers they use live in `tests.support` (the
one home of shared test code: several folders have a conftest.py, so importing helpers from
"conftest" would pick whichever one was loaded last)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.content.loader import load_encounter
from engine.decisions import Decider
from engine.dice import DiceSource, ScriptedDice, SeededDice
from engine.encounter import Encounter
from tests.support.helpers import Builder, write_encounter
from tests.support.saves import use_fast_saves


@pytest.fixture(autouse=True)
def fast_saves(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saves skip fsync (see tests/support/saves.py), except in tests marked `durable`."""
    if request.node.get_closest_marker("durable") is None:
        use_fast_saves(monkeypatch)


@pytest.fixture
def build(tmp_path: Path) -> Builder:
    """build(grid, combatants, faces=[...] or seed=N, start=True, **extra) -> Encounter."""

    def _build(
        grid: str,
        combatants: list[dict[str, Any]],
        *,
        faces: list[int] | None = None,
        seed: int = 1,
        start: bool = True,
        strict: bool = False,
        deciders: Callable[[str], Decider] | None = None,
        **extra: Any,
    ) -> Encounter:
        """`strict`: no seeded fallback once `faces` run out (a roll the test didn't expect
        raises DiceExhausted instead of passing unnoticed)."""
        path = write_encounter(tmp_path, grid, combatants, **extra)
        loaded = load_encounter(path)
        dice: DiceSource | None = None
        if faces is not None:
            dice = ScriptedDice(faces, fallback=None if strict else SeededDice(seed))
        enc = Encounter.create(loaded, seed=seed, dice=dice, deciders=deciders)
        if start:
            enc.start()
        return enc

    return _build


@pytest.fixture(scope="session")
def default_loaded() -> Any:
    """The bundled default encounter, loaded once (loading is the slow part of a short fight)."""
    return load_encounter("default")
