"""The AI's speed rewrites (issue 14) answer exactly what the plain code answers: Hypothesis
over random fights (random maps, creatures of every size with a Large ogre among them,
conditions picked up mid-fight, the three rulesets).

- `square_value` (the enemies' squares read once per decision, the per-decision "may I
  flank at all", one branch per enemy without a ranged threat) equals the plain loop kept
  here, square by square, for every creature of both sides, its memo (`Context.value`) too;
  and which enemies threaten an ally (`prepare_foes`: by the box around the enemy or by
  every pair, whichever is fewer) equals the pairwise distance;
- `Context.rough_box` (the inlined memo lookup and box test) equals a count from first
  principles (a creature's footprint overlapping the box);
- `best_post` (the 8 best squares by `heapq.nsmallest`) equals the full sort it replaces;
- `Turn.route_cost` (the shared "provokes no one" entry) equals `Turn.oa` of each route.

These are differentials, not timings: the benchmark (tests/benchmarks/bench_speed.py) times.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.config import CONFIGS
from ai.memory import SideMemory
from ai.plan import budget
from ai.position import COVER_SHARE, HOLD_NEAR, chokepoints, prepare_foes
from ai.roles import SHARE, weights_for
from ai.scoring import Context
from ai.squares import best_post
from ai.turn import Habits, Turn
from engine.encounter import Encounter
from engine.flanking import side_of
from engine.grid import Obscured, cover, distance, footprint
from engine.state import Combatant
from tests.ai.random_fights import MID_FIGHTS, mid_fight_of

STATES = MID_FIGHTS

Square = tuple[int, int]


def plain_square_value(ctx: Context, sq: Square) -> float:
    """`square_value` as it read before issue 14's rewrite: the reference (with round 10's
    `read_bursts`: the crowd weight where at least half of those that can hurt me have a
    burst for the square)."""
    foes = prepare_foes(ctx)
    w, b, me = ctx.f.w, ctx.f.b, ctx.f.me
    can_flank = b.can_react(me)
    x, y = sq
    exposure = 0.0
    engaged = guard = 0
    flank = 0.0
    nearest = 99
    a_sq = footprint(sq, me.size)
    bursting = reaching = 0
    for e, _ex, _ey, _es, reach, sr, melee, ranged, rng, guards, _sq, _bf in foes:
        gap = distance(a_sq, b.squares(e))
        nearest = min(nearest, gap)
        m = 0.0
        if gap <= reach:
            m = melee
            engaged += 1
            guard += guards
            sides = ctx.flank_sides(e)
            if gap == 1 and can_flank and sides and side_of(sq, me.size, e.pos, e.size) in sides:
                flank += 1.0
        elif melee and gap <= sr:
            m = 0.7 * melee
        r = 0.0
        if ranged and gap <= rng and m < ranged:
            level = cover(ctx.f.bmap, b.squares(e), a_sq, count_creatures=False)
            r = ranged * COVER_SHARE[level]
        exposure += m if m > r else r
        bursts = w.bursts and gap <= plain_burst_far(e, ctx.danger(e).speed)
        bursting += bursts
        reaching += bursts or max(m, r) > 0
    obscured = ctx.f.bmap.cell(sq).obscured
    hidden = obscured is not Obscured.NONE
    if hidden:
        exposure *= 0.9 if obscured is Obscured.LIGHT else 0.8
    if exposure:
        near = sum(1 for ax, ay in ctx.f.ally_pos if max(abs(ax - x), abs(ay - y)) <= 2)
        crowd = w.crowd if not w.bursts or bursting * 2 >= reaching else SHARE
        exposure /= 1.0 + crowd * min(near, 3)
    v = (
        -w.exposure * exposure
        + w.engaged * engaged
        + w.guard * guard
        + w.flank * flank
        + (w.concealment if hidden else 0.0)
    )
    if ctx.c.support:
        v += max((h for t_sq, rng, h in ctx.c.support if distance(a_sq, t_sq) <= rng), default=0.0)
    if w.hold and nearest <= HOLD_NEAR and ctx.f.allies and sq in chokepoints(ctx.f.bmap):
        v += w.hold
    return v


def plain_burst_far(e: Combatant, speed: int) -> int:
    """`ai.position.burst_far` spelled out: speed plus the farthest square an unspent area
    (range + burst) or close (burst or blast) attack of `e` reaches, or -1."""
    sizes = []
    for p in e.powers:
        spent = p.usage != "at-will" and p.id in e.used_powers
        if p.attack is None or spent or p.target not in ("enemy", "creature"):
            continue
        if p.kind == "area":
            sizes.append((p.range or 0) + (p.burst or 0))
        elif p.kind == "close":
            sizes.append(p.burst if p.burst is not None else (p.blast or 0))
    return speed + max(sizes) if sizes else -1


_fight = mid_fight_of


def _deciders(enc: Encounter) -> list[Combatant]:
    return [c for c in enc.battle.combatants.values() if c.standing]


def _places(enc: Encounter, c: Combatant) -> list[Square]:
    """Every square the creature's footprint fits on (walls included: the value of a square
    does not ask whether it can be entered)."""
    b = enc.battle
    return [
        (x, y) for x in range(b.map.width - c.size + 1) for y in range(b.map.height - c.size + 1)
    ]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**STATES)
def test_square_value_equals_the_plain_loop(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str
) -> None:
    enc = _fight(map_seed, n, seed, steps, ruleset)
    if enc is None:
        return
    b = enc.battle
    for c in _deciders(enc):
        # The role's weights, and `tactical`'s (crowd -0.1 where the bursts reach).
        for w in (weights_for(c), weights_for(c, config=CONFIGS["tactical"])):
            ctx = Context(enc, c, w, SideMemory())
            plain = Context(enc, c, w, SideMemory())
            ally_sq = [sq for a in plain.f.allies for sq in b.squares(a)]
            for e, *_, guards, e_sq, _bf in prepare_foes(plain):
                reach = plain.danger(e).reach
                near = any(distance((a,), e_sq) <= reach for a in ally_sq)
                assert guards == (1 if near else 0), (c.id, e.id)
            for sq in _places(enc, c):
                want = plain_square_value(plain, sq)
                assert ctx.value(sq) == want, (c.id, c.size, sq)
                assert ctx.value(sq) == want  # the memo's answer


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(STATES["map_seed"], STATES["n"], STATES["seed"], STATES["steps"], st.data())
def test_rough_box_counts_the_footprints_in_the_box(
    map_seed: int, n: int, seed: int, steps: int, data: st.DataObject
) -> None:
    enc = _fight(map_seed, n, seed, steps, "ffd20")
    if enc is None:
        return
    b = enc.battle
    for c in _deciders(enc):
        ctx = Context(enc, c, weights_for(c), SideMemory())
        for p in [p for p in c.powers if p.kind in ("close", "area")]:
            rough = ctx._rough_creatures(p)
            for _ in range(12):
                x0 = data.draw(st.integers(-2, b.map.width))
                y0 = data.draw(st.integers(-2, b.map.height))
                x1 = x0 + data.draw(st.integers(0, 5))
                y1 = y0 + data.draw(st.integers(0, 5))
                at = data.draw(st.sampled_from(_places(enc, c)))
                want = 0.0
                for who, cx, cy, size, weight in rough:
                    if who is c:
                        cx, cy = at
                    squares = footprint((cx, cy), size)
                    if any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in squares):
                        want += weight
                assert ctx.rough_box((x0, y0, x1, y1), p, at) == want


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**STATES)
def test_best_post_and_route_costs_equal_the_full_sort(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str
) -> None:
    enc = _fight(map_seed, n, seed, steps, ruleset)
    if enc is None or enc.current is None or not enc.current.standing:
        return
    c = enc.current
    ctx = Context(enc, c, weights_for(c), SideMemory())
    turn = Turn.of(ctx, budget(ctx.f.b, c), Habits(0, None, None), False)
    for sq, r in turn.moves.items():
        assert turn.route_cost[sq] == turn.oa(r)
    assert turn.route_cost[c.pos] == (0.0, 1.0, ())
    got = best_post(ctx, turn.moves, turn.route_cost)
    # The reference: every square sorted, the 8 best walked to (shifts always in the pool).
    pool = [sq for sq, r in turn.moves.items() if r.mode == "shift"]
    rest = sorted(
        (sq for sq, r in turn.moves.items() if r.mode != "shift"),
        key=lambda sq: (turn.route_cost[sq][0] - ctx.gap_capped(sq), sq),
    )
    pool.extend(rest[:8])
    want = None
    for sq in pool:
        v = ctx.value(sq) - turn.route_cost[sq][0]
        if want is None or v > want[1]:
            want = (turn.moves[sq], v)
    assert got == want
