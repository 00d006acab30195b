"""A seat's fight screen: the solo app's widgets (grid, initiative, log, details, status) and
keys, drawing what the host sends and sending what the keys ask for.

Aiming works as in solo play (m, r, s, a, p, f, W; the cursor, Tab, Enter, Escape), but every
overlay, hint and preview is computed by the host (`aim` requests) on this seat's turn, and
Enter sends back the action the host proposed; the host's engine checks it again. The GM seat
also has undo (z), redo (Z), take over or hand to the AI (c), step mode (G) and step (Space).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer

from engine import decisions
from engine.dice import DiceRequest
from tui.controller import Ask
from tui.glyphs import describe_cell
from tui.replay import map_from_log
from tui.screens.asks import dialog_for
from tui.screens.dialogs import Confirm, PowerPicker
from tui.screens.encounter import DIRS
from tui.table.protocol import ProtocolError
from tui.table.views import view_from_json
from tui.view import View
from tui.widgets.details import DetailsPanel, creature_text
from tui.widgets.grid import GridPane, Overlay
from tui.widgets.panes import KIND_STYLE, InitiativePane, LogPane, StatusLine

if TYPE_CHECKING:
    from tui.table.client import SeatClient
    from tui.table.seat_app import SeatApp

QUESTIONS: dict[str, type[Any]] = {
    "OpportunityQuestion": decisions.OpportunityQuestion,
    "DelayReturnQuestion": decisions.DelayReturnQuestion,
    "ForcedMoveQuestion": decisions.ForcedMoveQuestion,
    "SaveOrderQuestion": decisions.SaveOrderQuestion,
    "DiceRequest": DiceRequest,
}
SIMPLE = {"e": "end_turn", "w": "second_wind", "g": "stand_up", "A": "action_point", "d": "delay"}


def _tuples(v: Any) -> Any:
    return tuple(_tuples(x) for x in v) if isinstance(v, list) else v


def question_from(msg: dict[str, Any]) -> Any:
    """The question an `ask` message carries, as the engine's own type (for `dialog_for`)."""
    cls = QUESTIONS[msg["kind"]]
    return cls(**{k: _tuples(v) for k, v in msg["question"].items()})


class SeatScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(keys, f"cursor({dx},{dy})", "Cursor", show=False)
            for keys, (dx, dy) in DIRS.items()
        ),
        Binding("question_mark", "help", "Help"),
        Binding("m", "aim('walk')", "Move"),
        Binding("p", "aim('powers')", "Power"),
        Binding("a", "aim('basic')", "Attack"),
        Binding("e", "simple('e')", "End turn"),
        Binding("enter", "confirm", "Confirm"),
        Binding("escape", "cancel", "Cancel"),
        Binding("q", "quit_seat", "Leave"),
        Binding("r", "aim('run')", "Run", show=False),
        Binding("s", "aim('shift')", "Shift", show=False),
        Binding("f", "aim('full_attack')", "Full attack", show=False),
        Binding("W", "aim('withdraw')", "Withdraw", show=False),
        Binding("w", "simple('w')", "Second wind", show=False),
        Binding("g", "simple('g')", "Get up", show=False),
        Binding("A", "simple('A')", "Action point", show=False),
        Binding("d", "simple('d')", "Delay", show=False),
        Binding("tab", "cycle(1)", "Next", show=False),
        Binding("shift+tab", "cycle(-1)", "Previous", show=False),
        Binding("z", "gm('undo')", "Undo", show=False),
        Binding("Z", "gm('redo')", "Redo", show=False),
        Binding("c", "take_over", "Take over", show=False),
        Binding("x", "gm('export')", "Export log", show=False),
        Binding("G", "step_mode", "GM step mode", show=False),
        Binding("space,full_stop", "step", "Step AI", show=False),
    ]

    def __init__(self, client: SeatClient, welcome: dict[str, Any]) -> None:
        super().__init__()
        self.client = client
        self.seat: str = welcome["seat"]
        self.role: str = welcome["role"]
        self.creatures: list[str] = list(welcome["creatures"])
        self.bmap = map_from_log(welcome["map"])
        self.title_text = str(welcome.get("title", ""))
        self.view = View(0, None, ())
        self.saved: int | None = -1
        self.hint = f"Seat {self.seat} ({self.role})"
        self.aiming: dict[str, Any] | None = None
        """The mode being aimed (`aim` fields) and the host's last answer to it."""
        self.overlay = Overlay()
        self.preview: Text | None = None
        self.step_on = bool(welcome.get("step", False))
        self._asked: ModalScreen[Any] | None = None
        self._rejoined = False
        self._placed = False

    @property
    def seat_app(self) -> SeatApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield GridPane(self.bmap, id="grid")
                yield LogPane(id="log", wrap=True, max_lines=2000, min_width=20)
            with Vertical(id="right"):
                yield InitiativePane(id="initiative")
                yield DetailsPanel(id="details")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        log = self.query_one("#log", LogPane)
        log.border_title = f"Log · seat {self.seat}"
        # No scroll bar on a seat's log: redrawing it after each action is one more frame
        # for every seat, and eight seats share the host's few cores.
        log.styles.scrollbar_size_vertical = 0
        self.query_one("#grid", GridPane).border_title = self.bmap.name or self.title_text
        self._draw()

    # --- news from the host -----------------------------------------------------------------
    async def listen(self) -> None:
        while True:
            try:
                msg = await self.client.recv()
            except (EOFError, OSError, ConnectionError):
                if not await self._rejoin():
                    return self.seat_app.fail("the host went away and did not come back")
                continue
            except ProtocolError as exc:
                self.query_one("#log", LogPane).error(exc.reason)
                continue
            try:
                self._on(msg)
            except (KeyError, TypeError, ValueError) as exc:
                self.query_one("#log", LogPane).error(f"a message from the host: {exc}")
            if self.seat_app.problem:  # told to go (the seat joined from elsewhere)
                return

    async def _rejoin(self) -> bool:
        """The host went away (killed, restarted with --resume): say so, and take the seat
        again as soon as a host answers on the socket (for a few minutes)."""
        log = self.query_one("#log", LogPane)
        log.error("The host went away; joining again when it is back...")
        self.hint = "Waiting for the host"
        self._cancel(keep_hint=True)
        self._draw()
        client = await self.seat_app.rejoin()
        if client is None:
            return False
        self.client = client
        self._rejoined = True  # said once the host's first (reset) update is drawn
        return True

    def _on(self, msg: dict[str, Any]) -> None:
        """One handler per kind of news; each says whether the screen must be redrawn."""
        handler = self._handlers.get(msg["t"])
        if handler is not None and handler(msg) is not False:
            self._draw()

    @property
    def _handlers(self) -> dict[str, Callable[[dict[str, Any]], bool | None]]:
        return {
            "update": self._update,
            "aimed": self._aimed,
            "ask": self._ask,
            "answered": self._answered,
            "refused": self._refused,
            "error": self._refused,
            "waiting": self._waiting,
            "idle": self._idle,
            "step_mode": self._step_mode,
            "exported": self._exported,
            "failed": self._failed,
            "paused": self._paused,
            "bye": self._bye,
        }

    def _answered(self, msg: dict[str, Any]) -> None:
        """Someone (the GM, or this seat) answered the question: close its dialog."""
        if self._asked is not None and self._asked.is_attached:
            self._asked.dismiss(None)
        self._asked = None

    def _refused(self, msg: dict[str, Any]) -> None:
        self.hint = f"Can't: {msg.get('reason', '')}"
        self.notify(str(msg.get("reason", "")), title="Not allowed", severity="warning")

    def _waiting(self, msg: dict[str, Any]) -> None:
        c = self.view.creatures.get(msg["who"])
        self.hint = f"GM step: Space plays {c.name if c else msg['who']}'s next action"

    def _idle(self, msg: dict[str, Any]) -> bool:
        hint = "Your turn" if self._my_turn() else self._whose()
        if hint == self.hint:
            return False  # nothing new to draw: a frame costs every seat CPU time
        self.hint = hint
        return True

    def _step_mode(self, msg: dict[str, Any]) -> None:
        self.step_on = bool(msg["on"])
        self.hint = "GM step mode on: Space plays each AI action" if self.step_on else "Step off"

    def _exported(self, msg: dict[str, Any]) -> None:
        log = self.query_one("#log", LogPane)
        log.note(f"Exported {msg['events']} events to {msg['jsonl']} and {msg['text']}")

    def _failed(self, msg: dict[str, Any]) -> None:
        self.query_one("#log", LogPane).error(str(msg["message"]))

    def _paused(self, msg: dict[str, Any]) -> None:
        self.hint = f"PAUSED: can't save the fight ({msg.get('reason', '')}); the host retries"
        self.query_one("#log", LogPane).error(self.hint)

    def _bye(self, msg: dict[str, Any]) -> bool:
        self.seat_app.fail(str(msg.get("reason", "the host said goodbye")))
        return False

    def _update(self, msg: dict[str, Any]) -> None:
        old = self.view.current
        self.view = view_from_json(msg["view"])
        self.saved = msg.get("saved")
        log = self.query_one("#log", LogPane)
        if msg.get("reset"):
            log.clear()
        for _, _, kind, text in msg["lines"]:  # one scroll for them all: one frame, not two
            log.write(Text(str(text), style=KIND_STYLE.get(kind, "")), scroll_end=False)
        log.scroll_end(animate=False, immediate=True, x_axis=False)
        if self._rejoined and msg.get("reset"):
            self._rejoined = False
            log.note(f"Joined again at record {msg.get('saved')}: the host is back")
        self.query_one("#initiative", InitiativePane).show(self.view)
        if self.view.current != old:
            self._cancel()
            active = self.view.active
            # The cursor (and the details panel) jumps to whoever acts only on this seat's
            # turns: otherwise a player keeps their own sheet in view, and a seat that
            # doesn't redraw its panel saves a frame's work on every action.
            if active is not None and self._my_turn():
                self.query_one("#grid", GridPane).cursor = active.pos
        if not self._placed:  # the first picture: the cursor on this seat's own creature
            self._placed = True
            mine = [self.view.creatures[c] for c in self.creatures if c in self.view.creatures]
            first = mine[0] if mine else self.view.active
            if first is not None:
                self.query_one("#grid", GridPane).cursor = first.pos
        self.hint = "Your turn" if self._my_turn() else self._whose()

    def _whose(self) -> str:
        if self.view.over:
            return f"The fight is over: {self.view.winner or 'nobody'} won"
        c = self.view.active
        return f"{c.name} acts" if c else "waiting"

    def _my_turn(self) -> bool:
        cur = self.view.current
        if cur is None or self.view.over:
            return False
        mine = self.role == "gm" or cur in self.creatures
        return mine and self.view.creatures[cur].control == "player"

    def _aimed(self, msg: dict[str, Any]) -> None:
        if self.aiming is None or msg.get("mode") != self.aiming.get("mode"):
            return
        if msg.get("problem"):
            self.hint = f"Can't: {msg['problem']}"
            return self._cancel(keep_hint=True)
        if msg["mode"] == "powers":
            active = self.view.active
            self._cancel(keep_hint=True)
            if active is not None:
                self.app.push_screen(PowerPicker(active, msg["reasons"]), self._picked)
            return
        self.aiming.update(power=msg["power"], index=msg["index"], answer=msg)
        marks = {(x, y): m for x, y, m in msg["marks"]}
        self.overlay = Overlay(marks, frozenset((x, y) for x, y in msg["selected"]))
        self.preview = Text.from_markup(msg["preview"]) if msg.get("preview") else None
        self.hint = msg["hint"]
        grid = self.query_one("#grid", GridPane)
        grid.cursor = (msg["cursor"][0], msg["cursor"][1])

    def _ask(self, msg: dict[str, Any]) -> None:
        question = question_from(msg)
        self.hint = "Waiting for your answer"
        dialog = dialog_for(Ask(question, self.view))
        self._asked = dialog

        def reply(value: Any) -> None:
            if self._asked is dialog:
                self._asked = None
                self.run_worker(self.seat_app.send("answer", value=value), group="net")

        self.app.push_screen(dialog, reply)

    # --- drawing ------------------------------------------------------------------------------
    def _draw(self) -> None:
        grid = self.query_one("#grid", GridPane)
        grid.show(self.view, self.overlay)
        details = self.query_one("#details", DetailsPanel)
        if self.preview is not None:
            details.show(self.preview, "Preview")
        else:
            cursor = grid.cursor
            c = self.view.at(cursor)
            cell = describe_cell(self.bmap.cell(cursor))
            details.show(creature_text(c) if c else cell, f"Details · {cursor[0]},{cursor[1]}")
        self.query_one("#status", StatusLine).show(self.view, self.hint, self.saved)

    def _cancel(self, *, keep_hint: bool = False) -> None:
        self.aiming = None
        self.overlay = Overlay()
        self.preview = None
        if not keep_hint:
            self.hint = "Your turn" if self._my_turn() else self._whose()

    # --- keys ---------------------------------------------------------------------------------
    def _send(self, t: str, **fields: Any) -> None:
        self.run_worker(self.seat_app.send(t, **fields), group="net")

    def _reaim(self) -> None:
        if self.aiming is None:
            return
        cursor = list(self.query_one("#grid", GridPane).cursor)
        fields = {k: v for k, v in self.aiming.items() if k in ("mode", "power", "index")}
        self._send("aim", cursor=cursor, **{k: v for k, v in fields.items() if v is not None})

    def action_aim(self, mode: str) -> None:
        if not self._my_turn():
            self.hint = "Wait: it is not your turn"
            return self._draw()
        self.aiming = {"mode": mode, "power": None, "index": 0}
        self._send("aim", mode=mode)

    def _picked(self, power_id: str | None) -> None:
        if power_id:
            self.aiming = {"mode": "power", "power": power_id, "index": 0}
            self._send("aim", mode="power", power=power_id)

    def action_cursor(self, dx: int, dy: int) -> None:
        grid = self.query_one("#grid", GridPane)
        x, y = grid.cursor
        b = self.bmap
        grid.cursor = (max(0, min(b.width - 1, x + dx)), max(0, min(b.height - 1, y + dy)))
        if self.aiming is not None:
            self._reaim()
        self._draw()

    def action_cycle(self, step: int) -> None:
        if self.aiming is not None and self.aiming.get("answer", {}).get("count"):
            self.aiming["index"] = (self.aiming["index"] + step) % self.aiming["answer"]["count"]
            self.aiming.pop("answer")
            self._send(
                "aim",
                mode=self.aiming["mode"],
                index=self.aiming["index"],
                **({"power": self.aiming["power"]} if self.aiming["power"] else {}),
            )
            return
        alive = [cid for cid in self.view.order if self.view.creatures[cid].alive]
        if alive:
            grid = self.query_one("#grid", GridPane)
            here = self.view.at(grid.cursor)
            i = alive.index(here.id) if here is not None and here.id in alive else -step
            grid.cursor = self.view.creatures[alive[(i + step) % len(alive)]].pos
            self._draw()

    def action_confirm(self) -> None:
        answer = (self.aiming or {}).get("answer")
        if not answer:
            return
        action = answer.get("action")
        if action is None:
            self.hint = "Can't: pick a square marked with a dot"
            return self._draw()
        if answer.get("confirm"):
            body = Text.from_markup(answer["preview"]) if answer.get("preview") else ""

            def done(ok: bool | None) -> None:
                if ok:
                    self._act(action)

            self.app.push_screen(Confirm(answer["confirm"], body, "Use it", "Back"), done)
            return
        self._act(action)

    def _act(self, action: dict[str, Any]) -> None:
        self._cancel()
        self.hint = "..."
        self._send("act", action=action)
        self._draw()

    def action_cancel(self) -> None:
        self._cancel()
        self.hint = "Cancelled"
        self._draw()

    def action_simple(self, key: str) -> None:
        self._act({"action": SIMPLE[key]})

    def action_gm(self, what: str) -> None:
        self._send(what)

    def action_take_over(self) -> None:
        c = self.view.at(self.query_one("#grid", GridPane).cursor)
        if c is None:
            self.hint = "Put the cursor on a creature to take it over or hand it to the AI"
            return self._draw()
        self._send("control", creature=c.id, to="ai" if c.control == "player" else "player")

    def action_step_mode(self) -> None:
        self._send("step_mode", on=not self.step_on)

    def action_step(self) -> None:
        self._send("step")

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_quit_seat(self) -> None:
        self.app.exit(0)
