"""The command line against hostile files and a full disk (issue 17): `export -o` never
replaces what isn't a regular file it was told to replace, `sim --log-dir` and `replay` end
in one line, and a failed write leaves no empty file behind.

A full disk is made real with RLIMIT_FSIZE in a child process: a write past the limit fails
with EFBIG exactly where ENOSPC would (Python ignores SIGXFSZ).
"""

from __future__ import annotations

import json
import os
import resource
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from engine.autosave import Autosaver
from engine.content.loader import load_encounter
from engine.logfile import check_start
from engine.save import SaveError
from tests.support.fights import play
from tui.cli_saves import check_log, main

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = [sys.executable, "-m", "tui.cli"]


@pytest.fixture(scope="module")
def save_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    enc = play(load_encounter("default"), 3, player="naive", max_records=20)
    with Autosaver.create(enc, directory=tmp_path_factory.mktemp("saves")) as saver:
        return saver.path


def one_line(capsys: pytest.CaptureFixture[str], command: str, *fragments: str) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"skirmish {command}: "), err
    for f in fragments:
        assert f in err
    return err


# --- export -o -------------------------------------------------------------------------------
def test_export_refuses_to_overwrite_without_force(save_path: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "log.jsonl"
    out.write_text("mine\n")
    assert main(["export", str(save_path), "-o", str(out)]) == 1
    one_line(capsys, "export", "already exists", "--force")
    assert out.read_text() == "mine\n"


def test_export_force_keeps_the_mode_of_the_file_it_replaces(
    save_path: Path, tmp_path: Path
) -> None:
    out = tmp_path / "log.jsonl"
    out.write_text("mine\n")
    out.chmod(0o644)
    assert main(["export", str(save_path), "-o", str(out), "--force"]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    assert out.read_text().startswith('{"seq": 0')


def test_export_new_file_gets_the_umask_mode(save_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "new.jsonl"
    old = os.umask(0o022)
    try:
        assert main(["export", str(save_path), "-o", str(out)]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644


def test_export_never_replaces_a_symlink(save_path: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "target.txt"
    target.write_text("keep\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert main(["export", str(save_path), "-o", str(link), "--force"]) == 1
    one_line(capsys, "export", "symbolic link")
    assert link.is_symlink() and target.read_text() == "keep\n"


def test_export_never_replaces_a_device(save_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["export", str(save_path), "-o", "/dev/null", "--force"]) == 1
    one_line(capsys, "export", "not a regular file")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_export_never_blocks_on_a_fifo(save_path: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    start = time.perf_counter()
    assert main(["export", str(save_path), "-o", str(fifo), "--force"]) == 1
    assert time.perf_counter() - start < 5
    one_line(capsys, "export", "not a regular file")


def _fsize_limit(limit: int):  # type: ignore[no-untyped-def]
    def set_limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return set_limit


def test_export_on_a_full_disk_leaves_nothing_behind(save_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "out" / "log.jsonl"
    out.parent.mkdir()
    proc = subprocess.run(
        [*SKIRMISH, "export", str(save_path), "-o", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        preexec_fn=_fsize_limit(2000),
        timeout=120,
    )
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "can't write it" in proc.stderr, proc.stderr
    assert list(out.parent.iterdir()) == []


# --- sim --log-dir ---------------------------------------------------------------------------
def test_sim_log_dir_naming_a_file(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    for target in (afile, afile / "sub"):
        proc = subprocess.run(
            [*SKIRMISH, "sim", "default", "--runs", "1", "--log-dir", str(target)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 2
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stderr.startswith("skirmish sim: --log-dir")
    assert afile.read_text() == "x"


def test_sim_log_dir_on_a_full_disk(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    proc = subprocess.run(
        [*SKIRMISH, "sim", "default", "--runs", "2", "--jobs", "1", "--log-dir", str(logs)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        preexec_fn=_fsize_limit(4000),
        timeout=300,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "can't write" in proc.stderr
    assert [p for p in logs.iterdir()] == []  # no empty or cut-short log left


# --- replay of logs --------------------------------------------------------------------------
def huge_map_log(tmp_path: Path) -> Path:
    start = {
        "seq": 0,
        "type": "encounter_start",
        "round": 0,
        "schema": 1,
        "encounter": "x",
        "content_hash": "0",
        "ruleset": "ffd20",
        "seed": 1,
        "map": {"name": "big", "width": 60000, "height": 60000, "terrain": {}},
        "combatants": [{"id": "a", "pos": [0, 0], "hp": 5}],
    }
    path = tmp_path / "huge.jsonl"
    path.write_text(json.dumps(start) + "\n")
    return path


def test_log_claiming_a_60000_square_map_is_refused(tmp_path: Path) -> None:
    path = huge_map_log(tmp_path)
    with pytest.raises(SaveError, match="60000x60000"):
        check_log(path)
    from tui.replay import load_timeline

    start = time.perf_counter()
    with pytest.raises(SaveError, match="60000x60000"):
        load_timeline(path)
    assert time.perf_counter() - start < 2


def test_replay_of_a_huge_map_log_is_one_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["replay", str(huge_map_log(tmp_path))]) == 1
    one_line(capsys, "replay", "60000x60000")


@pytest.mark.parametrize(
    ("start", "fragment"),
    [
        ({"map": {"width": 5, "height": 5, "terrain": {"wall": [[9, 9]]}}}, "off the map"),
        ({"map": {"width": 5, "height": 5, "terrain": {"wall": 5}}}, "not a list"),
        ({"map": {"width": 5, "height": 5}, "combatants": []}, "combatants"),
        ({"map": {"width": 5, "height": 5}, "combatants": [{"id": "a", "pos": [7, 0]}]}, "off"),
        ({"map": {"width": True, "height": 5}}, "a map is"),
    ],
)
def test_log_start_fields_are_checked(start: dict[str, Any], fragment: str) -> None:
    start.setdefault("combatants", [{"id": "a", "pos": [0, 0], "hp": 1}])
    with pytest.raises(ValueError, match=fragment):
        check_start(start)


def test_replay_of_a_fifo_or_device_is_refused_at_once(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    fifo = tmp_path / "p.jsonl"
    os.mkfifo(fifo)
    for target in (str(fifo), "/dev/zero"):
        start = time.perf_counter()
        assert main(["replay", target]) == 1
        assert time.perf_counter() - start < 5
        one_line(capsys, "replay")
