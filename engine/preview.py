"""What an attack is expected to do, before it is made: the damage expression, the odds of the
roll's outcome and the preview a player confirms and the AI scores.

Every number comes from the roll's own setup (`engine.attacks.setup` and its parts), so what
a player is told before attacking is what the engine then does; the AI keeps the per-target
and per-power part of a preview (`damage_part`) a decision long and works out only the odds
and the arithmetic per square (`preview_at`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from engine.attacks import AttackSetup, setup
from engine.battle import Battle
from engine.content.schema import DamageSpec, Power, Weapon
from engine.dice import DiceExpr
from engine.events import Mod
from engine.immunity import immune_to_damage, immune_to_effects
from engine.rulesets import Ruleset
from engine.state import Combatant

Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class AttackPreview:
    """What a player sees before confirming, and what the AI scores."""

    hit: float
    """Chance to hit, critical hits included."""
    crit: float
    expected_damage: float
    setup: AttackSetup
    damage: str
    immune_damage: bool = False
    """The target takes none of this damage: immune to each of its types (issue 16)."""
    immune_effects: str | None = None
    """The keyword of the power the target is immune to: none of its effects land."""


def damage_expr(
    battle: Battle,
    attacker: Combatant,
    spec: DamageSpec,
    weapon: Weapon | None,
    *,
    multiply: bool = True,
) -> DiceExpr:
    """F-DMG-1: dice (n[W]) + ability modifier + enhancement + bonuses, as one expression.

    The ability part is the ruleset's (S-6, D-7); a `multiplier` multiplies it the ruleset's
    way (S-7, D-9) unless `multiply` is False (d20srd adds a critical's multiplier to it)."""
    wdice = DiceExpr.parse(weapon.dice) if weapon is not None else None
    expr = DiceExpr.parse(spec.dice, wdice)
    const = spec.bonus + battle.modifier(attacker, "damage")
    const += battle.ruleset.damage_bonus(attacker, spec, weapon)
    if weapon is not None and "[W]" in spec.dice.upper():
        const += weapon.enhancement
    expr = expr.with_constant(const)
    if multiply and spec.multiplier > 1:
        expr = battle.ruleset.multiply(expr, spec.multiplier)
    return expr


def outcome_odds(s: AttackSetup, ruleset: Ruleset | None = None) -> tuple[float, float]:
    """(chance of a hit of any kind, chance of a critical hit) for one d20, as `ruleset`
    judges it (d20srd: meet-or-beat and a confirmation roll); default: F-ATK-3..8."""
    if ruleset is not None:
        return ruleset.odds(s)
    return _kept_odds(s.defense - s.bonus, s.crit_low, s.coup_de_grace)


def _odds(need: int, crit_low: int, coup_de_grace: bool) -> tuple[float, float]:
    """`outcome_odds` of the default rules, worked out: F-ATK-3..8 over the 19 faces but 1."""
    hit = crit = 0
    for nat in range(2, 21):
        reaches = nat >= need
        if nat >= crit_low and reaches:
            crit += 1
        elif nat == 20 or reaches:
            hit += 1
            if coup_de_grace and reaches:
                crit, hit = crit + 1, hit - 1
    return (hit + crit) / 20, crit / 20


_kept_odds = lru_cache(maxsize=4096)(_odds)
"""`_odds` kept by what it reads of a setup: a preview asks it for every square part the AI
scores, and the answer is one of a few dozen (tests/engine/test_attack_parts.py compares
`outcome_odds` with `_odds` worked out)."""


def preview(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    power: Power,
    origin: tuple[Square, ...] | None = None,
    at: Square | None = None,
    extra: tuple[Mod, ...] = (),
) -> AttackPreview | None:
    """Odds and expected damage of `power` against `target` (None if it makes no attack).

    `at`: as if the attacker stood at that square (top-left), for the AI; `extra`: further
    attack modifiers (a full attack's iterative -5s). Reads only."""
    if power.attack is None:
        return None
    weapon = attacker.weapon_for(power)
    s = setup(battle, attacker, target, power, weapon, origin, at=at, extra=extra)
    return preview_of(battle, attacker, target, power, weapon, s)


def preview_of(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    power: Power,
    weapon: Weapon | None,
    s: AttackSetup,
) -> AttackPreview:
    """`preview` of a setup already made (the AI composes it from parts it keeps)."""
    spec = power.hit.damage if power.hit is not None else None
    expr = damage_expr(battle, attacker, spec, weapon) if spec is not None else None
    return preview_at(damage_part(battle, attacker, target, power, weapon, expr), s, battle.ruleset)


class DamagePart(NamedTuple):
    """What a preview reads of a power and its target besides the odds: fixed while neither
    creature's effects change, so the AI works it out once per (power, target) a decision
    and only the odds per square (`preview_at`)."""

    means: tuple[float, float] | None
    """The ruleset's mean damage of a hit and of a critical hit (None: no damage)."""
    text: str
    half_miss: float | None
    """Half the mean damage, dealt on a miss (None: nothing on a miss, or a minion)."""
    weakened: bool
    insubstantial: bool
    resist: int | None
    """The least resistance among the damage's types, when it resists every one."""
    vulnerable: int
    immune: bool
    keyword: str | None


def damage_part(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    power: Power,
    weapon: Weapon | None,
    expr: DiceExpr | None,
) -> DamagePart:
    """The `DamagePart` of `power` on `target`; `expr`: its damage expression (`damage_expr`;
    None when it deals no damage)."""
    keyword = immune_to_effects(target.creature, power)
    spec = power.hit.damage if power.hit is not None else None
    if spec is None or expr is None:
        return DamagePart(None, "", None, False, False, None, 0, False, keyword)
    cr = target.creature
    types = spec.types
    half = power.miss is not None and power.miss.half_damage and not cr.minion
    resisted = bool(types) and all(ty in cr.resist for ty in types)
    return DamagePart(
        battle.ruleset.damage_means(battle, attacker, target, power, weapon, expr),
        str(expr),
        expr.mean() / 2 if half else None,
        battle.has(attacker, "weakened"),
        battle.has(target, "insubstantial"),
        min(cr.resist[ty] for ty in types) if resisted else None,
        sum(cr.vulnerable.get(ty, 0) for ty in types),
        immune_to_damage(cr, types),
        keyword,
    )


def preview_at(d: DamagePart, s: AttackSetup, ruleset: Ruleset) -> AttackPreview:
    """The preview of setup `s`: its odds (F-ATK-4, F-ATK-6) and the expected damage of the
    power's `DamagePart` (half on a miss, weakened, insubstantial, resistance, vulnerability,
    immunity)."""
    p_hit, p_crit = outcome_odds(s, ruleset)
    expected = 0.0
    immune = False
    if d.means is not None:
        hit_dmg, crit_dmg = d.means
        expected = (p_hit - p_crit) * hit_dmg + p_crit * crit_dmg
        if d.half_miss is not None:
            expected += (1 - p_hit) * d.half_miss
        if d.weakened:
            expected /= 2
        if d.insubstantial:
            expected /= 2
        if d.resist is not None:
            expected = max(0.0, expected - p_hit * d.resist)
        expected += p_hit * d.vulnerable
        immune = d.immune
    if immune:
        expected = 0.0
    return AttackPreview(p_hit, p_crit, expected, s, d.text, immune, d.keyword)
