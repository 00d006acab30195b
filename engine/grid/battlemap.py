"""The battle map: terrain of every square, plus the movement graph and per-terrain caches.

A `BattleMap` is immutable once built. Everything derived from terrain alone (the movement
graph's adjacency, flat lookup arrays for the line tests, memoized cover and threat results)
is computed at most once per terrain and kept in its `TerrainTables`, because the engine and
the AI ask the same geometric questions thousands of times per encounter. Two maps with the
same cells share one `TerrainTables` (`tables_for`): a simulator or a benchmark that loads the
same encounter for every fight builds a fresh `BattleMap` each time, and would otherwise
start every fight with cold memos. Creatures are never stored here: they are passed into
each query (see `occupancy`), so a map can be shared by many game states.
"""

from __future__ import annotations

import weakref
from collections import deque
from typing import TYPE_CHECKING, Any

from engine.grid.terrain import (
    COVER_BLOCKING,
    MOVE_BLOCKING,
    SIGHT_BLOCKING,
    Cell,
    MapError,
    Obscured,
    Square,
    Terrain,
    parse_grid,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    import networkx as nx

# Codes in `BattleMap._line_code`: what a square does to a line traced through its interior.
LINE_CLEAR = 0
LINE_COVER = 1  # low obstacle: blocks the line for cover only (F-MOD-3)
LINE_WALL = 2  # wall or pillar: blocks sight, effect and cover

# Memo tables are dropped wholesale at these sizes so that long simulations on big maps cannot
# grow them without bound; a refill costs only recomputation. Sized by bytes, as measured on a
# 200x200 map (a line entry about 320 bytes, a cover entry about 300, a threatened area about
# 2.2 KB): full, they hold about 31 MB together, which keeps a 200x200 map with 64 creatures
# under 150 MB resident however many fights a process plays on it, while one fight's working
# set fits (per fight about 4k line, 1.5k cover and 100 threat entries on 30x20; 14k, 5k and
# 850 on 60x60 and 200x200).
MEMO_LIMIT = 50_000
"""Entries of the terrain line memo (`sight.terrain_lines`)."""
LEVEL_MEMO_LIMIT = 20_000
"""Entries of the terrain cover memo (`sight.cover`)."""
THREAT_MEMO_LIMIT = 4_000
"""Entries of the threatened-squares memo (`threat.threatened_squares`)."""
RECENT_TERRAINS = 2
"""Terrains whose tables are kept after their last map is gone (the most recently built):
enough for a process that reloads the same encounter for every fight, few enough that one
that plays many big maps in turn keeps at most this many sets of memos of maps no longer
in play (each set is capped by the limits above)."""

_TerrainKey = tuple[int, int, tuple["Cell", ...]]


class TerrainTables:
    """Everything derived from one terrain (width, height and cells), shared by every map
    drawn the same: the flat arrays of the line tests, the entry costs, the adjacency, and
    the memo tables. Values only ever depend on the terrain, so sharing them between maps
    changes no answer. `extra` holds the memos of other layers (by a key each owns: the AI
    keeps its per-terrain areas there), which go with the tables."""

    __slots__ = (
        "__weakref__",
        "entry_cost",
        "extra",
        "flat",
        "level_memo",
        "line_code",
        "line_memo",
        "line_sums",
        "move_block",
        "nbrs",
        "threat_memo",
    )

    def __init__(self, width: int, height: int, cells: tuple[Cell, ...]) -> None:
        # Flat row-major arrays: the hot loops of the line code index these instead of hashing
        # tuples. The line codes carry a one-square border of wall, so that the map edge is
        # solid for the wall-seam rule (`lines.wall_seams`): index (y + 1) * (width + 2) + x + 1.
        pad = width + 2
        codes = bytearray([LINE_WALL]) * (pad * (height + 2))
        for i, c in enumerate(cells):
            code = (
                LINE_WALL
                if c.terrain in SIGHT_BLOCKING
                else LINE_COVER
                if c.terrain in COVER_BLOCKING
                else LINE_CLEAR
            )
            codes[(i // width + 1) * pad + i % width + 1] = code
        self.line_code = codes
        self.move_block = bytearray(1 if c.terrain in MOVE_BLOCKING else 0 for c in cells)
        self.entry_cost: dict[Square, int] = {}
        block, entry = self.move_block, self.entry_cost
        for y in range(height):
            row = y * width
            for x in range(width):
                if not block[row + x]:
                    entry[(x, y)] = 2 if cells[row + x].difficult else 1
        self.line_sums: list[int] | None = None
        # The graph's adjacency as sorted tuples (`BattleMap.nbrs`), which every search reads.
        self.nbrs: dict[Square, tuple[Square, ...]] | None = None
        self.flat: frozenset[Square] | None = None
        # Terrain-only line masks per (from square, to square), and terrain-only cover level
        # per (attacker squares, target squares): see `engine.grid.sight`.
        self.line_memo: dict[tuple[Square, Square], tuple[int, int]] = {}
        self.level_memo: dict[tuple[tuple[Square, ...], tuple[Square, ...]], int] = {}
        self.threat_memo: dict[tuple[Square, int, int], frozenset[Square]] = {}
        self.extra: dict[str, Any] = {}


_LIVE: weakref.WeakValueDictionary[_TerrainKey, TerrainTables] = weakref.WeakValueDictionary()
_RECENT: deque[TerrainTables] = deque(maxlen=RECENT_TERRAINS)


def tables_for(width: int, height: int, cells: tuple[Cell, ...]) -> TerrainTables:
    """The tables of this terrain: those of a map drawn the same if one is in play (or was
    among the last `RECENT_TERRAINS` built), else new ones."""
    key = (width, height, cells)
    tables = _LIVE.get(key)
    if tables is None:
        tables = TerrainTables(width, height, cells)
        _LIVE[key] = tables
    if not _RECENT or _RECENT[-1] is not tables:
        if tables in _RECENT:
            _RECENT.remove(tables)
        _RECENT.append(tables)
    return tables


class BattleMap:
    """Terrain of a rectangular grid. Build with `from_ascii`; treat as read-only.

    `graph` is the networkx movement graph (see `engine.grid.movement`): one node per square
    that does not block movement, with node attribute `cost` (1, or 2 when difficult), and
    edges to the 8 neighbours except diagonals that would cut a movement-blocking corner.
    The cost lives on the node, not the edge, because the cost of a step is the cost of
    *entering* its destination, which an undirected edge cannot express.
    """

    __slots__ = (
        "__weakref__",
        "_entry_cost",
        "_flat",
        "_graph",
        "_level_memo",
        "_line_code",
        "_line_memo",
        "_line_sums",
        "_move_block",
        "_nbrs",
        "_threat_memo",
        "cells",
        "height",
        "name",
        "tables",
        "width",
    )

    def __init__(self, width: int, height: int, cells: Sequence[Cell], name: str = "") -> None:
        if width <= 0 or height <= 0 or len(cells) != width * height:
            raise MapError(f"a {width}x{height} map needs {width * height} cells, got {len(cells)}")
        self.name = name
        self.width = width
        self.height = height
        self.cells: tuple[Cell, ...] = tuple(cells)
        t = self.tables = tables_for(width, height, self.cells)
        # The shared tables' containers, under the names the line and search code reads.
        self._line_code = t.line_code
        self._move_block = t.move_block
        self._entry_cost = t.entry_cost
        self._line_memo = t.line_memo
        self._level_memo = t.level_memo
        self._threat_memo = t.threat_memo
        self._line_sums: list[int] | None = t.line_sums
        self._nbrs: dict[Square, tuple[Square, ...]] | None = t.nbrs
        self._flat: frozenset[Square] | None = t.flat
        self._graph: nx.Graph | None = None

    @classmethod
    def from_ascii(
        cls, rows: str | list[str], legend: dict[str, Cell] | None = None, name: str = ""
    ) -> BattleMap:
        """Parse a drawing (see `engine.grid.terrain` for the legend); `legend` extends it."""
        width, height, cells = parse_grid(rows, legend)
        return cls(width, height, cells, name)

    def __repr__(self) -> str:
        return f"BattleMap({self.name!r}, {self.width}x{self.height})"

    def in_bounds(self, sq: Square) -> bool:
        x, y = sq
        return 0 <= x < self.width and 0 <= y < self.height

    def cell(self, sq: Square) -> Cell:
        """The cell at `sq`; raises IndexError off the map."""
        x, y = sq
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"square {sq} is off the {self.width}x{self.height} map")
        return self.cells[y * self.width + x]

    def blocks_movement(self, sq: Square) -> bool:
        """Wall, pillar, obstacle, pit, or off the map."""
        x, y = sq
        if not (0 <= x < self.width and 0 <= y < self.height):
            return True
        return bool(self._move_block[y * self.width + x])

    def blocks_sight(self, sq: Square) -> bool:
        """Wall or pillar (or off the map): the only terrain that stops sight and effect."""
        x, y = sq
        if not (0 <= x < self.width and 0 <= y < self.height):
            return True
        return self._line_code[(y + 1) * (self.width + 2) + x + 1] == LINE_WALL

    def entry_cost(self, sq: Square) -> int | None:
        """Squares of movement to enter `sq` (1 or 2), or None if it cannot be entered."""
        return self._entry_cost.get(sq)

    def squares(self) -> list[Square]:
        """Every square, row by row."""
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    def terrain_squares(self) -> dict[str, list[Square]]:
        """Terrain kind -> its squares, only kinds present (for the log's `encounter_start`)."""
        out: dict[str, list[Square]] = {}
        for i, c in enumerate(self.cells):
            sq = (i % self.width, i // self.width)
            if c.terrain is not Terrain.FLOOR:
                out.setdefault(c.terrain.value, []).append(sq)
            if c.difficult:
                out.setdefault("difficult", []).append(sq)
            if c.obscured is not Obscured.NONE:
                out.setdefault(c.obscured.value, []).append(sq)
        return out

    @property
    def graph(self) -> nx.Graph:
        """The movement graph, built on first use and then kept (read-only for callers)."""
        if self._graph is None:
            self._graph = _build_graph(self)
        return self._graph

    @property
    def line_sums(self) -> list[int]:
        """Prefix sums of the squares that block lines (code not `LINE_CLEAR`) over the padded
        code array: entry `y * (width + 3) + x` counts those in rows < y and columns < x, so
        that whether a box holds any is four lookups (`sight`'s fast path). Built on first use."""
        if self._line_sums is None:
            if self.tables.line_sums is not None:
                self._line_sums = self.tables.line_sums
                return self._line_sums
            pad, rows = self.width + 2, self.height + 2
            row = pad + 1
            sums = [0] * (row * (rows + 1))
            code = self._line_code
            for y in range(rows):
                run = 0
                for x in range(pad):
                    run += 1 if code[y * pad + x] else 0
                    sums[(y + 1) * row + x + 1] = sums[y * row + x + 1] + run
            self._line_sums = self.tables.line_sums = sums
        return self._line_sums

    @property
    def nbrs(self) -> dict[Square, tuple[Square, ...]]:
        """The movement graph's adjacency, square -> its neighbours in sorted order, built on
        first use and then kept (read-only for callers; see `_build_adjacency`)."""
        if self._nbrs is None:
            if self.tables.nbrs is None:
                self.tables.nbrs = _build_adjacency(self)
            self._nbrs = self.tables.nbrs
        return self._nbrs

    @property
    def flat(self) -> frozenset[Square]:
        """The squares of the graph whose every neighbour costs 1 to enter: a search steps
        out of them at a cost it need not look up (`movement.reachable`). Built on first use
        from the terrain, which never changes."""
        if self._flat is None:
            if self.tables.flat is None:
                cost = self._entry_cost
                self.tables.flat = frozenset(
                    u for u, vs in self.nbrs.items() if all(cost[v] == 1 for v in vs)
                )
            self._flat = self.tables.flat
        return self._flat


def _build_adjacency(bmap: BattleMap) -> dict[Square, tuple[Square, ...]]:
    """Square -> the squares one step away, sorted: exactly the networkx graph's adjacency
    (`graph`), computed without it. The searches read only this, so a big map never pays
    for the networkx graph (on 200x200 it held about 40 MB). Every neighbour is the very
    tuple that keys `_entry_cost`, so the adjacency adds no square objects of its own."""
    cost = bmap._entry_cost
    w, h = bmap.width, bmap.height
    canon: list[Square | None] = [None] * (w * h)
    for sq in cost:
        canon[sq[1] * w + sq[0]] = sq
    out: dict[Square, tuple[Square, ...]] = {}
    for sq in cost:
        x, y = sq
        i = y * w + x
        west = canon[i - 1] if x > 0 else None
        east = canon[i + 1] if x < w - 1 else None
        north = canon[i - w] if y > 0 else None
        south = canon[i + w] if y < h - 1 else None
        # In sorted order (x first, then y); a diagonal step may not cut the corner of a
        # square that blocks movement, so it needs both squares beside it enterable.
        vs: list[Square] = []
        if west is not None:
            if north is not None and (v := canon[i - w - 1]) is not None:
                vs.append(v)
            vs.append(west)
            if south is not None and (v := canon[i + w - 1]) is not None:
                vs.append(v)
        if north is not None:
            vs.append(north)
        if south is not None:
            vs.append(south)
        if east is not None:
            if north is not None and (v := canon[i - w + 1]) is not None:
                vs.append(v)
            vs.append(east)
            if south is not None and (v := canon[i + w + 1]) is not None:
                vs.append(v)
        out[sq] = tuple(vs)
    return out


def _build_graph(bmap: BattleMap) -> nx.Graph:
    """The networkx movement graph, from the adjacency (for callers that want networkx;
    imported here: no search needs it, so starting the app doesn't pay for it)."""
    import networkx as nx

    g = nx.Graph(name=bmap.name)
    g.add_nodes_from((sq, {"cost": c}) for sq, c in bmap._entry_cost.items())
    g.add_edges_from((u, v) for u, vs in bmap.nbrs.items() for v in vs if u < v)
    return g
