"""The start screen with a broken file among the saves (issue 17): the good fights are still
offered at once, and the broken ones are counted, never hidden and never blocking the list
(a deep-JSON file used to leave the screen on "Loading the encounters..." for 30 s)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.autosave import Autosaver, saves_dir
from engine.content.loader import load_encounter
from tests.support.app import BASE, screen_text, sync
from tests.support.fights import AI_ONLY, play
from tui.app import SkirmishApp
from tui.screens.start import StartScreen

pytestmark = pytest.mark.timeout(120)


async def until(pilot, check, limit: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    waited = 0.0
    while not check():
        await pilot.pause(0.05)
        waited += 0.05
        if waited > limit:
            raise AssertionError("timed out waiting for the app")


@sync
async def test_one_bad_save_never_hides_or_blocks_the_others() -> None:
    loaded = load_encounter(BASE.source)
    enc = play(loaded, 4, player="naive", control=AI_ONLY, max_records=8)
    with Autosaver.create(enc):
        pass
    folder: Path = saves_dir()
    (folder / "zz-deep.save.jsonl").write_bytes(b"[" * 100_000 + b"\n")
    os.mkfifo(folder / "zz-pipe.save.jsonl")
    app = SkirmishApp(BASE, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "can't be read" in screen_text(app))
        assert isinstance(app.screen, StartScreen)
        text = screen_text(app)
        assert "1 unfinished fight" in text and "r resumes the newest" in text
        assert "2 saves can't be read" in text
        assert "Loading the encounters" not in text
