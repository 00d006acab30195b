"""Who can act before a creature acts again: the one question of turn order the AI asks.

A blow only matters for where a creature ends its turn if the enemy can land it before the
creature moves again. In the surprise round a surprised enemy first acts in round 1 (F-TRN-5),
so it strikes before the creature only if it comes earlier in the initiative order.
`ai.moving.Patience` (the first strike) and `ai.position.prepare_foes` (exposure, when the
configuration reads the order: `AIConfig.read_initiative`) leave out the others.
"""

from __future__ import annotations

from engine.battle import Battle
from engine.state import Combatant


def strikes_first(b: Battle, me: Combatant, e: Combatant) -> bool:
    """Can enemy `e` act before `me` acts again?"""
    if not (b.surprise_round and e.surprised):
        return b.can_act(e)
    if me.id not in b.order or e.id not in b.order:
        return e.standing
    return e.standing and b.order.index(e.id) < b.order.index(me.id)
