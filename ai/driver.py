"""The one turn driver: who acts next, ask their policy (or stop for a person), apply, cap.

The headless simulator (`ai.sim.play`) and the app's controller (`tui.controller`) both
drive fights with it, and a table host can too: `actor` says whether an AI acts next (None:
a person's turn, or the end), `step` plays one AI action and returns what happened, so a
caller that must do something between actions (the app pauses and publishes; a host
broadcasts) calls them in its own loop, and one that needn't calls `run`.

The rules it keeps in one place:
- one action at a time (an opportunity attack or a readied action can change the picture);
- a refused action (the engine says Impossible) ends the creature's turn, and is reported;
- at most `max_actions` actions in one turn: the next is an end of turn (a policy that
  never ends its turn can't hang a fight).

Whoever `apply`s owns the encounter: the simulator applies to it directly, the app through its
`History` (undo and autosave), so the driver reads the encounter afresh each time (an undo
replaces it) and never keeps it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from ai.config import CONFIGS
from ai.naive import NaivePolicy
from ai.policy import Policy
from ai.rollout import RolloutPolicy
from ai.styles import StylePick
from ai.tactical import TacticalPolicy
from engine.actions import Action, EndTurn, Impossible
from engine.encounter import Encounter
from engine.events import Decision, Logged
from engine.state import Combatant

MAX_ACTIONS_PER_TURN = 24
"""A turn's cap: more actions than any real turn takes (moves, attacks, minors, free ones)."""

POLICIES = ("naive", *CONFIGS, "rollout")
"""Every policy name: the naive baseline, each named tactical configuration and the rollout
player (`ai.rollout`, a league panel member)."""

Apply = Callable[[Action, Decision | None], list[Logged]]
PolicyFor = Callable[[Combatant], Policy | None]
"""The policy that plays a creature, or None when a person plays it."""


def make_policy(name: str, style: StylePick | None = None) -> Policy:
    """A fresh policy by name (one per side per fight: policies keep per-fight caches);
    `style`: the command line's `--ai-style` choices for its side (`ai.styles`; the naive
    baseline has no styles)."""
    if name == "naive":
        return NaivePolicy()
    if name in CONFIGS:
        cfg = CONFIGS[name] if style is None else replace(CONFIGS[name], style=style)
        return TacticalPolicy(config=cfg)
    if name == "rollout":
        return RolloutPolicy()
    raise ValueError(f"unknown policy {name!r} (one of: {', '.join(POLICIES)})")


@dataclass(frozen=True, slots=True)
class DriverStep:
    """One action the driver applied."""

    who: str
    action: Action
    """What was applied (an end of turn if the policy's choice was refused or over the cap)."""
    events: list[Logged]
    decision: Decision | None = None
    """The policy's explanation, when it gave one (its `ms` is the time it took)."""
    refused: str | None = None
    """The engine's reason when the policy's choice was refused (the turn was ended)."""
    chosen: Action | None = None
    """The policy's choice when it was not what was applied (refused, or over the cap)."""
    capped: bool = False
    """The turn had used up `max_actions`: this is the end of turn that closes it."""
    ms: float = 0.0
    """Wall time of the policy's `next_action` call, in ms, for every call (replans and
    action-point decisions too; a decision event's `ms` covers only the first plan of a turn).
    0.0 when the policy wasn't asked (a capped turn's end)."""


class TurnDriver:
    """Drives the AI's turns of one fight. Keeps only the count of the current turn's
    actions, so one driver serves a fight from start to end whatever replaces its encounter."""

    def __init__(self, policy_for: PolicyFor, *, max_actions: int = MAX_ACTIONS_PER_TURN) -> None:
        self.policy_for = policy_for
        self.max_actions = max_actions
        self._turn: tuple[int, str] | None = None
        self._count = 0

    def actor(self, enc: Encounter) -> Combatant | None:
        """The creature an AI plays whose turn it is now (None: the fight is over, or a person
        acts next)."""
        c = enc.current
        if enc.over or c is None or self.policy_for(c) is None:
            return None
        return c

    def step(self, enc: Encounter, apply: Apply | None = None) -> DriverStep | None:
        """Play one action of the current AI creature through `apply` (default `enc.apply`);
        None if no AI acts now."""
        c = self.actor(enc)
        if c is None:
            return None
        policy = self.policy_for(c)
        assert policy is not None
        do = apply if apply is not None else enc.apply
        turn = (enc.battle.turn_counter, c.id)
        if turn != self._turn:
            self._turn, self._count = turn, 0
        self._count += 1
        if self._count > self.max_actions:
            return DriverStep(c.id, EndTurn(), do(EndTurn(), None), capped=True)
        t0 = time.perf_counter()
        choice = policy.next_action(enc)
        ms = (time.perf_counter() - t0) * 1000
        try:
            events = do(choice.action, choice.decision)
        except Impossible as exc:
            events = do(EndTurn(), None)
            return DriverStep(
                c.id, EndTurn(), events, choice.decision, exc.reason, chosen=choice.action, ms=ms
            )
        return DriverStep(c.id, choice.action, events, choice.decision, ms=ms)

    def run(
        self,
        enc: Encounter,
        apply: Apply | None = None,
        on_step: Callable[[DriverStep], None] | None = None,
    ) -> None:
        """Play AI actions until a person must act or the fight is over."""
        while (step := self.step(enc, apply)) is not None:
            if on_step is not None:
                on_step(step)
