"""`skirmish resume | replay | export`: listings, opening through the app, headless export,
and one-line errors (exit 1, no traceback) for every bad file."""

from __future__ import annotations

import json
import subprocess
import sys
import types
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest

from engine.autosave import Autosaver
from engine.content.loader import load_encounter
from tests.support.fights import play
from tui import cli_saves
from tui.cli_saves import main, when
from tui.logtext import LogFormatter, names_of_encounter

ROOT = Path(__file__).resolve().parents[1]
LOADED = load_encounter("default")


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SKIRMISH_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Path]]:
    """A stand-in for the app's tui.launch that records what it was asked to open."""
    calls: list[tuple[str, Path]] = []
    fake = types.ModuleType("tui.launch")

    def launch(kind: str) -> Callable[[Path], int]:
        def entry(path: Path) -> int:
            calls.append((kind, Path(path)))
            return 0

        return entry

    fake.launch_save = launch("save")  # type: ignore[attr-defined]
    fake.launch_replay = launch("replay")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tui.launch", fake)
    return calls


@pytest.fixture
def no_app(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tui.launch", None)  # import fails as if it were missing


def saved(records: int | None = None, seed: int = 3, directory: Path | None = None) -> Path:
    enc = play(LOADED, seed, player="naive", max_records=records or 10_000)
    with Autosaver.create(enc, directory=directory) as saver:
        return saver.path


def one_line_error(capsys: pytest.CaptureFixture[str], command: str, *fragments: str) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"skirmish {command}: ")
    assert "Traceback" not in err
    for f in fragments:
        assert f in err
    return err


# --- resume ----------------------------------------------------------------------------------
def test_resume_lists_unfinished_fights(capsys, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    assert main(["resume"]) == 0
    assert "No unfinished fights" in capsys.readouterr().out
    going = saved(30, seed=1)
    saved(None, seed=2)  # finished: not listed
    (data_dir / "saves" / "broken.save.jsonl").write_text("{}\n")
    assert main(["resume"]) == 0
    out = capsys.readouterr().out
    assert "Unfinished fights" in out
    rows = [x for x in out.splitlines() if x.strip().startswith("1.")]
    assert len(rows) == 1 and str(going) in rows[0]
    assert " default " in rows[0] and "round " in rows[0] and "today" in rows[0]  # item 7
    assert " 2." not in out
    assert "1 save could not be read" in out and "broken.save.jsonl" in out


def test_resume_opens_by_number_latest_or_file(launched, capsys) -> None:  # type: ignore[no-untyped-def]
    older = saved(20, seed=1)
    newer = saved(25, seed=2)
    assert main(["resume", "1"]) == 0
    assert main(["resume", "--latest"]) == 0
    assert main(["resume", str(older)]) == 0
    assert launched == [("save", newer), ("save", newer), ("save", older)]
    assert main(["resume", "7"]) == 1
    one_line_error(capsys, "resume", "no unfinished fight number 7")


def test_resume_without_the_app_says_so_in_one_line(no_app, capsys) -> None:  # type: ignore[no-untyped-def]
    path = saved(20)
    assert main(["resume", str(path)]) == 1
    one_line_error(capsys, "resume", "the app can't start here", "the save is fine", str(path))


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"", "is empty"),
        (b"hello\n", "not a Skirmish save"),
        (b'{"crc":"00000000","format":"skirmish-save","version":1}\n', "checksum"),
        (b'{"format":"skirmish-save","version":4}\n', "newer Skirmish (format 4)"),
    ],
)
def test_bad_files_one_line_exit_1(
    launched: list[tuple[str, Path]],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    content: bytes,
    fragment: str,
) -> None:
    bad = tmp_path / "bad.save.jsonl"
    bad.write_bytes(content)
    for command in (["resume", str(bad)], ["replay", str(bad)], ["export", str(bad)]):
        assert main(command) == 1
        one_line_error(capsys, command[0], str(bad), fragment)
        assert bad.read_bytes() == content
    assert launched == []


def test_missing_file_without_traceback(tmp_path: Path) -> None:
    missing = tmp_path / "gone.save.jsonl"
    for command in ("resume", "replay", "export"):
        done = subprocess.run(
            [sys.executable, "-m", "tui.cli_saves", command, str(missing)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 1
        assert done.stderr == f"skirmish {command}: {missing}: no such file\n"
        assert done.stdout == ""


# --- replay ----------------------------------------------------------------------------------
def test_replay_opens_a_save_or_a_combat_log(launched, capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = saved(40)
    log = tmp_path / "run.jsonl"
    assert main(["export", str(path), "-o", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    assert main(["replay", str(log)]) == 0
    assert launched == [("replay", path), ("replay", log)]
    other = tmp_path / "other.jsonl"
    other.write_text('{"type": "something"}\n')
    assert main(["replay", str(other)]) == 1
    one_line_error(capsys, "replay", "not a Skirmish save nor a combat log")


def test_replay_without_the_app(no_app, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["replay", str(saved(10))]) == 1
    one_line_error(capsys, "replay", "the app can't start here", "--format text")


# --- export ----------------------------------------------------------------------------------
def test_export_jsonl_is_the_fights_combat_log(capsys) -> None:  # type: ignore[no-untyped-def]
    enc = play(LOADED, 5, player="naive")
    with Autosaver.create(enc) as saver:
        pass
    assert main(["export", str(saver.path), "--format", "jsonl"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [json.loads(x) for x in out] == [json.loads(json.dumps(e.to_json())) for e in enc.log]
    first, last = json.loads(out[0]), json.loads(out[-1])
    assert first["type"] == "encounter_start" and first["seq"] == 0
    assert first["content_hash"] == LOADED.content_hash and first["seed"] == 5
    assert last["type"] == "encounter_end"
    assert [json.loads(x)["seq"] for x in out] == list(range(len(out)))


def test_export_text(capsys) -> None:  # type: ignore[no-untyped-def]
    path = saved(None, seed=6)
    assert main(["export", str(path), "--format", "text"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) > 20 and all(line.strip() for line in out)


def test_export_text_is_the_log_panes_lines(capsys) -> None:  # type: ignore[no-untyped-def]
    enc = play(LOADED, 6, player="naive")
    with Autosaver.create(enc) as saver:
        pass
    assert main(["export", str(saver.path), "--format", "text"]) == 0
    out = capsys.readouterr().out.splitlines()
    lines = LogFormatter(names_of_encounter(enc)).lines(enc.log)
    assert out == [f"[{ln.round}] {ln.text}" for ln in lines]
    assert "hits" in "\n".join(out) or "misses" in "\n".join(out)
    assert out[-1].split("] ", 1)[1].startswith("The fight is over after")


def test_export_to_a_file_never_overwrites_a_save(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = saved(30)
    other = saved(30, seed=9)
    before = other.read_bytes()
    assert main(["export", str(path), "-o", str(other)]) == 1
    one_line_error(capsys, "export", "refusing to overwrite")
    assert main(["export", str(path), "-o", str(path)]) == 1
    one_line_error(capsys, "export", "refusing to overwrite")
    assert other.read_bytes() == before
    out = tmp_path / "log.jsonl"
    out.write_text("old export\n")
    assert main(["export", str(path), "-o", str(out)]) == 1  # an existing file needs --force
    one_line_error(capsys, "export", "already exists; use --force")
    assert main(["export", str(path), "-o", str(out), "--force"]) == 0
    assert out.read_text().startswith('{"seq": 0, "type": "encounter_start"')


def test_add_parsers_wires_into_a_main_parser(launched) -> None:  # type: ignore[no-untyped-def]
    import argparse

    parser = argparse.ArgumentParser(prog="skirmish")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("play")
    cli_saves.add_parsers(sub)
    args = parser.parse_args(["export", "x.save.jsonl", "--format", "text", "-o", "y.txt"])
    assert args.func is cli_saves.cmd_export and args.format == "text"
    assert args.output == "y.txt"
    assert parser.parse_args(["resume"]).func is cli_saves.cmd_resume


def test_when() -> None:
    now = datetime(2025, 3, 10, 12, 0)
    assert when(datetime(2025, 3, 10, 9, 5), now) == "today 09:05"
    assert when(datetime(2025, 3, 9, 23, 59), now) == "yesterday 23:59"
    assert when(datetime(2025, 1, 2, 8, 0), now) == "2025-01-02 08:00"


# --- wired into `skirmish` ---------------------------------------------------------------------
def test_skirmish_help_lists_the_save_commands_with_examples(capsys) -> None:  # type: ignore[no-untyped-def]
    from tui.cli import main as skirmish

    with pytest.raises(SystemExit):
        skirmish(["--help"])
    out = capsys.readouterr().out
    for command in ("resume", "replay", "export"):
        assert command in out.split("examples:")[0]  # a subcommand with its help line
        assert f"skirmish {command} " in out.split("examples:")[1]  # and an example


def test_skirmish_runs_the_save_commands(launched, capsys) -> None:  # type: ignore[no-untyped-def]
    from tui.cli import main as skirmish

    path = saved(20)
    assert skirmish(["resume", str(path)]) == 0
    assert skirmish(["replay", str(path)]) == 0
    assert launched == [("save", path), ("replay", path)]
    assert skirmish(["export", str(path), "--format", "text"]) == 0
    assert len(capsys.readouterr().out.splitlines()) > 5
    assert skirmish(["resume", "9"]) == 1
    one_line_error(capsys, "resume", "no unfinished fight number 9")


def test_the_app_provides_the_entry_points() -> None:
    import tui.launch

    assert callable(tui.launch.launch_save) and callable(tui.launch.launch_replay)


def test_skirmish_starts_without_the_content_loader() -> None:
    """A bare `skirmish` parses its arguments and builds the app without the engine: the
    start screen draws first, the content (pydantic, networkx) loads in a worker."""
    code = (
        "import sys; import tui.cli, tui.launch, tui.app, tui.screens.start; "
        "tui.cli.build_parser().parse_args([]); "
        "heavy = [m for m in sys.modules if m.split('.')[0] in "
        "('engine', 'ai', 'pydantic', 'networkx')]; print(heavy)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
