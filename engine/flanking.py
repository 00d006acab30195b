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
from engine.grid.occupancy import Occupancy
from engine.state import STANDING, Combatant

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
        if a.side != side or a.id == cid or a.state not in STANDING:
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
    occ = battle._occupancy  # the index as it stands, if built (never built just for this)
    if occ is None or battle.passing is not None or opposite == (0, 0):
        return _partner_scanned(battle, attacker, target, opposite)
    return any_ready(battle, placed_partners(battle, attacker, target, opposite, occ))


Watch = tuple[Occupancy, tuple[str, ...]]
"""The occupancy index and the creatures it places as flank partners (`placed_partners`)."""


def flank_watch(
    battle: Battle, attacker: Combatant, target: Combatant, watch: Watch | None
) -> tuple[bool, Watch | None]:
    """`flanks_from` where the attacker stands, reusing `watch` (the creatures placed to flank
    with it, as an earlier call found them) while the occupancy index is the one they were
    found in: who stands where has not changed, so only whether each of them is standing and
    free to react is asked again. The index is built if it isn't (the roll's setup asks this
    on every flankable attack: built once per move, it pays for itself). (flanking, the
    watch for the next call; None while a walker passes through an ally's square.)"""
    if battle.passing is not None:
        return flanks_from(battle, attacker, target, attacker.pos), None
    occ = battle.occupancy()
    if watch is None or watch[0] is not occ:
        mine = side_of(attacker.pos, attacker.size, target.pos, target.size)
        opposite = (-mine[0], -mine[1])
        if opposite == (0, 0):
            return flanks_from(battle, attacker, target, attacker.pos), None
        watch = (occ, placed_partners(battle, attacker, target, opposite, occ))
    return any_ready(battle, watch[1]), watch


def _partner_scanned(
    battle: Battle, attacker: Combatant, target: Combatant, opposite: Side
) -> bool:
    """Some flank partner stands on side `opposite` of the target: every creature asked."""
    return any(
        side_of(a.pos, a.size, target.pos, target.size) == opposite
        for a in _partners(battle, attacker, target)
    )


def _partner_indexed(
    battle: Battle, attacker: Combatant, target: Combatant, opposite: Side, occ: Occupancy
) -> bool:
    """`_partner_scanned` by the occupancy index (`placed_partners`, then `any_ready`)."""
    return any_ready(battle, placed_partners(battle, attacker, target, opposite, occ))


def placed_partners(
    battle: Battle, attacker: Combatant, target: Combatant, opposite: Side, occ: Occupancy
) -> tuple[str, ...]:
    """The attacker's allies that the occupancy index `occ` places adjacent to the target on
    its side `opposite`: partners if standing and free to react (`any_ready`). Found in the
    strip of squares along that side (its corner square for a diagonal side).

    Why that strip is enough: a creature on side (1, 0) of a target of size T at (tx, ty)
    starts at column tx + T or beyond and shares a row with it; adjacent, it starts at
    exactly tx + T, so one of its squares is (tx + T, y) for a row y of the target's; on
    side (1, 1) it is adjacent only from (tx + T, ty + T); likewise for the other sides.
    So every partner on that side has a square in the strip; a creature found there is put
    to the same tests as in the scan (its side among them). Not while a walker passes
    through an ally (`Battle.passing`: the square is the ally's in the index), nor when the
    index has not been built since the last move (building it costs more than a scan): the
    callers scan then. tests/engine/test_attack_fast.py compares the two over random
    placements."""
    tx, ty = target.pos
    size = target.size
    ox, oy = opposite
    at = occ.by_square.get
    if size == 1:  # the strip is one square
        oid = at((tx + ox, ty + oy))
        if oid is not None and _placed(battle, attacker, target, oid, opposite):
            return (oid,)
        return ()
    xs = (tx - 1,) if ox < 0 else (tx + size,) if ox > 0 else range(tx, tx + size)
    ys = (ty - 1,) if oy < 0 else (ty + size,) if oy > 0 else range(ty, ty + size)
    found: list[str] = []
    for x in xs:
        for y in ys:
            oid = at((x, y))
            if oid is None or oid in found:
                continue
            if _placed(battle, attacker, target, oid, opposite):
                found.append(oid)
    return tuple(found)


def _placed(
    battle: Battle, attacker: Combatant, target: Combatant, oid: str, opposite: Side
) -> bool:
    """Creature `oid` stands where a flank partner of `attacker` must (`_partners`' tests of
    place and side: another creature of its side, adjacent to the target, on `opposite`)."""
    if oid == attacker.id:
        return False
    a = battle.combatants[oid]
    if a.side != attacker.side:
        return False
    if side_of(a.pos, a.size, target.pos, target.size) != opposite:
        return False
    return adjacent(battle.squares(a), battle.squares(target))


def any_ready(battle: Battle, ids: tuple[str, ...]) -> bool:
    """One of `ids` is standing, able to take opportunity attacks and able to see
    (`_partners`' tests of the creature itself)."""
    for oid in ids:
        a = battle.combatants[oid]
        if a.state in STANDING:
            flags = battle._conditions(a)[1]
            if "no_reactions" not in flags and "cant_see" not in flags:
                return True
    return False
