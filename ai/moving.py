"""Candidate turns with no attack: walk toward the enemy it wants (or away when fleeing), or
stay; and the second move of a double move.

The enemy it wants is the most appealing one (worth of dropping it, focus, how far it is;
kept from last turn unless another is clearly better: `STICKY`). Squares are ranked by the
walking distance left to it (the side's distance maps, `ai.distances.DistanceCache`; an A*
path when it is far away), weighted by the role's `approach` and by how long the creature has
been idle (boldness), plus the worth of the square (`Turn.value`).

Patience (`Weights.patience`, from `AIConfig.patience`): a turn with no attack also pays for
ending where enemies can walk up and strike before it acts again (`first_strike`), so a
creature that can't attack this turn waits at the edge of the enemies' reach and lets them
come, rather than walking in to be hit first. Each idle turn wears the patience down (none
left after `Weights.patient_turns` idle turns), so two patient sides still meet.
"""

from __future__ import annotations

from collections.abc import Sequence

from ai.caches import Provoked
from ai.comers import keeping_off, opening
from ai.distances import Distances, LazyDistances, path_toward
from ai.initiative import strikes_first
from ai.memory import Danger
from ai.plan import Option
from ai.profile import profile_of
from ai.provoking import PROVOKE_TIE, calmest
from ai.routes import Route, kept_routes
from ai.scoring import Context
from ai.turn import Turn
from engine.battle import Battle
from engine.grid import chebyshev, footprint, line_of_effect, threatened_squares
from engine.powers import power_range
from engine.state import Combatant

Square = tuple[int, int]
MOVE_KEEP = 8
"""Moves without an attack scored in full (position), after ranking by approach alone."""
CAP = 16
"""Reach of the per-enemy distance maps: 2 x speed + reach for the usual speeds (one cap for
everyone, so that every creature of a side shares every map)."""
FAR = 40
"""Beyond this many squares from the enemy it wants, a creature walks an A* path instead of
reading that enemy's distance map (which would cover most of a big map)."""
HOLD_MARGIN = 1.0
"""A move that gets no closer to the enemy must make the position this much better."""
STICKY = 1.3
"""The enemy walked toward last turn stays the goal unless another is this much more
appealing (two goals in turn would have it walk back and forth)."""


def moving_options(
    turn: Turn,
    moves: dict[Square, Route],
    route_cost: dict[Square, Provoked],
    fleeing: bool,
    exact: bool,
) -> list[Option]:
    """The moves with no attack (toward the enemy it wants; away when fleeing) and staying
    put, best first.

    A move must get it closer to that enemy (walking distance, or into range for a ranged
    attacker), or else reach a clearly better square (HOLD_MARGIN) and not the one it left
    last turn: otherwise two squares that score alike would have it walk out and back every
    turn, and two sides that each wait for the other would never meet."""
    ctx = turn.ctx
    s0 = ctx.f.me.pos
    if fleeing:
        goal: str | None = None
        approach = {sq: 0.8 * ctx.nearest_gap(sq) + 0.5 * turn.value(sq) for sq in [s0, *moves]}
    else:
        goal, approach = approach_terms(turn, moves, CAP, exact=exact)
    here = approach.get(s0, 0.0)
    wait = Patience.none() if fleeing else Patience.of(turn)  # fleeing weighs safety itself
    stay_v = turn.value(s0) - wait.cost(s0)
    out = [Option("stay", stay_v + here, s0, goal=goal)]
    base = {sq: approach.get(sq, 0.0) - route_cost[sq][0] for sq in moves}
    for sq in best_of(base, MOVE_KEEP):
        r = moves[sq]
        v = turn.value(sq) - wait.cost(sq)
        closer = approach.get(sq, 0.0) > here + 1e-6
        if not fleeing and not closer and (v < stay_v + HOLD_MARGIN or sq == turn.habits.back):
            continue
        out.append(
            Option(
                "move",
                base[sq] + v,
                sq,
                r,
                provoked=route_cost[sq][2],
                avoided=turn.avoided(r),
                goal=goal,
                replan_after=True,
                fleeing=fleeing,
            )
        )
    out.sort(key=lambda o: -o.score)
    return out


def second_move(turn: Turn, first: Option, calm: bool = False) -> None:
    """Plan the second move of a double move now (from where the first one ends), rather
    than deciding again once the first is done: nothing to attack was found from there.
    It must get closer still (by walking distance, as the first).

    With `calm` (`AIConfig.calm`), the second leg is held to what the first is: a shift is
    one of its ways (where the ruleset allows one after a walk), every provoked opportunity
    attack costs its tie-breaker, and the leg chosen gives way to one provoking a strict
    subset that ends on a square worth as much and as near the goal
    (`ai.provoking.calmest`)."""
    assert first.route is not None
    end = first.end
    second = second_routes(turn, end, calm)
    if not second:
        return
    _, approach = approach_terms(turn, {end: first.route, **second}, CAP, exact=True)
    wait = Patience.of(turn)
    there = approach.get(end, 0.0)
    here = there + turn.value(end) - wait.cost(end)
    tie = PROVOKE_TIE if calm else 0.0
    base = {}
    for sq, r in second.items():
        if approach.get(sq, 0.0) > there + 1e-6:
            cost, _, who = turn.oa(r)
            base[sq] = approach.get(sq, 0.0) - cost - tie * len(who)
    pick: tuple[float, Square] | None = None
    for sq in best_of(base, MOVE_KEEP):
        score = base[sq] + turn.value(sq) - wait.cost(sq)
        if pick is None or score > pick[0]:
            pick = (score, sq)
    if pick is None or pick[0] <= here + 0.1:
        return
    sq = pick[1]
    if calm and turn.oa(second[sq])[2]:
        legs = {q: turn.oa(r)[2] for q, r in second.items()}
        sq = calmest(turn, sq, legs, approach) or sq
    first.post = second[sq]
    first.provoked = first.provoked + turn.oa(second[sq])[2]
    first.replan_after = False


def best_of(base: dict[Square, float], n: int) -> list[Square]:
    """`sorted(base, key=lambda q: -base[q])[:n]`: the `n` squares worth most, ties in the
    dict's order, sorting only those at least as good as the n-th best value (a sort of
    the bare floats finds it) rather than every square with a key function."""
    if len(base) <= n:
        return sorted(base, key=lambda q: -base[q])
    floor = sorted(base.values(), reverse=True)[n - 1]
    top = [sq for sq, v in base.items() if v >= floor]
    top.sort(key=lambda q: -base[q])
    return top[:n]


def second_routes(turn: Turn, end: Square, calm: bool) -> dict[Square, Route]:
    """Where the second move of a double move can end from `end`: a walk by its least
    provoking route; with `calm`, a shift where that provokes less, if the ruleset allows a
    shift after a walk (the d20srd 5-foot step is only taken in a turn with no other
    movement, S-15: a ruleset that `offers` its own shift has that rule)."""
    ctx = turn.ctx
    f = ctx.f
    out = kept_routes(f.mg, end, turn.speed, f.enemy_sq, f.occupied, f.threat_mask, ctx.oa_cost)
    if calm and f.me.size == 1 and not f.b.ruleset.offers("shift"):
        for nb in f.mg.adj.get(end, ()):
            if f.mg.cost[nb] <= 1 and nb not in f.occupied and nb != end:
                w = out.get(nb)
                if w is None or w.mask:
                    out[nb] = Route(nb, (end, nb), 1, 0, "shift")
    return out


def hold_note(b: Battle, stay: Option, options: list[Option]) -> None:
    """Staying put while an attack was a candidate: the explanation says that holding won on
    expected value, against which attack (`Option.note`, read by `ai.explain`)."""
    att = next((o for o in options if o.kind in ("attack", "full_attack")), None)
    if att is None or att.power is None or not att.targets:
        return
    who = ", ".join(b[t].name for t in att.targets if t in b.combatants)
    stay.note = (
        f"holding wins on expected value ({stay.score:.1f}) over {att.power.name} on {who} "
        f"({att.score:.1f}: the enemies' answer where it would stand outweighs the hit)"
    )


class Patience:
    """What a turn with no attack pays for ending on a square where enemies can walk up and
    strike first: `Weights.patience` times the melee danger of each enemy that can reach the
    square next round (speed plus reach, straight line), worn down by idle turns."""

    __slots__ = ("foes", "weight")

    def __init__(self, weight: float, foes: list[tuple[int, int, int, float]]) -> None:
        self.weight = weight
        self.foes = foes
        """(x, y, how far it can strike from next round, melee danger) per enemy."""

    @classmethod
    def none(cls) -> Patience:
        return cls(0.0, [])

    @classmethod
    def of(cls, turn: Turn) -> Patience:
        """The decision's patience (worked out once: `Caches.patience`)."""
        kept = turn.ctx.c.patience
        if kept is None:
            kept = turn.ctx.c.patience = cls._of(turn)
        return kept

    @classmethod
    def _of(cls, turn: Turn) -> Patience:
        ctx = turn.ctx
        w = ctx.f.w
        if not w.patience:
            return cls(0.0, [])
        me = ctx.f.me
        if ctx.f.b.has(me, "prone"):  # crawling off to wait is worse than standing up
            return cls(0.0, [])
        idle = ctx.side.idle_before(me.id, ctx.f.b.turn_counter)
        weight = w.patience * max(0.0, 1.0 - idle / max(1, w.patient_turns))
        if weight <= 0.0:
            return cls(0.0, [])
        b = ctx.f.b
        off = stayers(ctx) if w.comers else frozenset()
        foes = []
        melee = reach_all = 0.0
        for e in ctx.f.enemies:
            if not strikes_first(b, me, e):
                continue
            d = ctx.danger(e)
            close = melee_part(d) if w.shooters else d.melee
            melee += close
            reach_all += max(d.melee, d.ranged)
            if close > 0 and e.id not in off:
                foes.append((e.pos[0], e.pos[1], d.speed + d.reach + e.size - 1, close))
        weight *= fight_scale(ctx, melee / reach_all if reach_all else 0.0)
        return cls(weight, foes) if weight > 0.0 else cls(0.0, [])

    def cost(self, sq: Square) -> float:
        if not self.weight:
            return 0.0
        x, y = sq
        total = 0.0
        for ex, ey, strike, melee in self.foes:
            if max(abs(ex - x), abs(ey - y)) <= strike:
                total += melee
        return self.weight * total


def stayers(ctx: Context) -> frozenset[str]:
    """The enemies patience no longer waits for (`ai.comers.keeping_off`): since the
    creature's last turn (or the fight's start) they held while its side was hurt, with one
    of its side in their walk, or while its side is outshot."""
    me = ctx.f.me
    b = ctx.f.b
    then = ctx.side.sighting_before(me.id, b.turn_counter) or opening(b, me)
    if then is None:
        return frozenset()
    foes = ctx.f.enemies
    team = (me, *ctx.f.allies)
    strike = {e.id: ctx.danger(e).speed + ctx.danger(e).reach for e in foes}

    def outshot() -> bool:
        # (0.0: compiled, `sum` with no start adds in an int and refuses the first float)
        theirs = sum((profile_of(e).far for e in foes), 0.0)
        return theirs > sum((profile_of(c).far for c in team), 0.0)

    return keeping_off(then, b, team, foes, strike, outshot)


SHOOTS = 0.8
"""`Context.danger`'s `melee` is the larger of an enemy's melee attack and this share of its
ranged one (a shooter can hurt whoever walks up to it too)."""


def melee_part(d: Danger) -> float:
    """The part of an enemy's danger that needs it to walk up: none for a shooter (its
    `melee` is `SHOOTS` times its ranged attack, its blade no better). Patience waits out of
    a melee enemy's walk; out of a shooter's walk it only lets the shooter fire for free
    (`crossroads-4srd` with the tactical party, issue 15: the goblins held at the edge of
    Brom's walk while Lira, Ilsa and Mara shot them, their patience barely scaled down
    because each archer's danger counted as melee). Read with `Weights.shooters`
    (`AIConfig.read_shooters`, the `tactical-shooters` configuration: docs/ai.md,
    "Asymmetric play"); without it every enemy's `melee` counts, as before."""
    if d.ranged > 0 and d.melee <= SHOOTS * d.ranged + 1e-9:
        return 0.0
    return d.melee


def joined(ctx: Context) -> bool:
    """Is the fight joined: an ally in an enemy's reach, or an enemy in an ally's? (Once
    per decision: `Caches.joined`.)"""
    kept = ctx.c.joined
    if kept is None:
        kept = ctx.c.joined = _joined(ctx.f.allies, ctx.f.enemies)
    return kept


def _joined(allies: Sequence[Combatant], enemies: Sequence[Combatant]) -> bool:
    """`joined`: the least Chebyshev distance between two footprints (squares of side
    `size` from their top-left squares) is the larger of the gaps between them along x and
    along y (`engine.grid.distance` of the two creatures' squares)."""
    foes = [(e.pos[0], e.pos[1], e.size - 1, max(e.reach, 1)) for e in enemies]
    for a in allies:
        ax, ay = a.pos
        an = a.size - 1
        ar = a.reach
        for ex, ey, en, er in foes:
            gx = ex - ax - an if ex > ax else ax - ex - en
            gy = ey - ay - an if ey > ay else ay - ey - en
            gap = gx if gx > gy else gy
            if gap <= (ar if ar > er else er):
                return True
    return False


def fight_scale(ctx: Context, melee_share: float) -> float:
    """How much of the patience the fight leaves (1: all of it), from three facts that make
    waiting for the enemies' first strike a loss rather than a gain:

    - the fight is joined (an ally is already in an enemy's reach, or an enemy in its):
      holding back leaves that ally to fight alone while the enemies' blows land anyway: 0;
    - the enemies strike from afar (`melee_share`: the share of their damage that is melee):
      waiting out of their melee reach only lets their shooters fire for free;
    - my side outnumbers theirs: their first strike is one of few, ours many (scaled by
      enemies / my side, at most 1), so a mirror match keeps its full patience."""
    if joined(ctx):
        return 0.0
    odds = min(1.0, len(ctx.f.enemies) / (len(ctx.f.allies) + 1))
    return odds * melee_share


def _longest_range(me: Combatant) -> int:
    return max(
        (
            power_range(me, p)
            for p in me.powers
            if p.attack is not None and p.kind in ("ranged", "area")
        ),
        default=0,
    )


def choose_goal(turn: Turn, rng: int) -> Combatant:
    """The enemy to walk toward: the most appealing by worth, focus and distance; the one
    walked toward last turn unless another is `STICKY` times more appealing. (Once per
    decision: the first move, the second leg and the calmer walk ask alike.)"""
    key = (turn.speed, turn.habits.goal, rng)
    kept = turn.ctx.c.goals.get(key)
    if kept is None:
        kept = turn.ctx.c.goals[key] = _choose_goal(turn, rng)
    return kept


def _choose_goal(turn: Turn, rng: int) -> Combatant:
    ctx = turn.ctx
    s0 = ctx.f.me.pos
    speed = turn.speed
    melee_only = rng <= 1
    sticky = turn.habits.goal

    def appeal(t: Combatant) -> float:
        d = chebyshev(s0, t.pos)
        a = ctx.kill_value(t) * ctx.focus(t) / (1.0 + max(0, d - speed) / max(1, speed))
        if melee_only and not open_ring(ctx, t):
            a *= 0.05  # walled in by its own side and mine: nobody can get at it
        return a * STICKY if t.id == sticky else a

    return max(ctx.f.enemies, key=lambda t: (appeal(t), t.id))


def approach_terms(
    turn: Turn, moves: dict[Square, Route], cap: int, exact: bool
) -> tuple[str | None, dict[Square, float]]:
    """The enemy to walk toward when there is nothing to attack, and for each reachable
    square the approach term (minus the walking distance left, times the weight)."""
    ctx = turn.ctx
    me = ctx.f.me
    if not ctx.f.enemies:
        return None, {}
    rng = _longest_range(me)
    goal = choose_goal(turn, rng)
    boldness = 1.0 + 0.5 * min(turn.habits.idle, 6)
    join = ctx.f.w.join
    if join and joined(ctx):
        # Its allies are fighting and its damage is dealt up close: each turn it hangs
        # back is a turn of blows lost while theirs land on them (`Weights.join`).
        boldness = max(boldness, 1.0 + join)
    pull = ctx.f.w.approach * boldness
    gap = chebyshev(me.pos, goal.pos)
    if exact and gap > cap - 2 and gap <= FAR:
        # Beyond the usual cap but not across the map: a longer map, shared by the side.
        cap = gap + turn.speed + 2
    elif moves and gap > cap - 2:
        far = _far_terms(ctx, goal, moves, cap, pull)
        if far is not None:
            return goal.id, far
    return goal.id, _near_terms(turn, goal, moves, cap, pull, rng, exact)


def _far_terms(
    ctx: Context, goal: Combatant, moves: dict[Square, Route], cap: int, pull: float
) -> dict[Square, float] | None:
    """Approach terms along an A* path toward a goal beyond the distance maps."""
    path = far_path(ctx, goal)
    if path is None:
        return None
    out: dict[Square, float] = {}
    n = len(path)
    for i, sq in enumerate(path):
        if sq in moves:
            out[sq] = -pull * (cap + n - 1 - i)
    out.setdefault(ctx.f.me.pos, -pull * (cap + n))
    for sq in moves:
        out.setdefault(sq, -pull * (cap + n + chebyshev(sq, goal.pos)))
    return out


def _near_terms(
    turn: Turn,
    goal: Combatant,
    moves: dict[Square, Route],
    cap: int,
    pull: float,
    rng: int,
    exact: bool,
) -> dict[Square, float]:
    """Approach terms by the goal's distance map (or the straight line when something is in
    reach to attack: the walking distance then only ranks the moves without an attack)."""
    ctx = turn.ctx
    me = ctx.f.me
    ranged = ctx.f.w.keep_range and rng > 1
    reach = max(1, me.reach)
    dm = ctx.dist_map(goal, cap) if exact else None
    gx, gy = goal.pos
    g_sq = ctx.f.b.squares(goal)
    out: dict[Square, float] = {}
    squares = [me.pos, *moves]
    table: Distances | None = dm
    if isinstance(dm, LazyDistances):
        table = dm.settled(squares)  # one search for them all, then plain lookups
    if not ranged:
        _walk_terms(out, squares, table, gx, gy, reach, cap, pull)
        return out
    bmap = ctx.f.bmap
    size = me.size
    for sq in squares:
        cheb = max(abs(sq[0] - gx), abs(sq[1] - gy))
        if table is None:
            d = float(max(0, cheb - rng + 1))
        # Nothing to shoot from anywhere in reach: a square in range with a line to the goal
        # is the aim, else walk around whatever is in the way.
        elif cheb <= rng and line_of_effect(bmap, footprint(sq, size), g_sq):
            d = 0.0
        else:
            steps = table.get(sq)
            d = 1.0 + (float(steps) if steps is not None else float(cap + cheb)) / 2
        out[sq] = -pull * max(0.0, d)
    return out


def _walk_terms(
    out: dict[Square, float],
    squares: list[Square],
    dm: Distances | None,
    gx: int,
    gy: int,
    reach: int,
    cap: int,
    pull: float,
) -> None:
    """`_near_terms` for a melee walker: the walking distance left to the goal's reach
    (its distance map; beyond it, the cap plus the straight line), else the straight line.
    The same arithmetic as the general loop, without its tests per square."""
    if dm is None:
        for sq in squares:
            dx = sq[0] - gx
            dy = sq[1] - gy
            if dx < 0:
                dx = -dx
            if dy < 0:
                dy = -dy
            d = float((dx if dx > dy else dy) - reach)
            out[sq] = -pull * (d if d > 0.0 else 0.0)
        return
    get = dm.get
    for sq in squares:
        steps = get(sq)
        if steps is not None:
            d = float(steps - reach)
        else:
            dx = sq[0] - gx
            dy = sq[1] - gy
            if dx < 0:
                dx = -dx
            if dy < 0:
                dy = -dy
            d = float(cap + (dx if dx > dy else dy))
        out[sq] = -pull * (d if d > 0.0 else 0.0)


def open_ring(ctx: Context, t: Combatant) -> bool:
    """Is there a free square next to `t` (or mine already) to attack it from?"""
    hit = ctx.c.ring.get(t.id)
    if hit is not None:
        return hit
    f = ctx.f
    ring = threatened_squares(f.bmap, t.pos, t.size, max(1, f.me.reach))
    cost = f.mg.cost
    ok = any(sq in cost and (sq not in f.occupied) for sq in ring)
    ctx.c.ring[t.id] = ok
    return ok


def far_path(ctx: Context, goal: Combatant) -> list[Square] | None:
    """An A* walk toward `goal`, kept by the side while the goal stays where it is (the rest
    of a kept path serves the next turns)."""
    f = ctx.f
    me = f.me
    key = (me.id, goal.id, goal.pos)
    paths = ctx.side.paths
    kept = paths.get(key)
    cached = kept[1] if kept is not None else None
    if cached is not None and me.pos in cached:
        return cached[cached.index(me.pos) :]
    ring = threatened_squares(f.bmap, goal.pos, goal.size, 1)
    goals = {sq for sq in ring if sq not in f.occupied and sq in f.mg.cost}
    path = path_toward(f.mg, me.pos, goals, f.enemy_sq, goal.pos)
    if path is not None:
        if len(paths) > 256:
            paths.clear()
        paths[key] = (ctx.side.tag, path)
    return path
