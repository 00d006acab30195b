"""The table's host: an asyncio server on a Unix domain socket, a thin layer over the same
`Controller` the solo app drives (one engine, one durable autosave, one AI, one turn loop).

The host only decides who may ask for what. Who a connection is comes from the kernel
(SO_PEERCRED: the OS user at the other end) checked against the seat it names once, in
`hello`; with OpenSSH the seat is named by the key's forced command. From then on every
request is judged by that bound seat, never by anything the request says about itself:
a player acts only on the turn of one of their own creatures, answers only questions asked
of them; undo, redo, stepping and handing creatures over belong to the GM seat. Requests run
on the controller's worker exactly as the solo screen's keys do, and what the controller
reports (`News`) is sent to each seat as that seat may see it (`tui.table.views`).

A seat's connection dropping changes nothing in the fight; a fresh `hello` for the same seat
(from the same OS user) takes the seat over and is sent the fight where it is. The save is
the controller's autosave, written before any seat is told of a change, so killing the host
loses no confirmed action: `skirmish host --resume` rebuilds the table from it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import struct
import sys
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.actions import action_from_json
from engine.decisions import Question, check_answer
from engine.dice import DiceRequest
from engine.events import Logged
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
from tui.logtext import LogFormatter
from tui.table import protocol as P
from tui.table.aiming import aim
from tui.table.seats import GM, Seat, Seating, TableDir
from tui.table.views import (
    Knowledge,
    engine_knowledge,
    eyes_of,
    map_json,
    seat_events,
    view_json,
)
from tui.view import View

MAX_BUFFER = 8 * 1024 * 1024
"""A seat that lets this much pile up unread is dropped (it re-joins when it can)."""
AIMS_PER_SECOND = 40
"""Aiming asks the engine for reach, targets and odds on the host's one event loop: a seat
that aims faster than this (no keyboard does) is refused until it slows down."""


def peer_uid(sock: socket.socket) -> tuple[int, int, int]:
    """(pid, uid, gid) of the process at the other end of a Unix socket, from the kernel."""
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid, uid, gid = struct.unpack("3i", raw)
    return pid, uid, gid


@dataclass(eq=False)
class Conn:
    writer: asyncio.StreamWriter
    pid: int
    uid: int
    seat: Seat | None = None
    formatter: LogFormatter | None = None
    gone: bool = False
    aims: deque[float] = field(default_factory=deque)
    """When this connection's recent `aim` requests came (the rate limit)."""

    def aim_allowed(self, now: float) -> bool:
        while self.aims and now - self.aims[0] > 1.0:
            self.aims.popleft()
        if len(self.aims) >= AIMS_PER_SECOND:
            return False
        self.aims.append(now)
        return True

    def send(self, line: bytes) -> None:
        if self.gone:
            return
        transport = self.writer.transport
        if transport.is_closing() or transport.get_write_buffer_size() > MAX_BUFFER:
            self.close()
            return
        self.writer.write(line)

    def close(self) -> None:
        self.gone = True
        with contextlib.suppress(Exception):
            self.writer.close()


@dataclass
class Pending:
    """A question the engine waits on: whose seat answers it (and the GM)."""

    question: Question | DiceRequest
    owner: str | None
    payload: dict[str, Any] = field(default_factory=dict)


class Host:
    def __init__(
        self,
        ctl: Controller,
        seating: Seating,
        tdir: TableDir,
        *,
        knowledge: Knowledge = engine_knowledge,
        say: Callable[[str], None] | None = None,
        on_save: Callable[[Path], None] | None = None,
    ) -> None:
        self.ctl = ctl
        self.seating = seating
        self.tdir = tdir
        self.knowledge = knowledge
        self.say = say or (lambda text: print(text, file=sys.stderr, flush=True))
        self.conns: set[Conn] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.by_seat: dict[str, Conn] = {}
        self.log: list[Logged] = []
        self.view: View = ctl.snapshot()
        self.view_data: dict[str, Any] = view_json(self.view)
        self.seen: dict[str, frozenset[str] | None] = {}
        self.saved: int | None = None
        self.pending: Pending | None = None
        self.waiting: str | None = None
        self.origin: Conn | None = None
        """The connection whose request the worker runs now (refusals go back to it)."""
        self.map = map_json(ctl.enc)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engine")
        self.server: asyncio.AbstractServer | None = None
        self.ready = asyncio.Event()
        self.on_save = on_save
        """Called once with the save's path, as soon as the fight has one."""
        self.requests = 0
        """Requests handled (the fuzz soak counts them)."""
        ctl.notify = self._news
        ctl.all_seeing = True  # the GM's picture; each seat's is cut from it
        self._compute_seen()

    # --- serving -------------------------------------------------------------------------
    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        path = self.tdir.socket
        self.clear_stale(path)
        old = os.umask(0o177 if self.seating.group is None else 0o117)
        try:
            self.server = await asyncio.start_unix_server(
                self._serve, path=str(path), limit=P.MAX_UP + 1
            )
        finally:
            os.umask(old)
        if self.seating.group is not None:
            os.chown(path, -1, self.seating.group)
            os.chmod(path, 0o660)
        else:
            os.chmod(path, 0o600)
        self._run(self.ctl.run_start, None)

    async def serve_forever(self) -> None:
        await self.start()
        assert self.server is not None
        async with self.server:
            await self.server.serve_forever()

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
        for c in list(self.conns):
            c.close()
        if self.tasks:  # let each connection's task see its end, rather than be cancelled
            await asyncio.wait(self.tasks, timeout=2.0)
        self.ctl.close()
        self.pool.shutdown(wait=False, cancel_futures=True)
        with contextlib.suppress(OSError):
            self.tdir.socket.unlink()

    @staticmethod
    def clear_stale(path: os.PathLike[str]) -> None:
        """A socket left by a killed host is removed; one a live host answers on is not."""
        if not os.path.exists(path):
            return
        with socket.socket(socket.AF_UNIX) as s:
            try:
                s.connect(os.fspath(path))
            except OSError:
                os.unlink(path)
                return
        raise OSError(f"{os.fspath(path)}: a table is already running here")

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        pid, uid, _ = peer_uid(sock)
        conn = Conn(writer, pid, uid)
        self.conns.add(conn)
        task = asyncio.current_task()
        if task is not None:
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        try:
            while not conn.gone:
                try:
                    line = await reader.readuntil(b"\n")
                except asyncio.LimitOverrunError:
                    conn.send(P.error(P.ProtocolError("too-long", f"at most {P.MAX_UP} bytes")))
                    break  # the rest of the line can't be trusted to be a request
                except (asyncio.IncompleteReadError, ConnectionError):
                    break
                self.handle(conn, line)
        finally:
            self._drop(conn)

    def _drop(self, conn: Conn) -> None:
        conn.close()
        self.conns.discard(conn)
        if conn.seat is not None and self.by_seat.get(conn.seat.id) is conn:
            del self.by_seat[conn.seat.id]
            self.say(f"seat {conn.seat.id} left")

    # --- requests ------------------------------------------------------------------------
    def handle(self, conn: Conn, line: bytes) -> None:
        """One request line from `conn`: answered, refused or rejected; never raises."""
        self.requests += 1
        rid = None
        try:
            req = P.decode_request(line)
            rid = req.id
            self._dispatch(conn, req)
        except P.ProtocolError as exc:
            conn.send(P.error(exc, rid))
        except Exception as exc:  # a bug here must not take the table down
            self.say(f"internal error on a request: {type(exc).__name__}: {exc}")
            conn.send(P.error(P.ProtocolError("internal", "the host could not do that"), rid))

    def _dispatch(self, conn: Conn, req: P.Request) -> None:
        if req.t == "ping":
            return conn.send(P.encode("pong", id=req.id))
        if req.t == "bye":
            return conn.close()
        if req.t == "hello":
            return self._hello(conn, req)
        seat = conn.seat
        if seat is None or self.by_seat.get(seat.id) is not conn:
            return conn.send(P.refused("not-joined", "say hello with your seat first", req.id))
        handler = {
            "act": self._act,
            "aim": self._aim,
            "answer": self._answer,
            "undo": self._rewind,
            "redo": self._rewind,
            "step": self._step,
            "step_mode": self._step_mode,
            "control": self._control,
            "view": self._view,
            "export": self._export,
        }[req.t]
        handler(conn, seat, req)

    def _hello(self, conn: Conn, req: P.Request) -> None:
        sid = req.get("seat")
        seat = self.seating.seats.get(sid)
        if conn.seat is not None:
            return conn.send(P.refused("seat-taken", "this connection has a seat", req.id))
        if seat is None:
            return conn.send(P.refused("no-seat", f"no seat {sid!r} at this table", req.id))
        if conn.uid not in seat.users:
            self.say(f"refused seat {sid} to OS user {conn.uid} (pid {conn.pid})")
            return conn.send(
                P.refused("not-your-seat", f"seat {sid} is not yours (OS user {conn.uid})", req.id)
            )
        old = self.by_seat.get(seat.id)
        if old is not None:
            old.send(P.encode("bye", reason="this seat joined from elsewhere"))
            self._drop(old)
        conn.seat = seat
        self.by_seat[seat.id] = conn
        self.say(f"seat {seat.id} joined (OS user {conn.uid}, pid {conn.pid})")
        conn.send(
            P.encode(
                "welcome",
                id=req.id,
                seat=seat.id,
                role=seat.role,
                creatures=list(seat.creatures),
                map=self.map,
                title=self.ctl.loaded.spec.name,
                ruleset=self.ctl.enc.battle.ruleset.name,
                step=self.ctl.step_mode,
            )
        )
        self._send_state(conn, reset=True, events=self.log)
        if self.pending is not None and self._asks(seat, self.pending):
            conn.send(P.encode("ask", **self.pending.payload))
        if self.waiting is not None and seat.role == "gm":
            conn.send(P.encode("waiting", who=self.waiting))
        if not self.ctl.busy:
            conn.send(P.encode("idle"))

    def _may_act(self, conn: Conn, seat: Seat, rid: int | None) -> str | None:
        """The creature whose turn it is, if `seat` may act for it now; else refuse."""
        v = self.view
        refuse: tuple[P.RefusalCode, str] | None = None
        cur = v.current
        if v.over:
            refuse = ("over", "the fight is over")
        elif cur is None:
            refuse = ("not-your-turn", "nobody's turn")
        elif seat.role == "spectator":
            refuse = ("not-your-creature", "a spectator acts for nobody")
        elif seat.role != "gm" and cur not in seat.creatures:
            owner = self.seating.owner(cur)
            if owner is not None:
                refuse = ("not-your-creature", f"it is {owner.id}'s turn, not yours")
            else:
                refuse = ("not-your-turn", "it is not your turn")
        elif self.ctl.busy or self.pending is not None:
            refuse = ("busy", "wait: the fight is moving")
        elif self.ctl.control.get(cur) != "player":
            refuse = ("not-your-turn", "the AI plays this creature now")
        if refuse is not None:
            conn.send(P.refused(refuse[0], refuse[1], rid))
            return None
        return cur

    def _act(self, conn: Conn, seat: Seat, req: P.Request) -> None:
        if self._may_act(conn, seat, req.id) is None:
            return
        try:
            action = action_from_json(req.get("action"))
        except ValueError as exc:
            raise P.ProtocolError("bad-field", f"act.action: {exc}") from None
        self._run(lambda: self.ctl.run_action(action), conn)

    def _aim(self, conn: Conn, seat: Seat, req: P.Request) -> None:
        if not conn.aim_allowed(time.monotonic()):
            return conn.send(P.refused("busy", "too many aims: slow down", req.id))
        if self._may_act(conn, seat, req.id) is None:
            return
        cursor = req.get("cursor")
        with self.ctl.lock:
            got = aim(
                self.ctl.enc,
                req.get("mode"),
                req.get("power"),
                req.get("index", 0),
                tuple(cursor) if cursor else None,
                self.seen.get(seat.id),
            )
        conn.send(P.encode("aimed", id=req.id, **got))

    def _answer(self, conn: Conn, seat: Seat, req: P.Request) -> None:
        p = self.pending
        if p is None:
            return conn.send(P.refused("no-question", "nothing is asked now", req.id))
        if not self._asks(seat, p):
            return conn.send(P.refused("not-your-creature", "this question is not yours", req.id))
        value = req.get("value")
        try:
            if isinstance(p.question, DiceRequest):
                ok = value is None or (
                    isinstance(value, int)
                    and not isinstance(value, bool)
                    and 1 <= value <= p.question.sides
                )
                if not ok:
                    raise ValueError(f"a d{p.question.sides} shows 1 to {p.question.sides}")
            else:
                value = check_answer(p.question, value)
        except (ValueError, TypeError) as exc:
            return conn.send(P.refused("bad-answer", str(exc).splitlines()[0], req.id))
        self.pending = None
        for c in self._seated():
            c.send(P.encode("answered"))
        self.ctl.reply(value)

    def _gm(self, conn: Conn, seat: Seat, req: P.Request) -> bool:
        if seat.role != "gm":
            conn.send(P.refused("gm-only", f"only the GM may {req.t.replace('_', ' ')}", req.id))
            return False
        return True

    def _rewind(self, conn: Conn, seat: Seat, req: P.Request) -> None:
        if not self._gm(conn, seat, req):
            return
        if self.ctl.busy:
            return conn.send(P.refused("busy", "wait: the fight is moving", req.id))
        steps = req.get("steps", 1)
        body = self.ctl.run_undo if req.t == "undo" else self.ctl.run_redo
        self._run(lambda: body(steps), conn)

    def _step(self, conn: Conn, seat: Seat, req: P.Request) -> None:
        if self._gm(conn, seat, req):
            self.waiting = None
            self.ctl.step()

    def _step_mode(self, conn: Conn, seat: Seat, req: P.Request) -> None:
        if self._gm(conn, seat, req):
            self.ctl.step_mode = bool(req.get("on"))
            conn.send(P.encode("step_mode", on=self.ctl.step_mode, id=req.id))

    def _control(self, conn: Conn, seat: Seat, req: P.Request) -> None:
        if not self._gm(conn, seat, req):
            return
        cid, to = req.get("creature"), req.get("to")
        if cid not in self.ctl.control:
            return conn.send(P.refused("illegal", f"no creature {cid!r}", req.id))
        if self.pending is not None:  # the engine waits on an answer, holding the fight
            return conn.send(P.refused("busy", "answer the question first", req.id))
        if self.ctl.control[cid] != to:
            self.ctl.toggle_control(cid)
        self.say(f"GM: {cid} is played by {'the AI' if to == 'ai' else 'a person'}")
        if not self.ctl.busy:
            self.view = self.ctl.snapshot()
            self.view_data = view_json(self.view)
            for c in self._seated():
                self._send_state(c, reset=False, events=[])
            if to == "ai" and self.view.current == cid:
                self._run(self.ctl.run_autoplay, conn)

    def _export(self, conn: Conn, seat: Seat, req: P.Request) -> None:
        """GM: the combat log as JSON Lines and text, next to the save (the app's `x`)."""
        if not self._gm(conn, seat, req):
            return
        if self.ctl.busy:
            return conn.send(P.refused("busy", "wait: the fight is moving", req.id))
        try:
            jsonl, text, n = self.ctl.export(self.ctl.default_export_stem())
        except (OSError, ValueError) as exc:
            return conn.send(P.refused("illegal", f"export failed: {exc}", req.id))
        conn.send(P.encode("exported", id=req.id, jsonl=str(jsonl), text=str(text), events=n))

    def _view(self, conn: Conn, seat: Seat, req: P.Request) -> None:
        other = req.get("seat", seat.id)
        if other != seat.id and seat.role != "gm":
            return conn.send(P.refused("hidden", "another seat's view is not yours", req.id))
        self._send_state(conn, reset=True, events=self.log)

    # --- the worker ------------------------------------------------------------------------
    def _run(self, body: Callable[[], None], origin: Conn | None) -> None:
        self.ctl.busy = True
        self.origin = origin
        self.pool.submit(body)

    def _news(self, news: News) -> None:
        """From the worker thread: what can only be read now (visibility, under the lock) is
        read now; the rest goes to the event loop."""
        if isinstance(news, Update | Ask):
            with self.ctl.lock:
                self._compute_seen()
        assert self.loop is not None
        self.loop.call_soon_threadsafe(self._on_news, news)

    def _compute_seen(self) -> None:
        enc = self.ctl.enc
        seen: dict[str, frozenset[str] | None] = {}
        for s in self.seating.seats.values():
            if s.role == "gm":
                seen[s.id] = None
            else:
                seen[s.id] = self.knowledge(enc, eyes_of(enc, s.creatures, s.side))
        self.seen = seen

    def _on_news(self, news: News) -> None:
        """One handler per kind of news (the event loop's thread)."""
        handlers: dict[type, Callable[[Any], None]] = {
            Update: self._on_update,
            Ask: self._on_ask,
            Refused: self._on_refused,
            Waiting: self._on_waiting,
            Failed: self._on_failed,
            Idle: self._on_idle,
            Paused: self._on_paused,
        }
        handlers[type(news)](news)

    def _on_update(self, news: Update) -> None:
        self.view, self.saved = news.view, news.saved
        if self.on_save is not None and self.ctl.save_path is not None:
            self.on_save(self.ctl.save_path)
            self.on_save = None
        self.view_data = view_json(news.view)
        if news.reset:
            self.log = list(news.events)
        else:
            self.log.extend(news.events)
        for c in self._seated():
            self._send_state(c, reset=news.reset, events=self.log if news.reset else news.events)

    def _on_refused(self, news: Refused) -> None:
        if self.origin is not None:
            self.origin.send(P.refused("illegal", news.reason))

    def _on_waiting(self, news: Waiting) -> None:
        self.waiting = news.who
        gm = self.by_seat.get(GM)
        if gm is not None:
            gm.send(P.encode("waiting", who=news.who))

    def _on_failed(self, news: Failed) -> None:
        self.say(news.message)
        gm = self.by_seat.get(GM)
        if gm is not None:
            gm.send(P.encode("failed", message=news.message.splitlines()[0]))

    def _on_paused(self, news: Paused) -> None:
        """The save can't be written (a full disk): the fight waits, and every seat is told."""
        reason = news.reason.splitlines()[0] if news.reason else "the disk is full"
        self.say(f"paused: can't save the fight ({reason}); retrying")
        for c in self._seated():
            c.send(P.encode("paused", reason=reason, saved=news.saved))

    def _on_idle(self, news: Idle) -> None:
        self.origin = None
        self.waiting = None
        for c in self._seated():
            c.send(P.encode("idle"))

    def _on_ask(self, news: Ask) -> None:
        q = news.question
        who = q.who
        owner = self.seating.owner(who) if who else None
        payload = {"kind": type(q).__name__, "question": question_json(q)}
        self.pending = Pending(q, owner.id if owner else None, payload)
        for c in self._seated():
            if c.seat is not None and self._asks(c.seat, self.pending):
                c.send(P.encode("ask", **payload))

    @staticmethod
    def _asks(seat: Seat, p: Pending) -> bool:
        return seat.role == "gm" or (p.owner is not None and seat.id == p.owner)

    def _seated(self) -> list[Conn]:
        return [c for c in self.by_seat.values() if not c.gone]

    def _send_state(
        self, conn: Conn, *, reset: bool, events: list[Logged] | tuple[Logged, ...]
    ) -> None:
        seat = conn.seat
        assert seat is not None
        seen = self.seen.get(seat.id)
        if reset or conn.formatter is None:  # the AI's reasons are for the GM's eyes only
            conn.formatter = LogFormatter(self.ctl.names, explain=seat.role == "gm")
        data = self.view_data
        if seen is not None:
            hidden = frozenset(data["creatures"]) - seen
            events = seat_events(events, hidden)
            data = seat_view_json(data, seen)
        lines = [[ln.seq, ln.round, ln.kind, ln.text] for ln in conn.formatter.lines(events)]
        conn.send(P.encode("update", view=data, lines=lines, reset=reset, saved=self.saved))


def seat_view_json(data: dict[str, Any], seen: frozenset[str]) -> dict[str, Any]:
    """`views.seat_view` on the JSON form (built once per update, filtered per seat)."""
    out = dict(data)
    out["creatures"] = {k: c for k, c in data["creatures"].items() if k in seen}
    out["order"] = [c for c in data["order"] if c in seen]
    out["fog"] = True  # a player's picture (what it can't see isn't in it at all)
    if data["current"] not in seen:
        out["current"] = None
        out["actions"] = [False, False, False]
    return out


def question_json(q: Question | DiceRequest) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(q)
