"""The details panel: the creature under the cursor, or the attack preview while targeting.

Defenses, hit points, speed, conditions with their durations and powers with their usage
state, all as words, so the panel reads the same without colour.
"""

from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from tui.safetext import clean, fit, name, pad, plain
from tui.view import CreatureView

ACTION_SHORT = {
    "standard": "std",
    "move": "move",
    "minor": "minor",
    "free": "free",
    "immediate": "imm",
}
USAGE_SHORT = {"at-will": "at-will", "encounter": "enc", "daily": "daily"}


def creature_text(c: CreatureView) -> Text:
    out = Text()
    side = "hero" if c.pc else c.role
    out.append(f"{c.label.strip()} {name(c.name, 40)}", style="bold")
    out.append(f"  {name(side, 16)} L{c.level}  id {name(c.id, 40)}\n")
    if c.hidden:
        out.append("HIDDEN from your side: it can't be seen now\n", style="bold")
    state = "" if c.state == "healthy" else f" {c.state.upper()}"
    out.append(f"HP {c.hp}/{c.max_hp}", style="bold")
    out.append(state)
    if c.temp_hp:
        out.append(f" temp {c.temp_hp}")
    out.append(f"  speed {c.speed}")
    if c.pc:
        out.append(f"  surges {c.surges}  AP {c.action_points}")
    if c.death_failures:
        out.append(f"  death fails {c.death_failures}")
    ac, fort, ref, will = c.defenses
    out.append(f"\nAC {ac} Fort {fort} Ref {ref} Will {will}")
    out.append("  played by you" if c.control == "player" else "  AI")
    if c.second_wind_used:
        out.append("\nsecond wind used")
    conds = [x for x in c.conditions if x not in ("flat_footed",)]
    if conds:
        out.append("\nConditions: " + clean(", ".join(conds)), style="bold")
    for e in c.effects:
        out.append(clean(f"\n  {name(e.name, 30)}: {e.parts}; {e.duration}", newlines=True))
    if c.powers:
        out.append("\nPowers:")
    for p in c.powers:
        usage = "SPENT" if p.spent else USAGE_SHORT.get(p.usage, p.usage)
        line = f"\n {pad(p.name, 16)} {ACTION_SHORT.get(p.action, p.action):<5} {usage}"
        out.append(line, style="bright_black" if p.spent else "")
        out.append(
            f"\n   {p.reach}" + (f", {p.attack}" if p.attack else ""),
            style="bright_black" if p.spent else "dim",
        )
    return out


class DetailsPanel(VerticalScroll, can_focus=False):
    """A scrollable panel holding one block of text."""

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static(id="details-where")
        yield Static(id="details-body")

    _where = ""

    def where(self, text: str) -> None:
        """The square under the cursor and its terrain, on a line of its own: a cursor move
        over the floor repaints that line only (a changed border title repaints the panel)."""
        if text != self._where:
            self._where = text
            self.query_one("#details-where", Static).update(
                Text(text, style="italic"), layout=False
            )

    _last: tuple[str, str] | None = None
    _lines = 0

    def show(self, text: Text | str, title: str = "Details") -> None:
        if isinstance(text, Text):  # whatever built it, nothing in it reaches the terminal raw
            text = text.copy()
            text.plain = clean(text.plain, newlines=True)
        else:
            text = plain(text, newlines=True)  # a string is data, never markup
        key = (text.plain, str(text.spans))
        shown_title = plain(fit(title, 60))
        if shown_title.plain != str(self.border_title or ""):  # setting it repaints the panel
            self.border_title = shown_title
        if key == self._last:
            return  # an unchanged panel costs nothing: no repaint, no layout
        self._last = key
        lines = text.plain.count("\n")
        if lines < self._lines:
            # Pad to the tallest text shown so far: a shorter text must not shrink the body,
            # which would lay out the whole screen and flip the scrollbar (two more frames).
            text.append("\n" * (self._lines - lines))
        self.query_one("#details-body", Static).update(text, layout=lines > self._lines)
        self._lines = max(lines, self._lines)
