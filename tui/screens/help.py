"""The help screen: every key, the conditions with their effects, and the map legend.

Built from the same tables the app uses: the opening screen's live `BINDINGS` (`tui.keys`),
`engine.conditions.CONDITIONS` and `tui.glyphs`, so it can't drift from what the app does.
"""

from __future__ import annotations

from collections.abc import Iterable
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
from tui.keys import KeyHelp, help_rows, key_text

PALETTE_HELP = "command palette: every action by name"

ACTIONS_LEFT = (
    "[SMm] on the status line: the standard, move and minor actions left to the creature "
    "whose turn it is; a '-' is spent. A standard action can still be taken as a move or a "
    "minor, and a move as a minor (F-TRN-1)."
)
TABLE_DICE = (
    'Dice at the table (--manual-dice SIDE): the prompt says the face needed ("needs 12+ '
    '(d20 +5 vs AC 17; 45%)") and for damage the dice and the modifiers the app adds; a '
    "damage roll no face can change is rolled by the app; Ctrl+R lets the app roll any die. "
    "The log marks each roll (typed) or (app rolled). T: the GM tools, on the creature or "
    "square under the cursor; each is an action you can undo."
)
EXTRA = {"f": "full_attack", "W": "withdraw"}
"""Keys of actions only some rulesets have: their help line says which."""


def _keys(rows: list[KeyHelp], title: str) -> Table:
    t = Table(title=title, title_justify="left", show_header=False, box=None, expand=True)
    t.add_column(style="bold", no_wrap=True)
    t.add_column()
    from engine.rulesets import offered_in  # the registry: which rulesets have the action
    from tui.screens.full_round import RULES

    for row in rows:
        what = f"{offered_in(row.action)}: {row.text}" if row.action in RULES else row.text
        t.add_row(Text(row.keys), Text(what))
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
    """`keys`: the bindings of the screen that opened it (its live `BINDINGS`), listed with
    the command palette's key; `title` names that screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Back"),
        Binding("up,k", "scroll(-1)", "Up", show=False),
        Binding("down,j", "scroll(1)", "Down", show=False),
        Binding("pagedown", "scroll(10)", "Page down"),
        Binding("pageup", "scroll(-10)", "Page up"),
    ]

    def __init__(self, keys: Iterable[BindingType] = (), title: str = "Keys") -> None:
        super().__init__()
        self.keys = list(keys)
        self.title_text = title

    def compose(self) -> ComposeResult:
        palette = Binding(self.app.COMMAND_PALETTE_BINDING, "command_palette", "Commands")
        rows = help_rows(self.app, self.keys)
        rows.append(KeyHelp(key_text(self.app, palette), "Commands", PALETTE_HELP, "palette"))
        with VerticalScroll(id="help"):
            if any(r.action == "end_turn" for r in rows):
                yield Static(Text(ACTIONS_LEFT))
                yield Static(Text(TABLE_DICE))
            yield Static(_keys(rows, self.title_text))
            yield Static(_conditions())
            yield Static(_legend())
        yield Footer(compact=True)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help", VerticalScroll).scroll_relative(y=lines, animate=False)
