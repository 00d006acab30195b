"""The start screen: the bundled encounters with their description, size and ruleset;
`default` is selected, so that `skirmish` then Enter starts the default fight."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from engine.content.bundled import EncounterInfo

TITLE = "SKIRMISH  tactical d20 encounters"


class StartScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,escape", "quit", "Quit"),
        Binding("question_mark", "help", "Help"),
        Binding("j", "down", "Down", show=False),
        Binding("k", "up", "Up", show=False),
    ]

    def __init__(self, encounters: list[EncounterInfo]) -> None:
        super().__init__()
        self.encounters = encounters

    def compose(self) -> ComposeResult:
        options = []
        for e in self.encounters:
            line = Text()
            line.append(f"{e.name:<14}", style="bold")
            line.append(f" {e.width}x{e.height:<3} {e.ruleset:<6} {e.creatures} creatures\n")
            line.append(f"   {e.description}", style="italic")
            options.append(Option(line, id=e.name))
        with Vertical(id="start"):
            yield Static(Text(TITLE, style="bold"), id="start-title")
            yield Static("Choose an encounter (Enter plays it):", id="start-hint")
            yield OptionList(*options, id="encounters")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        ol = self.query_one(OptionList)
        names = [e.name for e in self.encounters]
        ol.highlighted = names.index("default") if "default" in names else 0
        ol.focus()

    @on(OptionList.OptionSelected)
    def _start(self, event: OptionList.OptionSelected) -> None:
        from tui.app import SkirmishApp

        app = self.app
        assert isinstance(app, SkirmishApp)
        app.play_named(event.option.id or "default")

    def action_quit(self) -> None:
        self.app.exit(0)

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_down(self) -> None:
        self.query_one(OptionList).action_cursor_down()

    def action_up(self) -> None:
        self.query_one(OptionList).action_cursor_up()
