"""The battle grid: terrain, creatures, the cursor and the overlays of the current mode.

Two characters per square (see `tui.glyphs`). The widget only draws what its screen hands
down (the map, a `View`, an `Overlay`, the cursor); when the map is larger than the pane the
window scrolls to keep the cursor in sight, and the screen moves the cursor to the active
creature at each turn, so the view follows the fight.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.widget import Widget

from engine.grid import BattleMap
from tui.glyphs import HIDDEN, MARKS, Mark, terrain_glyph
from tui.view import View

Square = tuple[int, int]

STYLES: dict[str, Style] = {
    "floor": Style(color="bright_black"),
    "wall": Style(color="white", bgcolor="bright_black", bold=True),
    "obstacle": Style(color="yellow"),
    "pit": Style(color="magenta", bold=True),
    "difficult": Style(color="green"),
    "obscured": Style(color="cyan"),
    "dark": Style(color="blue", bold=True),
    "pc": Style(color="bright_cyan", bold=True),
    "monster": Style(color="bright_red", bold=True),
    "bloodied": Style(color="bright_yellow", bold=True),
    "down": Style(color="bright_black", bold=True),
    "reach": Style(bgcolor="#203820"),
    "path": Style(color="bright_green", bold=True, bgcolor="#205020"),
    "provoke": Style(color="bright_white", bgcolor="red", bold=True),
    "threat": Style(color="red"),
    "area": Style(color="bright_yellow", bgcolor="#553300", bold=True),
    "target": Style(color="bright_white", bgcolor="#553300", bold=True),
    "origin": Style(color="yellow"),
    "active": Style(underline=True),
    "cursor": Style(reverse=True),
    "selected": Style(reverse=True, bold=True),
    "hidden": Style(italic=True, dim=True),
    "last_seen": Style(color="bright_black", italic=True),
}


@dataclass(frozen=True)
class Overlay:
    """What the current mode adds to the map."""

    marks: dict[Square, Mark] = field(default_factory=dict)
    selected: frozenset[Square] = frozenset()
    """Squares drawn in reverse (the chosen target)."""


class GridPane(Widget, can_focus=False):
    """Draws the map; scrolls its window so the cursor stays visible."""

    cursor: reactive[Square] = reactive((0, 0), repaint=False)
    """The square under the cursor (a move repaints the two squares, not the map)."""

    def __init__(self, bmap: BattleMap, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.bmap = bmap
        self.view: View | None = None
        self.overlay = Overlay()
        self._origin = (0, 0)
        self._win = (0, 0, bmap.width, bmap.height)
        self._terrain = [
            [terrain_glyph(bmap.cell((x, y))) for x in range(bmap.width)]
            for y in range(bmap.height)
        ]

    def show(self, view: View | None = None, overlay: Overlay | None = None) -> None:
        """Draw this view and overlay; nothing is sent to the terminal if neither changed
        (a cursor key in browse mode repaints two squares: `watch_cursor`)."""
        changed = False
        if view is not None and view is not self.view:
            self.view, changed = view, True
        if overlay is not None and overlay != self.overlay:
            self.overlay, changed = overlay, True
        before = self._origin
        self._window()
        if changed or self._origin != before:
            self.refresh()

    def watch_cursor(self, old: Square, new: Square) -> None:
        before = self._origin
        self._window()
        if self._origin != before:
            self.refresh()  # the window scrolled: every square moved
        else:
            self.refresh(*self._square_regions(old), *self._square_regions(new))

    def _square_regions(self, sq: Square) -> list[Region]:
        """Where square `sq` (and the creature standing on it) is drawn, in content
        coordinates: one key, one frame with only what changed (issue 12 item 19)."""
        x0, y0, cols, rows = self._win
        x, y = sq
        if not (x0 <= x < x0 + cols and y0 <= y < y0 + rows):
            return []
        return [Region((x - x0) * 2, y - y0, 2, 1)]

    def on_resize(self) -> None:
        self._window()

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.bmap.width * 2

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.bmap.height

    def _window(self) -> tuple[int, int, int, int]:
        """(x0, y0, columns, rows) of the map shown, keeping the cursor inside with a margin."""
        cols = max(1, min(self.bmap.width, self.content_size.width // 2))
        rows = max(1, min(self.bmap.height, self.content_size.height))
        x0, y0 = self._origin
        cx, cy = self.cursor
        mx, my = min(2, cols // 4), min(2, rows // 4)
        if cx < x0 + mx:
            x0 = cx - mx
        elif cx >= x0 + cols - mx:
            x0 = cx - cols + mx + 1
        if cy < y0 + my:
            y0 = cy - my
        elif cy >= y0 + rows - my:
            y0 = cy - rows + my + 1
        x0 = max(0, min(x0, self.bmap.width - cols))
        y0 = max(0, min(y0, self.bmap.height - rows))
        self._origin = (x0, y0)
        w, h = self.bmap.width, self.bmap.height
        cropped = cols < w or rows < h
        subtitle = (
            f"x {x0}-{x0 + cols - 1} of 0-{w - 1}, y {y0}-{y0 + rows - 1} of 0-{h - 1}"
            if cropped
            else ""
        )
        if subtitle != self.border_subtitle:  # setting it repaints the whole map, even unchanged
            self.border_subtitle = subtitle
        self._win = (x0, y0, cols, rows)
        return self._win

    def render(self) -> Text:
        x0, y0, cols, rows = self._win
        tokens = self._tokens()
        out = Text(no_wrap=True, overflow="crop")
        for y in range(y0, y0 + rows):
            if y > y0:
                out.append("\n")
            run, run_style = "", None
            for x in range(x0, x0 + cols):
                text, style = self._square((x, y), tokens)
                if style != run_style and run:
                    out.append(run, run_style)
                    run = ""
                run, run_style = run + text, style
            out.append(run, run_style)  # equal styles in one span: one escape code per run
        return out

    def _tokens(self) -> dict[Square, tuple[str, Style, bool]]:
        """What stands on each square: (two characters, style, is the active creature). In a
        player's view a hidden creature shows only where it was last seen (`?` + letter)."""
        tokens: dict[Square, tuple[str, Style, bool]] = {}
        view = self.view
        if view is None:
            return tokens
        for c in view.creatures.values():
            if not c.alive:
                continue
            if not view.shown(c):
                if c.last_seen is not None:
                    tokens.setdefault(c.last_seen, (HIDDEN + c.letter, STYLES["last_seen"], False))
                continue
            style = STYLES["pc" if c.friendly else "monster"]
            if c.down:
                style = STYLES["down"]
            elif c.bloodied:
                style = style + STYLES["bloodied"]
            if c.hidden:
                style = style + STYLES["hidden"]
            for sq in c.squares():
                tokens[sq] = (c.token, style, c.id == view.current)
        return tokens

    def _square(
        self, sq: Square, tokens: dict[Square, tuple[str, Style, bool]]
    ) -> tuple[str, Style]:
        """The two characters and the style of one square."""
        mark = self.overlay.marks.get(sq)
        if sq in tokens:
            text, style, active = tokens[sq]
            if mark in ("target", "area"):
                text = text[0] + MARKS[mark][0]
                style = style + STYLES[mark]
            if active:
                style = style + STYLES["active"]
        else:
            text, name = self._terrain[sq[1]][sq[0]]
            style = STYLES[name]
            if mark is not None:
                ch, mstyle, _ = MARKS[mark]
                text = text[0] + ch if text[1] == " " else text
                style = style + STYLES[mstyle]
        if sq in self.overlay.selected:
            style = style + STYLES["selected"]
        if sq == self.cursor:
            style = style + STYLES["cursor"]
        return text, style
