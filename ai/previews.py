"""The engine's attack previews "as if I stood there", shared between squares that change
nothing in them.

Scoring a candidate (end square x power x target) needs the engine's preview as if the
attacker stood on the square. The engine's `setup` is three parts (`engine.attacks`): the
attacker's (per power), the target's (per power and target) and the squares'. A decision
works out the first two once per (power, target) and only the square part per candidate
square; the preview is composed from them by the engine's own `compose` and `preview_of`, so
no rule is copied here. Squares with equal square parts give equal previews, so the scored
preview is kept per (power, target, square part) and shared between them.

The preview itself is the engine's `preview_of` worked out in two parts the same way: what it
reads besides the odds (the damage expression, its means, the target's resistances and
immunities, weakened and insubstantial) is fixed for a (power, target) all decision long
(`damage_part`), so only the odds and the arithmetic are done per setup (`preview_at`, the
engine's operations in the engine's order: equal to the last bit).

Every memo here lives for one decision (`ai.caches.Caches`), which fixes the state; its key is
what varies within the decision. A Hypothesis test (tests/ai/test_ai_caches.py) pins each kept
value to a fresh engine preview over random fights, and tests/ai/test_ai_previews.py
`preview_at` to `preview_of` over the bundled encounters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from engine.attacks import (
    AttackerPart,
    AttackPreview,
    AttackSetup,
    SquarePart,
    TargetPart,
    attacker_part,
    compose,
    outcome_odds,
    square_part,
    target_part,
)
from engine.content.schema import Power
from engine.grid import footprint
from engine.immunity import immune_to_damage, immune_to_effects
from engine.state import Combatant

if TYPE_CHECKING:
    from ai.scoring import Context, Hit

Square = tuple[int, int]
PreviewKey = tuple[str, str, SquarePart]
"""(power, target, the square part of the attack): equal keys, equal previews."""
SquareKey = tuple[str, str, Square, Square | None]
"""(power, target, the attacker's square, the area's origin)."""


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
    pv = preview_at(ctx, p, t, compose(f.b, f.me, t, (ap, tp, sp)))
    hit = hits[key] = ctx.score_hit(p, t, pv)
    return hit


class DamagePart(NamedTuple):
    """What `engine.attacks.preview_of` reads of my power and its target besides the odds
    (fixed all decision long)."""

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


def damage_part(ctx: Context, p: Power, t: Combatant) -> DamagePart:
    """The `DamagePart` of my `p` on `t`, once per decision."""
    key = (p.id, t.id)
    got = ctx.c.damage_parts.get(key)
    if got is not None:
        return got
    f = ctx.f
    b, me = f.b, f.me
    spec = p.hit.damage if p.hit is not None else None
    expr = ctx.expr(p) if spec is not None else None
    keyword = immune_to_effects(t.creature, p)
    if spec is None or expr is None:
        part = DamagePart(None, "", None, False, False, None, 0, False, keyword)
    else:
        cr = t.creature
        types = spec.types
        half = p.miss is not None and p.miss.half_damage and not cr.minion
        resisted = bool(types) and all(ty in cr.resist for ty in types)
        part = DamagePart(
            b.ruleset.damage_means(b, me, t, p, me.weapon_for(p), expr),
            str(expr),
            expr.mean() / 2 if half else None,
            b.has(me, "weakened"),
            b.has(t, "insubstantial"),
            min(cr.resist[ty] for ty in types) if resisted else None,
            sum(cr.vulnerable.get(ty, 0) for ty in types),
            immune_to_damage(cr, types),
            keyword,
        )
    ctx.c.damage_parts[key] = part
    return part


def preview_at(ctx: Context, p: Power, t: Combatant, s: AttackSetup) -> AttackPreview:
    """`engine.attacks.preview_of(battle, me, t, p, weapon, s)`, the parts fixed for the
    decision read from `damage_part` (the same operations in the same order)."""
    d = damage_part(ctx, p, t)
    p_hit, p_crit = outcome_odds(s, ctx.f.b.ruleset)
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
