"""The initiative pane, the log pane and the status line: they draw what the screen hands down.

Each line carries its facts as text (a marker for the current creature, the hit points as a
number and a bar, state words, condition codes), so nothing is told by colour alone.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.style import Style
from rich.text import Text
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


def initiative_line(c: CreatureView, current: bool, width: int, masked: bool = False) -> Text:
    """One creature: marker, token, hp number and bar in fixed columns, then the name and
    its state and condition codes (the name gives way to them), so columns line up whatever
    conditions a creature has."""
    mark = ">" if current else " "
    side_style = "bold bright_cyan" if c.friendly else "bold bright_red"
    line = Text(mark, style="bold reverse" if current else "")
    line.append(" ")
    line.append(c.label, style=side_style)
    line.append(
        "*" if (c.pc and c.control == "ai") or (not c.pc and c.control == "player") else " "
    )
    if masked:  # a player's view of a creature their side can't see: its hit points unknown
        line.append("  ?/?  " + "?" * BAR)
    else:
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
    """Scrollback of log lines, coloured by kind; the lines themselves say everything."""

    ALLOW_MAXIMIZE = True  # L enlarges it to the whole screen

    def add(self, lines: Iterable[Line]) -> None:
        for ln in lines:
            self.write(Text(clean(ln.text), style=KIND_STYLE.get(ln.kind, Style())))

    def note(self, text: str) -> None:
        """A line from the app itself (saved, resumed, exported), not from the fight."""
        self.write(Text(clean(text), style=Style(color="bright_cyan", italic=True)))

    def error(self, text: str) -> None:
        self.write(Text(clean(text), style=KIND_STYLE["error"]))


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
