"""Cheap previews: one attack's odds and damage as the ruleset judges them, with no situation.

`engine.preview.preview` works out everything the squares change (combat advantage,
flanking, cover, concealment, conditions) for an attack about to be made. Some questions are
about attacks that haven't a situation yet: the opportunity attack a path not yet walked
would draw, how much an enemy could deal next round. `estimate` answers those with the base
attack modifiers (F-ATK-2) against a defense, and the ruleset's own odds (threat ranges and
confirmation rolls, F-ATK-3..8, D-5, D-8) and damage means (criticals, extra critical dice,
sneak attack, damage reduction): the same numbers a preview uses, minus the situation. The
AI reads it; the rules stay here.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.attacks import AttackSetup, defense_value
from engine.battle import Battle
from engine.content.checks import threat_low
from engine.content.schema import Power, Weapon
from engine.dice import DiceExpr
from engine.events import Mod
from engine.preview import damage_expr
from engine.state import Combatant


@dataclass(frozen=True, slots=True)
class Estimate:
    """One attack roll's chances and the mean damage of each outcome."""

    hit: float
    """Chance of a hit of any kind, critical hits included."""
    crit: float
    hit_damage: float
    """Mean damage of a plain hit."""
    crit_damage: float
    """Mean damage of a critical hit."""
    damage: DiceExpr
    """The damage expression of a plain hit (for the chance to deal at least N)."""

    @property
    def expected(self) -> float:
        return (self.hit - self.crit) * self.hit_damage + self.crit * self.crit_damage


@dataclass(frozen=True, slots=True)
class AttackBase:
    """The attacker's side of `estimate`, the same whoever the target (worked out once when
    one attack is estimated against several targets)."""

    weapon: Weapon | None
    modifiers: tuple[Mod, ...]
    """The base attack modifiers (F-ATK-2)."""
    threat_low: int
    damage: DiceExpr


def attack_base(battle: Battle, attacker: Combatant, power: Power) -> AttackBase | None:
    """`attacker`'s `power` before a target is known; None when it has no attack roll or
    deals no damage."""
    if power.attack is None or power.hit is None or power.hit.damage is None:
        return None
    weapon = attacker.weapon_for(power)
    mods = tuple(battle.ruleset.attack_modifiers(attacker, power, weapon))
    expr = damage_expr(battle, attacker, power.hit.damage, weapon)
    return AttackBase(weapon, mods, threat_low(power, weapon), expr)


def estimate(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    power: Power,
    *,
    defense: int | None = None,
    base: AttackBase | None = None,
) -> Estimate | None:
    """`attacker`'s `power` on `target` with no situation (see the module docstring); None
    when it has no attack roll or deals no damage. `defense`: the number to beat (default:
    the target's defense as the attack would meet it: effects, flat-footed, prone,
    unconscious, touch; F-DEF-6, D-3, D-4). `base`: `attack_base(...)`, if already known."""
    if base is None:
        base = attack_base(battle, attacker, power)
    if base is None or power.attack is None:
        return None
    rs = battle.ruleset
    if defense is None:
        touch = power.attack.touch
        defense = defense_value(battle, target, power.attack.vs, attacker, power.kind, touch=touch)
    s = AttackSetup(base.modifiers, defense, False, False, "none", "none", base.threat_low, False)
    # The odds are a pure function of the setup (a loop over the d20's faces): kept.
    key = ("estimate-odds", s)
    odds = battle.memo.get(key)
    if odds is None:
        odds = battle.memo[key] = rs.odds(s)
    hit, crit = odds
    means = rs.damage_means(battle, attacker, target, power, base.weapon, base.damage)
    return Estimate(hit, crit, means[0], means[1], base.damage)
