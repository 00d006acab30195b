"""The Skirmish app: a thin shell that picks the first screen and opens fights.

Screens do the work (`tui.screens`); the app holds the options a fight starts with and the
styles (`skirmish.tcss`); the command palette offers the fight screen's own bindings
(`tui.keys`), so the footer, the help and the palette list the same keys.

Start-up is lazy: this module imports Textual and nothing of the engine, so that the start
screen draws first. A fight is opened in a worker thread (loading the content, importing the
engine, replaying a save) behind a `LoadingScreen`, then its screen is pushed; the AI is
imported by the controller at the first AI decision.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, TypeVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from tui.options import GameOptions
from tui.safetext import clean, plain

if TYPE_CHECKING:
    from engine.content.loader import LoadedEncounter
    from tui.controller import Controller
    from tui.replay import Timeline

T = TypeVar("T")

GC_BACK_S = 5.0
"""The collector is back on this long after the app's mount even if no fight screen has
drawn its first frame (which turns it on: `EncounterScreen._first_frame_drawn`)."""


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

    def __init__(
        self,
        options: GameOptions,
        loaded: LoadedEncounter | None = None,
        *,
        resume: Path | None = None,
        replay: Path | None = None,
    ) -> None:
        super().__init__()
        self.options = options
        self.loaded = loaded
        """Given: go straight into this fight."""
        self.resume = resume
        """Given: open this save where it stopped."""
        self.replay = replay
        """Given: step through this save or combat log (read-only)."""

    def on_mount(self) -> None:
        if not gc.isenabled():  # `skirmish play` starts with it off (`tui.launch._quiet_start`)
            self.set_timer(GC_BACK_S, gc.enable)  # at the latest, whatever becomes of the fight
        if self.loaded is not None:
            from tui.controller import Controller

            self._show_fight(Controller(self.loaded, self.options))
        elif self.resume is not None:
            self.resume_save(self.resume, fatal=True)
        elif self.replay is not None:
            self._open_replay(self.replay)
        else:
            from tui.screens.start import StartScreen

            self.push_screen(StartScreen())

    # --- opening fights (a worker loads, the UI thread shows) -----------------------------
    def _show_fight(self, controller: Controller) -> None:
        from tui.screens.encounter import EncounterScreen

        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(EncounterScreen(controller))

    def _open(
        self,
        what: str,
        build: Callable[[], T],
        show: Callable[[T], None],
        *,
        fatal: bool,
    ) -> None:
        """Run `build` in a worker behind a loading screen, then `show` its result. A failure
        (its message is one line) ends the app if `fatal` (a command-line start), else it
        goes back to the screen before."""
        from tui.screens.loading import LoadingScreen

        self.push_screen(LoadingScreen(what))

        def work() -> None:
            try:
                result = build()
            except Exception as exc:  # SaveError, ContentErrors, OSError: all say what's wrong
                message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                self.call_from_thread(self._failed, message, fatal)
                return
            self.call_from_thread(show, result)

        self.run_worker(work, thread=True, group="load", exit_on_error=False)

    def _failed(self, message: str, fatal: bool) -> None:
        if fatal:
            self.exit(1, return_code=1, message=plain(message))  # printed after the app: data
            return
        self.pop_screen()  # the loading screen
        self.notify(
            clean(message), title="Can't open it", severity="error", timeout=8, markup=False
        )

    def play_named(self, name: str) -> None:
        """Start the bundled encounter `name` with this app's options (the start screen)."""
        self.play(replace(self.options, source=name))

    def play(self, options: GameOptions) -> None:
        """Leave whatever fight is on and start a new one."""

        def build() -> Controller:
            from engine.content.loader import load_encounter
            from tui.controller import Controller

            return Controller(load_encounter(options.source, options.ruleset), options)

        def show(ctl: Controller) -> None:
            self.options = options
            self._show_fight(ctl)

        self._open(f"Loading {options.source}...", build, show, fatal=False)

    def resume_save(self, path: Path, *, fatal: bool = False) -> None:
        """Open a saved fight where it stopped (the start screen's offer, `skirmish resume`)."""

        def build() -> Controller:
            from tui.controller import Controller

            return Controller.resumed(path, base=self.options)

        def show(ctl: Controller) -> None:
            self.options = ctl.options
            self._show_fight(ctl)

        self._open(f"Resuming {path.name}...", build, show, fatal=fatal)

    def _open_replay(self, path: Path) -> None:
        def build() -> Timeline:
            from tui.replay import load_timeline

            return load_timeline(path)

        def show(timeline: Timeline) -> None:
            from tui.screens.replay import ReplayScreen

            while len(self.screen_stack) > 1:
                self.pop_screen()
            self.push_screen(ReplayScreen(timeline))

        self._open(f"Reading {path.name}...", build, show, fatal=True)

    # --- the command palette ----------------------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        from tui.screens.encounter import EncounterScreen

        if isinstance(screen, EncounterScreen):
            from engine.rulesets import offered_in
            from tui.keys import palette_rows
            from tui.screens.full_round import RULES, allowed

            for title, help_text, action in palette_rows(screen.BINDINGS):
                if not allowed(screen.controller, action):
                    continue  # a full-round action the fight's ruleset doesn't have
                if action in RULES:  # which rulesets have it: "d20srd: ..."
                    help_text = f"{offered_in(action)}: {help_text}"
                yield SystemCommand(title, help_text, self._runner(screen, action))

    @staticmethod
    def _runner(screen: Screen, action: str):  # type: ignore[no-untyped-def]
        async def run() -> None:
            await screen.run_action(action)

        return run
