"""A screen to show while a fight is loaded or a save replayed (in a worker), so that the
first frame never waits for the content loader, the AI or a long replay."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from tui.safetext import fit, plain


class LoadingScreen(Screen[None]):
    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(id="start"):
            yield Static(Text("SKIRMISH", style="bold"), id="start-title")
            yield Static(plain(fit(self.what, 76)), id="loading")
