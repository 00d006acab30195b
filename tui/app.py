"""The Skirmish app: a thin shell that picks the first screen and starts fights.

Screens do the work (`tui.screens`); the app holds the options a fight starts with, the
command palette's list of actions, and the styles (`skirmish.tcss`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from engine.content.bundled import bundled_encounters
from engine.content.errors import ContentErrors
from engine.content.loader import LoadedEncounter, load_encounter
from tui.controller import GameOptions

PALETTE: tuple[tuple[str, str, str], ...] = (
    ("Move (walk)", "Pick a square with the cursor, Enter walks there", "move('walk')"),
    ("Run", "Move speed + 2; -5 to attacks until your next turn", "move('run')"),
    ("Shift", "Move one square without provoking", "move('shift')"),
    ("Use a power", "List the powers with their action, range and usage", "powers"),
    ("Basic attack", "Aim the basic attack at the nearest legal target", "basic"),
    ("End turn", "End the current creature's turn", "end_turn"),
    ("Undo", "Take back your last action", "undo"),
    ("Second wind", "Spend a healing surge, +2 to defenses", "second_wind"),
    ("Stand up", "Get up from prone", "stand_up"),
    ("Action point", "Spend an action point for one more action", "action_point"),
    ("Delay", "Delay the turn until after another creature's", "delay"),
    ("Show threats", "Mark the squares enemies threaten", "threats"),
    (
        "Take over creature",
        "Toggle player/AI control of the creature under the cursor",
        "take_over",
    ),
    ("AI explanations", "Show or hide the AI's reasons in the log", "verbose"),
    ("GM step mode", "Each AI action waits for Space", "step_mode"),
    ("Help", "Keys, conditions and the map legend", "help"),
    ("Quit fight", "Leave the fight (asks first)", "quit_fight"),
)


class SkirmishApp(App[int]):
    CSS_PATH = "skirmish.tcss"
    TITLE = "Skirmish"
    HORIZONTAL_BREAKPOINTS = [  # noqa: RUF012 (a plain attribute on App)
        (0, "-narrow"),
        (110, "-wide"),
    ]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True)
    ]

    def __init__(self, options: GameOptions, loaded: LoadedEncounter | None = None) -> None:
        super().__init__()
        self.options = options
        self.loaded = loaded
        """Given: go straight into this fight; None: start on the encounter list."""

    def on_mount(self) -> None:
        if self.loaded is not None:
            self._push_fight(self.loaded, self.options)
        else:
            from tui.screens.start import StartScreen

            self.push_screen(StartScreen(bundled_encounters()))

    def _push_fight(self, loaded: LoadedEncounter, options: GameOptions) -> None:
        from tui.screens.encounter import EncounterScreen

        self.push_screen(EncounterScreen(loaded, options))

    def play_named(self, name: str) -> None:
        """Start the bundled encounter `name` with this app's options (the start screen)."""
        self.play(replace(self.options, source=name))

    def play(self, options: GameOptions) -> None:
        """Leave whatever fight is on and start a new one."""
        try:
            loaded = load_encounter(options.source, options.ruleset)
        except ContentErrors as exc:
            self.notify(str(exc), title="Can't load the encounter", severity="error")
            return
        self.options = options
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self._push_fight(loaded, options)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        from tui.screens.encounter import EncounterScreen

        if isinstance(screen, EncounterScreen):
            for title, help_text, action in PALETTE:
                yield SystemCommand(title, help_text, self._runner(screen, action))

    @staticmethod
    def _runner(screen: Screen, action: str):  # type: ignore[no-untyped-def]
        async def run() -> None:
            await screen.run_action(action)

        return run
