"""Helpers for the table's tests, soaks and benchmark (a uniquely named module): start a real
`skirmish host` process, and a hand-written blocking client that speaks the wire protocol
with plain sockets (usable in a forked child that has dropped to another OS user)."""

from __future__ import annotations

import hashlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1] / "table"
"""tests/table, where the table's fixtures live."""
AMBUSH = str(HERE / "fixtures" / "ambush.yaml")
DUEL = str(HERE.parent / "tui" / "fixtures" / "duel.yaml")


def check_log_path() -> Path | None:
    """The shared conformance checker: ../shared next to the checkout, or /work/shared."""
    for root in (HERE.parents[1].parent / "shared", Path("/work/shared")):
        path = root / "conformance" / "check_log.py"
        if path.exists():
            return path
    return None


def skirmish_command() -> str:
    here = Path(sys.executable).parent / "skirmish"
    return str(here) if here.exists() else "skirmish"


class HostProc:
    """`skirmish host` in a subprocess, serving a table in `root`."""

    def __init__(self, root: Path, data: Path, args: list[str], resume: bool = False) -> None:
        self.root = root
        self.data = data
        env = {**os.environ, "SKIRMISH_DATA_DIR": str(data)}
        cmd = [skirmish_command(), "host", *args, "--dir", str(root)]
        if resume:
            cmd.append("--resume")
        self.proc = subprocess.Popen(
            cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.out = self._wait_serving()

    def _wait_serving(self, timeout: float = 30.0) -> str:
        assert self.proc.stdout is not None
        out: list[str] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                err = self.proc.stderr.read() if self.proc.stderr else ""
                raise AssertionError(f"host ended: {''.join(out)}{err}")
            out.append(line)
            if line.startswith("Serving"):
                return "".join(out)
        raise AssertionError(f"host never served: {''.join(out)}")

    @property
    def socket(self) -> Path:
        return self.root / "table.sock"

    def save(self) -> Path:
        state = json.loads((self.root / "private" / "table.json").read_text())
        return Path(state["save"])

    def save_digest(self) -> str:
        return hashlib.sha256(self.save().read_bytes()).hexdigest()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        if self.alive():
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self._close_pipes()

    def stop(self) -> str:
        """SIGTERM, wait; the host's stderr."""
        err = ""
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                _, err = self.proc.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                _, err = self.proc.communicate()
        self._close_pipes()
        return err or ""

    def _close_pipes(self) -> None:
        for f in (self.proc.stdout, self.proc.stderr):
            if f is not None:
                f.close()


def wait_save(root: Path, timeout: float = 10.0) -> None:
    """The host writes its state file once its fight's save exists."""
    deadline = time.monotonic() + timeout
    while not (root / "private" / "table.json").exists():
        if time.monotonic() > deadline:
            raise AssertionError("the host never wrote its state file")
        time.sleep(0.02)


class RawSeat:
    """A hand-written client: blocking socket, one JSON object per line."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(os.fspath(path))
        self.buf = b""
        self.next_id = 0

    def send(self, t: str, **fields: Any) -> int:
        self.next_id += 1
        msg = {"v": 1, "t": t, "id": self.next_id, **fields}
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        return self.next_id

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("nothing from the host")
            ready, _, _ = select.select([self.sock], [], [], left)
            if ready:
                chunk = self.sock.recv(1 << 20)
                if not chunk:
                    raise EOFError("the host hung up")
                self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        out: dict[str, Any] = json.loads(line)
        return out

    def until(self, *types: str, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, deadline - time.monotonic()))
            if msg["t"] in types:
                return msg

    def drain(self, quiet: float = 0.2) -> list[dict[str, Any]]:
        """Every message until the host is quiet for `quiet` seconds."""
        out = []
        while True:
            try:
                out.append(self.recv(quiet))
            except TimeoutError:
                return out

    def hello(self, seat: str) -> dict[str, Any]:
        self.send("hello", seat=seat)
        return self.until("welcome", "refused", "error")

    def latest_view(self, quiet: float = 0.3) -> dict[str, Any] | None:
        view = None
        for m in self.drain(quiet):
            if m["t"] == "update":
                view = m["view"]
        return view

    def close(self) -> None:
        self.sock.close()


def play_until_turn(seat: RawSeat, mine: set[str], timeout: float = 20.0) -> dict[str, Any]:
    """Read news until it is the turn of one of `mine` and the host is idle; the view."""
    deadline = time.monotonic() + timeout
    view: dict[str, Any] | None = None
    while time.monotonic() < deadline:
        msg = seat.recv(max(0.01, deadline - time.monotonic()))
        if msg["t"] == "update":
            view = msg["view"]
        if msg["t"] == "idle" and view is not None and (view["current"] in mine or view["over"]):
            return view
    raise AssertionError(f"never {mine}'s turn; last view {view and view['current']}")
