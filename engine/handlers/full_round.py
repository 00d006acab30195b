"""The full-round actions some rulesets have: the d20srd full attack (D-1) and the
4srd/d20srd withdraw (S-15). Their rules are `engine.full_round`; whether a ruleset has
them is the ruleset's own say (`Ruleset.full_attack`, `Ruleset.withdraw`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import FullAttack, Withdraw
from engine.full_round import check_full_attack, check_withdraw, full_attack, withdraw
from engine.handlers.base import Handler, register

if TYPE_CHECKING:
    from engine.encounter import Encounter
    from engine.state import Combatant


class FullAttackHandler(Handler[FullAttack]):
    action = FullAttack

    def check(self, enc: Encounter, c: Combatant, act: FullAttack) -> Any:
        return check_full_attack(enc, act)

    def perform(self, enc: Encounter, c: Combatant, act: FullAttack, plan: Any) -> None:
        full_attack(enc, act, plan)


register(FullAttackHandler)


class WithdrawHandler(Handler[Withdraw]):
    action = Withdraw

    def check(self, enc: Encounter, c: Combatant, act: Withdraw) -> int:
        return int(check_withdraw(enc, act))

    def perform(self, enc: Encounter, c: Combatant, act: Withdraw, plan: int) -> None:
        withdraw(enc, act, plan)


register(WithdrawHandler)
