"""Whether the AI takes a triggered power when its moment comes (an immediate interrupt or
reaction, `engine.triggers`): a pure judgement of the engine state and the odds the engine
put in the question, so it has no side effects.

It takes it when it pays: an attack that is expected to do something, a dodge that voids a
hit (a shift when hit by an attack, never when missed), a heal for an ally or itself that is
hurt, and any other effect (a bonus, a mark) except an encounter or daily power spent on an
enemy it can barely touch.
"""

from __future__ import annotations

from engine.battle import Battle
from engine.decisions import TriggerQuestion

WORTH = 0.5
"""Expected damage (plus a share of the hit chance) below which an attack is not worth
the round's one immediate action."""


def trigger_pays(battle: Battle, q: TriggerQuestion) -> bool:
    r = battle[q.who]
    power = r.power(q.power)
    if power is None:
        return False
    if q.hit is not None:  # an attack: the engine's odds against the one target
        spends = power.usage != "at-will"
        need = WORTH * (2 if spends else 1)
        return (q.expected_damage or 0.0) + 2 * q.hit > need
    outcome = power.effect or power.hit
    if outcome is not None and outcome.shift is not None:
        return q.trigger == "hit"  # a dodge voids a hit; after a miss there's nothing to void
    if outcome is not None and outcome.heal is not None:
        hurt = battle[q.target] if q.target is not None else r
        return hurt.hp < hurt.max_hp
    return True
