"""The kill soak, small: 3 SIGKILLs of an autosaving fight, each resumed, nothing lost.
(`python tests/soak/soak_kill.py --kills 100` is the full run.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_kill_soak_three_kills() -> None:
    done = subprocess.run(
        [sys.executable, "tests/soak/soak_kill.py", "--kills", "3", "--seed", "7"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 kills, 0 mismatches" in done.stdout
