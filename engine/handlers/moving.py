"""Moving on one's own (walk, run, shift: F-TRN-1, S-11) and standing up from prone. The
movement rules themselves are `engine.movement`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import Impossible, Move, StandUp
from engine.effects import remove_condition
from engine.handlers.base import Handler, Naming, register, spend, spend_check
from engine.movement import check_move, perform_move
from engine.refusals import Refusal

if TYPE_CHECKING:
    from engine.encounter import Encounter
    from engine.state import Combatant


class MoveHandler(Handler[Move]):
    action = Move

    def check(self, enc: Encounter, c: Combatant, act: Move) -> int:
        spend_check(enc, "move", act.mode)
        return check_move(enc.battle, c, act)

    def perform(self, enc: Encounter, c: Combatant, act: Move, plan: int) -> None:
        spend(enc, c, "move", act.mode)
        perform_move(enc.battle, c, act, plan)

    def describe(self, act: Move, who: str, names: Naming) -> str:
        x, y = act.path[-1]
        return f"{who}: {act.mode} to {x},{y}"


register(MoveHandler)


class StandUpHandler(Handler[StandUp]):
    action = StandUp

    def check(self, enc: Encounter, c: Combatant, act: StandUp) -> None:
        if not enc.battle.has(c, "prone"):
            raise Impossible(f"{c.name} is not prone", Refusal.NOTHING_TO_DO)
        spend_check(enc, "move", "standing up")

    def perform(self, enc: Encounter, c: Combatant, act: StandUp, plan: Any) -> None:
        spend(enc, c, "move", "stand_up")
        remove_condition(enc.battle, c, "prone", "stood_up")


register(StandUpHandler)
