"""`skirmish sim --jobs 2` in a real terminal (issue 14): the progress bar is drawn on stderr,
and Ctrl-C (the terminal's SIGINT to the whole foreground group, workers included) ends it with
one line and the summary of the fights that finished: exit status 130, no traceback, and no
worker process left behind."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import time
from pathlib import Path

import pytest

from tests.support.e2e import skirmish_command

pytestmark = pytest.mark.slow


def _read_until(fd: int, seen: bytearray, pattern: re.Pattern[bytes], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pattern.search(bytes(seen)):
            return True
        if not select.select([fd], [], [], 0.5)[0]:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return False
        if not chunk:
            return False
        seen += chunk
    return False


def _read_to_end(fd: int, seen: bytearray, timeout: float) -> None:
    """Everything the process writes until it closes the terminal (it exits)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not select.select([fd], [], [], 0.5)[0]:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the child side is closed
            return
        if not chunk:
            return
        seen += chunk


def _session_members(sid: int) -> list[int]:
    """Processes still alive in the session the sim led (its workers, if any survived)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] != "Z":  # field 6 of stat: the session
            pids.append(int(entry.name))
    return pids


def test_ctrl_c_in_a_terminal_stops_cleanly_with_a_partial_summary() -> None:
    argv = [skirmish_command(), "sim", "default", "--runs", "300", "--jobs", "2"]
    pid, fd = pty.fork()
    if pid == 0:  # the child: the sim in a terminal of its own
        # As a shell starts a foreground command: SIGINT at its default. A test run started
        # in the background of a non-interactive shell (`pytest ... &` in a script) has SIGINT
        # ignored, and an ignored signal stays ignored through fork and exec: Python would
        # then install no KeyboardInterrupt handler and the sim would never see the Ctrl-C.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.execv(argv[0], argv)
    seen = bytearray()
    try:
        bar = re.compile(rb"\] ([1-9]\d*)/300 ")
        assert _read_until(fd, seen, bar, 120), bytes(seen[-400:])
        os.write(fd, b"\x03")  # Ctrl-C
        _read_to_end(fd, seen, 60)
        _, status = os.waitpid(pid, 0)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)
    text = bytes(seen).decode("utf-8", "replace")
    assert os.WEXITSTATUS(status) == 130, text[-600:]
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    stopped = re.search(r"skirmish sim: interrupted after (\d+) of 300 fights", text)
    assert stopped is not None, text[-600:]
    n = int(stopped.group(1))
    assert 1 <= n < 300
    assert re.search(rf"default: {n} fights? in ", text), text[-600:]
    deadline = time.monotonic() + 5
    while _session_members(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _session_members(pid) == []
