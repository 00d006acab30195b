"""The content shipped inside the `maps` package: listing it and checking content files.

The title screen lists bundled encounters without running them, and `skirmish check` checks
every bundled file (or the user's own). Bundled files are read through importlib.resources,
so this works the same from a source checkout, an installed wheel or a zip.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from engine.content.errors import ContentError, ContentErrors, ErrorSink
from engine.content.library import read_doc
from engine.content.loader import check_source, source_notes
from engine.content.placement import grid_rows
from engine.content.resources import Reader, SourceKey, bundled_key, bundled_walk
from engine.content.schema import Encounter
from engine.content.validation import validate


@dataclass(frozen=True, slots=True)
class EncounterInfo:
    """What the encounter picker shows about one bundled encounter."""

    name: str
    """The bundled name to pass to `load_encounter` ("default")."""
    title: str
    """The encounter's own `name` field."""
    description: str
    width: int
    height: int
    ruleset: str
    creatures: int
    """How many combatants it places."""


def bundled_files() -> list[str]:
    """Every bundled content file, relative to the `maps` package ("bestiary/goblins.yaml")."""
    return bundled_walk()


def bundled_encounters() -> list[EncounterInfo]:
    """The bundled encounters, sorted by name; raise `ContentErrors` if one is unreadable.

    Only the encounter file itself is validated (fast enough for a title screen); its
    includes and placements are checked by `load_encounter` and by the bundled-content test.
    """
    out: list[EncounterInfo] = []
    for rel in bundled_walk():
        if not rel.startswith("encounters/"):
            continue
        sink = ErrorSink()
        doc = read_doc(Reader(), SourceKey(bundled_key(rel), True), sink, {})
        spec = None
        if doc is not None:
            spec, errors = validate(Encounter, doc.data, doc)
            sink.extend(errors)
        sink.raise_if_any()
        assert spec is not None
        _, rows = grid_rows(spec.map.grid)
        out.append(
            EncounterInfo(
                name=rel.removeprefix("encounters/").rsplit(".", 1)[0],
                title=spec.name,
                description=spec.description,
                width=max((len(r.rstrip()) for r in rows), default=0),
                height=len(rows),
                ruleset=spec.ruleset,
                creatures=len(spec.combatants),
            )
        )
    return out


def check_files(paths: Iterable[str | Path]) -> list[ContentError]:
    """Every error in the given files (encounters and libraries), sorted by file and line.

    Each entry is a file path, reported as the user wrote it; an entry that is not an
    existing file but names a bundled file as `bundled_files()` does
    ("encounters/default.yaml"), or a bundled encounter ("default"), is that bundled file.
    """
    errors: list[ContentError] = []
    bundled = set(bundled_walk())
    for entry in paths:
        text = str(entry)
        # Anything on disk is that file (a FIFO or a device is then refused with a reason).
        if isinstance(entry, Path) or (os.path.exists(text) and not os.path.isdir(text)):
            src = SourceKey(os.path.normpath(text), bundled=False)
        elif text in bundled:
            src = SourceKey(bundled_key(text), bundled=True)
        elif f"encounters/{text}.yaml" in bundled:
            src = SourceKey(bundled_key(f"encounters/{text}.yaml"), bundled=True)
        else:  # the user's path, missing: say so under the name they gave
            src = SourceKey(text, bundled=False)
        errors.extend(check_source(src))
    return ContentErrors(errors).errors


def notes_for(paths: Iterable[str | Path]) -> list[str]:
    """Notes on the given files (as `check_files` reads them): what the engine adds that the
    content did not ask for (a derived basic melee attack)."""

    out: list[str] = []
    for entry in paths:
        text = str(entry)
        if isinstance(entry, Path) or (os.path.exists(text) and not os.path.isdir(text)):
            src = SourceKey(os.path.normpath(text), bundled=False)
        else:
            src = SourceKey(bundled_key(text), bundled=True)
        out.extend(source_notes(src))
    return out
