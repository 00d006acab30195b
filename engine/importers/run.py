"""One import: read each source file, map its creatures, write one content file per source.

This is what `skirmish import` runs. A source is recognised by its first bytes (a Character
Builder save is XML with `<D20Character>`, a Compendium page is HTML, anything else is read as
a pasted stat block). Per file the result is a `FileImport`: the creatures that were imported
(with their reports) and the problems of those that could not be; a file is written only when
at least one creature was imported, and it holds only those creatures.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.importers.cb4e import read_character
from engine.importers.htmltext import html_pieces, looks_like_html
from engine.importers.mapping import map_creature
from engine.importers.model import SrcCreature
from engine.importers.report import CreatureReport, ImportFailed, Problem
from engine.importers.source import decode, read_source
from engine.importers.statblock import read_statblocks, text_pieces

Mapped = tuple[dict[str, Any], list[dict[str, Any]], CreatureReport]


@dataclass
class FileImport:
    """The outcome for one source file."""

    file: str
    source: str = ""
    """cb4e, html or text."""
    creatures: list[Mapped] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    output: Path | None = None

    def library(self) -> dict[str, Any]:
        return {
            "creatures": [c for c, _, _ in self.creatures],
            "powers": [p for _, ps, _ in self.creatures for p in ps],
        }


def detect(data: bytes, file: str) -> str:
    head = data[:2000].lstrip(b"\xef\xbb\xbf\xff\xfe \t\r\n").lower()
    if file.lower().endswith(".library"):
        return "masterplan"
    if file.lower().endswith(".dnd4e") or b"<d20character" in head:
        return "cb4e"
    if head.startswith(b"<?xml") and b"<html" not in head:  # XHTML is read as a page
        return "cb4e"
    return "text"


def read_creatures(data: bytes, file: str) -> tuple[str, list[SrcCreature]]:
    """The creatures a source holds, in the middle form; ImportFailed if none can be read."""
    kind = detect(data, file)
    if kind == "masterplan":
        raise ImportFailed(
            [
                Problem(
                    file,
                    None,
                    "file",
                    "Masterplan libraries (.NET binary serialization) "
                    "can't be read: copy the creature's stat block as text instead",
                )
            ]
        )
    if kind == "cb4e":
        return kind, [read_character(data, file)]
    text = decode(data, file)
    if looks_like_html(text):
        kind, pieces = "html", html_pieces(text)
    else:
        pieces = text_pieces(text)
    found = read_statblocks(pieces, file)
    if not found:
        raise ImportFailed(
            [
                Problem(
                    file,
                    1,
                    "file",
                    "no stat block found (expected a line like "
                    "'Level 3 Brute' after the creature's name)",
                )
            ]
        )
    return kind, found


def import_bytes(data: bytes, file: str, taken: set[str] | None = None) -> FileImport:
    """Import one source; raises only ImportFailed (when nothing in it can be read)."""
    taken = set() if taken is None else taken
    try:
        kind, found = read_creatures(data, file)
    except RecursionError:
        raise ImportFailed([Problem(file, None, "file", "nested too deeply")]) from None
    result = FileImport(file, kind)
    for src in found:
        try:
            result.creatures.append(map_creature(src, taken))
        except ImportFailed as exc:
            result.problems.extend(exc.problems)
    return result


def import_file(path: str | Path, taken: set[str] | None = None) -> FileImport:
    return import_bytes(read_source(path), str(path), taken)


def to_yaml(result: FileImport) -> str:
    head = (
        f"# Imported by `skirmish import` from {Path(result.file).name}.\n"
        "# Numbers are the source's; a power's description keeps the source text Skirmish\n"
        "# does not play (see docs/import.md).\n"
    )
    body = yaml.safe_dump(result.library(), sort_keys=False, allow_unicode=True, width=96)
    return head + body


def write(result: FileImport, outdir: Path, used: set[str]) -> Path | None:
    """Write the library next to the others (atomically); None if nothing was imported."""
    if not result.creatures:
        return None
    stem = Path(result.file).stem or "imported"
    name, n = f"{stem}.yaml", 2
    while name in used:
        name, n = f"{stem}-{n}.yaml", n + 1
    used.add(name)
    outdir.mkdir(parents=True, exist_ok=True)
    target = outdir / name
    fd, tmp = tempfile.mkstemp(dir=outdir, prefix=".import-", suffix=".yaml")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(to_yaml(result))
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    result.output = target
    return target


def import_all(paths: list[str], outdir: Path) -> list[FileImport]:
    """Import every file (ids unique across all of them) and write the libraries."""
    taken: set[str] = set()
    used: set[str] = set()
    results = []
    for path in paths:
        try:
            result = import_file(path, taken)
        except ImportFailed as exc:
            result = FileImport(str(path), problems=exc.problems)
        write(result, outdir, used)
        results.append(result)
    return results
