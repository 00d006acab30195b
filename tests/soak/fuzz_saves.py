"""Save fuzzer: corrupted copies of a real save through export, replay-loading and resume,
looking for crashes, hangs and memory blow-ups (issue 17, "Saves and logs").

The seed save is a real fight (`default`, a random player: moves, powers, areas, answers,
undo and redo markers, AI decisions). Each case rebuilds one corrupted copy from its seed in
the worker and runs it through the three readers a user reaches:

- `skirmish export SAVE` (jsonl or text): exit 0, or exit 1 with one line on stderr;
- `tui.replay.load_timeline` (what `skirmish replay` shows): a Timeline, or a SaveError;
- `engine.autosave.resume` (what `skirmish resume` opens): a History, or a SaveError.

Corruptions: flipped bits and bytes, cut and zero-filled tails, deleted, repeated and swapped
lines, and (with fresh, valid checksums: anyone can compute a CRC) hostile values in every
field of the header and of records (wrong types, huge numbers and strings, deep nesting,
`control: bogus`, zlib bombs and garbage in `sources_zlib`, decision candidates like [[1]]).

    python tests/soak/fuzz_saves.py --cases 10000     (prints the report; exit 1 on failures)
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import functools
import io
import random
import shutil
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.soak.fuzzlib import fuzz

SEED_SAVE: bytes = b""
"""The uncorrupted save, made once in the parent (workers are forked and inherit it)."""


def make_seed_save(records: int = 20) -> bytes:
    from engine import autosave
    from engine.content.loader import load_encounter
    from engine.encounter import Encounter
    from tests.support.fights import AI_ONLY, RandomDecider, play

    rng = random.Random(5)
    decider = RandomDecider(rng)
    loaded = load_encounter("default")
    with tempfile.TemporaryDirectory() as tmp:
        enc = Encounter.create(loaded, seed=5, control=AI_ONLY, deciders=lambda _c: decider)
        hist = autosave.begin(enc, deciders=lambda _c: decider, directory=tmp)
        hist.start()
        play(loaded, 5, player="naive", enc=hist.enc, apply=hist.apply, max_records=records // 2)
        hist.undo(2)
        hist.redo(1)
        play(
            loaded, 5, player="random", enc=hist.enc, apply=hist.apply, rng=rng, max_records=records
        )
        assert hist.saver is not None
        path = hist.saver.path  # type: ignore[attr-defined]
        hist.saver.close()  # type: ignore[attr-defined]
        return Path(path).read_bytes()


# --- corruptions -----------------------------------------------------------------------------
def _deep(n: int) -> Any:
    value: Any = 1
    for _ in range(n):
        value = [value]
    return value


HOSTILE: list[Any] = [
    5,
    -1,
    0,
    10**30,
    -(10**30),
    1.5,
    float("1e308"),
    True,
    None,
    "",
    "x" * 100_000,
    "\x1b[2J\x1b]0;pwned\x07",
    "[/]",
    [],
    {},
    [[1]],
    [[1, 2, 3]],
    [["a", "b"]],
    [5],
    [[10**9, 10**9]],
    {"action": "move", "path": 5},
    {"action": "nope"},
    _deep(30),
    _deep(3000),
    {"a": {"b": {"c": {"d": {"e": {"f": {"g": 1}}}}}}},
    ["x"] * 5000,
    list(range(300)),
    "bogus",
    "player",
    "ai",
]


def _bomb(rng: random.Random) -> str:
    return _bomb_of(rng.choice([1 << 20, 64 << 20, 1 << 30]))


@functools.lru_cache(maxsize=4)
def _bomb_of(size: int) -> str:
    """Zeros that unpack to `size` bytes (made once per worker: 1 GB takes a while)."""
    inflate = zlib.compressobj(9)
    chunk = b"0" * min(size, 1 << 20)
    blob = b"".join(inflate.compress(chunk) for _ in range(size // len(chunk))) + inflate.flush()
    return base64.b64encode(blob).decode()


def _sources(rng: random.Random) -> Any:
    how = rng.randrange(5)
    if how == 0:
        return _bomb(rng)
    if how == 1:
        return base64.b64encode(zlib.compress(b"[" * 50_000)).decode()
    if how == 2:
        return base64.b64encode(rng.randbytes(rng.randint(0, 200))).decode()
    if how == 3:
        deep = {"maps/encounters/default.yaml": "a: " + "[" * 3000 + "]" * 3000}
        import json

        return base64.b64encode(zlib.compress(json.dumps(deep).encode())).decode()
    return "not base64 !!!"


def _field_edit(obj: dict[str, Any], rng: random.Random, header: bool) -> None:
    keys = list(obj)
    if header:
        keys += ["control", "seed", "sources_zlib", "meta", "version", "ruleset"]
    else:
        keys += ["action", "faces", "answers", "decision", "actor", "round", "undo", "end"]
    key = rng.choice(keys)
    how = rng.randrange(10)
    if how == 0 and key in obj:
        del obj[key]
    elif key == "sources_zlib" and how < 6:
        obj[key] = _sources(rng)
    elif key == "control" and isinstance(obj.get("control"), dict) and obj["control"] and how < 6:
        cid = rng.choice(list(obj["control"]))
        obj["control"][cid] = rng.choice(["bogus", "", None, 5, "AI"])
    elif key == "action" and isinstance(obj.get("action"), dict) and how < 7:
        sub = rng.choice([*obj["action"], "path", "squares", "targets", "origin", "power"])
        obj["action"][sub] = rng.choice(HOSTILE)
    elif key == "decision" and how < 6:
        obj[key] = {
            "id": "a",
            "policy": "p",
            "summary": "s",
            "ms": 1,
            "candidates": rng.choice(HOSTILE),
        }
    else:
        obj[key] = rng.choice(HOSTILE)


def corrupt(data: bytes, rng: random.Random) -> bytes:
    from engine.save import decode_line, encode_line

    lines = data.split(b"\n")[:-1]
    for _ in range(rng.choice([1, 1, 2, 3])):
        how = rng.randrange(12)
        i = rng.randrange(len(lines))
        if how <= 4:  # a checksum-valid edit of one field
            try:
                obj = decode_line(lines[i])
            except ValueError:
                continue
            _field_edit(obj, rng, header=(i == 0))
            try:
                lines[i] = encode_line(obj).rstrip(b"\n")
            except (ValueError, TypeError, OverflowError, RecursionError):
                continue
        elif how == 5:
            row = bytearray(lines[i])
            if row:
                row[rng.randrange(len(row))] ^= 1 << rng.randrange(8)
            lines[i] = bytes(row)
        elif how == 6:
            del lines[i]
            if not lines:
                lines = [b""]
        elif how == 7:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif how == 8:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif how == 9:
            lines[i] = rng.randbytes(rng.randint(0, 64))
        elif how == 10:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        else:
            lines[i] = rng.choice([b"[" * 100_000, b"9" * 5000, b"\0" * 300, b"{}", b"null"])
    out = b"\n".join(lines) + b"\n"
    if rng.random() < 0.1:
        out = out[: rng.randrange(len(out) + 1)]
    if rng.random() < 0.05:
        out += b"\0" * rng.randint(1, 5000)
    return out


# --- one case --------------------------------------------------------------------------------
def _one_line(text: str) -> bool:
    return text.count("\n") <= 1 and text.rstrip("\n").isprintable()


def run(case: int) -> str | None:
    """None when export, replay and resume all behaved (see the module docstring)."""
    from engine.save import SaveError
    from tui import cli_saves
    from tui.replay import load_timeline

    data = corrupt(SEED_SAVE, random.Random(case))
    tmp = tempfile.mkdtemp()
    try:
        path = Path(tmp) / "fuzz.save.jsonl"
        path.write_bytes(data)
        err = io.StringIO()
        fmt = "text" if case % 3 == 0 else "jsonl"
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = cli_saves.main(["export", str(path), "--format", fmt])
        if code not in (0, 1) or (code == 1 and not err.getvalue().startswith("skirmish export")):
            return f"export: exit {code}: {err.getvalue()[:100]!r}"
        warnings = [ln for ln in err.getvalue().splitlines() if ln]
        if code == 1 and (len(warnings) != 1 or not warnings[0].isprintable()):
            return f"export error not one printable line: {err.getvalue()[:100]!r}"
        for name, step in (
            ("replay", lambda: load_timeline(path)),
            ("resume", lambda: _resume(path)),
        ):
            try:
                step()
            except SaveError as exc:
                if not _one_line(str(exc)):
                    return f"{name}: SaveError not one printable line: {str(exc)[:100]!r}"
        return None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _resume(path: Path) -> None:
    from engine import autosave

    hist = autosave.resume(path)
    if hist.saver is not None:
        hist.saver.close()  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    global SEED_SAVE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=None, help="start no case after this")
    parser.add_argument("--case", type=int, help="run one case here and print what happened")
    args = parser.parse_args(argv)
    SEED_SAVE = make_seed_save()
    if args.case is not None:
        print(run(args.case) or "ok")
        return 0
    cases = range(args.seed * 1_000_000, args.seed * 1_000_000 + args.cases)
    report = fuzz(
        run,
        cases,
        workers=args.workers,
        progress=True,
        budget_s=None if args.minutes is None else args.minutes * 60,
    )
    print(report.line("fuzz_saves") + " (each case: export, replay and resume)")
    for line in report.details():
        print(line)
    return 0 if not report.crashes and not report.hangs and not report.memory else 1


if __name__ == "__main__":
    sys.exit(main())
