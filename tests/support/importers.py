"""Shared helpers for the importer tests (tests/importers): the samples and one import of each."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from engine.importers import FileImport, import_file

SAMPLES = Path(__file__).parents[1] / "importers" / "samples"
GOOD = [
    "brunhilde-fighter.dnd4e",
    "ilvaris-wizard.dnd4e",
    "ogre-warhulk.html",
    "fen-raiders.txt",
    "marsh-wyrm.txt",
    "cinder-ogre-mm3.txt",
]


@cache
def imported(name: str) -> FileImport:
    return import_file(SAMPLES / name)


def creature(name: str, cid: str) -> dict[str, Any]:
    return next(c for c, _, _ in imported(name).creatures if c["id"] == cid)


def powers(name: str, cid: str) -> dict[str, dict[str, Any]]:
    """The creature's powers by name."""
    for c, ps, _ in imported(name).creatures:
        if c["id"] == cid:
            return {p["name"]: p for p in ps}
    raise KeyError(cid)


def report(name: str, cid: str) -> list[str]:
    """The report's warnings as text."""
    for c, _, rep in imported(name).creatures:
        if c["id"] == cid:
            return [str(w) for w in rep.warnings]
    raise KeyError(cid)
