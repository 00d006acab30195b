"""End to end: the installed `skirmish` command in a real terminal (tmux) at 80x24, once with
TERM=xterm-256color and once as a 16-colour console with NO_COLOR; a whole player turn by
keystrokes, the screen read back, and a clean quit with exit status 0. Then the fight is
picked up again with `skirmish resume --latest`, a turn taken back with undo and the log
exported, as a person at the keyboard would."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.support.e2e import FIXTURE, Tmux, play_one_turn, skirmish_command, wait_file

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.timeout(120),
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (apt-get install tmux)"),
]

TERMINALS = [
    pytest.param({"TERM": "xterm-256color", "COLORTERM": "truecolor"}, id="xterm-256color"),
    pytest.param({"TERM": "linux", "NO_COLOR": "1"}, id="linux-no-color"),
]


@pytest.mark.parametrize("env", TERMINALS)
def test_play_a_turn_and_quit(tmp_path: Path, env: dict[str, str]) -> None:
    status = tmp_path / "status"
    cmd = f"{skirmish_command()} play {FIXTURE} --seed 5 --pace 0.05; echo $? > {status}"
    tmux = Tmux(80, 24)
    try:
        tmux.start(cmd, {**env, "SKIRMISH_DATA_DIR": str(tmp_path / "data")})
        first = tmux.wait_for("Initiative")
        assert "Test Yard" in first and re.search(r"K +26/26 \S+ Kara", first)
        screen = play_one_turn(tmux)
        assert "Goblin" in screen and "round" in screen
        lines = screen.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        tmux.keys("q")
        tmux.wait_for("Leave this fight")
        tmux.keys("Enter")
        assert wait_file(status) == "0"
    finally:
        tmux.close()


def test_quit_mid_fight_resume_undo_export(tmp_path: Path) -> None:
    env = {"TERM": "xterm-256color", "SKIRMISH_DATA_DIR": str(tmp_path / "data")}
    status = tmp_path / "status"
    exe = skirmish_command()
    tmux = Tmux(80, 24)
    try:
        tmux.start(f"{exe} play {FIXTURE} --seed 5 --pace 0.05; echo $? > {status}", env)
        play_one_turn(tmux)
        first = tmux.wait_for("saved ")
        tmux.keys("q")
        tmux.wait_for("Leave this fight")
        tmux.keys("Enter")
        assert wait_file(status) == "0"
        status.unlink()
        saves = list((tmp_path / "data" / "saves").glob("*.save.jsonl"))
        assert len(saves) == 1
        tmux.close()
        tmux = Tmux(80, 24)
        tmux.start(f"{exe} resume --latest; echo $? > {status}", env)
        resumed = tmux.wait_for("Resumed at record")
        assert "Test Yard" in resumed and "saved " in resumed
        assert first.splitlines()[0].split("saved ")[1].split()[0] in resumed.splitlines()[0]
        tmux.keys("z")
        tmux.wait_for("Your turn")
        tmux.keys("x")
        tmux.wait_for("Export the combat log")
        tmux.keys("Enter")
        done = tmux.wait_for("Exported")
        assert "Exported" in done
        assert list((tmp_path / "data" / "saves").glob("*.log.jsonl"))
        assert list((tmp_path / "data" / "saves").glob("*.log.txt"))
        tmux.keys("q")
        tmux.wait_for("Leave this fight")
        tmux.keys("Enter")
        assert wait_file(status) == "0"
    finally:
        tmux.close()
