"""Modal dialogs that return typed values: yes/no questions, the power picker, dice entry,
the choice of where forced movement ends, and a line of text (a round to jump to, a file to
export to).

Each is a `ModalScreen[T]` that `dismiss`es its value; the caller passes a callback. All are
keyboard-first: Enter accepts, Escape backs out (where backing out means something).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from engine.dice import DiceRequest
from tui.safetext import clean, fit, pad, plain
from tui.view import CreatureView
from tui.words import plural

Square = tuple[int, int]
TITLE_CELLS = 72
"""A dialog title fits on one line of the 76-wide dialog box."""


def title_text(title: str) -> Text:
    """A dialog title as data: cleaned, one line, ellipsised to the dialog's width."""
    return plain(fit(title, TITLE_CELLS), "bold")


def body_text(body: Text | str) -> Text:
    """A dialog body as data: never markup, nothing a terminal would obey."""
    if isinstance(body, Text):
        body = body.copy()
        body.plain = clean(body.plain, newlines=True)
        return body
    return plain(body, newlines=True)


class Confirm(ModalScreen[bool]):
    """A yes/no question (confirm an attack, take an opportunity attack, quit the fight).

    Enter and Escape only: `y` and `n` move the map's cursor diagonally, and a key pressed
    just before a dialog opens must not answer it (issue 12 item 16)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "answer(True)", "Yes"),
        Binding("escape", "answer(False)", "No"),
    ]

    def __init__(self, title: str, body: Text | str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__(classes="dialog")
        self.title_text = title
        self.body = body
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(title_text(self.title_text), classes="dialog-title")
            yield Static(body_text(self.body), classes="dialog-body")
            yield Label(
                f"[Enter] {self.yes}   [Esc] {self.no}", classes="dialog-keys", markup=False
            )
        yield Footer(compact=True)  # its own keys, over the fight's

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class PowerPicker(ModalScreen[str | None]):
    """The current creature's powers: action type, range, usage; unusable ones say why."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, creature: CreatureView, reasons: dict[str, str | None]) -> None:
        super().__init__(classes="dialog")
        self.creature = creature
        self.reasons = reasons

    def compose(self) -> ComposeResult:
        options: list[Option] = []
        for p in self.creature.powers:
            reason = self.reasons.get(p.id)
            line = Text()
            line.append(pad(p.name, 22), style="bold" if not reason else "")
            usage = "spent" if p.spent else p.usage
            line.append(clean(f" {p.action:<8} {p.reach:<16} {usage}"))
            if p.attack:
                line.append(clean(f"  {p.attack}"))
            if reason:
                line.append(f"\n   {fit(reason, 66)}", style="italic")
            options.append(Option(line, id=p.id, disabled=reason is not None))
        with Vertical(classes="dialog-box"):
            yield Label(
                title_text(f"{fit(self.creature.name, 40)}: use which power?"),
                classes="dialog-title",
            )
            yield OptionList(*options, id="powers")
            yield Label(
                "[Up/Down] choose  [Enter] use  [Esc] cancel", classes="dialog-keys", markup=False
            )
        yield Footer(compact=True)  # its own keys, over the fight's

    def on_mount(self) -> None:
        ol = self.query_one(OptionList)
        first = next((i for i, o in enumerate(ol.options) if not o.disabled), None)
        if first is not None:
            ol.highlighted = first

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


def face_of(text: str, sides: int) -> int | None:
    """The face typed, if `text` is exactly a whole number from 1 to `sides` (ASCII digits,
    no sign, no point), else None."""
    if not text or not all("0" <= ch <= "9" for ch in text):
        return None
    value = int(text)
    return value if 1 <= value <= sides else None


class DiceEntry(ModalScreen[int | None]):
    """Table mode: a person rolls a physical die and types the face.

    Only a whole number from 1 to the die's sides passes: `-3`, `1.5` or `7x` are refused as
    typed (nothing is dropped from what was typed, so `-3` never becomes 3), with the allowed
    range, and the field is cleared for the next try with the focus kept, so no keystroke
    after a refusal is lost. Ctrl+R lets the app roll this one instead (dismisses None).
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+r", "app_rolls", "Roll for me")]

    def __init__(self, request: DiceRequest, who: str | None = None) -> None:
        super().__init__(classes="dialog")
        self.request = request
        self.who = who

    def compose(self) -> ComposeResult:
        r = self.request
        purpose = r.purpose or "a roll"
        with Vertical(classes="dialog-box"):
            yield Label("Roll a die", classes="dialog-title")
            # up to three lines of the box: the engine's note of what is needed included
            yield Static(body_text(f"{fit(purpose, 200)}: roll 1d{r.sides}"), classes="dialog-body")
            yield Input(placeholder=f"1-{r.sides}", max_length=8, id="face")
            yield Label("", id="dice-error", classes="dialog-error")
            yield Label(
                "[Enter] accept  [Ctrl+R] let the app roll", classes="dialog-keys", markup=False
            )
        yield Footer(compact=True)  # its own keys, over the fight's

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        sides = self.request.sides
        face = face_of(text, sides)
        if face is not None:
            self.dismiss(face)
            return
        self.query_one("#dice-error", Label).update(
            f"{text or 'nothing'!r} is not a face of a d{sides}: type a whole number 1 to {sides}"
        )
        field = self.query_one(Input)
        field.value = ""
        field.focus()

    def action_app_rolls(self) -> None:
        self.dismiss(None)


class ForcedMoveChoice(ModalScreen[int]):
    """Where a push, pull or slide ends: one line per option (Escape takes the first)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "first", "First option")]

    def __init__(self, title: str, options: list[tuple[Square, ...]]) -> None:
        super().__init__(classes="dialog")
        self.title_text = title
        self.paths = options

    def compose(self) -> ComposeResult:
        items = []
        for i, path in enumerate(self.paths):
            end = path[-1]
            steps = plural(len(path) - 1, "square")
            items.append(Option(f"{end[0]},{end[1]}  ({steps})", id=str(i)))
        with Vertical(classes="dialog-box"):
            yield Label(title_text(self.title_text), classes="dialog-title")
            yield OptionList(*items)
            yield Label("[Enter] choose  [Esc] the first", classes="dialog-keys", markup=False)
        yield Footer(compact=True)  # its own keys, over the fight's

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_first(self) -> None:
        self.dismiss(0)


class AskText(ModalScreen[str | None]):
    """One line of text: Enter gives it (checked by `check`, which returns why it is wrong or
    None), Escape gives None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        title: str,
        prompt: str,
        value: str = "",
        *,
        restrict: str | None = None,
        check: Callable[[str], str | None] | None = None,
    ) -> None:
        super().__init__(classes="dialog")
        self.title_text = title
        self.prompt = prompt
        self.value = value
        self.restrict = restrict
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(title_text(self.title_text), classes="dialog-title")
            yield Static(body_text(self.prompt), classes="dialog-body")
            # the default (a path from the save's name) is shown, and given back, cleaned
            yield Input(clean(self.value), restrict=self.restrict, id="text", classes="wide")
            yield Label("", id="text-error", classes="dialog-error")
            yield Label("[Enter] accept  [Esc] cancel", classes="dialog-keys", markup=False)
        yield Footer(compact=True)  # its own keys, over the fight's

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        problem = self.check(text) if self.check is not None else None
        if problem:
            self.query_one("#text-error", Label).update(plain(fit(problem, TITLE_CELLS)))
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
