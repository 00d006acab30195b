"""The game master's tools as handlers: hit points, effects, reinforcements and removal.

Their rules are `engine.gm`; here they join the registry like every other action type, so the
encounter dispatches them, the save format reads them, and the replay describes them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import GmAdd, GmEffect, GmEndEffect, GmHp, GmRemove
from engine.gm import check, perform
from engine.handlers.base import Handler, Naming, register

if TYPE_CHECKING:
    from engine.encounter import Encounter
    from engine.state import Combatant


class _Gm(Handler[Any]):
    def check(self, enc: Encounter, c: Combatant, act: Any) -> Any:
        return check(enc, act)

    def perform(self, enc: Encounter, c: Combatant, act: Any, plan: Any) -> None:
        perform(enc, act, plan)


class GmHpHandler(_Gm):
    action = GmHp

    def describe(self, act: GmHp, who: str, names: Naming) -> str:
        return f"GM: {names.who(act.target)} {act.change} {act.amount}"


register(GmHpHandler)


class GmEffectHandler(_Gm):
    action = GmEffect

    def describe(self, act: GmEffect, who: str, names: Naming) -> str:
        what = act.label or act.condition or "an effect"
        return f"GM: {names.who(act.target)} gets {what}"


register(GmEffectHandler)


class GmEndEffectHandler(_Gm):
    action = GmEndEffect

    def describe(self, act: GmEndEffect, who: str, names: Naming) -> str:
        return f"GM: effect {act.effect} ends"


register(GmEndEffectHandler)


class GmAddHandler(_Gm):
    action = GmAdd

    def describe(self, act: GmAdd, who: str, names: Naming) -> str:
        return f"GM: {act.creature} joins {act.side} at {act.pos[0]},{act.pos[1]}"


register(GmAddHandler)


class GmRemoveHandler(_Gm):
    action = GmRemove

    def describe(self, act: GmRemove, who: str, names: Naming) -> str:
        return f"GM: {names.who(act.target)} leaves the fight"


register(GmRemoveHandler)
