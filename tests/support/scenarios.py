"""Scenario helpers of the AI tests: an open map, a monster of a role, and turns played by a
policy or passed (shared by the scenario and utility tests)."""

from __future__ import annotations

from typing import Any

from ai.config import CONFIGS
from ai.memory import SideMemory
from ai.position import square_value
from ai.roles import weights_for
from ai.scoring import Context
from ai.tactical import TacticalPolicy
from engine.actions import Action, EndTurn
from engine.content import load_encounter
from engine.encounter import Encounter
from engine.events import Decision
from tests.support.helpers import DEF

OPEN_9x7 = "\n".join(["........."] * 7)


def monster(cid: str, role: str, powers: list[str], **kw: Any) -> dict[str, Any]:
    return {
        "id": cid,
        "name": cid.title(),
        "role": role,
        "level": 1,
        "hp": 30,
        "defenses": DEF,
        "speed": 6,
        "initiative": 2,
        "powers": powers,
        **kw,
    }


def until_turn(enc: Encounter, cid: str) -> None:
    """Pass everyone else's turns (no action taken) until `cid` is the creature acting."""
    for _ in range(50):
        assert enc.current is not None
        if enc.current.id == cid:
            return
        enc.apply(EndTurn())
    raise AssertionError(f"{cid} never got a turn")


def play_turn(enc: Encounter, policy: TacticalPolicy) -> tuple[list[Action], list[Decision]]:
    """Let the policy play the current creature's whole turn; the actions and decisions."""
    c = enc.current
    assert c is not None
    mark = enc.battle.turn_counter
    actions: list[Action] = []
    decisions: list[Decision] = []
    for _ in range(12):
        if enc.over or enc.current is not c or enc.battle.turn_counter != mark:
            break
        choice = policy.next_action(enc)
        assert enc.validate(choice.action) is None
        actions.append(choice.action)
        if choice.decision is not None:
            decisions.append(choice.decision)
        enc.apply(choice.action, choice.decision)
    return actions, decisions


def started(name: str, seed: int = 1) -> Encounter:
    """A bundled encounter, started (initiative rolled), nobody having acted."""
    enc = Encounter.create(load_encounter(name), seed=seed)
    enc.start()
    return enc


def context_under(enc: Encounter, cid: str, config: str) -> Context:
    """A decision's context for `cid` under the named configuration's weights (a fresh
    memory: nothing remembered from earlier turns)."""
    c = enc.battle[cid]
    return Context(enc, c, weights_for(c, config=CONFIGS[config]), SideMemory())


def value_under(enc: Encounter, cid: str, config: str, sq: tuple[int, int]) -> float:
    """`ai.position.square_value` of `sq` for `cid` under the named configuration's weights."""
    return square_value(context_under(enc, cid, config), sq)
