"""Every bundled encounter plays to its end headless, and check_log.py finds its logs clean.

A small version of `tests/soak/soak_bundled.py --runs 50` (3 fights each, 1 of the big
`battle`), so that CI stays quick; run the script itself for the full soak.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "soak" / "soak_bundled.py"


def _soak_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("soak_bundled", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["soak_bundled"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_every_bundled_encounter_runs_to_its_end_with_clean_logs() -> None:
    soak = _soak_module()
    try:
        soak.find_check_log()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    results = soak.soak(3, runs_for={"battle": 1}, jobs=1)
    names = {r.name for r in results}
    assert {"default", "ambush", "fog", "chasm", "battle"} <= names
    problems = [
        r.line() + "".join(f"\n    {f}" for f in r.findings[:10]) for r in results if not r.clean
    ]
    assert not problems, "\n".join(problems)
    for r in results:
        assert sum(r.wins.values()) + r.draws == r.runs
