"""The action budget of a turn: which kinds of action a creature may still spend.

One owner for F-TRN-1 (a standard, a move and a minor action; a standard may be spent as a
move or a minor, a move as a minor), F-TRN-4 / S-2 and dazed (a single action), the action
point's extra standard action, and the ruleset's own turn actions (4srd's surprise round has
no minor action). `Encounter.can_spend` asks it about one action; the AI asks it about
sequences ("a move, then a standard") and about what is left after actions it plans first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.battle import Battle
from engine.state import Combatant

ACTION_KINDS = ("standard", "move", "minor")


def _fits(spent: Mapping[str, int], single: bool, slots: int) -> bool:
    std, mov = spent["standard"], spent["move"]
    total = std + mov + spent["minor"]
    if single and total > 1:
        return False
    return std <= slots and std + mov <= slots + 1 and total <= slots + 2


def can_spend(
    battle: Battle,
    c: Combatant,
    kinds: Iterable[str],
    *,
    spent_also: Iterable[str] = (),
    extra_standard: int = 0,
) -> bool:
    """May `c` (whose turn it is) spend actions of `kinds`, one after the other, on top of what
    its turn has spent? `spent_also`: as if these were spent too (kinds other than standard,
    move and minor cost nothing); `extra_standard`: as if that many action points were spent.
    """
    allowed = battle.ruleset.turn_actions(battle)
    spent = {k: battle.spent.get(k, 0) for k in ACTION_KINDS}
    for k in spent_also:
        if k in spent:
            spent[k] += 1
    single = battle.surprise_round or battle.has(c, "dazed")
    slots = 1 + battle.extra_standard + extra_standard
    for k in kinds:
        if k not in allowed or k not in spent:
            return False
        spent[k] += 1
        if not _fits(spent, single, slots):
            return False
    return True
