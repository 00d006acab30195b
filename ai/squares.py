"""Where the deciding creature can go this turn, and from which squares it attacks.

`routes_for` lists every square it can end on and the least provoking way there (the walk,
`ai.routes.routes`, kept across decisions by `kept_routes`, or the engine's search for big
creatures; plus the shift);
`far_squares` picks the few squares from which ranged and area attacks are tried (where it
stands, the shifts out of reach, and the best few by position that have a shot);
`best_post` the square to withdraw to after attacking (hit and run); `act_provokes` who an
attack from a square provokes. All read the decision's `Context` only.
"""

from __future__ import annotations

import heapq

from ai.distances import neighbours
from ai.plan import Budget
from ai.routes import Route, kept_routes
from ai.scoring import Context
from engine.content.schema import Power
from engine.grid import (
    Terrain,
    chebyshev,
    distance,
    end_squares,
    footprint,
    path_to,
    provocations,
    reachable,
)
from engine.powers import power_range

Square = tuple[int, int]


def routes_for(ctx: Context, bud: Budget, speed: int) -> dict[Square, Route]:
    """Every square it can end a move on, by its least provoking route (a shift where that
    provokes less); out of a pit, one square (a whole move)."""
    me, b = ctx.f.me, ctx.f.b
    s0 = me.pos
    prone = b.has(me, "prone")
    if b.map.cell(s0).terrain == Terrain.PIT:
        if prone or speed <= 0:
            return {}
        return {
            nb: Route(nb, (s0, nb), speed, 0)
            for nb in neighbours(ctx.f.mg, s0)
            if nb not in ctx.f.occupied and nb not in ctx.f.enemy_sq
        }
    walk: dict[Square, Route] = {}
    if not prone and speed > 0:
        if me.size == 1:
            walk = kept_routes(
                ctx.f.mg, s0, speed, ctx.f.enemy_sq, ctx.f.occupied, ctx.f.threat_mask, ctx.oa_cost
            )
        else:
            walk = big_routes(ctx, speed, "walk")
    if me.size == 1:
        shifts = {
            nb: Route(nb, (s0, nb), 1, 0, "shift")
            for nb in ctx.f.mg.adj.get(s0, ())
            if ctx.f.mg.cost[nb] <= 1 and nb not in ctx.f.occupied
        }
    else:
        shifts = big_routes(ctx, 1, "shift")
    for sq, r in shifts.items():
        w = walk.get(sq)
        if w is None or w.mask:
            walk[sq] = r
    return walk


def big_routes(ctx: Context, budget_: int, mode: str) -> dict[Square, Route]:
    """`routes_for` for a Large or bigger creature, by the engine's own search."""
    me, b = ctx.f.me, ctx.f.b
    rmap = reachable(b.map, me.pos, budget_, me.id, me.side, me.size, ctx.f.occ)
    out = {}
    for sq in end_squares(rmap, me.id, ctx.f.occ, me.size):
        if sq == me.pos:
            continue
        path = tuple(path_to(rmap, sq))
        mask = 0
        if mode == "walk":
            for _, eid in provocations(path, ctx.f.threat, me.size):
                mask |= ctx.f.threat_bit[eid]
        out[sq] = Route(sq, path, rmap[sq][0], mask, mode)
    return out


def far_squares(
    ctx: Context,
    powers: list[Power],
    attack_sq: dict[Square, Route | None],
    route_cost: dict[Square, tuple[float, float, tuple[str, ...]]],
    moves: dict[Square, Route],
    top_k: int,
) -> list[Square]:
    """The squares from which ranged and area attacks are tried: where it stands, the
    shifts, and the best few (by position) with an enemy within the longest range."""
    far = [p for p in powers if p.kind in ("ranged", "area", "close")]
    if not far or not attack_sq:
        return []
    me = ctx.f.me
    threatened = bool(ctx.f.threat_mask.get(me.pos, 0))
    rng = max((p.range or 0) + (p.burst or 0) for p in far)
    if any(p.kind == "close" for p in far):
        rng = max(rng, max((p.burst or p.blast or 1) for p in far if p.kind == "close"))
    out: list[Square] = []
    pool = []
    keep_range = ctx.f.w.keep_range
    # Every square is within `rng` of an enemy when the start is, by a margin of speed.
    far_off = ctx.nearest_gap(me.pos) + ctx.f.b.speed(me) + 1 > rng
    for sq in attack_sq:
        if far_off:
            gap = ctx.nearest_gap(sq)
        else:
            gap = ctx.gap_capped(sq) if keep_range else 0
        if gap > rng:
            continue
        if sq == me.pos or (threatened and sq in moves and moves[sq].mode == "shift"):
            out.append(sq)
            continue
        r = moves.get(sq)
        walk = r.cost if r is not None else 0
        rank = -min(gap, 6) if keep_range else 0.1 * walk
        pool.append((rank + route_cost[sq][0], sq))
    pool.sort()
    if all(p.kind == "ranged" for p in far):
        # Only squares with a shot at someone (a wall or a corner in the way leaves many
        # squares in range with none): an end square without one can't be an attack.
        longest = max(far, key=lambda p: power_range(me, p))
        near = sorted(ctx.f.enemies, key=lambda t: chebyshev(me.pos, t.pos))[:4]
        short = []
        for _, sq in pool:
            if any(ctx.in_reach(longest, t, sq) for t in near):
                short.append(sq)
                if len(short) >= 3 * top_k:
                    break
    else:
        short = [sq for _, sq in pool[: 3 * top_k]]
    short.sort(key=lambda sq: -(ctx.value(sq) - route_cost[sq][0]))
    out.extend(short[:top_k])
    return out


def best_post(
    ctx: Context,
    moves: dict[Square, Route],
    route_cost: dict[Square, tuple[float, float, tuple[str, ...]]],
) -> tuple[Route, float] | None:
    """The best square to move to after attacking from where it stands (hit and run):
    among the shifts and the squares farthest from the enemies."""
    pool = []
    keyed = []
    gap = ctx.gap_capped
    for sq, r in moves.items():
        if r.mode == "shift":
            pool.append(sq)
        else:
            keyed.append((route_cost[sq][0] - gap(sq), sq))
    # The 8 best by a key that orders every square (the square breaks ties): `nsmallest`
    # is `sorted(...)[:8]` without sorting the whole turn's squares (over the keys built in
    # one pass, with no key function called per square).
    pool.extend([sq for _, sq in heapq.nsmallest(8, keyed)])
    best: tuple[Route, float] | None = None
    for sq in pool:
        v = ctx.value(sq) - route_cost[sq][0]
        if best is None or v > best[1]:
            best = (moves[sq], v)
    return best


def act_provokes(ctx: Context, sq: Square, r: Route | None) -> tuple[float, float, tuple[str, ...]]:
    """Ranged and area attacks provoke adjacent enemies that have not yet had an
    opportunity attack on this move."""
    done = r.mask if r is not None else 0
    key = (sq, done)
    hit = ctx.c.act_provokes.get(key)
    if hit is not None:
        return hit
    out = _act_provokes_at(ctx, sq, done)
    ctx.c.act_provokes[key] = out
    return out


def _act_provokes_at(ctx: Context, sq: Square, done: int) -> tuple[float, float, tuple[str, ...]]:
    a_sq = footprint(sq, ctx.f.me.size)
    cost, surv, who = 0.0, 1.0, []
    for i, eid in enumerate(ctx.f.threat_ids):
        if done >> i & 1:
            continue
        e = ctx.f.b[eid]
        if distance(a_sq, footprint(e.pos, e.size)) == 1:
            cost += ctx.oa_cost[i]
            surv *= 1.0 - ctx.oa_drop[i]
            who.append(eid)
    return cost, surv, tuple(who)
