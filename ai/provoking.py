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
"""

from __future__ import annotations

from ai.plan import Option
from ai.turn import Turn

PROVOKE_TIE = 0.05
"""What each provoked opportunity attack costs at least (a tie-breaker)."""
DEADLY = 100.0
"""What a deadly provoking turn loses: below anything that does not risk the creature."""
KILL = 0.5
"""The chance to drop an enemy that makes a deadly opportunity attack worth facing."""


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


def deadly(turn: Turn, o: Option) -> bool:
    """Does `o` provoke opportunity attacks that the mover's hit points can't expect to
    survive, with no kill or rescue to show for it?"""
    if not o.provoked:
        return False
    exp, surv = oa_risk(turn, o.provoked)
    if exp < max(1, turn.ctx.f.hp_eff) and surv >= 0.5:
        return False
    if any(h.drop >= KILL and not h.ally for h in o.hits):
        return False  # a kill
    return o.kind != "utility"  # a rescue (a heal, first aid)


def settle(turn: Turn, options: list[Option]) -> None:
    """Charge every provoking option its tie-breaker, and set the deadly ones aside."""
    for o in options:
        if not o.provoked:
            continue
        o.score -= PROVOKE_TIE * len(set(o.provoked))
        if deadly(turn, o):
            o.score -= DEADLY
            o.parts["deadly"] = -DEADLY
