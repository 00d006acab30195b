"""The bridge between the engine, which blocks, and the screen, which must never block.

The engine asks its questions synchronously (take this opportunity attack? roll a d20) and the
AI may think for a while, so every engine call runs in a worker thread. The controller owns the
encounter, a lock around it, the AI policies and the answers a person gives: when the engine
asks a player, the worker sends an `Ask` to the screen and waits on a queue until the dialog's
answer comes back through `reply`. Everything it tells the screen goes through one callback,
`notify`, which must be thread-safe (the screen posts a message). No Textual here, so the
controller can be driven by tests without an app.
"""

from __future__ import annotations

import queue
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ai.policy import Choice, Policy
from ai.sim import make_policy
from engine.actions import Action, EndTurn, Impossible
from engine.content.loader import LoadedEncounter
from engine.decisions import (
    DelayReturnQuestion,
    ForcedMoveQuestion,
    OpportunityQuestion,
    Question,
    SaveOrderQuestion,
)
from engine.dice import DiceRequest, DiceSource, ManualDice, RoutedDice, SeededDice
from engine.encounter import Encounter, Record
from engine.events import Logged
from tui.logtext import Names, names_of_encounter
from tui.view import View, take

MAX_AI_ACTIONS_PER_TURN = 24


@dataclass(frozen=True)
class GameOptions:
    """How to run one fight (from the command line or the start screen)."""

    source: str = "default"
    seed: int = 1
    ruleset: str | None = None
    control: dict[str, str] = field(default_factory=dict)
    manual_dice: tuple[str, ...] = ()
    """Sides whose dice a person rolls and types in."""
    pace: float = 0.35
    """Seconds between two AI actions, so that a person can follow them."""
    step: bool = False
    """GM mode: every AI action waits for a key."""
    policy: str = "tactical"


@dataclass(frozen=True)
class Update:
    """The engine changed: a new picture and the events since the last update."""

    view: View
    events: tuple[Logged, ...]
    reset: bool = False
    """The log was rebuilt (undo): drop every line shown and show `events` instead."""


@dataclass(frozen=True)
class Ask:
    """A person must answer `question` (a Question or a DiceRequest); reply with `reply`."""

    question: Question | DiceRequest
    view: View


@dataclass(frozen=True)
class Refused:
    reason: str


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


News = Update | Ask | Refused | Waiting | Idle | Failed


class Abandoned(Exception):
    """The app is closing while a worker waits for a person: unwind the worker."""


class _Decider:
    def __init__(self, controller: Controller, cid: str) -> None:
        self.controller = controller
        self.cid = cid

    def answer(self, question: Question) -> Any:
        return self.controller.answer(question)


class Controller:
    """Owns the encounter; `run_*` methods are worker bodies (call them off the UI thread)."""

    def __init__(
        self, loaded: LoadedEncounter, options: GameOptions, notify: Callable[[News], None]
    ) -> None:
        self.loaded = loaded
        self.options = options
        self.notify = notify
        self.lock = threading.RLock()
        self.closed = threading.Event()
        self.busy = False
        self.step_mode = options.step
        self.pace = options.pace
        self._step = threading.Event()
        self._answers: queue.Queue[Any] = queue.Queue()
        self._side = {cd.id: cd.side for cd in loaded.spec.combatants}
        self._policies: dict[str, Policy] = {}
        self._fallback = SeededDice(options.seed + 7919)
        self.enc = self._create()
        self.control: dict[str, str] = {
            c.id: c.control for c in self.enc.battle.combatants.values()
        }
        self.names: Names = names_of_encounter(self.enc)
        self._actors: list[str | None] = []
        self._sent = 0

    # --- construction -----------------------------------------------------------------
    def _dice(self) -> DiceSource | None:
        if not self.options.manual_dice:
            return None
        manual = ManualDice(self._ask_die)
        sides = set(self.options.manual_dice)

        def route(who: str) -> DiceSource | None:
            return manual if self._side.get(who) in sides else None

        return RoutedDice(SeededDice(self.options.seed), route)

    def _create(self) -> Encounter:
        o = self.options
        return Encounter.create(
            self.loaded,
            seed=o.seed,
            dice=self._dice(),
            deciders=lambda cid: _Decider(self, cid),
            control=o.control,
            ruleset=o.ruleset,
        )

    def snapshot(self) -> View:
        with self.lock:
            return take(self.enc, self.control)

    # --- answering the engine -------------------------------------------------------------
    def _policy(self, side: str) -> Policy:
        if side not in self._policies:
            self._policies[side] = make_policy(self.options.policy)
        return self._policies[side]

    def answer(self, q: Question) -> Any:
        """The engine's question, from the worker thread: a person or the AI answers."""
        if self.control.get(q.who) != "player":
            return self._policy(self._side.get(q.who, "")).answer(self.enc, q)
        if isinstance(q, SaveOrderQuestion):
            return list(q.effects)
        if isinstance(q, ForcedMoveQuestion) and len(q.options) <= 1:
            return 0
        if isinstance(q, OpportunityQuestion | ForcedMoveQuestion | DelayReturnQuestion):
            return self._ask(q)
        raise TypeError(f"unknown question {q!r}")

    def _ask_die(self, request: DiceRequest) -> int:
        value = self._ask(request)
        if value is None:  # the person let the app roll this one
            return self._fallback.roll(request.sides, request.purpose, request.who)
        return int(value)

    def _ask(self, question: Question | DiceRequest) -> Any:
        self._publish()
        while not self._answers.empty():
            self._answers.get_nowait()
        self.notify(Ask(question, take(self.enc, self.control)))
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

    def run_undo(self) -> None:
        self._guard(self._undo)

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
            self.enc.start()
            self._actors.append(None)
            self._publish()

    def _apply(self, action: Action) -> None:
        with self.lock:
            actor = self.enc.battle.current
            try:
                self.enc.apply(action)
            except Impossible as exc:
                self.notify(Refused(exc.reason))
                return
            self._actors.append(actor)
            self._publish()

    def _undo(self) -> None:
        with self.lock:
            cut = next(
                (
                    i
                    for i in range(len(self._actors) - 1, 0, -1)
                    if self._actors[i] is not None
                    and self.control.get(self._actors[i] or "") == "player"
                ),
                None,
            )
            if cut is None:
                self.notify(Refused("nothing to undo"))
                return
            records: list[Record] = list(self.enc.records[:cut])
            o = self.options
            dice = self._dice()
            self.enc = Encounter.replay(
                self.loaded,
                records,
                seed=o.seed,
                ruleset=o.ruleset,
                control=o.control,
                deciders=lambda cid: _Decider(self, cid),
                live=dice,
            )
            self._actors = self._actors[:cut]
            self._sent = 0
            self._publish(reset=True)

    def _autoplay(self) -> None:
        count, last = 0, None
        while True:
            with self.lock:
                c = self.enc.current
                if self.enc.over or c is None or self.control.get(c.id) != "ai":
                    return
                if c.id != last:
                    count, last = 0, c.id
            self._pause(c.id)
            with self.lock:
                c = self.enc.current
                if self.enc.over or c is None or self.control.get(c.id) != "ai":
                    return
                count += 1
                policy = self._policy(c.side)
                choice = (
                    Choice(EndTurn())
                    if count > MAX_AI_ACTIONS_PER_TURN
                    else policy.next_action(self.enc)
                )
                try:
                    self.enc.apply(choice.action, choice.decision)
                except Impossible:
                    self.enc.apply(EndTurn())
                self._actors.append(c.id)
                self._publish()

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
        """The app is leaving: wake and unwind any waiting worker."""
        self.closed.set()
        self._step.set()

    # --- telling the screen -------------------------------------------------------------
    def _publish(self, reset: bool = False) -> None:
        log = self.enc.log
        events = tuple(log[self._sent :])
        self._sent = len(log)
        self.notify(Update(take(self.enc, self.control), events, reset))

    # --- queries for the screen (UI thread, only while idle) ------------------------------
    def try_lock(self) -> bool:
        return self.lock.acquire(blocking=False)

    def player_turn_view(self, view: View) -> bool:
        """Is it, in `view`, the turn of a creature a person plays?"""
        cur = view.current
        return cur is not None and not view.over and self.control.get(cur) == "player"

    def toggle_control(self, cid: str) -> str:
        new = "ai" if self.control.get(cid) == "player" else "player"
        self.control[cid] = new
        return new
