"""The start screen's encounter descriptions: each on one line, cut at a word boundary to the
list's width (they were cut at 70 characters mid-word and then wrapped onto a second row with
a stray "…" in an 80-column terminal), and cut again when the terminal is resized, without
moving the highlight."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from engine.content.bundled import bundled_encounters
from tests.support.app import BASE, screen_text, sync, until
from tui.app import SkirmishApp
from tui.screens.start import StartScreen

pytestmark = pytest.mark.timeout(120)


def _description_rows(text: str) -> list[str]:
    return [row.strip(" ▊▎").strip() for row in text.splitlines() if row.startswith("  ▊    ")]


def _check_rows(text: str, width: int) -> None:
    descriptions = {e.description.strip() for e in bundled_encounters()}
    rows = _description_rows(text)
    assert rows, text
    for row in rows:
        assert len(row) <= width
        if row.endswith("…"):  # a cut: a prefix of a description, at a word boundary
            stem = row[:-1]
            full = next(d for d in descriptions if d.startswith(stem))
            assert full[len(stem)] in " ,;:-", (row, full)
        else:
            assert row in descriptions, row


@sync
async def test_descriptions_fit_one_line_at_a_word_boundary_and_follow_resizes() -> None:
    app = SkirmishApp(BASE, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "creatures" in screen_text(app))
        assert isinstance(app.screen, StartScreen)
        _check_rows(screen_text(app), 80)
        ol = app.screen.query_one(OptionList)
        await pilot.press("down", "down")
        chosen = ol.get_option_at_index(ol.highlighted or 0).id
        assert chosen not in (None, "default")
        await pilot.resize_terminal(60, 24)
        await pilot.pause(0.2)
        _check_rows(screen_text(app), 60)
        assert ol.get_option_at_index(ol.highlighted or 0).id == chosen
        await pilot.resize_terminal(120, 30)
        await pilot.pause(0.2)
        rows = _description_rows(screen_text(app))
        assert any(not row.endswith("…") for row in rows)
        _check_rows(screen_text(app), 120)
        assert ol.get_option_at_index(ol.highlighted or 0).id == chosen
