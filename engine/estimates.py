"""Cheap previews: one attack's odds and damage as the ruleset judges them, with no situation.

`engine.attacks.preview` works out everything the squares change (combat advantage,
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

from engine.attacks import AttackSetup, damage_expr, defense_value
from engine.battle import Battle
from engine.content.checks import threat_low
from engine.content.schema import Power
from engine.dice import DiceExpr
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


def estimate(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    power: Power,
    *,
    defense: int | None = None,
) -> Estimate | None:
    """`attacker`'s `power` on `target` with no situation (see the module docstring); None
    when it has no attack roll or deals no damage. `defense`: the number to beat (default:
    the target's defense as the attack would meet it: effects, flat-footed, prone,
    unconscious, touch; F-DEF-6, D-3, D-4)."""
    if power.attack is None or power.hit is None or power.hit.damage is None:
        return None
    rs = battle.ruleset
    weapon = attacker.weapon_for(power)
    vs = power.attack.vs
    if defense is None:
        touch = power.attack.touch
        defense = defense_value(battle, target, vs, attacker, power.kind, touch=touch)
    mods = tuple(rs.attack_modifiers(attacker, power, weapon))
    s = AttackSetup(mods, defense, False, False, "none", "none", threat_low(power, weapon), False)
    hit, crit = rs.odds(s)
    expr = damage_expr(battle, attacker, power.hit.damage, weapon)
    hit_dmg, crit_dmg = rs.damage_means(battle, attacker, target, power, weapon, expr)
    return Estimate(hit, crit, hit_dmg, crit_dmg, expr)
