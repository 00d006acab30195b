"""One decision's turn, as the candidate generators see it: what is left of the turn, where the
creature can go and what each route provokes, and its habits from earlier turns.

The planner (`ai.planner`) builds a `Turn` once per decision, after the minor actions it
takes first; every candidate generator (`ai.attack_plans`, `ai.moving`, `ai.full_round`)
reads it and none writes it. Its three scoring helpers are the scorer's terms every
generator shares: the worth of an end square (`value`), what a route's opportunity attacks
cost (`oa`), and which opportunity attacks a route avoids (`avoided`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.caches import Provoked
from ai.memory import SideMemory
from ai.plan import Budget
from ai.routes import Route
from ai.scoring import Context
from ai.squares import routes_for

Square = tuple[int, int]
NO_OA: Provoked = (0.0, 1.0, ())
"""What a route that provokes no one costs (`Turn.oa`)."""
STALEMATE = 3
"""Turns in a row with no attack after which a creature stops weighing its safety much."""


@dataclass(frozen=True, slots=True)
class Habits:
    """What the creature did in its earlier turns (`ai.memory.SideMemory`), read once per
    decision."""

    idle: int
    """Turns in a row it attacked nothing."""
    goal: str | None
    """The enemy it last walked toward."""
    back: Square | None
    """Where it started its previous turn."""

    @classmethod
    def of(cls, memory: SideMemory, cid: str, turn: int) -> Habits:
        return cls(memory.idle(cid), memory.goal(cid), memory.came_from(cid, turn))


@dataclass(frozen=True, slots=True)
class Turn:
    ctx: Context
    bud: Budget
    """What is left of the turn after the minor actions taken first."""
    habits: Habits
    speed: int
    pos_w: float
    """The weight of an end square's worth: less past a stalemate (`STALEMATE`), where getting
    at the enemy matters more than where it stands."""
    moves: dict[Square, Route]
    """Every square it can end a move on, by its least provoking route (none if it can't
    move this turn)."""
    route_cost: dict[Square, Provoked]
    """End square (its own included) -> what the route there provokes."""
    threatened_at_start: tuple[str, ...]
    """The enemies whose opportunity attack leaving its square would provoke."""

    @classmethod
    def of(cls, ctx: Context, bud: Budget, habits: Habits, stuck: bool) -> Turn:
        f = ctx.f
        speed = f.b.speed(f.me)
        moves = routes_for(ctx, bud, speed) if bud.move and not stuck else {}
        s0 = f.me.pos
        start_bits = f.threat_mask.get(s0, 0)
        threatened = tuple(e for e in f.threat_ids if start_bits & f.threat_bit[e])
        turn = cls(
            ctx,
            bud,
            habits,
            speed,
            1.0 if habits.idle < STALEMATE else 0.4,
            moves,
            {},
            threatened,
        )
        oa = turn.oa
        turn.route_cost.update({sq: oa(r) if r.mask else NO_OA for sq, r in moves.items()})
        turn.route_cost[s0] = (0.0, 1.0, ())
        return turn

    @property
    def s0(self) -> Square:
        return self.ctx.f.me.pos

    def value(self, sq: Square) -> float:
        """The worth of ending the turn on `sq` (`Context.value`), weighted by `pos_w`."""
        return self.pos_w * self.ctx.value(sq)

    def oa(self, r: Route | None) -> Provoked:
        """What walking route `r` provokes: cost, chance to survive it, who."""
        if r is None or not r.mask:
            return NO_OA
        ctx = self.ctx
        cost, surv, who = 0.0, 1.0, []
        for i, eid in enumerate(ctx.f.threat_ids):
            if r.mask >> i & 1:
                cost += ctx.oa_cost[i]
                surv *= 1.0 - ctx.oa_drop[i]
                who.append(eid)
        return cost, surv, tuple(who)

    def avoided(self, r: Route | None) -> tuple[str, ...]:
        """The enemies threatening its square whose opportunity attack route `r` avoids."""
        if r is None:
            return ()
        bit = self.ctx.f.threat_bit
        return tuple(e for e in self.threatened_at_start if not r.mask & bit[e])
