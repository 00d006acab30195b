"""Using a power: who it may target, the attack rolls, and what a hit, a miss or the effect does.

Targeting (melee reach, ranged range, bursts and blasts with line of effect, F-MOD-4) is
answered by `targets_for`, which the UI and the AI call to show and choose legal targets;
`use_power` checks the same things again before it changes anything (F-ATK-*, F-DMG-*).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Impossible, UsePower
from engine.attacks import damage_expr, setup
from engine.battle import Battle
from engine.content.schema import Outcome, Power, Weapon
from engine.dice import DiceExpr, Roll
from engine.effects import add_effect, saving_throw
from engine.events import Attack, Mod, Note
from engine.forced import forced_move
from engine.grid import (
    blast_origins,
    blast_squares,
    burst_squares,
    close_burst_squares,
    distance,
    line_of_effect,
)
from engine.hp import adjust, deal_damage, gain_temp_hp, spend_surge
from engine.hp import heal as do_heal
from engine.state import Combatant

Square = tuple[int, int]


def usable(battle: Battle, c: Combatant, power: Power) -> str | None:
    """Why `power` can't be used now (usage spent), or None (X-PWR-1)."""
    if power.usage != "at-will" and power.id in c.used_powers:
        what = {"encounter": "once per encounter", "daily": "once per day",
                "recharge": "waiting to recharge"}[power.usage]
        return f"{power.name} is spent ({what})"
    if power.action == "immediate":
        return f"{power.name} is an immediate action: it is used by readying or as a reaction"
    return None


def power_range(c: Combatant, power: Power) -> int:
    if power.kind == "melee":
        weapon = c.weapon_for(power)
        return power.reach or (weapon.reach if weapon else c.reach)
    return power.range or 0


def eligible(battle: Battle, c: Combatant, other: Combatant, power: Power) -> bool:
    if not other.alive:
        return False
    who = power.target
    if who == "enemy":
        return other.side != c.side
    if who == "ally":
        return other.side == c.side and other.id != c.id
    if who == "ally_or_self":
        return other.side == c.side
    if who == "self":
        return other.id == c.id
    return other.id != c.id or power.kind == "close"


def area_squares(battle: Battle, c: Combatant, power: Power, origin: Square | None) -> frozenset[Square]:
    """The squares a close or area power covers from `origin` (F-MOD-4); raises Impossible."""
    bmap = battle.map
    if power.kind == "close" and power.burst is not None:
        return close_burst_squares(bmap, c.pos, c.size, power.burst)
    if origin is None:
        raise Impossible(f"{power.name} needs an origin square")
    if power.kind == "close":
        assert power.blast is not None
        if origin not in blast_origins(bmap, c.pos, c.size, power.blast):
            raise Impossible(f"a blast {power.blast} can't start at {origin}: it must touch you")
        return blast_squares(bmap, c.pos, c.size, power.blast, origin)
    assert power.range is not None and power.burst is not None
    if not bmap.in_bounds(origin):
        raise Impossible(f"{origin} is off the map")
    if distance(battle.squares(c), (origin,)) > power.range:
        raise Impossible(f"{origin} is beyond range {power.range}")
    if not line_of_effect(bmap, battle.squares(c), (origin,)):
        raise Impossible(f"no line of effect to {origin}")
    return burst_squares(bmap, origin, power.burst)


def in_area(battle: Battle, c: Combatant, power: Power, squares: frozenset[Square]) -> list[str]:
    occ = battle.occupancy()
    found: dict[str, None] = {}
    for sq in sorted(squares):
        oid = occ.at(sq)
        if oid is not None and oid not in found and eligible(battle, c, battle[oid], power):
            found[oid] = None
    if power.kind == "close" and power.target in ("ally_or_self",):
        found.setdefault(c.id, None)
    return list(found)


def targets_for(battle: Battle, c: Combatant, power: Power) -> list[str]:
    """Every creature `power` could target now (single-target powers), for the UI and AI."""
    if power.kind == "personal" or power.target == "self":
        return [c.id]
    rng = power_range(c, power)
    mine = battle.squares(c)
    out = []
    for other in battle.living():
        if not eligible(battle, c, other, power):
            continue
        theirs = battle.squares(other)
        if other.id != c.id and distance(mine, theirs) > rng:
            continue
        if other.id != c.id and not line_of_effect(battle.map, mine, theirs):
            continue
        out.append(other.id)
    return out


@dataclass
class _Shared:
    """Damage is rolled once per power use and applied to every target it hits."""

    roll: Roll | None = None
    crit_extra: Roll | None = None


def resolve_targets(battle: Battle, c: Combatant, power: Power, act: UsePower) -> list[str]:
    """The creatures this use of `power` affects; raises Impossible with the reason."""
    if power.kind == "personal" or power.target == "self":
        return [c.id]
    if power.kind in ("close", "area"):
        return in_area(battle, c, power, area_squares(battle, c, power, act.origin))
    if not act.targets:
        raise Impossible(f"{power.name} needs a target")
    if len(act.targets) > power.targets:
        raise Impossible(f"{power.name} takes at most {power.targets} target(s)")
    if len(set(act.targets)) != len(act.targets):
        raise Impossible("the same target twice")
    legal = set(targets_for(battle, c, power))
    for tid in act.targets:
        if tid not in battle.combatants:
            raise Impossible(f"no creature {tid!r}")
        if tid not in legal:
            t = battle[tid]
            rng = power_range(c, power)
            if not eligible(battle, c, t, power):
                raise Impossible(f"{t.name} is not a legal target for {power.name}")
            if distance(battle.squares(c), battle.squares(t)) > rng:
                raise Impossible(f"{t.name} is out of {'reach' if power.kind == 'melee' else 'range'} {rng}")
            raise Impossible(f"no line of effect to {t.name}")
    if act.squares and len(act.squares) != len(act.targets):
        raise Impossible("give one square per target, or none")
    return list(act.targets)


def resolve(battle: Battle, c: Combatant, power: Power, act: UsePower, targets: list[str], *,
            opportunity: bool = False) -> None:
    """Roll and apply `power` against `targets` (the action is already paid for)."""
    weapon = c.weapon_for(power)
    shared = _Shared()
    origin: tuple[Square, ...] | None = None
    if power.kind == "area" and act.origin is not None:
        origin = (act.origin,)
    elif power.kind == "close":
        origin = battle.squares(c)
    if power.attack is None:
        if power.effect is None:
            battle.emit(Note(c.id, f"{c.name} uses {power.name}."))
        for tid in targets:
            apply_outcome(battle, c, battle[tid], power, power.effect, weapon, shared, "effect")
        _self_effects(battle, c, power, power.effect)
        return
    for i, tid in enumerate(targets):
        target = battle[tid]
        if not target.alive or not c.standing:
            continue
        aimed = act.squares[i] if act.squares else None
        outcome = attack_roll(battle, c, target, power, weapon, origin, tuple(targets),
                              opportunity=opportunity, aimed=aimed)
        spec = power.hit if outcome in ("hit", "crit") else power.miss
        apply_outcome(battle, c, target, power, spec, weapon, shared, outcome)
        if power.effect is not None:
            apply_outcome(battle, c, target, power, power.effect, weapon, shared, "effect")
    _self_effects(battle, c, power, power.hit)
    _self_effects(battle, c, power, power.effect)


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
) -> str:
    assert power.attack is not None
    s = setup(battle, c, target, power, weapon, origin, all_targets=all_targets)
    vs = power.attack.vs
    natural = battle.d20(f"{c.name}: {power.name} vs {target.name}'s {_DEF[vs]}", c.id)
    total = natural + s.bonus
    wrong = aimed is not None and aimed not in battle.squares(target)
    if wrong:  # F-MOD-12: an automatic miss, and the attacker learns nothing more
        outcome = "miss"
    else:
        outcome = battle.ruleset.outcome(natural, total, s.defense, s.crit_low)
        if outcome == "hit" and s.coup_de_grace and total >= s.defense:
            outcome = "crit"  # F-ATK-8
    battle.emit(Attack(c.id, target.id, power.id, power.kind, vs, natural, s.modifiers, total,
                       None if wrong else s.defense, outcome, wrong, opportunity,
                       s.combat_advantage, s.cover, s.concealment, s.flanking))
    c.acted = True
    return outcome


_DEF = {"ac": "AC", "fortitude": "Fortitude", "reflex": "Reflex", "will": "Will"}


def apply_outcome(
    battle: Battle,
    c: Combatant,
    target: Combatant,
    power: Power,
    spec: Outcome | None,
    weapon: Weapon | None,
    shared: _Shared,
    outcome: str,
) -> None:
    if spec is None or not target.alive:
        return
    if spec.damage is not None or (spec.half_damage and power.hit and power.hit.damage):
        _damage(battle, c, target, power, spec, weapon, shared, outcome)
    if spec.heal is not None:
        _heal(battle, c, target, spec)
    for eff in spec.effects:
        if eff.to == "target" and target.alive:
            add_effect(battle, eff, target, c, power.name)
    if spec.grant_save:
        for eff in [e for e in battle.effects.values()
                    if e.target == target.id and e.duration == "save_ends"]:
            saving_throw(battle, target, eff, "granted")
    if spec.forced is not None and target.alive and target.id != c.id:
        forced_move(battle, c, target, spec.forced.kind, spec.forced.distance)


def _self_effects(battle: Battle, c: Combatant, power: Power, spec: Outcome | None) -> None:
    if spec is None:
        return
    for eff in spec.effects:
        if eff.to == "self":
            add_effect(battle, eff, c, c, power.name)


def _damage(battle: Battle, c: Combatant, target: Combatant, power: Power, spec: Outcome,
            weapon: Weapon | None, shared: _Shared, outcome: str) -> None:
    dspec = spec.damage
    if dspec is None:  # half damage on a miss uses the hit's damage (F-DMG-10)
        assert power.hit is not None and power.hit.damage is not None
        dspec = power.hit.damage
    if outcome == "miss" and target.creature.minion:
        return  # minions never take damage from a miss
    expr = damage_expr(battle, c, dspec, weapon)
    crit = outcome == "crit"
    purpose = f"{c.name}: {power.name} damage ({expr})"
    crit_extra = None
    if crit and battle.ruleset.maximize_crit_damage:  # F-ATK-7
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
            shared.roll = battle.roll(expr, purpose, c.id)
        rolled_total, rolls = shared.roll.total, shared.roll.faces
    halve: list[str] = []
    if outcome == "miss" and spec.half_damage:
        halve.append("half_on_miss")
    if battle.has(c, "weakened") and outcome != "effect":
        halve.append("weakened")
    if battle.has(target, "insubstantial"):
        halve.append("insubstantial")
    minimum = battle.ruleset.minimum_damage_on_hit if outcome in ("hit", "crit") else 0
    types = tuple(dspec.types)
    mods = adjust(battle, target, rolled_total, types, halve=halve, minimum=minimum)
    cause = {"hit": "hit", "crit": "crit", "miss": "miss"}.get(outcome, "effect")
    deal_damage(battle, target, source=c, power=power.id, cause=cause, dice=str(expr),
                rolls=tuple(rolls), rolled=rolled_total, types=types, adjustments=mods,
                crit_extra=crit_extra)


def _heal(battle: Battle, c: Combatant, target: Combatant, spec: Outcome) -> None:
    h = spec.heal
    assert h is not None
    extra = h.bonus
    if h.ability is not None:
        extra += c.creature.abilities.mod(h.ability)
    if h.dice:
        extra += battle.roll(DiceExpr.parse(h.dice), f"{c.name}: healing ({h.dice})", c.id).total
    if h.surge:
        if not spend_surge(battle, target, extra, c.id):
            battle.emit(Note(target.id, f"{target.name} has no healing surge left."))
    elif extra > 0:
        do_heal(battle, target, extra, c.id, surge=False)
    if h.temp_hp:
        gain_temp_hp(battle, target, h.temp_hp)


def provoking_kind(power: Power) -> bool:
    """Ranged and area powers provoke from adjacent enemies (S-14 "a distracting act")."""
    return power.kind in ("ranged", "area")

