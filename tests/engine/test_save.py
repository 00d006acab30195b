"""The save format: what is written, that it replays exactly, durability, names, locks."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from engine import autosave
from engine import savewriter as save_mod
from engine.actions import EndTurn, Move, UsePower
from engine.autosave import Autosaver, list_saves, list_unfinished
from engine.content.loader import load_encounter
from engine.encounter import Encounter
from engine.save import (
    FORMAT,
    VERSION,
    SaveError,
    SaveHeader,
    SaveWriter,
    decode_line,
    describe,
    encode_line,
    pack,
    read_save,
    unpack,
)
from tests.support.fights import AI_ONLY, fingerprint, play
from tests.support.helpers import mon, pc, write_encounter
from tests.support.saves import skip_fsync


@pytest.fixture
def loaded():  # type: ignore[no-untyped-def]
    return load_encounter("default")


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SKIRMISH_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_line_checksum_round_trip() -> None:
    obj = {"n": 3, "faces": [1, 20], "summary": "Brom: walk to 3,4 — ü"}
    line = encode_line(obj)
    assert line.startswith(b'{"crc":"') and line.endswith(b"\n") and line.count(b"\n") == 1
    assert decode_line(line[:-1]) == obj
    with pytest.raises(ValueError, match="checksum"):
        decode_line(line[:-1].replace(b"20", b"19"))


def test_save_holds_header_and_every_record(loaded, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    enc = play(loaded, 5, player="naive")
    with Autosaver.create(enc, directory=tmp_path) as saver:
        assert saver.written == len(enc.records)
    lines = saver.path.read_bytes().splitlines()
    header = decode_line(lines[0])
    assert header["format"] == FORMAT and header["version"] == VERSION
    assert header["encounter"] == "default" and header["seed"] == 5
    assert header["content_hash"] == loaded.content_hash
    assert unpack(header["sources_zlib"]) == loaded.sources
    assert header["control"] == {c: "ai" for c in enc.battle.combatants}
    body = [decode_line(x) for x in lines[1:]]
    records = [b for b in body if "n" in b]
    assert [r["n"] for r in records] == list(range(len(enc.records)))
    assert records[0]["action"] is None and records[0]["actor"] is None
    assert all(r["actor"] in enc.battle.combatants for r in records[1:])
    assert body[-1] == {
        "end": {
            "winner": enc.battle.winner,
            "reason": enc.battle.end_reason,
            "rounds": enc.battle.round,
        }
    }
    save = read_save(saver.path)
    assert save.records == enc.records
    assert save.finished is not None and save.torn is None
    assert fingerprint(save.encounter()) == fingerprint(enc)


def test_actor_and_round_per_record_match_the_fight(loaded, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    seen: list[tuple[str | None, int]] = []
    enc = Encounter.create(loaded, seed=2, control=AI_ONLY)
    saver = Autosaver.create(enc, directory=tmp_path)

    def apply(action, decision):  # type: ignore[no-untyped-def]
        seen.append((enc.current.id if enc.current else None, 0))
        enc.apply(action, decision)
        seen[-1] = (seen[-1][0], enc.battle.round)
        saver.sync(enc)

    enc.start()
    saver.sync(enc)
    seen.insert(0, (None, enc.battle.round))
    play(loaded, 2, player="naive", enc=enc, apply=apply, max_records=60)
    saver.close()
    entries = read_save(saver.path).entries
    assert [(e.actor, e.round) for e in entries] == seen


def test_sync_after_several_applies_traces_actors(loaded, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Records applied without a sync in between still get the right actor and round."""
    enc = play(loaded, 4, player="random", max_records=40)
    with Autosaver.create(enc, directory=tmp_path) as one_go:
        pass
    enc2 = Encounter.create(loaded, seed=4, control=AI_ONLY)
    with Autosaver.create(enc2, directory=tmp_path) as stepwise:
        enc2.start()
        for rec in enc.records[1:]:
            stepwise.sync(enc2)
            enc2.battle.scripted_answers = list(rec.answers)
            assert rec.action is not None
            enc2.apply(rec.action, rec.decision)
        stepwise.sync(enc2)
    a = [(e.actor, e.round, e.summary) for e in read_save(one_go.path).entries]
    b = [(e.actor, e.round, e.summary) for e in read_save(stepwise.path).entries]
    assert a == b


def test_save_is_self_contained_when_content_files_change_or_vanish(tmp_path: Path) -> None:
    grid = "......\n......\n......"
    path = write_encounter(tmp_path, grid, [pc("hero", (0, 1)), mon("gob", (5, 1))])
    loaded = load_encounter(path)
    enc = play(loaded, 9, player="random")
    with Autosaver.create(enc, directory=tmp_path / "saves") as saver:
        pass
    path.write_text("not: [valid")  # edited into nonsense ...
    assert fingerprint(read_save(saver.path).encounter()) == fingerprint(enc)
    path.unlink()  # ... then gone
    assert fingerprint(read_save(saver.path).encounter()) == fingerprint(enc)


def test_embedded_content_edited_with_a_fresh_checksum_is_refused(loaded, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    enc = play(loaded, 1, player="naive", max_records=10)
    with Autosaver.create(enc, directory=tmp_path) as saver:
        pass
    lines = saver.path.read_bytes().splitlines(keepends=True)
    header = decode_line(lines[0][:-1])
    sources = unpack(header["sources_zlib"])
    key = next(k for k, text in sources.items() if re.search(r"hp: [2-9]\d", text))
    sources[key] = re.sub(r"hp: ([2-9]\d)", r"hp: 9\1", sources[key], count=1)
    header["sources_zlib"] = pack(sources)  # a careful edit: a fresh checksum
    saver.path.write_bytes(encode_line(header) + b"".join(lines[1:]))
    save = read_save(saver.path)  # the lines are intact: only replaying checks the content
    with pytest.raises(SaveError, match="content hash"):
        save.encounter()


@pytest.mark.durable
def test_every_append_is_fsynced_before_it_returns(
    loaded: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    enc = Encounter.create(loaded, seed=3, control=AI_ONLY)
    enc.start()
    saver = Autosaver.create(enc, directory=tmp_path)
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        real_fsync(fd)
        synced.append(os.fstat(fd).st_size)

    monkeypatch.setattr(save_mod.os, "fsync", fsync)
    enc.apply(EndTurn())
    saver.sync(enc)
    assert synced == [saver.path.stat().st_size]  # one fsync, covering the whole new record
    saver.close()


def test_new_saves_never_overwrite(loaded, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    enc = Encounter.create(loaded, seed=3)
    paths = {Autosaver.create(enc, directory=tmp_path).path for _ in range(5)}
    assert len(paths) == 5  # same encounter, same second: still five files
    victim = next(iter(paths))
    before = victim.read_bytes()
    with pytest.raises(SaveError, match="already exists"):
        SaveWriter.create(victim, SaveHeader.of(enc))
    assert victim.read_bytes() == before
    # Every random name taken: the writer gives up rather than overwrite.
    monkeypatch.setattr(save_mod, "new_save_name", lambda *_a, **_k: victim.name)
    with pytest.raises(SaveError, match="free save name"):
        Autosaver.create(enc, directory=tmp_path)
    assert victim.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_save_names_say_which_fight_and_when(loaded, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    enc = Encounter.create(loaded, seed=3)
    saver = Autosaver.create(enc, directory=tmp_path)
    name = saver.path.name
    assert name.startswith("default_20") and name.endswith(".save.jsonl")


def test_a_save_has_one_writer(loaded, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    enc = play(loaded, 3, player="naive", max_records=5)
    saver = Autosaver.create(enc, directory=tmp_path)
    with pytest.raises(SaveError, match="open in another Skirmish"):
        autosave.resume(saver.path)
    saver.close()
    autosave.resume(saver.path).saver.close()  # type: ignore[union-attr]


def test_resume_continues_the_same_file_and_fight(loaded, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    whole = play(loaded, 8, player="naive")
    part = play(loaded, 8, player="naive", max_records=25)
    saver = Autosaver.create(part, directory=tmp_path)
    saver.close()
    hist = autosave.resume(saver.path)
    play(loaded, 8, player="naive", enc=hist.enc, apply=hist.apply)
    assert hist.saver is not None
    hist.saver.close()  # type: ignore[attr-defined]
    assert [(r.action, r.faces) for r in hist.enc.records] == [
        (r.action, r.faces) for r in whole.records
    ]
    save = read_save(saver.path)
    assert save.finished is not None and len(save.entries) == len(whole.records)
    assert fingerprint(save.encounter()) == fingerprint(hist.enc)
    assert len(list(tmp_path.iterdir())) == 1


def test_autosave_folder_and_lists(loaded, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    assert autosave.saves_dir() == data_dir / "saves"
    done = play(loaded, 1, player="naive")
    going = play(loaded, 2, player="naive", max_records=30)
    with Autosaver.create(done) as a, Autosaver.create(going) as b:
        pass
    assert a.path.parent == data_dir / "saves"
    (data_dir / "saves" / "junk.save.jsonl").write_text("hello\n")
    everything = list_saves()
    assert {s.path for s in everything} == {a.path, b.path, data_dir / "saves" / "junk.save.jsonl"}
    broken = [s for s in everything if s.error]
    assert len(broken) == 1 and "not a Skirmish save" in (broken[0].error or "")
    unfinished = list_unfinished()
    assert [s.path for s in unfinished] == [b.path]
    info = unfinished[0]
    assert info.encounter == loaded.source and not info.finished  # the name `play` takes
    assert info.round == going.battle.round and info.records == len(going.records)


def test_finished_then_undone_is_unfinished_again(loaded, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    hist = autosave.begin(Encounter.create(loaded, seed=6, control=AI_ONLY), directory=tmp_path)
    hist.start()
    play(loaded, 6, player="naive", enc=hist.enc, apply=hist.apply)
    assert read_save(hist.saver.path).finished is not None  # type: ignore[union-attr]
    assert list_unfinished(tmp_path) == []
    hist.undo()
    assert read_save(hist.saver.path).finished is None  # type: ignore[union-attr]
    assert len(list_unfinished(tmp_path)) == 1
    hist.redo()
    assert read_save(hist.saver.path).finished is not None  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("action", "who", "text"),
    [
        (None, None, "the fight starts: surprise and initiative"),
        (Move(((1, 1), (2, 2)), "shift"), "Brom", "Brom: shift to 2,2"),
        (UsePower("cleave", ("g1",)), "Brom", "Brom: cleave on g1"),
        (UsePower("fire-pot", origin=(4, 5)), "Archer", "Archer: fire-pot at 4,5"),
        (EndTurn(), "Brom", "Brom: ends the turn"),
    ],
)
def test_record_summaries(action, who, text) -> None:  # type: ignore[no-untyped-def]
    assert describe(action, who) == text


def test_header_json_round_trip(loaded) -> None:  # type: ignore[no-untyped-def]
    h = SaveHeader.of(Encounter.create(loaded, seed=None), {"policies": {"monsters": "naive"}})
    again = SaveHeader.from_json(json.loads(json.dumps(h.to_json())))
    assert again == h and again.seed is None


def test_one_write_per_sync_and_a_lost_end_marker_is_repaired(loaded, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The last record and the end marker go in one write; if a save still lacks the marker
    (cut off after the record), resuming the finished fight writes it."""
    enc = play(loaded, 6, player="naive")
    with Autosaver.create(enc, directory=tmp_path) as saver:
        pass
    rows = saver.path.read_bytes().splitlines(keepends=True)
    assert b'"end"' in rows[-1]
    saver.path.write_bytes(b"".join(rows[:-1]))
    assert read_save(saver.path).finished is None
    autosave.resume(saver.path).saver.close()  # type: ignore[union-attr]
    assert read_save(saver.path).finished is not None
    assert saver.path.read_bytes() == b"".join(rows)


@pytest.mark.durable
def test_the_real_writer_fsyncs_through_one_function(
    loaded: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert save_mod.fsync is not skip_fsync  # a durable test gets the real one
    calls: list[int] = []
    monkeypatch.setattr(save_mod.os, "fsync", lambda fd: calls.append(fd))
    enc = Encounter.create(loaded, seed=3, control=AI_ONLY)
    enc.start()
    with Autosaver.create(enc, directory=tmp_path) as saver:
        enc.apply(EndTurn())
        saver.sync(enc)
    assert len(calls) >= 3  # the new file, its folder entry, the appended record


def test_other_tests_saves_skip_fsync(loaded: Any, tmp_path: Path) -> None:
    assert save_mod.fsync is skip_fsync
    enc = Encounter.create(loaded, seed=3, control=AI_ONLY)
    enc.start()
    with Autosaver.create(enc, directory=tmp_path) as saver:
        pass
    assert read_save(saver.path).records == enc.records  # the data still reaches the file
