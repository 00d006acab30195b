"""Every way to use one attack power this turn, scored per target: the candidates the
tactical policy (`ai.tactical`) weighs against each other.

- Melee: each target from each reachable square within reach of it.
- Ranged: the few targets worth shooting (ranked once per decision) from the best few
  squares by position.
- Close bursts and blasts, area bursts: every placement catching an enemy, ranked by a rough
  count (enemies caught minus allies caught), the best few scored exactly.

Scores come from `Context.hit_at`, the engine's own preview as if the attacker stood there.
"""

from __future__ import annotations

from ai.position import burst_at, close_area
from ai.previews import hit_at
from ai.routes import Route
from ai.scoring import Context, Hit
from engine.content.schema import Power
from engine.grid import (
    BattleMap,
    blast_origins,
    distance,
    footprint,
    line_of_effect,
    threatened_squares,
)
from engine.powers import power_range
from engine.state import Combatant

Square = tuple[int, int]
ROUGH_KEEP = 8
"""Area placements (origins, blasts) scored exactly, after a rough count of who is caught."""
Candidate = tuple[Square, list[Hit], Square | None]
"""(square to attack from, scored targets, area origin or blast corner)."""
_BLASTS: dict[tuple[int, int, Square, int, int], list[Square]] = {}
"""`blasts_of`: (map width, height, square, size, blast) -> `engine.grid.blast_origins`."""


def blasts_of(bmap: BattleMap, sq: Square, size: int, n: int) -> list[Square]:
    """`engine.grid.blast_origins`, kept across decisions: it reads only the map's bounds
    (which blasts have a square on it), so the key is those and the blast's own numbers
    (tests/ai/test_ai_caches.py compares it with the engine's over random maps)."""
    key = (bmap.width, bmap.height, sq, size, n)
    hit = _BLASTS.get(key)
    if hit is None:
        if len(_BLASTS) > 65536:
            _BLASTS.clear()
        hit = _BLASTS[key] = blast_origins(bmap, sq, size, n)
    return hit


def attack_options(
    ctx: Context,
    p: Power,
    targets: list[Combatant],
    attack_sq: dict[Square, Route | None],
    top: list[Square],
) -> list[Candidate]:
    """(square, scored targets, area origin) for each way to use `p` (one generator per kind
    of power)."""
    if p.kind == "melee" and p.target != "self":
        return melee_options(ctx, p, targets, attack_sq)
    if p.kind == "ranged":
        return ranged_options(ctx, p, targets, top)
    if p.kind == "close":
        return close_options(ctx, p, attack_sq, top)
    if p.kind == "area" and p.burst is not None and p.range is not None:
        return area_options(ctx, p, top)
    return []


def melee_options(
    ctx: Context, p: Power, targets: list[Combatant], attack_sq: dict[Square, Route | None]
) -> list[Candidate]:
    """Each target from each square it can attack from within reach of it."""
    f = ctx.f
    me = f.me
    rng = power_range(me, p)
    out: list[Candidate] = []
    for t in targets:
        if me.size == 1:
            ring = threatened_squares(f.bmap, t.pos, t.size, rng)
            cands = [sq for sq in ring if sq in attack_sq]
        else:
            cands = [sq for sq in attack_sq if ctx.in_reach(p, t, sq)]
        for sq in cands:
            hit = hit_at(ctx, p, t, sq)
            if hit is not None:
                out.append((sq, [hit], None))
    return _multi(p, out)


def ranged_options(
    ctx: Context, p: Power, targets: list[Combatant], top: list[Square]
) -> list[Candidate]:
    """The few targets worth shooting (`shortlist`) from the best few squares."""
    chosen = shortlist(ctx, p, targets, top)
    out: list[Candidate] = []
    for sq in top:
        for t in chosen:
            if not ctx.in_reach(p, t, sq):
                continue
            hit = hit_at(ctx, p, t, sq)
            if hit is not None:
                out.append((sq, [hit], None))
    return _multi(p, out)


def close_options(
    ctx: Context, p: Power, attack_sq: dict[Square, Route | None], top: list[Square]
) -> list[Candidate]:
    """Close bursts and blasts: every placement ranked by a rough count (enemies caught,
    allies caught; walls ignored), the best few worked out and scored exactly."""
    rough = sorted(_close_placements(ctx, p, attack_sq, top), key=lambda x: (-x[0], x[1]))
    size = ctx.f.me.size
    out: list[Candidate] = []
    for score, _, sq, tl in rough[:ROUGH_KEEP]:
        if score <= 0:
            break
        if p.burst is not None:
            area = close_area(ctx.f.bmap, sq, size, p.burst, None)
        else:
            assert p.blast is not None
            area = close_area(ctx.f.bmap, sq, size, p.blast, tl)
        hits = area_hits(ctx, p, area, sq, None)
        if hits:
            out.append((sq, hits, tl))
    return out


def _close_placements(
    ctx: Context, p: Power, attack_sq: dict[Square, Route | None], top: list[Square]
) -> list[tuple[float, int, Square, Square | None]]:
    """(rough score, order, square, blast corner) of every placement worth ranking."""
    f = ctx.f
    me = f.me
    size = me.size
    if p.burst is not None:  # every burst at once, in `near`'s order
        near = set(top)
        for t in f.enemies:
            for sq in threatened_squares(f.bmap, t.pos, t.size, p.burst):
                if sq in attack_sq:
                    near.add(sq)
        order = list(near)
        totals = ctx.rough_bursts(p, order, p.burst, size, True)
        pairs = zip(totals, order, strict=True)
        return [(total, i, sq, None) for i, (total, sq) in enumerate(pairs)]
    if p.blast is None:
        return []
    b = p.blast
    rough: list[tuple[float, int, Square, Square | None]] = []
    for sq in set(top[:4]) | ({me.pos} if me.pos in attack_sq else set()):
        for cx, cy in blasts_of(f.bmap, sq, size, b):
            box = (cx, cy, cx + b - 1, cy + b - 1)
            rough.append((ctx.rough_box(box, p, sq), len(rough), sq, (cx, cy)))
    return rough


def area_options(ctx: Context, p: Power, top: list[Square]) -> list[Candidate]:
    """Area bursts: the origins catching an enemy, ranked roughly, the best few scored
    exactly; each of the best few squares uses the two best origins it can reach."""
    assert p.range is not None
    scored = _area_origins(ctx, p)
    me = ctx.f.me
    out: list[Candidate] = []
    for sq in top:
        a_sq = footprint(sq, me.size)
        found = 0
        for _, o, hits in scored:
            if distance(a_sq, (o,)) > p.range or not line_of_effect(ctx.f.bmap, a_sq, (o,)):
                continue
            out.append((sq, hits, o))
            found += 1
            if found >= 2:
                break
    return out


def _area_origins(ctx: Context, p: Power) -> list[tuple[float, Square, list[Hit]]]:
    """(worth, origin, scored creatures) of the best area origins, best first."""
    assert p.burst is not None
    f = ctx.f
    r = p.burst
    origins: set[Square] = set()
    for t in f.enemies:
        x, y = t.pos
        for ox in range(x - r, x + t.size + r):
            for oy in range(y - r, y + t.size + r):
                if f.bmap.in_bounds((ox, oy)) and not f.bmap.blocks_sight((ox, oy)):
                    origins.add((ox, oy))
    order = sorted(origins)
    coarse = list(zip(ctx.rough_bursts(p, order, r, 1, False), order, strict=True))
    coarse.sort(key=lambda x: -x[0])
    scored = []
    for score, o in coarse[:ROUGH_KEEP]:
        if score <= 0:
            break
        hits = area_hits(ctx, p, burst_at(f.bmap, o, r), f.me.pos, o)
        v = sum(h.value for h in hits)
        if hits and v > 0:
            scored.append((v, o, hits))
    scored.sort(key=lambda x: -x[0])
    return scored


def shortlist(
    ctx: Context, p: Power, targets: list[Combatant], top: list[Square]
) -> list[Combatant]:
    """The few targets worth a ranged attack, ranked once per decision by the first
    ranged power tried, from the first square that reaches each (cover and flanking
    change the odds from square to square, not the ranking). Not ranked at all while the
    ranking can't leave anyone out: the first call's targets (the ones ranked) are fewer
    than this call keeps, so the ranking is shorter than `want` and every target is kept."""
    want = max(3, p.targets + 1)
    c = ctx.c
    ranked = c.shortlist
    if ranked is None:
        if c.shortlist_by is None:
            c.shortlist_by = (p, list(targets), list(top))
        if len(c.shortlist_by[1]) < want:
            # Left to a later call that keeps fewer, which ranks them as the first call
            # would have. (Not `len(targets) <= want`: a ranking of the first call's
            # targets can hold `want` others and leave some of these out.)
            return list(targets)
        ranker, among, tried = c.shortlist_by
        first: dict[str, float] = {}
        # A rough priority first (value per hit point left): only the best few are
        # previewed, so a crowd of enemies costs little.
        rough = sorted(among, key=lambda t: -ctx.priority(t))[:6]
        for sq in tried:
            for t in rough:
                if t.id in first or not ctx.in_reach(ranker, t, sq):
                    continue
                hit = hit_at(ctx, ranker, t, sq)
                first[t.id] = hit.value if hit is not None else -1e9
        ranked = sorted(first, key=lambda tid: -first[tid])
        c.shortlist = ranked
    keep = set(ranked[:want])
    return [t for t in targets if t.id in keep or (len(ranked) < want)]


def _multi(p: Power, out: list[Candidate]) -> list[Candidate]:
    """Powers with several targets: the best few from each square."""
    if p.targets <= 1 or not out:
        return out
    by_sq: dict[Square, list[Hit]] = {}
    for sq, hits, _ in out:
        by_sq.setdefault(sq, []).extend(hits)
    res: list[Candidate] = []
    for sq, hits in by_sq.items():
        hits.sort(key=lambda h: -h.value)
        best = [h for h in hits[: p.targets] if h.value > 0] or hits[:1]
        res.append((sq, best, None))
    return res


def area_hits(
    ctx: Context, p: Power, area: frozenset[Square], at: Square, origin: Square | None
) -> list[Hit]:
    """The scored creatures an area catches. When it catches more than the power may affect
    ("close burst 5, one ally"), the user picks: the best `p.targets` of them, which the
    policy then names in the action."""
    hits = []
    for t in ctx.creatures_in(area, p, at):
        hit = hit_at(ctx, p, t, at, origin)
        if hit is not None:
            hits.append(hit)
    if len(hits) > p.targets:
        hits = sorted(hits, key=lambda h: -h.value)[: p.targets]
    if not any(not h.ally for h in hits):
        return []
    return hits
