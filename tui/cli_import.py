"""`skirmish import FILE... [-o DIR]`: a GM's characters and monsters as Skirmish content.

The engine's importers do the reading and mapping (`engine.importers`); this module only runs
them and prints their reports: per creature what was imported and every warning, per file
where its library was written, and each problem as one `file:line: field: message` line on
stderr. The exit status is 1 when any creature or file could not be imported.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tui.safetext import clean


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "import",
        help="turn Character Builder saves and monster stat blocks into content files",
        description=(
            "Read Character Builder saves (.dnd4e), Compendium monster pages (.html) and stat "
            "blocks pasted as text, and write one content library per file (see docs/import.md)."
        ),
    )
    p.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="Character Builder saves (.dnd4e), Compendium pages (.html) or stat blocks (.txt)",
    )
    p.add_argument(
        "-o", "--output", type=Path, default=Path("."), metavar="DIR",
        help="folder for the written libraries (default: the current folder)",
    )  # fmt: skip
    p.add_argument("-q", "--quiet", action="store_true", help="print only problems")


def cmd_import(args: argparse.Namespace) -> int:
    from engine.importers import import_all

    results = import_all(list(args.files), args.output)
    failed = 0
    for result in results:
        for _, _, report in result.creatures:
            if not args.quiet:
                print(clean("\n".join(report.lines()), newlines=True))  # names are data
        for problem in result.problems:
            print(clean(f"error: {problem}", newlines=True), file=sys.stderr)
            failed += 1
        if result.output is not None and not args.quiet:
            n = len(result.creatures)
            print(clean(f"wrote {result.output} ({n} creature{'s' if n != 1 else ''})"))
    if not args.quiet:
        imported = sum(len(r.creatures) for r in results)
        warnings = sum(len(rep.warnings) for r in results for _, _, rep in r.creatures)
        print(
            f"{imported} creature(s) imported from {len(results)} file(s), "
            f"{warnings} warning(s), {failed} problem(s)"
        )
    return 1 if failed else 0
