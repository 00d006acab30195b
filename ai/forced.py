"""Where the tactical AI lands a creature it pushes, pulls or slides.

The engine offers every legal end of the forced move as a path (`ForcedMoveQuestion`); the
attacker picks one. An enemy is best put into a pit, then where it is worse off: next to the
attacker's melee allies (flanked, if two of them face each other across it), away from its
ranged and bloodied allies it would threaten, next to a pit (the next push drops it in), in
difficult terrain, and away from an attacker that fights from range. An ally is moved
somewhere no enemy can hit it and never into a pit.
"""

from __future__ import annotations

from ai.roles import weights_for
from engine.battle import Battle
from engine.flanking import side_of
from engine.grid import STEPS, Terrain, distance, footprint
from engine.state import Combatant

Square = tuple[int, int]
PIT = 12.0
"""A fall: damage, prone at the bottom, a climb out."""


def forced_choice(
    b: Battle, by: Combatant, target: Combatant, options: tuple[tuple[Square, ...], ...]
) -> int:
    """The index of the best path in `options` (the first of the best on a tie)."""
    if not options:
        return 0
    friend = target.side == by.side
    best, best_v = 0, float("-inf")
    for i, path in enumerate(options):
        v = _ally_end(b, target, path[-1]) if friend else _enemy_end(b, by, target, path[-1])
        if v > best_v + 1e-9:
            best, best_v = i, v
    return best


def _pit(b: Battle, sq: Square) -> bool:
    return b.map.in_bounds(sq) and b.map.cell(sq).terrain == Terrain.PIT


def _enemy_end(b: Battle, by: Combatant, t: Combatant, end: Square) -> float:
    if _pit(b, end):
        return PIT
    t_sq = footprint(end, t.size)
    v = 0.0
    x, y = end
    pits = sum(1 for dx, dy in STEPS if _pit(b, (x + dx, y + dy)))
    v += 0.8 * min(pits, 2)
    if any(b.map.cell(sq).difficult for sq in t_sq):
        v += 0.5
    sides: set[tuple[int, int]] = set()
    for a in [by, *b.allies_of(by)]:
        if not a.standing:
            continue
        a_sq = b.squares(a)
        if distance(a_sq, t_sq) > max(1, t.reach):
            continue
        w = weights_for(a)
        fragile = w.keep_range or a.hp <= a.bloodied_value
        if a.id == by.id:
            v += -1.0 if fragile else 0.5
        else:
            v += -2.0 if fragile else 1.0
        if not fragile and distance(a_sq, t_sq) == 1:
            sides.add(side_of(a.pos, a.size, end, t.size))
    if any((-sx, -sy) in sides for sx, sy in sides):
        v += 1.5  # flanked between two of my side
    if weights_for(by).keep_range:
        v += 0.3 * distance(b.squares(by), t_sq)
    return v


def _ally_end(b: Battle, t: Combatant, end: Square) -> float:
    if _pit(b, end):
        return -PIT
    t_sq = footprint(end, t.size)
    near = sum(1 for e in b.enemies_of(t) if e.standing and distance(b.squares(e), t_sq) == 1)
    return -2.0 * near
