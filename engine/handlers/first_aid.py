"""First aid: the Heal check that stabilizes a dying creature (issue 16 item 2).

The specification names no way to stabilize the dying (S-10 only has death saving throws),
so this follows the usual 4e rule, documented as an addition (docs/content.md): a standard
action, the healer adjacent to a dying creature, d20 + the healer's `heal` skill against
DC 15; a success makes the creature stable (it makes no more death saving throws). A stable
creature that takes damage is dying again (`engine.hp.update_state`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import HealCheck, Impossible
from engine.events import Check
from engine.grid import adjacent
from engine.handlers.base import Handler, Naming, register, spend, spend_check
from engine.hp import stabilize
from engine.refusals import Refusal

if TYPE_CHECKING:
    from engine.battle import Battle
    from engine.encounter import Encounter
    from engine.state import Combatant

HEAL_DC = 15
"""The usual 4e DC of a Heal check for first aid (stabilizing the dying)."""


def heal_check_refusal(battle: Battle, c: Combatant, target_id: str) -> Impossible | None:
    """Why `c` can't try a Heal check on `target_id` now (the AI and the app ask this)."""
    t = battle.combatants.get(target_id)
    if t is None:
        return Impossible(f"no creature {target_id!r}", Refusal.BAD_TARGET)
    if t.state != "dying":
        return Impossible(f"{t.name} is not dying", Refusal.BAD_TARGET)
    if t.id == c.id or not adjacent(battle.squares(c), battle.squares(t)):
        return Impossible(f"{t.name} is not adjacent", Refusal.OUT_OF_RANGE)
    return None


def heal_check_odds(c: Combatant) -> float:
    """The chance that `c`'s Heal check succeeds (d20 + heal >= DC 15)."""
    need = HEAL_DC - c.creature.skills.heal
    return min(20, max(0, 21 - need)) / 20


class HealCheckHandler(Handler[HealCheck]):
    action = HealCheck

    def check(self, enc: Encounter, c: Combatant, act: HealCheck) -> Combatant:
        refusal = heal_check_refusal(enc.battle, c, act.target)
        if refusal is not None:
            raise refusal
        spend_check(enc, "standard", "a Heal check")
        return enc.battle[act.target]

    def perform(self, enc: Encounter, c: Combatant, act: HealCheck, plan: Combatant) -> None:
        b = enc.battle
        spend(enc, c, "standard", "heal_check")
        natural = b.d20(f"{c.name}: Heal check on {plan.name}", c.id)
        mod = c.creature.skills.heal
        ok = natural + mod >= HEAL_DC
        b.emit(Check(c.id, "heal", natural, mod, natural + mod, HEAL_DC, ok))
        if ok:
            stabilize(b, plan)

    def describe(self, act: HealCheck, who: str, names: Naming) -> str:
        return f"{who}: Heal check on {names.who(act.target)}"


register(HealCheckHandler)
