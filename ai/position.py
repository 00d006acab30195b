"""What a square is worth to end the turn on, and the map geometry the AI memoizes per terrain.

`square_value` is `Context.value`: minus the exposure (what the enemies that can reach the
square could deal next round), plus the role's terms (`ai.roles`): enemies engaged, allies
guarded, flanks set up for allies, concealment, and for soldiers a chokepoint held. It reads
the decision's facts (`ai.facts`) and memoizes in its caches (`ai.caches`). The areas of bursts and
blasts and the map's chokepoints never change for a terrain, so they are memoized per terrain
here (in `BattleMap.tables`, shared by maps drawn the same).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai.distances import graph_of
from ai.initiative import strikes_first
from ai.roles import SHARE
from engine.flanking import side_of
from engine.grid import (
    BattleMap,
    Obscured,
    blast_squares,
    burst_squares,
    close_burst_squares,
    distance,
    footprint,
    terrain_cover_level,
)
from engine.powers import spent
from engine.state import Combatant

if TYPE_CHECKING:
    from ai.scoring import Context

Square = tuple[int, int]

COVER_SHARE = {"none": 1.0, "cover": 0.75, "superior": 0.45, "blocked": 0.0}
"""How much of a ranged attacker's damage gets through cover (-2, -5 to hit; no line)."""
_SHARE_BY_LEVEL = tuple(COVER_SHARE[name] for name in ("none", "cover", "superior", "blocked"))
"""`COVER_SHARE` by the engine's cover level index (`engine.grid.terrain_cover_level`)."""
HOLD_NEAR = 8
"""A chokepoint is worth holding when an enemy is this close (squares)."""

Foe = tuple[Combatant, int, int, int, int, int, float, float, int, int, tuple[Square, ...], int]
"""An enemy as `square_value` reads it: (creature, x, y, size, reach, speed + reach, melee
danger, ranged danger share, range, 1 if it threatens an ally, its squares, how far its
bursts reach: `burst_far`, -1 without one)."""


# --- per-terrain geometry -------------------------------------------------------------------
class _MapMemo:
    """The memo tables of one terrain. Kept in the terrain's shared tables
    (`BattleMap.tables.extra`), so they serve every map drawn the same (a simulator that
    loads the encounter afresh for every fight) and go with those tables when no such map
    is in play any more."""

    __slots__ = ("bursts", "close", "narrow")

    def __init__(self) -> None:
        self.bursts: dict[tuple[Square, int], frozenset[Square]] = {}
        self.close: dict[tuple[Square, int, int, Square | None], frozenset[Square]] = {}
        self.narrow: frozenset[Square] | None = None


MEMO_LIMIT = 50_000
"""Entries of one table past which it is dropped wholesale (a refill only recomputes)."""
_KEY = "ai.position"


def _memo_of(bmap: BattleMap) -> _MapMemo:
    extra = bmap.tables.extra
    memo: _MapMemo | None = extra.get(_KEY)
    if memo is None:
        memo = extra[_KEY] = _MapMemo()
    return memo


def burst_at(bmap: BattleMap, origin: Square, n: int) -> frozenset[Square]:
    """`engine.grid.burst_squares`, memoized per terrain."""
    table = _memo_of(bmap).bursts
    key = (origin, n)
    hit = table.get(key)
    if hit is not None:
        return hit
    if len(table) >= MEMO_LIMIT:
        table.clear()
    sqs = table[key] = burst_squares(bmap, origin, n)
    return sqs


def close_area(
    bmap: BattleMap, pos: Square, size: int, n: int, blast_tl: Square | None
) -> frozenset[Square]:
    """A close burst n around `pos` (`blast_tl` None) or the blast n at `blast_tl`,
    memoized per terrain."""
    table = _memo_of(bmap).close
    key = (pos, size, n, blast_tl)
    hit = table.get(key)
    if hit is not None:
        return hit
    if len(table) >= MEMO_LIMIT:
        table.clear()
    if blast_tl is None:
        sqs = close_burst_squares(bmap, pos, size, n)
    else:
        sqs = blast_squares(bmap, pos, size, n, blast_tl)
    table[key] = sqs
    return sqs


def chokepoints(bmap: BattleMap) -> frozenset[Square]:
    """Walkable squares closed on two opposite sides (west and east, or north and south):
    doorways, gaps between pillars, one-square corridors and bridges. Memoized per terrain."""
    memo = _memo_of(bmap)
    if memo.narrow is not None:
        return memo.narrow
    walk = graph_of(bmap).cost
    out = set()
    for x, y in walk:
        closed_we = (x - 1, y) not in walk and (x + 1, y) not in walk
        closed_ns = (x, y - 1) not in walk and (x, y + 1) not in walk
        if closed_we != closed_ns:  # both: a dead end or a lone square, not a passage
            out.add((x, y))
    memo.narrow = frozenset(out)
    return memo.narrow


# --- the worth of a square ------------------------------------------------------------------
def prepare_foes(ctx: Context) -> list[Foe]:
    """The enemies as `square_value` reads them, once per decision."""
    b = ctx.f.b
    ally_sq = {sq for a in ctx.f.allies for sq in b.squares(a)}
    foes = []
    me = ctx.f.me
    k = body_share(me) if ctx.f.w.body else 1.0
    bursts = ctx.f.w.bursts
    for e in ctx.f.enemies:
        if ctx.f.w.initiative and not strikes_first(b, me, e):
            continue  # surprised, and acts after me: no blow lands before I move again
        d = ctx.danger(e)
        e_sq = b.squares(e)
        reach = d.reach
        threatens_ally = _near_any(e.pos, e.size, e_sq, reach, ally_sq)
        foes.append(
            (
                e,
                e.pos[0],
                e.pos[1],
                e.size,
                d.reach,
                d.speed + d.reach,
                k * d.melee,
                k * 0.6 * d.ranged,
                d.rng,
                1 if threatens_ally else 0,
                e_sq,
                burst_far(e, d.speed) if bursts else -1,
            )
        )
    ctx.c.foes = foes
    ctx.c.foes_near = near_foes(ctx, foes, 2 * ctx.f.b.speed(ctx.f.me) + 1)
    return foes


UNSEEN_SHARE = 0.5
"""What gets through of the blows of enemies that can't see me (F-MOD-8: -5 to hit, a quarter
of the d20, about half of a fair chance; `Context.danger` is the blows on a seen target)."""


def burst_far(e: Combatant, speed: int) -> int:
    """How far from `e`'s squares a square can be and still be caught by one of its bursts
    or blasts next round (an attack power of kind `area` or `close` it has not spent,
    X-PWR-1): its speed, plus the range and the burst of an area power or the size of a close
    one; -1 if it has none (`Weights.bursts`: a crowd draws the blows where bursts reach)."""
    far = -1
    for p in e.powers:
        if p.attack is None or p.target not in ("enemy", "creature"):
            continue
        kind = p.kind
        if kind == "area":
            n = (p.range or 0) + (p.burst or 0)
        elif kind == "close":
            n = p.burst if p.burst is not None else (p.blast or 0)
        else:
            continue
        if n > far and not spent(e, p):
            far = n
    return far + speed if far >= 0 else -1


def body_share(me: Combatant) -> float:
    """The share of the enemies' expected blows (`Context.danger`: on my side at its bare
    defenses) that my body takes: half on an insubstantial creature (F-DMG-5), `UNSEEN_SHARE`
    on an invisible one (F-MOD-11: no enemy sees it). Only what the creature is (its
    `insubstantial` and `invisible` traits): a power's invisibility (Melt into Shadow, Vanish:
    to the end of its next turn) may be gone before the blows this exposure weighs, and what
    a plan's own minor action gives is valued by `ai.utility.invisibility`."""
    k = 0.5 if me.creature.insubstantial else 1.0
    if me.creature.invisible:
        k *= UNSEEN_SHARE
    return k


def near_foes(ctx: Context, foes: list[Foe], m: int) -> tuple[int, int, int, list[Foe]]:
    """The foes that can count for a square within `m` of where I stand (two moves: the
    squares a decision values), for `Caches.foes_near`. A foe
        whose footprint is farther from mine than `m` plus the farthest it counts at (its reach,
        its speed plus reach, its range, `HOLD_NEAR` for the nearest enemy) is farther than that
        from my footprint on any such square (moving my footprint by k squares changes its
        distance to another by at most k), where it adds nothing to the exposure (a float sum
        with +0.0 terms left out is the same sum), engages and guards nothing, flanks nothing and
        isn't the nearest enemy within `HOLD_NEAR`. Kept in their order."""
    me = ctx.f.me
    mine = footprint(me.pos, me.size)
    near = []
    for foe in foes:
        _, _, _, _, reach, sr, _, ranged, rng, _, e_sq, bf = foe
        far = max(reach, sr, rng if ranged else 0, HOLD_NEAR, bf)
        if distance(mine, e_sq) - m <= far:
            near.append(foe)
    return me.pos[0], me.pos[1], m, near


def _near_any(
    pos: Square, size: int, e_sq: tuple[Square, ...], reach: int, squares: set[Square]
) -> bool:
    """Is one of `squares` within `reach` (Chebyshev) of a square of the creature at `pos`?
    By whichever is fewer: the squares of the box around it, looked up in `squares`, or
    every pair (a crowd of allies against a small box, or few allies and a long reach)."""
    side = size + 2 * reach
    if side * side < len(squares) * len(e_sq):
        x0, y0 = pos[0] - reach, pos[1] - reach
        return any((x, y) in squares for x in range(x0, x0 + side) for y in range(y0, y0 + side))
    return any(max(abs(ax - ex), abs(ay - ey)) <= reach for ax, ay in squares for ex, ey in e_sq)


def _flanking_it(ctx: Context, sq: Square, e: Combatant) -> bool:
    """Would I flank `e` from `sq` (F-MOD-1, as the engine reckons it: `flank_sides`)?"""
    sides = ctx.flank_sides(e)
    return bool(sides) and side_of(sq, ctx.f.me.size, e.pos, e.size) in sides


def _allies_near(ally_pos: tuple[Square, ...], x: int, y: int) -> int:
    """How many allies stand within 2 squares of (x, y), counting up to 3."""
    near = 0
    for ax, ay in ally_pos:
        if -2 <= ax - x <= 2 and -2 <= ay - y <= 2:
            near += 1
            if near == 3:  # no more counts
                break
    return near


def square_value(ctx: Context, sq: Square) -> float:
    """Worth of ending the turn on `sq`, whatever the attack: minus the exposure (expected
    damage from the enemies that can reach it next round: at once if it is in their reach,
    70% if they must walk, 60% for ranged attacks, less behind cover from the shooter; less
    in obscured squares and among allies), plus the role's terms for enemies engaged, allies
    guarded, concealment, flanking set up for allies and a chokepoint held."""
    foes = ctx.c.foes if ctx.c.foes is not None else prepare_foes(ctx)
    x, y = sq
    near_foes = ctx.c.foes_near
    if near_foes is not None:
        mx, my, span, close = near_foes
        if -span <= x - mx <= span and -span <= y - my <= span:
            foes = close  # the others count for nothing here (`near_foes`)
    f = ctx.f
    me = f.me
    bmap = f.bmap
    me_small = me.size == 1
    can_flank = ctx.c.can_flank
    if can_flank is None:
        can_flank = ctx.c.can_flank = f.b.can_react(me)
    exposure = 0.0
    engaged = guard = 0
    flank = 0.0
    nearest = 99
    bursting = reaching = 0  # the enemies that can hurt me there; those with a burst for it
    a_sq = (sq,) if me_small else footprint(sq, me.size)
    for e, ex, ey, es, reach, sr, melee, ranged, rng, guards, e_sq, bf in foes:
        if me_small and es == 1:
            dx = ex - x if ex > x else x - ex
            dy = ey - y if ey > y else y - ey
            gap = dx if dx > dy else dy
        else:
            gap = distance(a_sq, e_sq)
        if gap < nearest:
            nearest = gap
        m = 0.0
        if gap <= reach:
            m = melee
            engaged += 1
            guard += guards
            if gap == 1 and can_flank and _flanking_it(ctx, sq, e):
                flank += 1.0
        elif melee and gap <= sr:
            m = 0.7 * melee  # it can walk there (terrain ignored: a cheap bound)
        if ranged and gap <= rng and m < ranged:
            # Cover from the shooter where it stands (terrain; memoized by the map).
            r = ranged * _SHARE_BY_LEVEL[terrain_cover_level(bmap, e_sq, a_sq)]
            if r > m:
                m = r
        exposure += m  # never negative
        if gap <= bf:
            bursting += 1
            reaching += 1
        elif m:
            reaching += 1
    bursts = 2 * bursting >= reaching
    return _worth(ctx, sq, a_sq, exposure, engaged, guard, flank, nearest, bursts)


def _worth(
    ctx: Context,
    sq: Square,
    a_sq: tuple[Square, ...],
    exposure: float,
    engaged: int,
    guard: int,
    flank: float,
    nearest: int,
    bursts: bool,
) -> float:
    """`square_value` from what the enemies' loop found (`a_sq`: my squares on `sq`): the
    exposure, less in obscured squares and shared among allies (`Weights.crowd` where
    `bursts`: at least half of the enemies that can hurt me there have a burst that reaches
    it, when the weights read the bursts), and the role's terms."""
    f = ctx.f
    w = f.w
    x, y = sq
    bmap = f.bmap
    obscured = bmap.cells[y * bmap.width + x].obscured
    hidden = obscured is not Obscured.NONE
    if hidden:
        exposure *= 0.9 if obscured is Obscured.LIGHT else 0.8
    if exposure:
        # Allies close by share the enemies' attacks (and can answer them): a creature
        # alone in front takes them all; or, `crowd` below 0, a crowd draws them (their
        # bursts catch it: where they can, `Weights.bursts`).
        crowd = w.crowd if bursts or not w.bursts else SHARE
        exposure /= 1.0 + crowd * _allies_near(f.ally_pos, x, y)
    v = (
        -w.exposure * exposure
        + w.engaged * engaged
        + w.guard * guard
        + w.flank * flank
        + (w.concealment if hidden else 0.0)
    )
    if ctx.c.support:
        # In range of a hurt ally it can heal once there (with the minor action left).
        v += max((h for t_sq, rng, h in ctx.c.support if distance(a_sq, t_sq) <= rng), default=0.0)
    if w.hold and nearest <= HOLD_NEAR and f.allies and sq in chokepoints(bmap):
        v += w.hold  # soldiers hold a doorway or a bridge: the enemies must come through
    return v
