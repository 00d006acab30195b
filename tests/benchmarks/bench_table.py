"""Latency of a table over SSH: from a confirmed action to every seat's updated frame.

A real `skirmish host` serves the app's duel; every creature is handed to people (so each
action is exactly one update). 1, 4 and 8 seats (Kara's and Brak's players, then spectators
of the party) each join through a private OpenSSH server on loopback with a forced command,
each `ssh -tt` in its own 80x24 pseudo-terminal read by this script (which answers the app's
query for synchronized output, so frames arrive whole). A hand-written GM client, not one of
the measured seats, ends the current turn; the clock runs from writing that request to the
frame, on each seat's terminal, that shows the new save count in the status line (`saved N`:
the host sends an update only once the action is durable). Per action: the time until every
seat has its frame; over the run: median and p95. Target: p95 <= 150 ms with 8 seats.

    .venv/bin/python -m tests.benchmarks.bench_table            # 40 actions per seat count
    .venv/bin/python -m tests.benchmarks.bench_table --quick    # 8 actions, 1 and 4 seats
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import pty
import re
import select
import signal
import statistics
import struct
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

if str(Path(__file__).resolve().parents[2]) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.ssh import Sshd, have_ssh, join_command
from tests.support.table import DUEL, HostProc, RawSeat, skirmish_command

SYNC_QUERY = b"\x1b[?2026$p"
SYNC_REPLY = b"\x1b[?2026;2$y"
SEATS = ["kara", "brak", "w1", "w2", "w3", "w4", "w5", "w6"]


class Terminal:
    """One `ssh -tt` in an 80x24 pseudo-terminal."""

    def __init__(self, argv: list[str]) -> None:
        pid, fd = pty.fork()
        if pid == 0:
            env = dict(os.environ, TERM="xterm-256color")
            os.execvpe(argv[0], argv, env)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.buf = b""
        self.want: re.Pattern[bytes] | None = None
        self.hit: float | None = None

    def close(self) -> None:
        try:
            os.kill(self.pid, signal.SIGTERM)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)


class Reader(threading.Thread):
    """Reads every terminal; notes when each first shows what it is waiting for."""

    def __init__(self, terms: list[Terminal]) -> None:
        super().__init__(daemon=True)
        self.terms = {t.fd: t for t in terms}
        self.lock = threading.Lock()
        self.stop = False

    def run(self) -> None:
        while not self.stop:
            ready, _, _ = select.select(list(self.terms), [], [], 0.05)
            now = time.perf_counter()
            for fd in ready:
                try:
                    chunk = os.read(fd, 1 << 16)
                except OSError:
                    chunk = b""
                if not chunk:
                    self.terms.pop(fd, None)
                    continue
                t = self.terms[fd]
                if SYNC_QUERY in chunk:
                    os.write(fd, SYNC_REPLY)
                with self.lock:
                    t.buf = (t.buf + chunk)[-(1 << 17) :]
                    if t.want is not None and t.hit is None and t.want.search(t.buf):
                        t.hit = now


def expect(terms: list[Terminal], reader: Reader, text: bytes) -> None:
    with reader.lock:
        for t in terms:
            t.buf, t.hit = b"", None
            t.want = re.compile(re.escape(text) + rb"(?!\d)")


def wait_all(terms: list[Terminal], timeout: float) -> list[float] | None:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        hits = [t.hit for t in terms]
        if all(h is not None for h in hits):
            return [h for h in hits if h is not None]
        time.sleep(0.002)
    return None


def table_file(path: Path, n: int) -> None:
    lines = ["seats:"]
    for s in SEATS[:n]:
        player = s in ("kara", "brak")
        lines.append(f"  {s}: root" if player else f"  {s}: {{user: root, side: party}}")
    if n < 2:
        lines.append("  brak: root")  # Brak needs a seat to be played by a person; unmeasured
    path.write_text("\n".join(lines) + "\n")


def run(n: int, actions: int, work: Path, sshd: Sshd) -> dict[str, float]:
    root, data = work / f"table{n}", work / "data"
    tf = work / f"seats{n}.yaml"
    table_file(tf, n)
    host = HostProc(root, data, [DUEL, "--seed", "3", "--pace", "0", "--table", str(tf)])
    terms: list[Terminal] = []
    reader: Reader | None = None
    try:
        gm = RawSeat(host.socket)
        assert gm.hello("gm")["t"] == "welcome"
        for cid in ("gob-1", "gob-2"):
            gm.send("control", creature=cid, to="player")
        terms = [Terminal(sshd.ssh(s)) for s in SEATS[:n]]
        reader = Reader(terms)
        reader.start()
        expect(terms, reader, b"Initiative")
        if wait_all(terms, 60) is None:
            raise RuntimeError("the seats never drew the fight")
        saved = 0
        for m in gm.drain(1.0):
            if m["t"] == "update":
                saved = m["saved"]
        times: list[float] = []
        for _ in range(actions):
            expect(terms, reader, f"saved {saved + 1}".encode())
            t0 = time.perf_counter()
            gm.send("act", action={"action": "end_turn"})
            hits = wait_all(terms, 5.0)
            got = gm.until("update")
            saved = got["saved"]
            if hits is not None:
                times.append(max(hits) - t0)
            gm.until("idle")
            time.sleep(0.05)  # let every seat settle before the next action
        gm.close()
    finally:
        if reader is not None:
            reader.stop = True
        for t in terms:
            t.close()
        host.stop()
    ms = sorted(x * 1000 for x in times)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))] if ms else float("nan")
    return {
        "seats": n,
        "actions": actions,
        "measured": len(ms),
        "median_ms": round(statistics.median(ms), 1) if ms else float("nan"),
        "p95_ms": round(p95, 1),
        "max_ms": round(ms[-1], 1) if ms else float("nan"),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="8 actions, 1 and 4 seats")
    p.add_argument("--actions", type=int, default=40)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    why = have_ssh()
    if why:
        print(f"bench_table: skipped ({why})")
        return 0
    counts = (1, 4) if args.quick else (1, 4, 8)
    actions = 8 if args.quick else args.actions
    results = []
    with tempfile.TemporaryDirectory(prefix="skirmish-bench-table-") as tmp:
        work = Path(tmp)
        exe = skirmish_command()
        sshd_by_n = {}
        for n in counts:
            forced = {s: join_command(exe, work / f"table{n}", s, work / "data") for s in SEATS}
            sshd_by_n[n] = Sshd(work / f"ssh{n}", forced)
        try:
            for n in counts:
                got = run(n, actions, work, sshd_by_n[n])
                results.append(got)
                print(
                    f"{n} seat(s): confirmed action -> every seat's frame over ssh: "
                    f"median {got['median_ms']} ms, p95 {got['p95_ms']} ms, max {got['max_ms']} ms "
                    f"({got['measured']}/{got['actions']} actions)",
                    flush=True,
                )
        finally:
            for s in sshd_by_n.values():
                s.close()
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
