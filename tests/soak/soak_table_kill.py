"""SIGKILL a table's host again and again: no action a seat saw confirmed is ever lost.

A real `skirmish host` serves the app's duel (the monsters on the AI, no pause). The GM seat
plays the heroes: on each hero's turn an attack if one is in reach, else the end of the turn.
An action is confirmed when the seat has been sent the update that shows it; the update says
how many records the save holds. At a random moment (right after a confirmed action, or just
after sending one, or while the AI plays) the host is killed with SIGKILL and brought back
with `skirmish host --resume`; the GM re-joins and the fight must hold at least as many
records as were confirmed, with the same log lines up to the last confirmed one. A finished
fight starts a fresh table. At the end each finished table's save is exported and its log
checked by ../shared/conformance/check_log.py (an unfinished log lacks its encounter_end).

    python tests/soak/soak_table_kill.py --kills 100 --seed 1
    python tests/soak/soak_table_kill.py --quick          # 5 kills
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if str(Path(__file__).resolve().parents[2]) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.table import DUEL, HostProc, RawSeat, check_log_path, skirmish_command


class Gm:
    """The GM seat, remembering the log lines and the save count it was last sent."""

    def __init__(self, host: HostProc) -> None:
        self.seat = RawSeat(host.socket)
        got = self.seat.hello("gm")
        assert got["t"] == "welcome", got
        self.lines: list[list[Any]] = []
        self.saved = 0
        self.view: dict[str, Any] = {}
        self.idle = False

    def take(self, msg: dict[str, Any]) -> None:
        if msg["t"] == "update":
            if msg["reset"]:
                self.lines = []
            self.lines.extend(msg["lines"])
            self.saved = msg["saved"] or 0
            self.view = msg["view"]
            self.idle = False
        elif msg["t"] == "idle":
            self.idle = True

    def until_idle(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        self.idle = False
        while not self.idle:
            self.take(self.seat.recv(max(0.01, deadline - time.monotonic())))

    def act(self, rng: random.Random) -> dict[str, Any]:
        """One hero action; its JSON."""
        action: dict[str, Any] = {"action": "end_turn"}
        if self.view["actions"][0] and rng.random() < 0.8:
            self.seat.send("aim", mode="basic")
            while True:
                msg = self.seat.recv(10)
                self.take(msg)
                if msg["t"] in ("aimed", "refused"):
                    break
            if msg["t"] == "aimed" and msg.get("action"):
                action = msg["action"]
        self.seat.send("act", action=action)
        return action


def _start(work: Path, n: int, resume: bool) -> HostProc:
    args = [DUEL, "--seed", str(n), "--pace", "0", "--seat", "kara", "--seat", "brak"]
    return HostProc(work / f"table{n}", work / "data", args, resume=resume)


def soak(kills: int, seed: int, work: Path) -> dict[str, Any]:
    rng = random.Random(seed)
    table = 1
    host = _start(work, table, resume=False)
    saves: set[Path] = set()
    stats: dict[str, Any] = {"kills": 0, "confirmed": 0, "lost": 0, "tables": 1, "resumes": 0}
    try:
        while stats["kills"] < kills:
            gm = Gm(host)
            gm.until_idle()
            confirmed_saved, confirmed_lines = gm.saved, list(gm.lines)
            for _ in range(rng.randrange(1, 5)):
                if gm.view["over"]:
                    break
                gm.act(rng)
                gm.until_idle()
                stats["confirmed"] += 1
                confirmed_saved, confirmed_lines = gm.saved, list(gm.lines)
            if not gm.view["over"] and rng.random() < 0.5:
                gm.act(rng)  # in flight when the host dies: may or may not be kept
                time.sleep(rng.random() * 0.05)
            host.kill()
            gm.seat.close()
            stats["kills"] += 1
            host = _start(work, table, resume=True)
            stats["resumes"] += 1
            back = Gm(host)
            back.until_idle()
            kept = back.lines[: len(confirmed_lines)]
            if back.saved < confirmed_saved or kept != confirmed_lines:
                stats["lost"] += 1
            over = back.view["over"]
            back.seat.close()
            if over:
                saves.add(host.save())
                host.stop()
                table += 1
                stats["tables"] += 1
                host = _start(work, table, resume=False)
    finally:
        host.kill()
    stats["log_check"] = check_logs(sorted(saves), work)
    return stats


def check_logs(saves: list[Path], work: Path) -> str:
    """Export each save's combat log and run the conformance checker on them all."""
    if not saves:
        return "no fight finished"
    logs = []
    for i, save in enumerate(saves):
        out = work / f"log{i}.jsonl"
        subprocess.run(
            [skirmish_command(), "export", str(save), "--format", "jsonl", "-o", str(out)],
            check=True,
            capture_output=True,
            env={**os.environ, "SKIRMISH_DATA_DIR": str(work / "data")},
        )
        logs.append(str(out))
    checker = check_log_path()
    if checker is None:
        return "skipped (../shared/conformance/check_log.py not found)"
    got = subprocess.run([sys.executable, str(checker), *logs], capture_output=True, text=True)
    if got.returncode != 0:
        print(got.stdout, file=sys.stderr)
    return got.stdout.strip().splitlines()[-1] if got.stdout.strip() else got.stderr.strip()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kills", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quick", action="store_true", help="5 kills")
    args = p.parse_args(argv)
    kills = 5 if args.quick else args.kills
    with tempfile.TemporaryDirectory() as tmp:
        got = soak(kills, args.seed, Path(tmp))
    print(json.dumps(got, indent=1))
    print(
        f"kill: {got['kills']} SIGKILLs, {got['confirmed']} confirmed actions, "
        f"{got['lost']} lost; {got['tables']} tables; logs: {got['log_check']}"
    )
    logs_ok = " 0 failed" in got["log_check"] or "no fight" in got["log_check"]
    return 0 if got["lost"] == 0 and logs_ok else 1


if __name__ == "__main__":
    sys.exit(main())
