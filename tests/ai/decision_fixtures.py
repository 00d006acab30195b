"""Recorded fights that pin what the tactical AI decides (issue 14: speed without new choices).

`record()` plays a fixed set of fights (bundled encounters `default`, `mirror`, `chasm`, `fog`,
`battle` and `keep-d20` with a few seeds, plus generated 40x40 and 100x100 maps with walls,
pillars and difficult terrain) with the tactical policy on every side, and digests each fight's
whole combat log (every action, move path, attack, decision text and candidate list with its
scores; only the timing field `ms` and the generated maps' file paths are left out) in chunks
of 64 events, so that a change shows where it starts. `tests/ai/test_decisions_unchanged.py`
compares a fresh recording with the one stored in `tests/ai/data/decision_fixtures.json`,
written from the commit the speed work on the AI's movement search began at
(`python tests/ai/decision_fixtures.py --write`).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
STORE = Path(__file__).resolve().parent / "data" / "decision_fixtures.json"
CHUNK = 64
BUNDLED = ("default", "mirror", "chasm", "fog", "battle", "keep-d20")
SEEDS = (1, 2, 3)
GENERATED = (("40x40x8", 40, 8, 12, 8), ("100x100x10", 100, 10, 24, 4))
"""(name, side, monsters, gap, round limit) of the generated maps (`bench_ai.encounter`)."""


def _generated(tmp: Path) -> dict[str, str]:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.benchmarks.bench_ai import encounter

    out = {}
    for name, size, monsters, gap, rounds in GENERATED:
        path = encounter(tmp, size, monsters, random.Random(size * 1000 + monsters), gap)
        doc = yaml.safe_load(path.read_text())
        doc["round_limit"] = rounds
        path.write_text(yaml.safe_dump(doc, sort_keys=False))
        out[name] = str(path)
    return out


def digest(events: list[dict[str, Any]]) -> list[str]:
    """Chunk digests of a fight's events (timings left out)."""
    from tests.support.helpers import untimed

    out = []
    for i in range(0, len(events), CHUNK):
        h = hashlib.sha256()
        for ev in events[i : i + CHUNK]:
            text = json.dumps(untimed(ev), sort_keys=True)
            h.update(re.sub(r'"[^"]*[/\\][^"]*\.yaml"', '"MAP"', text).encode())
        out.append(h.hexdigest()[:16])
    return out


def fights() -> list[tuple[str, str, int]]:
    """(label, source, seed) of every recorded fight; source is a bundled name or a
    generated map's name."""
    out = [(f"{name}-{seed}", name, seed) for name in BUNDLED for seed in SEEDS]
    out += [(f"{name}-{seed}", name, seed) for name, *_ in GENERATED for seed in SEEDS[:2]]
    return out


def record(only: list[str] | None = None) -> dict[str, list[str]]:
    """Label -> chunk digests of each recorded fight (all, or the labels in `only`)."""
    from ai.sim import _loaded, play
    from engine.content.loader import load_encounter

    out: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        generated = _generated(Path(tmp))
        for label, source, seed in fights():
            if only is not None and label not in only:
                continue
            if source in generated:
                loaded = load_encounter(generated[source])
            else:
                loaded = _loaded(source, None)
            events: list[dict[str, Any]] = []
            play(loaded, seed, {}, on_event=events.append)
            out[label] = digest(events)
    return out


def main() -> None:
    if "--write" not in sys.argv:
        sys.exit("usage: python tests/ai/decision_fixtures.py --write")
    STORE.write_text(json.dumps(record(), indent=1) + "\n")
    print(f"wrote {STORE}")


if __name__ == "__main__":
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    main()
