"""Line of effect, line of sight, cover and concealment (F-MOD-2 .. F-MOD-10).

Cover is decided exactly as F-MOD-3 says: from one corner of one attacker square (or of the
origin square of an area or close attack, F-MOD-4), trace the 4 lines to the 4 corners of one
target square; count the lines that pass through the interior of a blocking square. The
attacker picks the most favourable corner and target square. Terrain blocking a line: walls,
pillars and low obstacles; creatures blocking a line: the `blockers` the engine passes (the
squares of the attacker's other enemies, ranged attacks only, F-MOD-6). A line along the
edge of such a square, or touching only its corner, is not blocked; the one addition is that
walls and pillars are solid masses, so a line cannot slip along the seam between two of them
or between two that touch diagonally (see `lines.wall_seams`; without it a line of sight would
pass straight through a thick wall along a grid line).

Speed: the 16 lines between two squares depend only on their displacement, so their crossed
squares come precomputed (`lines.corner_table`); the terrain part of every (attacker square,
target square) pair is memoized per terrain (`BattleMap.tables`, shared by maps drawn the
same) as two 16-bit masks (lines blocked for cover; lines blocked for effect); creatures are
OR-ed in per call. Before reading a pair's lines square by
square, a box test on the map's prefix sums (`BattleMap.line_sums`) answers "nothing blocks"
at once when every square the table names is clear (most short lines on open ground).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from engine.grid.battlemap import LEVEL_MEMO_LIMIT, LINE_WALL, MEMO_LIMIT, BattleMap
from engine.grid.geometry import chebyshev
from engine.grid.lines import corner_table
from engine.grid.terrain import Obscured, Square

CoverLevel = Literal["none", "cover", "superior", "blocked"]
ConcealmentLevel = Literal["none", "concealment", "total"]
AttackKind = Literal["melee", "ranged", "close", "area"]

_COVER_NAMES: tuple[CoverLevel, ...] = ("none", "cover", "superior", "blocked")
_ALL_LINES = 0xFFFF
_POPCOUNT = tuple(bin(i).count("1") for i in range(16))

# A corner table with offsets flattened to index deltas in the map's padded code array:
# (cells as (delta, mask), seams as (delta1, delta2, mask)).
_FlatTable = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int, int], ...]]


@lru_cache(maxsize=16384)
def _offset_masks(dx: int, dy: int) -> dict[Square, int]:
    """(ox, oy) -> mask of the lines crossing that square; used to OR in creature squares."""
    return {(ox, oy): m for ox, oy, m in corner_table(dx, dy)[0]}


@lru_cache(maxsize=32768)
def _line_box(dx: int, dy: int) -> tuple[int, int, int, int] | None:
    """The box of every square the corner table of (dx, dy) names (its cells and both
    squares of each seam), as offsets (x0, y0, x1, y1) from the from-square; None when it
    names none. Kept by displacement alone, apart from the map's flat table: most lines on
    open ground are answered by this box (`_clear_box`) and never need the flat table, which
    depends on the map's width and costs tens of microseconds to build; this box is shared
    by every map and warmed with the corner tables (`ai.distances.warm_lines`)."""
    cells, seams = corner_table(dx, dy)
    xs = [c[0] for c in cells] + [c[0] for c in seams] + [c[2] for c in seams]
    ys = [c[1] for c in cells] + [c[1] for c in seams] + [c[3] for c in seams]
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


@lru_cache(maxsize=32768)
def _flat_table(pad: int, dx: int, dy: int) -> _FlatTable:
    cells, seams = corner_table(dx, dy)
    return (
        tuple((oy * pad + ox, m) for ox, oy, m in cells),
        tuple((ay * pad + ax, by * pad + bx, m) for ax, ay, bx, by, m in seams),
    )


def terrain_lines(bmap: BattleMap, a: Square, t: Square) -> tuple[int, int]:
    """(cover mask, effect mask) of the 16 lines from square `a` to square `t`, terrain only.

    Bit 4*i + j concerns the line from corner i of `a` to corner j of `t` (corner order in
    `lines.CORNER_OFFSETS`). The cover mask has the lines blocked by a wall, pillar or
    obstacle; the effect mask only those blocked by walls and pillars (their interiors, and
    the seams and diagonal joints between two of them: `lines.wall_seams`). Memoized per terrain.
    """
    key = (a, t)
    memo = bmap._line_memo
    hit = memo.get(key)
    if hit is not None:
        return hit
    dx, dy = t[0] - a[0], t[1] - a[1]
    box = _line_box(dx, dy)
    if box is not None and _clear_box(bmap, a, box):
        res = (0, 0)  # nothing but clear squares where any of the lines could be blocked
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[key] = res
        return res
    pad = bmap.width + 2
    cells, seams = _flat_table(pad, dx, dy)
    base = (a[1] + 1) * pad + a[0] + 1
    code = bmap._line_code
    cov = eff = 0
    for off, m in cells:
        c = code[base + off]
        if c:
            cov |= m
            if c == LINE_WALL:
                eff |= m
    for off1, off2, m in seams:
        if code[base + off1] == LINE_WALL and code[base + off2] == LINE_WALL:
            eff |= m
    cov |= eff
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    res = (cov, eff)
    memo[key] = res
    return res


def _clear_box(bmap: BattleMap, a: Square, box: tuple[int, int, int, int]) -> bool:
    """Is every square of `box` (offsets from square `a`, corners included) clear for lines?
    By the map's prefix sums of blocking codes (`BattleMap.line_sums`): four lookups, where
    the lines' own loops read every crossed square. Off the padded code array: no."""
    x0, y0 = a[0] + 1 + box[0], a[1] + 1 + box[1]
    x1, y1 = a[0] + 1 + box[2], a[1] + 1 + box[3]
    pad = bmap.width + 2
    if x0 < 0 or y0 < 0 or x1 >= pad or y1 >= bmap.height + 2:
        return False
    sums = bmap.line_sums
    row = pad + 1
    return (
        sums[(y1 + 1) * row + x1 + 1]
        - sums[y0 * row + x1 + 1]
        - sums[(y1 + 1) * row + x0]
        + sums[y0 * row + x0]
    ) == 0


def _level(cov: int, eff: int) -> int:
    """Best cover index over the 4 attacker corners (0 none .. 3 blocked)."""
    best = 3
    for shift in (0, 4, 8, 12):
        n = _POPCOUNT[(cov >> shift) & 15]
        if n == 0:
            return 0
        if n <= 2:
            best = 1
        elif best > 2 and (eff >> shift) & 15 != 15:
            # 3-4 lines blocked but some line is clear of walls: line of effect, superior.
            best = 2
    return best


def _creature_lines(a: Square, t: Square, blockers: frozenset[Square]) -> int:
    masks = _offset_masks(t[0] - a[0], t[1] - a[1])
    ax, ay = a
    bits = 0
    for bx, by in blockers:
        m = masks.get((bx - ax, by - ay))
        if m:
            bits |= m
    return bits


def cover(
    bmap: BattleMap,
    attacker_squares: Sequence[Square],
    target_squares: Sequence[Square],
    *,
    blockers: frozenset[Square] = frozenset(),
    count_creatures: bool = True,
) -> CoverLevel:
    """Cover of the target against the attacker by F-MOD-3: none, cover, superior or blocked.

    `attacker_squares` is the attacker's footprint, or `(origin,)` for an area or close attack
    (F-MOD-4). `blockers` are squares of creatures that block lines: the engine passes the
    attacker's enemies other than the target, for ranged attacks only (F-MOD-6); with
    `count_creatures=False` they are ignored. "blocked" means no corner and target square has
    line of effect: the attack cannot be made.
    """
    if not (count_creatures and blockers):
        return _COVER_NAMES[_terrain_level(bmap, attacker_squares, target_squares)]
    best = 3
    for a in attacker_squares:
        for t in target_squares:
            cov, eff = terrain_lines(bmap, a, t)
            lvl = _level(cov | _creature_lines(a, t, blockers), eff)
            if lvl < best:
                best = lvl
                if best == 0:
                    return "none"
    return _COVER_NAMES[best]


def terrain_cover_level(
    bmap: BattleMap, attacker_squares: tuple[Square, ...], target_squares: tuple[Square, ...]
) -> int:
    """`cover(bmap, attacker_squares, target_squares, count_creatures=False)` as its index
    in ("none", "cover", "superior", "blocked"): for a caller in a hot loop (the AI scores
    the cover of every square it might end on) that holds both footprints as tuples, one
    lookup in the terrain's cover memo when the answer is there."""
    hit = bmap._level_memo.get((attacker_squares, target_squares))
    if hit is not None:
        return hit
    return _terrain_level(bmap, attacker_squares, target_squares)


def _terrain_level(
    bmap: BattleMap, attacker_squares: Sequence[Square], target_squares: Sequence[Square]
) -> int:
    # Terrain-only cover is a pure function of the map, memoized whole per squares pair.
    key = (tuple(attacker_squares), tuple(target_squares))
    memo = bmap._level_memo
    hit = memo.get(key)
    if hit is not None:
        return hit
    best = 3
    for a in attacker_squares:
        for t in target_squares:
            lvl = _level(*terrain_lines(bmap, a, t))
            if lvl < best:
                best = lvl
    if len(memo) >= LEVEL_MEMO_LIMIT:
        memo.clear()
    memo[key] = best
    return best


def reach_cover(
    bmap: BattleMap, attacker_squares: Sequence[Square], target_squares: Sequence[Square]
) -> CoverLevel:
    """Cover against a reach attack (F-MOD-5).

    Reading: terrain between a reaching attacker and its target that would grant cover to a
    target standing in it grants cover, so the target gets the F-MOD-3 cover from terrain
    along the lines; creatures never grant cover against melee (F-MOD-6).
    """
    return cover(bmap, attacker_squares, target_squares, count_creatures=False)


def line_of_effect(
    bmap: BattleMap, from_squares: Sequence[Square], to_squares: Sequence[Square]
) -> bool:
    """Is some corner-to-corner line between the two groups clear of walls and pillars?

    Low obstacles and creatures never block line of effect.
    """
    for a in from_squares:
        for t in to_squares:
            if terrain_lines(bmap, a, t)[1] != _ALL_LINES:
                return True
    return False


def line_of_sight(
    bmap: BattleMap, from_squares: Sequence[Square], to_squares: Sequence[Square]
) -> bool:
    """Same lines as `line_of_effect`: obscured squares hide, they do not block (F-MOD-10)."""
    return line_of_effect(bmap, from_squares, to_squares)


_CONCEALMENT_NAMES: tuple[ConcealmentLevel, ...] = ("none", "concealment", "total")


def concealment(
    bmap: BattleMap, attacker_squares: Sequence[Square], target_squares: Sequence[Square]
) -> ConcealmentLevel:
    """Concealment of the target from the attacker by its squares' obscurement (F-MOD-7/8/10).

    Lightly obscured: concealment. Heavily obscured: concealment if adjacent to the attacker,
    total otherwise. Totally obscured (darkness): total. A creature in several squares is
    judged by its least obscured one. Invisibility is the engine's to add; the penalty applies
    to melee and ranged attacks only (F-MOD-9), which is also the engine's to decide.
    """
    best = 2
    for t in target_squares:
        ob = bmap.cell(t).obscured
        if ob is Obscured.NONE:
            return "none"
        if ob is Obscured.LIGHT:
            lvl = 1
        elif ob is Obscured.HEAVY:
            near = min(chebyshev(a, t) for a in attacker_squares) <= 1
            lvl = 1 if near else 2
        else:
            lvl = 2
        best = min(best, lvl)
    return _CONCEALMENT_NAMES[best]


def can_see(
    bmap: BattleMap, viewer_squares: Sequence[Square], target_squares: Sequence[Square]
) -> bool:
    """Line of sight and not total concealment (for F-MOD-1 combat advantage, F-MOD-11)."""
    return line_of_sight(bmap, viewer_squares, target_squares) and (
        concealment(bmap, viewer_squares, target_squares) != "total"
    )


def attack_cover(
    bmap: BattleMap,
    kind: AttackKind,
    attacker_squares: Sequence[Square],
    target_squares: Sequence[Square],
    *,
    origin: Square | None = None,
    blockers: frozenset[Square] = frozenset(),
) -> CoverLevel:
    """`cover` with the per-kind rules applied, for callers that want one call.

    close/area: measured from `origin` (F-MOD-4; defaults to the attacker's squares) and no
    creature gives cover; ranged: `blockers` (the attacker's other enemies) count (F-MOD-6);
    melee, reach included: terrain only (F-MOD-5, F-MOD-6).
    """
    if kind in ("close", "area"):
        source = (origin,) if origin is not None else attacker_squares
        return cover(bmap, source, target_squares, count_creatures=False)
    if kind == "ranged":
        return cover(bmap, attacker_squares, target_squares, blockers=blockers)
    return reach_cover(bmap, attacker_squares, target_squares)


def attack_concealment(
    bmap: BattleMap,
    kind: AttackKind,
    attacker_squares: Sequence[Square],
    target_squares: Sequence[Square],
) -> ConcealmentLevel:
    """`concealment` for an attack: close and area attacks take no concealment (F-MOD-9)."""
    if kind in ("close", "area"):
        return "none"
    return concealment(bmap, attacker_squares, target_squares)
