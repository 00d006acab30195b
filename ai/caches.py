"""The memo tables of one decision, each written by one function and keyed by what it reads.

A decision asks the same questions many times (the engine's preview from this square, the
worth of ending there, who an area catches); each answer is kept here for the rest of the
decision and dropped with it. One table per question, named after the function that fills
it (the only writer); its key is everything the answer depends on that can vary within the
decision (the rest is fixed by the decision's `ai.facts.Facts`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ai.memory import Danger
from engine.content.schema import Power
from engine.dice import DiceExpr
from engine.flanking import Side
from engine.state import Combatant

if TYPE_CHECKING:
    from ai.moving import Patience
    from ai.position import Foe
    from ai.previews import PreviewKey, SquareKey
    from ai.scoring import Hit, HitTerms
    from engine.attacks import AttackerPart, SquarePart, TargetPart
    from engine.preview import DamagePart

Square = tuple[int, int]
Provoked = tuple[float, float, tuple[str, ...]]
"""(opportunity-attack cost, chance to survive them, who is provoked)."""
RoughCreature = tuple[Combatant, int, int, int, float]
"""(creature, x, y, size, weight) as `Context.rough_box` counts it."""
Support = tuple[tuple[Square, ...], int, float]
"""(an ally's squares, the range of a heal for it, the heal's net worth)."""


@dataclass(slots=True)
class Caches:
    # --- ai.previews ------------------------------------------------------------------------
    hits: dict[PreviewKey, Hit] = field(default_factory=dict)
    """`hit_at`: the scored preview, per (power, target, square part of the attack)."""
    attacker_parts: dict[str, AttackerPart] = field(default_factory=dict)
    """`parts_for`: my power -> the attacker's part of its attacks."""
    target_parts: dict[tuple[str, str], TargetPart] = field(default_factory=dict)
    """`parts_for`: (my power, target) -> the target's part."""
    square_parts: dict[SquareKey, SquarePart] = field(default_factory=dict)
    """`square_part_at`: (share group, my square, area origin) -> the square part."""
    share_ids: dict[tuple[str, str], int] = field(default_factory=dict)
    """`share_key`: (my power, target) -> the group of powers sharing square parts on it."""
    share_groups: dict[tuple[object, ...], int] = field(default_factory=dict)
    """`share_key`: what the square part reads of a (power, target) -> its group."""
    damage_parts: dict[tuple[str, str], DamagePart] = field(default_factory=dict)
    """`damage_part`: (my power, target) -> what a preview reads besides the odds."""
    # --- ai.scoring.Context -----------------------------------------------------------------
    dangers: dict[str, Danger] = field(default_factory=dict)
    """`danger`: enemy -> its danger (a view of the side's per-round table)."""
    conditions: dict[str, set[str]] = field(default_factory=dict)
    """`conditions_of`: creature -> `Battle.conditions`."""
    exprs: dict[str, DiceExpr | None] = field(default_factory=dict)
    """`expr`: my power -> its damage expression."""
    flank_sides: dict[str, frozenset[Side]] = field(default_factory=dict)
    """`flank_sides`: target -> the sides of it from which I would flank it."""
    ranges: dict[str, int] = field(default_factory=dict)
    """`in_reach`: my power -> its range (`engine.powers.power_range`)."""
    hit_terms: dict[tuple[str, str], HitTerms] = field(default_factory=dict)
    """`score_hit`: (my power, target) -> what it reads besides the preview."""
    at_will_mean: float | None = None
    """`best_at_will_mean`: the mean damage of my best at-will attack."""
    at_least: dict[tuple[str, int], float] = field(default_factory=dict)
    """`score_hit`: (my power, hit points) -> chance its damage is at least that."""
    loe: dict[tuple[Square, str], bool] = field(default_factory=dict)
    """`in_reach`: (my square, target) -> line of effect."""
    eligible: dict[tuple[str, str], bool] = field(default_factory=dict)
    """`creatures_in`: (my power, creature) -> may the power affect it."""
    rough: dict[str, list[RoughCreature]] = field(default_factory=dict)
    """`rough_box`: my power -> the creatures it may affect, weighted."""
    values: dict[Square, float] = field(default_factory=dict)
    """`value`: square -> the worth of ending the turn there."""
    gaps: dict[Square, int] = field(default_factory=dict)
    """`nearest_gap`: square -> distance to the nearest standing enemy."""
    capped: dict[tuple[Square, int], int] = field(default_factory=dict)
    """`gap_capped`: (square, cap) -> `min(cap, nearest_gap)`."""
    near_enemies: list[Square] | None = None
    """`gap_capped`: the enemies that can be within its cap of a square I can reach."""
    # --- ai.position ------------------------------------------------------------------------
    foes: list[Foe] | None = None
    """`prepare_foes`: the enemies as `square_value` reads them."""
    foes_near: tuple[int, int, int, list[Foe]] | None = None
    """`prepare_foes`: (x, y, m, the foes that can count for a square within m of (x, y),
    where I stand): `square_value` reads only those for such a square."""
    can_flank: bool | None = None
    """`square_value`: may I take reactions (and so flank) at all (`Battle.can_react`)."""
    # --- ai.utility -------------------------------------------------------------------------
    incoming: dict[str, float] = field(default_factory=dict)
    """`incoming`: creature of my side -> damage it may take next round."""
    conditions_on: dict[tuple[str, str], tuple[tuple[int, float], ...]] = field(
        default_factory=dict
    )
    """`condition_value`: (my power, enemy) -> (outcome: 0 hit, 1 miss, 2 effect, its worth)
    for each outcome that lays something."""
    output: dict[str, float] = field(default_factory=dict)
    """`output`: creature of my side -> mean damage of its best at-will hit in reach."""
    # --- ai.squares -------------------------------------------------------------------------
    act_provokes: dict[tuple[Square, int], Provoked] = field(default_factory=dict)
    """`act_provokes`: (square, mask already provoked on the way) -> what attacking there
    provokes."""
    # --- ai.candidates ----------------------------------------------------------------------
    shortlist: list[str] | None = None
    """`shortlist`: the targets worth a ranged attack, best first (ranked once)."""
    shortlist_by: tuple[Power, list[Combatant], list[Square]] | None = None
    """`shortlist`: its first call's power, targets and squares, which rank the targets
    whenever the ranking is first needed."""
    # --- ai.moving --------------------------------------------------------------------------
    ring: dict[str, bool] = field(default_factory=dict)
    """`open_ring`: enemy -> is there a free square next to it to attack it from."""
    goals: dict[tuple[int, str | None, int], Combatant] = field(default_factory=dict)
    """`choose_goal`: (my speed this turn, the goal I kept, my longest range) -> the enemy
    to walk toward (the rest it reads is the decision's)."""
    joined: bool | None = None
    """`joined`: is the fight joined (it reads only the decision's facts)."""
    patience: Patience | None = None
    """`Patience.of`: what a turn with no attack pays for the enemies' first strike (it reads
    only the decision's facts and my side's memory, so it is the same for every option)."""
    # --- ai.planner -------------------------------------------------------------------------
    support: list[Support] = field(default_factory=list)
    """Set once by the planner before squares are valued: allies out of reach of a heal I
    could give (`ai.utility.heals_out_of_reach`), for `ai.position.square_value`."""
