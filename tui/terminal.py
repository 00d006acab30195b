"""The terminal is given back as it was on every way out of the app, signals included.

Textual restores the terminal when the app exits (leaves the alternate screen, shows the
cursor, turns raw mode and mouse reporting off), but SIGTERM and SIGHUP (an SSH connection
dropping, a `kill`) would end the process on the spot and leave the terminal on the
alternate screen with a hidden cursor, in raw mode. `guarded(app)` turns either signal into
an orderly exit (`app.exit` with status 128 + the signal, so the fight's screen closes its
save as on a quit), and keeps a watchdog: if the app has not finished a few seconds later (a
terminal that no longer reads, a stuck worker), or on a second signal, it restores the
terminal itself and ends the process. The save is safe either way: every record is on disk
before the screen shows it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

try:
    import termios
except ImportError:  # pragma: no cover (Windows)
    termios = None  # type: ignore[assignment]

SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
GRACE_S = 4.0
"""How long an orderly exit may take after a signal before the watchdog forces one."""
RESTORE = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"  # mouse reporting off
    b"\x1b[?2004l\x1b[?1004l"  # bracketed paste, focus events off
    b"\x1b[<u"  # the kitty keyboard protocol off
    b"\x1b[0m\x1b[?1049l\x1b[?25h"  # attributes off, main screen, cursor shown
)


class _Guard:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.signalled: int | None = None
        self.fd = _tty_fd()
        self.attrs = _get_attrs(self.fd)

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if self.signalled is not None:  # a second signal: don't wait any longer
            self.force(signum)
        self.signalled = signum
        loop = getattr(self.app, "_loop", None)
        if loop is None:  # the app isn't running (yet, or any more): the terminal is as it was
            raise SystemExit(128 + signum)
        with contextlib.suppress(RuntimeError):  # the loop closed in between
            loop.call_soon_threadsafe(self.app.exit, None, 128 + signum)
        watchdog = threading.Timer(GRACE_S, self.force, (signum,))
        watchdog.daemon = True
        watchdog.start()

    def restore(self) -> None:
        """Put the terminal back: its modes as before the app, the main screen, the cursor."""
        if self.fd is None:
            return
        if self.attrs is not None and termios is not None:
            with contextlib.suppress(OSError, termios.error):
                termios.tcsetattr(self.fd, termios.TCSANOW, self.attrs)
        with contextlib.suppress(OSError):
            os.write(self.fd, RESTORE)

    def force(self, signum: int) -> None:
        self.restore()
        os._exit(128 + signum)


def _tty_fd() -> int | None:
    for stream in (sys.__stderr__, sys.__stdout__, sys.__stdin__):  # Textual draws on stderr
        try:
            if stream is not None and stream.isatty():
                return stream.fileno()
        except (OSError, ValueError):
            continue
    return None


def _get_attrs(fd: int | None) -> Any:
    if fd is None or termios is None:
        return None
    try:
        return termios.tcgetattr(fd)
    except (OSError, termios.error):
        return None


@contextlib.contextmanager
def guarded(app: Any) -> Iterator[None]:
    """Run the app inside this: SIGTERM and SIGHUP end it in order (see the module doc).
    Only the main thread can set signal handlers; elsewhere (tests) this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    guard = _Guard(app)
    before = {sig: signal.getsignal(sig) for sig in SIGNALS}
    for sig in SIGNALS:
        signal.signal(sig, guard.handle)
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
