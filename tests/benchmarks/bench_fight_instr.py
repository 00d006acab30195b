"""Instructions (or CPU) per `default` fight, both sides tactical, as `skirmish sim` plays it
(issue 14, target 5): a warm fight first, then the given seeds, with no decision texts.

Timings on a shared machine are noisy; instruction counts are not. `--valgrind` runs this
script twice under callgrind (the warm fight alone, then the warm fight and the seeds) and
prints the difference per fight; without it the script prints each fight's CPU ms.

Run from the root of the tree to measure (its own `.venv`): `.venv/bin/python
tests/benchmarks/bench_fight_instr.py [--seeds 2 3 4] [--encounter default] [--valgrind]`.
Another tree (say /work/main) is measured by running this same file with that tree's Python
from that tree's root (`--root` puts it first on `sys.path`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout: tests.support
from tests.support.callgrind import count


def _play(encounter: str, seeds: list[int]) -> list[float]:
    from ai.sim import play, prewarm
    from engine.content.loader import load_encounter

    loaded = load_encounter(encounter)
    prewarm(loaded)
    play(loaded, 1, {}, explain=False)  # warm: the per-map memos, as a long `sim` has them
    out = []
    for seed in seeds:
        t0 = time.process_time()
        play(loaded, seed, {}, explain=False)
        out.append((time.process_time() - t0) * 1000)
    return out


def _instructions(args: argparse.Namespace, seeds: list[int]) -> int:
    """Instructions of a whole run of this script (callgrind's total)."""
    cmd = [sys.executable, __file__, "--root", args.root, "--encounter", args.encounter]
    total, _ = count([*cmd, "--seeds", *map(str, seeds)])
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="*", default=[2, 3, 4])
    ap.add_argument("--encounter", default="default")
    ap.add_argument("--valgrind", action="store_true", help="instructions per fight")
    ap.add_argument("--root", default=os.getcwd(), help="the tree whose code to run")
    ap.add_argument("--quick", action="store_true", help="one seed, CPU only (for CI)")
    args = ap.parse_args()
    if args.quick:
        args.seeds, args.valgrind = args.seeds[:1], False
    sys.path.insert(0, args.root)
    if not args.valgrind:
        ms = _play(args.encounter, args.seeds)
        print(" ".join(f"{m:.0f}" for m in ms), f"ms CPU; mean {sum(ms) / max(1, len(ms)):.1f}")
        return
    base = _instructions(args, [])
    full = _instructions(args, args.seeds)
    per = (full - base) / max(1, len(args.seeds))
    print(f"{per / 1e6:.1f}M instructions a fight (seeds {args.seeds}, after a warm one)")


if __name__ == "__main__":
    main()
