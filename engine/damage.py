"""The damage of a power's hit, miss or effect (F-DMG-1..5, F-DMG-10, F-ATK-7): the roll, its
adjustments and the hit points it takes (`engine.hp.deal_damage`).

What a damage roll's adjustments read besides the roll itself (the expression, halving,
the ruleset's minimum, damage reduction, whether anything adjusts it at all) is a
`DamagePlan`, kept per battle for each (attacker, target, damage, outcome) and keyed by
everything it reads (`damage_plan`); a hit then rolls and deals. `engine.powers` calls
`deal_power_damage` for every hit, miss and effect that deals damage.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.battle import Battle
from engine.content.schema import DamageSpec, Outcome, Power, Weapon
from engine.dice import DiceExpr, Roll, roll
from engine.events import Mod
from engine.hints import damage_hint, damage_moot, halve_notes, resist_notes
from engine.hp import adjust, deal_damage
from engine.immunity import immune_to_damage
from engine.preview import damage_expr
from engine.state import Combatant


class Shared:
    """Damage is rolled once per power use and applied to every target it hits. (A plain
    class with slots: one is made for every attack.)"""

    __slots__ = ("crit_extra", "roll", "targets")

    def __init__(self, targets: int = 1) -> None:
        self.roll: Roll | None = None
        self.crit_extra: Roll | None = None
        self.targets = targets
        """How many creatures the one damage roll may reach (a roll that could matter to a
        second target is never moot: `engine.hints.damage_moot`)."""


def deal_power_damage(
    battle: Battle,
    c: Combatant,
    target: Combatant,
    power: Power,
    spec: Outcome,
    weapon: Weapon | None,
    shared: Shared,
    outcome: str,
) -> None:
    """`power`'s damage from `spec` (a hit, a miss or its effect) on `target`."""
    dspec = spec.damage
    if dspec is None:  # half damage on a miss uses the hit's damage (F-DMG-10)
        assert power.hit is not None and power.hit.damage is not None
        dspec = power.hit.damage
    if outcome == "miss" and target.creature.minion:
        return  # minions never take damage from a miss
    plan = damage_plan(battle, c, target, spec, dspec, weapon, outcome)
    expr, text = plan.expr, plan.text
    rs = battle.ruleset
    crit = outcome == "crit"
    crit_extra = None
    rolls: tuple[int, ...]
    own = None
    if rs.rolls_damage:  # d20srd: critical multipliers, sneak attack (D-9, D-10)
        own = rs.damage_roll(battle, c, target, power, dspec, weapon, outcome)
    if own is not None:
        text, rolls, rolled_total, crit_extra = own
    elif crit and rs.maximize_crit_damage:  # F-ATK-7
        rolled_total, rolls = expr.max(), ()
        if weapon is not None and weapon.crit_dice:
            if shared.crit_extra is None:
                extra = DiceExpr.parse(weapon.crit_dice)
                shared.crit_extra = battle.roll(extra, f"{c.name}: extra critical damage", c.id)
            ce = shared.crit_extra
            crit_extra = {"dice": str(ce.expr), "rolls": list(ce.faces), "value": ce.total}
            rolled_total += ce.total
    else:
        if shared.roll is None:
            shared.roll = _roll_damage(battle, c, target, power, plan, shared.targets)
        rolled_total, rolls = shared.roll.total, shared.roll.faces
    deal_planned(
        battle, c, target, power, plan, outcome, text, rolled_total, tuple(rolls), crit_extra
    )


def deal_planned(
    battle: Battle,
    c: Combatant,
    target: Combatant,
    power: Power,
    plan: DamagePlan,
    outcome: str,
    text: str,
    rolled: int,
    rolls: tuple[int, ...],
    crit_extra: dict[str, object] | None = None,
) -> None:
    """A rolled total of `plan`'s damage, adjusted (F-DMG-1..5) and dealt to `target`."""
    if plan.plain and not target.temp_hp:  # nothing adjusts it (`DamagePlan.plain`)
        mods: list[Mod] = []
    else:
        mods = adjust(
            battle,
            target,
            rolled,
            plan.types,
            halve=plan.halve,
            minimum=plan.minimum,
            reduction=plan.reduction,
        )
    deal_damage(
        battle,
        target,
        source=c,
        power=power.id,
        cause=_CAUSE.get(outcome, "effect"),
        dice=text,
        rolls=rolls,
        rolled=rolled,
        types=plan.types,
        adjustments=mods,
        crit_extra=crit_extra,
    )


def _roll_damage(
    battle: Battle, c: Combatant, target: Combatant, power: Power, plan: DamagePlan, targets: int
) -> Roll:
    """The damage roll of the plan's expression (F-DMG-1), shared by the targets it hits."""
    expr, text, halve, minimum, types, dr = plan[:6]
    roller: str | None = c.id
    dice = battle.dice
    if dice.quiet:  # nobody reads the purpose (`RecordingDice.quiet`)
        return roll(expr, dice, "", roller)
    if dice.explains and targets == 1:  # a person would roll it
        floor = adjust(
            battle, target, expr.min(), types, halve=halve, minimum=minimum, reduction=dr
        )
        if damage_moot(battle, target, expr.min() + sum(m.value for m in floor)):
            roller = None  # no face changes the outcome: the app rolls it (item 21)
    return battle.roll(
        expr,
        f"{c.name}: {power.name} damage ({text})",
        roller,
        hint=lambda: damage_hint(expr, _notes(list(halve), target, types)),
    )


class DamagePlan(NamedTuple):
    """What a damage roll's adjustments read besides the roll (F-DMG-1..5): kept per battle
    by `damage_plan`."""

    expr: DiceExpr
    text: str
    halve: tuple[str, ...]
    """Half on a miss (F-DMG-10), a weakened attacker, an insubstantial target, in order."""
    minimum: int
    """The ruleset's least damage of a hit (4srd S-5, d20srd D-7), else 0."""
    types: tuple[str, ...]
    reduction: int
    """d20srd D-11."""
    plain: bool
    """Nothing adjusts the roll but temporary hit points: no halving, immunity, resistance,
    vulnerability, minimum or reduction (`engine.hp.adjust` would return no change)."""


def damage_plan(
    battle: Battle,
    c: Combatant,
    target: Combatant,
    spec: Outcome,
    dspec: DamageSpec,
    weapon: Weapon | None,
    outcome: str,
) -> DamagePlan:
    """The `DamagePlan` of `dspec` (from `spec`) dealt by `c` to `target` on `outcome`.

    Kept per battle (`Battle.memo`), keyed by everything it reads: the attacker's damage
    expression (`_expression`: the version of the effects on it, its creature), both
    creatures' conditions (weakened, insubstantial: keyed by what they are worked out from,
    `engine.attacks.condition_inputs`), the target's
    creature (immunities, resistances, vulnerabilities, damage reduction), the specs and the
    weapon (by identity), the outcome and the ruleset.
    tests/engine/test_attack_fast.py compares it with `_damage_plan` over random fights."""
    versions = battle.effects.target_version
    check = (  # `engine.attacks.condition_inputs` of both, inlined (on every hit)
        versions.get(c.id, 0),
        c.state,
        c.acted,
        c.surprised,
        c.creature,
        versions.get(target.id, 0),
        target.state,
        target.acted,
        target.surprised,
        target.creature,
        battle.surprise_round,
        battle.ruleset,
    )
    key = ("damage-plan", c.id, target.id, id(dspec), id(spec), id(weapon), outcome)
    kept = battle.memo.get(key)
    if (
        kept is not None
        and kept[0] == check
        and kept[1] is dspec
        and kept[2] is spec
        and kept[3] is weapon
    ):
        found: DamagePlan = kept[4]
        return found
    plan = _damage_plan(battle, c, target, spec, dspec, weapon, outcome)
    battle.memo[key] = (check, dspec, spec, weapon, plan)
    return plan


def _damage_plan(
    battle: Battle,
    c: Combatant,
    target: Combatant,
    spec: Outcome,
    dspec: DamageSpec,
    weapon: Weapon | None,
    outcome: str,
) -> DamagePlan:
    """`damage_plan` unkept."""
    expr, text = _expression(battle, c, dspec, weapon)
    halve: list[str] = []
    if outcome == "miss" and spec.half_damage:
        halve.append("half_on_miss")
    conditions = battle._conditions
    if outcome != "effect" and "weakened" in conditions(c)[0]:
        halve.append("weakened")
    if "insubstantial" in conditions(target)[0]:
        halve.append("insubstantial")
    rs = battle.ruleset
    minimum = rs.minimum_damage_on_hit if outcome in ("hit", "crit") else 0
    types = tuple(dspec.types)
    dr = rs.damage_reduction(target, types)  # d20srd D-11
    cr = target.creature
    plain = not (
        halve
        or minimum
        or dr
        or immune_to_damage(cr, types)
        or any(cr.resist.get(t, 0) or cr.vulnerable.get(t, 0) for t in types)
    )
    return DamagePlan(expr, text, tuple(halve), minimum, types, dr, plain)


_CAUSE = {"hit": "hit", "crit": "crit", "miss": "miss"}


def _notes(halve: list[str], target: Combatant, types: tuple[str, ...]) -> list[str]:
    """What the adjustments will do, for a person rolling the damage (only then worked out)."""
    return [*halve_notes(halve), *resist_notes(target, types)]


def _expression(
    battle: Battle, c: Combatant, dspec: DamageSpec, weapon: Weapon | None
) -> tuple[DiceExpr, str]:
    """`damage_expr` and its text, memoized per battle: on every hit, and a pure function of
    frozen content (the spec, the weapon, the attacker's abilities) and the attacker's damage
    modifier from effects, which the version of the effects on the attacker stands for in
    the key (tests/engine/test_attack_parts.py compares it with `damage_expr`)."""
    version = battle.effects.target_version.get(c.id, 0)
    key = ("damage", id(dspec), id(weapon), c.id)
    hit = battle.memo.get(key)
    if (
        hit is not None
        and hit[0] == version
        and hit[1] is dspec
        and hit[2] is weapon
        and hit[3] is c.creature
    ):
        return hit[4], hit[5]
    expr = damage_expr(battle, c, dspec, weapon)
    text = str(expr)
    battle.memo[key] = (version, dspec, weapon, c.creature, expr, text)
    return expr, text
