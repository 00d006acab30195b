"""Ruleset `4srd`: the 4SRD "Combat I (Basics)" text, file 002 (clauses S-1..S-15).

What it changes against `ffd20` (the rest is shared, or `SrdRules` in `engine.rulesets.srd`):

- S-1 flat-footed until a combatant first acts: no Dex or Int bonus to AC (a penalty stays).
  A monster's printed AC is taken to include the higher of its Dex or Int modifiers (unless
  it wears heavy armor), which flat-footed takes away again.
- S-2 the surprise round allows one standard or one move action (no minor action).
- S-4 basic attacks: a basic melee attack or a heavy thrown weapon uses Str, a ranged weapon
  or a light thrown weapon (`handed: light`) uses Dex, whatever ability the power names
  ("specific powers give details": non-basic powers keep theirs). Attack bonus = one-half
  level + that modifier + the weapon's proficiency and enhancement (as F-ATK-2: the 4SRD
  names no other parts) + typed attack bonuses. Range penalty, this engine's choice (the text
  names one without defining it): a ranged or thrown weapon with a `range` takes -2 for each
  full or partial multiple of that range beyond it (range 10: 11-20 squares -2, 21-30 -4), up
  to the power's own range, which still limits targeting.
- S-5 a hit deals at least 1 damage.
- S-6 weapon damage with a melee or thrown weapon adds the Str modifier (a power that names
  another ability for its damage keeps that one).
- S-7 multiplied damage (`multiplier` on a power's damage) rolls the dice that many times and
  adds the bonuses once. Critical hits are not a multiplier in this text: they follow F-ATK-7
  (maximised damage), the default where the 4SRD is silent.
- S-8 defenses without one-half level: AC 10 + armor + shield (+ the higher of Dex or Int in
  light or no armor) + the armor's enhancement; Fortitude 10 + Str or Con; Reflex 10 + Dex or
  Int (no shield bonus in this text); Will 10 + Wis or Cha. Monsters' printed defenses stand.
- S-9 typed bonuses (`typed_bonuses`): the same type doesn't stack (the highest counts);
  untyped bonuses and penalties always add. The armor's enhancement is an enhancement bonus
  to AC and doesn't stack with other AC enhancement bonuses.
- S-11 a creature with a `race` and no `speed` of its own gets the race's speed: dwarf 5 (in
  any armor), gnome and halfling 5 (4 in heavy armor), elf 7 (6 in heavy armor), every other
  race 6 (5 in heavy armor). A written `speed` wins.
- S-13 initiative is a Dex check: d20 + Dex modifier (no half level); a monster's given
  `initiative` stands. Ties as in ffd20 (modifier, then roll-off).
- S-14, S-15: `SrdRules`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.content.schema import Ability, Creature, DamageSpec, Power, Weapon
from engine.events import Mod
from engine.grid import distance
from engine.rulesets.base import TURN_ACTIONS
from engine.rulesets.bonuses import by_type, combine, typed_total
from engine.rulesets.registry import register
from engine.rulesets.srd import SrdRules
from engine.state import Combatant

if TYPE_CHECKING:
    from engine.battle import Battle

Square = tuple[int, int]
RACE_SPEED = {"dwarf": (5, 5), "gnome": (5, 4), "halfling": (5, 4), "elf": (7, 6)}
"""S-11: (speed, speed in heavy armor) by race; any other race (6, 5)."""
STACKING = frozenset({"untyped"})


class Srd4(SrdRules):
    name = "4srd"
    stacking = STACKING
    situational = True  # S-4: range penalties by distance

    # --- S-8, S-9, S-1 ------------------------------------------------------------------------
    def _defense(self, cr: Creature, which: str, flat_footed: bool, touch: bool) -> int:
        ab = cr.abilities
        light = cr.armor is None or cr.armor.weight != "heavy"
        dex_int = max(ab.mod("dex"), ab.mod("int"))
        bonus: int = getattr(cr.defense_bonuses, which)
        typed = by_type(cr.typed_bonuses, which)
        enhancement = typed.pop("enhancement", [])
        bonus += sum(combine(v, k == "untyped") for k, v in typed.items())
        if cr.defenses is not None:  # a monster's printed defenses (S-9 bonuses still add)
            value: int = getattr(cr.defenses, which) + bonus + combine(enhancement, False)
            if which == "ac" and flat_footed and light:
                value -= max(0, dex_int)  # S-1: the printed AC's Dex/Int share
            return value
        if which == "ac":
            value = 10
            if cr.armor is not None:
                value += cr.armor.bonus
                enhancement = [*enhancement, cr.armor.enhancement]
            if cr.shield is not None:
                value += cr.shield.bonus
            if light:
                value += min(0, dex_int) if flat_footed else dex_int  # S-1
        elif which == "fortitude":
            value = 10 + max(ab.mod("str"), ab.mod("con"))
        elif which == "reflex":
            value = 10 + dex_int
        else:
            value = 10 + max(ab.mod("wis"), ab.mod("cha"))
        return value + combine(enhancement, False) + bonus

    # --- S-4 ----------------------------------------------------------------------------------
    def _attack_modifiers(self, c: Combatant, power: Power, weapon: Weapon | None) -> list[Mod]:
        spec = power.attack
        assert spec is not None
        cr = c.creature
        mods: list[Mod]
        if spec.ability is None:  # a monster's stat block gives the whole bonus
            mods = [Mod("attack_bonus", spec.bonus)]
        else:
            ability: Ability = spec.ability
            if power.basic and weapon is not None:
                ability = basic_attack_ability(power, weapon)
            base = cr.level // 2 + cr.abilities.mod(ability)
            if weapon is not None:
                base += weapon.proficiency + weapon.enhancement
            mods = [Mod("attack_bonus", base + spec.bonus)]
        if cr.typed_bonuses:
            typed = typed_total(cr.typed_bonuses, "attack", STACKING)
            if typed:
                mods.append(Mod("bonuses", typed))
        return mods

    def situational_modifiers(
        self,
        battle: Battle,
        attacker: Combatant,
        target: Combatant,
        power: Power,
        weapon: Weapon | None,
        a_sq: tuple[Square, ...],
        t_sq: tuple[Square, ...],
    ) -> list[Mod]:
        penalty = range_penalty(power, weapon, distance(a_sq, t_sq))
        return [Mod("range", penalty)] if penalty else []

    # --- S-6 ----------------------------------------------------------------------------------
    def damage_bonus(self, c: Combatant, spec: DamageSpec, weapon: Weapon | None) -> int:
        cr = c.creature
        ability = spec.ability
        melee = weapon is not None and weapon.kind in ("melee", "thrown")
        if melee and "[W]" in spec.dice.upper() and ability in (None, "str", "dex"):
            ability = "str"  # S-6
        bonus = cr.abilities.mod(ability) if ability is not None else 0
        if cr.typed_bonuses:
            bonus += typed_total(cr.typed_bonuses, "damage", STACKING)
        return bonus

    # --- S-2, S-11, S-13 -------------------------------------------------------------------
    def turn_actions(self, battle: Battle) -> tuple[str, ...]:
        return ("standard", "move") if battle.surprise_round else TURN_ACTIONS

    def base_speed(self, c: Combatant) -> int:
        cr = c.creature
        speed = cr.speed
        if cr.race is not None and "speed" not in cr.model_fields_set:
            normal, heavy = RACE_SPEED.get(cr.race.strip().lower(), (6, 5))
            speed = heavy if cr.armor is not None and cr.armor.weight == "heavy" else normal
        if cr.typed_bonuses:
            speed += typed_total(cr.typed_bonuses, "speed", STACKING)
        return speed

    def initiative_modifier(self, c: Combatant) -> int:
        cr = c.creature
        if cr.initiative is not None:
            return cr.initiative
        return cr.abilities.mod("dex")


register(Srd4)


def basic_attack_ability(power: Power, weapon: Weapon) -> Ability:
    """S-4: Str for a basic melee attack or a heavy thrown weapon, Dex for a ranged weapon or
    a light thrown one."""
    if power.kind != "ranged":
        return "str"
    if weapon.kind == "thrown":
        return "dex" if weapon.handed == "light" else "str"
    return "dex"


def range_penalty(power: Power, weapon: Weapon | None, dist: int) -> int:
    """S-4: -2 per range increment of the weapon beyond its range (this engine's choice)."""
    if power.kind != "ranged" or weapon is None or weapon.range is None:
        return 0
    if weapon.kind not in ("ranged", "thrown") or dist <= weapon.range:
        return 0
    steps = -(-(dist - weapon.range) // weapon.range)
    return -2 * steps
