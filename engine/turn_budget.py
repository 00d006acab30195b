"""The action budget of a turn: which kinds of action a creature may still spend.

One owner for F-TRN-1 (a standard, a move and a minor action; a standard may be spent as a
move or a minor, a move as a minor), F-TRN-4 / S-2 and dazed (a single action), the action
point's extra standard action, and the ruleset's own turn actions (4srd's surprise round has
no minor action). `Encounter.can_spend` asks it about one action; the AI asks it about
sequences ("a move, then a standard") and about what is left after actions it plans first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.battle import Battle
from engine.state import Combatant

ACTION_KINDS = ("standard", "move", "minor")


def _fits(spent: Mapping[str, int], single: bool, slots: int) -> bool:
    std, mov = spent["standard"], spent["move"]
    total = std + mov + spent["minor"]
    if single and total > 1:
        return False
    return std <= slots and std + mov <= slots + 1 and total <= slots + 2


@dataclass(frozen=True, slots=True)
class TurnBudget:
    """What a creature's turn has left, read once: ask it about any sequence of actions."""

    allowed: tuple[str, ...]
    """The action kinds the ruleset lets a turn spend now."""
    spent: Mapping[str, int]
    single: bool
    """One action in all (the surprise round, dazed)."""
    slots: int
    """Standard actions available (one, plus action points)."""

    def allows(self, kinds: Iterable[str]) -> bool:
        """May the creature spend actions of `kinds`, one after the other?"""
        spent = dict(self.spent)
        for k in kinds:
            if k not in self.allowed or k not in spent:
                return False
            spent[k] += 1
            if not _fits(spent, self.single, self.slots):
                return False
        return True


def turn_budget(
    battle: Battle, c: Combatant, *, spent_also: Iterable[str] = (), extra_standard: int = 0
) -> TurnBudget:
    """`c`'s budget now (its turn), as if `spent_also` were spent too (kinds other than
    standard, move and minor cost nothing) and `extra_standard` action points."""
    spent = {k: battle.spent.get(k, 0) for k in ACTION_KINDS}
    for k in spent_also:
        if k in spent:
            spent[k] += 1
    return TurnBudget(
        battle.ruleset.turn_actions(battle),
        spent,
        battle.surprise_round or battle.has(c, "dazed"),
        1 + battle.extra_standard + extra_standard,
    )


def can_spend(
    battle: Battle,
    c: Combatant,
    kinds: Iterable[str],
    *,
    spent_also: Iterable[str] = (),
    extra_standard: int = 0,
) -> bool:
    """May `c` (whose turn it is) spend actions of `kinds`, one after the other, on top of what
    its turn has spent? `spent_also`: as if these were spent too; `extra_standard`: as if that
    many action points were spent."""
    budget = turn_budget(battle, c, spent_also=spent_also, extra_standard=extra_standard)
    return budget.allows(kinds)


def can_spend_one(battle: Battle, c: Combatant, kind: str) -> bool:
    """`can_spend(battle, c, (kind,))`, for the engine's own checks (asked for every power
    of every creature on every query: kept cheap)."""
    spent = battle.spent
    std = spent.get("standard", 0)
    mov = spent.get("move", 0)
    total = std + mov + spent.get("minor", 0) + 1
    if kind == "standard":
        std += 1
    elif kind == "move":
        mov += 1
    elif kind != "minor":
        return False  # not a kind a turn counts (ACTION_KINDS)
    if kind not in battle.ruleset.turn_actions(battle):
        return False
    # `_fits`, inlined; whether only one action is allowed matters from the second one on.
    if total > 1 and (battle.surprise_round or battle.has(c, "dazed")):
        return False
    slots = 1 + battle.extra_standard
    return std <= slots and std + mov <= slots + 1 and total <= slots + 2
