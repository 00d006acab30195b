"""Run the installed `skirmish` in a pseudo-terminal of our own and keep every byte it writes
(issue 17): tmux shows the screen, but a test of what reaches the terminal needs the raw
output, and a test of how the terminal is left needs its modes (termios) after the exit."""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import signal
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Sequence

ANSI = re.compile(
    rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]"  # CSI
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
    rb"|\x1b[()][0-9A-Za-z]|\x1b[=>78c]"
)
ENTER, ESCAPE, TAB = "\r", "\x1b", "\t"


class PtyApp:
    """One process on the slave side of a new pty of `cols` x `rows`; the master is read by
    a thread into `output`."""

    def __init__(
        self, argv: Sequence[str], env: dict[str, str], cols: int = 80, rows: int = 24
    ) -> None:
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.modes_before = termios.tcgetattr(self.slave)
        self.output = bytearray()
        self._lock = threading.Lock()
        self.proc = subprocess.Popen(
            list(argv),
            stdin=self.slave,
            stdout=self.slave,
            stderr=self.slave,
            env={**os.environ, "TERM": "xterm-256color", **env},
            start_new_session=True,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self.output += chunk

    def data(self) -> bytes:
        with self._lock:
            return bytes(self.output)

    def text(self, since: int = 0) -> str:
        """What was written (from byte `since`), escape sequences taken out."""
        return ANSI.sub(b"", self.data()[since:]).decode("utf-8", "replace")

    def wait_for(self, *texts: str, timeout: float = 20.0, since: int = 0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.text(since)
            if any(t in got for t in texts):
                return got
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        tail = self.text()[-1500:]
        raise AssertionError(f"{texts!r} never appeared; the output ended with:\n{tail}")

    def keys(self, *keys: str, pause: float = 0.2) -> None:
        for key in keys:
            os.write(self.master, key.encode())
            # a lone ESC is told from the start of an escape sequence by the quiet after it
            time.sleep(max(pause, 0.6) if key == ESCAPE else pause)

    def signal(self, signum: int) -> None:
        self.proc.send_signal(signum)

    def wait(self, timeout: float = 20.0) -> int:
        code = self.proc.wait(timeout)
        time.sleep(0.2)  # let the reader drain the last bytes
        return code

    def modes_after(self) -> list[object]:
        return termios.tcgetattr(self.slave)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(5)
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)
