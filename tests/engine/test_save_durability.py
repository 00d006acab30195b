"""Losing a save (issue 17): durability where it can fail, a full disk, and two openers.

The file layer of `tests.soak.faultfs` forgets whatever was not fsynced when the "power" is
cut, so these tests fail if the writer skips an fsync or does things in the wrong order (a
kill of the process can't show that: the kernel keeps what was written).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine import autosave, savewriter
from engine.content.loader import load_encounter
from engine.encounter import Encounter, Record
from engine.history import History
from engine.save import SaveError, read_save
from engine.savewriter import SaveFailed, SaveWriter
from tests.soak.faultfs import Crash, FaultOS
from tests.support.fights import AI_ONLY, RandomDecider, play, random_action

# These tests watch the real fsyncs (through a faulty `os`): the no-op of the other tests'
# saves (tests/support/saves.py) is off here.
pytestmark = pytest.mark.durable


@pytest.fixture(scope="module")
def loaded():  # type: ignore[no-untyped-def]
    return load_encounter("default")


def drive(hist: History, rng: random.Random, steps: int, confirmed: list[list[Record]]) -> None:
    """Random player actions, undo and redo; after each call returns, what the save must hold."""
    if not hist.records:
        hist.start()
        confirmed.append(list(hist.records))
    for _ in range(steps):
        if hist.enc.over:
            return
        roll = rng.random()
        if roll < 0.1 and hist.can_undo():
            hist.undo(rng.randint(1, 2))
        elif roll < 0.18 and hist.can_redo():
            hist.redo()
        else:
            hist.apply(random_action(hist.enc, rng))
        confirmed.append(list(hist.records))


def new_history(loaded, folder: Path, seed: int) -> History:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    decider = RandomDecider(rng)
    enc = Encounter.create(loaded, seed=seed, control=AI_ONLY, deciders=lambda _c: decider)
    return autosave.begin(enc, deciders=lambda _c: decider, directory=folder)


# --- the order of writes and fsyncs ----------------------------------------------------------
@pytest.mark.parametrize("seed", range(12))
def test_power_cut_at_a_random_point_keeps_every_confirmed_record(
    loaded: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    rng = random.Random(seed)
    fs = FaultOS(tmp_path, crash_at=rng.randint(1, 60), rng=rng)
    monkeypatch.setattr(savewriter, "os", fs)
    confirmed: list[list[Record]] = []
    hist = None
    try:
        hist = new_history(loaded, tmp_path, seed)
        drive(hist, rng, 80, confirmed)
    except Crash:
        pass
    if hist is not None and hist.saver is not None:
        hist.saver.close()  # type: ignore[attr-defined]
    fs.power_cut()
    monkeypatch.undo()
    saves = sorted(tmp_path.glob("*.save.jsonl"))
    if not confirmed:
        assert len(saves) <= 1  # at most a save with a whole header and nothing confirmed
        if saves:
            assert read_save(saves[0]).entries == ()
        return
    assert len(saves) == 1
    kept = read_save(saves[0]).records
    # What the last call that returned promised, or (if the power went after the fsync of the
    # call it cut short) what that call did: never less, never a mix.
    assert hist is not None
    attempted = list(hist.records)
    assert kept in (confirmed[-1], attempted), (
        f"kept {len(kept)} records; confirmed {len(confirmed[-1])}, attempted {len(attempted)}"
    )


def test_the_model_catches_a_writer_that_skips_fsync(
    loaded: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fs = FaultOS(tmp_path)
    monkeypatch.setattr(savewriter, "os", fs)
    hist = new_history(loaded, tmp_path, 3)
    hist.start()
    monkeypatch.setattr(fs, "fsync", lambda fd: None)  # the bug: no fsync after append
    for _ in range(5):
        hist.apply(random_action(hist.enc, random.Random(1)))
    hist.saver.close()  # type: ignore[union-attr]
    fs.power_cut()
    monkeypatch.undo()
    kept = read_save(next(tmp_path.glob("*.save.jsonl"))).records
    assert len(kept) < len(hist.records)  # the model does see the loss


def test_append_writes_then_fsyncs_before_returning(
    loaded: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []
    fs = FaultOS(tmp_path)
    real_write, real_fsync, real_link = fs.write, fs.fsync, fs.link

    def noted(name: str, real: Any) -> Any:
        def call(*args: Any) -> Any:
            order.append(name)
            return real(*args)

        return call

    monkeypatch.setattr(fs, "write", noted("write", real_write))
    monkeypatch.setattr(fs, "fsync", noted("fsync", real_fsync))
    monkeypatch.setattr(fs, "link", noted("link", real_link))
    monkeypatch.setattr(savewriter, "os", fs)
    hist = new_history(loaded, tmp_path, 4)
    # Create: header written and fsynced in a temp file, linked, then the folder fsynced.
    assert order[:3] == ["write", "fsync", "link"] and order[-1] == "fsync"
    order.clear()
    hist.start()
    assert order == ["write", "fsync"]
    hist.saver.close()  # type: ignore[union-attr]


# --- a full disk -----------------------------------------------------------------------------
def test_disk_full_mid_write_cuts_back_reports_and_retries(
    loaded: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fs = FaultOS(tmp_path)
    monkeypatch.setattr(savewriter, "os", fs)
    hist = new_history(loaded, tmp_path, 5)
    rng = random.Random(5)
    hist.start()
    for _ in range(6):
        hist.apply(random_action(hist.enc, rng))
    path = hist.saver.path  # type: ignore[union-attr]
    before = path.read_bytes()
    fs.full_after = 9  # the next write stops after `{"crc":"c`
    with pytest.raises(SaveFailed) as err:
        hist.apply(random_action(hist.enc, rng))
    assert "No space left" in str(err.value) and "\n" not in str(err.value)
    assert path.read_bytes() == before  # cut back to the last good record
    status = autosave.status(hist)
    assert status is not None and not status.ok and status.pending == 1
    assert status.error is not None and "No space left" in status.error
    assert not autosave.retry(hist).ok  # still full
    assert path.read_bytes() == before
    fs.free()
    status = autosave.retry(hist)
    assert status.ok and status.pending == 0 and status.written == len(hist.records)
    hist.apply(random_action(hist.enc, rng))
    hist.saver.close()  # type: ignore[union-attr]
    again = read_save(path)
    assert again.torn is None and again.records == hist.records


def test_failed_cut_back_blocks_further_writes_until_it_works(
    loaded: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fs = FaultOS(tmp_path)
    monkeypatch.setattr(savewriter, "os", fs)
    hist = new_history(loaded, tmp_path, 6)
    rng = random.Random(6)
    hist.start()
    path = hist.saver.path  # type: ignore[union-attr]
    fs.full_after, fs.fail_truncate = 20, True
    with pytest.raises(SaveFailed):
        hist.apply(random_action(hist.enc, rng))
    torn = path.read_bytes()
    fs.full_after = None  # space again, but the torn bytes are still there
    assert not autosave.retry(hist).ok
    assert path.read_bytes() == torn  # nothing appended to the torn line
    fs.free()
    assert autosave.retry(hist).ok
    hist.saver.close()  # type: ignore[union-attr]
    assert read_save(path).records == hist.records


def test_disk_full_through_a_whole_fight_never_loses_a_confirmed_record(
    loaded: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fs = FaultOS(tmp_path)
    monkeypatch.setattr(savewriter, "os", fs)
    hist = new_history(loaded, tmp_path, 7)
    rng = random.Random(7)
    hist.start()
    path = hist.saver.path  # type: ignore[union-attr]
    failures = 0
    for _ in range(60):
        if hist.enc.over:
            break
        if rng.random() < 0.2:
            fs.full_after = rng.randint(0, 300)
        try:
            hist.apply(random_action(hist.enc, rng))
        except SaveFailed:
            failures += 1
            fs.free()
            assert autosave.retry(hist).ok
        assert read_save(path).records == hist.records
    assert failures > 0
    hist.saver.close()  # type: ignore[union-attr]


# --- two openers -----------------------------------------------------------------------------
def test_second_opener_never_cuts_back_records_it_did_not_read(loaded: Any, tmp_path: Path) -> None:
    a = autosave.begin(Encounter.create(loaded, seed=8, control=AI_ONLY), directory=tmp_path)
    a.start()
    play(loaded, 8, player="naive", enc=a.enc, apply=a.apply, max_records=11)
    path = a.saver.path  # type: ignore[union-attr]
    seen_by_b = read_save(path)  # B reads while A still has it open
    assert len(seen_by_b.entries) == 11
    play(loaded, 8, player="naive", enc=a.enc, apply=a.apply, max_records=13)  # A appends 2
    a.saver.close()  # type: ignore[union-attr]  # and exits
    with pytest.raises(SaveError, match="changed since it was read"):
        SaveWriter.append_to(seen_by_b)
    assert len(read_save(path).entries) == 13
    b = autosave.resume(path)  # lock, then read: sees all 13
    assert len(b.records) == 13
    with pytest.raises(SaveError, match="open in another Skirmish"):
        autosave.resume(path)
    b.saver.close()  # type: ignore[union-attr]
    assert len(read_save(path).entries) == 13


def test_open_existing_locks_before_reading(loaded: Any, tmp_path: Path) -> None:
    a = autosave.begin(Encounter.create(loaded, seed=9, control=AI_ONLY), directory=tmp_path)
    a.start()
    path = a.saver.path  # type: ignore[union-attr]
    size = path.stat().st_size
    with pytest.raises(SaveError, match="open in another Skirmish"):
        SaveWriter.open_existing(path)
    assert path.stat().st_size == size
    a.saver.close()  # type: ignore[union-attr]


def test_the_apps_resume_locks_before_reading(loaded: Any, tmp_path: Path) -> None:
    """The app's own resume path (Controller.resumed) takes the lock first too: while another
    Skirmish has the save, it is refused and the file is untouched; once that one has appended
    and exited, the app continues from every record, none cut back."""
    from tui.controller import Controller

    a = autosave.begin(Encounter.create(loaded, seed=8, control=AI_ONLY), directory=tmp_path)
    a.start()
    play(loaded, 8, player="naive", enc=a.enc, apply=a.apply, max_records=11)
    path = a.saver.path  # type: ignore[union-attr]
    size = path.stat().st_size
    with pytest.raises(SaveError, match="open in another Skirmish"):
        Controller.resumed(path)
    assert path.stat().st_size == size
    play(loaded, 8, player="naive", enc=a.enc, apply=a.apply, max_records=13)  # A appends 2
    a.saver.close()  # type: ignore[union-attr]  # and exits
    ctl = Controller.resumed(path)
    assert len(ctl.hist.records) == 13
    ctl.close()
    assert len(read_save(path).entries) == 13
