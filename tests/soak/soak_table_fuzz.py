"""Fuzz a running table's host with malformed, random and out-of-place messages.

A real `skirmish host` serves the ambush fixture. The only seat this process's OS user may
take is `brak`, and it is Kara's turn (her seat and the GM's belong to another OS user), so
no message this fuzzer can send may change the fight. For each message it sends, it then
sends a `ping` and waits for the `pong` (reconnecting when the host hung up on it, as it does
after an over-long line or a `bye`). At the end: the host is alive, has logged no internal
error, and the save is byte for byte what it was.

    python tests/soak/soak_table_fuzz.py --count 10000 --seed 1
    python tests/soak/soak_table_fuzz.py --quick          # 500 messages
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if str(Path(__file__).resolve().parents[2]) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.table import AMBUSH, HostProc, RawSeat, wait_save

NOBODY = "65534"
TEMPLATES: list[dict[str, Any]] = [
    {"t": "hello", "seat": "brak"},
    {"t": "hello", "seat": "kara"},
    {"t": "hello", "seat": "gm"},
    {"t": "act", "action": {"action": "end_turn"}},
    {"t": "act", "action": {"action": "move", "path": [[2, 5], [3, 5]], "mode": "walk"}},
    {"t": "act", "action": {"action": "power", "power": "fira", "targets": ["gob-1"]}},
    {"t": "act", "action": {"action": "full_attack", "power": "cleave", "targets": ["gob-1"]}},
    {"t": "aim", "mode": "walk", "cursor": [3, 3]},
    {"t": "aim", "mode": "powers"},
    {"t": "answer", "value": True},
    {"t": "undo", "steps": 1},
    {"t": "redo"},
    {"t": "step"},
    {"t": "step_mode", "on": True},
    {"t": "control", "creature": "kara", "to": "ai"},
    {"t": "view", "seat": "kara"},
    {"t": "view"},
]
JUNK: list[Any] = [
    None,
    True,
    -1,
    2**64,
    1.5,
    "",
    "x" * 300,
    "\u202e\x00\x1b[2J",
    [],
    {},
    [[1, 2]] * 300,
    {"a": {"b": {"c": []}}},
]


def _mutate(rng: random.Random, msg: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(msg))
    choice = rng.randrange(6)
    keys = list(out)
    if choice == 0 and keys:
        del out[rng.choice(keys)]
    elif choice == 1 and keys:
        out[rng.choice(keys)] = rng.choice(JUNK)
    elif choice == 2:
        out[rng.choice(["who", "uid", "seat", "as", "x"])] = rng.choice([*JUNK, "gm", "kara"])
    elif choice == 3 and isinstance(out.get("action"), dict):
        act = out["action"]
        act[rng.choice([*act, "who", "path"])] = rng.choice(JUNK)
    elif choice == 4:
        out["v"] = rng.choice([0, 2, "1", None, True, 1.0])
    else:
        out["t"] = rng.choice(["", "hello ", "HELLO", "act\x00", "eval", 1, None])
    return out


def message(rng: random.Random) -> bytes:
    """One fuzz message, newline-terminated."""
    kind = rng.randrange(10)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))) + b"\n"
    if kind == 1:
        return json.dumps(rng.choice(JUNK)).encode() + b"\n"
    if kind == 2:
        depth = rng.randrange(1, 5000)
        return b"[" * depth + b"]" * rng.randrange(depth + 1) + b"\n"
    if kind == 3:
        return (
            b'{"v":1,"t":"answer","value":' + rng.choice([b"NaN", b"Infinity", b"1e999"]) + b"}\n"
        )
    if kind == 4 and rng.random() < 0.05:
        return b'{"v":1,"t":"hello","seat":"' + b"a" * rng.randrange(16_000, 40_000) + b'"}\n'
    if kind in (5, 6):
        return json.dumps({"v": 1, **rng.choice(TEMPLATES)}).encode() + b"\n"
    return json.dumps({"v": 1, **_mutate(rng, rng.choice(TEMPLATES))}).encode() + b"\n"


def _join(path: Path, rng: random.Random) -> RawSeat:
    seat = RawSeat(path)
    if rng.random() < 0.7:
        seat.hello("brak")
    return seat


def fuzz(count: int, seed: int, work: Path) -> dict[str, Any]:
    rng = random.Random(seed)
    host = HostProc(
        work / "table",
        work / "data",
        [
            AMBUSH,
            "--seed",
            "5",
            "--pace",
            "0",
            "--seat",
            f"kara={NOBODY}",
            "--seat",
            "brak",
            "--gm",
            NOBODY,
        ],
    )
    try:
        wait_save(host.root)
        time.sleep(0.5)  # the fight's start is saved; Kara's turn waits for nobody
        before = host.save_digest()
        seat = _join(host.socket, rng)
        replies: dict[str, int] = {}
        reconnects = 0
        t0 = time.monotonic()
        for i in range(count):
            try:
                seat.send_raw(message(rng))
                seat.send("ping", id=10**9 + i)
                while True:
                    msg = seat.recv(10.0)
                    if msg["t"] == "pong" and msg.get("id") == 10**9 + i:
                        break
                    key = f"{msg['t']}:{msg.get('code', '')}"
                    replies[key] = replies.get(key, 0) + 1
            except (EOFError, BrokenPipeError, ConnectionResetError):
                reconnects += 1
                seat.close()
                seat = _join(host.socket, rng)
        elapsed = time.monotonic() - t0
        seat.close()
        time.sleep(0.3)
        alive = host.alive()
        after = host.save_digest()
        err = host.stop()
    finally:
        if host.alive():
            host.kill()
    crashes = 0 if alive else 1
    internal = err.count("internal error") + err.count("Traceback")
    return {
        "messages": count,
        "seconds": round(elapsed, 2),
        "host_crashes": crashes,
        "internal_errors": internal,
        "state_changes": int(before != after),
        "reconnects": reconnects,
        "replies": dict(sorted(replies.items())),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quick", action="store_true", help="500 messages")
    args = p.parse_args(argv)
    count = 500 if args.quick else args.count
    with tempfile.TemporaryDirectory() as tmp:
        got = fuzz(count, args.seed, Path(tmp))
    print(json.dumps(got, indent=1))
    ok = got["host_crashes"] == 0 and got["state_changes"] == 0 and got["internal_errors"] == 0
    print(
        f"fuzz: {got['messages']} messages in {got['seconds']} s: {got['host_crashes']} host "
        f"crashes, {got['state_changes']} state changes, {got['internal_errors']} internal errors"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
