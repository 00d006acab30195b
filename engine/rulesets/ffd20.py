"""Ruleset `ffd20`: the default rules of files 000 and 003 (F-* clauses, X-* additions)."""

from __future__ import annotations

from engine.content.schema import Creature, Power, Weapon
from engine.events import Mod
from engine.rulesets.base import Ruleset
from engine.rulesets.bonuses import typed_total
from engine.state import Combatant


class Ffd20(Ruleset):
    name = "ffd20"

    def __init__(self) -> None:
        # Both numbers below are pure functions of frozen content, asked on every attack:
        # cached by the identity of the objects they come from (kept in the entry, so an id
        # can't be reused by another object while its entry lives).
        self._defenses: dict[tuple[int, str], tuple[Creature, int]] = {}
        self._bonuses: dict[
            tuple[int, int, int], tuple[Creature, Power, Weapon | None, tuple[Mod, ...]]
        ] = {}

    def defense(
        self, c: Combatant, which: str, *, flat_footed: bool = False, touch: bool = False
    ) -> int:
        cr = c.creature
        key = (id(cr), which)
        hit = self._defenses.get(key)
        if hit is not None and hit[0] is cr:
            return hit[1]
        value = self._defense(cr, which)
        self._defenses[key] = (cr, value)
        return value

    @staticmethod
    def _defense(cr: Creature, which: str) -> int:
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

    def attack_modifiers(self, c: Combatant, power: Power, weapon: Weapon | None) -> list[Mod]:
        cr = c.creature
        key = (id(cr), id(power), id(weapon))
        hit = self._bonuses.get(key)
        if hit is not None and hit[0] is cr and hit[1] is power and hit[2] is weapon:
            return list(hit[3])
        mods = self._attack_modifiers(c, power, weapon)
        self._bonuses[key] = (cr, power, weapon, tuple(mods))
        return mods

    @staticmethod
    def _attack_modifiers(c: Combatant, power: Power, weapon: Weapon | None) -> list[Mod]:
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
