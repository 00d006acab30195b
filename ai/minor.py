"""The actions the tactical AI takes before the rest of its turn (sustaining effects, powers
with no attack roll as minor, move or free actions) and the second wind.

What each is worth comes from `ai.utility`; here it is set against what it costs in the
turn's budget (`engine.turn_budget`, through `ai.plan.budget`), and against the opportunity
attacks it provokes (a ranged power used next to an enemy, S-14: `ai.provoking.oa_charge`):
one the creature can't expect to survive is not taken.
"""

from __future__ import annotations

from ai.plan import Budget, budget
from ai.provoking import act_provokes_now, oa_charge
from ai.scoring import Context
from ai.utility import Utility
from engine.powers import power_range
from engine.state import Combatant


def minor_actions(
    ctx: Context, utils: list[Utility], bud: Budget, extra_standard: int, calm: bool = True
) -> tuple[tuple[Utility, ...], Budget]:
    """The minor (and move, and free) actions worth taking first, best first, and the
    budget left after them. The first minor action costs nothing else; one more costs the
    move (worth more when it needs to walk to attack), and one that would cost the
    standard action (dazed) must be worth a whole attack. With `calm` (`AIConfig.calm`),
    what it provokes is charged, and one it can't expect to survive is never taken."""
    me, b = ctx.f.me, ctx.f.b
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
            if calm and oa_charge(ctx, act_provokes_now(ctx, [u]))[1]:
                continue
            if ctx.f.enc.validate(u.action) is None:
                chosen.append(u)
            continue
        now = budget(b, me, extra_standard, tuple(spent))
        if not (now.minor if u.kind == "minor" else now.move):
            continue
        after = budget(b, me, extra_standard, (*spent, u.kind))
        charge, deadly = oa_charge(ctx, act_provokes_now(ctx, [u])) if calm else (0.0, False)
        if deadly or u.value - charge <= _loss(now, after, move_worth) + 0.1:
            continue
        if ctx.f.enc.validate(u.action) is not None:
            continue
        chosen.append(u)
        spent.append(u.kind)
    return tuple(chosen), budget(b, me, extra_standard, tuple(spent))


def _loss(now: Budget, after: Budget, move_worth: float) -> float:
    """What taking one more action gives up: the standard action (a whole attack, and the
    move with it), or the move."""
    if now.standard and not after.standard:
        return 8.0 + (move_worth if now.move and not after.move else 0.0)
    if (now.move and not after.move) or (now.move_then_standard and not after.move_then_standard):
        return move_worth
    return 0.0


def second_wind_value(c: Combatant, bud: Budget) -> float:
    """What a second wind is worth now (0: not available or not needed)."""
    if not bud.standard or c.second_wind_used or c.surges <= 0:
        return 0.0
    if not (c.pc if c.creature.second_wind is None else c.creature.second_wind):
        return 0.0
    if c.hp > c.bloodied_value:
        return 0.0
    urgency = 2.0 if c.hp <= c.max_hp // 4 else 1.0
    return 0.6 * urgency * min(c.surge_value, c.max_hp - c.hp) + 1.0
