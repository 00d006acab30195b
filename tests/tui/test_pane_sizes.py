"""Panes at a size other than the one they started at.

The log pane wraps its lines again when its width changes: `L` enlarges it to the whole
screen, and a long line then uses the whole width instead of staying broken at the narrow
pane's width; putting it back wraps them narrow again, and the reader stays at the end. A map
larger than its pane says which part of it is shown."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.support.app import fight, make_app, press, screen_text, settle, sync
from tui.app import SkirmishApp
from tui.screens.encounter import EncounterScreen
from tui.widgets.panes import LogPane

pytestmark = pytest.mark.timeout(120)

LONG = "Goblin Cutter 1 walks 6 squares to reach Mara the White, line {i}"


def _texts(log: LogPane) -> list[str]:
    return [strip.text.rstrip() for strip in log.lines]


async def _long_log(app: SkirmishApp, pilot: Pilot[int], n: int) -> tuple[EncounterScreen, LogPane]:
    """The fight screen once `n` long lines are in its log."""
    await settle(pilot)
    f = fight(app)
    log = f.query_one("#log", LogPane)
    for i in range(n):
        log.note(LONG.format(i=i))
    await pilot.pause()
    return f, log


@sync
async def test_enlarged_log_wraps_at_its_new_width_and_back() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        f, log = await _long_log(app, pilot, 40)
        narrow = _texts(log)
        assert not any(LONG.format(i=39) == t for t in narrow)  # broken over lines at first
        await press(pilot, "L")
        assert f.maximized is log
        wide = _texts(log)
        assert LONG.format(i=39) in wide and LONG.format(i=0) in wide  # one line each now
        assert len(wide) < len(narrow)
        assert LONG.format(i=39) in screen_text(app)  # and the reader is still at the end
        await press(pilot, "L")
        assert f.maximized is None
        assert _texts(log) == narrow  # wrapped as before
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y  # the newest lines in sight
        assert "39" in screen_text(app)


@sync
async def test_a_reader_scrolled_back_stays_near_the_same_lines() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        _, log = await _long_log(app, pilot, 80)
        log.scroll_to(y=log.max_scroll_y // 2, animate=False)
        await pilot.pause()
        await press(pilot, "L")
        await pilot.pause()
        assert 0 < log.scroll_y < log.max_scroll_y  # not thrown to either end


@sync
async def test_a_cropped_map_says_which_columns_and_rows_of_the_whole_it_shows() -> None:
    """At 80x24 a 30x20 map is cropped; its border names the window and the map's whole range
    of coordinates ("x 0-19 of 0-29"), not a bare last index that reads as a count."""
    app = make_app(source="default")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "of 0-29, y " in screen_text(app) and "of 0-19 ─" in screen_text(app)
