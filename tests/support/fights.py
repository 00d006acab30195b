"""Fights for the save, undo and soak tests: played to order, deterministic from a seed.

Two kinds of player: the naive AI (what the simulator uses; deterministic, so a fight resumed
from a save goes on exactly as the uninterrupted one would), and a random player that picks
among every legal action (moves of each mode, powers on targets and areas, second wind,
action points, delay, ready, stand up, sustain, bluff) and answers the engine's questions at
random, so that saves and replays meet every kind of action and answer. Randomness comes from
a private `random.Random`, never the global one.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from typing import Any

from ai.naive import NaivePolicy
from engine import actions as A
from engine.content.loader import LoadedEncounter
from engine.decisions import (
    AutoDecider,
    DelayReturnQuestion,
    ForcedMoveQuestion,
    OpportunityQuestion,
    Question,
    SaveOrderQuestion,
)
from engine.effects import sustainable
from engine.encounter import Encounter
from engine.events import Decision
from engine.grid import cheapest_path

AI_ONLY = {"party": "ai", "monsters": "ai"}


class RandomDecider:
    """Answers the engine's questions at random (recorded, so a replay asks nobody)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def answer(self, q: Question) -> Any:
        if isinstance(q, OpportunityQuestion | DelayReturnQuestion):
            return self.rng.random() < 0.7
        if isinstance(q, SaveOrderQuestion):
            order = list(q.effects)
            self.rng.shuffle(order)
            return order
        if isinstance(q, ForcedMoveQuestion):
            return self.rng.randrange(len(q.options))
        return q.default()


def _moves(enc: Encounter, rng: random.Random) -> list[A.Action]:
    c = enc.current
    assert c is not None
    b = enc.battle
    out: list[A.Action] = []
    for mode in ("walk", "shift", "run"):
        try:
            reach = enc.reachable(mode)
        except A.Impossible:
            continue
        if not reach:
            continue
        goal = rng.choice(sorted(reach))
        found = cheapest_path(b.map, c.pos, goal, c.id, c.side, c.size, b.occupancy())
        if found is not None:
            out.append(A.Move(tuple(found[0]), mode))
    return out


def random_action(enc: Encounter, rng: random.Random) -> A.Action:
    """A random legal action for the current creature (EndTurn when nothing else is)."""
    c = enc.current
    assert c is not None
    weighted: list[tuple[int, A.Action]] = []
    for power, reason in enc.usable_powers():
        if reason is not None:
            continue
        targets = enc.targets(power.id)
        if targets:
            weighted.append((4, A.UsePower(power.id, (rng.choice(targets),))))
            if power.kind in ("melee", "ranged") and rng.random() < 0.2:
                weighted.append((1, A.Ready(power.id)))
        origins = enc.area_origins(power.id)
        if origins:
            weighted.append((3, A.UsePower(power.id, origin=rng.choice(origins))))
        if power.kind == "close" and power.burst is not None:
            weighted.append((2, A.UsePower(power.id)))
    weighted += [(2, m) for m in _moves(enc, rng)]
    weighted += [(1, a) for a in (A.SecondWind(), A.StandUp(), A.SpendActionPoint(), A.Delay())]
    weighted += [(1, A.Sustain(e.id)) for e in sustainable(enc.battle, c)]
    bluff = getattr(A, "Bluff", None)
    if bluff is not None:
        weighted += [(1, bluff(e.id)) for e in enc.battle.enemies_of(c)]
    legal = [(w, a) for w, a in weighted if enc.validate(a) is None]
    if not legal or rng.random() < 0.12:
        return A.EndTurn()
    return rng.choices([a for _, a in legal], weights=[w for w, _ in legal])[0]


def fingerprint(enc: Encounter) -> str:
    """A digest of the whole state: the snapshot and every event of the log."""
    data = {"snapshot": enc.snapshot(), "log": [ev.to_json() for ev in enc.log]}
    blob = json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def log_lines(enc: Encounter) -> list[str]:
    """The log as JSON lines, without a decision's thinking time (`ms`: the one field that
    differs between two plays of the same fight)."""
    out = []
    for line in enc.log:
        data = line.to_json()
        data.pop("ms", None)
        out.append(json.dumps(data, sort_keys=True, default=str))
    return out


def snapshot_digest(enc: Encounter) -> str:
    blob = json.dumps(enc.snapshot(), sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


Apply = Callable[[A.Action, Decision | None], object]


def next_choice(
    enc: Encounter, player: str, rng: random.Random, naive: NaivePolicy
) -> tuple[A.Action, Decision | None]:
    """The next action of the current creature: `player` is "naive" or "random"."""
    c = enc.current
    assert c is not None
    if player == "naive":
        choice = naive.next_action(enc)
        decision = Decision(
            c.id,
            "naive",
            f"{c.name}: {type(choice.action).__name__}",
            ({"action": type(choice.action).__name__, "score": 1.0},),
            0.25,
        )
        return choice.action, decision
    return random_action(enc, rng), None


def play(
    loaded: LoadedEncounter,
    seed: int,
    *,
    player: str = "random",
    control: dict[str, str] | None = None,
    max_records: int = 10_000,
    apply: Apply | None = None,
    enc: Encounter | None = None,
    rng: random.Random | None = None,
    after: Callable[[Encounter], None] | None = None,
) -> Encounter:
    """Play (or go on playing `enc`) until the end or `max_records` records.

    `apply` replaces `enc.apply` (a History's, say); `after(enc)` runs after each record.
    The random player's choices and answers come from `rng` (default: seeded from `seed`);
    the naive player answers like the simulator (AutoDecider), so a fight resumed from a save
    (whose replay asks nobody) goes on exactly as the uninterrupted one."""
    rng = rng or random.Random(seed)
    if enc is None:
        decider = RandomDecider(rng) if player == "random" else AutoDecider()
        enc = Encounter.create(
            loaded, seed=seed, control=control or AI_ONLY, deciders=lambda _cid: decider
        )
        enc.start()
        if after is not None:
            after(enc)
    naive = NaivePolicy()
    turn_actions = 0
    last_turn = -1
    while not enc.over and len(enc.records) < max_records:
        if enc.battle.turn_counter != last_turn:
            last_turn, turn_actions = enc.battle.turn_counter, 0
        turn_actions += 1
        action, decision = next_choice(enc, player, rng, naive)
        if turn_actions > 20 or enc.validate(action) is not None:
            action, decision = A.EndTurn(), None
        (apply or enc.apply)(action, decision)
        if after is not None:
            after(enc)
    return enc
