"""Full-round options of the tactical AI: the d20srd full attack and the 4srd/d20srd withdraw
(`engine.full_round`).

A full attack is weighed only from where the creature stands (it takes the move too): the
value of each iterative attack, each at its own penalty (`full_attack_previews`), summed, and
set against the planner's move-and-attack options. A withdraw is weighed only when the
creature starts next to an enemy: a move of up to double speed whose first square left
provokes nothing, scored as the planner's moves with no attack (toward the enemy it wants, or
away when fleeing), so that it wins where a plain move would provoke. Only withdraws that get
clear are weighed: none that still provokes on the way, none that ends in an enemy's reach
(a withdraw gives up the attack; one that ends next to an enemy bought nothing).
"""

from __future__ import annotations

from ai.moving import moving_options
from ai.plan import Option
from ai.routes import routes
from ai.squares import act_provokes
from ai.turn import Turn
from engine.actions import FullAttack, Withdraw
from engine.content.schema import Power
from engine.full_round import full_attack_previews, full_round_problem

Square = tuple[int, int]
WITHDRAW_COST = 0.5
"""A withdraw spends the standard action too: a move that provokes nothing is worth more."""


def full_attack_options(turn: Turn, powers: list[Power]) -> list[Option]:
    """One option per (power, target in reach now) for a full attack, if it has more than one
    attack; scored as the sum of its attacks' values (`Context.score_hit`)."""
    ctx = turn.ctx
    enc, b, me = ctx.f.enc, ctx.f.b, ctx.f.me
    if not b.ruleset.full_attack or not (turn.bud.standard and turn.bud.move):
        return []
    if b.ruleset.attack_count(me) < 2 or full_round_problem(enc, me) is not None:
        return []
    enemies = {t.id for t in ctx.f.enemies}
    out: list[Option] = []
    for p in powers:
        if p.usage != "at-will" or p.kind not in ("melee", "ranged") or p.targets != 1:
            continue
        for tid in enc.targets(p.id):
            if tid not in enemies or enc.validate(FullAttack(p.id, (tid,))) is not None:
                continue
            t = b[tid]
            hits = [ctx.score_hit(p, t, pv) for pv in full_attack_previews(enc, p.id, tid)]
            worth = sum(h.value for h in hits)
            who: tuple[str, ...] = ()
            cost, surv = 0.0, 1.0
            if p.kind == "ranged":
                cost, surv, who = act_provokes(ctx, me.pos, None)
            score = worth * surv - cost + turn.value(me.pos)
            option = Option("full_attack", score, me.pos, None, p, (tid,), hits=tuple(hits))
            option.provoked = who
            out.append(option)
    return out


def withdraw_options(turn: Turn, fleeing: bool) -> list[Option]:
    """Withdraws (kind "withdraw"), scored as the planner's moves with no attack, for a
    Medium or smaller creature that starts its turn next to an enemy."""
    ctx = turn.ctx
    f = ctx.f
    enc, b, me = f.enc, f.b, f.me
    if not b.ruleset.withdraw or not turn.threatened_at_start or me.size > 1:
        return []
    if b.has(me, "prone") or b.flag(me, "cant_move") or full_round_problem(enc, me):
        return []
    s0 = me.pos
    mask = dict(f.threat_mask)
    mask[s0] = 0  # S-15: the square left first provokes nothing
    found = routes(f.mg, s0, 2 * b.speed(me), f.enemy_sq, f.occupied, mask, ctx.oa_cost)
    # Only a withdraw that gets clear: nothing provoked on the way (S-14: leaving another
    # square an enemy threatens still provokes) and no enemy's reach where it ends.
    moves = {
        sq: r for sq, r in found.items() if sq != s0 and not r.mask and not f.threat_mask.get(sq)
    }
    for r in moves.values():
        r.mode = "withdraw"
    if not moves:
        return []
    cost = {sq: turn.oa(r) for sq, r in moves.items()}
    cost[s0] = (0.0, 1.0, ())
    out = []
    for o in moving_options(turn, moves, cost, fleeing, exact=True):
        if o.kind != "move" or o.route is None:
            continue
        if enc.validate(Withdraw(o.route.path)) is not None:
            continue
        o.kind = "withdraw"
        o.score -= WITHDRAW_COST
        o.replan_after = False
        out.append(o)
    return out
