"""Terrain values and the ASCII map format.

A battle map is authored as a drawing, one character per square. This module owns the closed
set of terrain kinds, the per-square `Cell` value, the default legend that turns characters
into cells, and the parser that checks a drawing and reports mistakes with row and column, so
that a typo in a bundled map is caught at load time with a message a map author can act on.

Default legend:

======  ===============================================================================
symbol  meaning
======  ===============================================================================
``.``   floor
``#``   wall: blocks movement, sight and line of effect
``O``   pillar: full-height blocking terrain, like a wall but drawn as a column
``=``   low obstacle (low wall, rubble, table): blocks movement and blocks a line for
        cover, but not sight or line of effect
``~``   difficult terrain: entering costs 2 squares of movement
``,``   lightly obscured (dim light, fog, foliage): concealment
``;``   heavily obscured (heavy fog or smoke): concealment adjacent, total beyond
``%``   totally obscured (darkness): total concealment
``^``   pit, 10 ft deep: may not be entered voluntarily; forced movement can push into it
``&``   undergrowth: difficult terrain that is also lightly obscured
======  ===============================================================================
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from enum import StrEnum

Square = tuple[int, int]
"""A grid square as (x, y): x grows to the right, y grows down, (0, 0) is the top-left."""


class Terrain(StrEnum):
    """What occupies a square physically (closed set)."""

    FLOOR = "floor"
    WALL = "wall"
    PILLAR = "pillar"
    OBSTACLE = "obstacle"
    PIT = "pit"


class Obscured(StrEnum):
    """How much a square hides what is in it (F-MOD-10)."""

    NONE = "none"
    LIGHT = "lightly_obscured"
    HEAVY = "heavily_obscured"
    TOTAL = "totally_obscured"


@dataclass(frozen=True, slots=True)
class Cell:
    """The terrain of one square. `depth` is a pit's depth in feet (a fall deals 1d10 per 10 ft)."""

    terrain: Terrain = Terrain.FLOOR
    difficult: bool = False
    obscured: Obscured = Obscured.NONE
    depth: int = 0


# Terrain kinds grouped by what they stop; kept here so every module agrees on them.
SIGHT_BLOCKING: frozenset[Terrain] = frozenset({Terrain.WALL, Terrain.PILLAR})
COVER_BLOCKING: frozenset[Terrain] = frozenset({Terrain.WALL, Terrain.PILLAR, Terrain.OBSTACLE})
MOVE_BLOCKING: frozenset[Terrain] = frozenset(
    {Terrain.WALL, Terrain.PILLAR, Terrain.OBSTACLE, Terrain.PIT}
)

DEFAULT_LEGEND: dict[str, Cell] = {
    ".": Cell(),
    "#": Cell(Terrain.WALL),
    "O": Cell(Terrain.PILLAR),
    "=": Cell(Terrain.OBSTACLE),
    "~": Cell(difficult=True),
    ",": Cell(obscured=Obscured.LIGHT),
    ";": Cell(obscured=Obscured.HEAVY),
    "%": Cell(obscured=Obscured.TOTAL),
    "^": Cell(Terrain.PIT, depth=10),
    "&": Cell(difficult=True, obscured=Obscured.LIGHT),
}


class MapError(ValueError):
    """A map drawing that cannot be parsed; `line` and `column` are 1-based within the grid."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


def _grid_lines(rows: str | list[str]) -> list[str]:
    # A triple-quoted string in code or YAML carries indentation and blank edge lines that are
    # not part of the drawing; a list is taken as given (only line ends are dropped).
    if isinstance(rows, str):
        lines = [line.rstrip() for line in textwrap.dedent(rows).splitlines()]
        while lines and not lines[0]:
            lines.pop(0)
        while lines and not lines[-1]:
            lines.pop()
        return lines
    return [row.rstrip("\r\n") for row in rows]


def parse_grid(
    rows: str | list[str], legend: dict[str, Cell] | None = None
) -> tuple[int, int, tuple[Cell, ...]]:
    """Parse a drawing into (width, height, cells in row-major order), or raise `MapError`."""
    table = dict(DEFAULT_LEGEND)
    if legend:
        for key in legend:
            if len(key) != 1:
                raise MapError(f"legend key {key!r} must be a single character")
        table.update(legend)
    lines = _grid_lines(rows)
    if not lines:
        raise MapError("the map has no rows")
    width = len(lines[0])
    if width == 0:
        raise MapError("row 1 is empty", line=1)
    cells: list[Cell] = []
    for y, line in enumerate(lines, start=1):
        if len(line) != width:
            raise MapError(
                f"row {y} has {len(line)} columns, expected {width} (the width of row 1)",
                line=y,
            )
        for x, ch in enumerate(line, start=1):
            cell = table.get(ch)
            if cell is None:
                symbols = " ".join(table)
                raise MapError(
                    f"row {y}, column {x}: unknown map symbol {ch!r} (legend has: {symbols})",
                    line=y,
                    column=x,
                )
            cells.append(cell)
    return width, len(lines), tuple(cells)
