"""Threatened squares and the opportunity attacks a walk would provoke (S-14).

A creature threatens every square it could make a melee attack into: within its reach of its
footprint and with line of effect. Moving out of a threatened square provokes. These are
geometric helpers only: whether the creature is armed, can see the mover, has its
opportunity attack left this turn (X-OA-1) or whether the move was a shift is the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.grid.battlemap import THREAT_MEMO_LIMIT, BattleMap
from engine.grid.geometry import footprint, squares_within
from engine.grid.sight import line_of_effect
from engine.grid.terrain import Square


def threatened_squares(bmap: BattleMap, pos: Square, size: int, reach: int) -> frozenset[Square]:
    """Squares within `reach` of the footprint at `pos`, with line of effect, on the map.

    Leaves out the footprint itself and wall/pillar squares (nothing can stand in them).
    In 4e a melee attack may go diagonally past a corner, so only line of effect is needed,
    not a legal step. Memoized per map by (pos, size, reach).
    """
    key = (pos, size, reach)
    memo = bmap._threat_memo
    hit = memo.get(key)
    if hit is not None:
        return hit
    own = footprint(pos, size)
    out = frozenset(
        sq
        for sq in squares_within(own, reach)
        if bmap.in_bounds(sq)
        and sq not in own
        and not bmap.blocks_sight(sq)
        and line_of_effect(bmap, own, (sq,))
    )
    if len(memo) >= THREAT_MEMO_LIMIT:
        memo.clear()
    memo[key] = out
    return out


def provocations(
    path: Sequence[Square],
    threat_by_enemy: Mapping[str, frozenset[Square]],
    size: int = 1,
) -> list[tuple[int, str]]:
    """(step index, enemy id) for each enemy a walk along `path` provokes, in path order.

    Step i leaves path[i]; an enemy is provoked the first time the mover leaves a position
    where any of its footprint squares is threatened by that enemy, and at most once per move
    (S-14: several threatened squares left in one move are one opportunity). Enemies provoked
    at the same step come in the mapping's order (pass it in initiative order, say).
    """
    out: list[tuple[int, str]] = []
    done: set[str] = set()
    for i in range(len(path) - 1):
        here = footprint(path[i], size)
        for enemy, threat in threat_by_enemy.items():
            if enemy not in done and any(s in threat for s in here):
                done.add(enemy)
                out.append((i, enemy))
    return out
