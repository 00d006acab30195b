"""Issue 12, items 1-19 in the app, each shown at 80x24 with Pilot: what a game master and a
new player trip over on a first evening. Each test fails on the code before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList
from tui_helpers import BASE, screen_text, sync, until

from engine.autosave import Autosaver
from engine.content.loader import load_encounter
from tests.soak.fights import play
from tui.app import SkirmishApp
from tui.screens.encounter import EncounterScreen
from tui.screens.start import MAX_RESUMES, StartScreen

pytestmark = pytest.mark.timeout(120)


def _unfinished_saves(data_dir: Path, n: int) -> None:
    loaded = load_encounter("mirror")
    for seed in range(n):
        enc = play(loaded, seed + 1, player="naive", max_records=4)
        with Autosaver.create(enc, directory=data_dir / "saves"):
            pass


# --- item 1 ---------------------------------------------------------------------------------
@sync
async def test_item1_enter_on_the_start_screen_plays_default_with_saves_present(
    data_dir: Path,
) -> None:
    _unfinished_saves(data_dir, MAX_RESUMES)
    app = SkirmishApp(BASE, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "unfinished fight" in screen_text(app))
        assert isinstance(app.screen, StartScreen)
        ol = app.screen.query_one(OptionList)
        await pilot.pause()
        assert ol.highlighted is not None
        assert ol.get_option_at_index(ol.highlighted).id == "default"
        # The highlighted row is in sight at 80x24 (the screen text is only what is visible).
        await pilot.pause(0.1)
        rows = [row.strip(" ▊▎") for row in screen_text(app).splitlines()]
        assert any(row.startswith("default ") for row in rows)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), 20)
        assert app.screen.controller.options.source == "default"
