"""App kill soak: SIGKILL the real app at random moments, resume it each time, lose nothing.

Like `soak_kill.py`, but what dies is the installed `skirmish` app, in a pseudo-terminal of
80x24 (pty.fork, TERM=xterm-256color): `skirmish play default --control party=ai --seed S
--pace 0` (watch mode: both sides AI, no pause between actions), then after each kill
`skirmish resume --latest` (each fight has its own SKIRMISH_DATA_DIR, so "latest" is it).

The app is killed after a delay drawn uniformly over a whole run of it (start-up, the
resume's replay, the AI thinking, drawing, writing), not just after a `saved N` appears.
What the screen showed is measured on the screen: the status line says `saved N`, the count
of the fight's records that are durable in the save (the app shows a result only after its
record is fsynced). This script feeds everything the app wrote to the terminal, including
what was still in the pty's buffer when it died, through a small terminal emulator and keeps
the largest N the status line showed. After each kill it checks:

1. the save loads (a torn last line may be dropped; nothing else may be wrong);
2. its state equals a fresh replay of its records (content loaded from disk, not from the
   save, replayed with `Encounter.replay`);
3. it holds at least the N records the screen showed, and every record an earlier check saw
   is still there, unchanged (no durable record lost or rewritten by a resume);
and when the fight ends (the end screen shows), that the save is marked finished, replays to
a finished fight, and still holds every record seen before. Then it starts the next seed.

It also compares the save with an uninterrupted run of the same fight (the app's controller,
in-process), and counts, without calling it a mismatch, how often the resumed fight went on
differently: the tactical AI keeps a memory across actions (its plan for the turn, how many
turns each monster went without attacking), which a resumed app starts without, so after a
resume the AI may choose differently. Until the kill point the records must be the same.

    python tests/soak/soak_app_kill.py --kills 100 --seed 1     (prints "N kills, M mismatches")
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import pty
import random
import re
import select
import shutil
import signal
import struct
import sys
import tempfile
import termios
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.content.loader import load_encounter
from engine.dice import ScriptedDice
from engine.encounter import Encounter, Record
from engine.save import SaveError, read_save, same_record
from tests.support.e2e import skirmish_command
from tests.support.fights import snapshot_digest

ROOT = Path(__file__).resolve().parents[2]
WIDTH, HEIGHT = 80, 24
SAVED = re.compile(r"saved (\d+)")
STATS: Counter[str] = Counter()
HANG = 60.0
"""Seconds without a byte from the app before it counts as hung."""


def game_digest(enc: Encounter) -> str:
    """The state without the log's length: a fight resumed mid-turn has a fresh AI, which
    explains its plan again (one more `decision` event), with the same actions and dice."""
    snap = enc.snapshot()
    snap.pop("log_length", None)
    return hashlib.sha256(json.dumps(snap, sort_keys=True, default=str).encode()).hexdigest()


def skirmish(given: str | None = None) -> str:
    if given:
        return given
    try:
        return skirmish_command()
    except FileNotFoundError as exc:
        raise SystemExit(str(exc)) from None


class Screen:
    """Just enough of a terminal to read what Textual draws: cursor moves (CSI row;col H),
    text, CR/LF; colours, modes and OSC sequences are skipped."""

    CSI = re.compile(rb"\x1b\[([0-9;?<=>]*)([ -/]*)([@-~])")
    OSC = re.compile(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")

    def __init__(self) -> None:
        self.rows = [[" "] * WIDTH for _ in range(HEIGHT)]
        self.x = self.y = 0
        self.pending = b""

    def feed(self, data: bytes) -> None:
        data = self.pending + data
        i, n = 0, len(data)
        text = bytearray()
        while i < n:
            b = data[i]
            if b == 0x1B:
                self._text(text)
                m = self.CSI.match(data, i) or self.OSC.match(data, i)
                if m is None:
                    if n - i < 64 and (data.find(b"\x07", i) < 0):  # cut mid-sequence
                        self.pending = data[i:]
                        return
                    i += 2
                    continue
                if m.re is self.CSI and m.group(3) == b"H":
                    parts = [p for p in m.group(1).split(b";") if p.isdigit()]
                    row = int(parts[0]) if parts else 1
                    col = int(parts[1]) if len(parts) > 1 else 1
                    self.y, self.x = row - 1, col - 1
                i = m.end()
            elif b == 0x0D:
                self._text(text)
                self.x = 0
                i += 1
            elif b == 0x0A:
                self._text(text)
                self.y = min(HEIGHT - 1, self.y + 1)
                i += 1
            elif b < 0x20:
                i += 1
            else:
                text.append(b)
                i += 1
        self._text(text)
        self.pending = b""

    def _text(self, text: bytearray) -> None:
        if not text:
            return
        try:
            chars = text.decode("utf-8")
        except UnicodeDecodeError:
            chars = text.decode("utf-8", "replace")
        for ch in chars:
            if 0 <= self.y < HEIGHT and 0 <= self.x < WIDTH:
                self.rows[self.y][self.x] = ch
            self.x += 1
        text.clear()

    def line(self, y: int) -> str:
        return "".join(self.rows[y])

    def text(self) -> str:
        return "\n".join(self.line(y) for y in range(HEIGHT))


@dataclass
class Run:
    shown: int = 0
    """The largest `saved N` the status line showed."""
    killed: bool = False
    ended: bool = False
    """The end screen was shown (and the app was then quit with q)."""
    code: int | None = None
    screen: str = ""
    hung: bool = False
    """Nothing came from the app for HANG seconds (it was killed, and the fight abandoned)."""


def _spawn(argv: list[str], data: Path) -> tuple[int, int]:
    """The app in a new pty of WIDTH x HEIGHT: (pid, the pty's fd)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: become the app
        env = dict(os.environ, TERM="xterm-256color", SKIRMISH_DATA_DIR=str(data))
        env.pop("NO_COLOR", None)
        try:
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", HEIGHT, WIDTH, 0, 0))
    return pid, fd


class _Terminal:
    """The parent's end of the pty: reads what the app draws and keeps `run` up to date."""

    def __init__(self, fd: int, run: Run) -> None:
        self.fd = fd
        self.run = run
        self.screen = Screen()
        self.last_byte = time.monotonic()

    def pump(self, timeout: float) -> bool:
        """Read what is there (False once the app has gone)."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:
            return False
        if not chunk:
            return False
        self.last_byte = time.monotonic()
        if b"\x1b[?2026$p" in chunk:  # answer Textual's query for synchronized output
            os.write(self.fd, b"\x1b[?2026;2$y")
        self.screen.feed(chunk)
        m = SAVED.search(self.screen.line(0))
        if m:
            self.run.shown = max(self.run.shown, int(m.group(1)))
        return True


def run_app(argv: list[str], data: Path, kill_after: float | None) -> Run:
    """Run the app in a pty; with `kill_after`, SIGKILL it that many seconds after it started
    (a moment drawn over its whole life: start-up, replay, thinking, drawing, writing)."""
    pid, fd = _spawn(argv, data)
    run = Run()
    term = _Terminal(fd, run)
    deadline = None if kill_after is None else time.monotonic() + kill_after
    quitting = False
    while term.pump(0.01):
        now = time.monotonic()
        if deadline is not None and not run.killed and not run.ended and now >= deadline:
            os.kill(pid, signal.SIGKILL)
            run.killed = True
        text = term.screen.text()
        if not quitting and ("Enter: play again" in text or "Winner:" in text):
            run.ended = quitting = True
            time.sleep(0.2)
            os.write(fd, b"q")
        if now - term.last_byte > HANG and not run.killed:
            os.kill(pid, signal.SIGKILL)
            run.hung = True
    while term.pump(0.0):  # what the app wrote before it died is on the screen too
        pass
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    run.code = os.waitstatus_to_exitcode(status)
    run.screen = term.screen.text()
    if run.hung:
        run.killed = False
    elif run.killed and run.code != -signal.SIGKILL:
        run.killed = False  # it had exited by itself just before
    return run


@dataclass
class Reference:
    """The uninterrupted fight: its records and the state after each."""

    records: list[Record] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)


def reference(seed: int) -> Reference:
    """The same fight as the app plays it, in-process and uninterrupted (the app's own
    controller, with no screen)."""
    from tui.controller import Controller
    from tui.options import GameOptions

    loaded = load_encounter("default")
    options = GameOptions(source="default", seed=seed, pace=0.0, control={"party": "ai"})
    old = os.environ.get("SKIRMISH_DATA_DIR")
    os.environ["SKIRMISH_DATA_DIR"] = tempfile.mkdtemp(prefix="skirmish-ref-")
    try:
        ctl = Controller(loaded, options)
        ctl.run_start()
        ctl.close()
    finally:
        if old is None:
            del os.environ["SKIRMISH_DATA_DIR"]
        else:
            os.environ["SKIRMISH_DATA_DIR"] = old
    ref = Reference(list(ctl.enc.records))
    control = {c.id: c.control for c in ctl.enc.battle.combatants.values()}
    faces = [f for r in ref.records for f in r.faces]
    probe = Encounter.create(loaded, seed=seed, dice=ScriptedDice(faces), control=control)
    for rec in ref.records:  # one record at a time, as engine.history.trace does
        probe.battle.scripted_answers = list(rec.answers)
        if rec.action is None:
            probe.start()
        else:
            probe.apply(rec.action, rec.decision)
        ref.digests.append(game_digest(probe))
    return ref


def the_save(data: Path) -> Path | None:
    saves = sorted((data / "saves").glob("*.save.jsonl")) if (data / "saves").exists() else []
    if len(saves) > 1:
        raise RuntimeError(f"{len(saves)} saves for one fight in {data}")
    return saves[0] if saves else None


def check_save(
    data: Path, shown: int, seen: list[Record], ref: Reference, resumed: bool
) -> list[str]:
    """Points 1 to 3 of the module docstring, and the comparison with the uninterrupted run
    (a difference counts as a mismatch only if no resume came before it: `resumed` says
    whether the run just killed was one). `seen` (records checked before) is updated."""
    path = the_save(data)
    if path is None:
        return [] if shown == 0 else [f"{shown} records shown but no save in {data}"]
    try:
        save = read_save(path)
        enc = save.encounter()
    except SaveError as exc:
        return [f"unreadable save after a kill: {exc}"]
    if save.torn:
        STATS["torn last line dropped on load"] += 1
    recs = save.records
    problems = []
    h = save.header
    fresh = Encounter.replay(
        load_encounter(h.encounter), recs, seed=h.seed, ruleset=h.ruleset, control=h.control
    )
    if snapshot_digest(enc) != snapshot_digest(fresh):
        problems.append(f"{path.name}: its state differs from a fresh replay of its records")
    if len(recs) < shown:
        problems.append(f"{path.name}: the screen showed {shown} records, the save has {len(recs)}")
    if len(recs) > shown:
        STATS["records durable but not yet shown at the kill"] += 1
    if len(recs) < len(seen) or not all(
        same_record(a, b) for a, b in zip(seen, recs, strict=False)
    ):
        problems.append(f"{path.name}: records saved before were lost or changed")
    pairs = list(zip(recs, ref.records, strict=False))
    differ = next((i for i, (a, b) in enumerate(pairs) if not same_record(a, b)), None)
    if differ is not None:
        if resumed and differ >= len(seen):  # after the resume point: the AI's memory
            STATS["runs where the resumed AI chose differently from the uninterrupted one"] += 1
        elif not resumed:
            problems.append(f"{path.name}: record {differ} differs from the uninterrupted run's")
    elif recs and game_digest(enc) != ref.digests[len(recs) - 1]:
        problems.append(f"{path.name}: the same records but another state than the reference")
    seen[:] = recs
    return problems


@dataclass
class Fight:
    """One fight's soak: what was shown and seen so far, and what went wrong."""

    seed: int
    data: Path
    ref: Reference
    shown: int = 0
    seen: list[Record] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    hung: bool = False


def play_fight(fight: Fight, exe: str, rng: random.Random, kills: int, span: list[float]) -> int:
    """Kill the app at most `kills` times in this fight, resuming each time, then let it end;
    how many kills happened. `span[0]`: the longest a whole run took (the kill moments are
    drawn over it), updated by runs that ended by themselves."""
    play = [exe, "play", "default", "--control", "party=ai", "--seed", str(fight.seed)]
    play += ["--pace", "0"]
    done = 0
    first = True
    while True:
        argv = play if first or the_save(fight.data) is None else [exe, "resume", "--latest"]
        first = False
        started = time.monotonic()
        run = run_app(argv, fight.data, rng.uniform(0.0, span[0]) if done < kills else None)
        fight.shown = max(fight.shown, run.shown)
        if run.hung:
            fight.mismatches.append(f"the app stalled; its screen:\n{run.screen}")
            fight.hung = True
            return done
        if not run.killed:
            span[0] = max(span[0], time.monotonic() - started)
            if not run.ended or run.code != 0:
                fight.mismatches.append(
                    f"the app stopped (status {run.code}) without the end screen:\n{run.screen}"
                )
            return done
        done += 1
        STATS[
            "killed before the first saved record was shown" if run.shown == 0 else "killed in play"
        ] += 1
        resumed = argv[1] == "resume"
        fight.mismatches += check_save(fight.data, fight.shown, fight.seen, fight.ref, resumed)
        path = the_save(fight.data)
        if path is not None and read_save(path).finished is not None:
            STATS["killed after the end was saved, before the end screen"] += 1
            return done


def check_final(fight: Fight) -> None:
    """The finished fight: marked finished, replays to its end, kept every record seen."""
    path = the_save(fight.data)
    final = read_save(path) if path is not None else None
    if final is None or final.finished is None:
        fight.mismatches.append("the finished fight isn't marked finished")
        return
    if not final.encounter().over:
        fight.mismatches.append("marked finished, but its replay isn't over")
    if not all(same_record(a, b) for a, b in zip(fight.seen, final.records, strict=False)):
        fight.mismatches.append("records saved before the end were lost")
    ref = fight.ref.records
    if len(final.records) == len(ref) and all(
        same_record(a, b) for a, b in zip(final.records, ref, strict=True)
    ):
        STATS["fights that ended exactly as the uninterrupted run"] += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-fight", type=int, default=8, help="kills per fight at most")
    parser.add_argument("--keep", action="store_true", help="keep the saves (printed folder)")
    parser.add_argument("--skirmish", default=None, metavar="EXE", help="the app to run")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    exe = skirmish(args.skirmish)
    kills = fights = 0
    mismatches: list[str] = []
    span = [6.0]  # seconds a whole app run takes, at first a guess; grows with what is seen
    t0 = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="skirmish-app-soak-"))
    seed = args.seed * 1000
    while kills < args.kills:
        seed += 1
        fights += 1
        fight = Fight(seed, tmp / f"fight-{seed}", reference(seed))
        kills += play_fight(fight, exe, rng, min(args.per_fight, args.kills - kills), span)
        if not fight.hung:
            check_final(fight)
        mismatches += [f"seed {seed}: {m}" for m in fight.mismatches]
    for m in mismatches:
        print(m)
    for what, n in sorted(STATS.items()):
        print(f"  {n} x {what}")
    print(
        f"{kills} kills, {len(mismatches)} mismatches "
        f"({fights} fights, {time.perf_counter() - t0:.1f} s)"
    )
    if args.keep:
        print(f"saves kept in {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
