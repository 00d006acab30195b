"""First aid for the tactical policy: a Heal check on an adjacent dying ally (issue 16).

The engine owns the rule (`engine.handlers.first_aid`: who may be helped, the odds); this
module only weighs it. Stabilizing is worth the chance of success times what the ally's
death would cost the side: its share of the fight (its maximum hit points, like the worth of
dropping an enemy) times how close it is to dying (each failed death save so far brings the
third nearer; a death save fails 45% of the time). It competes with attacking as one more
standard-action option, so the creature stabilizes only when that beats hitting someone.
"""

from __future__ import annotations

from ai.plan import Budget, Option
from engine.actions import HealCheck
from engine.encounter import Encounter
from engine.handlers.first_aid import heal_check_odds, heal_check_refusal
from engine.state import Combatant

FAIL_CHANCE = 0.45
"""A death save fails on 1-9 of a d20 (S-10)."""
WORTH = 0.5
"""An ally's worth per maximum hit point (an enemy's is about its hit points in damage)."""


def first_aid_options(enc: Encounter, c: Combatant, bud: Budget, base: float) -> list[Option]:
    """A "utility" option per adjacent dying ally `c` could stabilize now, scored on top of
    `base` (the score of staying where it is)."""
    if not bud.standard:
        return []
    b = enc.battle
    out: list[Option] = []
    odds = heal_check_odds(c)
    for t in b.combatants.values():
        if t.side != c.side or t.state != "dying" or odds <= 0:
            continue
        if heal_check_refusal(b, c, t.id) is not None:
            continue
        risk = min(1.0, FAIL_CHANCE * (1 + t.death_failures))
        value = odds * risk * WORTH * t.max_hp
        note = f"stabilizes {t.name} (Heal check, {odds:.0%})"
        out.append(Option("utility", base + value, c.pos, action=HealCheck(t.id), note=note))
    return out
