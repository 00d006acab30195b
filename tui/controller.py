"""The bridge between the engine, which blocks, and the screen, which must never block.

The engine asks its questions synchronously (take this opportunity attack? roll a d20) and the
AI may think for a while, so every engine call runs in a worker thread. The controller owns the
fight (an `engine.history.History`: the encounter with undo and redo), a lock around it, the AI
policies and the answers a person gives: when the engine asks a player, the worker sends an
`Ask` to the screen and waits on a queue until the dialog's answer comes back through `reply`.
Everything it tells the screen goes through one callback, `notify`, which must be thread-safe
(the screen posts a message). No Textual here, so the controller can be driven by tests
without an app.

Fights are never lost: every fight is autosaved (`engine.autosave`). The History appends each
record to the save and fsyncs it before `apply`, `undo` or `redo` returns, and only then does
the controller publish the result, so whatever the screen has shown is on disk. `Update.saved`
carries the count of durable records; the status line shows it (the kill soak reads it there).

The AI waits for the screen's first frame (`shown`): loading the AI and its first decisions
would otherwise share the interpreter with the first paint and delay it (issue 14).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from engine import autosave
from engine.actions import Action, Impossible
from engine.content.loader import LoadedEncounter
from engine.decisions import InvalidAnswer, Question
from engine.dice import DiceRequest, DiceSource, InvalidFace, SeededDice
from engine.encounter import Encounter
from engine.events import Logged
from engine.history import History, control_of
from engine.save import SUFFIX, SaveError, SaveFile
from engine.savewriter import SaveWriter
from engine.visibility import Known, knowledge
from tui.logtext import Names, format_log, names_of_encounter
from tui.options import GameOptions, options_from_save
from tui.view import View, friends_of, take

if TYPE_CHECKING:
    from ai.driver import TurnDriver
    from ai.policy import Policy
    from engine.events import Decision
    from engine.state import Combatant

T = TypeVar("T")
__all__ = ["GameOptions"]  # re-exported: where it was defined before tui.options

RETRY_FIRST_S = 0.5
RETRY_MAX_S = 5.0
"""A failed save is retried after half a second, then less and less often, up to every 5 s."""


@dataclass(frozen=True)
class Update:
    """The engine changed: a new picture and the events since the last update."""

    view: View
    events: tuple[Logged, ...]
    reset: bool = False
    """The log was rebuilt (undo, redo, resume): drop every line shown, show `events` instead."""
    saved: int | None = None
    """How many records the save holds, all durable (None: this fight is not being saved)."""


@dataclass(frozen=True)
class Ask:
    """A person must answer `question` (a Question or a DiceRequest); reply with `reply`."""

    question: Question | DiceRequest
    view: View


@dataclass(frozen=True)
class Refused:
    reason: str


@dataclass(frozen=True)
class Paused:
    """The fight waits: its last change is applied but not in the save yet (a full disk), so
    nothing more happens or is shown until a retry writes it. `reason`: the write's error."""

    reason: str
    saved: int | None


@dataclass(frozen=True)
class Waiting:
    """Step mode: the next AI action waits for the step key."""

    who: str


@dataclass(frozen=True)
class Idle:
    """The worker is done: a player's turn, or the end of the fight."""

    view: View


@dataclass(frozen=True)
class Failed:
    """An unexpected error in the engine or the AI (the app keeps running)."""

    message: str


News = Update | Ask | Refused | Waiting | Idle | Failed | Paused


SHOWN_WAIT_S = 3.0
"""How long the AI waits at most for the screen's first frame before it plays anyway."""


class Abandoned(Exception):
    """The app is closing while a worker waits for a person: unwind the worker."""


class TableDice:
    """Table mode's dice: creatures of the `manual` sides roll real dice and a person types
    the faces in; the app rolls everyone else's from the fight's seeded stream, and a typed
    side's roll the person hands back to the app (Ctrl+R: `ask` answers None) from `fallback`.

    It offers what `Encounter.replay` needs to rebuild such a fight (undo, redo, resume)
    without re-rolling the app's dice: `fresh()` (the seeded part back at the start) and
    `advance()` (the seeded part rolls alongside each replayed face it rolled first time).
    It tells the engine which faces were typed (`last_typed`: the log says so) and wants each
    roll's purpose to say what is needed (`explains`)."""

    reports_typed = True
    explains = True

    def __init__(
        self,
        seed: int,
        ask: Callable[[DiceRequest], int | None],
        side_of: Callable[[str], str | None],
        manual: frozenset[str],
        fallback: DiceSource | None = None,
    ) -> None:
        self.seed = seed
        self._ask = ask
        self._side_of = side_of
        self._sides = manual
        self._seeded = SeededDice(seed)
        self._fallback = fallback if fallback is not None else SeededDice(seed + 7919)
        self.last_typed = False

    def _typed(self, who: str | None) -> bool:
        return who is not None and self._side_of(who) in self._sides

    def roll(self, sides: int, purpose: str = "", who: str | None = None) -> int:
        if not self._typed(who):
            self.last_typed = False
            return self._seeded.roll(sides, purpose, who)
        face = self._ask(DiceRequest(sides, purpose, who))
        if face is None:  # the person let the app roll this one
            self.last_typed = False
            return self._fallback.roll(sides, purpose, who)
        # The UI validates before answering; this is the last guard before a typo
        # becomes a 37 on a d20.
        if type(face) is not int or not 1 <= face <= sides:
            wanted = f" for {purpose}" if purpose else ""
            raise InvalidFace(f"{face!r} is not a face of a d{sides} (1..{sides}){wanted}")
        self.last_typed = True
        return face

    def advance(self, sides: int, purpose: str = "", who: str | None = None) -> None:
        if not self._typed(who):
            self._seeded.roll(sides, purpose, who)

    def fresh(self) -> TableDice:
        return TableDice(self.seed, self._ask, self._side_of, self._sides, self._fallback)


class _Decider:
    def __init__(self, controller: Controller, cid: str) -> None:
        self.controller = controller
        self.cid = cid

    def answer(self, question: Question) -> Any:
        return self.controller.answer(question)


class Controller:
    """Owns the fight; `run_*` methods are worker bodies (call them off the UI thread)."""

    def __init__(
        self,
        loaded: LoadedEncounter,
        options: GameOptions,
        notify: Callable[[News], None] | None = None,
    ) -> None:
        self.loaded = loaded
        self.options = options
        self.notify: Callable[[News], None] = notify or (lambda news: None)
        """Set by the screen that shows this fight (the controller may be built before it)."""
        self.lock = threading.RLock()
        self.closed = threading.Event()
        self.busy = False
        self.step_mode = options.step
        self.pace = options.pace
        self._step = threading.Event()
        self._answers: queue.Queue[Any] = queue.Queue()
        self._side = {cd.id: cd.side for cd in loaded.spec.combatants}
        self._policies: dict[str, Policy] = {}
        """One per side, kept for the whole fight (undo included: the AI keys what it
        remembers by the fight, not by the encounter object an undo replaces)."""
        self._turns: TurnDriver | None = None
        self._fallback = SeededDice(options.seed + 7919)
        self._live = self._dice()
        self.hist = History(self._create(), deciders=self._decider, live=self._live)
        self.resumed_from: Path | None = None
        """The save this fight was resumed from (None: a new fight)."""
        self.save_problem: str | None = None
        """Why this fight is not being saved, if it isn't."""
        self.all_seeing = False
        """The views are the GM's whoever plays whom (a table's host: it cuts each seat's
        view from them, `tui.table.views`)."""
        self.save_dir: Path | None = None
        """Where a new fight's autosave goes (None: the autosave folder); a table's host
        keeps its save in its private directory."""
        self.names: Names = names_of_encounter(self.enc)
        self._sent = 0
        self._known: dict[str, Known] = {}
        self.paused: str | None = None
        self.shown = threading.Event()
        """Set once the screen has drawn the fight: the AI plays only then (a screen clears it
        before it starts the fight; without a screen it stays set)."""
        self.shown.set()
        """Why the fight is paused (its save can't be written), while it is."""

    @classmethod
    def resumed(
        cls,
        path: str | os.PathLike[str],
        notify: Callable[[News], None] | None = None,
        base: GameOptions | None = None,
    ) -> Controller:
        """A saved fight, rebuilt where it stopped; further actions go to the same save.
        SaveError (one line) if the save can't be used. Slow for a long fight (it replays
        every record): call it off the UI thread."""
        # locked before it is read: no other Skirmish can append between the two
        writer, save = SaveWriter.open_existing(path)
        try:
            ctl = cls._rebuilt(save, writer, notify, base)
        except BaseException:
            writer.close()
            raise
        ctl.resumed_from = save.path
        return ctl

    @classmethod
    def _rebuilt(
        cls,
        save: SaveFile,
        writer: SaveWriter,
        notify: Callable[[News], None] | None,
        base: GameOptions | None,
    ) -> Controller:
        h = save.header
        options = options_from_save(h.encounter, h.seed, h.ruleset, save.control, h.meta, base)
        try:
            loaded = save.content
        except ValueError as exc:  # ContentErrors is a ValueError too
            first = str(exc).splitlines()[0] if str(exc) else "content errors"
            raise SaveError(save.path, f"the embedded encounter doesn't load: {first}") from None
        ctl = cls(loaded, options, notify)
        # autosave.resume(path), with the save as read here (its content is loaded once)
        enc = save.encounter(deciders=ctl._decider, live=ctl._live)
        ctl.hist = History(
            enc,
            deciders=ctl._decider,
            live=ctl._live,
            saver=autosave.Autosaver.resume(save, enc, writer),
            actors=[e.actor for e in save.entries],
            redo=[(e.record, e.actor) for e in save.redo],
        )
        return ctl

    # --- construction -----------------------------------------------------------------
    @property
    def enc(self) -> Encounter:
        """The encounter now (undo and redo replace it: read it afresh each time)."""
        return self.hist.enc

    @property
    def control(self) -> dict[str, str]:
        """Who plays each creature ("player" or "ai"), by id: read from the encounter, the one
        place that holds it (undo, redo and resume rebuild it from there and the save)."""
        return control_of(self.enc)

    @property
    def save_path(self) -> Path | None:
        saver = self.hist.saver
        return saver.path if isinstance(saver, autosave.Autosaver) else None

    @property
    def saved(self) -> int | None:
        """How many records the save holds, all durable; None when not saving."""
        saver = self.hist.saver
        return saver.written if isinstance(saver, autosave.Autosaver) else None

    def _decider(self, cid: str) -> _Decider:
        return _Decider(self, cid)

    def _dice(self) -> TableDice | None:
        if not self.options.manual_dice:
            return None
        return TableDice(
            self.options.seed,
            self._ask_die,
            self._side.get,
            frozenset(self.options.manual_dice),
            self._fallback,
        )

    def _create(self) -> Encounter:
        o = self.options
        return Encounter.create(
            self.loaded,
            seed=o.seed,
            dice=self._live.fresh() if self._live is not None else None,
            deciders=self._decider,
            control=o.control,
            ruleset=o.ruleset,
        )

    def snapshot(self) -> View:
        with self.lock:
            return self._take()

    def view_sides(self) -> set[str] | None:
        """Whose eyes the screen shows (issue 12 item 15): the sides of the creatures a person
        plays. None: everything, hidden creatures marked, for the GM (dice typed at the table,
        GM step mode) and for someone watching the AI play every creature."""
        if self.options.manual_dice or self.step_mode or self.all_seeing:
            return None
        sides = {self._side[c] for c, ctl in self.control.items() if ctl == "player"}
        return sides or None

    def _take(self) -> View:
        """A view of the fight now, and what the viewing side knows (kept from view to view,
        for the squares where it last saw what it can't see now). Under the lock."""
        b = self.enc.battle
        sides = self.view_sides()
        eyes = sides if sides is not None else friends_of(self.enc)
        viewers = [c.id for c in b.combatants.values() if c.side in eyes]
        self._known = knowledge(b, viewers, self._known)
        return take(self.enc, self._known, fog=sides is not None)

    # --- answering the engine -------------------------------------------------------------
    def _policy(self, side: str) -> Policy:
        if side not in self._policies:
            from ai.driver import make_policy  # the AI loads with the first AI decision
            from tui.cli_styles import style_for

            style = style_for(self.options.ai_style, side)
            self._policies[side] = make_policy(self.options.policy, style)
        return self._policies[side]

    def _playing(self, c: Combatant) -> Policy | None:
        """The policy that plays `c` (None: a person does)."""
        return self._policy(c.side) if c.control == "ai" else None

    def _driver(self) -> TurnDriver:
        if self._turns is None:
            from ai.driver import TurnDriver

            self._turns = TurnDriver(self._playing)
        return self._turns

    def answer(self, q: Question[Any]) -> Any:
        """The engine's question, from the worker thread: a person or the AI answers. A
        question with no dialog, or nothing to choose, takes its default; a person's answer
        the question refuses is asked again."""
        if self.enc.battle[q.who].control != "player":
            return self._policy(self._side.get(q.who, "")).answer(self.enc, q)
        if not q.asks_person or not q.choice():
            return q.default()
        while True:
            try:
                return q.check(self._ask(q))
            except InvalidAnswer as exc:
                self.notify(Refused(exc.reason))

    def _ask_die(self, request: DiceRequest) -> int | None:
        """A face typed in, or None: the person let the app roll it (Ctrl+R). A face the die
        doesn't have is refused and asked again."""
        while True:
            value = self._ask(request)
            if value is None:
                return None
            try:
                return request.check(value)
            except InvalidFace as exc:
                self.notify(Refused(str(exc)))

    def _ask(self, question: Question | DiceRequest) -> Any:
        self._publish()
        while not self._answers.empty():
            self._answers.get_nowait()
        self.notify(Ask(question, self._take()))
        while True:
            if self.closed.is_set():
                raise Abandoned
            try:
                return self._answers.get(timeout=0.05)
            except queue.Empty:
                continue

    def reply(self, value: Any) -> None:
        """The person's answer to the last `Ask` (from the UI thread)."""
        self._answers.put(value)

    # --- worker bodies ------------------------------------------------------------------
    def run_start(self) -> None:
        self._guard(self._start)

    def run_action(self, action: Action) -> None:
        self._guard(lambda: self._apply(action))

    def run_undo(self, steps: int = 1) -> None:
        self._guard(lambda: self._rewind(steps, undo=True))

    def run_redo(self, steps: int = 1) -> None:
        self._guard(lambda: self._rewind(steps, undo=False))

    def run_gm(self, action: Action) -> None:
        """A GM tool (engine.gm): applied like any action, whoever's turn it is. The AI's
        per-fight caches knew the creatures before it: they start afresh."""

        def body() -> None:
            self._apply(action)
            with self.lock:
                self._policies.clear()

        self._guard(body)

    def run_autoplay(self) -> None:
        self._guard(lambda: None)

    def _guard(self, body: Callable[[], None]) -> None:
        try:
            body()
            self._autoplay()
        except Abandoned:
            return
        except Exception as exc:  # a bug must not freeze the app or lose the fight silently
            self.notify(Failed(f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))
        finally:
            self.busy = False
        if not self.closed.is_set():
            self.notify(Idle(self.snapshot()))

    def _start(self) -> None:
        with self.lock:
            if self.resumed_from is not None:
                if not self.enc.started:  # saved before its first record: start it now
                    self.hist.start()
                self._sent = 0
                self._publish(reset=True)
                return
            try:
                self.hist = autosave.begin(
                    self.enc,
                    deciders=self._decider,
                    live=self._live,
                    meta=self.options.meta(),
                    directory=self.save_dir,
                )
            except (SaveError, OSError) as exc:  # play on, unsaved, and say so
                self.save_problem = str(exc)
                self.notify(Failed(f"Autosave is off: {exc}"))
            self._durable(self.hist.start)
            self._publish()

    def _durable(self, change: Callable[..., T], *args: Any) -> T | None:
        """Run an engine change that autosaves (under the lock). If the save can't be written
        (`autosave.SaveFailed`: the change is in memory, the save whole up to the one before),
        pause: say so, retry until the save holds it, then return None (Abandoned if the app
        closes meanwhile). Whatever the screen shows next is on disk."""
        try:
            return change(*args)
        except autosave.SaveFailed as exc:
            self._wait_for_save(str(exc))
            return None

    def _wait_for_save(self, reason: str) -> None:
        delay = RETRY_FIRST_S
        self.paused = reason
        self.notify(Paused(reason, self.saved))
        try:
            while True:
                if self.closed.wait(delay):
                    raise Abandoned
                state = autosave.retry(self.hist)
                if state.ok:
                    return
                if state.error and state.error != self.paused:
                    self.paused = state.error
                    self.notify(Paused(state.error, self.saved))
                delay = min(RETRY_MAX_S, delay * 2)
        finally:
            self.paused = None

    def _apply(self, action: Action) -> None:
        with self.lock:
            try:
                self._durable(self.hist.apply, action)  # durable before it returns
            except Impossible as exc:
                self.notify(Refused(exc.reason))
                return
            self._publish()

    def _rewind(self, steps: int, *, undo: bool) -> None:
        with self.lock:
            n = self._durable(self.hist.undo if undo else self.hist.redo, steps)
            if n == 0:
                self.notify(Refused(f"nothing to {'undo' if undo else 'redo'}"))
                return
            self._sent = 0
            self._publish(reset=True)

    def _autoplay(self) -> None:
        """The AI's turns, one action at a time through the one turn driver (`ai.driver`),
        each durable and published before the next; a person's turn or the end stops it."""
        self._wait_shown()
        while True:
            with self.lock:
                c = self._driver().actor(self.enc)
            if c is None:
                return
            self._pause(c.id)
            with self.lock:
                if self._driver().step(self.enc, self._apply_durably) is None:
                    return
                self._publish()

    def _wait_shown(self) -> None:
        """Until the screen has drawn the fight (at most `SHOWN_WAIT_S`: a screen that never
        says so can't stop the fight)."""
        deadline = SHOWN_WAIT_S
        while not self.shown.wait(0.05):
            if self.closed.is_set():
                raise Abandoned
            deadline -= 0.05
            if deadline <= 0:
                return

    def _apply_durably(self, action: Action, decision: Decision | None) -> list[Logged]:
        return self._durable(self.hist.apply, action, decision) or []

    def _pause(self, who: str) -> None:
        if self.step_mode:
            self._step.clear()
            self.notify(Waiting(who))
            while not self._step.wait(0.05):
                if self.closed.is_set():
                    raise Abandoned
                if not self.step_mode:
                    break
        elif self.pace > 0 and self.closed.wait(self.pace):
            raise Abandoned
        if self.closed.is_set():
            raise Abandoned

    def step(self) -> None:
        """Step mode: let the next AI action go (UI thread)."""
        self._step.set()

    def close(self) -> None:
        """The app is leaving: wake and unwind any waiting worker, then let go of the save
        (once no worker is writing to it)."""
        self.closed.set()
        self._step.set()
        if self.lock.acquire(timeout=5.0):
            try:
                saver = self.hist.saver
                if isinstance(saver, autosave.Autosaver):
                    saver.close()
            finally:
                self.lock.release()

    # --- telling the screen -------------------------------------------------------------
    def _publish(self, reset: bool = False) -> None:
        self._meet_newcomers()
        log = self.enc.log
        events = tuple(log[self._sent :])
        self._sent = len(log)
        self.notify(Update(self._take(), events, reset, self.saved))

    def _meet_newcomers(self) -> None:
        """Creatures the GM added (engine.gm): their side's dice, their names in the log
        (who plays them is the encounter's). Kept after an undo: their ids stay theirs."""
        for c in self.enc.battle.combatants.values():
            if c.id not in self._side:
                self._side[c.id] = c.side
                self.names.creatures[c.id] = c.name
                for p in c.powers:
                    self.names.powers.setdefault(p.id, p.name)
                    if p.basic:
                        self.names.basic.add(p.id)

    # --- queries for the screen (UI thread, only while idle) ------------------------------
    def try_lock(self) -> bool:
        return self.lock.acquire(blocking=False)

    def player_turn_view(self, view: View) -> bool:
        """Is it, in `view`, the turn of a creature a person plays?"""
        cur = view.current
        return cur is not None and not view.over and self.control.get(cur) == "player"

    def toggle_control(self, cid: str) -> str:
        """Hand `cid` to the AI or to a person. Held by the encounter (undo and redo rebuild
        with it) and noted in the save at once (resume keeps it)."""
        with self.lock:
            c = self.enc.battle[cid]
            c.control = "ai" if c.control == "player" else "player"
            # the UI thread never waits for a full disk: the next sync writes it then
            with contextlib.suppress(autosave.SaveFailed):
                self.hist.sync()
            return c.control

    def can_undo(self) -> bool:
        return self.hist.can_undo()

    def can_redo(self) -> bool:
        return self.hist.can_redo()

    # --- export (any thread but the worker's) ---------------------------------------------
    def default_export_stem(self) -> Path:
        """Where an export goes unless a person says otherwise: next to the save."""
        path = self.save_path
        if path is not None:
            return path.with_name(path.name.removesuffix(SUFFIX) + ".log")
        name = f"{Path(self.options.source).stem}-seed{self.options.seed}.log"
        return autosave.saves_dir() / name

    def export(self, stem: Path) -> tuple[Path, Path, int]:
        """Write the combat log as JSON Lines (`stem.jsonl`, ../shared/log-schema.md) and as
        text (`stem.txt`); return both paths and the number of events. OSError or ValueError
        (never overwrites a save) if it can't."""
        from tui.cli_saves import is_save, write_atomic

        with self.lock:
            events = list(self.enc.log)
        jsonl, text = stem.with_name(stem.name + ".jsonl"), stem.with_name(stem.name + ".txt")
        for out in (jsonl, text):
            if out.name.endswith(SUFFIX) or (out.exists() and is_save(out)):
                raise ValueError(f"{out} is a Skirmish save; refusing to overwrite it")
        stem.parent.mkdir(parents=True, exist_ok=True)
        from engine.gm import log_json

        write_atomic(jsonl, (json.dumps(d, ensure_ascii=False) for d in log_json(events)))
        write_atomic(text, format_log(events, self.names))
        return jsonl, text, len(events)
