"""Opportunity attacks the tactical AI does not walk into (issue 15, target 5; S-14).

The scorer already charges every provoked opportunity attack its expected damage and its
chance to drop the mover (`Context.oa_cost`, `oa_drop`). Two things it did not rule out:

- **needless**: where provoking costs the scorer nothing (an enemy it reckons harmless), a
  turn that provokes ties with one that reaches the same attack and the same end square
  without provoking, and the first generated wins. Every provoked attack costs a little
  (`PROVOKE_TIE`), so the one that provokes less wins the tie.
- **deadly**: a turn whose opportunity attacks are expected to deal the mover's hit points,
  or more likely than not to drop it, loses the scorer's trade-off only when what it gains is
  small; it is set aside (`DEADLY`: chosen only if nothing else is left) unless the reason is
  worth the risk and the explanation can say so: an attack likely to drop an enemy (its
  "% to drop"), or a heal or first aid for an ally (a rescue, an action with no attack).

`settle(turn, options)` applies both to the planner's options before the best is chosen.
The candidate generators don't weigh every square for every power (ranged and area attacks
are tried from a few squares only, `ai.squares.far_squares`), so `calmer(turn, best)` then
looks at every square the creature can reach for the same turn provoking fewer: the same
attack (power, targets) worth as much from a square worth as much, or for a move with no
attack a square worth as much and as near its goal (a shift or another path included);
the first that provokes a strict subset of the opportunity attacks is taken instead. What a
minor action taken first provokes (a ranged power used next to an enemy) counts too:
`extras_provoke` names them, `ai.minor` charges them before it takes one.
"""

from __future__ import annotations

from dataclasses import replace

from ai.attack_plans import attack_squares, named_targets
from ai.candidates import attack_options
from ai.plan import Option
from ai.routes import Route
from ai.scoring import Context
from ai.squares import act_provokes
from ai.turn import Turn
from ai.utility import Utility
from engine.movement import act_provokers
from engine.powers import provoking_kind

PROVOKE_TIE = 0.05
"""What each provoked opportunity attack costs at least (a tie-breaker)."""
DEADLY = 100.0
"""What a deadly provoking turn loses: below anything that does not risk the creature."""
KILL = 0.5
"""The chance to drop an enemy that makes a deadly opportunity attack worth facing."""
EPS = 1e-6

Square = tuple[int, int]


def reckon_two_moves(ctx: Context) -> None:
    """Reckon the opportunity attacks of the enemies whose reach the mover could leave only
    in a second move (`Context` reckons those within one move: speed + 2): before a double
    move's second leg or a withdraw (double speed) is weighed, so that neither walks
    through a far enemy's reach for free nor hides a deadly one from `deadly`. Once a
    decision; the nearer enemies' figures are unchanged."""
    if ctx.two_moves:
        return
    ctx.two_moves = True
    f = ctx.f
    b = f.b
    me = f.me
    one, two = b.speed(me) + 2, 2 * b.speed(me) + 2
    mx, my = me.pos
    exp, drop = list(ctx.oa_exp), list(ctx.oa_drop)
    for i, eid in enumerate(f.threat_ids):
        e = b[eid]
        gap = max(abs(e.pos[0] - mx), abs(e.pos[1] - my)) - e.reach - e.size
        p = e.basic_melee()
        if p is not None and one < gap <= two:
            exp[i], drop[i] = ctx.quick_attack(e, p)
    w = f.w.oa
    ctx.oa_exp, ctx.oa_drop = tuple(exp), tuple(drop)
    ctx.oa_cost = tuple(w * x * (1.0 + 2.0 * d) for x, d in zip(exp, drop, strict=True))


def oa_risk(turn: Turn, who: tuple[str, ...]) -> tuple[float, float]:
    """(expected damage, chance to survive) of the opportunity attacks of `who` on the mover
    (`Context.oa_exp`, `oa_drop`)."""
    ctx = turn.ctx
    index = {eid: i for i, eid in enumerate(ctx.f.threat_ids)}
    exp, surv = 0.0, 1.0
    for eid in set(who):
        i = index.get(eid)
        if i is not None:
            exp += ctx.oa_exp[i]
            surv *= 1.0 - ctx.oa_drop[i]
    return exp, surv


def deadly(turn: Turn, o: Option, early: tuple[str, ...] = ()) -> bool:
    """Does `o` (after the minor actions that provoke `early`) provoke opportunity attacks
    that the mover's hit points can't expect to survive, with no kill or rescue to show for
    it?"""
    if not o.provoked:
        return False
    exp, surv = oa_risk(turn, (*o.provoked, *early))
    if exp < max(1, turn.ctx.f.hp_eff) and surv >= 0.5:
        return False
    if any(h.drop >= KILL and not h.ally for h in o.hits):
        return False  # a kill
    return o.kind != "utility"  # a rescue (a heal, first aid)


def settle(turn: Turn, options: list[Option], early: tuple[str, ...] = ()) -> None:
    """Charge every provoking option its tie-breaker, and set the deadly ones aside
    (`early`: who the minor actions taken first provoke)."""
    for o in options:
        if not o.provoked:
            continue
        o.score -= PROVOKE_TIE * len(set(o.provoked))
        if deadly(turn, o, early):
            o.score -= DEADLY
            o.parts["deadly"] = -DEADLY


def act_provokes_now(ctx: Context, utils: tuple[Utility, ...] | list[Utility]) -> tuple[str, ...]:
    """Whose opportunity attacks these actions, taken where the creature stands, provoke (a
    ranged or area power used next to them, S-14), as the engine rules it: the minor
    actions taken first count as much as the rest of the turn."""
    f = ctx.f
    out: list[str] = []
    for u in utils:
        pid = getattr(u.action, "power", None)
        p = f.me.power(pid) if isinstance(pid, str) else None
        if p is not None and provoking_kind(p):
            out.extend(e.id for e in act_provokers(f.b, f.me) if e.id not in out)
    return tuple(out)


def oa_charge(ctx: Context, who: tuple[str, ...]) -> tuple[float, bool]:
    """What the scorer charges for the opportunity attacks of `who` (`Context.oa_cost`), and
    whether the creature can't expect to survive them (their expected damage at least its
    hit points, or a drop more likely than not)."""
    index = {eid: i for i, eid in enumerate(ctx.f.threat_ids)}
    cost, exp, surv = 0.0, 0.0, 1.0
    for eid in set(who):
        i = index.get(eid)
        if i is not None:
            cost += ctx.oa_cost[i]
            exp += ctx.oa_exp[i]
            surv *= 1.0 - ctx.oa_drop[i]
    return cost, exp >= max(1, ctx.f.hp_eff) or surv < 0.5


def calmer(turn: Turn, o: Option, approach: dict[Square, float] | None = None) -> Option | None:
    """The same turn as `o` provoking a strict subset of its opportunity attacks, if the
    creature can take one (see the module docstring); `approach`: each square's nearness to
    the goal of a move with no attack (`ai.moving.approach_terms`)."""
    if not o.provoked:
        return None
    if o.kind == "attack" and o.power is not None and o.hits:
        return _calmer_attack(turn, o)
    if o.kind == "move" and o.route is not None and o.post is None and approach is not None:
        return _calmer_move(turn, o, approach)
    return None


def provoked_at(turn: Turn, o: Option, sq: Square, via: Route | None) -> tuple[str, ...]:
    """Who an attack of `o`'s power from `sq` (reached by `via`) provokes: the route's, and
    the act's for a ranged or area power."""
    who = turn.route_cost[sq][2]
    if o.power is not None and provoking_kind(o.power):
        who = who + tuple(e for e in act_provokes(turn.ctx, sq, via)[2] if e not in who)
    return who


def _calmer_attack(turn: Turn, o: Option) -> Option | None:
    assert o.power is not None
    ctx = turn.ctx
    f = ctx.f
    who = set(o.provoked)
    worth = sum(h.value for h in o.hits)
    end_value = turn.value(o.end)
    want = {h.target for h in o.hits}
    targets = [*f.enemies, *f.downed]
    best: tuple[tuple[int, float, Square], Option] | None = None
    for sq, via in attack_squares(turn).items():
        alt = provoked_at(turn, o, sq, via)
        value = turn.value(sq)
        if not set(alt) < who or value < end_value - EPS:
            continue
        for at, hits, origin in attack_options(ctx, o.power, targets, {sq: via}, [sq]):
            got = sum(h.value for h in hits)
            if at != sq or {h.target for h in hits} != want or got < worth - EPS:
                continue
            key = (len(alt), -value - got, sq)
            if best is None or key < best[0]:
                gain = PROVOKE_TIE * (len(who) - len(alt)) + value - end_value + got - worth
                best = (
                    key,
                    replace(
                        o,
                        score=o.score + gain,
                        end=sq,
                        route=via,
                        targets=named_targets(o.power, list(hits)),
                        origin=origin,
                        hits=tuple(hits),
                        post=None,
                        provoked=alt,
                        avoided=turn.avoided(via),
                        parts={**o.parts, "calmer": gain},
                    ),
                )
    return best[1] if best is not None else None


def _calmer_move(turn: Turn, o: Option, approach: dict[Square, float]) -> Option | None:
    assert o.route is not None
    legs = {sq: turn.route_cost[sq][2] for sq in [turn.s0, *turn.moves]}
    sq = calmest(turn, o.end, legs, approach)
    if sq is None:
        return None
    alt = legs[sq]
    gain = PROVOKE_TIE * (len(set(o.provoked)) - len(alt))
    if sq == turn.s0:
        return Option("stay", o.score + gain, sq, goal=o.goal, parts={"calmer": gain})
    r = turn.moves[sq]
    return replace(
        o,
        score=o.score + gain,
        end=sq,
        route=r,
        provoked=alt,
        avoided=turn.avoided(r),
        parts={**o.parts, "calmer": gain},
    )


def calmest(
    turn: Turn, end: Square, legs: dict[Square, tuple[str, ...]], approach: dict[Square, float]
) -> Square | None:
    """The square among `legs` (each with whose opportunity attacks the way there provokes)
    that provokes a strict subset of what the way to `end` provokes, is worth as much
    (`Turn.value`) and as near the goal (`approach`); fewest provoked first, then the best;
    None if there is none. A double move's first leg and its second one both ask it."""
    who = set(legs[end])
    near = approach.get(end, 0.0)
    end_value = turn.value(end)
    best: tuple[tuple[int, float, Square], Square] | None = None
    for sq, alt in legs.items():
        if not set(alt) < who:
            continue
        value = turn.value(sq)
        closer = approach.get(sq, 0.0)
        if value < end_value - EPS or closer < near - EPS:
            continue
        key = (len(alt), -value - closer, sq)
        if best is None or key < best[0]:
            best = (key, sq)
    return best[1] if best is not None else None
