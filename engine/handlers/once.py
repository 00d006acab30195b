"""The once-per-encounter actions anyone may have: second wind (F-HP, a standard action that
spends a healing surge) and a Bluff for combat advantage (F-MOD-13)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import Bluff, Impossible, SecondWind
from engine.content.schema import EffectSpec, Modifier
from engine.effects import add_effect
from engine.handlers.base import Handler, register, spend, spend_check
from engine.hp import spend_surge
from engine.powers import bluff, bluff_refusal
from engine.refusals import Refusal

if TYPE_CHECKING:
    from engine.encounter import Encounter
    from engine.state import Combatant

SECOND_WIND = EffectSpec(
    name="second wind",
    duration="start_of_next_turn",
    modifiers=[Modifier(stat="defenses", value=2)],
)


class SecondWindHandler(Handler[SecondWind]):
    action = SecondWind

    def check(self, enc: Encounter, c: Combatant, act: SecondWind) -> None:
        if c.second_wind_used:
            raise Impossible("second wind is once per encounter", Refusal.ONCE_PER_ENCOUNTER)
        if not (c.pc if c.creature.second_wind is None else c.creature.second_wind):
            raise Impossible(f"{c.name} has no second wind", Refusal.NO_RESOURCE)
        if c.surges <= 0:
            raise Impossible(f"{c.name} has no healing surge left", Refusal.NO_RESOURCE)
        spend_check(enc, "standard", "second wind")

    def perform(self, enc: Encounter, c: Combatant, act: SecondWind, plan: Any) -> None:
        b = enc.battle
        spend(enc, c, "standard", "second_wind")
        c.second_wind_used = True
        spend_surge(b, c, 0, c.id)
        add_effect(b, SECOND_WIND, c, c, "second wind")


register(SecondWindHandler)


class BluffHandler(Handler[Bluff]):
    action = Bluff

    def check(self, enc: Encounter, c: Combatant, act: Bluff) -> Combatant:
        refusal = bluff_refusal(enc.battle, c, act.target)
        if refusal is not None:
            raise refusal
        spend_check(enc, "standard", "a Bluff")
        return enc.battle[act.target]

    def perform(self, enc: Encounter, c: Combatant, act: Bluff, plan: Combatant) -> None:
        spend(enc, c, "standard", "bluff")
        bluff(enc.battle, c, plan)


register(BluffHandler)
