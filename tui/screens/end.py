"""The end screen: who won, after how many rounds, and what each creature dealt, took and
how often it dropped; play again, quit, take the last action back (z) or export the log (x).

The save was marked finished when the last record was written; an undo from here reopens it.
Leaving with "undo" or "export" dismisses the screen with that word, for the fight screen
under it to act on."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from tui.options import GameOptions
from tui.safetext import name, plain
from tui.view import View
from tui.words import plural

REASONS = {
    "defeat": "the other side has nobody standing",
    "round_limit": "the round limit",
    "stopped": "stopped",
}


class EndScreen(Screen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,a", "again", "Play again"),
        Binding("z,ctrl+z", "back('undo')", "Undo"),
        Binding("x", "back('export')", "Export log"),
        Binding("q,escape", "quit", "Quit"),
    ]

    def __init__(self, view: View, options: GameOptions) -> None:
        super().__init__()
        self.view = view
        self.options = options

    def compose(self) -> ComposeResult:
        v = self.view
        title = Text()
        winner = f"Winner: {name(v.winner)}" if v.winner else "Nobody wins"
        title.append(winner, style="bold")
        why = name(REASONS.get(v.end_reason or "", v.end_reason or ""), 40)
        title.append(f" after {plural(v.round, 'round')}: {why}.")
        table = Table(box=None, expand=True)
        table.add_column("creature")
        table.add_column("side")
        table.add_column("hp", justify="right")
        table.add_column("dealt", justify="right")
        table.add_column("taken", justify="right")
        table.add_column("drops", justify="right")
        for c in v.creatures.values():
            state = "" if c.state == "healthy" else f" {c.state}"
            table.add_row(  # Text, not str: a Rich table reads a str as markup
                plain(f"{c.label} {name(c.name, 30)}"),
                plain(name(c.side, 12)),
                f"{c.hp}/{c.max_hp}{state}",
                str(c.damage_dealt),
                str(c.damage_taken),
                str(c.drops),
            )
        with Vertical(id="end"):
            yield Static(title, id="end-title")
            yield Static(table)
            yield Static(
                Text("Enter: play again    z: undo    x: export the log    q: quit", style="bold"),
                id="end-keys",
            )
        yield Footer(compact=True)

    def action_again(self) -> None:
        from tui.app import SkirmishApp

        app = self.app
        assert isinstance(app, SkirmishApp)
        app.play(replace(self.options, seed=self.options.seed + 1))

    def action_back(self, why: str) -> None:
        self.dismiss(why)

    def action_quit(self) -> None:
        self.app.exit(0)
