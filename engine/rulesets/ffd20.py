"""Ruleset `ffd20`: the default rules of files 000 and 003 (F-* clauses, X-* additions)."""

from __future__ import annotations

from engine.content.schema import Power, Weapon
from engine.events import Mod
from engine.rulesets.base import Ruleset
from engine.state import Combatant


class Ffd20(Ruleset):
    name = "ffd20"

    def defense(self, c: Combatant, which: str, *, flat_footed: bool = False) -> int:
        cr = c.creature
        bonus: int = getattr(cr.defense_bonuses, which)
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

    def attack_modifiers(self, c: Combatant, power: Power, weapon: Weapon | None) -> list[Mod]:
        spec = power.attack
        assert spec is not None
        if spec.ability is None:  # a monster's stat block gives the whole bonus
            return [Mod("attack_bonus", spec.bonus)]
        cr = c.creature
        base = cr.level // 2 + cr.abilities.mod(spec.ability)  # F-ATK-2
        if weapon is not None:
            base += weapon.proficiency + weapon.enhancement
        return [Mod("attack_bonus", base + spec.bonus)]
