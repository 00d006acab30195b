"""Using a power (F-ATK-*, F-MOD-4, X-PWR-1) and sustaining an effect it made (F-DUR-*).
Targeting and resolution are `engine.powers`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Impossible, Sustain, UsePower
from engine.effects import sustainable
from engine.handlers.base import Handler, Naming, power_of, register, spend, spend_check
from engine.movement import provoke_for_act
from engine.powers import provoking_kind, resolve, resolve_targets, usable_refusal
from engine.refusals import Refusal
from engine.state import STANDING, ActiveEffect
from engine.turn_budget import can_spend_one

if TYPE_CHECKING:
    from engine.content.schema import Power
    from engine.encounter import Encounter
    from engine.state import Combatant


_SPENT = frozenset({"standard", "move", "minor"})
"""The action kinds a turn counts (F-TRN-1)."""
_PLAIN = _SPENT | {"free"}
"""An at-will power of these kinds is never spent nor out of turn: `usable_refusal` has no
reason to refuse it (tests/engine/test_attack_fast.py)."""


class UsePowerHandler(Handler[UsePower]):
    action = UsePower

    def check(self, enc: Encounter, c: Combatant, act: UsePower) -> tuple[Power, list[str]]:
        """The plan: the power and the creatures it affects."""
        b = enc.battle
        p = c.power(act.power) or power_of(c, act.power)  # (the refusal when it has none)
        kind = p.action
        if p.usage != "at-will" or kind not in _PLAIN:  # (X-PWR-1: never refused)
            refusal = usable_refusal(b, c, p)
            if refusal is not None:
                raise refusal
        if kind in _SPENT and not can_spend_one(b, c, kind):
            spend_check(enc, kind, p.name, c)  # (raises: F-TRN-1)
        return p, resolve_targets(b, c, p, act)

    def perform(
        self, enc: Encounter, c: Combatant, act: UsePower, plan: tuple[Power, list[str]]
    ) -> None:
        b = enc.battle
        p, targets = plan
        spend(enc, c, p.action if p.action != "immediate" else "standard", p.id)
        if p.usage != "at-will":
            c.used_powers.add(p.id)
        if provoking_kind(p):
            provoke_for_act(b, c)
        if c.state in STANDING:
            resolve(b, c, p, act, targets)

    def describe(self, act: UsePower, who: str, names: Naming) -> str:
        text = f"{who}: {names.power(act.power)}"
        if act.targets:
            text += " on " + ", ".join(names.who(t) for t in act.targets)
        if act.origin is not None:
            text += f" at {act.origin[0]},{act.origin[1]}"
        return text


register(UsePowerHandler)


class SustainHandler(Handler[Sustain]):
    action = Sustain

    def check(self, enc: Encounter, c: Combatant, act: Sustain) -> ActiveEffect:
        eff = next((e for e in sustainable(enc.battle, c) if e.id == act.effect), None)
        if eff is None:
            raise Impossible(
                f"no effect {act.effect!r} to sustain this turn", Refusal.NOTHING_TO_DO
            )
        spend_check(enc, eff.duration.removeprefix("sustain_"), f"sustaining {eff.name}")
        return eff

    def perform(self, enc: Encounter, c: Combatant, act: Sustain, plan: ActiveEffect) -> None:
        spend(enc, c, plan.duration.removeprefix("sustain_"), "sustain")
        plan.sustained_turn = c.turns_started


register(SustainHandler)
