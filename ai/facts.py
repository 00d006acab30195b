"""The immutable facts of one decision: who decides, who stands where, who threatens whom.

`Facts` is read from the encounter once per decision (`facts_of`) and never changes: the
candidate generators and the scorer read it, and everything they work out from it goes into
the decision's caches (`ai.caches`), never back into it. Values that need the scorer's
judgement (what an opportunity attack costs, how dangerous the worst enemy is) are the
`Threats` next to it, fixed once they are computed (`ai.scoring.Context`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ai.distances import MapGraph, graph_of
from ai.roles import Weights
from engine.battle import Battle
from engine.encounter import Encounter
from engine.grid import BattleMap, Occupancy
from engine.movement import threatening
from engine.state import Combatant

Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Facts:
    enc: Encounter
    b: Battle
    bmap: BattleMap
    mg: MapGraph
    me: Combatant
    w: Weights
    occ: Occupancy
    my_sq: tuple[Square, ...]
    allies: tuple[Combatant, ...]
    """Standing allies (not me)."""
    enemies: tuple[Combatant, ...]
    """Standing enemies."""
    downed: tuple[Combatant, ...]
    """Enemies down but not dead."""
    threat: Mapping[str, frozenset[Square]]
    """Enemies that could make an opportunity attack on me now -> squares they threaten."""
    threat_ids: tuple[str, ...]
    threat_bit: Mapping[str, int]
    """Each threatening enemy's bit in a route's provoked mask (`ai.routes.Route`)."""
    threat_mask: Mapping[Square, int]
    """Square -> the bits of the enemies whose opportunity attack leaving it provokes."""
    hp_eff: int
    """My hit points and temporary hit points."""
    weakened: bool
    occupied: frozenset[Square]
    """Squares of every other creature (no move may end there)."""
    enemy_sq: frozenset[Square]
    """Squares of the enemies (no move may pass through)."""
    enemy_pos: tuple[Square, ...]
    """Where the standing enemies are (top-left squares)."""
    ally_pos: tuple[Square, ...]
    """Where the standing allies are (top-left squares)."""


def facts_of(enc: Encounter, me: Combatant, weights: Weights) -> Facts:
    """The facts of `me`'s decision now (reads the encounter only)."""
    b = enc.battle
    occ = b.occupancy()
    living_enemies = list(b.enemies_of(me))
    enemies = tuple(e for e in living_enemies if e.standing)
    allies = tuple(a for a in b.allies_of(me) if a.standing)
    threat = {eid: frozenset(sqs) for eid, sqs in threatening(b, me).items()}
    threat_ids = tuple(threat)
    threat_bit = {eid: 1 << i for i, eid in enumerate(threat_ids)}
    mask: dict[Square, int] = {}
    for eid, sqs in threat.items():
        bit = threat_bit[eid]
        for sq in sqs:
            mask[sq] = mask.get(sq, 0) | bit
    return Facts(
        enc=enc,
        b=b,
        bmap=b.map,
        mg=graph_of(b.map),
        me=me,
        w=weights,
        occ=occ,
        my_sq=b.squares(me),
        allies=allies,
        enemies=enemies,
        downed=tuple(e for e in living_enemies if not e.standing),
        threat=threat,
        threat_ids=threat_ids,
        threat_bit=threat_bit,
        threat_mask=mask,
        hp_eff=me.hp + me.temp_hp,
        weakened=b.has(me, "weakened"),
        occupied=frozenset(sq for sq, oid in occ.by_square.items() if oid != me.id),
        enemy_sq=frozenset(sq for sq, oid in occ.by_square.items() if occ.side_of(oid) != me.side),
        enemy_pos=tuple(e.pos for e in enemies),
        ally_pos=tuple(a.pos for a in allies),
    )
