"""What `4srd` and `d20srd` share: the 3.5-style combat basics both texts build on.

The 4SRD's opportunity-attack section (S-14, S-15) is the d20 SRD's own text, and file 004
(d20srd) says nothing about opportunity attacks, so both rulesets use it: a creature makes at
most one opportunity attack per round (Combat Reflexes: one plus its Dex modifier), one per
opportunity, and leaving several squares threatened by the same opponent in one round is one
opportunity. Both have flat-footed (S-1, D-4): a combatant is flat-footed until it first
acts. Both have a minimum of 1 damage on a hit (S-5, D-7), the 5-foot step (a shift: one
square, provokes nothing, only in a turn with no other movement) and the withdraw action (a
full-round action moving up to double speed; the first square left provokes nothing). The
5-foot step costs the move action here, as a shift does everywhere in this engine (the log's
action accounting counts it), so it can't accompany a full-round action.

"Round" here is the battle's round (the count the log's `round` field shows), which is what
"per round" means for a creature whose place in the order doesn't change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from engine.events import Moved, TurnStart
from engine.rulesets.base import CreatureRules, ExtraAction, Ruleset
from engine.state import Combatant

if TYPE_CHECKING:
    from engine.battle import Battle

OWN_MOVES = frozenset({"walk", "run", "shift", "withdraw"})


def own_moves_this_turn(battle: Battle, c: Combatant) -> list[str]:
    """The modes of the moves `c` made on its own in its current turn (from the log)."""
    out: list[str] = []
    for logged in reversed(battle.log):
        ev = logged.event
        if isinstance(ev, TurnStart):
            if ev.id == c.id:
                break
        elif isinstance(ev, Moved) and ev.id == c.id and ev.mode in OWN_MOVES:
            out.append(ev.mode)
    return out


WITHDRAW = ExtraAction(
    "withdraw",
    "Withdraw",
    "a full-round move of up to double speed; the first square left provokes nothing",
    "S-15",
)
FIVE_FOOT_STEP = ExtraAction(
    "shift",
    "5-foot step",
    "a shift of one square that provokes nothing, only in a turn with no other movement",
    "S-15",
)


@dataclass(slots=True)
class SrdCreatureRules(CreatureRules):
    """S-14's bookkeeping of one creature, on top of X-OA-1's."""

    oa_round: int = -1
    oa_count: int = 0
    """Opportunity attacks made in `oa_round` (S-14: one a round, more with Combat Reflexes)."""
    move_opportunities: set[tuple[int, str]] = field(default_factory=set)
    """(round, enemy id): enemies its movement provoked (S-14: one opportunity a round)."""


class SrdRules(Ruleset):
    """The shared half of `4srd` and `d20srd` (S-1, S-5, S-14, S-15; D-4, D-7)."""

    minimum_damage_on_hit = 1
    extra_actions: ClassVar[tuple[ExtraAction, ...]] = (WITHDRAW, FIVE_FOOT_STEP)

    def new_state(self, c: Combatant) -> SrdCreatureRules:
        return SrdCreatureRules()

    def unprovoked_squares(self, mode: str) -> int:
        """S-15: the square a withdraw leaves first provokes nothing."""
        return 1 if mode == "withdraw" else 0

    def is_flat_footed(self, c: Combatant) -> bool:
        """S-1, D-4: every combatant is flat-footed until it first acts."""
        return not c.acted

    def opportunity_limit(self, c: Combatant) -> int:
        """S-14: one a round; Combat Reflexes adds the Dex modifier."""
        extra = 0
        if "combat_reflexes" in c.creature.feats:
            extra = max(0, c.creature.abilities.mod("dex"))
        return 1 + extra

    def log_numbers(self, c: Combatant) -> dict[str, Any]:
        cr = c.creature
        return {
            **super().log_numbers(c),
            "opportunity_attacks_per_round": self.opportunity_limit(c),
            "combat_reflexes": "combat_reflexes" in cr.feats,
            "feats": list(cr.feats),
            "base_attack_bonus": cr.bab,
            "damage_reduction": cr.damage_reduction,
            "sneak_attack": cr.sneak_attack,
        }

    def may_take_opportunity(self, c: Combatant, turn_counter: int, round_no: int) -> bool:
        state: SrdCreatureRules = c.rules
        used = state.oa_count if state.oa_round == round_no else 0
        return used < self.opportunity_limit(c)

    def note_opportunity(self, c: Combatant, turn_counter: int, round_no: int) -> None:
        super().note_opportunity(c, turn_counter, round_no)
        state: SrdCreatureRules = c.rules
        if state.oa_round != round_no:
            state.oa_round, state.oa_count = round_no, 0
        state.oa_count += 1

    def move_opportunity_open(self, mover: Combatant, enemy: Combatant, round_no: int) -> bool:
        """S-14: leaving squares one opponent threatens is one opportunity per round."""
        state: SrdCreatureRules = mover.rules
        return (round_no, enemy.id) not in state.move_opportunities

    def note_move_opportunity(self, mover: Combatant, enemy_id: str, round_no: int) -> None:
        state: SrdCreatureRules = mover.rules
        state.move_opportunities.add((round_no, enemy_id))

    def move_problem(self, battle: Battle, c: Combatant, mode: str) -> str | None:
        """S-15: a 5-foot step only in a turn with no other movement (before or after it)."""
        moves = own_moves_this_turn(battle, c)
        if mode == "shift" and moves:
            return "a 5-foot step is only allowed in a turn with no other movement (S-15)"
        if "shift" in moves:
            return "no other movement in a turn with a 5-foot step (S-15)"
        return None
