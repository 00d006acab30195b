"""The seat app under Textual's Pilot, joined to a real host: it draws what the host sends,
aims through the host, confirms, and shows the host's refusals (no ssh, no tmux needed)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from tests.support.table import AMBUSH, HostProc, wait_save
from tui.table.seat_app import SeatApp
from tui.table.seat_screen import SeatScreen
from tui.widgets.panes import LogPane

pytestmark = pytest.mark.timeout(120)


def sync(fn: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    """Run an async test with asyncio (no async plugin is installed; as tests/tui does)."""

    @functools.wraps(fn)
    def wrapper(*args: object, **kwargs: object) -> None:
        asyncio.run(fn(*args, **kwargs))  # type: ignore[arg-type]

    return wrapper


@pytest.fixture
def host(tmp_path: Path) -> Iterator[HostProc]:
    args = [AMBUSH, "--seed", "5", "--pace", "0", "--seat", "kara", "--seat", "brak"]
    h = HostProc(tmp_path / "table", tmp_path / "data", args)
    wait_save(h.root)
    try:
        yield h
    finally:
        h.stop()


async def until(pilot: Pilot[int], ok: Callable[[], bool], timeout: float = 15.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not ok():
        if loop.time() > end:
            raise AssertionError("timed out")
        await pilot.pause(0.05)


def seat(app: SeatApp) -> SeatScreen:
    screen = app.screen_stack[1] if len(app.screen_stack) > 1 else app.screen
    assert isinstance(screen, SeatScreen)
    return screen


def log_text(app: SeatApp) -> str:
    log = seat(app).query_one("#log", LogPane)
    return "\n".join(str(line.text) for line in log.lines)


@sync
async def test_a_player_aims_confirms_and_is_refused_out_of_turn(host: HostProc) -> None:
    kara = SeatApp(host.socket, "kara")
    async with kara.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: any(isinstance(s, SeatScreen) for s in kara.screen_stack))
        await until(pilot, lambda: seat(kara).hint.startswith("Your turn"))
        assert "shade-1" not in seat(kara).view.creatures
        await pilot.press("a")
        await until(pilot, lambda: "to hit" in seat(kara).hint)
        assert seat(kara).overlay.marks  # the host's target marks
        await pilot.press("enter")  # the confirmation, with the preview
        await until(pilot, lambda: len(kara.screen_stack) > 2)
        await pilot.press("enter")
        await until(pilot, lambda: "Kara hits" in log_text(kara) or "Kara misses" in log_text(kara))
        await pilot.press("e")
        await until(pilot, lambda: seat(kara).view.current != "kara")
        await until(pilot, lambda: seat(kara).view.current == "brak", timeout=30)
        await pilot.press("e")  # Brak's turn: not hers
        await until(pilot, lambda: "brak's turn, not yours" in seat(kara).hint)


@sync
async def test_a_refused_seat_ends_the_app_with_one_line(host: HostProc) -> None:
    app = SeatApp(host.socket, "nobody")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.problem is not None)
    assert app.problem is not None and "no seat 'nobody'" in app.problem
