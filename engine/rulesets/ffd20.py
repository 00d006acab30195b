"""Ruleset `ffd20`: the default rules of files 000 and 003 (F-* clauses, X-* additions)."""

from __future__ import annotations

from engine.content.schema import Creature, Power, Weapon
from engine.events import Mod
from engine.rulesets.base import Ruleset
from engine.rulesets.bonuses import typed_total
from engine.rulesets.registry import register
from engine.state import Combatant


class Ffd20(Ruleset):
    name = "ffd20"

    def _defense(self, cr: Creature, which: str, flat_footed: bool, touch: bool) -> int:
        return ffd20_defense(cr, which)

    def _attack_modifiers(self, c: Combatant, power: Power, weapon: Weapon | None) -> list[Mod]:
        return ffd20_attack_modifiers(c, power, weapon)


register(Ffd20)


def ffd20_defense(cr: Creature, which: str) -> int:
    """F-DEF-1..6 (d20srd computes the defenses other than AC this way too)."""
    bonus: int = getattr(cr.defense_bonuses, which)
    if cr.typed_bonuses:  # F-DEF-6: every kind adds (the texts state no stacking rule)
        bonus += typed_total(cr.typed_bonuses, which, None)
    if cr.defenses is not None:  # monsters: given (F-DEF-6 bonuses still add)
        given: int = getattr(cr.defenses, which)
        return given + bonus
    ab = cr.abilities
    base = 10 + cr.level // 2  # F-DEF-1
    shield = cr.shield.bonus if cr.shield else 0
    if which == "ac":  # F-DEF-2
        armor = cr.armor
        value = base + shield
        if armor is not None:
            value += armor.bonus + armor.enhancement
        if armor is None or armor.weight != "heavy":
            value += max(ab.mod("dex"), ab.mod("int"))
    elif which == "fortitude":  # F-DEF-3
        value = base + max(ab.mod("str"), ab.mod("con"))
    elif which == "reflex":  # F-DEF-4
        value = base + max(ab.mod("dex"), ab.mod("int")) + shield
    else:  # F-DEF-5
        value = base + max(ab.mod("wis"), ab.mod("cha"))
    return value + bonus


def ffd20_attack_modifiers(c: Combatant, power: Power, weapon: Weapon | None) -> list[Mod]:
    """F-ATK-2 (also what d20srd uses for a creature without a d20 stat block)."""
    spec = power.attack
    assert spec is not None
    cr = c.creature
    typed = [Mod("bonuses", typed_total(cr.typed_bonuses, "attack", None))]
    extra = typed if cr.typed_bonuses and typed[0].value else []
    if spec.ability is None:  # a monster's stat block gives the whole bonus
        return [Mod("attack_bonus", spec.bonus), *extra]
    base = cr.level // 2 + cr.abilities.mod(spec.ability)  # F-ATK-2
    if weapon is not None:
        base += weapon.proficiency + weapon.enhancement
    return [Mod("attack_bonus", base + spec.bonus), *extra]
