"""The encounter's map and who stands where: checks that need the built battle map.

A combatant placed in a wall or on top of another only shows up once the map is parsed and
creature sizes are known, and a bad map symbol is only found by the grid parser. These checks
run at load time so that the engine can assume every placement is legal, and they report the
line of the offending grid row or `pos`, not just the encounter file.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass
from functools import partial

from engine.content.checks import Origin
from engine.content.errors import ContentError, did_you_mean
from engine.content.limits import MAX_MAP_SIDE
from engine.content.schema import Combatant, Creature, MapSpec, Side, Surprise
from engine.grid import BattleMap, Cell, MapError, Obscured, Terrain, footprint

SIZE_SQUARES: dict[str, int] = {"small": 1, "medium": 1, "large": 2}
"""Squares per side of a creature's footprint, by size name."""


def grid_rows(grid: str) -> tuple[int, list[str]]:
    """(blank rows skipped at the top, the drawing's rows): row i is text row offset+i+1."""
    # Dedent like the grid parser would (an indented drawing in Python-written YAML); line
    # count is unchanged, so row i still maps to the same file line.
    lines = [line.rstrip() for line in textwrap.dedent(grid).split("\n")]
    offset = 0
    while offset < len(lines) and not lines[offset].strip():
        offset += 1
    end = len(lines)
    while end > offset and not lines[end - 1].strip():
        end -= 1
    return offset, lines[offset:end]


def build_map(spec: MapSpec, origin: Origin) -> tuple[BattleMap | None, list[ContentError]]:
    """The battle map of `spec` (legend entries extend the default legend), or its error."""
    legend = {
        symbol: Cell(Terrain(e.terrain), e.difficult, Obscured(e.obscured), e.depth)
        for symbol, e in spec.legend.items()
    }
    offset, rows = grid_rows(spec.grid)
    try:
        _check_size(rows)
        return BattleMap.from_ascii(rows, legend, spec.name), []
    except MapError as exc:
        grid_path = (*origin.path, "grid")
        if exc.line is None:
            line = origin.doc.line(grid_path)
        else:
            line = origin.doc.text_line(grid_path, offset + exc.line)
        field = ".".join(str(p) for p in grid_path)
        return None, [ContentError(origin.file, line, field, str(exc))]


def _check_size(rows: list[str]) -> None:
    """Refuse a map larger than MAX_MAP_SIDE squares a side before building it: its movement
    graph and line tables grow with the square of its side (3000x3000 needs gigabytes)."""
    if len(rows) > MAX_MAP_SIDE:
        raise MapError(
            f"the map has {len(rows)} rows; a map may have at most {MAX_MAP_SIDE}",
            line=MAX_MAP_SIDE + 1,
        )
    for i, row in enumerate(rows, start=1):
        if len(row) > MAX_MAP_SIDE:
            raise MapError(
                f"row {i} is {len(row)} squares wide; a map may be at most {MAX_MAP_SIDE}", line=i
            )


@dataclass(frozen=True)
class Placement:
    """What the combatant checks need from the encounter file."""

    origin: Origin
    """The encounter file (path () = its top level)."""
    combatants: list[tuple[int, Combatant]]
    complete: bool
    """False when some combatants failed validation (skip whole-list checks)."""
    sides: Mapping[str, Side]
    surprise: Surprise | None


def check_placement(
    place: Placement,
    creatures: Mapping[str, Creature],
    broken_creatures: Container[str],
    bmap: BattleMap | None,
) -> list[ContentError]:
    """Ids unique, creatures and sides known, positions legal, two sides, surprise names."""
    errors: list[ContentError] = []
    origin = place.origin
    first_line: dict[str, int | None] = {}
    occupied: dict[tuple[int, int], str] = {}
    for i, c in place.combatants:
        at = ("combatants", i)
        if c.id in first_line:
            errors.append(
                origin.error(
                    (*at, "id"),
                    f"duplicate combatant id {c.id!r} (first at line {first_line[c.id]})",
                )
            )
        else:
            first_line[c.id] = origin.line(at)
        if place.sides and c.side not in place.sides:
            hint = did_you_mean(c.side, place.sides)
            errors.append(origin.error((*at, "side"), f"side {c.side!r} is not in `sides`{hint}"))
        creature = creatures.get(c.creature)
        if creature is None:
            if c.creature not in broken_creatures:
                hint = did_you_mean(c.creature, creatures)
                errors.append(
                    origin.error((*at, "creature"), f"unknown creature {c.creature!r}{hint}")
                )
            continue
        if bmap is not None:
            at_pos = partial(origin.error, (*at, "pos"))
            errors.extend(_check_pos(c, creature, bmap, occupied, at_pos))
        errors.extend(_check_start_state(c, creature, origin, at))
    errors.extend(_check_effect_sources(place, first_line))
    if place.complete:
        used = sorted({c.side for _, c in place.combatants})
        if len(used) < 2:
            only = f"all are on {used[0]!r}" if used else "there are none"
            errors.append(
                origin.error(("combatants",), f"needs combatants on at least two sides ({only})")
            )
    if place.surprise is not None:
        names = set(first_line) | {c.side for _, c in place.combatants} | set(place.sides)
        for key in ("surprised", "hidden"):
            for j, name in enumerate(getattr(place.surprise, key)):
                if name not in names:
                    hint = did_you_mean(name, names)
                    errors.append(
                        origin.error(
                            ("surprise", key, j),
                            f"{name!r} is neither a combatant nor a side{hint}",
                        )
                    )
    return errors


def _check_effect_sources(place: Placement, ids: Container[str]) -> list[ContentError]:
    """Each starting effect's `source` is a combatant of the encounter (issue 16 item 7)."""
    out: list[ContentError] = []
    for i, c in place.combatants:
        for j, eff in enumerate(c.effects):
            if eff.source is not None and eff.source not in ids:
                where = ("combatants", i, "effects", j, "source")
                hint = did_you_mean(eff.source, [x.id for _, x in place.combatants])
                out.append(place.origin.error(where, f"unknown combatant {eff.source!r}{hint}"))
    return out


def _check_start_state(
    c: Combatant, creature: Creature, origin: Origin, i: tuple[str | int, ...]
) -> list[ContentError]:
    """A starting state the creature can be in (issue 16 item 7)."""
    out: list[ContentError] = []
    error = origin.error
    if c.hp is not None and c.hp > creature.hp:
        out.append(error((*i, "hp"), f"{c.hp} is above {creature.id}'s maximum ({creature.hp})"))
    if c.hp is not None and c.hp <= 0 and creature.kind != "pc":
        out.append(error((*i, "hp"), "a monster at 0 hit points or fewer is dead (X-HP-1)"))
    if c.arrives_round is not None and c.effects:
        out.append(error((*i, "effects"), "a creature that arrives later starts with no effects"))
    if c.surges_spent > creature.healing_surges:
        out.append(
            error(
                (*i, "surges_spent"),
                f"{creature.id} has only {creature.healing_surges} healing surges",
            )
        )
    for pid in c.powers_spent:
        if pid not in creature.powers:
            hint = did_you_mean(pid, creature.powers)
            out.append(error((*i, "powers_spent"), f"{creature.id} has no power {pid!r}{hint}"))
    return out


def _check_pos(
    c: Combatant,
    creature: Creature,
    bmap: BattleMap,
    occupied: dict[tuple[int, int], str],
    error: Callable[[str], ContentError],
) -> list[ContentError]:
    size = SIZE_SQUARES[creature.size]
    pos = (c.pos[0], c.pos[1])
    squares = footprint(pos, size)
    where = f"position {list(pos)}" if size == 1 else f"the {size}x{size} footprint at {list(pos)}"
    for sq in squares:
        if not bmap.in_bounds(sq):
            message = (
                f"{where} is off the {bmap.width}x{bmap.height} map "
                f"(x 0..{bmap.width - 1}, y 0..{bmap.height - 1})"
            )
            return [error(message)]
    for sq in squares:
        if bmap.blocks_movement(sq):
            terrain = bmap.cell(sq).terrain.value
            article = "an" if str(terrain)[:1] in "aeiou" else "a"
            return [error(f"{where} is on {article} {terrain} square {list(sq)}")]
    for sq in squares:
        other = occupied.get(sq)
        if other is not None:
            return [error(f"{where} overlaps combatant {other!r} at {list(sq)}")]
    for sq in squares:
        occupied[sq] = c.id
    return []
