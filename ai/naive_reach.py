"""Where the naive policy can walk, and which of those squares is nearest an enemy: the same
answers as `Encounter.reachable("walk")` and a min over all of it, for a fraction of the cost.

The naive policy walks a few times a fight per creature, and each walk asked the engine for the
whole reach map (a Dijkstra with predecessors, then a sorted list of end squares) and then
scanned every square of it for the one nearest its enemy. Only the costs matter to the naive
choice (the path itself comes from `engine.grid.cheapest_path`), and costs are the same
whichever correct search finds them, so:

- `walk_costs`: the cheapest cost of every end square within the walk budget, by a
  breadth-first search in waves of equal cost (entry costs are 1 or 2: Dial's algorithm)
  where a wave is a bit mask of the map and a step is a few shifts (`Grid`), over the engine's
  own entry costs and corner rule (`engine.grid`), enemies' squares closed as the engine
  closes them; single-square movers only (None for the others: the caller asks the engine).
- `nearest_square`: the least (distance to the enemy, cost, square) of a reach map, found by
  looking at the rings of squares around the enemy from the inside out, not at every square.

Both are pinned to the engine by a differential test (tests/ai/test_naive_fast.py: random
maps with walls, difficult terrain, pits and Large creatures).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from engine.battle import Battle
from engine.grid import BattleMap, Occupancy, entry_costs
from engine.movement import budget
from engine.state import Combatant

Square = tuple[int, int]


def walk_costs(b: Battle, c: Combatant) -> WalkReach | None:
    """`Encounter.reachable("walk")` for the current creature `c` when it is one square
    (end square -> cost; its own square left out), or None for a larger creature."""
    if c.size != 1:
        return None
    grid = grid_of(b.map)
    if b.flag(c, "cant_move") or b.has(c, "prone"):
        return WalkReach(grid, [], 0)
    enemies, others = grid.creatures(b.occupancy(), c.id, c.side)
    waves = grid.waves(c.pos, budget(b, c, "walk"), enemies)
    ends = 0
    for wave in waves[1:]:
        ends |= wave
    return WalkReach(grid, waves, ends & ~others)


class Grid:
    """A map's squares as the bits of one integer (bit `y * pitch + x`, with one spare column
    so that no step wraps from one row's end to the next row's start): the squares a creature
    can enter, those that cost 2, and from which squares each diagonal step is allowed (no
    cut corners). Built once per map (maps never change)."""

    __slots__ = ("_up", "dear", "diagonals", "height", "open", "pitch", "width")

    def __init__(self, bmap: BattleMap) -> None:
        self.width, self.height = bmap.width, bmap.height
        self.pitch = p = bmap.width + 1
        self.open = self.mask(entry_costs(bmap))
        self.dear = self.mask(sq for sq, cost in entry_costs(bmap).items() if cost == 2)
        east, west = self.open >> 1, self.open << 1
        south, north = self.open >> p, self.open << p
        # (squares a diagonal step may leave, the shift that takes it): both squares beside
        # the step must be enterable (`engine.grid.step_neighbours`' corner rule).
        self.diagonals = ((east & south, p + 1), (west & south, p - 1))
        self._up = ((east & north, p - 1), (west & north, p + 1))

    def mask(self, squares: Iterable[Square]) -> int:
        p, w, h = self.pitch, self.width, self.height
        m = 0
        for x, y in squares:
            if 0 <= x < w and 0 <= y < h:
                m |= 1 << (y * p + x)
        return m

    def creatures(self, occ: Occupancy, mover: str, side: str) -> tuple[int, int]:
        """(the squares of the mover's enemies, of every creature but the mover) as masks:
        `Occupancy.split_for`'s two sets."""
        p = self.pitch
        enemies = others = 0
        side_of = occ.by_id
        for (x, y), oid in occ.by_square.items():
            if oid != mover:
                bit = 1 << (y * p + x)
                others |= bit
                if side_of[oid].side != side:
                    enemies |= bit
        return enemies, others

    def step(self, front: int) -> int:
        """Every enterable square one legal step from a square of `front`."""
        p = self.pitch
        out = front << 1 | front >> 1 | front << p | front >> p
        for allowed, shift in self.diagonals:
            out |= (front & allowed) << shift
        for allowed, shift in self._up:
            out |= (front & allowed) >> shift
        return out & self.open

    def waves(self, start: Square, limit: int, closed: int) -> list[int]:
        """The squares reached from `start` at each cost 0..`limit` (cost d: `waves[d]`),
        never entering `closed`: what `engine.grid.reachable` finds for a one-square mover.

        A step costs what entering its square costs, whichever square it comes from, so the
        first time a search going out in order of cost meets a square, it has met it by a
        cheapest way: each wave is the squares one step from the last, less those seen."""
        first = self.mask((start,))
        waves = [0] * (limit + 2)
        waves[0] = first
        seen = first | closed
        dear = self.dear
        for d in range(limit):  # a square at the limit is never left (a step costs 1 or more)
            front = waves[d]
            if not front:
                continue
            found = self.step(front) & ~seen
            if not found:
                continue
            seen |= found
            far = found & dear
            if far:
                found ^= far
                if d + 2 <= limit:
                    waves[d + 2] |= far
            waves[d + 1] |= found
        return waves[: limit + 1]

    def square(self, bit: int) -> Square:
        y, x = divmod(bit, self.pitch)
        return (x, y)


_GRIDS: weakref.WeakKeyDictionary[BattleMap, Grid] = weakref.WeakKeyDictionary()


def grid_of(bmap: BattleMap) -> Grid:
    grid = _GRIDS.get(bmap)
    if grid is None:
        grid = _GRIDS[bmap] = Grid(bmap)
    return grid


class WalkReach(Mapping[Square, int]):
    """End square -> cost, as `Encounter.reachable` returns it, kept as bit masks (`Grid`)
    and read square by square: the naive walk looks at a few squares of it, not all."""

    __slots__ = ("_ends", "_grid", "_waves")

    def __init__(self, grid: Grid, waves: list[int], ends: int) -> None:
        self._grid, self._waves, self._ends = grid, waves, ends

    def get(self, sq: Square, default: Any = None) -> Any:
        x, y = sq
        g = self._grid
        if not (0 <= x < g.width and 0 <= y < g.height):
            return default
        bit = 1 << (y * g.pitch + x)
        if not self._ends & bit:
            return default
        for d, wave in enumerate(self._waves):
            if wave & bit:
                return d
        return default  # pragma: no cover - every end square is in some wave

    def __getitem__(self, sq: Square) -> int:
        d: int | None = self.get(sq)
        if d is None:
            raise KeyError(sq)
        return d

    def __len__(self) -> int:
        return self._ends.bit_count()

    def __iter__(self) -> Iterator[Square]:
        return (sq for sq, _ in self._pairs())

    def _pairs(self) -> Iterator[tuple[Square, int]]:
        square = self._grid.square
        for d, wave in enumerate(self._waves):
            m = wave & self._ends
            while m:
                low = m & -m
                yield square(low.bit_length() - 1), d
                m ^= low


def nearest_square(
    theirs: tuple[Square, ...], reach: Mapping[Square, int], below: int
) -> Square | None:
    """The square of `reach` with the least (distance to `theirs`, cost, square), if that
    distance is below `below`; None otherwise (or if `reach` is empty)."""
    if not reach:
        return None
    xs = [x for x, _ in theirs]
    ys = [y for _, y in theirs]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    if len(theirs) != (x1 - x0 + 1) * (y1 - y0 + 1):
        return _scan(theirs, reach, below)  # not a filled square: no rings to walk
    size = len(reach)
    get = reach.get
    for k in range(below):
        ring = list(theirs) if k == 0 else _ring(x0 - k, x1 + k, y0 - k, y1 + k)
        if len(ring) > size:  # the rings have grown past the map: scan it once instead
            return _scan(theirs, reach, below)
        found = [(cost, sq) for sq in ring if (cost := get(sq)) is not None]
        if found:
            return min(found)[1]
    return None


def _ring(x0: int, x1: int, y0: int, y1: int) -> list[Square]:
    """The squares on the border of the box x0..x1, y0..y1 (inclusive; at least 3 wide and
    3 high): those at distance k from a filled box grown by k on every side."""
    xs = range(x0, x1 + 1)
    ys = range(y0 + 1, y1)
    return (
        [(x, y0) for x in xs]
        + [(x, y1) for x in xs]
        + [(x0, y) for y in ys]
        + [(x1, y) for y in ys]
    )


def _scan(theirs: tuple[Square, ...], reach: Mapping[Square, int], below: int) -> Square | None:
    """`nearest_square` by looking at every square of `reach`."""
    best = min((_dist(theirs, sq), cost, sq) for sq, cost in reach.items())
    return best[2] if best[0] < below else None


def _dist(theirs: tuple[Square, ...], sq: Square) -> int:
    x, y = sq
    return min(max(abs(x - ex), abs(y - ey)) for ex, ey in theirs)
