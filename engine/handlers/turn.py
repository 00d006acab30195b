"""The turn's own actions: ending it, delaying (X-ACT-1), readying (X-ACT-1) and spending an
action point (X-ACT-2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import Delay, EndTurn, Impossible, Ready, SpendActionPoint
from engine.content.schema import Power
from engine.events import ActionSpent
from engine.handlers.base import Handler, Naming, power_of, register, spend, spend_check
from engine.powers import usable_refusal
from engine.refusals import Refusal
from engine.turns import delay, end_turn

if TYPE_CHECKING:
    from engine.encounter import Encounter
    from engine.state import Combatant


class EndTurnHandler(Handler[EndTurn]):
    action = EndTurn

    def check(self, enc: Encounter, c: Combatant, act: EndTurn) -> None:
        return None

    def perform(self, enc: Encounter, c: Combatant, act: EndTurn, plan: Any) -> None:
        end_turn(enc.battle, c)

    def describe(self, act: EndTurn, who: str, names: Naming) -> str:
        return f"{who}: ends the turn"


register(EndTurnHandler)


class DelayHandler(Handler[Delay]):
    action = Delay

    def check(self, enc: Encounter, c: Combatant, act: Delay) -> None:
        b = enc.battle
        if any(b.spent.values()) or b.moved_this_turn:
            raise Impossible("delay only before taking any action this turn", Refusal.ALREADY_ACTED)

    def perform(self, enc: Encounter, c: Combatant, act: Delay, plan: Any) -> None:
        enc.battle.emit(ActionSpent(c.id, "free", "delay"))
        delay(enc.battle, c)


register(DelayHandler)


class ReadyHandler(Handler[Ready]):
    action = Ready

    def check(self, enc: Encounter, c: Combatant, act: Ready) -> Power:
        p = power_of(c, act.power)
        if p.kind not in ("melee", "ranged") or usable_refusal(enc.battle, c, p):
            raise Impossible(
                f"{p.name} can't be readied (a usable melee or ranged power)", Refusal.WRONG_POWER
            )
        spend_check(enc, "standard", "readying")
        return p

    def perform(self, enc: Encounter, c: Combatant, act: Ready, plan: Power) -> None:
        spend(enc, c, "standard", "ready")  # X-ACT-1: the move and minor actions remain
        c.readied = plan.id


register(ReadyHandler)


class ActionPointHandler(Handler[SpendActionPoint]):
    action = SpendActionPoint

    def check(self, enc: Encounter, c: Combatant, act: SpendActionPoint) -> None:
        if enc.battle.surprise_round:
            raise Impossible(
                "no action points in the surprise round (F-TRN-4)", Refusal.NO_ACTION_LEFT
            )
        if c.action_points <= 0 or c.action_point_used:
            raise Impossible(
                f"{c.name} has no action point to spend this encounter",
                Refusal.ONCE_PER_ENCOUNTER if c.action_point_used else Refusal.NO_RESOURCE,
            )

    def perform(self, enc: Encounter, c: Combatant, act: SpendActionPoint, plan: Any) -> None:
        b = enc.battle
        c.action_points -= 1
        c.action_point_used = True
        b.extra_standard += 1
        b.emit(ActionSpent(c.id, "free", "action_point"))


register(ActionPointHandler)
