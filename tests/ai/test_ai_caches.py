"""Every memo the attack scoring keeps (issue 14) gives what the uncached question gives:
Hypothesis over random fights (random maps, creatures of every size, a Large ogre among
them, conditions picked up mid-fight, the three rulesets).

- `hit_at` (the per-(power, target) split preview, the repeated-question memo, the memos of
  `score_hit` and `condition_value`) equals `score_hit` of the engine's own preview worked out
  by a fresh context, for every field of the scored hit (F-ATK-3..8, F-MOD-1..11);
- `score_hit` reading what it needs of (power, target) once a decision (`Context._hit_terms`)
  equals the score worked out term by term on each call, as it was before that memo
  (`_plain_score_hit`), to the last bit;
- `Context.in_reach` (its single-square fast path, the range memo) equals the engine's
  range and line of effect (F-MOD-2: reach and range);
- `blasts_of` (kept across decisions and maps of the same bounds) equals
  `engine.grid.blast_origins` on each map.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.candidates import blasts_of
from ai.memory import SideMemory
from ai.previews import hit_at
from ai.roles import weights_for
from ai.scoring import Context, Hit
from ai.utility import condition_value
from engine.content.schema import Power
from engine.grid import blast_origins, distance, entry_costs, footprint, line_of_effect
from engine.powers import power_range
from engine.preview import AttackPreview, damage_expr, preview
from engine.state import Combatant
from tests.ai.random_fights import MID_FIGHTS, load_fight, mid_fight_of

STATES = MID_FIGHTS


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**STATES)
def test_cached_hits_equal_fresh_scores_of_the_engines_preview_F_ATK_3_F_MOD_1(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str
) -> None:
    enc = mid_fight_of(map_seed, n, seed, steps, ruleset)
    if enc is None:
        return
    b = enc.battle
    rng = random.Random(seed)
    walkable = sorted(entry_costs(b.map))
    for c in [c for c in b.combatants.values() if c.standing]:
        ctx = Context(enc, c, weights_for(c), SideMemory())
        for p in c.powers:
            if p.attack is None:
                continue
            for t in [*ctx.f.enemies, *ctx.f.allies, *ctx.f.downed]:
                for sq in rng.sample(walkable, min(6, len(walkable))):
                    origin = rng.choice(walkable) if p.kind == "area" else None
                    got = hit_at(ctx, p, t, sq, origin)
                    fresh = Context(enc, c, weights_for(c), SideMemory())
                    pv = preview(b, c, t, p, (origin,) if origin else None, at=sq)
                    assert pv is not None
                    assert got == fresh.score_hit(p, t, pv), (c.id, p.id, t.id, sq, origin)
                    # the terms kept for (power, target), against every term asked anew
                    assert ctx.score_hit(p, t, pv) == _plain_score_hit(fresh, p, t, pv)


def _plain_score_hit(ctx: Context, p: Power, t: Combatant, pv: AttackPreview) -> Hit:
    """`Context.score_hit` as it was before `_hit_terms`: every term asked on every call."""
    ally = t.side == ctx.f.me.side
    hp_eff = t.hp + t.temp_hp
    if t.creature.minion:
        hp_eff = 1
    standing = t.standing
    useful = (
        min(pv.expected_damage, pv.hit * max(hp_eff, 0) + 0.5) if standing else (pv.expected_damage)
    )
    expr = ctx.expr(p)
    drop = 0.0
    if standing and expr is not None and not pv.immune_damage:
        need = max(1, hp_eff)
        if ctx.f.weakened:
            need *= 2
        if t.creature.insubstantial or "insubstantial" in ctx.conditions_of(t):
            need *= 2
        crit_dmg = ctx.crit_damage(p, t)
        drop = (pv.hit - pv.crit) * expr.prob_at_least(need) + pv.crit * (crit_dmg >= need)
    w = ctx.f.w
    if ally:
        value = -w.ally_hit * (useful + drop * ctx.kill_value(t))
    elif not standing:
        value = 0.15 * useful
    else:
        value = (
            w.damage * useful * ctx.focus(t)
            + w.kill * drop * ctx.kill_value(t)
            + w.condition * condition_value(ctx, p, t, pv.hit)
        )
    return Hit(t.id, pv.hit, pv.expected_damage, drop, pv.setup.flanking, ally, value)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**STATES)
def test_kept_best_at_will_mean_equals_the_plain_one(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str
) -> None:
    """`best_at_will_mean` (kept for the decision, asked by every encounter or daily candidate
    on a lone enemy) equals the best at-will expression's mean worked out from the powers."""
    enc = mid_fight_of(map_seed, n, seed, steps, ruleset)
    if enc is None:
        return
    b = enc.battle
    for c in [c for c in b.combatants.values() if c.standing]:
        ctx = Context(enc, c, weights_for(c), SideMemory())
        means = [
            damage_expr(b, c, p.hit.damage, c.weapon_for(p)).mean()
            for p in c.powers
            if p.usage == "at-will" and p.attack is not None and p.hit and p.hit.damage
        ]
        want = max([0.0, *means])
        assert ctx.best_at_will_mean() == want
        assert ctx.best_at_will_mean() == want  # kept


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**STATES)
def test_in_reach_equals_the_engines_range_and_line_of_effect_F_MOD_2(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str
) -> None:
    enc = mid_fight_of(map_seed, n, seed, steps, ruleset)
    if enc is None:
        return
    b = enc.battle
    every = [(x, y) for x in range(b.map.width) for y in range(b.map.height)]
    rng = random.Random(seed)
    for c in [c for c in b.combatants.values() if c.standing]:
        ctx = Context(enc, c, weights_for(c), SideMemory())
        for p in c.powers:
            for t in b.combatants.values():
                if not t.alive or t is c:
                    continue
                for sq in rng.sample(every, min(15, len(every))):
                    a_sq, t_sq = footprint(sq, c.size), b.squares(t)
                    want = distance(a_sq, t_sq) <= power_range(c, p) and line_of_effect(
                        b.map, a_sq, t_sq
                    )
                    assert ctx.in_reach(p, t, sq) == want, (c.id, p.id, t.id, sq)


@settings(max_examples=15, deadline=None)
@given(
    map_seeds=st.lists(st.integers(0, 2**32 - 1), min_size=2, max_size=3),
    picks=st.lists(
        st.tuples(st.integers(-3, 14), st.integers(-3, 12), st.integers(1, 3), st.integers(1, 5)),
        min_size=1,
        max_size=20,
    ),
)
def test_kept_blast_origins_equal_the_engines_F_MOD_4(
    map_seeds: list[int], picks: list[tuple[int, int, int, int]]
) -> None:
    for map_seed in map_seeds:
        loaded = load_fight(map_seed, 3)
        if loaded is None:
            continue
        for x, y, size, blast in picks:
            want = blast_origins(loaded.bmap, (x, y), size, blast)
            assert blasts_of(loaded.bmap, (x, y), size, blast) == want
