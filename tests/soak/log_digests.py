#!/usr/bin/env python3
"""Same seeds, same logs: the digest of each fight's JSONL combat log, to compare a tree with
the commit its speed work started from (issue 14: the engine must stay deterministic).

Each case is (encounter, ruleset, policies, seed); its digest is the sha256 of the log's lines
as `skirmish sim --log-dir` writes them, with the one field that is a clock reading (a
decision's `ms`) left out. `tests/engine/fixtures/log_digests.json` holds the digests recorded
on the base commit (7940f6d, before this work); `tests/engine/test_log_digests.py` replays a few of
them, and this script all of them:

    .venv/bin/python tests/soak/log_digests.py            # compare with the fixture
    .venv/bin/python tests/soak/log_digests.py --record   # rewrite it (on the base commit only)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "engine" / "fixtures" / "log_digests.json"
NAIVE = {"party": "naive", "monsters": "naive"}
OTHERS = (
    "ambush",
    "battle",
    "chasm",
    "crossroads-4srd",
    "fog",
    "goblin-hall",
    "keep-d20",
    "mirror",
)


def cases() -> list[tuple[str, str | None, dict[str, str], int]]:
    """The brawl (naive, every ruleset), the default fight (tactical, and naive), and every
    other bundled fight (both)."""
    out: list[tuple[str, str | None, dict[str, str], int]] = []
    for seed in range(60):
        out.append(("brawl", None, NAIVE, 1000 + seed))
    for rs in ("4srd", "d20srd"):
        for seed in range(15):
            out.append(("brawl", rs, NAIVE, 2000 + seed))
    for seed in range(15):
        out.append(("default", None, NAIVE, 3000 + seed))
    for seed in range(8):
        out.append(("default", None, {}, 4000 + seed))
    for name in OTHERS:  # every bundled fight: large creatures, terrain, triggers, rulesets
        for seed in range(4):
            out.append((name, None, NAIVE, 5000 + seed))
        for seed in range(2):
            out.append((name, None, {}, 6000 + seed))
    return out


def digest(source: str, ruleset: str | None, policies: dict[str, str], seed: int) -> str:
    from ai.sim import _loaded, play
    from tests.support.helpers import untimed

    lines: list[str] = []
    play(
        _loaded(source, ruleset),
        seed,
        policies,
        ruleset=ruleset,
        on_event=lambda ev: lines.append(json.dumps(untimed(ev))),
    )
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def key(source: str, ruleset: str | None, policies: dict[str, str], seed: int) -> str:
    pol = ",".join(f"{s}={p}" for s, p in sorted(policies.items())) or "tactical"
    return f"{source}/{ruleset or 'own'}/{pol}/{seed}"


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--record", action="store_true", help="write the fixture from this tree")
    ap.add_argument("--limit", type=int, default=None, help="only the first N cases")
    args = ap.parse_args()
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    todo = cases()[: args.limit]
    got = {key(*case): digest(*case) for case in todo}
    if args.record:
        FIXTURE.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(got)} digests in {FIXTURE}")
        return 0
    want = json.loads(FIXTURE.read_text())
    bad = [k for k, v in got.items() if want.get(k) != v]
    for k in bad:
        print(f"DIFFERENT: {k}")
    print(f"{len(got) - len(bad)} of {len(got)} logs identical to the base commit's")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
