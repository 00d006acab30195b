"""Speed work keeps the engine deterministic (issue 14): fights with the same seeds write
byte-identical combat logs (decision times aside) to the ones recorded before it began.

`tests/soak/log_digests.py` checks every recorded case; this runs a sample of each kind."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "log_digests", ROOT / "tests" / "soak" / "log_digests.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


LD = _script()
WANT = json.loads(LD.FIXTURE.read_text())
ALL = LD.cases()
OTHER_RULESETS = [c for c in ALL if c[1] is not None][::10]
BUNDLED = [c for c in ALL if c[0] in LD.OTHERS and c[3] == 5000]
SAMPLE = ALL[:6] + OTHER_RULESETS + [c for c in ALL if c[0] == "default"][::7] + BUNDLED


@pytest.mark.parametrize("case", SAMPLE, ids=[LD.key(*c) for c in SAMPLE])
def test_same_seed_same_log_as_before_the_speed_work(
    case: tuple[str, str | None, dict[str, str], int],
) -> None:
    assert LD.digest(*case) == WANT[LD.key(*case)]
