"""Reading a JSON Lines combat log defensively: bounded, regular files only, checked fields.

A combat log (`skirmish sim --log-dir`, `skirmish export`) is opened by `skirmish replay`, and
a log is as user-supplied as a save: a FIFO given as a log would block forever, /dev/zero
would fill memory, and an `encounter_start` claiming a 60000x60000 map would make the viewer
build 3.6 billion cells. Here the bytes are read up to a bound, from a regular file only, and
the parts the viewer builds from (the map, the combatants) are checked against the same
limits content has (`engine.content.limits`) before anything is built.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from engine.content.limits import MAX_COMBATANTS, MAX_MAP_SIDE
from engine.save import SaveError
from engine.savecheck import is_id, is_int, loads

MAX_LOG_BYTES = 64 * 1024 * 1024
"""A log this large is not one Skirmish wrote (a 500-round fight's log is a few MB)."""
MAX_LOG_LINES = 1_000_000


def read_log_lines(path: Path) -> list[bytes]:
    """The non-blank lines of a log file; SaveError (one line) if it isn't a readable,
    regular file of reasonable size."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise SaveError(path, f"can't read it: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise SaveError(path, "is not a regular file (a pipe, a device or a folder)")
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise SaveError(path, f"can't read it: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_LOG_BYTES:
        raise SaveError(path, f"is more than {MAX_LOG_BYTES // 2**20} MB: not a combat log")
    lines = [line for line in data.split(b"\n") if line.strip()]
    if len(lines) > MAX_LOG_LINES:
        raise SaveError(path, f"has more than {MAX_LOG_LINES} lines: not a combat log")
    return lines


def first_event(path: Path, lines: list[bytes]) -> dict[str, Any]:
    """The first line as an `encounter_start` object, or SaveError saying it isn't a log."""
    try:
        obj = loads(lines[0]) if lines else None
    except ValueError:
        obj = None
    if not isinstance(obj, dict) or obj.get("type") != "encounter_start":
        raise SaveError(
            path,
            "not a Skirmish save nor a combat log (a log's first line is an encounter_start event)",
        )
    return obj


def check_start(d: dict[str, Any]) -> None:
    """The map and combatants of an `encounter_start`, within content limits; ValueError
    naming the field otherwise."""
    m = d.get("map")
    if not isinstance(m, dict):
        raise ValueError("'map' is missing")
    width, height = m.get("width"), m.get("height")
    if not (is_int(width, 1, MAX_MAP_SIDE) and is_int(height, 1, MAX_MAP_SIDE)):
        raise ValueError(
            f"the map is {str(width)[:12]}x{str(height)[:12]}; "
            f"a map is 1..{MAX_MAP_SIDE} squares a side"
        )
    assert isinstance(width, int) and isinstance(height, int)
    terrain = m.get("terrain") or {}
    if not isinstance(terrain, dict) or len(terrain) > 32:
        raise ValueError("the map's 'terrain' is not a mapping of kinds to squares")
    for kind, squares in terrain.items():
        if not isinstance(squares, list) or len(squares) > width * height:
            raise ValueError(f"the map's terrain {str(kind)[:20]!r} is not a list of squares")
        for sq in squares:
            if not _square_in(sq, width, height):
                raise ValueError(f"the map's terrain {str(kind)[:20]!r} has a square off the map")
    combatants = d.get("combatants")
    if not isinstance(combatants, list) or not 1 <= len(combatants) <= MAX_COMBATANTS:
        raise ValueError(f"'combatants' is not a list of 1..{MAX_COMBATANTS} creatures")
    for c in combatants:
        if not isinstance(c, dict) or not is_id(c.get("id")):
            raise ValueError("a combatant has no id")
        if not _square_in(c.get("pos"), width, height):
            raise ValueError(f"combatant {c['id']!r} stands off the map")
        if not is_int(c.get("hp"), -10_000, 10_000):
            raise ValueError(f"combatant {c['id']!r} has no hit points")


def _square_in(sq: Any, width: int, height: int) -> bool:
    return (
        isinstance(sq, list)
        and len(sq) == 2
        and is_int(sq[0], 0, width - 1)
        and is_int(sq[1], 0, height - 1)
    )
