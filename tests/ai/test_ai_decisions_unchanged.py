"""Speed work must not change what the AI decides (issue 14): a differential check.

Fights of the bundled encounters (both sides tactical, a few seeds) are played and compared
with fixtures recorded on the commit the attack-scoring speed work started from: every action
and every decision's text (summary and candidates with their scores as logged) must be the
same, and a digest of the whole log (every event but the decisions' timings) too.

The fights are played by `classic` on every side (issue 15): the tactical policy's weights as
they were when the fixtures were recorded, kept fixed while the default `tactical` changes on
purpose (`tests/benchmarks/bench_league.py --check-classic` shows `classic` chooses as the
old `tactical` did); the policy's name is left out of the digest.

Re-record only for a deliberate change of behaviour, and say so in the commit:
`.venv/bin/python tests/ai/test_ai_decisions_unchanged.py --record`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from ai.sim import play
from engine.content.loader import load_encounter

DATA = Path(__file__).resolve().parent / "data"
FIGHTS = [
    ("default", 1),
    ("default", 2),
    ("mirror", 3),
    ("mirror", 4),
    ("keep-d20", 5),
    ("crossroads-4srd", 6),
    ("chasm", 7),
]
"""(encounter, seed): `chasm` brings a Large creature (the crag ogre)."""


def _fixture(name: str, seed: int) -> Path:
    return DATA / f"decisions_{name}_{seed}.json"


def trace(name: str, seed: int) -> dict[str, Any]:
    """The actions and decision texts of one fight, and a digest of its whole log."""
    loaded = load_encounter(name)
    enc, _ = play(loaded, seed, {c.side: "classic" for c in loaded.spec.combatants})
    lines: list[str] = []
    digest = hashlib.sha256()
    for lg in enc.log:
        j = lg.to_json()
        j.pop("ms", None)
        j.pop("policy", None)
        digest.update(json.dumps(j, sort_keys=True).encode())
        if j["type"] == "action":
            lines.append(f"{j['id']} {j['kind']} {j.get('name', '')} {j.get('targets', '')}")
        elif j["type"] == "decision":
            cands = "; ".join(f"{c['action']} = {c['score']}" for c in j["candidates"])
            lines.append(f"{j['id']} decides: {j['summary']} [{cands}]")
    return {"lines": lines, "digest": digest.hexdigest()}


@pytest.mark.parametrize(("name", "seed"), FIGHTS, ids=[f"{n}-{s}" for n, s in FIGHTS])
def test_decisions_are_those_of_the_base_commit(name: str, seed: int) -> None:
    want = json.loads(_fixture(name, seed).read_text())
    got = trace(name, seed)
    assert got["lines"] == want["lines"]
    assert got["digest"] == want["digest"]


if __name__ == "__main__" and "--record" in sys.argv:
    DATA.mkdir(exist_ok=True)
    for n, s in FIGHTS:
        _fixture(n, s).write_text(json.dumps(trace(n, s), indent=0) + "\n")
        print("recorded", _fixture(n, s))
