"""The attack path's fast paths (issue 14, target 4) against the plain rules they stand for,
over random states:

- F-MOD-1: the flank partner found through the occupancy index (the strip of squares along
  the side opposite the attacker) equals the partner found by asking every creature, for every
  creature, target and side, over random placements with creatures larger than one square
  (`keep-d20`'s ogre, and everyone made Large at random), conditions that stop reacting or
  seeing, and creatures down or dead;
- F-MOD-1: the partners placed by the index, kept while the index stands (`flank_watch`),
  with only their standing and conditions asked again, equal the scan after conditions
  change, creatures drop and others die;
- F-ATK-2, F-MOD-1..11: the setup kept per (attacker, target, power, weapon) for the roll
  equals the setup worked out from the parts with every memo emptied, as creatures move,
  conditions come and go, effects end, hit point states change and partners appear, across
  rulesets, in fights cut anywhere (an undo or a resumed save is such a cut);
- F-MOD-4, X-PWR-1: the legality of a named target kept per (attacker, target, power) gives
  the answer (the targets, or the same refusal) the full check gives, over the same states;
- F-DMG-1..5: the damage plan kept per (attacker, target, damage, outcome) equals the plan
  worked out cold as conditions (weakened, insubstantial), damage modifiers, resistances and
  vulnerabilities change; a plan marked plain is one `adjust` leaves alone;
- X-HP-1: damage leaving more hit points than `Ruleset.state_holds_above` leaves the hit
  point state as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import attacks, damage
from engine.actions import Impossible, UsePower
from engine.effects import end
from engine.encounter import Encounter
from engine.flanking import Side, _partner_indexed, _partner_scanned, flank_watch, side_of
from engine.grid import footprint
from engine.hp import adjust
from engine.powers import resolve_targets
from engine.state import Combatant
from tests.engine.test_caches import STATES, cut, fresh_conditions, loaded
from tests.support.helpers import put_effect

SIDES: list[Side] = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)]
MOVING = ("prone", "stunned", "blinded", "dazed", "surprised", "unconscious", "restrained")
"""Conditions that change who may flank (no reactions, can't see, down) or how."""


def scatter(enc: Encounter, rng: random.Random, large: float) -> None:
    """Every creature put on a random free square (some made Large), the occupancy renewed."""
    b = enc.battle
    m = b.map
    taken: set[tuple[int, int]] = set()
    for c in b.combatants.values():
        if rng.random() < large:
            c.size = 2
        for _ in range(200):
            pos = (rng.randrange(m.width - c.size + 1), rng.randrange(m.height - c.size + 1))
            squares = footprint(pos, c.size)
            if not taken.intersection(squares):
                c.pos = pos
                taken.update(squares)
                break
        else:
            c.state = "dead"  # no room: out of the fight (the dead leave no body that blocks)
            c.pos = (-10 - len(taken), -10)
    b.moved()


def upset(enc: Encounter, rng: random.Random, steps: int) -> None:
    """Random conditions added and removed, some creatures down or dead."""
    b = enc.battle
    ids = list(b.combatants)
    for _ in range(steps):
        c = b[rng.choice(ids)]
        roll = rng.random()
        if roll < 0.5 and c.alive:
            put_effect(enc, c.id, conditions=(rng.choice(MOVING),))
        elif roll < 0.75:
            mine = [e for e in b.effects.values() if e.target == c.id]
            if mine:
                end(b, rng.choice(mine), "ended")
        elif roll < 0.9:
            c.state = rng.choice(["healthy", "bloodied", "dying", "unconscious"])
        else:
            c.state = "dead"
            b.moved()


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(["brawl", "keep-d20", "default"]),
    seed=st.integers(0, 10_000),
    large=st.sampled_from([0.0, 0.3]),
    steps=st.integers(0, 12),
)
def test_property_indexed_flank_partners_equal_scanned_F_MOD_1(
    name: str, seed: int, large: float, steps: int
) -> None:
    enc = Encounter.create(loaded(name), seed=1)
    rng = random.Random(seed)
    scatter(enc, rng, large)
    upset(enc, rng, steps)
    b = enc.battle
    creatures = [c for c in b.combatants.values() if c.alive]
    for a in creatures:
        for t in creatures:
            if t is a:
                continue
            for side in SIDES:
                want = _partner_scanned(b, a, t, side)
                assert _partner_indexed(b, a, t, side, b.occupancy()) == want, (a.id, t.id, side)


def scanned_flank(enc: Encounter, a: Combatant, t: Combatant) -> bool:
    mine = side_of(a.pos, a.size, t.pos, t.size)
    return _partner_scanned(enc.battle, a, t, (-mine[0], -mine[1]))


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(["brawl", "keep-d20"]),
    seed=st.integers(0, 10_000),
    large=st.sampled_from([0.0, 0.3]),
    steps=st.integers(1, 12),
)
def test_property_kept_flank_watch_equals_scanned_F_MOD_1(
    name: str, seed: int, large: float, steps: int
) -> None:
    enc = Encounter.create(loaded(name), seed=1)
    rng = random.Random(seed)
    scatter(enc, rng, large)
    b = enc.battle
    b.occupancy()
    pairs = [(a, t) for a in b.combatants.values() for t in b.combatants.values() if a is not t]
    watches = {}
    for a, t in pairs:
        if a.alive and t.alive:
            flank, watches[(a.id, t.id)] = flank_watch(b, a, t, None)
            assert flank == scanned_flank(enc, a, t)
    placed = sorted({oid for w in watches.values() if w is not None for oid in w[1]})
    for _ in range(steps):  # the placed partners stunned, blinded, dropped; nobody moves
        if placed:
            c = b[rng.choice(placed)]
            if rng.random() < 0.5:
                c.state = rng.choice(["healthy", "dying", "unconscious"])
            elif c.alive:
                put_effect(enc, c.id, conditions=(rng.choice(MOVING),))
    upset(enc, rng, steps // 3)  # and anyone else (a death renews the index)
    b.occupancy()  # (a death renews the index: the watches found in the old one are dropped)
    for a, t in pairs:
        if a.alive and t.alive and (a.id, t.id) in watches:
            flank, _ = flank_watch(b, a, t, watches[(a.id, t.id)])
            assert flank == scanned_flank(enc, a, t), (a.id, t.id)


def every_roll_setup(enc: Encounter) -> dict[tuple[str, str, str], attacks.AttackSetup]:
    """Every attack every standing creature could roll from where it stands, on every living
    creature (area and close attacks from the target's square)."""
    b = enc.battle
    out = {}
    for c in list(b.combatants.values()):
        if not c.standing:
            continue
        for p in c.powers:
            if p.attack is None:
                continue
            w = c.weapon_for(p)
            for t in [t for t in b.combatants.values() if t.alive and t.id != c.id]:
                origin = (t.pos,) if p.kind in ("close", "area") else None
                out[(c.id, p.id, t.id)] = attacks.setup(b, c, t, p, w, origin)
    return out


def every_target_check(enc: Encounter) -> dict[tuple[str, str, str], object]:
    """Every creature's every single-target power named on every creature (the dead and
    itself included): the targets `resolve_targets` returns, or its refusal."""
    b = enc.battle
    out: dict[tuple[str, str, str], object] = {}
    for c in list(b.combatants.values()):
        for p in c.powers:
            if p.kind not in ("melee", "ranged"):
                continue
            for t in list(b.combatants.values()):
                try:
                    got: object = resolve_targets(b, c, p, UsePower(p.id, (t.id,)))
                except Impossible as exc:
                    got = (exc.code, str(exc))
                out[(c.id, p.id, t.id)] = got
    return out


def cold(enc: Encounter, ask: Callable[[Encounter], Any] = every_roll_setup) -> Any:
    """`ask` with every memo emptied first (the battle's own left as they were)."""
    b = enc.battle
    kept = b._cond_cache, b.memo
    b._cond_cache, b.memo = {}, {}
    try:
        return ask(enc)
    finally:
        b._cond_cache, b.memo = kept


def step(enc: Encounter, rng: random.Random) -> None:
    """One random change: a creature moves next to another, a condition comes or goes, a hit
    point state changes, an action's modifiers appear."""
    b = enc.battle
    living = [c for c in b.combatants.values() if c.alive]
    roll = rng.random()
    if roll < 0.35 and len(living) > 1:
        mover, near = rng.sample(living, 2)
        _move_next_to(enc, mover, near, rng)
    elif roll < 0.55 and living:
        put_effect(enc, rng.choice(living).id, conditions=(rng.choice(MOVING),))
    elif roll < 0.65 and living:
        put_effect(enc, rng.choice(living).id, modifiers=(("attack", rng.choice([-2, 2])),))
    elif roll < 0.8:
        if b.effects:
            end(b, rng.choice(list(b.effects.values())), "ended")
    elif roll < 0.9 and living:
        c = rng.choice(living)
        c.state = rng.choice(["healthy", "bloodied", "dying"])
    elif living:
        from engine.events import Mod

        b.action_modifiers = {rng.choice(living).id: (Mod("iterative", -5),)}


def _move_next_to(enc: Encounter, mover: Combatant, near: Combatant, rng: random.Random) -> None:
    b = enc.battle
    occ = b.occupancy()
    spots = [
        (near.pos[0] + dx, near.pos[1] + dy)
        for dx in range(-mover.size, near.size + 1)
        for dy in range(-mover.size, near.size + 1)
    ]
    rng.shuffle(spots)
    for pos in spots:
        squares = footprint(pos, mover.size)
        if all(
            b.map.in_bounds(sq) and not b.map.blocks_movement(sq) and occ.at(sq) in (None, mover.id)
            for sq in squares
        ):
            mover.pos = pos
            b.moved()
            return


@settings(max_examples=30, deadline=None)
@given(**STATES, steps=st.integers(1, 10))
def test_property_kept_roll_setup_equals_uncached_F_ATK_2_F_MOD_1(
    name: str, seed: int, ruleset: str, at: float, steps: int
) -> None:
    enc = cut(name, seed, ruleset, at)
    rng = random.Random(seed * 1000 + steps)
    assert every_roll_setup(enc) == cold(enc)
    for _ in range(steps):
        step(enc, rng)
        warm = every_roll_setup(enc)  # from what the setups kept before the change
        assert warm == cold(enc)
        assert every_roll_setup(enc) == warm  # and again, now kept


@settings(max_examples=25, deadline=None)
@given(**STATES, steps=st.integers(1, 10))
def test_property_kept_target_legality_equals_the_full_check_F_MOD_4(
    name: str, seed: int, ruleset: str, at: float, steps: int
) -> None:
    enc = cut(name, seed, ruleset, at)
    rng = random.Random(seed * 1000 + steps)
    every_target_check(enc)  # warm
    for _ in range(steps):
        step(enc, rng)
        warm = every_target_check(enc)
        assert warm == cold(enc, every_target_check)
        assert every_target_check(enc) == warm


# --- the damage plan (engine.damage) --------------------------------------------------------
OUTCOMES = ("hit", "crit", "miss", "effect")
DAMAGE_TYPES = ("fire", "cold", "poison", "necrotic")


def every_damage_plan(enc: Encounter) -> dict[tuple[str, ...], damage.DamagePlan]:
    """The damage plan of every damaging part (hit, miss, effect) of every power of every
    standing creature, on every living creature, for each outcome."""
    b = enc.battle
    out: dict[tuple[str, ...], damage.DamagePlan] = {}
    for c in list(b.combatants.values()):
        if not c.standing:
            continue
        for p in c.powers:
            w = c.weapon_for(p)
            for part, spec in (("hit", p.hit), ("miss", p.miss), ("effect", p.effect)):
                dspec = spec.damage if spec is not None else None
                if dspec is None and spec is not None and spec.half_damage and p.hit:
                    dspec = p.hit.damage
                if spec is None or dspec is None:
                    continue
                for t in [t for t in b.combatants.values() if t.alive]:
                    for outcome in OUTCOMES:
                        key = (c.id, p.id, part, t.id, outcome)
                        out[key] = damage.damage_plan(b, c, t, spec, dspec, w, outcome)
    return out


def damage_step(enc: Encounter, rng: random.Random) -> None:
    """`step`, or what only damage reads: weakened, insubstantial, a damage modifier, a
    creature that comes to resist or be vulnerable to a type (a new creature object)."""
    b = enc.battle
    living = [c for c in b.combatants.values() if c.alive]
    roll = rng.random()
    if roll < 0.4 or not living:
        step(enc, rng)
    elif roll < 0.6:
        which = rng.choice(["weakened", "insubstantial"])
        put_effect(enc, rng.choice(living).id, conditions=(which,))
    elif roll < 0.75:
        put_effect(enc, rng.choice(living).id, modifiers=(("damage", rng.choice([-2, 3])),))
    else:
        c = rng.choice(living)
        ty = rng.choice(DAMAGE_TYPES)
        field = rng.choice(["resist", "vulnerable"])
        table = {**getattr(c.creature, field), ty: rng.choice([0, 2, 5])}
        c.creature = c.creature.model_copy(update={field: table})


@settings(max_examples=30, deadline=None)
@given(**STATES, steps=st.integers(1, 10))
def test_property_kept_damage_plan_equals_uncached_F_DMG_1_F_DMG_3(
    name: str, seed: int, ruleset: str, at: float, steps: int
) -> None:
    """The damage plan kept per (attacker, target, damage, outcome) equals the plan worked
    out with every memo emptied, as conditions, effects, creatures and positions change."""
    enc = cut(name, seed, ruleset, at)
    rng = random.Random(seed * 1000 + steps)
    assert every_damage_plan(enc) == cold(enc, every_damage_plan)
    for _ in range(steps):
        damage_step(enc, rng)
        warm = every_damage_plan(enc)
        assert warm == cold(enc, every_damage_plan)
        assert every_damage_plan(enc) == warm


@settings(max_examples=30, deadline=None)
@given(**STATES, steps=st.integers(0, 6), rolled=st.integers(0, 40))
def test_property_a_plain_plan_is_what_adjust_leaves_alone_F_DMG_3(
    name: str, seed: int, ruleset: str, at: float, steps: int, rolled: int
) -> None:
    """A plan marked plain: `adjust` changes nothing of any roll on a target without
    temporary hit points (the hit path then skips it); a plan not plain is one it may."""
    enc = cut(name, seed, ruleset, at)
    rng = random.Random(seed * 7 + steps)
    for _ in range(steps):
        damage_step(enc, rng)
    b = enc.battle
    for (_, _, _, tid, _), plan in every_damage_plan(enc).items():
        t = b[tid]
        kept, t.temp_hp = t.temp_hp, 0
        try:
            mods = adjust(
                b,
                t,
                rolled,
                plan.types,
                halve=plan.halve,
                minimum=plan.minimum,
                reduction=plan.reduction,
            )
        finally:
            t.temp_hp = kept
        if plan.plain:
            assert mods == []


@settings(max_examples=60, deadline=None)
@given(**STATES, hp=st.integers(-30, 60), drop=st.integers(0, 80))
def test_property_state_holds_above_its_bound_X_HP_1(
    name: str, seed: int, ruleset: str, at: float, hp: int, drop: int
) -> None:
    """`Ruleset.state_holds_above`: damage that leaves more hit points than the bound leaves
    `hp_state` where it was, for every creature (the hit path skips `update_state` then)."""
    enc = cut(name, seed, ruleset, at)
    b = enc.battle
    rs = b.ruleset
    for c in list(b.combatants.values()):
        kept = c.hp, c.state
        try:
            c.hp = hp
            c.state = rs.hp_state(c)
            bound = rs.state_holds_above(c)
            if bound is None:
                continue
            assert c.hp > bound
            c.hp = hp - drop
            if c.hp > bound:
                assert rs.hp_state(c) == c.state, (c.id, hp, drop, bound)
        finally:
            c.hp, c.state = kept


@settings(max_examples=30, deadline=None)
@given(**STATES, steps=st.integers(1, 12))
def test_property_condition_inputs_determine_the_conditions(
    name: str, seed: int, ruleset: str, at: float, steps: int
) -> None:
    """The roll's setup and the damage plan key a creature's conditions by what `Battle`
    works them out from (`attacks.condition_inputs`): equal inputs, at any two moments of
    a fight as effects come and go and states change, give equal conditions and flags."""
    enc = cut(name, seed, ruleset, at)
    rng = random.Random(seed * 31 + steps)
    b = enc.battle
    seen: list[tuple[str, tuple[object, ...], object]] = []  # (creatures are unhashable)
    for _ in range(steps + 1):
        for c in b.combatants.values():
            inputs = attacks.condition_inputs(b, c)
            got = fresh_conditions(enc, c.id)
            for cid, was, conds in seen:
                if cid == c.id and was == inputs:
                    assert conds == got, c.id
            seen.append((c.id, inputs, got))
        damage_step(enc, rng)
        if rng.random() < 0.5:  # what a fight changes besides effects and hit points
            c = rng.choice(list(b.combatants.values()))
            c.acted, c.surprised = rng.random() < 0.5, rng.random() < 0.5
            b.surprise_round = rng.random() < 0.3


def test_an_at_will_power_of_a_plain_action_is_never_refused_X_PWR_1() -> None:
    """`UsePowerHandler.check` skips `usable_refusal` for an at-will power of the kinds in
    `_PLAIN`: the refusal has nothing to say of one, spent or not, on any creature."""
    from engine.handlers.powers import _PLAIN
    from engine.powers import usable_refusal

    enc = cut("brawl", 0, "ffd20", 0.5)
    b = enc.battle
    for c in b.combatants.values():
        for p in c.powers:
            for action in sorted(_PLAIN):
                q = p.model_copy(update={"usage": "at-will", "action": action})
                c.used_powers.add(q.id)
                assert usable_refusal(b, c, q) is None
                c.used_powers.discard(q.id)


def test_ruleset_flags_follow_what_each_class_overrides() -> None:
    """`rolls_damage`, `confirms_threats` and `shared_hp_state` (the hit path asks the
    ruleset's own damage roll, confirmation and state bound only where they exist) are set
    from each registered class's methods, never by hand."""
    from engine.rulesets.base import Ruleset
    from engine.rulesets.registry import RULESETS

    assert RULESETS
    for cls in RULESETS.values():
        assert cls.rolls_damage == (cls.damage_roll is not Ruleset.damage_roll)
        assert cls.confirms_threats == (cls.confirm_threat is not Ruleset.confirm_threat)
        assert cls.shared_hp_state == (cls.hp_state is Ruleset.hp_state)
    assert RULESETS["d20srd"].rolls_damage and RULESETS["d20srd"].confirms_threats
    assert not RULESETS["ffd20"].rolls_damage and not RULESETS["ffd20"].confirms_threats
