"""Save-then-load equals the original fight (Hypothesis over seeds; the soak script
`tests/soak/soak_saveload.py --seeds 1000` runs the same check over 1,000 seeds)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.content.loader import load_encounter
from tests.soak.soak_saveload import check_seed

LOADED = load_encounter("default")


@pytest.mark.slow
@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**31 - 1))
def test_save_then_load_equals_the_original(seed: int, tmp_path: Path) -> None:
    assert check_seed(LOADED, seed, tmp_path, max_records=70, prefixes=3) is None
