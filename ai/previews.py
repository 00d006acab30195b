"""The engine's attack previews "as if I stood there", shared between squares that change
nothing in them.

Scoring a candidate (end square x power x target) needs the engine's preview as if the
attacker stood on the square. The engine's `setup` is three parts (`engine.attacks`): the
attacker's (per power), the target's (per power and target) and the squares'. A decision
works out the first two once per (power, target) and only the square part per candidate
square; the preview is composed from them by the engine's own `compose` and `preview_of`, so
no rule is copied here. Squares with equal square parts give equal previews, so the scored
preview is kept per (power, target, square part) and shared between them.

The preview itself comes in the engine's two parts the same way: what it reads besides the
odds (`engine.preview.damage_part`: the damage expression, its means, the target's
resistances and immunities, weakened and insubstantial) is fixed for a (power, target) all
decision long, so only the odds and the arithmetic (`engine.preview.preview_at`) are done per
setup.

The square part reads of the power only its kind (and, under a ruleset with situational
modifiers, the power and weapon themselves), and of the two parts only what the target's
part says about being seen, granted combat advantage and flanked: the powers of one kind
on one target share their square parts (`share_key`), about two in five of them in a
`default` fight.

Every memo here lives for one decision (`ai.caches.Caches`), which fixes the state; its key is
what varies within the decision. A Hypothesis test (tests/ai/test_ai_caches.py) pins each kept
value to a fresh engine preview over random fights, and tests/ai/test_ai_previews.py the
parts kept for a decision to the engine's `preview_of` over the bundled encounters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.attacks import (
    AttackerPart,
    SquarePart,
    TargetPart,
    attacker_part,
    compose,
    square_part,
    target_part,
)
from engine.content.schema import Power
from engine.grid import footprint
from engine.preview import DamagePart, preview_at
from engine.preview import damage_part as engine_damage_part
from engine.state import Combatant

if TYPE_CHECKING:
    from ai.scoring import Context, Hit

Square = tuple[int, int]
PreviewKey = tuple[str, str, SquarePart]
"""(power, target, the square part of the attack): equal keys, equal previews."""
_FLANKING = ("melee", "ranged")
"""The attacks flanking can give combat advantage to (`engine.attacks.TargetPart.flankable`)."""
SquareKey = tuple[int, Square, Square | None]
"""(the power's share group on the target (`share_key`), the attacker's square, the area's
origin)."""


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
        # The flank sides are the target's, whatever the power: asked once per target (and
        # shared with `square_value`'s flanking term through `Context.flank_sides`) for the
        # powers whose attacks flanking may help (the engine works them out itself if not).
        flank = ctx.flank_sides(t) if ap.can_react and ap.kind in _FLANKING else None
        tp = c.target_parts[tkey] = target_part(ctx.f.b, ctx.f.me, t, ap, sides=True, flank=flank)
    return ap, tp


def share_key(ctx: Context, p: Power, t: Combatant) -> int:
    """The group of my `p` on `t` whose square parts are equal square for square: everything
    `engine.attacks.square_part` reads that may differ between two powers on one target (the
    attack's kind, what the target's part says about sight, combat advantage, flanking and
    blockers, the attacker's part's reactions through it) and, when the ruleset adds
    situational modifiers (which read the power and weapon), the power itself. Interned to a
    small int once per (power, target) a decision."""
    tkey = (p.id, t.id)
    c = ctx.c
    gid = c.share_ids.get(tkey)
    if gid is not None:
        return gid
    ap, tp = parts_for(ctx, p, t)
    own = p.id if ctx.f.b.ruleset.situational else None
    reads = (
        t.id,
        ap.kind,
        ap.can_react,
        tp.conds,
        tp.granted,
        tp.hidden,
        tp.unseen_attacker,
        tp.flankable,
        tp.sides,
        tp.blockers,
        own,
    )
    gid = c.share_groups.get(reads)
    if gid is None:
        gid = c.share_groups[reads] = len(c.share_groups)
    c.share_ids[tkey] = gid
    return gid


def square_part_at(
    ctx: Context, p: Power, t: Combatant, at: Square, origin: Square | None
) -> SquarePart:
    """The square part of my `p` on `t` from `at` (area or close origin `origin`), shared by
    the powers of its `share_key` group."""
    c = ctx.c
    gid = c.share_ids.get((p.id, t.id))
    if gid is None:
        gid = share_key(ctx, p, t)
    skey = (gid, at, origin)
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
    c = ctx.c
    gid = c.share_ids.get((p.id, t.id))
    sp = c.square_parts.get((gid, at, origin)) if gid is not None else None
    if sp is None:
        sp = square_part_at(ctx, p, t, at, origin)
    key = (p.id, t.id, sp)
    hits = c.hits
    hit = hits.get(key)
    if hit is not None:
        return hit
    f = ctx.f
    ap, tp = parts_for(ctx, p, t)
    pv = preview_at(damage_part(ctx, p, t), compose(f.b, f.me, t, (ap, tp, sp)), f.b.ruleset)
    hit = hits[key] = ctx.score_hit(p, t, pv)
    return hit


def damage_part(ctx: Context, p: Power, t: Combatant) -> DamagePart:
    """The engine's `DamagePart` of my `p` on `t`, once per decision."""
    key = (p.id, t.id)
    got = ctx.c.damage_parts.get(key)
    if got is None:
        me = ctx.f.me
        got = ctx.c.damage_parts[key] = engine_damage_part(
            ctx.f.b, me, t, p, me.weapon_for(p), ctx.expr(p)
        )
    return got
