"""App kill soak: SIGKILL the real app at random moments, resume it each time, lose nothing.

Like `soak_kill.py`, but what dies is the installed `skirmish` app, in a pseudo-terminal of
80x24 (pty.fork, TERM=xterm-256color): `skirmish play default --control party=ai --seed S
--pace 0` (watch mode: both sides AI, no pause between actions), then after each kill
`skirmish resume --latest` (each fight has its own SKIRMISH_DATA_DIR, so "latest" is it).

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


def run_app(argv: list[str], data: Path, rng: random.Random, kill: bool, before: int) -> Run:
    """Run the app in a pty; with `kill`, SIGKILL it at a random moment."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: become the app
        env = dict(os.environ, TERM="xterm-256color", SKIRMISH_DATA_DIR=str(data))
        env.pop("NO_COLOR", None)
        try:
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", HEIGHT, WIDTH, 0, 0))
    screen = Screen()
    run = Run()
    mode = rng.random()
    deadline = None
    target = None
    if kill:
        if mode < 0.15:  # during start-up, the save's creation or the resume's replay
            deadline = time.monotonic() + rng.uniform(0.0, 1.2)
        else:
            target = before + rng.randint(1, 60)
    last_byte = time.monotonic()
    quitting = False

    def pump(timeout: float) -> bool:
        nonlocal last_byte
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return False
        if not chunk:
            return False
        last_byte = time.monotonic()
        if b"\x1b[?2026$p" in chunk:  # answer Textual's query for synchronized output
            os.write(fd, b"\x1b[?2026;2$y")
        screen.feed(chunk)
        m = SAVED.search(screen.line(0))
        if m:
            run.shown = max(run.shown, int(m.group(1)))
        return True

    alive = True
    while alive:
        alive = pump(0.01)
        now = time.monotonic()
        if kill and not run.killed and not run.ended:
            hit = (deadline is not None and now >= deadline) or (
                target is not None and run.shown >= target
            )
            if hit:
                if target is not None:
                    time.sleep(rng.choice([0.0, 0.0, rng.uniform(0.0, 0.02)]))
                os.kill(pid, signal.SIGKILL)
                run.killed = True
        text = screen.text()
        if not quitting and ("Enter: play again" in text or "Winner:" in text):
            run.ended = True
            quitting = True
            time.sleep(0.2)
            os.write(fd, b"q")
        if now - last_byte > HANG and not run.killed:
            os.kill(pid, signal.SIGKILL)
            run.hung = True
    while pump(0.0):  # what the app wrote before it died is on the screen too
        pass
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    run.code = os.waitstatus_to_exitcode(status)
    run.screen = screen.text()
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
    t0 = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="skirmish-app-soak-"))
    seed = args.seed * 1000
    while kills < args.kills:
        seed += 1
        fights += 1
        ref = reference(seed)
        data = tmp / f"fight-{seed}"
        play = [exe, "play", "default", "--control", "party=ai", "--seed", str(seed)]
        play += ["--pace", "0"]
        shown = 0
        seen: list[Record] = []
        here = 0
        first = True
        while True:
            kill = kills < args.kills and here < args.per_fight
            argv = play if first or the_save(data) is None else [exe, "resume", "--latest"]
            run = run_app(argv, data, rng, kill, shown)
            first = False
            shown = max(shown, run.shown)
            if run.hung:
                mismatches.append(f"seed {seed}: the app stalled; its screen:\n{run.screen}")
                break
            if not run.killed:
                if not run.ended or run.code != 0:
                    mismatches.append(
                        f"seed {seed}: the app stopped (status {run.code}) without the end "
                        f"screen:\n{run.screen}"
                    )
                break
            kills += 1
            here += 1
            if run.shown == 0:
                STATS["killed before the first saved record was shown"] += 1
            resumed = argv[1] == "resume"
            mismatches += [f"seed {seed}: {m}" for m in check_save(data, shown, seen, ref, resumed)]
            path = the_save(data)
            if path is not None and read_save(path).finished is not None:
                STATS["killed after the end was saved, before the end screen"] += 1
                break
        if run.hung:
            continue
        path = the_save(data)
        final = read_save(path) if path is not None else None
        if final is None or final.finished is None:
            mismatches.append(f"seed {seed}: the finished fight isn't marked finished")
        else:
            if not final.encounter().over:
                mismatches.append(f"seed {seed}: marked finished, but its replay isn't over")
            if not all(same_record(a, b) for a, b in zip(seen, final.records, strict=False)):
                mismatches.append(f"seed {seed}: records saved before the end were lost")
            if len(final.records) == len(ref.records) and all(
                same_record(a, b) for a, b in zip(final.records, ref.records, strict=True)
            ):
                STATS["fights that ended exactly as the uninterrupted run"] += 1
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
