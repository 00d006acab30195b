"""Bad save files: each kind gets one line naming the file and what is wrong, and nothing on
disk changes; a torn last record (a crash mid-append) is the one defect that is recovered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import autosave
from engine.content.loader import load_encounter
from engine.save import SaveError, decode_line, encode_line, read_save
from tests.support.fights import fingerprint, play


@pytest.fixture(scope="module")
def fight():  # type: ignore[no-untyped-def]
    loaded = load_encounter("default")
    return play(loaded, 11, player="naive", max_records=40)


@pytest.fixture
def good(fight, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    with autosave.Autosaver.create(fight, directory=tmp_path) as saver:
        return saver.path


def lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def refused(path: Path, *fragments: str) -> str:
    """read_save and resume both refuse with one line naming the file; the file is unchanged."""
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(SaveError) as err:
        read_save(path)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    for fragment in fragments:
        assert fragment in message
    with pytest.raises(SaveError):
        autosave.resume(path)
    after = path.read_bytes() if path.is_file() else None
    assert after == before
    return message


# --- recovered -------------------------------------------------------------------------------
@pytest.mark.parametrize("cut", [1, 10, -2])
def test_torn_last_record_is_dropped_and_the_rest_kept(good: Path, fight, cut: int) -> None:  # type: ignore[no-untyped-def]
    rows = lines(good)
    last = rows[-1]
    good.write_bytes(b"".join(rows[:-1]) + last[: cut if cut > 0 else len(last) + cut])
    save = read_save(good)
    assert save.torn is not None and f"line {len(rows)}" in save.torn
    assert len(save.entries) == len(fight.records) - 1
    assert save.records == fight.records[:-1]
    # Resuming cuts the torn tail off before appending: the file then reads cleanly.
    hist = autosave.resume(good)
    play(
        fight.loaded,
        11,
        player="naive",
        enc=hist.enc,
        apply=hist.apply,
        max_records=len(fight.records) + 3,
    )
    hist.saver.close()  # type: ignore[union-attr]
    again = read_save(good)
    assert again.torn is None and len(again.entries) == len(fight.records) + 3
    assert again.records[: len(fight.records)] == fight.records


def test_zero_filled_tail_is_dropped(good: Path, fight) -> None:  # type: ignore[no-untyped-def]
    with good.open("ab") as handle:
        handle.write(b"\0" * 300)
    save = read_save(good)
    assert save.torn is not None and "zero bytes" in save.torn
    assert save.records == fight.records
    assert fingerprint(save.encounter()) == fingerprint(fight)


# --- refused ---------------------------------------------------------------------------------
def test_corrupted_middle_record(good: Path) -> None:
    rows = lines(good)
    row = bytearray(rows[5])
    row[len(row) // 2] ^= 0x20  # one flipped bit, as a bad sector might
    rows[5] = bytes(row)
    good.write_bytes(b"".join(rows))
    refused(good, "line 6 is corrupted")


def test_garbage_middle_line(good: Path) -> None:
    rows = lines(good)
    rows.insert(4, b"\0\0\0garbage\n")
    good.write_bytes(b"".join(rows))
    refused(good, "line 5 is corrupted")


@pytest.mark.parametrize("where", [3, -1])
def test_hand_edited_record_breaks_its_checksum(good: Path, where: int) -> None:
    rows = lines(good)
    obj = json.loads(b"{" + rows[where].split(b",", 1)[1])
    obj["faces"] = [20 for _ in obj.get("faces", [])] or [20]
    body = json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()
    rows[where] = rows[where][: len(b'{"crc":"00000000",')] + body[1:] + b"\n"
    good.write_bytes(b"".join(rows))
    line = where + 1 if where > 0 else len(rows)
    refused(good, f"line {line} is corrupted", "checksum mismatch")


def test_hand_edited_header(good: Path) -> None:
    rows = lines(good)
    rows[0] = rows[0].replace(b'"seed":11', b'"seed":12')
    good.write_bytes(b"".join(rows))
    refused(good, "line 1 (the save header)", "checksum")


def test_missing_middle_record(good: Path) -> None:
    rows = lines(good)
    del rows[7]
    good.write_bytes(b"".join(rows))
    refused(good, "line 8", "out of order")


def test_foreign_files(tmp_path: Path) -> None:
    yaml_file = tmp_path / "fight.yaml"
    yaml_file.write_text("name: x\nmap: {}\n")
    refused(yaml_file, "not a Skirmish save")
    binary = tmp_path / "picture.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(range(256)))
    refused(binary, "not a Skirmish save")
    other_json = tmp_path / "data.jsonl"
    other_json.write_text('{"format": "something-else", "version": 1}\n{"n": 0}\n')
    refused(other_json, "not a Skirmish save")
    one_line = tmp_path / "note.txt"
    one_line.write_text("hello")
    refused(one_line, "not a Skirmish save")


def test_a_combat_log_is_named_as_such(fight, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    log = tmp_path / "run.jsonl"
    log.write_text("".join(json.dumps(ev.to_json()) + "\n" for ev in fight.log))
    refused(log, "not a Skirmish save", "combat log")


@pytest.mark.parametrize("version", [2, 3, 17])
def test_newer_version(good: Path, version: int) -> None:
    rows = lines(good)
    header = decode_line(rows[0].rstrip(b"\n"))
    header["version"] = version
    rows[0] = encode_line(header)
    good.write_bytes(b"".join(rows))
    message = refused(good)
    assert message.endswith(f"made by a newer Skirmish (format {version}); this one reads format 1")


def test_newer_version_with_a_different_line_framing(tmp_path: Path) -> None:
    future = tmp_path / "future.save.jsonl"
    future.write_text('{"format": "skirmish-save", "version": 3, "sha": "abc"}\n{"x": 1}\n')
    refused(future, "made by a newer Skirmish (format 3); this one reads format 1")


@pytest.mark.parametrize("version", [0, -1, "1", None])
def test_unknown_version(good: Path, version: object) -> None:
    rows = lines(good)
    header = decode_line(rows[0].rstrip(b"\n"))
    header["version"] = version
    rows[0] = encode_line(header)
    good.write_bytes(b"".join(rows))
    refused(good, "unknown save format version")


def test_empty_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.save.jsonl"
    empty.write_bytes(b"")
    refused(empty, "is empty")


def test_missing_file(tmp_path: Path) -> None:
    refused(tmp_path / "nowhere.save.jsonl", "no such file")
    assert not (tmp_path / "nowhere.save.jsonl").exists()


def test_folder(tmp_path: Path) -> None:
    refused(tmp_path, "is a folder")


def test_incomplete_header(good: Path) -> None:
    good.write_bytes(lines(good)[0][:100])
    refused(good, "header is incomplete")


def test_record_that_no_longer_replays(good: Path) -> None:
    rows = lines(good)
    obj = decode_line(rows[3].rstrip(b"\n"))
    obj["action"] = {"action": "power", "power": "no-such-power", "targets": []}
    rows[3] = encode_line(obj)  # a careful edit with a fresh checksum
    good.write_bytes(b"".join(rows))
    save = read_save(good)
    with pytest.raises(SaveError) as err:
        save.encounter()
    assert str(err.value).startswith(f"{good}: the fight doesn't replay")
    assert "\n" not in str(err.value)


def test_undo_marker_out_of_range(good: Path) -> None:
    with good.open("ab") as handle:
        handle.write(encode_line({"undo": 999}))
    refused(good, "undo to 999")


def test_unknown_record_kind(good: Path) -> None:
    with good.open("ab") as handle:
        handle.write(encode_line({"teleport": True}))
    refused(good, "unknown kind of record")
