"""End to end, the GM at the table (issue 12, items 20-23): the installed `skirmish play
--manual-dice party` in tmux at 80x24. The players' dice are typed in (the prompt says the
face needed), one die is left to the app (Ctrl+R), every GM tool is used once from the `T`
menu, the GM finishes the goblins off by hand, and the exported combat log passes
../shared/conformance/check_log.py with its `gm` events and `rolled_by` fields."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.e2e import FIXTURE, Tmux, skirmish_command, wait_file

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,  # a whole GM fight in a real terminal
    pytest.mark.timeout(180),
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (apt-get install tmux)"),
]
CHECK_LOG = Path(__file__).resolve().parents[3] / "shared" / "conformance" / "check_log.py"
if not CHECK_LOG.exists():
    CHECK_LOG = Path("/work/shared/conformance/check_log.py")
pytestmark.append(pytest.mark.skipif(not CHECK_LOG.exists(), reason="needs ../shared"))


def settled(tmux: Tmux, *texts: str) -> str:
    """The screen once one of `texts` shows, after a moment for the focus to land."""
    screen = tmux.wait_for(*texts)
    time.sleep(0.4)
    return screen


DIALOG = (
    "'s hit points",
    "GM: an effect on",
    "end which effect",
    "reinforcements at",
    "GM: remove",
)
"""Text only each tool's dialog shows (the log says "GM: ..." too)."""


def gm(tmux: Tmux, tool: int) -> str:
    tmux.keys("T")
    settled(tmux, "GM tools")
    tmux.keys(*(["Down"] * tool), "Enter")
    return settled(tmux, DIALOG[tool])


def test_gm_types_dice_and_uses_every_tool(tmp_path: Path) -> None:
    env = {"TERM": "xterm-256color", "SKIRMISH_DATA_DIR": str(tmp_path / "data")}
    status = tmp_path / "status"
    exe = skirmish_command()
    tmux = Tmux(80, 24)
    try:
        tmux.start(
            f"{exe} play {FIXTURE} --seed 5 --pace 0 --manual-dice party; echo $? > {status}",
            env,
        )
        for face in ("20", "9"):  # Kara's and Brak's initiative, typed
            settled(tmux, "initiative: roll 1d20")
            tmux.keys(face, "Enter")
            time.sleep(0.4)
        tmux.wait_for("Your turn")
        # the attack roll: the prompt says what is needed
        tmux.keys("a")
        tmux.wait_for("to hit")
        tmux.keys("Enter")
        tmux.wait_for("Use it")
        tmux.keys("Enter")
        prompt = settled(tmux, "needs")
        assert "vs" in prompt and "%" in prompt
        tmux.keys("18", "Enter")
        damage = settled(tmux, "modifiers", "Kara hits", "Kara CRITS")
        if "modifiers" in damage:
            tmux.keys("C-r")  # this one the app rolls
        tmux.wait_for("Kara hits", "Kara CRITS")
        # hit points: 3 damage to Kara, at 2,5 (the cursor to the corner, then there)
        tmux.keys(*(["y"] * 9), "n", "n", "j", "j", "j")
        gm(tmux, 0)
        tmux.keys("3", "Enter")
        tmux.wait_for("takes 3 hit points")
        # an effect, then end it
        gm(tmux, 1)
        tmux.keys("dazed", "Enter")
        tmux.wait_for("gets dazed")
        gm(tmux, 2)
        tmux.keys("Enter")
        tmux.wait_for("dazed ends (GM)")
        # reinforcements at 1,1 (the cursor to the corner, one step back in), then remove it
        tmux.keys(*(["y"] * 9), "n")
        gm(tmux, 3)
        tmux.keys("Enter")
        tmux.wait_for("joins monsters")
        gm(tmux, 4)
        tmux.keys("Enter")  # confirm the removal
        tmux.wait_for("GM: Goblin leaves the fight")
        # the GM finishes the goblins off, one hit point tool each
        for _ in range(12):
            tmux.keys("Tab")
            time.sleep(0.4)
            screen = gm(tmux, 0)
            title = next((ln for ln in screen.splitlines() if "'s hit points" in ln), "")
            if "Goblin" in title:
                tmux.keys("99", "Enter")
                end = settled(tmux, "takes 99", "Play again")
                if "Play again" in end:
                    break
            else:
                tmux.keys("Escape")
                time.sleep(0.6)  # a lone Escape, not the start of an escape sequence
        tmux.wait_for("Play again")
        tmux.keys("q")
        assert wait_file(status) == "0"
    finally:
        tmux.close()
    saves = list((tmp_path / "data" / "saves").glob("*.save.jsonl"))
    assert len(saves) == 1
    out = tmp_path / "gm.jsonl"
    subprocess.run(
        [exe, "export", str(saves[0]), "--format", "jsonl", "-o", str(out)], check=True, env=env
    )
    events = [json.loads(line) for line in out.read_text().splitlines()]
    tools = [e["tool"] for e in events if e["type"] == "gm"]
    assert set(tools) == {"hp", "effect", "end_effect", "add", "remove"}
    assert {e.get("rolled_by") for e in events} >= {"table", "app"}
    run = subprocess.run(
        [sys.executable, str(CHECK_LOG), str(out)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr
