"""The tactical policy: plans each turn as the best (move, power, target) and plays it out.

At the start of a creature's turn it builds a `Context` (`ai.scoring`), finds every square it
can end on and the least provoking way there (`ai.distances.routes`, plus the shift), and
scores every candidate: an attack from a square (each power, each target or area origin), an
attack from where it stands followed by a move (hit and run), a move with no attack (toward
the enemy it wants), a second wind. The best becomes a list of engine actions fed one per
call; if the picture changes halfway (an opportunity attack knocked it prone, stopped its
move, or a target fell), it plans again from where it is. Every action is checked with
`Encounter.validate` before it is returned; a plan that the engine would refuse becomes
`EndTurn`. The first action of a turn carries a `decision` event that explains the choice.

Monster roles weight the score (`ai.roles`); player characters played by the AI get a role
from their powers. Opportunity attacks are taken when they can do any harm.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ai.candidates import attack_options
from ai.distances import DistanceCache, Route, graph_of, neighbours, path_toward, routes
from ai.explain import action_text, summary
from ai.plan import Budget, Option, budget
from ai.policy import Choice
from ai.roles import weights_for
from ai.scoring import Context, Danger, Hit
from engine.actions import (
    Action,
    EndTurn,
    Move,
    SecondWind,
    SpendActionPoint,
    StandUp,
    UsePower,
)
from engine.attacks import preview
from engine.content.schema import Power
from engine.decisions import (
    DelayReturnQuestion,
    ForcedMoveQuestion,
    OpportunityQuestion,
    Question,
    SaveOrderQuestion,
)
from engine.encounter import Encounter
from engine.events import Decision
from engine.grid import (
    Terrain,
    chebyshev,
    distance,
    end_squares,
    footprint,
    line_of_effect,
    path_to,
    provocations,
    reachable,
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


@dataclass(slots=True)
class _Plan:
    key: tuple[int, str, int]
    """(the encounter object, the creature, the turn): an undo replays into a new encounter,
    so a plan never outlives the state it was made for."""
    steps: list[Action]
    at: list[Square | None]
    """Where the creature must stand before each step (None: anywhere)."""
    index: int = 0
    replan_after: bool = False
    moving: bool = False
    """A move with no attack: plan again for moves only once it is done."""
    point_checked: bool = False
    end: Square | None = None
    """Where the plan leaves the creature."""


class TacticalPolicy:
    """Plans a turn by utility (see the module docstring); reads the encounter only."""

    name = "tactical"

    def __init__(self, *, top_k: int = TOP_K, flee: bool = False) -> None:
        """`flee`: monsters (not minions, not player characters) break off when down to a
        quarter of their hit points and come back at three quarters (Brogue's rule, whose
        gap keeps them from flip-flopping)."""
        self.top_k = top_k
        self.flee = flee
        self._fleeing: set[str] = set()
        self._point_turn: tuple[str, int] | None = None
        self._idle: dict[str, int] = {}
        self.dcache = DistanceCache()
        self._dangers: dict[tuple[str, str, int], Danger] = {}
        self._plan: _Plan | None = None
        self._paths: dict[tuple[str, str, Square], list[Square]] = {}
        self.last_options: list[Option] = []
        """The scored options of the last plan, best first (for tests and tuning)."""

    def prepare(self, enc: Encounter) -> None:
        """Derive the per-map lookups (the flattened movement graph) before the first
        decision, so that no decision pays for them. Optional: decisions do it lazily."""
        graph_of(enc.battle.map)

    # --- the engine's questions ----------------------------------------------------------
    def answer(self, enc: Encounter, question: Question) -> Any:
        b = enc.battle
        if isinstance(question, OpportunityQuestion):
            by, mover = b[question.who], b[question.mover]
            power = by.power(question.power)
            if power is None:
                return False
            pv = preview(b, by, mover, power)
            return pv is not None and pv.expected_damage + 2 * pv.hit > 0.2
        if isinstance(question, SaveOrderQuestion):
            return list(question.effects)
        if isinstance(question, ForcedMoveQuestion):
            target = b[question.target]
            if target.side == b[question.who].side:
                return 0
            for i, path in enumerate(question.options):
                if b.map.cell(path[-1]).terrain == Terrain.PIT:
                    return i
            return 0
        if isinstance(question, DelayReturnQuestion):
            return True
        raise TypeError(f"unknown question {question!r}")

    # --- the turn ------------------------------------------------------------------------
    def next_action(self, enc: Encounter) -> Choice:
        t0 = time.perf_counter()
        c = enc.current
        if c is None:
            return Choice(EndTurn())
        b = enc.battle
        key = (id(enc), c.id, b.turn_counter)
        plan = self._plan
        first = plan is None or plan.key != key
        moves_only = False
        if not first and plan is not None:
            act = self._follow(enc, c, plan)
            if act is not None:
                return Choice(act)
            # A first move of two that went as planned: nothing to attack was found from its
            # end square, so the second action can only be another move (or nothing).
            moves_only = plan.moving and plan.index == len(plan.steps) and c.pos == plan.end
        option = self._decide(enc, c, moves_only=moves_only)
        if first:
            # Turns in a row with nothing attacked make it bolder (see `_approach`): two
            # sides that each wait out of the other's reach would otherwise never meet.
            self._idle[c.id] = 0 if option.kind == "attack" else self._idle.get(c.id, 0) + 1
        plan = self._plan = self._compile(enc, c, option, key)
        act = self._follow(enc, c, plan)
        if act is None:
            act = EndTurn()
            plan.index = len(plan.steps)
            plan.replan_after = False
            plan.point_checked = True
        if not first:
            return Choice(act)
        ms = (time.perf_counter() - t0) * 1000
        cands = []
        seen: set[str] = set()
        for o in self.last_options:
            text = action_text(b, o)
            if text in seen:
                continue
            seen.add(text)
            cands.append({"action": text, "score": round(o.score, 2)})
            if len(cands) >= MAX_CANDIDATES:
                break
        decision = Decision(c.id, self.name, summary(b, c, option), tuple(cands), round(ms, 3))
        return Choice(act, decision)

    def _follow(self, enc: Encounter, c: Combatant, plan: _Plan) -> Action | None:
        """The plan's next action if it still makes sense and is legal, else None (plan
        again). At the end of the plan: an action point if it buys a good attack, else
        EndTurn."""
        while plan.index < len(plan.steps):
            step = plan.steps[plan.index]
            want = plan.at[plan.index]
            if want is not None and c.pos != want:
                return None
            if enc.validate(step) is not None:
                return None
            plan.index += 1
            if isinstance(step, SpendActionPoint):
                plan.replan_after = True
            return step
        if plan.replan_after:
            return None
        if not plan.point_checked:
            plan.point_checked = True
            act = self._action_point(enc, c)
            if act is not None:
                plan.replan_after = True
                return act
        return EndTurn()

    def _action_point(self, enc: Encounter, c: Combatant) -> Action | None:
        b = enc.battle
        if c.action_points <= 0 or c.action_point_used or b.surprise_round:
            return None
        if b.spent.get("standard", 0) < 1 + b.extra_standard:
            return None
        if enc.validate(SpendActionPoint()) is not None:
            return None
        key = (c.id, b.turn_counter)
        if key == self._point_turn:  # weighed once a turn
            return None
        self._point_turn = key
        option = self._decide(enc, c, extra_standard=1)
        if option.kind == "attack" and option.score >= 5.0:
            return SpendActionPoint()
        return None

    def _compile(self, enc: Encounter, c: Combatant, o: Option, key: tuple[int, str, int]) -> _Plan:
        steps: list[Action] = []
        at: list[Square | None] = []
        pos = c.pos
        for act in self._pre_steps(enc, c):
            steps.append(act)
            at.append(None)
        if o.kind == "stand":
            steps.append(StandUp())
            at.append(pos)
        if o.route is not None:
            steps.append(Move(o.route.path, o.route.mode))
            at.append(pos)
            pos = o.route.end
        if o.kind == "attack" and o.power is not None:
            steps.append(UsePower(o.power.id, o.targets, o.origin))
            at.append(pos)
        elif o.kind == "second_wind":
            steps.append(SecondWind())
            at.append(pos)
        if o.post is not None:
            steps.append(Move(o.post.path, o.post.mode))
            at.append(pos)
        return _Plan(
            key,
            steps,
            at,
            replan_after=o.replan_after,
            moving=o.kind == "move",
            end=pos if o.post is None else o.post.end,
        )

    def _pre_steps(self, enc: Encounter, c: Combatant) -> list[Action]:
        """Minor-action healing of a fallen or badly hurt ally (or self)."""
        b = enc.battle
        if not budget(b, c).minor:
            return []
        for p, reason in enc.usable_powers():
            if reason is not None or p.action != "minor" or p.attack is not None:
                continue
            heal = p.effect.heal if p.effect is not None else None
            if heal is None:
                continue
            best, best_v = None, 4.9
            for a in b.living():
                if a.side != c.side or (a.id == c.id and p.target not in ("ally_or_self", "self")):
                    continue
                if a.id != c.id and p.target == "self":
                    continue
                if heal.surge and a.surges <= 0:
                    continue
                if not self._heal_reach(enc, c, p, a):
                    continue
                v = _heal_value(a)
                if v > best_v:
                    best, best_v = a, v
            if best is not None:
                act = UsePower(p.id, (best.id,))
                if enc.validate(act) is None:
                    return [act]
        return []

    @staticmethod
    def _heal_reach(enc: Encounter, c: Combatant, p: Power, a: Combatant) -> bool:
        b = enc.battle
        mine, theirs = b.squares(c), b.squares(a)
        if p.kind == "close" and p.burst is not None:
            return a.id == c.id or (
                distance(mine, theirs) <= p.burst and line_of_effect(b.map, mine, theirs)
            )
        if p.kind in ("ranged", "melee"):
            return a.id in enc.targets(p.id)
        return a.id == c.id

    # --- deciding ------------------------------------------------------------------------
    def _decide(
        self, enc: Encounter, c: Combatant, extra_standard: int = 0, moves_only: bool = False
    ) -> Option:
        b = enc.battle
        w = weights_for(c)
        ctx = Context(enc, c, w, self.dcache, self._dangers)
        bud = budget(b, c, extra_standard)
        s0 = c.pos
        options: list[Option] = []
        speed = b.speed(c)
        cap = CAP
        stuck = b.flag(c, "cant_move")
        if b.has(c, "prone") and bud.move and not stuck and b.map.cell(s0).terrain != Terrain.PIT:
            o = Option("stand", 0.0, s0, replan_after=True)
            self.last_options = [o]
            return o
        moves = self._routes(ctx, bud, speed) if bud.move and not stuck else {}
        value = ctx.value

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
        top = self._far_squares(ctx, powers, attack_sq, route_cost, moves)
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
            post = self._best_post(ctx, moves, route_cost)
        # Score every attack cheaply; build `Option`s only for the best few.
        raw: list[tuple[float, int, Power, Square, list[Hit], Square | None, bool]] = []
        for p in powers:
            provokes_act = p.kind in ("ranged", "area")
            at_will = p.usage == "at-will"
            for sq, hits, origin in attack_options(ctx, p, targets, attack_sq, top):
                via = attack_sq[sq]
                cost, surv, _ = route_cost[sq]
                if provokes_act:
                    act_cost, act_surv, _ = self._act_provokes(ctx, sq, via)
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
                act_who = self._act_provokes(ctx, sq, via)[2]
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

        # No attack: move toward the enemy it wants, or stay (or away, when fleeing).
        attacking = bool(options)
        fleeing = self._is_fleeing(c)
        if fleeing:
            for o in options:
                o.score -= 0.6 * (o.hits[0].value if o.hits else 0.0) + 3.0
            goal, approach = (
                None,
                {sq: 0.8 * ctx.nearest_gap(sq) + 0.5 * value(sq) for sq in [s0, *moves]},
            )
        else:
            goal, approach = self._approach(ctx, moves, cap, speed, exact=not attacking)
        base = {sq: approach.get(sq, 0.0) - route_cost[sq][0] for sq in moves}
        for sq in sorted(base, key=lambda q: -base[q])[:MOVE_KEEP]:
            r = moves[sq]
            options.append(
                Option(
                    "move",
                    base[sq] + value(sq),
                    sq,
                    r,
                    provoked=route_cost[sq][2],
                    avoided=avoided(r),
                    goal=goal,
                    replan_after=True,
                    fleeing=fleeing,
                )
            )
        options.append(Option("stay", value(s0) + approach.get(s0, 0.0), s0, goal=goal))
        sw = self._second_wind(enc, c, bud)
        if sw > 0:
            options.append(Option("second_wind", sw + value(s0), s0))
        options.sort(key=lambda o: -o.score)
        self.last_options = options
        best = options[0]
        if best.kind == "move" and best.route is not None and bud.two_moves and not fleeing:
            self._second_move(ctx, best, approach.get(best.end, 0.0), cap, speed, oa)
        return best

    def _second_move(
        self,
        ctx: Context,
        first: Option,
        first_approach: float,
        cap: int,
        speed: int,
        oa: Callable[[Route | None], tuple[float, float, tuple[str, ...]]],
    ) -> None:
        """Plan the second move of a double move now (from where the first one ends), rather
        than deciding again once the first is done: nothing to attack was found from there."""
        assert first.route is not None
        end = first.end
        second = routes(
            ctx.mg, end, speed, ctx.enemy_sq, ctx.occupied, ctx.threat_mask, ctx.oa_cost
        )
        if not second:
            return
        _, approach = self._approach(ctx, second, cap, speed, exact=True)
        here = first_approach + ctx.value(end)
        base = {sq: approach.get(sq, 0.0) - oa(r)[0] for sq, r in second.items()}
        pick: tuple[float, Route] | None = None
        for sq in sorted(base, key=lambda q: -base[q])[:MOVE_KEEP]:
            score = base[sq] + ctx.value(sq)
            if pick is None or score > pick[0]:
                pick = (score, second[sq])
        if pick is not None and pick[0] > here + 0.1:
            first.post = pick[1]
            first.provoked = first.provoked + oa(pick[1])[2]
            first.replan_after = False

    def _far_squares(
        self,
        ctx: Context,
        powers: list[Power],
        attack_sq: dict[Square, Route | None],
        route_cost: dict[Square, tuple[float, float, tuple[str, ...]]],
        moves: dict[Square, Route],
    ) -> list[Square]:
        """The squares from which ranged and area attacks are tried: where it stands, the
        shifts, and the best few (by position) with an enemy within the longest range."""
        far = [p for p in powers if p.kind in ("ranged", "area", "close")]
        if not far or not attack_sq:
            return []
        me = ctx.me
        threatened = bool(ctx.threat_mask.get(me.pos, 0))
        rng = max((p.range or 0) + (p.burst or 0) for p in far)
        if any(p.kind == "close" for p in far):
            rng = max(rng, max((p.burst or p.blast or 1) for p in far if p.kind == "close"))
        out: list[Square] = []
        pool = []
        keep_range = ctx.w.keep_range
        # Every square is within `rng` of an enemy when the start is, by a margin of speed.
        far_off = ctx.nearest_gap(me.pos) + ctx.b.speed(me) + 1 > rng
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
        short = [sq for _, sq in pool[: 3 * self.top_k]]
        short.sort(key=lambda sq: -(ctx.value(sq) - route_cost[sq][0]))
        out.extend(short[: self.top_k])
        return out

    def _best_post(
        self,
        ctx: Context,
        moves: dict[Square, Route],
        route_cost: dict[Square, tuple[float, float, tuple[str, ...]]],
    ) -> tuple[Route, float] | None:
        """The best square to move to after attacking from where it stands (hit and run):
        among the shifts and the squares farthest from the enemies."""
        pool = [sq for sq, r in moves.items() if r.mode == "shift"]
        rest = sorted(
            (sq for sq, r in moves.items() if r.mode != "shift"),
            key=lambda sq: (route_cost[sq][0] - ctx.gap_capped(sq), sq),
        )
        pool.extend(rest[:8])
        best: tuple[Route, float] | None = None
        for sq in pool:
            v = ctx.value(sq) - route_cost[sq][0]
            if best is None or v > best[1]:
                best = (moves[sq], v)
        return best

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

    def _act_provokes(
        self, ctx: Context, sq: Square, r: Route | None
    ) -> tuple[float, float, tuple[str, ...]]:
        """Ranged and area attacks provoke adjacent enemies that have not yet had an
        opportunity attack on this move."""
        done = r.mask if r is not None else 0
        key = (sq, done)
        hit = ctx.memo.get(key)
        if isinstance(hit, tuple):
            return hit
        out = self._act_provokes_at(ctx, sq, done)
        ctx.memo[key] = out
        return out

    @staticmethod
    def _act_provokes_at(
        ctx: Context, sq: Square, done: int
    ) -> tuple[float, float, tuple[str, ...]]:
        a_sq = footprint(sq, ctx.me.size)
        cost, surv, who = 0.0, 1.0, []
        for i, eid in enumerate(ctx.threat_ids):
            if done >> i & 1:
                continue
            e = ctx.b[eid]
            if distance(a_sq, footprint(e.pos, e.size)) == 1:
                cost += ctx.oa_cost[i]
                surv *= 1.0 - ctx.oa_drop[i]
                who.append(eid)
        return cost, surv, tuple(who)

    # --- where it can go -----------------------------------------------------------------
    def _routes(self, ctx: Context, bud: Budget, speed: int) -> dict[Square, Route]:
        me, b = ctx.me, ctx.b
        s0 = me.pos
        prone = b.has(me, "prone")
        if b.map.cell(s0).terrain == Terrain.PIT:
            if prone or speed <= 0:
                return {}
            return {
                nb: Route(nb, (s0, nb), speed, 0)
                for nb in neighbours(ctx.mg, s0)
                if nb not in ctx.occupied and nb not in ctx.enemy_sq
            }
        walk: dict[Square, Route] = {}
        if not prone and speed > 0:
            if me.size == 1:
                walk = routes(
                    ctx.mg, s0, speed, ctx.enemy_sq, ctx.occupied, ctx.threat_mask, ctx.oa_cost
                )
            else:
                walk = self._big_routes(ctx, speed, "walk")
        if me.size == 1:
            shifts = {
                nb: Route(nb, (s0, nb), 1, 0, "shift")
                for nb in ctx.mg.adj.get(s0, ())
                if ctx.mg.cost[nb] <= 1 and nb not in ctx.occupied
            }
        else:
            shifts = self._big_routes(ctx, 1, "shift")
        for sq, r in shifts.items():
            w = walk.get(sq)
            if w is None or w.mask:
                walk[sq] = r
        return walk

    @staticmethod
    def _big_routes(ctx: Context, budget_: int, mode: str) -> dict[Square, Route]:
        me, b = ctx.me, ctx.b
        rmap = reachable(b.map, me.pos, budget_, me.id, me.side, me.size, ctx.occ)
        out = {}
        for sq in end_squares(rmap, me.id, ctx.occ, me.size):
            if sq == me.pos:
                continue
            path = tuple(path_to(rmap, sq))
            mask = 0
            if mode == "walk":
                for _, eid in provocations(path, ctx.threat, me.size):
                    mask |= ctx.threat_bit[eid]
            out[sq] = Route(sq, path, rmap[sq][0], mask, mode)
        return out

    def _approach(
        self, ctx: Context, moves: dict[Square, Route], cap: int, speed: int, exact: bool
    ) -> tuple[str | None, dict[Square, float]]:
        """The enemy to walk toward when there is nothing to attack, and for each reachable
        square the approach term (minus the walking distance left, times the weight)."""
        me = ctx.me
        if not ctx.enemies:
            return None, {}
        s0 = me.pos

        def appeal(t: Combatant) -> float:
            d = chebyshev(s0, t.pos)
            return ctx.kill_value(t) * ctx.focus(t) / (1.0 + max(0, d - speed) / max(1, speed))

        goal = max(ctx.enemies, key=lambda t: (appeal(t), t.id))
        w = ctx.w
        boldness = 1.0 + 0.5 * min(self._idle.get(me.id, 0), 6)
        pull = w.approach * boldness
        rng = max(
            (
                power_range(me, p)
                for p in me.powers
                if p.attack is not None and p.kind in ("ranged", "area")
            ),
            default=0,
        )
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


def _heal_value(a: Combatant) -> float:
    if not a.alive:
        return 0.0
    if a.hp <= 0:
        return 20.0
    if a.hp > a.bloodied_value:
        return 0.0
    return 0.8 * min(a.surge_value + 4, a.max_hp - a.hp)
