"""SVG snapshots of the app at 80x24 and 120x40: the encounter screen, a targeting overlay,
the help screen and the end screen (fixed seed, no clock: the same pixels every run).

Update after a deliberate change with `pytest tests/tui/test_snapshots.py --snapshot-update`
and look at the SVGs before committing them.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.screen import ModalScreen

from tests.support.app import fight, make_app, press, settle
from tui import modes
from tui.screens.end import EndScreen

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
pytestmark = pytest.mark.timeout(120)


async def _start(pilot: Pilot[int]) -> None:
    await settle(pilot)


async def _targeting(pilot: Pilot[int]) -> None:
    await settle(pilot)
    await press(pilot, "a", "tab")


async def _help(pilot: Pilot[int]) -> None:
    await settle(pilot)
    await press(pilot, "question_mark")


async def _to_the_end(pilot: Pilot[int]) -> None:
    app = pilot.app
    await settle(pilot)
    for _ in range(300):
        await settle(pilot)
        if isinstance(app.screen, EndScreen):
            return
        if isinstance(app.screen, ModalScreen):
            await press(pilot, "enter")
            continue
        await press(pilot, "a")
        if isinstance(fight(app).mode, modes.Targeting):  # type: ignore[arg-type]
            await press(pilot, "enter", "enter")
        else:
            await press(pilot, "e")
    raise AssertionError("the fight did not end")


@pytest.mark.parametrize("size", SIZES)
def test_encounter_screen(snap_compare, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=size, run_before=_start)


@pytest.mark.parametrize("size", SIZES)
def test_targeting_overlay(snap_compare, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=size, run_before=_targeting)


@pytest.mark.parametrize("size", SIZES)
def test_help_screen(snap_compare, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=size, run_before=_help)


@pytest.mark.slow  # a whole fight by keys before the snapshot
@pytest.mark.parametrize("size", SIZES)
def test_end_screen(snap_compare, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=size, run_before=_to_the_end)
