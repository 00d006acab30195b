"""End to end over SSH: a real OpenSSH server on a loopback port with one throwaway key per
seat, each forced to `skirmish join --seat ID`; the host, the GM and two players each in its
own tmux window at 80x24.

Kara's player takes her turn (aim, preview, confirm, end turn); Brak's player tries to end
Kara's turn and is refused; the GM steps the AI through the goblins' turns while Kara's
player tries to act out of turn and is refused; Kara's ssh is killed and she re-joins to
find the fight where it is; Brak takes his turn; then the GM turns step mode off and hands
both heroes to the AI to finish the fight, and the save's combat log passes
../shared/conformance/check_log.py.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.ssh import Pane, Sshd, have_ssh, join_command
from tests.support.table import DUEL, check_log_path, skirmish_command

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,  # a real sshd and four terminals
    pytest.mark.timeout(240),
    pytest.mark.skipif(have_ssh() is not None, reason=str(have_ssh())),
    pytest.mark.skipif(
        subprocess.run(["which", "tmux"], capture_output=True).returncode != 0,
        reason="needs tmux: apt-get install tmux",
    ),
]


def _alive(pid: int) -> bool:
    """Is `pid` still running? A killed process that tmux has not reaped yet is a zombie:
    `kill(pid, 0)` still finds it, so read its state from /proc too."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


class Table:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.dir = tmp / "table"
        self.data = tmp / "data"
        exe = skirmish_command()
        seats = ("gm", "kara", "brak")
        self.sshd = Sshd(tmp, {s: join_command(exe, self.dir, s, self.data) for s in seats})
        self.panes: dict[str, Pane] = {}
        self.host_line = (
            f"exec env SKIRMISH_DATA_DIR={shlex.quote(str(self.data))} {shlex.quote(exe)} host "
            f"{shlex.quote(DUEL)} --seed 5 --seat kara --seat brak "
            f"--dir {shlex.quote(str(self.dir))} --pace 0 --step"
        )
        self.open("host", self.host_line)
        self.panes["host"].wait_for("Serving", timeout=30)

    def kill_host(self) -> None:
        """SIGKILL the host (the pane's process: its shell exec'd it)."""
        pane = self.panes["host"]
        pid = pane.pid()
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if not _alive(pid):
                return
            time.sleep(0.05)
        raise AssertionError("the host did not die")

    def resume_host(self) -> Pane:
        pane = self.open(
            "host",
            self.host_line.split(" --seat")[0].replace(f"{shlex.quote(DUEL)} --seed 5", "")
            + f" --dir {shlex.quote(str(self.dir))} --resume --pace 0",
        )
        pane.wait_for("Serving", timeout=30)
        return pane

    def open(self, name: str, command: str) -> Pane:
        pane = Pane(command)
        self.panes[name] = pane
        return pane

    def seat(self, name: str) -> Pane:
        pane = self.open(name, self.sshd.ssh_line(name))
        pane.wait_for("Initiative", timeout=40)
        return pane

    def close(self) -> None:
        for pane in self.panes.values():
            pane.close()
        self.sshd.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    try:
        yield t
    finally:
        t.close()


def status(pane: Pane) -> str:
    """The status line(s): everything above the map's frame."""
    lines = pane.screen().splitlines()
    top = next((i for i, ln in enumerate(lines) if ln.startswith("┌")), 1)
    return "\n".join(lines[:top])


def step_until(gm: Pane, done: Pane, text: str, timeout: float = 60.0) -> None:
    """The GM presses Space while the AI waits for it, until `text` shows on `done`'s top line."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in status(done):
            return
        if "GM step" in status(gm):
            gm.keys("space")
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never came; GM: {gm.screen()}\nother: {done.screen()}")


def test_a_table_over_ssh(table: Table) -> None:
    gm, kara, brak = table.seat("gm"), table.seat("kara"), table.seat("brak")
    host = table.panes["host"]
    kara.wait_for("Your turn")
    assert "Kara" in status(brak)

    brak.keys("e")  # Brak's player tries to end Kara's turn
    brak.wait_for("Can't: it is kara's turn, not yours")

    kara.keys("a")
    kara.wait_for("to hit")
    kara.keys("Enter")
    kara.wait_for("Use it")
    kara.keys("Enter")
    kara.wait_for("Kara hits", "Kara misses", "Kara CRITS")
    kara.keys("e")
    gm.wait_for("GM step")
    kara.keys("e")  # out of turn: a goblin's
    kara.wait_for("Can't: it is not your turn")

    step_until(gm, brak, "B Brak [")

    table.panes.pop("kara").close()  # Kara's ssh dies
    host.wait_for("seat kara left")
    kara = table.seat("kara")  # and she joins again: the fight is where it was
    assert "B Brak" in status(kara)
    counts = [re.search(r"saved (\d+)", status(p)) for p in (kara, brak)]
    assert counts[0] and counts[1] and counts[0].group(1) == counts[1].group(1)

    saved = re.search(r"saved (\d+)", status(brak))
    assert saved is not None
    table.kill_host()  # SIGKILL: every confirmed action is in the save
    kara.wait_for("The host went away")
    old = table.panes.pop("host")
    table.resume_host()  # `skirmish host --resume`: the seats join again by themselves
    old.close()
    for pane in (gm, kara, brak):
        pane.wait_for("Joined again", timeout=30)
    brak.wait_for("B Brak [")
    assert f"saved {saved.group(1)}" in status(brak)  # nothing confirmed was lost

    brak.keys("e")
    kara.wait_for("Your turn")

    gm.keys("G")  # step mode off, and both heroes to the AI: the fight plays out
    gm.wait_for("Step off")
    for _ in range(2):
        deadline = time.monotonic() + 30
        while "The fight is over" not in gm.screen():
            top = status(gm)
            if "K Kara [" in top or "B Brak [" in top:
                gm.keys("c")
                time.sleep(0.5)
                break
            if time.monotonic() > deadline:
                raise AssertionError(gm.screen())
            time.sleep(0.2)
    gm.wait_for("The fight is over", timeout=60)
    kara.wait_for("The fight is over", timeout=10)

    state = json.loads((table.dir / "private" / "table.json").read_text())
    log = table.tmp / "fight.jsonl"
    env = {**os.environ, "SKIRMISH_DATA_DIR": str(table.data)}
    subprocess.run(
        [skirmish_command(), "export", state["save"], "--format", "jsonl", "-o", str(log)],
        check=True,
        env=env,
        capture_output=True,
    )
    for pane in (gm, kara, brak):
        pane.keys("q")
    table.panes["host"].keys("C-c")
    checker = check_log_path()
    if checker is None:
        pytest.skip("the conformance checker (../shared/conformance/check_log.py) is missing")
    got = subprocess.run([sys.executable, str(checker), str(log)], capture_output=True)
    assert got.returncode == 0, got.stdout.decode()
    assert b"1 passed, 0 failed" in got.stdout
