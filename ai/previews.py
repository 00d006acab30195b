"""The engine's attack previews "as if I stood there", shared between squares that change
nothing in them.

Scoring a candidate (end square x power x target) needs the engine's preview as if the
attacker stood on the square. The engine's `setup` is three parts (`engine.attacks`): the
attacker's (per power), the target's (per power and target) and the squares'. A decision
works out the first two once per (power, target) and only the square part per candidate
square; the preview is composed from them by the engine's own `compose` and `preview_of`, so
no rule is copied here. Squares with equal square parts give equal previews, so the scored
preview is kept per (power, target, square part) and shared between them.

Every memo here lives for one decision (`ai.caches.Caches`), which fixes the state; its key is
what varies within the decision. A Hypothesis test (tests/ai/test_ai_caches.py) pins each kept
value to a fresh engine preview over random fights.

`hit_bound` is what a hit on a target could be worth from the best square there could be (the
attack search visits candidates best bound first and skips the rest once none can make the
cut: `ai.attack_plans`); tests/ai/test_ai_bounds.py checks it is never below `hit_at`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from engine.attacks import (
    AttackerPart,
    SquarePart,
    TargetPart,
    attacker_part,
    compose,
    outcome_odds,
    preview_of,
    square_part,
    target_part,
)
from engine.content.schema import Power
from engine.grid import distance, footprint
from engine.state import Combatant

if TYPE_CHECKING:
    from ai.scoring import Context, Hit

Square = tuple[int, int]
PreviewKey = tuple[str, str, SquarePart]
"""(power, target, the square part of the attack): equal keys, equal previews."""
SquareKey = tuple[str, str, Square, Square | None]
"""(power, target, the attacker's square, the area's origin)."""
BEST_SQUARE = SquarePart("none", True, True, True, "none", ())
"""The square part no square can better: seen, adjacent (no +2 to a prone target's defense
against a ranged attack; a coup de grace), combat advantage, no cover, no situational
modifier (the rulesets' are penalties: 4srd range). `compose` of it has the highest attack
bonus and the lowest defense any square can give."""
BEST_WITHOUT_CA = BEST_SQUARE._replace(combat_advantage=False, flanking=False)
"""The same for the squares that can't give combat advantage (`ca_possible`)."""


def parts_for(ctx: Context, p: Power, t: Combatant) -> tuple[AttackerPart, TargetPart]:
    """The attacker's and the target's parts of my `p` on `t`, once per decision."""
    c = ctx.c
    tkey = (p.id, t.id)
    tp = c.target_parts.get(tkey)
    ap = c.attacker_parts.get(p.id)
    if ap is None:
        f = ctx.f
        ap = c.attacker_parts[p.id] = attacker_part(f.b, f.me, p, f.me.weapon_for(p))
    if tp is None:
        tp = c.target_parts[tkey] = target_part(ctx.f.b, ctx.f.me, t, ap, sides=True)
    return ap, tp


def square_part_at(
    ctx: Context, p: Power, t: Combatant, at: Square, origin: Square | None
) -> SquarePart:
    """The square part of my `p` on `t` from `at` (area or close origin `origin`)."""
    skey = (p.id, t.id, at, origin)
    c = ctx.c
    sp = c.square_parts.get(skey)
    if sp is not None:
        return sp
    f = ctx.f
    me = f.me
    a_sq = footprint(at, me.size)
    src_sq = (origin,) if origin is not None and p.kind in ("close", "area") else a_sq
    parts = parts_for(ctx, p, t)
    sp = square_part(f.b, me, t, p, me.weapon_for(p), parts, at, a_sq, src_sq)
    c.square_parts[skey] = sp
    return sp


def hit_at(
    ctx: Context, p: Power, t: Combatant, at: Square, origin: Square | None = None
) -> Hit | None:
    """`Context.score_hit` of the engine's preview as if I stood at `at` (None: no attack
    roll), shared between the squares with the same square part."""
    if p.attack is None:
        return None
    sp = square_part_at(ctx, p, t, at, origin)
    key = (p.id, t.id, sp)
    hits = ctx.c.hits
    if key in hits:
        return hits[key]
    f = ctx.f
    ap, tp = parts_for(ctx, p, t)
    s = compose(f.b, f.me, t, (ap, tp, sp))
    pv = preview_of(f.b, f.me, t, p, f.me.weapon_for(p), s)
    hit = hits[key] = ctx.score_hit(p, t, pv)
    return hit


def hit_bound(ctx: Context, p: Power, t: Combatant, ca: bool = True) -> float:
    """An upper bound of `hit_at(ctx, p, t, sq).value` over every square `sq` (with `ca`
    False: every square where `ca_possible` is False; infinity: no bound, for a target of
    my side), once per decision: `Context.value_bound` of the odds from `BEST_SQUARE` and
    of `damage_bound`."""
    key = (p.id, t.id, ca)
    bounds = ctx.c.bounds
    got = bounds.get(key)
    if got is not None:
        return got
    f = ctx.f
    if p.attack is None or t.side == f.me.side:
        bound = math.inf
    else:
        parts = parts_for(ctx, p, t)
        best = BEST_SQUARE if ca else BEST_WITHOUT_CA
        top = outcome_odds(compose(f.b, f.me, t, (*parts, best)), f.b.ruleset)
        bound = ctx.value_bound(p, t, top, damage_bound(ctx, p, t, top))
    bounds[key] = bound
    return bound


def ca_possible(ctx: Context, p: Power, t: Combatant, at: Square) -> bool:
    """Could my `p` on `t` from `at` have combat advantage: granted by the target (its
    conditions, a Bluff, an invisible attacker), else only next to it (prone, flanking:
    `engine.attacks.square_part`)."""
    tp = parts_for(ctx, p, t)[1]
    if tp.granted or tp.unseen_attacker:
        return True
    me = ctx.f.me
    if me.size == 1 and t.size == 1:
        (ax, ay), (tx, ty) = at, t.pos
        return abs(ax - tx) <= 1 and abs(ay - ty) <= 1
    return distance(footprint(at, me.size), ctx.f.b.squares(t)) <= 1


def damage_bound(ctx: Context, p: Power, t: Combatant, top: tuple[float, float]) -> float:
    """An upper bound of the engine's expected damage (`engine.attacks.preview_of`) of my `p`
    on `t` over every setup whose chances to hit and to crit are at most `top`: every hit a
    plain hit's mean and every crit what a crit adds (a hit's mean, each at most its
    chance), the half damage of a miss always, the same halvings, resistance that never
    adds, vulnerability on every hit."""
    spec = p.hit.damage if p.hit is not None else None
    if spec is None:
        return 0.0
    f = ctx.f
    b, me = f.b, f.me
    expr = ctx.expr(p)
    assert expr is not None
    hit, crit = top
    hit_dmg, crit_dmg = ctx.damage_means(p, t)
    bound = hit * max(hit_dmg, 0.0) + crit * max(crit_dmg - hit_dmg, 0.0)
    if p.miss is not None and p.miss.half_damage and not t.creature.minion:
        bound += max(0.0, expr.mean() / 2)
    if b.has(me, "weakened"):
        bound /= 2
    if b.has(t, "insubstantial"):
        bound /= 2
    types = spec.types
    if types and all(ty in t.creature.resist for ty in types):
        bound += hit * max(0.0, -min(t.creature.resist[ty] for ty in types))
    return bound + hit * max(0.0, float(sum(t.creature.vulnerable.get(ty, 0) for ty in types)))
