"""An attack roll, and the plain strike: `engine.powers.resolve` for the commonest use of a
power, flattened.

`attack_roll` is the one owner of an attack's roll: its setup, the d20, the outcome (F-ATK-1..8,
the ruleset's threat confirmation, interrupts that void it) and the `Attack` event. `resolve`
calls it for each target of any power, and `strike` for its one.

Most attacks in a fight are one creature's melee or ranged attack on one creature, whose hit
deals damage and does nothing else (every basic attack, most monster attacks), on a target
with no power that a hit or a miss sets off. For those, `resolve`'s general machinery (a list
of targets, aimed squares, outcomes collected for the self effects, the hit's effects, forced
movement, healing and saves, the reactions to a hit) has nothing to do, and `strike` does only
what is left: `attack_roll`, then the hit's damage through the same owners as
`engine.damage.deal_power_damage` (its plan, `engine.dice.draw`, `engine.damage.deal_planned`)
without the shared roll kept for a second target. The same dice in the same order and the same
events (F-DMG-1..5). `resolve` hands such an attack here (`plain_power`, `strike`).

tests/engine/test_strike.py plays fights of every ruleset with this path on and off and
compares the logs byte for byte; a replay (recorded dice) takes the general path, so every
undo and resumed save also compares the two.
"""

from __future__ import annotations

from engine.attacks import setup
from engine.battle import Battle
from engine.content.schema import Power, Weapon
from engine.damage import Shared, damage_plan, deal_planned, deal_power_damage
from engine.dice import draw
from engine.events import Attack, Note
from engine.hints import attack_hint
from engine.state import STANDING, Combatant
from engine.triggers import any_for, fire

Square = tuple[int, int]

ON = True
"""The path is taken (tests turn it off to compare with the general path)."""


def attack_roll(
    battle: Battle,
    c: Combatant,
    target: Combatant,
    power: Power,
    weapon: Weapon | None,
    origin: tuple[Square, ...] | None,
    all_targets: tuple[str, ...],
    *,
    opportunity: bool = False,
    aimed: Square | None = None,
    reacts: bool | None = None,
) -> str:
    """Roll `power`'s attack on `target` and log it: the outcome ("void": an interrupt
    dropped the attacker). `reacts`: whether anyone has a power triggered by a hit or a miss
    (`any_for`), when the caller has asked."""
    assert power.attack is not None
    if reacts is None:
        reacts = any_for(battle, "hit", "missed")
    s = setup(battle, c, target, power, weapon, origin, all_targets=all_targets)
    vs = power.attack.vs
    dice = battle.dice
    if dice.quiet:  # nobody reads the purpose: the same draw, without writing it
        natural = dice.roll(20, "", c.id)
    else:
        natural = battle.d20(
            f"{c.name}: {power.name} vs {target.name}'s {_DEF[vs]}",
            c.id,
            lambda: attack_hint(battle.ruleset, s, vs),
        )
    total = natural + s.bonus
    wrong = aimed is not None and aimed not in battle.squares(target)
    confirm = None
    if wrong:  # F-MOD-12: an automatic miss, and the attacker learns nothing more
        outcome = "miss"
    else:
        rs = battle.ruleset
        outcome = rs.outcome(natural, total, s.defense, s.crit_low)
        if outcome == "hit" and s.coup_de_grace and total >= s.defense:
            outcome = "crit"  # F-ATK-8
        if rs.confirms_threats:  # d20srd D-8
            outcome, confirm = rs.confirm_threat(battle, c, natural, outcome, s)
        if reacts:
            outcome, wrong = _interrupted(battle, c, target, power, outcome)
            if outcome == "void":
                return outcome
    battle.emit(
        Attack(
            c.id,
            target.id,
            power.id,
            power.kind,
            vs,
            natural,
            s.modifiers,
            total,
            None if wrong else s.defense,
            outcome,
            wrong,
            opportunity,
            s.combat_advantage,
            s.cover,
            s.concealment,
            s.flanking,
            confirm,
        )
    )
    c.acted = True
    return outcome


def _interrupted(
    battle: Battle, c: Combatant, target: Combatant, power: Power, outcome: str
) -> tuple[str, bool]:
    """Interrupts of a hit or a miss resolve before it does and can void it: a target no
    longer where the attack was aimed is missed ("wrong square", as F-MOD-12's), and an
    attacker that drops makes no attack ("void"). (outcome, wrong square)"""
    before = battle.squares(target)
    on = "missed" if outcome == "miss" else "hit"
    if not fire(battle, on, interrupt=True, subject=target, by=c, melee=power.kind == "melee"):
        return outcome, False
    if not c.standing:
        battle.emit(Note(c.id, f"{c.name}'s attack on {target.name} is cut short."))
        return "void", False
    if not target.alive or battle.squares(target) != before:
        return "miss", True
    return outcome, False


_DEF = {"ac": "AC", "fortitude": "Fortitude", "reflex": "Reflex", "will": "Will"}


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
    if target.state == "dead" or c.state not in STANDING:
        return
    outcome = attack_roll(
        battle, c, target, power, weapon, None, (target.id,), opportunity=opportunity, reacts=False
    )
    if outcome != "miss" and target.state != "dead":
        _hit(battle, c, target, power, weapon, outcome)


def _hit(
    battle: Battle,
    c: Combatant,
    target: Combatant,
    power: Power,
    weapon: Weapon | None,
    outcome: str,
) -> None:
    """The hit's damage: `deal_power_damage` for one target with seeded dice, without its
    shared roll (its plan from `damage_plan`, drawn by `engine.dice.draw`, dealt by
    `deal_planned`). A ruleset's own damage roll (d20srd) and a maximized critical hit take
    `deal_power_damage` itself."""
    spec = power.hit
    assert spec is not None and spec.damage is not None
    rs = battle.ruleset
    if rs.rolls_damage or (outcome == "crit" and rs.maximize_crit_damage):
        deal_power_damage(battle, c, target, power, spec, weapon, Shared(1), outcome)
        return
    plan = damage_plan(battle, c, target, spec, spec.damage, weapon, outcome)
    rolled, faces = draw(plan.expr, battle.dice, "", c.id)
    deal_planned(battle, c, target, power, plan, outcome, plan.text, rolled, faces)
