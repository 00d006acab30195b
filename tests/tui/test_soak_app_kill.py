"""The app kill soak, small: 2 SIGKILLs of the real app in a pty, each resumed with
`skirmish resume --latest`, nothing the screen showed lost.
(`python tests/soak/soak_app_kill.py --kills 100` is the full run.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.e2e import skirmish_command

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.e2e,
    pytest.mark.timeout(120),
    pytest.mark.skipif(sys.platform == "win32", reason="pty and SIGKILL"),
]


def test_app_kill_soak_two_kills() -> None:
    skirmish_command()  # installed, or FileNotFoundError says how to install it
    done = subprocess.run(
        [sys.executable, "tests/soak/soak_app_kill.py", "--kills", "2", "--seed", "5"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=110,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 kills, 0 mismatches" in done.stdout
