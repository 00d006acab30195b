"""The `4srd` and `d20srd` encounters (and `default` under each ruleset) play to their end
headless through the `skirmish` command, and check_log.py finds their logs clean.

A small version of `tests/soak/soak_rulesets.py --runs 200` (5 fights of each case).
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "soak" / "soak_rulesets.py"


def _soak_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("soak_rulesets", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["soak_rulesets"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_each_ruleset_runs_5_fights_with_clean_logs() -> None:
    soak = _soak_module()
    if not soak.CHECK_LOG.is_file():
        pytest.skip(f"check_log.py not found at {soak.CHECK_LOG}")
    if not (Path(sys.executable).parent / "skirmish").exists() and not shutil.which("skirmish"):
        pytest.skip("the skirmish command is not installed")
    results = soak.soak(5, 5, jobs=1)
    assert [(r.encounter, r.ruleset) for r in results] == [
        ("crossroads-4srd", "4srd"),
        ("keep-d20", "d20srd"),
        ("default", "4srd"),
        ("default", "d20srd"),
    ]
    problems = [
        r.line() + "".join(f"\n    {f}" for f in r.findings[:10]) for r in results if not r.clean
    ]
    assert not problems, "\n".join(problems)
