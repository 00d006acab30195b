"""The replay viewer: a saved fight or a combat log, one action at a time, read-only.

The same panes as a fight (grid, initiative, log, details), fed from a `tui.replay.Timeline`
instead of a live encounter. Its keys step (n/p or right/left), jump to a round (r), to the
start or the end (Home/End), and pick a creature for the details panel (Tab); there is no key
that acts, and nothing on this screen holds an encounter that could change.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer

from tui.glyphs import describe_cell
from tui.logtext import LogFormatter
from tui.replay import Timeline
from tui.safetext import name, plain
from tui.screens.dialogs import AskText
from tui.widgets.details import DetailsPanel, creature_text
from tui.widgets.grid import GridPane
from tui.widgets.panes import InitiativePane, LogPane, StatusLine

HELP_TITLE = "Keys in the replay (`skirmish replay FILE`: read-only)"


class ReplayScreen(Screen[None]):
    # priority: the log pane scrolls with these keys when it has the focus; here they step
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,right,l", "step(1)", "Next", priority=True, tooltip="the next action"),
        Binding("p,left,h", "step(-1)", "Previous", priority=True, tooltip="the action before"),
        Binding("r", "jump_round", "Round", tooltip="jump to a round"),
        Binding("home", "go(0)", "Start", show=False, priority=True, tooltip="the start"),
        Binding("end", "go(-1)", "End", show=False, priority=True, tooltip="the end"),
        Binding("pagedown", "step(10)", "+10", show=False, priority=True, tooltip="10 forward"),
        Binding("pageup", "step(-10)", "-10", show=False, priority=True, tooltip="10 back"),
        Binding(
            "tab", "cycle(1)", "Creature", show=False, priority=True, tooltip="the next creature"
        ),
        Binding(
            "shift+tab",
            "cycle(-1)",
            "Previous creature",
            show=False,
            priority=True,
            tooltip="the creature before",
        ),
        Binding("question_mark", "help", "Help", tooltip="this help"),
        Binding("q,escape", "quit", "Quit", tooltip="leave the replay"),
    ]

    def __init__(self, timeline: Timeline) -> None:
        super().__init__()
        self.timeline = timeline
        self.index = 0
        """The stop shown: the fight just after it."""
        self._formatter = LogFormatter(timeline.names, explain=True)
        self._logged = 0
        """Events written to the log pane so far."""
        self._focus_id: str | None = None

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield GridPane(self.timeline.bmap, id="grid")
                yield LogPane(id="log", wrap=True, max_lines=4000, min_width=20)
            with Vertical(id="right"):
                yield InitiativePane(id="initiative")
                yield DetailsPanel(id="details")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        tl = self.timeline
        self.query_one("#grid", GridPane).border_title = plain(f"Replay: {name(tl.title, 50)}")
        how = "save" if tl.exact else "combat log (followed from its events)"
        self.query_one("#log", LogPane).border_title = f"Log · {how}"
        self.show_stop(0)

    # --- drawing --------------------------------------------------------------------------
    def show_stop(self, k: int, *, follow: bool = True) -> None:
        """Show the fight after stop `k`; `follow` puts the cursor on whoever's turn it is."""
        tl = self.timeline
        k = max(0, min(k, len(tl.stops) - 1))
        self.index = k
        stop = tl.stops[k]
        view = tl.view(k)
        log = self.query_one("#log", LogPane)
        if stop.events < self._logged:  # backwards: write the log again up to here
            log.clear()
            self._formatter = LogFormatter(tl.names, explain=True)
            self._logged = 0
        log.add(self._formatter.lines(tl.events[self._logged : stop.events]))
        self._logged = stop.events
        grid = self.query_one("#grid", GridPane)
        if follow and view.current and view.current in view.creatures:
            self._focus_id = view.current
        focus = view.creatures.get(self._focus_id or "")
        if focus is not None:
            grid.cursor = focus.pos
        grid.show(view)
        self.query_one("#initiative", InitiativePane).show(view)
        details = self.query_one("#details", DetailsPanel)
        here = view.at(grid.cursor)
        if here is not None:
            details.show(creature_text(here), f"Details · {here.name}")
        else:
            details.show(describe_cell(tl.bmap.cell(grid.cursor)), "Details")
        status = Text()
        status.append(f"REPLAY {k}/{len(tl.stops) - 1}", style="bold reverse")
        label = "surprise round" if view.surprise and view.round == 0 else f"R{stop.round}"
        status.append(f" {label} ", style="bold")
        if view.over and k == len(tl.stops) - 1:
            status.append(f"END: {view.winner or 'nobody'} won. ", style="bold")
        status.append(stop.label)
        self.query_one("#status", StatusLine).show_text(status)

    # --- keys -----------------------------------------------------------------------------
    def action_step(self, n: int) -> None:
        self.show_stop(self.index + n)

    def action_go(self, k: int) -> None:
        self.show_stop(k if k >= 0 else len(self.timeline.stops) - 1)

    def action_jump_round(self) -> None:
        last = self.timeline.stops[-1].round

        def check(text: str) -> str | None:
            if not text.isdigit():
                return "type a round number"
            if self.timeline.stop_of_round(int(text)) is None:
                return f"the fight ended in round {last}"
            return None

        def done(text: str | None) -> None:
            if text:
                k = self.timeline.stop_of_round(int(text))
                if k is not None:
                    self.show_stop(k)

        self.app.push_screen(
            AskText("Jump to a round", f"Round (0 to {last}):", restrict=r"[0-9]*", check=check),
            done,
        )

    def action_cycle(self, step: int) -> None:
        view = self.timeline.view(self.index)
        alive = [cid for cid in view.order if cid in view.creatures and view.creatures[cid].alive]
        if not alive:
            return
        i = alive.index(self._focus_id) if self._focus_id in alive else -step
        self._focus_id = alive[(i + step) % len(alive)]
        self.show_stop(self.index, follow=False)

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.BINDINGS, HELP_TITLE))

    def action_quit(self) -> None:
        self.app.exit(0)
