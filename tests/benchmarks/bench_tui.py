"""Timing of the app as a person feels it: launch to the first full frame, key to new frame.

Runs the installed `skirmish` in a pseudo-terminal of 80x24 (TERM=xterm-256color) and reads
what it writes. It answers the app's query for synchronized output, so every frame arrives
between ESC[?2026h and ESC[?2026l and its end can be seen exactly.

- start screen: `skirmish` from spawning the process to the end of the first frame that
  shows the start screen (its title and the footer), and to the frame that shows the
  encounter list filled in (a worker loads it: the content code is most of the start-up);
- launch: `skirmish play default` from spawning the process to the end of the first frame
  that shows the fight started (the status line says "Your turn") with the footer drawn;
- AI first: the same when the monsters win initiative, so the AI plays before anyone can
  (`skirmish play default --seed 1` and `skirmish play battle --seed 1`, 60x60 with 36
  creatures): to the end of the first frame that shows the fight started ("the AI plays"),
  with the CPU the process had used by then;
- key: from writing a cursor key (`l`/`h`, alternately) to the end of the next frame, once
  the app is idle, repeated; median and p95;
- bytes per key: everything the app writes to the terminal after one cursor key, until it
  has been quiet for 0.3 s (all the frames that key causes), and how many frames that is.
  Over SSH those bytes are the bandwidth and the lag under key repeat.

Targets: first frame <= 1.0 s, key <= 50 ms, a cursor key < 2 KB in one frame. Saves go
to a temporary SKIRMISH_DATA_DIR.
Run from the repository root: `.venv/bin/python -m tests.benchmarks.bench_tui [--quick]`;
`--skirmish EXE` times another build (e.g. a wrapper running an older checkout).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import pty
import select
import shutil
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from pathlib import Path

SYNC_QUERY = b"\x1b[?2026$p"
SYNC_REPLY = b"\x1b[?2026;2$y"
SYNC_END = b"\x1b[?2026l"
DATA_DIR = tempfile.mkdtemp(prefix="skirmish-bench-")
EXE: list[str] = []


class App:
    def __init__(self, argv: list[str], width: int = 80, height: int = 24) -> None:
        self.t0 = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:
            env = dict(os.environ, TERM="xterm-256color", COLORTERM="truecolor")
            env.setdefault("SKIRMISH_DATA_DIR", DATA_DIR)
            env.pop("NO_COLOR", None)
            # as installed: from bytecode caches (written by the first launch if missing), not
            # compiled from source at every start
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            os.execve(argv[0], argv, env)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        self.buffer = b""

    def read(self, timeout: float) -> bytes:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return b""
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:
            return b""
        if SYNC_QUERY in chunk:
            os.write(self.fd, SYNC_REPLY)
        self.buffer += chunk
        return chunk

    def until(self, done: Callable[[bytes], bool], timeout: float = 10.0) -> float:
        """Read until done(buffer) is true; the time it became true (perf_counter)."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            self.read(0.05)
            if done(self.buffer):
                return time.perf_counter()
        raise TimeoutError(f"gave up waiting; last output: {self.buffer[-400:]!r}")

    def drain(self, quiet: float = 0.15) -> None:
        while self.read(quiet):
            pass

    def key(self, data: bytes) -> float:
        """Write a key; seconds until the end of the next frame."""
        self.buffer = b""
        start = time.perf_counter()
        os.write(self.fd, data)
        end = self.until(lambda b: SYNC_END in b, timeout=5.0)
        return end - start

    def close(self) -> None:
        """SIGTERM, reading what the app still writes until it is gone: an app the AI plays
        on has frames to write, and blocked on a full terminal it could never exit. SIGKILL
        if it is not gone in 10 s."""
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGTERM)
        deadline = time.perf_counter() + 10.0
        try:
            while os.waitpid(self.pid, os.WNOHANG) == (0, 0):
                if time.perf_counter() > deadline:
                    os.kill(self.pid, signal.SIGKILL)
                    os.waitpid(self.pid, 0)
                    break
                if select.select([self.fd], [], [], 0.05)[0]:
                    with contextlib.suppress(OSError):
                        os.read(self.fd, 65536)
        except ChildProcessError:
            pass
        os.close(self.fd)


def command(*args: str) -> list[str]:
    if EXE:
        return [*EXE, *args]
    exe = Path(sys.executable).parent / "skirmish"
    found = str(exe) if exe.exists() else shutil.which("skirmish")
    if not found:
        raise SystemExit("the skirmish command is not installed (pip install -e .)")
    return [found, *args]


PLAY = ("play", "default", "--seed", "1", "--control", "monsters=player")
AI_FIRST = (  # seed 1: the monsters win initiative in both
    ("play", "default", "--seed", "1"),
    ("play", "battle", "--seed", "1"),
)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_once() -> tuple[float, float]:
    """`skirmish`: (seconds to the start screen's first frame, to the list filled in)."""
    app = App(command())

    def framed(b: bytes) -> bool:
        return b"SKIRMISH" in b and b"palette" in b and SYNC_END in b[b.rfind(b"palette") :]

    first = app.until(framed)

    def listed(b: bytes) -> bool:
        at = b.rfind(b"default ")
        return at >= 0 and SYNC_END in b[at:]

    filled = app.until(listed)
    app.close()
    return first - app.t0, filled - app.t0


def launch_once() -> tuple[float, float, App]:
    app = App(command(*PLAY))

    def started(b: bytes) -> bool:
        tail = b[b.rfind(b"Your turn") :] if b"Your turn" in b else b""
        return b"palette" in b and bool(tail) and SYNC_END in tail

    end = app.until(started)
    return end - app.t0, cpu_seconds(app.pid), app


def ai_first_once(argv: tuple[str, ...]) -> tuple[float, float]:
    """(seconds to the first frame of a fight the AI opens, CPU seconds used by then)."""
    app = App(command(*argv))

    def started(b: bytes) -> bool:
        at = b.find(b"the AI plays")
        return at >= 0 and b"palette" in b and SYNC_END in b[at:]

    end = app.until(started, timeout=20.0)
    cpu = cpu_seconds(app.pid)
    app.close()
    return end - app.t0, cpu


def report_ai_first(launches: int) -> None:
    for argv in AI_FIRST:
        runs = [ai_first_once(argv) for _ in range(launches)]
        walls = [w for w, _ in runs]
        print(
            f"`skirmish {' '.join(argv)}` (the AI moves first) to the fight's first frame: "
            f"median {statistics.median(walls):.3f} s, max {max(walls):.3f} s over {launches} "
            f"launches (target <= 1.0 s); CPU used by then: median "
            f"{statistics.median(c for _, c in runs):.2f} s"
        )


def bytes_per_key(app: App, keys: int) -> tuple[list[int], list[int]]:
    """(bytes, frames) the app writes for each of `keys` cursor keys (`l`/`h` alternately),
    each counted until the app has been quiet for 0.3 s. The app is first let go quiet for a
    whole second, so that the last of the start-up frames is not counted as the first key's."""
    app.drain(1.0)
    sizes: list[int] = []
    frames: list[int] = []
    for i in range(keys):
        app.buffer = b""
        os.write(app.fd, b"l" if i % 2 == 0 else b"h")
        app.until(lambda b: SYNC_END in b, timeout=5.0)
        app.drain(0.3)
        sizes.append(len(app.buffer))
        frames.append(app.buffer.count(SYNC_END))
    return sizes, frames


def report_bytes(sizes: list[int], frames: list[int]) -> None:
    print(
        f"bytes per cursor key: median {statistics.median(sizes):.0f}, max {max(sizes)}, "
        f"first {sizes[0]} over {len(sizes)} keys (target < 2048); frames per key: "
        f"median {statistics.median(frames):.0f}, max {max(frames)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (< 60 s)")
    parser.add_argument("--skirmish", default=None, metavar="EXE", help="the command to time")
    parser.add_argument(
        "--bytes-only", action="store_true", help="only the bytes per key press (< 15 s)"
    )
    parser.add_argument(
        "--ai-first-only", action="store_true", help="only the fights the AI opens (< 30 s)"
    )
    args = parser.parse_args()
    if args.skirmish:
        EXE.append(args.skirmish)
    if args.ai_first_only:
        report_ai_first(3 if args.quick else 10)
        print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        return
    if args.bytes_only:
        _, _, one = launch_once()
        report_bytes(*bytes_per_key(one, 10 if args.quick else 30))
        one.close()
        return
    launches = 3 if args.quick else 10
    keys = 40 if args.quick else 200
    firsts: list[float] = []
    lists: list[float] = []
    for _ in range(launches):
        first, filled = start_once()
        firsts.append(first)
        lists.append(filled)
    print(
        f"`skirmish` to the start screen's first frame: median {statistics.median(firsts):.3f} s, "
        f"max {max(firsts):.3f} s; to the encounter list: median {statistics.median(lists):.3f} s, "
        f"max {max(lists):.3f} s over {launches} launches"
    )
    times: list[float] = []
    cpu: list[float] = []
    app: App | None = None
    for i in range(launches):
        t, c, app = launch_once()
        times.append(t)
        cpu.append(c)
        if i < launches - 1:
            app.close()
    assert app is not None
    app.drain()
    sizes, frames = bytes_per_key(app, 10 if args.quick else 30)
    lat: list[float] = []
    for i in range(keys):
        lat.append(app.key(b"l" if i % 2 == 0 else b"h"))
        app.drain(0.02)
    app.close()
    ms = [x * 1000 for x in lat]
    print(
        "`skirmish play default --control monsters=player` (no AI turn) to the fight's first"
        " full frame: "
        f"median {statistics.median(times):.3f} s, "
        f"max {max(times):.3f} s over {launches} launches (target <= 1.0 s); "
        f"CPU used by then: median {statistics.median(cpu):.2f} s"
    )
    report_ai_first(launches)
    p95 = sorted(ms)[int(len(ms) * 0.95) - 1]
    print(
        f"key press to updated frame: median {statistics.median(ms):.1f} ms, "
        f"p95 {p95:.1f} ms, max {max(ms):.1f} ms over {keys} keys (target <= 50 ms)"
    )
    report_bytes(sizes, frames)
    print(
        f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs "
        "(other work on the machine stretches the wall times)"
    )


if __name__ == "__main__":
    main()
