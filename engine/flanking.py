"""Flanking (F-MOD-1): which side of a target each creature stands on, who can flank it with an
attacker, and whether an attacker (where it stands, or as if it stood elsewhere) flanks.

One owner for the rule: the attack setup (`engine.attacks`), d20srd's sneak attack and the AI
(which weighs "if I stood there" for many squares, so it asks `flank_sides` once per target
and passes it back in) all read it here.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.battle import Battle
from engine.grid import adjacent, footprint
from engine.state import Combatant

Square = tuple[int, int]
Side = tuple[int, int]
"""Which side of a target's space a creature is on: -1, 0 or +1 on each axis."""


def side_of(pos: Square, size: int, target_pos: Square, target_size: int) -> Side:
    """The side of the space of `target_size` at `target_pos` that a creature of `size` at
    `pos` (top-left squares) stands on."""
    tx, ty = target_pos
    cx0, cy0 = pos
    cx1, cy1 = cx0 + size - 1, cy0 + size - 1
    sx = -1 if cx1 < tx else (1 if cx0 >= tx + target_size else 0)
    sy = -1 if cy1 < ty else (1 if cy0 >= ty + target_size else 0)
    return sx, sy


def flank_partners(battle: Battle, attacker: Combatant, target: Combatant) -> list[Combatant]:
    """The attacker's allies that flank `target` with it from the opposite side: standing,
    able to take opportunity attacks, able to see, adjacent to the target."""
    return list(_partners(battle, attacker, target))


def _partners(battle: Battle, attacker: Combatant, target: Combatant) -> Iterator[Combatant]:
    """`flank_partners`, one at a time (`flanking` stops at the first on the right side)."""
    t_sq = battle.squares(target)
    side, cid = attacker.side, attacker.id
    for a in battle.combatants.values():  # `allies_of`, standing ones only, inlined (hot)
        if a.side != side or a.id == cid or not a.standing:
            continue
        if not adjacent(battle.squares(a), t_sq):
            continue
        flags = battle._conditions(a)[1]  # `can_react` and "can see", read once
        if "no_reactions" not in flags and "cant_see" not in flags:
            yield a


def flank_sides(battle: Battle, attacker: Combatant, target: Combatant) -> frozenset[Side]:
    """The sides of `target` from which `attacker` would flank it: opposite each partner."""
    out = set()
    for a in flank_partners(battle, attacker, target):
        sx, sy = side_of(a.pos, a.size, target.pos, target.size)
        out.add((-sx, -sy))
    return frozenset(out)


def flanking(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    at: Square | None = None,
    sides: frozenset[Side] | None = None,
) -> bool:
    """Attacker and an ally on opposite sides of the target, both adjacent to it, the ally able
    to take opportunity attacks (F-MOD-1, flanking).

    `at`: judge it as if the attacker stood there (top-left square), for the AI's "what if I
    moved to X"; nothing changes either way. `sides`: `flank_sides(battle, attacker, target)`
    when the caller already has it."""
    pos = attacker.pos if at is None else at
    t_sq = battle.squares(target)
    if not adjacent(footprint(pos, attacker.size), t_sq) or not battle.can_react(attacker):
        return False
    return flanks_from(battle, attacker, target, pos, sides)


def flanks_from(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    pos: Square,
    sides: frozenset[Side] | None = None,
) -> bool:
    """`flanking` from `pos` once the attacker is known to be adjacent to the target there and
    free to react (the attack setup knows both already)."""
    mine = side_of(pos, attacker.size, target.pos, target.size)
    if sides is not None:
        return mine in sides
    # `mine in flank_sides(...)`: some partner stands on the side opposite the attacker's
    opposite = (-mine[0], -mine[1])
    if battle.passing is not None or opposite == (0, 0):
        return _partner_scanned(battle, attacker, target, opposite)
    return _partner_indexed(battle, attacker, target, opposite)


def _partner_scanned(
    battle: Battle, attacker: Combatant, target: Combatant, opposite: Side
) -> bool:
    """Some flank partner stands on side `opposite` of the target: every creature asked."""
    return any(
        side_of(a.pos, a.size, target.pos, target.size) == opposite
        for a in _partners(battle, attacker, target)
    )


def _partner_indexed(
    battle: Battle, attacker: Combatant, target: Combatant, opposite: Side
) -> bool:
    """`_partner_scanned` asking only the creatures in the strip of squares along side
    `opposite` of the target (its corner square for a diagonal side), by the occupancy index.

    Why that strip is enough: a creature on side (1, 0) of a target of size T at (tx, ty)
    starts at column tx + T or beyond and shares a row with it; adjacent, it starts at
    exactly tx + T, so one of its squares is (tx + T, y) for a row y of the target's; on
    side (1, 1) it is adjacent only from (tx + T, ty + T); likewise for the other sides.
    So every partner on that side has a square in the strip; a creature found there is put
    to the same tests as in the scan (its side among them). Not while a walker passes
    through an ally (`Battle.passing`: the square is the ally's in the index): the caller
    scans then. tests/engine/test_attack_fast.py compares the two over random placements."""
    tx, ty = target.pos
    size = target.size
    ox, oy = opposite
    at = battle.occupancy().by_square.get
    if size == 1:  # the strip is one square
        oid = at((tx + ox, ty + oy))
        return oid is not None and _partner_on(battle, attacker, target, oid, opposite)
    xs = (tx - 1,) if ox < 0 else (tx + size,) if ox > 0 else range(tx, tx + size)
    ys = (ty - 1,) if oy < 0 else (ty + size,) if oy > 0 else range(ty, ty + size)
    seen: str | None = None
    for x in xs:
        for y in ys:
            oid = at((x, y))
            if oid is None or oid == seen:
                continue
            seen = oid
            if _partner_on(battle, attacker, target, oid, opposite):
                return True
    return False


def _partner_on(
    battle: Battle, attacker: Combatant, target: Combatant, oid: str, opposite: Side
) -> bool:
    """Creature `oid` is a flank partner (`_partners`' tests) on side `opposite` of `target`."""
    if oid == attacker.id:
        return False
    a = battle.combatants[oid]
    if a.side != attacker.side or not a.standing:
        return False
    if side_of(a.pos, a.size, target.pos, target.size) != opposite:
        return False
    if not adjacent(battle.squares(a), battle.squares(target)):
        return False
    flags = battle._conditions(a)[1]
    return "no_reactions" not in flags and "cant_see" not in flags
