"""Hostile saves (issue 17, "Saves and logs"): each finding of the save fuzzer, refused with one
line naming the file and what is wrong with it, never a traceback, a hang or a blow-up.

A hostile save carries valid checksums (anyone can compute a CRC), so each test edits a real
save with `decode_line`/`encode_line` and checks the refusal, as `read_save`, `resume` and
`export` meet it.
"""

from __future__ import annotations

import base64
import json
import os
import time
import tracemalloc
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import autosave
from engine.content.loader import load_encounter
from engine.save import SaveError, SaveHeader, decode_line, encode_line, read_save
from tests.support.fights import play


@pytest.fixture(scope="module")
def fight():  # type: ignore[no-untyped-def]
    return play(load_encounter("default"), 11, player="naive", max_records=30)


@pytest.fixture
def good(fight, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    with autosave.Autosaver.create(fight, directory=tmp_path) as saver:
        return saver.path


def rows(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def edit(path: Path, index: int, change: Callable[[dict[str, Any]], None]) -> None:
    """Change line `index` (0 = the header) and give it a fresh, valid checksum."""
    lines = rows(path)
    obj = decode_line(lines[index].rstrip(b"\n"))
    change(obj)
    lines[index] = encode_line(obj)
    path.write_bytes(b"".join(lines))


def refused(path: Path, *fragments: str, replay: bool = False) -> str:
    """One SaveError line naming the file (from read_save, or from the replay if `replay`);
    `autosave.resume` refuses it too, and the file is left as it was."""
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(SaveError) as err:
        save = read_save(path)
        if replay:
            save.encounter()
    message = str(err.value)
    assert "\n" not in message and message.isprintable()
    assert message.startswith(f"{path}: ")
    for fragment in fragments:
        assert fragment in message
    with pytest.raises(SaveError):
        autosave.resume(path)
    assert (path.read_bytes() if path.is_file() else None) == before
    return message


def first_action_line(path: Path, kind: str) -> int:
    for i, raw in enumerate(rows(path)[1:], start=1):
        obj = decode_line(raw.rstrip(b"\n"))
        if isinstance(obj.get("action"), dict) and obj["action"].get("action") == kind:
            return i
    raise AssertionError(f"no {kind} record")


# --- records ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kind", "field", "value"),
    [
        ("move", "path", 5),
        ("move", "path", [[1, "a"]]),
        ("move", "path", [[1, 2, 3]]),
        ("move", "path", [[10**9, 1]]),
        ("end_turn", "squares", 5),
        ("end_turn", "targets", 5),
        ("end_turn", "origin", 5),
    ],
)
def test_record_field_of_the_wrong_type(good: Path, kind: str, field: str, value: Any) -> None:
    if kind == "end_turn":
        kind, action = "power", {"action": "power", "power": "x", field: value}
    else:
        action = None
    i = first_action_line(good, "move")

    def change(obj: dict[str, Any]) -> None:
        obj["action"] = action or {"action": kind, "path": value, "mode": "walk"}

    edit(good, i, change)
    refused(good, f"line {i + 1}:", "malformed" if field != "path" or value == 5 else "")


def test_decision_candidate_that_is_not_a_pair(good: Path) -> None:
    i = first_action_line(good, "move")
    decision = {"id": "a", "policy": "p", "summary": "s", "candidates": [[1]], "ms": 1.0}
    edit(good, i, lambda obj: obj.update(decision=decision))
    refused(good, f"line {i + 1}:", "candidate")


def test_deep_json_in_a_record(good: Path) -> None:
    lines = rows(good)
    body = b'{"n":1,"answers":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    lines.insert(2, b'{"crc":"%08x",' % zlib.crc32(body) + body[1:] + b"\n")
    good.write_bytes(b"".join(lines))
    refused(good, "line 3 is corrupted", "nested too deeply")


def test_moderately_deep_answers_are_refused(good: Path) -> None:
    i = first_action_line(good, "move")
    edit(good, i, lambda obj: obj.update(answers=[[[[[[[[[[1]]]]]]]]]]))
    refused(good, f"line {i + 1}:", "nested too deeply")


def test_huge_faces_are_refused(good: Path) -> None:
    i = first_action_line(good, "move")
    edit(good, i, lambda obj: obj.update(faces=[10**30]))
    refused(good, f"line {i + 1}:", "die faces")


# --- the header ------------------------------------------------------------------------------
def test_header_without_seed(good: Path) -> None:
    edit(good, 0, lambda obj: obj.pop("seed"))
    refused(good, "line 1 (the save header)", "'seed'")


@pytest.mark.parametrize("first", [b"[" * 100_000, b"1" * 5000, b'{"a":' + b"9" * 5000 + b"}"])
def test_hostile_first_line(tmp_path: Path, first: bytes) -> None:
    path = tmp_path / "x.save.jsonl"
    path.write_bytes(first + b"\n")
    refused(path, "not a Skirmish save")


def test_deep_json_in_packed_sources(good: Path) -> None:
    blob = b"[" * 100_000 + b"]" * 100_000
    packed = base64.b64encode(zlib.compress(blob)).decode()
    edit(good, 0, lambda obj: obj.update(sources_zlib=packed))
    refused(good, "line 1 (the save header)", "nested too deeply")


def test_zlib_bomb_in_sources_is_bounded(good: Path) -> None:
    # 1 GB of zeros compresses to about 1 MB; unpacking must stop long before it is all there.
    inflate = zlib.compressobj(9)
    chunk = b"0" * (1 << 20)
    packed = b"".join(inflate.compress(chunk) for _ in range(1024)) + inflate.flush()
    text = base64.b64encode(packed).decode()
    edit(good, 0, lambda obj: obj.update(sources_zlib=text))
    tracemalloc.start()
    try:
        start = time.perf_counter()
        message = refused(good, "line 1 (the save header)", "more than")
        assert time.perf_counter() - start < 5
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20, message


def test_embedded_yaml_nested_deeply(good: Path) -> None:
    save = read_save(good)
    sources = dict(save.header.sources)
    key = save.header.encounter if save.header.encounter in sources else next(iter(sources))
    root = next(k for k in sources if k.endswith("default.yaml"))
    sources[root] = "a: " + "[" * 5000 + "]" * 5000 + "\n"
    packed = base64.b64encode(zlib.compress(json.dumps(sources).encode())).decode()
    assert key
    edit(good, 0, lambda obj: obj.update(sources_zlib=packed))
    refused(good, "the embedded encounter doesn't load", "nested more than", replay=True)


def test_control_bogus_is_refused_on_load(good: Path) -> None:
    def change(obj: dict[str, Any]) -> None:
        cid = next(iter(obj["control"]))
        obj["control"][cid] = "bogus"

    edit(good, 0, change)
    refused(good, "line 1 (the save header)", "'control'", "'bogus'")


def test_control_naming_a_stranger_is_refused(good: Path) -> None:
    edit(good, 0, lambda obj: obj["control"].update(nobody="ai"))
    refused(good, "'control' names 'nobody'", replay=True)


def test_unknown_ruleset_is_refused(good: Path) -> None:
    edit(good, 0, lambda obj: obj.update(ruleset="bogus"))
    refused(good, "'ruleset'", replay=True)


def test_records_with_an_impossible_face_say_so(good: Path) -> None:
    i = max(
        j
        for j, raw in enumerate(rows(good)[1:], start=1)
        if decode_line(raw.rstrip(b"\n")).get("faces")
    )
    edit(good, i, lambda obj: obj.update(faces=[999] * len(obj["faces"])))
    message = refused(good, "the fight doesn't replay", "999", replay=True)
    assert "tuple index" not in message


# --- not regular files -----------------------------------------------------------------------
def test_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "x.save.jsonl"
    os.mkfifo(fifo)
    start = time.perf_counter()
    with pytest.raises(SaveError, match="a pipe"):
        read_save(fifo)
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_device_is_refused_without_reading_it(device: str) -> None:
    start = time.perf_counter()
    with pytest.raises(SaveError, match="a device"):
        read_save(device)
    assert time.perf_counter() - start < 2


def test_read_is_bounded_by_bytes_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine import save as save_mod

    monkeypatch.setattr(save_mod, "MAX_BYTES", 1000)
    path = tmp_path / "big.save.jsonl"
    path.write_bytes(b"x" * 5000)
    with pytest.raises(SaveError, match="too large"):
        read_save(path)


# --- the saves folder ------------------------------------------------------------------------
def test_one_bad_file_never_hides_the_others(good: Path, tmp_path: Path) -> None:
    (tmp_path / "deep.save.jsonl").write_bytes(b"[" * 100_000 + b"\n")
    (tmp_path / "empty.save.jsonl").write_bytes(b"")
    os.mkfifo(tmp_path / "pipe.save.jsonl")
    (tmp_path / "dir.save.jsonl").mkdir()
    os.symlink("/dev/zero", tmp_path / "zero.save.jsonl")
    start = time.perf_counter()
    listed = autosave.list_saves(tmp_path)
    assert time.perf_counter() - start < 5
    by_name = {s.path.name: s for s in listed}
    assert by_name[good.name].error is None
    for name in ("deep", "empty", "pipe", "dir", "zero"):
        error = by_name[f"{name}.save.jsonl"].error
        assert error is not None and error.startswith(str(tmp_path)) and "\n" not in error
    assert [s.path for s in autosave.list_unfinished(tmp_path)] == [good]


def test_resume_latest_skips_unreadable_saves(
    good: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui import cli_saves

    saves = tmp_path / "data" / "saves"
    saves.mkdir(parents=True)
    target = saves / good.name
    os.replace(good, target)
    newer = saves / "zzz.save.jsonl"
    newer.write_bytes(b"[" * 100_000 + b"\n")
    monkeypatch.setenv(autosave.ENV_DATA_DIR, str(tmp_path / "data"))
    opened: list[Path] = []

    def entry(name: str) -> Any:
        def launch(p: Path) -> int:
            opened.append(p)
            return 0

        return launch

    monkeypatch.setattr(cli_saves, "app_entry", entry)
    assert cli_saves.main(["resume"]) == 0
    out = capsys.readouterr().out
    assert "1 save could not be read" in out and "zzz.save.jsonl" in out
    assert cli_saves.main(["resume", "--latest"]) == 0
    assert opened == [target]


def test_header_field_sizes_are_bounded(good: Path) -> None:
    edit(good, 0, lambda obj: obj.update(name="n" * 100_000))
    refused(good, "'name'")


def test_save_header_round_trips(good: Path) -> None:
    header = read_save(good).header
    assert SaveHeader.from_json(header.to_json()) == header


def test_reading_a_huge_valid_looking_file_stays_in_memory_bounds(tmp_path: Path) -> None:
    # A header line followed by 20 MB of one line: read, refused as corrupted, no blow-up.
    path = tmp_path / "big.save.jsonl"
    with path.open("wb") as handle:
        handle.write(b'{"crc":"00000000","format":"skirmish-save"}\n')
        handle.write(b"x" * (20 << 20) + b"\n")
    tracemalloc.start()
    try:
        with pytest.raises(SaveError, match="version"):
            read_save(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100 * 2**20


def test_hostile_header_text_never_reaches_the_terminal_raw(good: Path) -> None:
    # Found by the save fuzzer: a content hash with escapes was quoted raw in the error.
    edit(good, 0, lambda obj: obj.update(content_hash="\x1b[2J\x1b]0;pwned\x07"))
    message = refused(good, "content hash", replay=True)
    assert "\x1b" not in message and "\\x1b" in message


def test_replay_viewer_says_when_the_saved_dice_run_out(good: Path) -> None:
    # The engine's replay rolls on past the recorded faces; the viewer replays with exactly
    # the recorded ones, and ran into DiceExhausted ("Can't open it: DiceExhausted").
    from tui.replay import load_timeline

    i = max(
        j
        for j, raw in enumerate(rows(good)[1:], start=1)
        if decode_line(raw.rstrip(b"\n")).get("faces")
    )
    edit(good, i, lambda obj: obj.update(faces=[]))
    with pytest.raises(SaveError, match="saved dice run out"):
        load_timeline(good)


@pytest.mark.parametrize("constant", [b"Infinity", b"-Infinity", b"NaN"])
def test_non_finite_numbers_are_refused(good: Path, constant: bytes) -> None:
    # Python's json reads them; a `pace` of Infinity in `meta` would stall the app forever.
    lines = rows(good)
    obj = decode_line(lines[0].rstrip(b"\n"))
    obj["meta"] = {"app": {"pace": 1.5}}
    line = encode_line(obj).replace(b"1.5", constant)
    body = b"{" + line.split(b",", 1)[1].rstrip(b"\n")
    lines[0] = b'{"crc":"%08x",' % zlib.crc32(body) + body[1:] + b"\n"
    good.write_bytes(b"".join(lines))
    refused(good, "line 1 (the save header) is damaged")


def test_action_with_a_field_it_does_not_have(good: Path) -> None:
    # Found by the save fuzzer: an end_turn with `"path": 1.5` reached the square check.
    i = first_action_line(good, "move")
    edit(good, i, lambda obj: obj.update(action={"action": "end_turn", "path": 1.5}))
    refused(good, f"line {i + 1}:", "has no field 'path'")
