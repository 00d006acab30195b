"""The help screen: every key, the conditions with their effects, and the map legend.

Built from the same tables the app uses (the screen's bindings, `engine.conditions.CONDITIONS`,
`tui.glyphs`), so it can't drift from what the app does.
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from engine.conditions import CONDITIONS
from tui.glyphs import MARKS, TERRAIN_LEGEND, TOKEN_MARKS

KEYS: tuple[tuple[str, str], ...] = (
    ("arrows, h j k l, y u b n, keypad", "move the cursor (y u b n and 7 9 1 3: diagonals)"),
    ("Tab / Shift+Tab", "next / previous target, origin, or creature"),
    ("m", "move (walk): the cursor picks the square, Enter walks the shown path"),
    ("r", "run (speed +2, -5 to attacks until your next turn)"),
    ("s", "shift one square without provoking"),
    ("a", "basic attack on the nearest legal target"),
    ("p", "powers: pick one, then aim it (Tab cycles targets, the cursor places areas)"),
    ("Enter", "confirm the move, the target or the area (a preview shows the odds)"),
    ("Escape", "cancel the current mode"),
    ("w", "second wind (standard action: spend a healing surge, +2 defenses)"),
    ("g", "get up from prone (move action)"),
    ("A", "spend an action point (one extra action this turn)"),
    ("d", "delay your turn"),
    ("f", "full attack, every iterative attack (Tab: target, Enter; full round)"),
    ("W", "withdraw, double move; the first square left provokes nothing"),
    ("e", "end your turn"),
    ("z / Ctrl+Z", "undo your last action (and the AI turns after it); again for more"),
    ("Z / Ctrl+Y", "redo what undo took back (the same dice)"),
    ("x", "export the combat log (JSON Lines and text) next to the save or where you say"),
    ("t", "show the squares enemies threaten"),
    ("c", "take over the creature under the cursor, or hand it to the AI"),
    ("v", "show or hide the AI's explanations in the log"),
    ("G", "GM step mode: each AI action waits for Space"),
    ("Space or .", "step mode: play the next AI action"),
    ("Ctrl+P", "command palette: every action by name"),
    ("?", "this help"),
    ("q", "quit (asks first during a fight; the fight is saved: `skirmish resume`)"),
    ("replay: n / p, right / left", "next / previous action (`skirmish replay FILE`)"),
    ("replay: r, Home, End", "jump to a round, to the start, to the end"),
)
EXTRA = {"f": "full_attack", "W": "withdraw"}
"""Keys of actions only some rulesets have: their help line says which."""


def _keys() -> Table:
    t = Table(title="Keys", title_justify="left", show_header=False, box=None, expand=True)
    t.add_column(style="bold", no_wrap=True)
    t.add_column()
    from engine.rulesets import offered_in  # the registry: which rulesets have the action

    for key, what in KEYS:
        if key in EXTRA:
            what = f"{offered_in(EXTRA[key])}: {what}"
        t.add_row(key, what)
    return t


def _conditions() -> Table:
    t = Table(title="Conditions", title_justify="left", box=None, expand=True)
    t.add_column("code", style="bold", no_wrap=True)
    t.add_column("condition", no_wrap=True)
    t.add_column("effect")
    for c in CONDITIONS:
        t.add_row(c.code, c.name.replace("_", " "), c.effect)
    return t


def _legend() -> Table:
    t = Table(title="Map legend", title_justify="left", show_header=False, box=None, expand=True)
    t.add_column(style="bold", no_wrap=True)
    t.add_column()
    for sym, what in TERRAIN_LEGEND + TOKEN_MARKS:
        t.add_row(Text(sym), what)
    for ch, _, what in MARKS.values():
        t.add_row(Text(". " if ch == " " else "." + ch), what)
    t.add_row(Text("reverse"), "the cursor; the active creature is underlined")
    return t


class HelpScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Back"),
        Binding("up,k", "scroll(-1)", "Up", show=False),
        Binding("down,j", "scroll(1)", "Down", show=False),
        Binding("pagedown,space", "scroll(10)", "Page down"),
        Binding("pageup", "scroll(-10)", "Page up"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(_keys())
            yield Static(_conditions())
            yield Static(_legend())
        yield Footer(compact=True)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help", VerticalScroll).scroll_relative(y=lines, animate=False)
