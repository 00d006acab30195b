"""A plain strike: `engine.powers.resolve` for the commonest use of a power, flattened.

Most attacks in a fight are one creature's melee or ranged attack on one creature, whose hit
deals damage and does nothing else (every basic attack, most monster attacks), with nobody in
the fight holding a power that a hit or a miss sets off. For those, `resolve`'s general
machinery (a list of targets, aimed squares, outcomes collected for the self effects, the
hit's effects, forced movement, healing and saves, the reactions to a hit) has nothing to do,
and `strike` does only what is left: the roll's setup, the d20, the outcome, the `Attack`
event and the hit's damage (its plan, the roll and the hit points: no shared roll, no `Roll`
kept for a second target), in the same order, with the same dice and the same events
(F-ATK-1..8, F-DMG-1..5). `resolve` hands such an attack here (`plain_power`, `strikes`).

tests/engine/test_strike.py plays fights of every ruleset with this path on and off and
compares the logs byte for byte; a replay (recorded dice) takes the general path, so every
undo and resumed save also compares the two.
"""

from __future__ import annotations

from engine.attacks import setup
from engine.battle import Battle
from engine.content.schema import Power, Weapon
from engine.damage import DamagePlan, Shared, damage_plan, deal_power_damage
from engine.events import Attack, Mod
from engine.hp import adjust, deal_damage
from engine.state import Combatant

ON = True
"""The path is taken (tests turn it off to compare with the general path)."""


def plain_power(battle: Battle, power: Power) -> bool:
    """Is `power` a single-creature melee or ranged attack whose hit only deals damage and
    whose miss and effect do nothing (no effects, forced movement, healing, saves or shift)?
    A pure function of the frozen power, kept per battle by identity."""
    key = ("plain-power", id(power))
    kept = battle.memo.get(key)
    if kept is not None and kept[0] is power:
        found: bool = kept[1]
        return found
    hit = power.hit
    plain = (
        power.attack is not None
        and (power.kind == "melee" or power.kind == "ranged")
        and power.effect is None
        and power.miss is None
        and hit is not None
        and hit.damage is not None
        and hit.heal is None
        and not hit.effects
        and hit.forced is None
        and not hit.grant_save
        and hit.shift is None
    )
    battle.memo[key] = (power, plain)
    return plain


def strike(
    battle: Battle,
    c: Combatant,
    target: Combatant,
    power: Power,
    weapon: Weapon | None,
    opportunity: bool,
) -> None:
    """`resolve` of a `plain_power` on one target that no aimed square names, with seeded
    dice (`RecordingDice.quiet`) and no power in the fight set off by a hit or a miss."""
    if not target.alive or not c.standing:
        return
    s = setup(battle, c, target, power, weapon, None, all_targets=(target.id,))
    attack = power.attack
    assert attack is not None and power.hit is not None
    natural = battle.dice.roll(20, "", c.id)
    total = natural + s.bonus
    rs = battle.ruleset
    defense = s.defense
    outcome: str = rs.outcome(natural, total, defense, s.crit_low)
    if outcome == "hit" and s.coup_de_grace and total >= defense:
        outcome = "crit"  # F-ATK-8
    confirm = None
    if rs.confirms_threats:  # d20srd D-8
        outcome, confirm = rs.confirm_threat(battle, c, natural, outcome, s)
    battle.emit(
        Attack(
            c.id,
            target.id,
            power.id,
            power.kind,
            attack.vs,
            natural,
            s.modifiers,
            total,
            defense,
            outcome,
            False,
            opportunity,
            s.combat_advantage,
            s.cover,
            s.concealment,
            s.flanking,
            confirm,
        )
    )
    c.acted = True
    if outcome != "miss" and target.alive:
        _hit(battle, c, target, power, weapon, outcome)


def _plan(
    battle: Battle,
    c: Combatant,
    target: Combatant,
    power: Power,
    weapon: Weapon | None,
    outcome: str,
) -> DamagePlan:
    """The hit's `DamagePlan`, kept in the entry of the setup this strike has just used
    (`engine.attacks.setup`): the entry's key holds everything a plan reads (both creatures'
    condition inputs and creature objects, the power and so its damage, the weapon; the
    ruleset is the battle's for good) but the outcome, which keys the plans in it. The one
    thing that changed since the setup, the attacker's `acted` (a first attack sets it), only
    makes a creature flat-footed, which no damage adjustment reads. A plan not yet in the
    entry comes from `damage_plan`, whose own memo (keyed by the two creatures, not their
    squares) outlives a setup worked out again because someone moved."""
    spec = power.hit
    assert spec is not None and spec.damage is not None
    entry = battle.memo[("setup", c.id, target.id, id(power), id(weapon))]
    plans: dict[str, DamagePlan] | None = entry[9]
    if plans is None:
        plans = entry[9] = {}
    plan = plans.get(outcome)
    if plan is None:
        # (`damage_plan`'s own memo outlives a setup whose squares changed)
        plan = plans[outcome] = damage_plan(battle, c, target, spec, spec.damage, weapon, outcome)
    return plan


def _hit(
    battle: Battle,
    c: Combatant,
    target: Combatant,
    power: Power,
    weapon: Weapon | None,
    outcome: str,
) -> None:
    """The hit's damage: `deal_power_damage` for one target with seeded dice, the roll
    (`engine.dice.roll`) done here. A ruleset's own damage roll (d20srd) and a maximized
    critical hit take `deal_power_damage` itself."""
    spec = power.hit
    assert spec is not None and spec.damage is not None
    rs = battle.ruleset
    if rs.rolls_damage or (outcome == "crit" and rs.maximize_crit_damage):
        deal_power_damage(battle, c, target, power, spec, weapon, Shared(1), outcome)
        return
    plan = _plan(battle, c, target, power, weapon, outcome)
    expr = plan.expr
    faces: list[int] = []
    total = expr.constant
    draw = battle.dice.roll
    who = c.id
    for t in expr.terms:  # `engine.dice.roll`: the same draws in the same order
        subtotal = 0
        for _ in range(t.count):
            face = draw(t.sides, "", who)
            faces.append(face)
            subtotal += face
        total += subtotal if t.sign > 0 else -subtotal
    if plan.plain and not target.temp_hp:  # nothing adjusts it (`DamagePlan.plain`)
        mods: list[Mod] = []
    else:
        mods = adjust(
            battle,
            target,
            total,
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
        cause=outcome,
        dice=plan.text,
        rolls=tuple(faces),
        rolled=total,
        types=plan.types,
        adjustments=mods,
    )
