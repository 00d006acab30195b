"""`skirmish play` starts with the cyclic garbage collector off (issue 14, target 6: its
passes over the start-up's long-lived objects cost ~90 ms of CPU before the first frame), and
it is back on once the fight has drawn its first frame, or when the app ends whatever
happened: a long session never runs without it."""

from __future__ import annotations

import argparse
import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.content.errors import ContentErrors
from tests.support.app import make_app, sync, until
from tui import launch


@pytest.fixture
def collector_off() -> Iterator[None]:
    gc.disable()  # as `tui.launch._quiet_start` leaves it
    try:
        yield
    finally:
        gc.enable()


@sync
async def test_the_collector_is_back_on_after_the_fights_first_frame(collector_off: None) -> None:
    app = make_app(source="default", seed=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, lambda: app.screen.__class__.__name__ == "EncounterScreen")
        ctl = app.screen.controller  # type: ignore[attr-defined]
        await until(pilot, ctl.shown.is_set, limit=30)
        await until(pilot, gc.isenabled, limit=2)  # well before the app's fallback (5 s)
        app.exit()


def test_play_turns_the_collector_off_and_back_on_when_the_app_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[bool] = []

    class App:
        return_code = 0

        def __init__(self, *args: object) -> None:
            pass

        def run(self, mouse: bool) -> int:
            seen.append(gc.isenabled())
            raise RuntimeError("the app fell over")

    monkeypatch.setattr("tui.app.SkirmishApp", App)
    args = argparse.Namespace(command="play", encounter="default", seed=1)
    with pytest.raises(RuntimeError):
        launch.launch(args)
    assert seen == [False]  # off while it started
    assert gc.isenabled()  # and on again, though the app never drew a frame


def test_play_with_a_broken_encounter_leaves_the_collector_on(tmp_path: Path) -> None:
    """A content error ends `skirmish play` before any app exists: the collector it turned off
    for the start-up is on again (a caller in the same process, the test suite itself, goes on
    collecting)."""
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: [unclosed\n")
    args = argparse.Namespace(command="play", encounter=str(broken), seed=1)
    with pytest.raises(ContentErrors):
        launch.launch(args)
    assert gc.isenabled()


def test_play_with_an_unknown_side_leaves_the_collector_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = argparse.Namespace(command="play", encounter="default", seed=1, manual_dice=["nobody"])
    assert launch.launch(args) == 2
    assert "--manual-dice nobody: no side 'nobody'" in capsys.readouterr().err
    assert gc.isenabled()
