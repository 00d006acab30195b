"""End to end (issue 12 item 1): `skirmish` in a real 80x24 terminal with an unfinished fight
saved; Enter on the start screen plays `default` (not the save, not the entry below it), the
highlighted row is on screen, a few turns are played by keys and the app quits cleanly."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.autosave import Autosaver
from engine.content.loader import load_encounter
from tests.support.e2e import Tmux, skirmish_command, wait_file
from tests.support.fights import play

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.timeout(180),
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (apt-get install tmux)"),
]


def test_enter_on_the_start_screen_plays_default_with_a_save_present(tmp_path: Path) -> None:
    data = tmp_path / "data"
    enc = play(load_encounter("mirror"), 2, player="naive", max_records=5)
    with Autosaver.create(enc, directory=data / "saves"):
        pass
    status = tmp_path / "status"
    env = {"TERM": "xterm-256color", "SKIRMISH_DATA_DIR": str(data)}
    tmux = Tmux(80, 24)
    try:
        tmux.start(f"{skirmish_command()} ; echo $? > {status}", env)
        start = tmux.wait_for("1 unfinished fight")
        assert "r resumes the newest (mirror" in start
        start = tmux.wait_for("default ")
        assert any(row.strip(" ▊▎").startswith("default ") for row in start.splitlines())
        tmux.keys("Enter")
        first = tmux.wait_for("Your turn", timeout=30)
        assert "Watchtower Yard" in first  # the default fight's map, not mirror's or fog's
        for _ in range(3):  # end three player turns; the AI plays the monsters between
            tmux.keys("e")
            tmux.wait_for("saved ")
        screen = tmux.wait_for("Your turn", timeout=60)
        lines = screen.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        tmux.keys("q")
        tmux.wait_for("Leave this fight")
        tmux.keys("Enter")
        assert wait_file(status) == "0"
        saves = sorted(p.name for p in (data / "saves").glob("*.save.jsonl"))
        assert len(saves) == 2 and any(name.startswith("default_") for name in saves)
    finally:
        tmux.close()
