"""Issue 17 end to end: the installed `skirmish` in a pseudo-terminal of 80x24, every byte it
writes kept. With hostile names (tests/tui/fixtures/hostile.yaml: markup, a screen clear and a
window title, OSC 8 links, C0/C1 controls, bidi overrides, zero-width and wide characters) no
control sequence but the app's own reaches the terminal, and neither do raw controls, bidi or
zero-width characters: in a fight (the encounter screen, help, the power picker, the confirm
dialog, table dice entry), in the replay viewer, and in the plain-text outputs (`export
--format text`, the `resume` listing with a hostile file name in it).

SIGTERM and SIGHUP (an SSH connection dropping) end the app in order: exit status 128 + the
signal, the terminal left on the main screen with the cursor shown and its modes (raw mode
off) as before, and the save whole."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.e2e import FIXTURE, skirmish_command
from tests.support.hostile import LONG, NAMES, forbidden_in
from tests.support.pty import ENTER, ESCAPE, PtyApp

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.timeout(180)]
HOSTILE = str(Path(__file__).parent / "fixtures" / "hostile.yaml")
LEAVE = (b"\x1b[?1049l", b"\x1b[?25h")
"""Leave the alternate screen, show the cursor."""


def _env(tmp_path: Path) -> dict[str, str]:
    return {"SKIRMISH_DATA_DIR": str(tmp_path / "data")}


def _dice_then(app: PtyApp, *texts: str, since: int = 0, timeout: float = 30.0) -> None:
    """Answer every die the app asks for with 1 (a miss: no damage roll) until `texts`
    appear in the output written after byte `since`."""
    deadline = time.monotonic() + timeout
    seen = max(0, len(app.text()) - len(app.text(since)))
    while time.monotonic() < deadline:
        got = app.text()
        if any(t in got[seen:] for t in texts):
            return
        at = got.find("Roll a die", seen)
        if at >= 0:
            seen = at + 1
            time.sleep(0.3)
            app.keys("1", ENTER)
            continue
        time.sleep(0.1)
    raise AssertionError(f"{texts!r} never appeared:\n{app.text()[-1500:]}")


def _saves(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "data" / "saves").glob("*.save.jsonl"))


def test_hostile_names_raw_bytes_in_a_fight_and_its_replay(tmp_path: Path) -> None:
    exe = skirmish_command()
    cmd = [exe, "play", HOSTILE, "--seed", "5", "--pace", "0.05", "--manual-dice", "party"]
    app = PtyApp(cmd, _env(tmp_path))
    try:
        _dice_then(app, "Your turn")
        start = len(app.data())
        app.keys("?")
        app.wait_for("Keys", since=start)
        app.keys(ESCAPE)
        mark = len(app.data())
        app.keys("p")
        app.wait_for("use which power", since=mark)
        app.keys(ESCAPE)
        mark = len(app.data())
        app.keys("a")
        app.wait_for("to hit", since=mark)
        app.keys(ENTER)
        app.wait_for("Use it", since=mark)
        app.keys(ENTER)
        _dice_then(app, "Your turn", since=mark)
        mark = len(app.data())
        app.keys("q")
        app.wait_for("Leave this fight", since=mark)
        app.keys(ENTER)  # dialogs answer Enter/Esc only (issue 12 item 16)
        assert app.wait() == 0
        data = app.data()
    finally:
        app.close()
    assert forbidden_in(data) == []
    assert all(seq in data[-300:] for seq in LEAVE)
    save = _saves(tmp_path)[0]

    replay = PtyApp([exe, "replay", str(save)], _env(tmp_path))
    try:
        replay.wait_for("REPLAY")
        for key in ("n", "n", "n", "\t", "?"):
            replay.keys(key)
        replay.keys(ESCAPE, "q")
        assert replay.wait() == 0
        data = replay.data()
    finally:
        replay.close()
    assert forbidden_in(data) == []

    start_app = PtyApp([exe], _env(tmp_path))  # the start screen offers the unfinished fight
    try:
        start_app.wait_for("Resume")
        start_app.keys("?")
        start_app.keys(ESCAPE, "q")
        assert start_app.wait() == 0
        data = start_app.data()
    finally:
        start_app.close()
    assert forbidden_in(data) == []


def test_hostile_names_raw_bytes_of_the_end_screen(tmp_path: Path) -> None:
    """Both sides played by the AI to the end: the end screen's table of names."""
    cmd = [skirmish_command(), "play", HOSTILE, "--seed", "5", "--pace", "0"]
    app = PtyApp([*cmd, "--control", "party=ai"], _env(tmp_path))
    try:
        app.wait_for("Winner", "Nobody wins", timeout=60)
        app.keys("q")
        assert app.wait() == 0
        data = app.data()
    finally:
        app.close()
    assert forbidden_in(data) == []


def _hostile_log(tmp_path: Path) -> Path:
    """A combat log of the duel (`skirmish sim --log-dir`) whose names were made hostile: a
    log carries names the content format would refuse (escapes, controls, bidi, 200 chars)."""
    import os

    out = tmp_path / "logs"
    subprocess.run(
        [skirmish_command(), "sim", FIXTURE, "--runs", "1", "--log-dir", str(out)],
        check=True,
        capture_output=True,
        env={**os.environ, **_env(tmp_path)},
        timeout=60,
    )
    log = next(out.glob("*.jsonl"))
    lines = log.read_text().splitlines()
    start = json.loads(lines[0])
    names = list(NAMES.values())
    for i, c in enumerate(start["combatants"]):
        c["name"] = names[i % len(names)] if i else LONG + NAMES["escapes"]
    start["map"]["name"] = NAMES["osc8"] + NAMES["rtl"]
    lines[0] = json.dumps(start)
    hostile = tmp_path / "hostile.log.jsonl"
    hostile.write_text("\n".join(lines) + "\n")
    return hostile


def test_hostile_names_raw_bytes_replaying_a_combat_log(tmp_path: Path) -> None:
    """Escapes, OSC 8, C0/C1, bidi, zero-width and 200-character names in a combat log:
    `skirmish replay` draws every stop without writing any of them raw."""
    app = PtyApp([skirmish_command(), "replay", str(_hostile_log(tmp_path))], _env(tmp_path))
    try:
        app.wait_for("REPLAY")
        for key in ("n", "n", "n", "n", "\t", "\t", "\x1b[F", "?"):
            app.keys(key)
        app.keys(ESCAPE, "q")
        assert app.wait() == 0
        data = app.data()
    finally:
        app.close()
    assert forbidden_in(data) == []
    assert "␛[2J␛]0;pwned␇" in app.text()  # there, as pictures


def test_hostile_names_plain_text_outputs(tmp_path: Path) -> None:
    """`export --format text` and the `resume` listing (with a damaged save whose file name
    is an escape sequence) print nothing a terminal would obey."""
    exe = skirmish_command()
    env = {**_env(tmp_path), "TERM": "dumb"}
    sim = subprocess.run(
        [exe, "sim", HOSTILE, "--runs", "1", "--log-dir", str(tmp_path / "logs")],
        capture_output=True,
        env={**__import__("os").environ, **env},
        timeout=60,
    )
    assert sim.returncode == 0, sim.stderr
    app = PtyApp([exe, "play", HOSTILE, "--seed", "5", "--pace", "0"], _env(tmp_path))
    try:
        app.wait_for("Your turn", timeout=30)
        app.keys("e")
        time.sleep(1.0)
        app.signal(signal.SIGTERM)
        app.wait()
    finally:
        app.close()
    save = _saves(tmp_path)[0]
    bad = save.parent / "\x1b]0;pwned\x07\u202e.save.jsonl"
    bad.write_bytes(b'{"crc":"00000000","v":"\x1b[2J"}\n')
    environ = {**__import__("os").environ, **env}
    for argv in ([exe, "export", str(save), "--format", "text"], [exe, "resume"]):
        out = subprocess.run(argv, capture_output=True, env=environ, timeout=60)
        assert out.returncode == 0, out.stderr
        assert forbidden_in(out.stdout) == [], argv
        assert forbidden_in(out.stderr) == [], argv
    listing = subprocess.run([exe, "resume"], capture_output=True, env=environ, timeout=60)
    assert "could not be read" in listing.stdout.decode()
    assert "pwned" in listing.stdout.decode()  # the bad file is listed, its name made visible


def _fight_then_signal(tmp_path: Path, signum: int, *extra: str) -> tuple[PtyApp, int, int]:
    """Start the duel, wait for the player's turn (the terminal in raw mode), send `signum`;
    the app, its exit status and where in its output the signal was sent."""
    cmd = [skirmish_command(), "play", FIXTURE, "--seed", "5", "--pace", "0.05", *extra]
    app = PtyApp(cmd, _env(tmp_path))
    _dice_then(app, "Your turn")
    if extra:  # table dice: attack, and stop at the dialog that waits for the d20
        mark = len(app.data())
        app.keys("a")
        app.wait_for("to hit", since=mark)
        app.keys(ENTER)
        app.wait_for("Use it", since=mark)
        app.keys(ENTER)
        app.wait_for("Roll a die", since=mark)
    time.sleep(0.3)
    import termios

    assert not termios.tcgetattr(app.slave)[3] & termios.ICANON, "not in raw mode"
    sent = len(app.data())
    app.signal(signum)
    return app, app.wait(timeout=15), sent


def _save_whole(tmp_path: Path) -> None:
    save = _saves(tmp_path)[0]
    out = subprocess.run(
        [skirmish_command(), "export", str(save)],
        capture_output=True,
        env={**__import__("os").environ, **_env(tmp_path)},
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    events = [json.loads(line) for line in out.stdout.splitlines()]
    assert events[0]["type"] == "encounter_start"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_signal_restores_terminal_and_keeps_the_save(tmp_path: Path, signum: int) -> None:
    app, code, sent = _fight_then_signal(tmp_path, signum)
    try:
        after = app.data()[sent:]
        assert code == 128 + signum
        assert all(seq in after for seq in LEAVE), after[-200:]
        assert app.modes_after() == app.modes_before  # raw mode off, echo on
    finally:
        app.close()
    _save_whole(tmp_path)


def test_sigterm_while_a_dialog_waits_for_a_die(tmp_path: Path) -> None:
    """The worker waits for a typed die (table mode): SIGTERM still ends the app in order."""
    app, code, sent = _fight_then_signal(tmp_path, signal.SIGTERM, "--manual-dice", "party")
    try:
        assert code == 128 + signal.SIGTERM
        assert all(seq in app.data()[sent:] for seq in LEAVE)
        assert app.modes_after() == app.modes_before
    finally:
        app.close()
    _save_whole(tmp_path)


CRASHING_APP = """
import sys
from pathlib import Path

import tui.app
from tui.app import SkirmishApp
from tui.launch import _run
from tui.options import GameOptions

class Crashing(SkirmishApp):
    CSS_PATH = str(Path(tui.app.__file__).with_name("skirmish.tcss"))

    def on_mount(self) -> None:
        raise RuntimeError("a bug")

sys.exit(_run(Crashing(GameOptions())))
"""


def test_app_crash_exits_nonzero_and_restores_terminal(tmp_path: Path) -> None:
    """A crash inside the app (it exited 0 after a MarkupError) ends with a non-zero status."""
    import sys

    script = tmp_path / "crashing.py"  # a file: Textual reads the app class's source
    script.write_text(CRASHING_APP)
    app = PtyApp([sys.executable, str(script)], _env(tmp_path))
    try:
        code = app.wait(timeout=30)
        assert code == 1
        assert "a bug" in app.text()
        assert all(seq in app.data() for seq in LEAVE)
        assert app.modes_after() == app.modes_before
    finally:
        app.close()


STUCK_APP = """
import sys
import termios
import time

from tui import terminal

terminal.GRACE_S = 0.5


class Loop:
    def call_soon_threadsafe(self, *args: object) -> None:
        pass  # an app that never gets to exit


class StuckApp:
    _loop = Loop()

    def exit(self, *args: object) -> None:
        pass


fd = sys.__stderr__.fileno()
with terminal.guarded(StuckApp()):
    attrs = termios.tcgetattr(fd)
    attrs[3] &= ~(termios.ICANON | termios.ECHO)
    termios.tcsetattr(fd, termios.TCSANOW, attrs)  # raw-ish, as an app would leave it
    sys.stderr.write("\\x1b[?1049h\\x1b[?25l" + "stuck\\n")
    sys.stderr.flush()
    time.sleep(30)
"""


def test_sigterm_to_a_stuck_app_watchdog_restores_terminal(tmp_path: Path) -> None:
    """If the app can't finish after a signal (a stuck worker, a terminal that no longer
    reads), the watchdog puts the terminal back itself and ends the process."""
    import sys

    script = tmp_path / "stuck.py"
    script.write_text(STUCK_APP)
    app = PtyApp([sys.executable, str(script)], _env(tmp_path))
    try:
        app.wait_for("stuck")
        sent = len(app.data())
        app.signal(signal.SIGTERM)
        assert app.wait(timeout=10) == 128 + signal.SIGTERM
        assert all(seq in app.data()[sent:] for seq in LEAVE)
        assert app.modes_after() == app.modes_before
    finally:
        app.close()


def test_sighup_after_the_connection_dropped_exits_and_keeps_the_save(tmp_path: Path) -> None:
    """An SSH connection drops: nobody reads the terminal any more (the pty's master side is
    closed), then SIGHUP. The app still ends (status 129) instead of hanging on its writes."""
    import os

    cmd = [skirmish_command(), "play", FIXTURE, "--seed", "5", "--pace", "0.05"]
    app = PtyApp(cmd, _env(tmp_path))
    try:
        app.wait_for("Your turn", timeout=30)
        os.close(app.master)
        app.signal(signal.SIGHUP)
        assert app.proc.wait(15) == 128 + signal.SIGHUP
    finally:
        app.close()
    _save_whole(tmp_path)
