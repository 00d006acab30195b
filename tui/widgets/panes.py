"""The initiative pane, the log pane and the status line: they draw what the screen hands down.

Each line carries its facts as text (a marker for the current creature, the hit points as a
number and a bar, state words, condition codes), so nothing is told by colour alone.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any, Self

from rich.style import Style
from rich.text import Text
from textual.events import Resize
from textual.geometry import Size
from textual.widgets import RichLog, Static

from tui.logtext import Line
from tui.safetext import NAME_CELLS, clean, fit, name
from tui.view import CreatureView, View

BAR = 4
KIND_STYLE: dict[str, Style] = {
    "info": Style(color="bright_black"),
    "round": Style(color="bright_white", bold=True),
    "turn": Style(color="cyan"),
    "move": Style(color="bright_blue"),
    "hit": Style(color="bright_red"),
    "miss": Style(color="white"),
    "damage": Style(color="red"),
    "heal": Style(color="bright_green"),
    "effect": Style(color="magenta"),
    "save": Style(color="yellow"),
    "state": Style(color="bright_yellow", bold=True),
    "ai": Style(color="bright_black", italic=True),
    "end": Style(color="bright_white", bold=True, reverse=True),
    "error": Style(color="bright_white", bgcolor="red"),
}
STATE_WORD = {
    "bloodied": "BLOODIED",
    "unconscious": "UNCONSCIOUS",
    "dying": "DYING",
    "stable": "STABLE",
    "dead": "DEAD",
    "healthy": "",
}


def shown_hp(c: CreatureView) -> int:
    """Hit points as the rules count them: dead at minus the bloodied value (S-10), so never
    below it (a minion killed by 8 damage is not at -7/1); an ffd20 monster dies at 0 (X-HP-1)
    and then drops out of the list."""
    return max(c.hp, -(c.max_hp // 2))


def hp_bar(c: CreatureView, width: int = BAR) -> Text:
    frac = max(0.0, min(1.0, c.hp / c.max_hp)) if c.max_hp else 0.0
    full = round(frac * width)
    if c.hp > 0 and full == 0:
        full = 1
    style = "green" if frac > 0.5 else "yellow" if frac > 0 else "red"
    return Text("█" * full, style=style) + Text("░" * (width - full), style="bright_black")


UNSEEN_ENTRY = "unseen creature"
"""A player's initiative pane: the entry of a creature their side can't see (no letter, no
name, no hit points, no state: only its place in the order)."""


def initiative_line(c: CreatureView, current: bool, width: int, masked: bool = False) -> Text:
    """One creature: marker, token, hp number and bar in fixed columns, then the name and
    its state and condition codes (the name gives way to them), so columns line up whatever
    conditions a creature has. `masked`: a player's view of a creature their side can't see
    ("? unseen creature"); the GM's view names it, marked UNSEEN."""
    mark = ">" if current else " "
    line = Text(mark, style="bold reverse" if current else "")
    line.append(" ")
    if masked:  # a player's view of a creature their side can't see: its turn, nothing else
        line.append(f"? {' ' * (9 + BAR)}{UNSEEN_ENTRY}", style="dim")
        line.truncate(width)
        return line
    side_style = "bold bright_cyan" if c.friendly else "bold bright_red"
    line.append(c.label, style=side_style)
    line.append(
        "*" if (c.pc and c.control == "ai") or (not c.pc and c.control == "player") else " "
    )
    line.append(f"{shown_hp(c):>3}/{c.max_hp:<3}")
    line.append_text(hp_bar(c))
    line.append(" ")
    state = STATE_WORD.get(c.state, c.state.upper())
    temp = f"+{c.temp_hp}tmp" if c.temp_hp else ""
    hidden = "UNSEEN" if c.hidden else ""
    extra = " ".join(x for x in (temp, state, hidden, "DELAY" if c.delayed else "", c.codes) if x)
    room = width - len(line)
    if extra:
        room -= len(extra) + 1
    line.append(fit(c.name, max(6, room)), style="dim" if not c.alive else "")
    if extra:
        line.append(" " + extra, style="bold" if state else "")
    line.truncate(width)
    return line


def listed(view: View) -> list[str]:
    """The creatures the initiative pane lists, in order: the dead drop out, except player
    characters (whose death the table wants to see)."""
    order = list(view.order or tuple(view.creatures))
    return [cid for cid in order if view.creatures[cid].alive or view.creatures[cid].pc]


class InitiativePane(Static):
    """The order of play with the current creature marked; the round in the border title."""

    _rows = -1
    _view: View | None = None

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        view = self._view
        return max(1, len(listed(view))) if view is not None else 1

    def show(self, view: View) -> None:
        self._view = view
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        view = self._view
        if view is None:
            return
        width = max(20, self.content_size.width or 36)
        order = listed(view)
        rows = self.content_size.height or len(order)
        start = 0
        if len(order) > rows and view.current in order:
            # Keep the current creature in sight, with the one before it for context.
            start = max(0, min(order.index(view.current) - 1, len(order) - rows))
        shown = order[start : start + rows] if len(order) > rows else order
        out = Text(no_wrap=True, overflow="crop")
        for i, cid in enumerate(shown):
            if i:
                out.append("\n")
            c = view.creatures[cid]
            out.append_text(initiative_line(c, cid == view.current, width, view.fog and c.hidden))
        self.update(out, layout=len(order) != self._rows)
        self._rows = len(order)
        label = "surprise round" if view.surprise else f"round {view.round}"
        self.border_title = f"Initiative · {label}"
        self.border_subtitle = (
            f"{start + 1}-{start + len(shown)} of {len(order)}" if len(shown) < len(order) else ""
        )


class LogPane(RichLog):
    """Scrollback of log lines, coloured by kind; the lines themselves say everything.

    RichLog wraps a line once, at the width it had when written. This pane keeps the entries
    it was given (as many as it keeps lines) and wraps them again when its width changes: `L`
    enlarges the log to the whole screen, and the lines then use the whole width instead of
    staying wrapped at the narrow pane's."""

    ALLOW_MAXIMIZE = True  # L enlarges it to the whole screen

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._entries: deque[Text] = deque(maxlen=self.max_lines)
        self._wrapped_at = 0
        self._height_was = 0

    def add(self, lines: Iterable[Line]) -> None:
        for ln in lines:
            self._keep(Text(clean(ln.text), style=KIND_STYLE.get(ln.kind, Style())))

    def note(self, text: str) -> None:
        """A line from the app itself (saved, resumed, exported), not from the fight."""
        self._keep(Text(clean(text), style=Style(color="bright_cyan", italic=True)))

    def error(self, text: str) -> None:
        self._keep(Text(clean(text), style=KIND_STYLE["error"]))

    def _keep(self, entry: Text) -> None:
        self._entries.append(entry)
        self.write(entry)

    def clear(self) -> Self:
        self._entries.clear()
        return super().clear()

    def on_resize(self, event: Resize) -> None:
        # Textual calls RichLog's own on_resize after this one (handlers run down the MRO).
        width = event.size.width
        if self._wrapped_at and width and width != self._wrapped_at and self._entries:
            self._rewrap()
        if width:
            self._wrapped_at = width
        self._height_was = self.scrollable_content_region.height

    def _rewrap(self) -> None:
        """Write every kept entry again at the new width, keeping the reader's place: at the
        end if they were there (judged by the height before the resize: the scroll offset is
        not moved yet), else at the same share of the scrollback."""
        total = self.virtual_size.height
        at_end = self.scroll_y + self._height_was >= total
        share = self.scroll_y / max(1, total)
        entries = list(self._entries)
        super().clear()
        for entry in entries:
            self.write(entry, scroll_end=False)
        if at_end:
            self.scroll_end(animate=False, x_axis=False)  # once the new size is laid out
        else:
            y = round(share * self.virtual_size.height)
            self.call_after_refresh(self.scroll_to, y=y, animate=False)


class StatusLine(Static):
    """Whose turn it is, what actions remain, how much of the fight is saved (first line),
    and what the current mode expects, odds included (its own second line, so that at 80
    columns nothing a player needs is cut off).

    `saved N` counts the fight's records (the start, then one per action) that are on disk:
    the app shows a result only after its record is saved, so everything on screen is in the
    save. (The kill soak reads this number off the screen.)"""

    _plain = ""

    def show(self, view: View | None, hint: str, saved: int | None = -1) -> None:
        """`saved`: records in the save; None: not saving; negative: don't say."""
        out = Text(no_wrap=True, overflow="ellipsis")
        if view is not None and view.active is not None:
            c = view.active
            out.append(f"R{view.round} ", style="bold")
            if view.fog and c.hidden:  # its turn passes, unnamed
                out.append(f"? {UNSEEN_ENTRY}", style="bold")
            else:
                out.append(f"{c.label.strip()} {name(c.name, NAME_CELLS)}", style="bold")
            if c.control == "player":
                s, m, n = view.actions
                out.append(" [")
                for ok, letter in ((s, "S"), (m, "M"), (n, "m")):
                    out.append(letter if ok else "-", style="bold green" if ok else "bright_black")
                out.append("]")
            else:
                out.append(" (AI)")
        elif view is not None and view.over:
            out.append("The fight is over", style="bold")
        if saved is None:
            out.append("  NOT SAVED", style="bold reverse")
        elif saved >= 0:
            out.append(f"  saved {saved}", style="green")
        out.append("\n")
        if hint:
            out.append(hint, style="italic")
        self.show_text(out)

    _full: Text | None = None
    _width = 0

    def show_text(self, text: Text) -> None:
        text.plain = clean(text.plain, newlines=True)  # character for character: styles stay
        width = self.content_size.width or 80
        if text.plain != self._plain or width != self._width:
            self._plain, self._full, self._width = text.plain, text, width
            # each of the two lines cut here, by cells: Textual would drop a whole long word
            # (a name) at the edge
            rows = text.split("\n")
            for row in rows:
                row.truncate(width, overflow="ellipsis")
            shown = Text("\n").join(rows)
            shown.no_wrap, shown.overflow = True, "ellipsis"
            self.update(shown, layout=False)

    def on_resize(self) -> None:
        if self._full is not None:
            self.show_text(self._full)
