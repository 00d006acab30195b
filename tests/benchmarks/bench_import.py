"""Timing of `skirmish import` (issue 18): a GM's whole table in one command.

The case the issue names: five heroes from Character Builder saves (each padded to the size
of a real save, about 400 KB, with the hundreds of `<Stat>` and `<RulesElement>` entries a real
file carries) and eight monsters from Compendium pages and pasted stat blocks. Prints the time
of the whole import (median of the repetitions), the time per file of each kind, and the
largest file read. No target is asserted: the number is for people (the issue's "minutes"
is the GM's time, and the machine's share of it should stay well under a second).

Run from the repository root: `.venv/bin/python -m tests.benchmarks.bench_import [--quick]`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.importers import import_all  # noqa: E402

SAMPLES = ROOT / "tests" / "importers" / "samples"
PAD_STAT = '         <Stat value="{v}" >\n            <alias name="Padding stat {i}" />\n' + (
    '            <statadd Level="1" value="1" charelem="8" />\n' * 6
) + "         </Stat>\n"  # fmt: skip


def build(folder: Path) -> list[str]:
    """Five padded saves and eight monster files in `folder`."""
    files = []
    save = (SAMPLES / "ilvaris-wizard.dnd4e").read_text(encoding="utf-8")
    pad = "".join(PAD_STAT.format(v=i % 30, i=i) for i in range(900))
    for k in range(5):
        text = save.replace("Ilvaris of the Silver Tower", f"Hero Number {k}")
        text = text.replace("      </StatBlock>", pad + "      </StatBlock>")
        path = folder / f"hero-{k}.dnd4e"
        path.write_text(text, encoding="utf-8")
        files.append(str(path))
    monsters = ["ogre-warhulk.html", "marsh-wyrm.txt", "fen-raiders.txt"]
    for k in range(8):
        src = SAMPLES / monsters[k % len(monsters)]
        path = folder / f"monster-{k}{src.suffix}"
        path.write_bytes(src.read_bytes())
        files.append(str(path))
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (CI)")
    args = parser.parse_args(argv)
    reps = 3 if args.quick else 15
    with tempfile.TemporaryDirectory(prefix="skirmish-bench-import-") as tmp:
        folder = Path(tmp)
        files = build(folder)
        out = folder / "out"
        biggest = max(Path(f).stat().st_size for f in files)
        times: list[float] = []
        per_kind: dict[str, list[float]] = {}
        for _ in range(reps):
            t0 = time.perf_counter()
            results = import_all(files, out)
            times.append(time.perf_counter() - t0)
            assert all(not r.problems for r in results)
        for f in files:
            t0 = time.perf_counter()
            import_all([f], out / "single")
            per_kind.setdefault(Path(f).suffix, []).append(time.perf_counter() - t0)
        creatures = sum(len(r.creatures) for r in results)
    print(f"import of {len(files)} files ({creatures} creatures, largest {biggest // 1024} KB)")
    print(f"  whole import: median {1000 * statistics.median(times):.1f} ms over {reps} runs")
    for kind, values in sorted(per_kind.items()):
        print(f"  per {kind} file: median {1000 * statistics.median(values):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
