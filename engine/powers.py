"""Using a power: who it may target, the attack rolls, and what a hit, a miss or the effect does.

Targeting (melee reach, ranged range, bursts and blasts with line of effect, F-MOD-4) is
answered by `targets_for`, which the UI and the AI call to show and choose legal targets;
`use_power` checks the same things again before it changes anything (F-ATK-*, F-DMG-*).
"""

from __future__ import annotations

from engine import strike as strike_path
from engine.actions import Impossible, UsePower
from engine.attacks import can_see
from engine.battle import GRANTS_CA_TO_SOURCE, Battle
from engine.content.schema import TRIGGERED_ACTIONS, EffectSpec, Outcome, Power, Weapon
from engine.damage import Shared, deal_power_damage
from engine.dice import DiceExpr
from engine.effects import add_effect, saving_throw
from engine.events import Check, Immune, Note
from engine.forced import forced_move, shift_self
from engine.grid import (
    adjacent,
    blast_origins,
    blast_squares,
    burst_squares,
    close_burst_squares,
    distance,
    line_of_effect,
)
from engine.hp import gain_temp_hp, spend_surge
from engine.hp import heal as do_heal
from engine.immunity import immune_to_effects
from engine.refusals import Refusal
from engine.state import STANDING, Combatant
from engine.strike import attack_roll, plain_power, strike
from engine.triggers import answers_attacks, any_for, fire

Square = tuple[int, int]


def spent(c: Combatant, power: Power) -> bool:
    """Is `power` spent for `c` (X-PWR-1): an encounter or daily power used, a recharge power
    waiting to recharge; an at-will power never is."""
    return power.usage != "at-will" and power.id in c.used_powers


def usable_refusal(
    battle: Battle, c: Combatant, power: Power, *, triggered: bool = False
) -> Impossible | None:
    """Why `power` can't be used now (usage spent), as a refusal, or None (X-PWR-1).
    `triggered`: asked for a triggered power whose trigger has come (`engine.triggers`)."""
    if spent(c, power):
        what = {
            "encounter": "once per encounter",
            "daily": "once per day",
            "recharge": "waiting to recharge",
        }[power.usage]
        return Impossible(f"{power.name} is spent ({what})", Refusal.POWER_SPENT)
    if power.action == "immediate":
        return Impossible(
            f"{power.name} is an immediate action: it is used by readying or as a reaction",
            Refusal.WRONG_POWER,
        )
    if power.action in TRIGGERED_ACTIONS and not triggered:
        assert power.trigger is not None
        return Impossible(
            f"{power.name} is an {power.action.replace('_', ' ')}: it goes off by itself "
            f"({power.trigger.when.replace('_', ' ')})",
            Refusal.WRONG_POWER,
        )
    return None


def usable(battle: Battle, c: Combatant, power: Power) -> str | None:
    """Why `power` can't be used now (usage spent), or None (X-PWR-1)."""
    refusal = usable_refusal(battle, c, power)
    return refusal.reason if refusal is not None else None


def power_range(c: Combatant, power: Power) -> int:
    if power.kind == "melee":
        weapon = c.weapon_for(power)
        return power.reach or (weapon.reach if weapon else c.reach)
    return power.range or 0


def eligible(battle: Battle, c: Combatant, other: Combatant, power: Power) -> bool:
    if other.state == "dead":
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
    # A close area includes its user only when the power says so (issue 16, the 4e reading).
    return other.id != c.id or (power.kind == "close" and power.includes_user)


def area_squares(
    battle: Battle, c: Combatant, power: Power, origin: Square | None
) -> frozenset[Square]:
    """The squares a close or area power covers from `origin` (F-MOD-4); raises Impossible."""
    bmap = battle.map
    if power.kind == "close" and power.burst is not None:
        return close_burst_squares(bmap, c.pos, c.size, power.burst)
    if origin is None:
        raise Impossible(f"{power.name} needs an origin square", Refusal.NEEDS_TARGET)
    if power.kind == "close":
        assert power.blast is not None
        if origin not in blast_origins(bmap, c.pos, c.size, power.blast):
            raise Impossible(
                f"a blast {power.blast} can't start at {origin}: it must touch you",
                Refusal.OUT_OF_RANGE,
            )
        return blast_squares(bmap, c.pos, c.size, power.blast, origin)
    assert power.range is not None and power.burst is not None
    if not bmap.in_bounds(origin):
        raise Impossible(f"{origin} is off the map", Refusal.OFF_MAP)
    if distance(battle.squares(c), (origin,)) > power.range:
        raise Impossible(f"{origin} is beyond range {power.range}", Refusal.OUT_OF_RANGE)
    if not line_of_effect(bmap, battle.squares(c), (origin,)):
        raise Impossible(f"no line of effect to {origin}", Refusal.NO_LINE_OF_EFFECT)
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
    if power.target == "enemy":  # the common case, `eligible` inlined: the living enemies
        bmap, side = battle.map, c.side
        for other in battle.combatants.values():
            if other.state == "dead" or other.side == side:
                continue
            theirs = battle.squares(other)
            if distance(mine, theirs) <= rng and line_of_effect(bmap, mine, theirs):
                out.append(other.id)
        return out
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


def resolve_targets(battle: Battle, c: Combatant, power: Power, act: UsePower) -> list[str]:
    """The creatures this use of `power` affects; raises Impossible with the reason."""
    kind = power.kind
    if kind == "personal" or power.target == "self":
        return [c.id]
    if kind == "close" or kind == "area":
        return _area_targets(battle, c, power, act)
    named = act.targets
    n = len(named)
    if n == 1 and not act.squares:  # one named creature (every basic attack)
        t = battle.combatants.get(named[0])
        if t is not None:
            # `_good_key`, inlined: a target found legal and nothing since changed
            check = (c, power, t, c.creature, c.pos, c.size, c.side, t.pos, t.size, t.side)
            key = ("target-ok", c.id, t.id, id(power))
            if t.state != "dead" and battle.memo.get(key) == check:
                return [t.id]
    if not n:
        raise Impossible(f"{power.name} needs a target", Refusal.NEEDS_TARGET)
    if n > power.targets:
        raise Impossible(
            f"{power.name} takes at most {power.targets} target(s)", Refusal.TOO_MANY_TARGETS
        )
    if n > 1 and len(set(named)) != n:
        raise Impossible("the same target twice", Refusal.BAD_TARGET)
    # the checks of `targets_for`, for the named targets only (this runs on every attack)
    rng = power_range(c, power)
    mine = battle.squares(c)
    for tid in named:
        _check_target(battle, c, power, tid, rng, mine)
    if n == 1:
        found = _good_key(battle, c, power, named[0])
        if found is not None:
            battle.memo[found[0]] = found[1]
    if act.squares and len(act.squares) != n:
        raise Impossible("give one square per target, or none", Refusal.BAD_TARGET)
    return list(named)


def _area_targets(battle: Battle, c: Combatant, power: Power, act: UsePower) -> list[str]:
    """The creatures in a close or area power's area, or the ones named among them."""
    found = in_area(battle, c, power, area_squares(battle, c, power, act.origin))
    if not act.targets:
        if len(found) > power.targets:  # "close burst 5, one ally": the user picks one
            raise Impossible(
                f"{power.name} affects at most {power.targets} of the "
                f"{len(found)} creatures in the area: choose which",
                Refusal.NEEDS_TARGET,
            )
        return found
    if len(act.targets) > power.targets or len(set(act.targets)) != len(act.targets):
        raise Impossible(
            f"{power.name} takes at most {power.targets} different target(s)",
            Refusal.TOO_MANY_TARGETS,
        )
    for tid in act.targets:
        if tid not in found:
            raise Impossible(
                f"{tid} is not a legal target in {power.name}'s area", Refusal.BAD_TARGET
            )
    return list(act.targets)


def _good_key(
    battle: Battle, c: Combatant, power: Power, tid: str
) -> tuple[tuple[str, str, str, int], tuple[object, ...]] | None:
    """The memo key of one target found legal for `power`, and everything `_check_target`
    read but whether the target lives (asked each time): both creatures (their squares,
    sides), the power, and the attacker's creature (its weapon and reach give the range).
    The map never changes. `resolve_targets` asks it inlined; nothing is kept for a single
    target named with a square (`act.squares`), which is checked in full."""
    t = battle.combatants.get(tid)
    if t is None:
        return None
    check = (c, power, t, c.creature, c.pos, c.size, c.side, t.pos, t.size, t.side)
    return ("target-ok", c.id, tid, id(power)), check


def _check_target(
    battle: Battle, c: Combatant, power: Power, tid: str, rng: int, mine: tuple[Square, ...]
) -> None:
    """One named target of a melee or ranged power: known, eligible, in range and in line."""
    t = battle.combatants.get(tid)
    if t is None:
        raise Impossible(f"no creature {tid!r}", Refusal.BAD_TARGET)
    if not eligible(battle, c, t, power):
        raise Impossible(f"{t.name} is not a legal target for {power.name}", Refusal.BAD_TARGET)
    if t.id == c.id:
        return
    theirs = battle.squares(t)
    if distance(mine, theirs) > rng:
        what = "reach" if power.kind == "melee" else "range"
        raise Impossible(f"{t.name} is out of {what} {rng}", Refusal.OUT_OF_RANGE)
    if not line_of_effect(battle.map, mine, theirs):
        raise Impossible(f"no line of effect to {t.name}", Refusal.NO_LINE_OF_EFFECT)


def resolve(
    battle: Battle,
    c: Combatant,
    power: Power,
    act: UsePower,
    targets: list[str],
    *,
    opportunity: bool = False,
) -> None:
    """Roll and apply `power` against `targets` (the action is already paid for)."""
    weapon = c.weapon_for(power)
    if (
        len(targets) == 1
        and not act.squares
        and battle.dice.quiet
        and strike_path.ON
        and plain_power(battle, power)
        and not answers_attacks(battle, target := battle.combatants[targets[0]])
    ):  # one plain attack: `engine.strike`, the same rolls and events for less
        strike(battle, c, target, power, weapon, opportunity)
        return
    shared = Shared(targets=len(targets))
    origin: tuple[Square, ...] | None = None
    if power.kind == "area" and act.origin is not None:
        origin = (act.origin,)
    elif power.kind == "close":
        origin = battle.squares(c)
    if power.attack is None:
        _effect_only(battle, c, power, targets, weapon, shared)
        return
    outcomes: set[str] = set()
    all_targets = tuple(targets)
    squares = act.squares
    reacts = any_for(battle, "hit", "missed")  # (who has powers changes with the roster only)
    for i, tid in enumerate(targets):
        target = battle.combatants[tid]
        if target.state == "dead" or c.state not in STANDING:
            continue
        aimed = squares[i] if squares else None
        outcome = attack_roll(
            battle,
            c,
            target,
            power,
            weapon,
            origin,
            all_targets,
            opportunity=opportunity,
            aimed=aimed,
            reacts=reacts,
        )
        if outcome == "void":  # an interrupt dropped the attacker (engine.triggers)
            continue
        outcomes.add("miss" if outcome == "miss" else "hit")
        spec = power.hit if outcome == "hit" or outcome == "crit" else power.miss
        if spec is not None:
            apply_outcome(battle, c, target, power, spec, weapon, shared, outcome)
        if power.effect is not None:
            apply_outcome(battle, c, target, power, power.effect, weapon, shared, "effect")
        if reacts and target.state != "dead":  # reactions come after it
            on = "missed" if outcome == "miss" else "hit"
            fire(battle, on, interrupt=False, subject=target, by=c, melee=power.kind == "melee")
    # "Hit: you gain ..." needs a hit, "Miss: you ..." a miss; once however many targets
    if "hit" in outcomes and power.hit is not None:
        _self_effects(battle, c, power, power.hit)
    if "miss" in outcomes and power.miss is not None:
        _self_effects(battle, c, power, power.miss)
    if power.effect is not None:
        _self_effects(battle, c, power, power.effect)


def _effect_only(
    battle: Battle,
    c: Combatant,
    power: Power,
    targets: list[str],
    weapon: Weapon | None,
    shared: Shared,
) -> None:
    """A power with no attack roll: its effect on each target, then on its user."""
    if power.effect is None:
        battle.emit(Note(c.id, f"{c.name} uses {power.name}."))
    for tid in targets:
        apply_outcome(battle, c, battle[tid], power, power.effect, weapon, shared, "effect")
    _self_effects(battle, c, power, power.effect)


def apply_outcome(
    battle: Battle,
    c: Combatant,
    target: Combatant,
    power: Power,
    spec: Outcome | None,
    weapon: Weapon | None,
    shared: Shared,
    outcome: str,
) -> None:
    if spec is None or not target.alive:
        return
    if spec.damage is not None or (spec.half_damage and power.hit and power.hit.damage):
        deal_power_damage(battle, c, target, power, spec, weapon, shared, outcome)
    if spec.heal is not None:
        _heal(battle, c, target, spec)
    blocked = bool(spec.effects or spec.forced) and _immune(battle, c, target, power)
    for eff in () if blocked else spec.effects:
        if eff.to == "target" and target.alive:
            add_effect(battle, eff, target, c, power.name)
    if spec.grant_save:
        for active in [
            e
            for e in battle.effects.values()
            if e.target == target.id and e.duration == "save_ends"
        ]:
            if saving_throw(battle, target, active, "granted") and active.aftereffect:
                src = battle.combatants.get(active.source) if active.source else None
                add_effect(battle, active.aftereffect, target, src, "aftereffect")
    if spec.forced is not None and target.alive and target.id != c.id and not blocked:
        forced_move(battle, c, target, spec.forced.kind, spec.forced.distance)


def _immune(battle: Battle, c: Combatant, target: Combatant, power: Power) -> bool:
    """Issue 16: a target immune to one of the power's keywords gets none of its effects."""
    keyword = immune_to_effects(target.creature, power)
    if keyword is None:
        return False
    battle.emit(Immune(target.id, c.id, power.id, keyword))
    return True


def _self_effects(battle: Battle, c: Combatant, power: Power, spec: Outcome | None) -> None:
    if spec is None:
        return
    if spec.shift is not None:
        shift_self(battle, c, spec.shift)
    for eff in spec.effects:
        if eff.to == "self":
            add_effect(battle, eff, c, c, power.name)


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


def bluff_refusal(battle: Battle, c: Combatant, target_id: str) -> Impossible | None:
    """Why `c` can't try a Bluff for combat advantage against `target_id` now (F-MOD-13)."""
    if c.bluff_used:
        return Impossible(
            "a Bluff for combat advantage is once per encounter", Refusal.ONCE_PER_ENCOUNTER
        )
    t = battle.combatants.get(target_id)
    if t is None:
        return Impossible(f"no creature {target_id!r}", Refusal.BAD_TARGET)
    if t.side == c.side or not t.alive:
        return Impossible(f"{t.name} is not an enemy to bluff", Refusal.BAD_TARGET)
    if not adjacent(battle.squares(c), battle.squares(t)):
        return Impossible(f"{t.name} is not adjacent", Refusal.OUT_OF_RANGE)
    if not can_see(battle, c, t):
        return Impossible(f"{c.name} can't see {t.name}", Refusal.NO_LINE_OF_SIGHT)
    return None


def bluff_problem(battle: Battle, c: Combatant, target_id: str) -> str | None:
    """`bluff_refusal`'s reason, for a person."""
    refusal = bluff_refusal(battle, c, target_id)
    return refusal.reason if refusal is not None else None


# Its only part is engine-made (`extra` below), which content validation would refuse as
# "no parts": built without validation, as trusted engine data.
BLUFFED = EffectSpec.model_construct(
    name="bluffed",
    duration="end_of_next_turn",
    to="target",
    conditions=[],
    ongoing=None,
    modifiers=[],
    aftereffect=None,
)


def bluff(battle: Battle, c: Combatant, t: Combatant) -> bool:
    """F-MOD-13: Bluff (d20 + Bluff) against passive Insight (10 + Insight). A success puts
    an effect on the target, owned by the bluffer, that grants it combat advantage until the
    end of the bluffer's next turn (the 4e duration; the seed text names none)."""
    c.bluff_used = True
    natural = battle.d20(f"{c.name}: Bluff against {t.name}", c.id)
    mod = c.creature.skills.bluff
    against = 10 + t.creature.skills.insight
    ok = natural + mod >= against
    battle.emit(Check(c.id, "bluff", natural, mod, natural + mod, against, ok))
    if ok:
        add_effect(battle, BLUFFED, t, c, "bluffed", extra=((GRANTS_CA_TO_SOURCE, 2),))
    return ok


def provoking_kind(power: Power) -> bool:
    """Ranged and area powers provoke from adjacent enemies (S-14 "a distracting act")."""
    return power.kind in ("ranged", "area")
