"""The encounter screen: the grid, the initiative order, the log and the details panel, and
every key a player uses in a fight.

The screen never changes the fight itself: it turns keys into engine actions, hands them to
the controller's worker, and draws the `View`s and log lines that come back as messages.
Engine queries for overlays (reachable squares, targets, previews) run here only on a player's
turn, while no worker runs, under the controller's lock.

The fight is autosaved by the controller; this screen shows how many records are safe on disk
(the status line's `saved N`) and offers undo (z), redo (Z or Ctrl+Y) and export (x).
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer

from engine.actions import (
    Action,
    Move,
    UsePower,
)
from engine.encounter import Encounter
from tui import modes
from tui.controller import (
    Ask,
    Controller,
    Failed,
    Idle,
    News,
    Paused,
    Refused,
    Update,
    Waiting,
)
from tui.fogview import hidden_ids, player_lines
from tui.glyphs import describe_cell
from tui.logtext import LogFormatter
from tui.safetext import clean, first_line, name, plain
from tui.screens.asks import dialog_for
from tui.screens.commands import FightCommands
from tui.screens.dialogs import AskText, Confirm, PowerPicker
from tui.screens.full_round import FullRoundCommands, allowed
from tui.screens.gm import GmCommands
from tui.view import View
from tui.widgets.details import DetailsPanel, creature_text
from tui.widgets.grid import GridPane, Overlay
from tui.widgets.panes import InitiativePane, LogPane, StatusLine

T = TypeVar("T")
Square = tuple[int, int]
DIRS = {
    "up,k,8": (0, -1),
    "down,j,2": (0, 1),
    "left,h,4": (-1, 0),
    "right,l,6": (1, 0),
    "y,7,home": (-1, -1),
    "u,9": (1, -1),
    "b,1,end": (-1, 1),
    "n,3": (1, 1),
}
"""Cursor keys. PgUp and PgDn scroll the log (not diagonals), so each key means one thing."""
CURSOR_KEYS = "arrows hjkl yubn"
MODE_ACTIONS = {"confirm", "cancel"}
BROWSE_ACTIONS = {"move", "powers", "basic", "end_turn", "undo", "redo", "full_attack", "withdraw"}


def _b(keys: str, action: str, label: str, tip: str, show: bool = False) -> Binding:
    return Binding(keys, action, label, show=show, tooltip=tip)


FIGHT_BINDINGS: list[BindingType] = [
    *(
        Binding(
            keys,
            f"cursor({dx},{dy})",
            "Cursor",
            show=False,
            key_display=CURSOR_KEYS,
            tooltip="move the cursor (the keypad too); y u b n, 7 9 1 3: diagonals",
        )
        for keys, (dx, dy) in DIRS.items()
    ),
    _b("tab", "cycle(1)", "Next", "next target, origin, or creature"),
    _b("shift+tab", "cycle(-1)", "Previous", "previous target, origin, or creature"),
    _b("m", "move('walk')", "Move", "walk: the cursor picks the square, Enter walks", True),
    _b("r", "move('run')", "Run", "run: speed +2, -5 to attacks until your next turn"),
    _b("s", "move('shift')", "Shift", "shift one square without provoking"),
    _b("a", "basic", "Attack", "basic attack on the nearest legal target", True),
    _b("p", "powers", "Power", "pick a power, then aim it (Tab: targets; cursor: areas)", True),
    _b(
        "enter",
        "confirm",
        "Confirm",
        "confirm the move, target or area (a preview shows odds)",
        True,
    ),
    _b("escape", "cancel", "Cancel", "cancel the current mode", True),
    _b("w", "second_wind", "Second wind", "second wind (standard): a healing surge, +2 defenses"),
    _b(
        "H",
        "heal_check",
        "Heal check",
        "Heal check (standard, DC 15): stabilize the dying creature under the cursor",
    ),
    _b("g", "stand_up", "Get up", "get up from prone (move action)"),
    _b("A", "action_point", "Action point", "spend an action point: one extra action this turn"),
    _b("d", "delay", "Delay", "delay your turn until after another creature's"),
    _b(
        "f",
        "full_attack",
        "Full attack",
        "every iterative attack on one target (a full round)",
        True,
    ),
    _b("W", "withdraw", "Withdraw", "double move, first square provokes nothing", True),
    _b("e", "end_turn", "End turn", "end the current creature's turn", True),
    _b("z,ctrl+z", "undo", "Undo", "undo your last action (and the AI turns after it)", True),
    _b("Z,ctrl+y", "redo", "Redo", "redo what undo took back (the same dice)"),
    _b("x", "export", "Export log", "write the combat log as JSON Lines and text"),
    _b("t", "threats", "Threats", "show or hide the squares enemies threaten"),
    _b("c", "take_over", "Take over", "you or the AI plays the creature under the cursor"),
    _b("v", "verbose", "AI explain", "show or hide the AI's reasons in the log"),
    _b("L", "log_size", "Big log", "enlarge the log to the whole screen, or back"),
    *(
        Binding(
            key,
            f"scroll_log({step})",
            "Log",
            show=show,
            key_display="PgUp/Dn",
            priority=True,  # the log pane would scroll itself, silently, when it has the focus
            tooltip="scroll the log a page back or forward (L enlarges it)",
        )
        for key, step, show in (("pageup", -1, True), ("pagedown", 1, False))
    ),
    _b("G", "step_mode", "GM step mode", "GM step mode: each AI action waits for Space"),
    _b("space,full_stop", "step", "Step AI", "GM step mode: play the next AI action"),
    _b(
        "T",
        "gm",
        "GM tools",
        "GM tools on the cursor's creature or square: hit points, effects, add or remove one",
    ),
    _b("question_mark", "help", "Help", "every key, the conditions and the map legend", True),
    _b("q", "quit_fight", "Quit", "leave the fight (asks first; it is saved)", True),
]
"""Every key of the fight, in help order. The footer shows those marked, the help screen
lists them all, the command palette offers those that need no cursor (`tui.keys`)."""


class EngineNews(Message):
    """Something the controller's worker reports (posted from the worker thread)."""

    def __init__(self, news: News) -> None:
        super().__init__()
        self.news = news


class EncounterScreen(GmCommands, FullRoundCommands, FightCommands, Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = FIGHT_BINDINGS

    def __init__(self, controller: Controller) -> None:
        super().__init__()
        self.controller = controller
        controller.notify = self._news
        self.loaded = controller.loaded
        self.options = controller.options
        self.saved: int | None = -1
        """Records in the save, all durable, as of the last update shown (None: not saving;
        negative: not known yet)."""
        self.formatter = LogFormatter(self.controller.names)
        self.view: View = self.controller.snapshot()
        self.mode: modes.Mode = modes.Browse()
        self.show_threats = False
        self.hint = "Starting..."
        self._turn: str | None = None
        self._ended = False
        self._refused = False
        self._browsing = True
        self._flash = ""
        """A message that wins over the mode's own hint for one refresh (a refusal)."""
        self._resumed = False
        self._paused = False
        """The fight waits for its save to be written (a full disk): the controller retries."""

    # --- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield GridPane(self.loaded.bmap, id="grid")
                yield LogPane(id="log", wrap=True, max_lines=2000, min_width=20)
            with Vertical(id="right"):
                yield InitiativePane(id="initiative")
                yield DetailsPanel(id="details")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#log", LogPane).border_title = "Log"
        self.query_one("#grid", GridPane).border_title = plain(name(self.loaded.spec.map.name, 60))
        self.controller.shown.clear()  # the AI waits for the fight's first frame (issue 14)
        self._start_worker(self.controller.run_start)
        self._refresh_mode()

    def on_unmount(self) -> None:
        self.controller.close()

    # --- the worker -----------------------------------------------------------------------
    def _news(self, news: News) -> None:
        self.post_message(EngineNews(news))  # thread-safe

    def _start_worker(self, body: Callable[[], None]) -> None:
        self.controller.busy = True
        self.run_worker(body, thread=True, group="engine", exit_on_error=False)

    def on_engine_news(self, message: EngineNews) -> None:
        news = message.news
        log = self.query_one("#log", LogPane)
        if isinstance(news, Paused):
            self._pause_shown(news, log)
        elif isinstance(news, Update):
            self._pause_shown(None, log)
            self.saved = news.saved
            if news.reset:
                log.clear()
                self.formatter = LogFormatter(self.controller.names, explain=self.formatter.explain)
            log.add(player_lines(self.formatter, self.controller.names, news.events, news.view))
            if news.reset and self.controller.resumed_from is not None and not self._resumed:
                self._resumed = True
                log.note(
                    f"Resumed at record {news.saved}, round {news.view.round} "
                    f"({self.controller.resumed_from.name})"
                )
            if not news.view.over:
                self._ended = False  # an undo from the end screen: the fight goes on
            self._show_view(news.view)
            if not self.controller.player_turn_view(news.view) and not self.controller.step_mode:
                self.hint = "the AI plays (c on a creature takes it over)"
            if not self.controller.shown.is_set():
                self.call_after_refresh(self._first_frame_drawn)
        elif isinstance(news, Ask):
            self._show_view(news.view)
            self.hint = "Waiting for your answer"
            self.app.push_screen(dialog_for(news), self.controller.reply)
        elif isinstance(news, Refused):
            self._refused = True
            self.hint = self._flash = f"Can't: {news.reason}"
            self.notify(
                clean(news.reason), title="Not allowed", severity="warning", timeout=3, markup=False
            )
        elif isinstance(news, Waiting):
            who = self.view.creatures[news.who].name if news.who in self.view.creatures else ""
            self.hint = f"GM step: Space plays {name(who)}'s next action"
        elif isinstance(news, Failed):
            log.error(first_line(news.message))
            self.notify(
                first_line(news.message), title="Engine error", severity="error", markup=False
            )
        elif isinstance(news, Idle):
            self._show_view(news.view)
            if news.view.over and not self._ended:
                self._ended = True
                from tui.screens.end import EndScreen

                self.app.push_screen(EndScreen(news.view, self.options), self._after_end)
                return
            if self.controller.player_turn_view(news.view) and not self._refused:
                self.hint = "Your turn (? for help)"
            self._refused = False
        self._refresh_mode()

    def _first_frame_drawn(self) -> None:
        """The fight's first frame is drawn: the AI may play now, and the collector (off while
        `skirmish play` starts up, `tui.launch`) may run again in a moment: its first pass
        holds the interpreter for ~50 ms, and the terminal writer thread must write the frame
        out first."""
        self.controller.shown.set()
        if not gc.isenabled():
            self.set_timer(0.3, gc.enable)

    def _pause_shown(self, news: Paused | None, log: LogPane) -> None:
        """The fight paused on its save (`news`), or goes on (None): say so, once."""
        if news is not None:
            self._paused = True
            self.saved = news.saved
            self.hint = self._wait_hint()
            log.error(f"Paused: can't save the fight ({first_line(news.reason)}); retrying")
        elif self._paused:
            self._paused = False
            log.note("Saved again: the fight goes on")

    def _show_view(self, view: View) -> None:
        self.view = view
        if view.current and view.current != self._turn:
            self._turn = view.current
            self.mode = modes.Browse()
            active = view.creatures[view.current]
            self.query_one("#grid", GridPane).cursor = active.pos
        self.query_one("#initiative", InitiativePane).show(view)

    # --- engine queries (UI thread, idle only) -------------------------------------------
    def _engine(self, fn: Callable[[Encounter], T]) -> T | None:
        ctl = self.controller
        if ctl.busy or not ctl.try_lock():
            return None
        try:
            return fn(ctl.enc)
        finally:
            ctl.lock.release()

    def _can_act(self) -> bool:
        ctl = self.controller
        return not ctl.busy and self.controller.player_turn_view(self.view)

    def _wait_hint(self) -> str:
        """Why a key can't act now: the fight is paused on its save, or it's not your turn."""
        why = self.controller.paused
        if why is not None:
            return f"PAUSED: can't save the fight ({first_line(why)}); retrying"
        return "Wait: it is not your turn"

    def _submit(self, action: Action) -> None:
        if not self._can_act():
            self.hint = self._wait_hint()
            self._refresh_mode()
            return
        self.mode = modes.Browse()
        self.hint = "..."
        self._start_worker(lambda: self.controller.run_action(action))
        self._refresh_mode()

    # --- drawing the mode -----------------------------------------------------------------
    def _refresh_mode(self) -> None:
        grid = self.query_one("#grid", GridPane)
        details = self.query_one("#details", DetailsPanel)
        cursor = grid.cursor
        overlay = Overlay()
        mode = self.mode
        preview = None
        if not isinstance(mode, modes.Browse):
            unseen = self._unseen()
            got = self._engine(lambda enc: modes.mode_overlay(enc, mode, cursor, self.hint, unseen))
            if got is not None:
                overlay, self.hint, preview = got
        elif self.show_threats and self._can_act():
            marks = self._engine(modes.threat_overlay)
            overlay = Overlay(marks or {})
        if self._flash:
            self.hint, self._flash = self._flash, ""
        grid.show(self.view, overlay)
        cell = describe_cell(self.loaded.bmap.cell(cursor))
        details.where(f"{cursor[0]},{cursor[1]} {cell}")
        if preview is not None:
            details.show(preview, "Preview")
        else:
            c = self.view.at(cursor)
            details.show(creature_text(c) if c else "", "Details")
        self.query_one("#status", StatusLine).show(self.view, self.hint, self.saved)
        browsing = isinstance(mode, modes.Browse)
        if browsing != self._browsing:
            self._browsing = browsing
            self.refresh_bindings()

    # --- keys -----------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        browsing = isinstance(self.mode, modes.Browse)
        if action in MODE_ACTIONS:
            return not browsing
        if action in BROWSE_ACTIONS:
            # while aiming or moving: Enter or Escape first; no full-round keys in ffd20
            return browsing and allowed(self.controller, action)
        return True

    def action_cursor(self, dx: int, dy: int) -> None:
        grid = self.query_one("#grid", GridPane)
        bmap = self.loaded.bmap
        x, y = grid.cursor
        grid.cursor = (max(0, min(bmap.width - 1, x + dx)), max(0, min(bmap.height - 1, y + dy)))
        if isinstance(self.mode, modes.Targeting):
            hit = self.view.at(grid.cursor)
            if hit is not None and hit.id in self.mode.targets:
                self.mode.index = self.mode.targets.index(hit.id)
        self._refresh_mode()

    def _set_mode(self, got: modes.Mode | str | None) -> None:
        if isinstance(got, modes.Targeting) and self.view.fog:
            got = self._visible_targets(got)
        if got is None:
            self.hint = self._wait_hint()
        elif isinstance(got, str):
            self.hint = f"Can't: {got}"
        else:
            self.mode = got
            grid = self.query_one("#grid", GridPane)
            if isinstance(got, modes.Targeting):
                self._cursor_to(got.target)
            elif isinstance(got, modes.Placing) and got.origins and grid.cursor not in got.origins:
                grid.cursor = got.origins[0]
        self._refresh_mode()

    def _unseen(self) -> frozenset[str]:
        """In a player's view, the creatures their side can't see (never named to them)."""
        return hidden_ids(self.view)

    def _visible_targets(self, aim: modes.Targeting) -> modes.Targeting | str:
        """A player's view: only targets their side can see (Tab would lead the cursor to a
        hidden one)."""
        seen = [t for t in aim.targets if self.view.shown(self.view.creatures[t])]
        if not seen:
            return f"no target for {aim.power.name} that your side can see"
        aim.targets, aim.index = seen, 0
        return aim

    def _cursor_to(self, cid: str) -> None:
        c = self.view.creatures.get(cid)
        if c is not None:
            self.query_one("#grid", GridPane).cursor = c.pos

    def action_move(self, kind: str) -> None:
        if not self._can_act():
            return self._set_mode(None)
        self._set_mode(self._engine(lambda enc: modes.start_move(enc, kind)))

    def action_powers(self) -> None:
        active = self.view.active
        if not self._can_act() or active is None:
            return self._set_mode(None)
        reasons = self._engine(modes.power_reasons) or {}
        self.app.push_screen(PowerPicker(active, reasons), self._aim)

    def _aim(self, power_id: str | None) -> None:
        if power_id is None:
            return
        got = self._engine(lambda enc: modes.start_power_by_id(enc, power_id))
        if isinstance(got, modes.Placing) and not got.origins:
            self.mode = got
            return self.action_confirm()
        if isinstance(got, modes.Targeting) and got.power.target == "self":
            self.mode = got
            return self.action_confirm()
        self._set_mode(got)

    def action_basic(self) -> None:
        if not self._can_act():
            return self._set_mode(None)

        def pick(enc: Encounter) -> str | None:
            usable = [p for p, why in enc.usable_powers() if why is None and p.attack]
            for p in sorted(usable, key=lambda p: (not p.basic, p.kind != "melee")):
                if p.kind in ("melee", "ranged") and enc.targets(p.id):
                    return p.id
            return None

        power_id = self._engine(pick)
        if power_id is None:
            self.hint = "Can't: no enemy in reach of a basic attack (p lists every power)"
            return self._refresh_mode()
        self._aim(power_id)

    def action_cycle(self, step: int) -> None:
        mode = self.mode
        if isinstance(mode, modes.Targeting):
            mode.index = (mode.index + step) % len(mode.targets)
            self._cursor_to(mode.target)
        elif isinstance(mode, modes.Placing) and mode.origins:
            mode.index = (mode.index + step) % len(mode.origins)
            self.query_one("#grid", GridPane).cursor = mode.origins[mode.index]
        else:
            alive = [cid for cid in self.view.order if self.view.shown(self.view.creatures[cid])]
            if not alive:
                return
            here = self.view.at(self.query_one("#grid", GridPane).cursor)
            i = alive.index(here.id) if here is not None and here.id in alive else -step
            self._cursor_to(alive[(i + step) % len(alive)])
        self._refresh_mode()

    def action_confirm(self) -> None:
        mode = self.mode
        cursor = self.query_one("#grid", GridPane).cursor
        if self._confirm_full_round(mode, cursor):
            return None
        if isinstance(mode, modes.Moving):
            path = modes.move_path(mode, cursor)
            if path is None:
                self._flash = "Can't: pick a square marked with a dot"
                return self._refresh_mode()
            return self._submit(Move(tuple(path), mode.mode))
        if isinstance(mode, modes.Targeting):
            power, target = mode.power, mode.target
            body = self._engine(lambda enc: modes.preview_text(enc, power, [target]))
            return self._confirm(
                f"Use {name(power.name, 60)}?", body, UsePower(power.id, (target,))
            )
        if isinstance(mode, modes.Placing):
            p = mode
            got = self._engine(lambda enc: modes.area_of(enc, p, cursor))
            if got is None or (p.origins and got[2] is None):
                self._flash = "Can't: move the cursor onto a marked origin square (o)"
                return self._refresh_mode()
            _, who, origin = got
            seen = [t for t in who if t not in self._unseen()]
            body = self._engine(lambda enc: modes.preview_text(enc, p.power, seen, origin))
            title = f"Use {name(p.power.name, 60)}?"
            return self._confirm(title, body, UsePower(p.power.id, origin=origin))

    def _confirm(self, title: str, body: Any, action: Action) -> None:
        def done(ok: bool | None) -> None:
            if ok:
                self._submit(action)
            elif isinstance(self.mode, modes.Placing) and not self.mode.origins:
                self.mode = modes.Browse()
                self._refresh_mode()

        self.app.push_screen(Confirm(title, body or "", "Use it", "Back"), done)

    def action_cancel(self) -> None:
        self.mode = modes.Browse()
        self.hint = "Cancelled"
        self._refresh_mode()

    def action_log_size(self) -> None:
        """Enlarge the log to the whole screen (AI turns scroll by fast), or put it back."""
        log = self.query_one("#log", LogPane)
        if self.maximized is log:
            self.minimize()
        else:
            self.maximize(log, container=False)

    def action_scroll_log(self, pages: int) -> None:
        log = self.query_one("#log", LogPane)
        log.scroll_relative(
            y=pages * max(1, log.scrollable_content_region.height - 1), animate=False
        )

    def _after_end(self, choice: str | None) -> None:
        """The end screen was left to take the last action back, or to export the log."""
        if choice == "undo":
            self.action_undo()
        elif choice == "export":
            self.action_export()

    def action_undo(self) -> None:
        self._rewind(undo=True)

    def action_redo(self) -> None:
        self._rewind(undo=False)

    def _rewind(self, *, undo: bool) -> None:
        """Undo or redo one step (a player's action and the AI turns after it, whole)."""
        if self.controller.busy:
            paused = self.controller.paused is not None
            self.hint = (
                self._wait_hint()
                if paused
                else f"Wait: {'undo' if undo else 'redo'} works on your turn"
            )
            return self._refresh_mode()
        self.mode = modes.Browse()
        self._turn = None
        ctl = self.controller
        self._start_worker(ctl.run_undo if undo else ctl.run_redo)

    def action_export(self) -> None:
        """Write the combat log as JSON Lines and as text, next to the save or where asked."""
        ctl = self.controller
        default = str(ctl.default_export_stem())

        def check(text: str) -> str | None:
            return None if text else "type a file name (.jsonl and .txt are added)"

        def done(text: str | None) -> None:
            if not text:
                return
            stem = Path(text).expanduser()
            if stem.is_dir():
                stem = stem / Path(default).name
            for suffix in (".jsonl", ".txt"):
                stem = stem.with_name(stem.name.removesuffix(suffix))
            self.run_worker(lambda: self._export(stem), thread=True, group="export")

        self.app.push_screen(
            AskText(
                "Export the combat log",
                "Writes FILE.jsonl (JSON Lines, one event a line) and FILE.txt (as the log "
                "reads). FILE:",
                default,
                check=check,
            ),
            done,
        )

    def _export(self, stem: Path) -> None:
        """Worker body: write the files, then say where (on the UI thread)."""
        try:
            jsonl, text, n = self.controller.export(stem)
        except (OSError, ValueError) as exc:
            self.app.call_from_thread(self._exported, f"Export failed: {exc}", False)
            return
        self.app.call_from_thread(self._exported, f"Exported {n} events to {jsonl} and {text}")

    def _exported(self, message: str, ok: bool = True) -> None:
        log = self.query_one("#log", LogPane)
        if ok:
            log.note(message)
        else:
            log.error(message)
            self.notify(clean(message), title="Export", severity="error", markup=False)
