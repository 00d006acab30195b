"""Turn planning for the tactical policy: every candidate turn scored, the best one chosen.

`Planner.decide` builds a `Context` (`ai.scoring`), finds every square the creature can end on
and the least provoking way there (`ai.squares`), and scores every candidate: an attack from
a square (each power, each target or area origin), an attack from where it stands followed by
a move (hit and run), a move with no attack (closer to the enemy it wants: see `_moving`), a
power with no attack roll or a sustained effect (`ai.utility`: minor ones come first, standard
ones are options of their own), a second wind. The policy (`ai.tactical`) turns the best into
engine actions.
"""

from __future__ import annotations

from collections.abc import Callable

from ai.candidates import attack_options
from ai.distances import DistanceCache, Route, path_toward, routes
from ai.first_aid import first_aid_options
from ai.full_round import full_attack_options, withdraw_options
from ai.plan import Budget, Option, budget
from ai.roles import weights_for
from ai.scoring import Context, Danger, Hit
from ai.squares import act_provokes, best_post, far_squares, routes_for
from ai.utility import Utility, heals_out_of_reach, utilities
from engine.content.schema import Power
from engine.encounter import Encounter
from engine.grid import (
    Terrain,
    chebyshev,
    footprint,
    line_of_effect,
    threatened_squares,
)
from engine.powers import power_range
from engine.state import Combatant

Square = tuple[int, int]
TOP_K = 5
"""End squares (best by position) from which ranged and area attacks are tried."""
MAX_CANDIDATES = 5
MOVE_KEEP = 8
"""Moves without an attack scored in full (position), after ranking by approach alone."""
CAP = 16
"""Reach of the per-enemy distance maps: 2 x speed + reach for the usual speeds (one cap for
everyone, so that every creature of a side shares every map)."""
FAR = 40
"""Beyond this many squares from the enemy it wants, a creature walks an A* path instead of
reading that enemy's distance map (which would cover most of a big map)."""
STALEMATE = 3
"""Turns in a row with no attack after which a creature stops weighing its safety much."""
HOLD_MARGIN = 1.0
"""A move that gets no closer to the enemy must make the position this much better."""
STICKY = 1.3
"""The enemy walked toward last turn stays the goal unless another is this much more
appealing (two goals in turn would have it walk back and forth)."""


class Planner:
    """Scores the candidate turns of one side's creatures (see the module docstring); keeps
    the per-fight caches shared by the side: distance maps, dangers, long paths."""

    def __init__(self, *, top_k: int = TOP_K, flee: bool = False) -> None:
        """`flee`: monsters (not minions, not player characters) break off when down to a
        quarter of their hit points and come back at three quarters (Brogue's rule, whose
        gap keeps them from flip-flopping)."""
        self.top_k = top_k
        self.flee = flee
        self._fleeing: set[str] = set()
        self.idle: dict[str, int] = {}
        """Turns in a row each creature attacked nothing (see `_approach`, `STALEMATE`)."""
        self.goals: dict[str, str] = {}
        """The enemy each creature last walked toward (see `STICKY`)."""
        self.came_from: dict[str, Square] = {}
        """Where each creature started its previous turn (a move back there needs progress)."""
        self._turn_start: dict[str, Square] = {}
        self.dcache = DistanceCache()
        self.dangers: dict[tuple[str, str, int], Danger] = {}
        self._paths: dict[tuple[str, str, Square], list[Square]] = {}
        self.last_options: list[Option] = []
        """The scored options of the last plan, best first (for tests and tuning)."""

    def new_turn(self, c: Combatant) -> None:
        """Book-keeping at the first decision of each of `c`'s turns."""
        last = self._turn_start.get(c.id)
        if last is not None:
            self.came_from[c.id] = last
        self._turn_start[c.id] = c.pos

    # --- deciding ------------------------------------------------------------------------
    def decide(
        self,
        enc: Encounter,
        c: Combatant,
        extra_standard: int = 0,
        moves_only: bool = False,
        extras: bool = True,
    ) -> Option:
        """The best turn for `c` from here. `extra_standard`: as if an action point were
        spent; `moves_only`: the first move of two found nothing to attack; `extras`: weigh
        the minor actions (sustains, attackless powers) that come before the rest."""
        b = enc.battle
        w = weights_for(c)
        ctx = Context(enc, c, w, self.dcache, self.dangers)
        bud = budget(b, c, extra_standard)
        s0 = c.pos
        options: list[Option] = []
        speed = b.speed(c)
        cap = CAP
        stuck = b.flag(c, "cant_move")
        utils = utilities(ctx) if extras else []
        pre: tuple[Utility, ...] = ()
        if utils:
            pre, bud = self._minor_actions(ctx, utils, bud, extra_standard)
            healed = frozenset(i for u in pre for i in u.healed)
            if healed:  # what the minor actions heal is not there to heal again
                utils = [u for u in utilities(ctx, healed) if u.kind == "standard"]
        if extras and bud.minor and any(p.attack is None for p in c.powers):
            ctx.support = heals_out_of_reach(ctx)
        if b.has(c, "prone") and bud.move and not stuck and b.map.cell(s0).terrain != Terrain.PIT:
            o = Option("stand", 0.0, s0, replan_after=True, extras=pre)
            self.last_options = [o]
            return o
        idle = self.idle.get(c.id, 0)
        # Past a stalemate (turns in a row with no attack), where it stands counts for less
        # than getting at the enemy.
        pos_w = 1.0 if idle < STALEMATE else 0.4
        moves = routes_for(ctx, bud, speed) if bud.move and not stuck else {}

        def value(sq: Square) -> float:
            return pos_w * ctx.value(sq)

        def oa(r: Route | None) -> tuple[float, float, tuple[str, ...]]:
            if r is None or not r.mask:
                return 0.0, 1.0, ()
            cost, surv, who = 0.0, 1.0, []
            for i, eid in enumerate(ctx.threat_ids):
                if r.mask >> i & 1:
                    cost += ctx.oa_cost[i]
                    surv *= 1.0 - ctx.oa_drop[i]
                    who.append(eid)
            return cost, surv, tuple(who)

        route_cost = {sq: oa(r) for sq, r in moves.items()}
        route_cost[s0] = (0.0, 1.0, ())
        start_bits = ctx.threat_mask.get(s0, 0)
        threatened_at_start = [e for e in ctx.threat_ids if start_bits & ctx.threat_bit[e]]

        def avoided(r: Route | None) -> tuple[str, ...]:
            if r is None:
                return ()
            return tuple(e for e in threatened_at_start if not r.mask & ctx.threat_bit[e])

        # Attack options: from where it stands (standard), or after a move.
        attack_sq: dict[Square, Route | None] = {}
        if bud.standard:
            attack_sq[s0] = None
        if bud.move_then_standard:
            for sq, r in moves.items():
                attack_sq[sq] = r
        powers = [
            p
            for p, reason in enc.usable_powers()
            if p.attack is not None
            and p.action == "standard"
            and (reason is None or (reason.startswith("no ") and bud.standard))
            and not moves_only
        ]
        top = far_squares(ctx, powers, attack_sq, route_cost, moves, self.top_k)
        targets = ctx.enemies + ctx.downed

        post: tuple[Route, float] | None = None
        hit_and_run = w.engaged <= 0  # brutes and soldiers stand and fight
        if (
            powers
            and hit_and_run
            and bud.standard_then_move
            and moves
            and ctx.reachable_by_enemies(s0)
        ):
            post = best_post(ctx, moves, route_cost)
        # Score every attack cheaply; build `Option`s only for the best few.
        raw: list[tuple[float, int, Power, Square, list[Hit], Square | None, bool]] = []
        for p in powers:
            provokes_act = p.kind in ("ranged", "area")
            at_will = p.usage == "at-will"
            for sq, hits, origin in attack_options(ctx, p, targets, attack_sq, top):
                via = attack_sq[sq]
                cost, surv, _ = route_cost[sq]
                if provokes_act:
                    act_cost, act_surv, _ = act_provokes(ctx, sq, via)
                    cost += act_cost
                    surv *= act_surv
                worth = hits[0].value if len(hits) == 1 else sum(h.value for h in hits)
                spend = 0.0 if at_will else ctx.spend_cost(p, worth, [b[h.target] for h in hits])
                here = value(sq)
                score = worth * surv - cost - spend + here
                run = via is None and post is not None and post[1] > here + 0.5
                if run:
                    assert post is not None
                    score += post[1] - here
                raw.append((score, len(raw), p, sq, hits, origin, run))
        raw.sort(key=lambda x: (-x[0], x[1]))
        for score, _, p, sq, hits, origin, run in raw[: MAX_CANDIDATES * 2]:
            via = attack_sq[sq]
            provoked = route_cost[sq][2]
            act_who: tuple[str, ...] = ()
            if p.kind in ("ranged", "area"):
                act_who = act_provokes(ctx, sq, via)[2]
            after = post[0] if run and post is not None else None
            if after is not None:
                provoked = provoked + route_cost[after.end][2]
            options.append(
                Option(
                    "attack",
                    score,
                    sq if after is None else after.end,
                    via,
                    p,
                    _named_targets(p, hits),
                    origin,
                    tuple(hits),
                    after,
                    provoked + act_who,
                    avoided(via),
                )
            )

        if not moves_only:  # d20srd: every iterative attack, from where it stands
            options.extend(full_attack_options(ctx, powers, bud, value))

        # No attack: move toward the enemy it wants, or stay (or away, when fleeing).
        fleeing = self._is_fleeing(c)
        if fleeing:
            for o in options:
                o.score -= 0.6 * (o.hits[0].value if o.hits else 0.0) + 3.0
        best_attack = max((o.score for o in options), default=None)
        moving = self._moving(ctx, moves, route_cost, avoided, value, fleeing, exact=not options)
        if best_attack is not None and not fleeing and moving[0].score > best_attack:
            # Nothing worth attacking after all: rank the moves by walking distance.
            moving = self._moving(ctx, moves, route_cost, avoided, value, fleeing, exact=True)
        if any(p.kind != "melee" for p in powers):
            tried = set(top)
            for o in moving:
                o.searched = o.end in tried
        options.extend(moving)
        if any(o.kind == "move" and o.provoked for o in moving) or (
            fleeing and threatened_at_start
        ):  # 4srd, d20srd: a double move that leaves its first square unprovoked
            options.extend(
                withdraw_options(self, ctx, bool(threatened_at_start), oa, avoided, value, fleeing)
            )
        stay = next(o for o in moving if o.kind == "stay")
        for u in utils:
            if u.kind == "standard" and bud.standard and enc.validate(u.action) is None:
                options.append(
                    Option("utility", u.value + stay.score, s0, action=u.action, note=u.text)
                )
        options.extend(first_aid_options(enc, c, bud, stay.score))
        sw = self._second_wind(enc, c, bud)
        if sw > 0:
            options.append(Option("second_wind", sw + value(s0), s0))
        options.sort(key=lambda o: -o.score)
        self.last_options = options
        best = options[0]
        best.extras = pre
        if best.kind == "move" and best.route is not None and bud.two_moves and not fleeing:
            self._second_move(ctx, best, cap, speed, oa, value)
        if best.kind in ("move", "stay") and best.goal is not None:
            self.goals[c.id] = best.goal
        return best

    def _moving(
        self,
        ctx: Context,
        moves: dict[Square, Route],
        route_cost: dict[Square, tuple[float, float, tuple[str, ...]]],
        avoided: Callable[[Route | None], tuple[str, ...]],
        value: Callable[[Square], float],
        fleeing: bool,
        exact: bool,
    ) -> list[Option]:
        """The moves with no attack (toward the enemy it wants; away when fleeing) and
        staying put, best first.

        A move must get it closer to that enemy (walking distance, or into range for a
        ranged attacker), or else reach a clearly better square (HOLD_MARGIN) and not the one
        it left last turn: otherwise two squares that score alike would have it walk out and
        back every turn, and two sides that each wait for the other would never meet."""
        me = ctx.me
        s0 = me.pos
        if fleeing:
            goal: str | None = None
            approach = {sq: 0.8 * ctx.nearest_gap(sq) + 0.5 * value(sq) for sq in [s0, *moves]}
        else:
            goal, approach = self._approach(ctx, moves, CAP, ctx.b.speed(me), exact=exact)
        here = approach.get(s0, 0.0)
        stay_v = value(s0)
        back = self.came_from.get(me.id)
        out = [Option("stay", stay_v + here, s0, goal=goal)]
        base = {sq: approach.get(sq, 0.0) - route_cost[sq][0] for sq in moves}
        for sq in sorted(base, key=lambda q: -base[q])[:MOVE_KEEP]:
            r = moves[sq]
            v = value(sq)
            closer = approach.get(sq, 0.0) > here + 1e-6
            if not fleeing and not closer and (v < stay_v + HOLD_MARGIN or sq == back):
                continue
            out.append(
                Option(
                    "move",
                    base[sq] + v,
                    sq,
                    r,
                    provoked=route_cost[sq][2],
                    avoided=avoided(r),
                    goal=goal,
                    replan_after=True,
                    fleeing=fleeing,
                )
            )
        out.sort(key=lambda o: -o.score)
        return out

    def _minor_actions(
        self, ctx: Context, utils: list[Utility], bud: Budget, extra_standard: int
    ) -> tuple[tuple[Utility, ...], Budget]:
        """The minor (and move, and free) actions worth taking first, best first, and the
        budget left after them. The first minor action costs nothing else; one more costs the
        move (worth more when it needs to walk to attack), and one that would cost the
        standard action (dazed) must be worth a whole attack."""
        me, b = ctx.me, ctx.b
        engaged = any(
            ctx.nearest_gap(me.pos) <= max(power_range(me, p), 1)
            for p in me.powers
            if p.attack is not None and p.usage == "at-will"
        )
        move_worth = 2.0 if engaged else 6.0
        chosen: list[Utility] = []
        spent: list[str] = []
        for u in utils:
            if u.kind == "standard":
                continue
            if u.kind == "free":
                if ctx.enc.validate(u.action) is None:
                    chosen.append(u)
                continue
            after = budget(b, me, extra_standard, (*spent, u.kind))
            now = budget(b, me, extra_standard, tuple(spent))
            if not (now.minor if u.kind == "minor" else now.move):
                continue
            loss = 0.0
            if now.standard and not after.standard:
                loss += 8.0 + (move_worth if now.move and not after.move else 0.0)
            elif (now.move and not after.move) or (
                now.move_then_standard and not after.move_then_standard
            ):
                loss += move_worth
            if u.value <= loss + 0.1 or ctx.enc.validate(u.action) is not None:
                continue
            chosen.append(u)
            spent.append(u.kind)
        return tuple(chosen), budget(b, me, extra_standard, tuple(spent))

    def _second_move(
        self,
        ctx: Context,
        first: Option,
        cap: int,
        speed: int,
        oa: Callable[[Route | None], tuple[float, float, tuple[str, ...]]],
        value: Callable[[Square], float],
    ) -> None:
        """Plan the second move of a double move now (from where the first one ends), rather
        than deciding again once the first is done: nothing to attack was found from there.
        It must get closer still (by walking distance, as the first)."""
        assert first.route is not None
        end = first.end
        second = routes(
            ctx.mg, end, speed, ctx.enemy_sq, ctx.occupied, ctx.threat_mask, ctx.oa_cost
        )
        if not second:
            return
        _, approach = self._approach(ctx, {end: first.route, **second}, cap, speed, exact=True)
        there = approach.get(end, 0.0)
        here = there + value(end)
        base = {
            sq: approach.get(sq, 0.0) - oa(r)[0]
            for sq, r in second.items()
            if approach.get(sq, 0.0) > there + 1e-6
        }
        pick: tuple[float, Route] | None = None
        for sq in sorted(base, key=lambda q: -base[q])[:MOVE_KEEP]:
            score = base[sq] + value(sq)
            if pick is None or score > pick[0]:
                pick = (score, second[sq])
        if pick is not None and pick[0] > here + 0.1:
            first.post = pick[1]
            first.provoked = first.provoked + oa(pick[1])[2]
            first.replan_after = False

    def _is_fleeing(self, c: Combatant) -> bool:
        if not self.flee or c.pc or c.creature.minion:
            return False
        if c.hp <= c.max_hp // 4:
            self._fleeing.add(c.id)
        elif c.hp >= (3 * c.max_hp) // 4:
            self._fleeing.discard(c.id)
        return c.id in self._fleeing

    @staticmethod
    def _second_wind(enc: Encounter, c: Combatant, bud: Budget) -> float:
        if not bud.standard or c.second_wind_used or c.surges <= 0:
            return 0.0
        if not (c.pc if c.creature.second_wind is None else c.creature.second_wind):
            return 0.0
        if c.hp > c.bloodied_value:
            return 0.0
        urgency = 2.0 if c.hp <= c.max_hp // 4 else 1.0
        return 0.6 * urgency * min(c.surge_value, c.max_hp - c.hp) + 1.0

    def _approach(
        self, ctx: Context, moves: dict[Square, Route], cap: int, speed: int, exact: bool
    ) -> tuple[str | None, dict[Square, float]]:
        """The enemy to walk toward when there is nothing to attack, and for each reachable
        square the approach term (minus the walking distance left, times the weight)."""
        me = ctx.me
        if not ctx.enemies:
            return None, {}
        s0 = me.pos

        rng = max(
            (
                power_range(me, p)
                for p in me.powers
                if p.attack is not None and p.kind in ("ranged", "area")
            ),
            default=0,
        )
        melee_only = rng <= 1
        sticky = self.goals.get(me.id)

        def appeal(t: Combatant) -> float:
            d = chebyshev(s0, t.pos)
            a = ctx.kill_value(t) * ctx.focus(t) / (1.0 + max(0, d - speed) / max(1, speed))
            if melee_only and not self._open_ring(ctx, t):
                a *= 0.05  # walled in by its own side and mine: nobody can get at it
            return a * STICKY if t.id == sticky else a

        goal = max(ctx.enemies, key=lambda t: (appeal(t), t.id))
        w = ctx.w
        boldness = 1.0 + 0.5 * min(self.idle.get(me.id, 0), 6)
        pull = w.approach * boldness
        reach = max(1, me.reach)
        out: dict[Square, float] = {}
        gap = chebyshev(s0, goal.pos)
        if exact and gap > cap - 2 and gap <= FAR:
            # Beyond the usual cap but not across the map: a longer map, shared by the side.
            cap = gap + speed + 2
        elif moves and gap > cap - 2:
            path = self._far_path(ctx, goal)
            if path is not None:
                n = len(path)
                for i, sq in enumerate(path):
                    if sq in moves:
                        out[sq] = -pull * (cap + n - 1 - i)
                out.setdefault(s0, -pull * (cap + n))
                for sq in moves:
                    out.setdefault(sq, -pull * (cap + n + chebyshev(sq, goal.pos)))
                return goal.id, out
        ranged = w.keep_range and rng > 1
        # The walking distance (the goal's distance map, shared by the side) only matters
        # when there is nothing to attack; otherwise the straight-line distance ranks well
        # enough and costs nothing.
        dm = ctx.dist_map(goal, cap) if exact else None
        gx, gy = goal.pos
        g_sq = ctx.b.squares(goal)
        for sq in [s0, *moves]:
            cheb = max(abs(sq[0] - gx), abs(sq[1] - gy))
            if ranged and dm is None:
                d = float(max(0, cheb - rng + 1))
            elif ranged and dm is not None:
                # Nothing to shoot from anywhere in reach: a square in range with a line to
                # the goal is the aim, else walk around whatever is in the way.
                if cheb <= rng and line_of_effect(ctx.bmap, footprint(sq, me.size), g_sq):
                    d = 0.0
                else:
                    steps = dm.get(sq)
                    d = 1.0 + (float(steps) if steps is not None else float(cap + cheb)) / 2
            elif dm is not None:
                steps = dm.get(sq)
                d = float(steps - reach) if steps is not None else float(cap + cheb)
            else:
                d = float(cheb - reach)
            out[sq] = -pull * max(0.0, d)
        return goal.id, out

    @staticmethod
    def _open_ring(ctx: Context, t: Combatant) -> bool:
        """Is there a free square next to `t` (or mine already) to attack it from?"""
        key = ("ring", t.id)
        hit = ctx.memo.get(key)
        if isinstance(hit, bool):
            return hit
        ring = threatened_squares(ctx.bmap, t.pos, t.size, max(1, ctx.me.reach))
        cost = ctx.mg.cost
        ok = any(sq in cost and (sq not in ctx.occupied) for sq in ring)
        ctx.memo[key] = ok
        return ok

    def _far_path(self, ctx: Context, goal: Combatant) -> list[Square] | None:
        me = ctx.me
        key = (me.id, goal.id, goal.pos)
        cached = self._paths.get(key)
        if cached is not None and me.pos in cached:
            return cached[cached.index(me.pos) :]
        ring = threatened_squares(ctx.bmap, goal.pos, goal.size, 1)
        goals = {sq for sq in ring if sq not in ctx.occupied and sq in ctx.mg.cost}
        path = path_toward(ctx.mg, me.pos, goals, ctx.enemy_sq, goal.pos)
        if path is not None:
            if len(self._paths) > 256:
                self._paths.clear()
            self._paths[key] = path
        return path


def _named_targets(p: Power, hits: list[Hit]) -> tuple[str, ...]:
    """The `targets` of the action: the creature(s) of a single-target power; for an area,
    none (everyone caught) unless it caught as many as the power may affect, when the ones
    chosen are named (the engine asks for a choice when the area holds more)."""
    if not p.is_area:
        return tuple(h.target for h in hits)
    return tuple(h.target for h in hits) if len(hits) >= p.targets else ()
