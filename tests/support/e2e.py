"""Drive a real terminal for the end-to-end tests: a tmux server of our own (its own socket),
one 80x24 window, keys in with `send-keys`, the screen out with `capture-pane`."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

FIXTURE = str(Path(__file__).parents[1] / "tui" / "fixtures" / "duel.yaml")


def skirmish_command() -> str:
    """The installed `skirmish` entry point (the venv's, next to this Python)."""
    here = Path(sys.executable).parent / "skirmish"
    found = str(here) if here.exists() else shutil.which("skirmish")
    if not found:
        raise FileNotFoundError("the skirmish command is not installed (pip install -e .)")
    return found


class Tmux:
    def __init__(self, width: int = 80, height: int = 24) -> None:
        self.socket = f"skirmish-e2e-{uuid.uuid4().hex[:8]}"
        self.width = width
        self.height = height

    def _tmux(self, *args: str, check: bool = True) -> str:
        out = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            check=check,
            timeout=20,
        )
        return out.stdout

    def start(self, command: str, env: dict[str, str] | None = None) -> None:
        """Run `command` (a shell line) in a fresh window of width x height."""
        prefix = " ".join(f"{k}={shlex.quote(v)}" for k, v in (env or {}).items())
        line = f"env {prefix} {command}" if prefix else command
        self._tmux(
            "-f",
            os.devnull,
            "new-session",
            "-d",
            "-x",
            str(self.width),
            "-y",
            str(self.height),
            "-s",
            "e2e",
            "sh",
            "-c",
            line,
        )
        self._tmux("set-option", "-t", "e2e", "remain-on-exit", "on", check=False)

    def keys(self, *keys: str) -> None:
        for key in keys:
            self._tmux("send-keys", "-t", "e2e", key)
            time.sleep(0.15)

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "e2e", check=False)

    def wait_for(self, *texts: str, timeout: float = 20.0) -> str:
        """The screen, once any of `texts` is on it."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if any(t in screen for t in texts):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{texts!r} never appeared; the screen was:\n{screen}")

    def close(self) -> None:
        self._tmux("kill-server", check=False)


def wait_file(path: Path, timeout: float = 20.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return path.read_text().strip()
        time.sleep(0.1)
    raise AssertionError(f"{path} was never written")


def play_one_turn(tmux: Tmux) -> str:
    """Kara's turn in the duel: attack with Fira (a, Enter, Enter), end the turn, and return
    the screen once the monsters have played and it is a player's turn again."""
    tmux.wait_for("Your turn")
    tmux.keys("a")
    tmux.wait_for("to hit")
    tmux.keys("Enter")
    tmux.wait_for("Use it")
    tmux.keys("Enter")
    tmux.wait_for("Kara hits", "Kara misses", "Kara CRITS")
    tmux.keys("e")
    return tmux.wait_for("B Brak [")
