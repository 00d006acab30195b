"""The engine's attack previews "as if I stood there", shared between squares that change
nothing in them.

Scoring a candidate (end square x power x target) needs `engine.attacks.preview(at=square)`;
most squares differ in nothing the preview reads, so one preview serves them all. The cache
key (`preview_key`) is made of exactly what `engine.attacks.setup` and `preview` read from the
attacker's squares (or the area's origin), for creatures of every size:

- melee and ranged: adjacency (combat advantage on a prone target, a coup de grace, a prone
  target's defense against ranged attacks), flanking (F-MOD-1), cover (creatures count
  against ranged attacks) and concealment (which also says whether the target is seen);
- close and area: the cover from the area's origin or my squares (terrain only) and whether
  the target is seen at all (combat advantage needs it);
- every kind: the ruleset's situational modifiers from those squares (4srd's range penalty).

Everything else a preview reads is the same for the whole decision. A differential test
(tests/ai/test_ai_properties.py) pins each shared value to the engine's own preview.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.attacks import preview
from engine.content.schema import Power
from engine.events import Mod
from engine.grid import concealment, cover, distance, footprint
from engine.state import Combatant

if TYPE_CHECKING:
    from ai.scoring import Context, Hit

Square = tuple[int, int]
Geometry = tuple[bool, bool, str, str]
"""(adjacent, flanking, cover, concealment) of an attack from a square."""
PreviewKey = tuple[str, str, object, object, object, object, tuple[Mod, ...]]
"""(power, target, then the square-dependent inputs of the preview: see the module docstring)."""


def preview_key(
    ctx: Context, p: Power, t: Combatant, at: Square, origin: Square | None
) -> PreviewKey:
    """What the preview of my `p` on `t` from `at` (area origin `origin`) depends on."""
    f = ctx.f
    a_sq = footprint(at, f.me.size)
    t_sq = f.b.squares(t)
    mods = tuple(f.b.ruleset.situational_modifiers(f.b, f.me, t, p, f.me.weapon_for(p), a_sq, t_sq))
    if p.kind in ("area", "close"):
        seen = concealment(f.bmap, a_sq, t_sq) != "total"
        src = (origin,) if origin is not None and p.kind == "area" else a_sq
        terrain = cover(f.bmap, src, t_sq, count_creatures=False)
        return (p.id, t.id, p.kind, terrain, seen, origin is None, mods)
    adj, flank, cov, conceal = geometry(ctx, at, t, p.kind == "ranged")
    return (p.id, t.id, adj, flank, cov, conceal, mods)


def hit_at(
    ctx: Context, p: Power, t: Combatant, at: Square, origin: Square | None = None
) -> Hit | None:
    """`Context.score_hit` of the engine's preview as if I stood at `at` (None: no attack
    roll), shared between the squares with the same `preview_key`."""
    key = preview_key(ctx, p, t, at, origin)
    hits = ctx.c.hits
    if key in hits:
        return hits[key]
    f = ctx.f
    pv = preview(f.b, f.me, t, p, (origin,) if origin is not None else None, at=at)
    hit = ctx.score_hit(p, t, pv) if pv is not None else None
    hits[key] = hit
    return hit


def geometry(ctx: Context, at: Square, t: Combatant, ranged: bool) -> Geometry:
    """Adjacency, flanking, cover and concealment of an attack on `t` from `at`."""
    gkey = (at, t.id, ranged)
    memo = ctx.c.geometry
    hit = memo.get(gkey)
    if hit is not None:
        return hit
    f = ctx.f
    a_sq = footprint(at, f.me.size)
    t_sq = f.b.squares(t)
    conceal = concealment(f.bmap, a_sq, t_sq)
    adj = distance(a_sq, t_sq) == 1
    if ranged:
        blockers = ctx.c.blockers.get(t.id)
        if blockers is None:
            blockers = f.enemy_sq.difference(t_sq)
            ctx.c.blockers[t.id] = blockers
        # Only creatures inside the two squares' bounding box can cut a corner line;
        # with none there the cover is the terrain's (memoized by the map).
        xs = [x for x, _ in a_sq] + [x for x, _ in t_sq]
        ys = [y for _, y in a_sq] + [y for _, y in t_sq]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        near = frozenset((x, y) for x, y in blockers if x0 <= x <= x1 and y0 <= y <= y1)
        cov = cover(f.bmap, a_sq, t_sq, blockers=near)
    else:
        cov = cover(f.bmap, a_sq, t_sq, count_creatures=False)
    flank = adj and ctx.flanks(at, t)
    out = (adj, flank, str(cov), str(conceal))
    memo[gkey] = out
    return out
