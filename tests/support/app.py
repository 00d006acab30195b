"""Helpers for the app's Pilot tests: start the test fight, wait for the engine, read the screen."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

from textual.pilot import Pilot
from textual.screen import ModalScreen

from engine.content.loader import load_encounter
from tui.app import SkirmishApp
from tui.controller import GameOptions
from tui.screens.encounter import EncounterScreen

FIXTURES = Path(__file__).parents[1] / "tui" / "fixtures"
DUEL = str(FIXTURES / "duel.yaml")
BASE = GameOptions(source=DUEL, seed=5, pace=0.0, policy="naive")


def make_app(**changes: object) -> SkirmishApp:
    options = replace(BASE, **changes)  # type: ignore[arg-type]
    return SkirmishApp(options, load_encounter(options.source, options.ruleset))


def screen_text(app: SkirmishApp) -> str:
    """What the terminal shows, as plain text (one line per row)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(s.text for s in strips)


def fight(app: SkirmishApp) -> EncounterScreen:
    for screen in reversed(app.screen_stack):
        if isinstance(screen, EncounterScreen):
            return screen
    raise AssertionError(f"no encounter screen in {app.screen_stack}")


async def settle(pilot: Pilot[int], limit: float = 10.0) -> None:
    """Wait until the engine's worker is done, or a dialog or another screen waits for keys."""
    app = pilot.app
    waited = 0.0
    while waited < limit:
        await pilot.pause(0.01)
        waited += 0.01
        screen = app.screen
        if isinstance(screen, ModalScreen) or not isinstance(screen, EncounterScreen):
            await pilot.pause()
            return
        if not screen.controller.busy:
            await pilot.pause()
            if not screen.controller.busy:
                return
    raise AssertionError("the engine did not settle")


async def until(pilot: Pilot[int], check: Callable[[], bool], limit: float = 10.0) -> None:
    """Wait until `check()` holds: the app handles its pending messages between looks (a
    condition to wait for, never a fixed sleep that is too short on a busy machine and too
    long on an idle one)."""
    waited = 0.0
    while not check():
        await pilot.pause(0.02)
        waited += 0.02
        if waited > limit:
            raise AssertionError("timed out waiting for the app")
    await pilot.pause()


async def press(pilot: Pilot[int], *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


def sync(fn: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    """Run an async test with asyncio (no async plugin is installed)."""

    @functools.wraps(fn)
    def wrapper(*args: object, **kwargs: object) -> None:
        asyncio.run(fn(*args, **kwargs))  # type: ignore[arg-type]

    return wrapper


async def fight_to_the_end(pilot: Pilot[int], app: SkirmishApp, limit: int) -> None:
    """Play every player turn by keys: `a` (basic attack, confirmed) or else `e` (end turn),
    answering each dialog with Enter, until the end screen or `limit` steps."""
    from tui import modes
    from tui.screens.end import EndScreen

    for _ in range(limit):
        await settle(pilot)
        screen = app.screen
        if isinstance(screen, EndScreen):
            return
        if isinstance(screen, ModalScreen):
            await press(pilot, "enter")
            continue
        f = fight(app)
        assert f.controller.player_turn_view(f.view), "settled on an AI turn"
        await press(pilot, "a")
        if isinstance(f.mode, modes.Targeting):
            await press(pilot, "enter", "enter")
        else:
            await press(pilot, "e")
