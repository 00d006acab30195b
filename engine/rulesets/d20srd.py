"""Ruleset `d20srd`: the d20 3.5 attack calculation of file 004 (clauses D-1..D-11).

What it changes against `ffd20` (opportunity attacks, flat-footed, the 5-foot step and
withdraw are `SrdRules`, shared with `4srd`; what file 004 doesn't cover, such as hit points
and dying, saving throws and Fortitude/Reflex/Will, follows `ffd20`):

- D-1 a creature with a `bab` attacks with d20 + base attack bonus + Str (melee; Dex with the
  `weapon_finesse` feat when the weapon is light, `finesse`, or a natural attack, and Dex is
  higher) or Dex (ranged) + size (small +1, large -1) + 1 with Weapon Focus (`focus: true`
  on the weapon) - 4 with a weapon it is not `proficient` with - the armor check penalty of
  armor it is not proficient with, + the weapon's enhancement and the power's own `bonus`.
  A full attack (`FullAttack`, a full-round action) makes one attack per 5 points of base
  attack bonus (+6 gives two), each further one at -5 more. A creature without `bab` keeps
  its ffd20 attack bonus (so ffd20 content plays under this ruleset unchanged).
- D-2 AC = 10 + armor + shield + Dex (capped by the armor's `max_dex`) + size + deflection
  + natural armor + dodge, and untyped or other typed bonuses. Armor, shield, deflection and
  natural armor bonuses (the `armor`/`shield` objects and `typed_bonuses` of those types)
  don't stack with themselves: the highest counts. Dodge bonuses stack. A creature with
  printed `defenses` keeps its printed AC, which is taken to include those components.
- D-3 a touch attack (`attack: {touch: true}`) ignores armor, shield and natural armor
  bonuses, enhancements included.
- D-4 flat-footed (until it first acts): no Dex bonus and no dodge bonus to AC;
  `uncanny_dodge` keeps the Dex bonus.
- D-5 the attack hits when its total MEETS or beats the AC. The seed text says "exceeds";
  the d20 SRD itself and the other two seed texts say "equals or beats", which this engine
  follows (CLAUSES.md D-5).
- D-6 natural 20 hits, natural 1 misses.
- D-8 a hit whose natural roll is in the weapon's threat range (`crit_range`: 19 for 19-20)
  is a threat: a confirmation d20 with the same modifiers against the same AC (a natural 20
  confirms, a natural 1 doesn't) makes it a critical hit, logged as `confirm`.
- D-9 a critical hit rolls the damage, modifiers included, `crit_multiplier` times; several
  multipliers add their rolls: a x2 critical on a power with `multiplier: 3` is 2 + 3 = 5
  rolls (2d6 + 3d6 = 5d6, the seed's own example). Multiplied damage outside a critical
  (`multiplier`) multiplies the modifiers too.
- D-10 extra dice from other sources (`sneak_attack`, against a flat-footed target without
  Uncanny Dodge or a flanked one, in melee or within 6 squares) are added once, never
  multiplied: 2d8 + 1d6 on a x2 critical. A weapon's `crit_dice` is such extra dice too.
- D-7 weapon damage adds Str with melee and thrown weapons: half of a Str bonus in the off
  hand, one and a half times it with a two-handed weapon (a penalty counts once); ranged
  weapons add none. A hit deals at least 1 (before damage reduction).
- D-11 `damage_reduction` (DR N/-) subtracts N from untyped damage after everything else,
  down to 0; typed (energy) damage ignores it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.content.schema import Ability, Creature, DamageSpec, Power, Weapon
from engine.dice import DiceExpr
from engine.events import Mod
from engine.grid import distance
from engine.rulesets.base import ExtraAction, Outcome
from engine.rulesets.bonuses import by_type, combine, typed_total
from engine.rulesets.ffd20 import ffd20_attack_modifiers, ffd20_defense
from engine.rulesets.registry import register
from engine.rulesets.srd import SrdRules
from engine.state import Combatant

if TYPE_CHECKING:
    from engine.attacks import AttackSetup
    from engine.battle import Battle

SIZE_MODIFIER = {"small": 1, "medium": 0, "large": -1}
STACKING = frozenset({"untyped", "dodge"})
AC_TYPES = frozenset({"armor", "shield", "deflection", "natural", "dodge"})
SNEAK_RANGE = 6
"""Sneak attack with a ranged attack only within 30 feet (6 squares)."""


class AcParts:
    """The components of a creature's AC (D-2), each already combined by its stacking rule."""

    __slots__ = ("armor", "deflection", "dex", "dodge", "natural", "other", "shield", "size")

    def __init__(self, cr: Creature) -> None:
        typed = by_type(cr.typed_bonuses, "ac")
        armor = [cr.armor.bonus + cr.armor.enhancement] if cr.armor is not None else []
        shield = [cr.shield.bonus] if cr.shield is not None else []
        self.armor = combine([*armor, *typed.get("armor", [])], False)
        self.shield = combine([*shield, *typed.get("shield", [])], False)
        self.deflection = combine(typed.get("deflection", []), False)
        self.natural = combine(typed.get("natural", []), False)
        self.dodge = combine(typed.get("dodge", []), True)
        dex = cr.abilities.mod("dex")
        if cr.armor is not None and cr.armor.max_dex is not None:
            dex = min(dex, cr.armor.max_dex)
        self.dex = dex
        self.size = SIZE_MODIFIER[cr.size]
        self.other = typed_total(cr.typed_bonuses, "ac", STACKING, skip=AC_TYPES)

    @property
    def total(self) -> int:
        return (
            self.armor + self.shield + self.dex + self.size + self.deflection + self.natural
            + self.dodge + self.other
        )  # fmt: skip


FULL_ATTACK = ExtraAction(
    "full_attack",
    "Full attack",
    "a full-round action: every attack the base attack bonus gives, each further one at -5",
    "D-1",
)


class D20Srd(SrdRules):
    name = "d20srd"
    maximize_crit_damage = False
    coup_de_grace_crits = False  # a critical hit needs its confirmation roll (D-8)
    stacking = STACKING
    extra_actions = (*SrdRules.extra_actions, FULL_ATTACK)

    # --- D-2, D-3, D-4 ------------------------------------------------------------------------
    def _defense(self, cr: Creature, which: str, flat_footed: bool, touch: bool) -> int:
        bonus: int = getattr(cr.defense_bonuses, which)
        if which != "ac":  # file 004 has only AC: the others as ffd20 computes them
            typed = typed_total(cr.typed_bonuses, which, STACKING)
            if cr.defenses is not None:
                given: int = getattr(cr.defenses, which)
                return given + bonus + typed
            return ffd20_defense(cr.model_copy(update={"typed_bonuses": []}), which) + typed
        parts = AcParts(cr)
        if cr.defenses is not None:
            value = cr.defenses.ac + bonus
        else:
            value = 10 + parts.total + bonus
        if flat_footed:  # D-4
            if "uncanny_dodge" not in cr.feats:
                value -= max(0, parts.dex)
            value -= max(0, parts.dodge)
        if touch:  # D-3
            value -= parts.armor + parts.shield + parts.natural
        return value

    # --- D-1 ----------------------------------------------------------------------------------
    def _attack_modifiers(self, c: Combatant, power: Power, weapon: Weapon | None) -> list[Mod]:
        spec = power.attack
        assert spec is not None
        cr = c.creature
        if cr.bab is None:  # not a d20 stat block: its ffd20 bonus
            return ffd20_attack_modifiers(c, power, weapon)
        mods = [Mod("attack_bonus", cr.bab)]
        ability = attack_ability(cr, power, weapon)
        if ability is not None:
            mods.append(Mod(ability, cr.abilities.mod(ability)))
        mods.append(Mod("size", SIZE_MODIFIER[cr.size]))
        if weapon is not None:
            if weapon.focus and "weapon_focus" in cr.feats:
                mods.append(Mod("weapon_focus", 1))
            if not weapon.proficient:
                mods.append(Mod("nonproficient", -4))
            mods.append(Mod("enhancement", weapon.enhancement))
        if cr.armor is not None and not cr.armor.proficient:
            mods.append(Mod("armor_check", -cr.armor.check_penalty))
        mods.append(Mod("power", spec.bonus))
        mods.append(Mod("bonuses", typed_total(cr.typed_bonuses, "attack", STACKING)))
        return [m for i, m in enumerate(mods) if i == 0 or m.value]

    def attack_count(self, c: Combatant) -> int:
        """D-1: +6 base attack bonus gives a second attack, +11 a third, +16 a fourth."""
        bab = c.creature.bab
        return 1 if bab is None else 1 + max(0, (bab - 1) // 5)

    def iterative_penalty(self, i: int) -> int:
        """D-1: each attack after the first of a full attack at -5 more."""
        return -5 * i

    # --- D-5, D-6, D-8 ------------------------------------------------------------------------
    def outcome(self, natural: int, total: int, defense: int, crit_low: int) -> Outcome:
        """D-5, D-6: meet or beat; natural 20 hits, 1 misses. A critical needs D-8."""
        if natural == 1:
            return "miss"
        return "hit" if natural == 20 or total >= defense else "miss"

    def confirm_threat(
        self, battle: Battle, attacker: Combatant, natural: int, outcome: str, s: AttackSetup
    ) -> tuple[str, dict[str, Any] | None]:
        if outcome != "hit" or natural < s.crit_low:
            return outcome, None
        face = battle.d20(f"{attacker.name}: confirm the critical threat", attacker.id)
        total = face + s.bonus
        confirmed = face != 1 and (face == 20 or total >= s.defense)
        return ("crit" if confirmed else "hit"), {
            "natural": face,
            "total": total,
            "confirmed": confirmed,
        }

    def odds(self, s: AttackSetup) -> tuple[float, float]:
        need = s.defense - s.bonus
        hits = [nat for nat in range(2, 21) if nat == 20 or nat >= need]
        p_hit = len(hits) / 20
        threats = sum(1 for nat in hits if nat >= s.crit_low)
        return p_hit, threats / 20 * p_hit  # the confirmation hits as often as the attack

    # --- D-7, D-9, D-10, D-11 -----------------------------------------------------------------
    def damage_bonus(self, c: Combatant, spec: DamageSpec, weapon: Weapon | None) -> int:
        cr = c.creature
        if weapon is not None and "[W]" in spec.dice.upper():
            bonus = 0
            if weapon.kind in ("melee", "thrown"):
                bonus = strength_damage(cr.abilities.mod("str"), weapon)
        else:
            bonus = cr.abilities.mod(spec.ability) if spec.ability is not None else 0
        if cr.typed_bonuses:
            bonus += typed_total(cr.typed_bonuses, "damage", STACKING)
        return bonus

    def multiply(self, expr: DiceExpr, times: int) -> DiceExpr:
        """D-9: the whole roll again, modifiers included."""
        return expr.times(times).with_constant(expr.constant * (times - 1))

    def critical_expr(self, base: DiceExpr, spec: DamageSpec, weapon: Weapon | None) -> DiceExpr:
        """D-9: the critical multiplier's rolls plus any other multiplier's (they add)."""
        times = weapon.crit_multiplier if weapon is not None else 2
        if spec.multiplier > 1:
            times += spec.multiplier
        return self.multiply(base, times)

    def sneak_dice(
        self, battle: Battle, attacker: Combatant, target: Combatant, power: Power
    ) -> DiceExpr | None:
        """D-10: sneak attack dice, when the target can't defend itself against it."""
        dice = attacker.creature.sneak_attack
        if dice is None or power.kind not in ("melee", "ranged"):
            return None
        far = distance(battle.squares(attacker), battle.squares(target)) > SNEAK_RANGE
        if power.kind == "ranged" and far:
            return None
        from engine.flanking import flanking

        denied = battle.has(target, "flat_footed") and "uncanny_dodge" not in target.creature.feats
        if denied or flanking(battle, attacker, target):
            return DiceExpr.parse(dice)
        return None

    def damage_roll(
        self,
        battle: Battle,
        attacker: Combatant,
        target: Combatant,
        power: Power,
        spec: DamageSpec,
        weapon: Weapon | None,
        outcome: str,
    ) -> tuple[str, tuple[int, ...], int, dict[str, Any] | None] | None:
        if outcome not in ("hit", "crit"):
            return None
        sneak = self.sneak_dice(battle, attacker, target, power)
        if outcome == "hit" and sneak is None:
            return None  # the shared roll (one per power use)
        from engine.preview import damage_expr

        if outcome == "crit":
            base = damage_expr(battle, attacker, spec, weapon, multiply=False)
            expr = self.critical_expr(base, spec, weapon)
        else:
            expr = damage_expr(battle, attacker, spec, weapon)
        if sneak is not None:
            expr = expr.plus(sneak)
        roll = battle.roll(expr, f"{attacker.name}: {power.name} damage ({expr})", attacker.id)
        total = roll.total
        crit_extra = None
        if outcome == "crit" and weapon is not None and weapon.crit_dice:
            ce = battle.roll(
                DiceExpr.parse(weapon.crit_dice), f"{attacker.name}: extra damage", attacker.id
            )
            crit_extra = {"dice": str(ce.expr), "rolls": list(ce.faces), "value": ce.total}
            total += ce.total
        return str(expr), tuple(roll.faces), total, crit_extra

    def damage_means(
        self,
        battle: Battle,
        attacker: Combatant,
        target: Combatant,
        power: Power,
        weapon: Weapon | None,
        expr: DiceExpr,
    ) -> tuple[float, float]:
        from engine.preview import damage_expr

        spec = power.hit.damage if power.hit is not None else None
        if spec is None:
            return expr.mean(), expr.mean()
        crit = self.critical_expr(
            damage_expr(battle, attacker, spec, weapon, multiply=False), spec, weapon
        ).mean()
        if weapon is not None and weapon.crit_dice:
            crit += DiceExpr.parse(weapon.crit_dice).mean()
        hit = max(1.0, expr.mean())
        sneak = self.sneak_dice(battle, attacker, target, power)
        extra = sneak.mean() if sneak is not None else 0.0
        dr = self.damage_reduction(target, tuple(spec.types))
        return max(0.0, hit + extra - dr), max(0.0, crit + extra - dr)

    def damage_reduction(self, target: Combatant, types: tuple[str, ...]) -> int:
        return target.creature.damage_reduction if not types else 0


register(D20Srd)


def attack_ability(cr: Creature, power: Power, weapon: Weapon | None) -> Ability | None:
    """D-1: Str in melee (Dex with Weapon Finesse, a light or finesse weapon or a natural
    attack, and the better Dex), Dex at range; close and area powers name their own."""
    if power.kind == "melee":
        ab = cr.abilities
        light = weapon is None or weapon.handed == "light" or weapon.finesse
        if "weapon_finesse" in cr.feats and light and ab.mod("dex") > ab.mod("str"):
            return "dex"
        return "str"
    if power.kind == "ranged":
        return "dex"
    assert power.attack is not None
    return power.attack.ability


def strength_damage(mod: int, weapon: Weapon) -> int:
    """D-7: half a Str bonus in the off hand, one and a half with a two-handed weapon."""
    if mod <= 0:
        return mod
    if weapon.off_hand:
        return mod // 2
    if weapon.handed == "two":
        return mod * 3 // 2
    return mod
