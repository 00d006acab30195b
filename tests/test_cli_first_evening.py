"""Issue 12, items 3 and 5-10: what a new user trips over on the command line (a closed pipe,
their own paths, the names and ids a list shows, --control, resume with nothing saved,
--version and the help lines). Each test fails on the code before the fix."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from engine.autosave import Autosaver, list_unfinished
from engine.content.loader import load_encounter
from engine.encounter import Encounter
from tests.support.fights import play
from tui.cli import build_parser, main
from tui.cli_saves import format_listing
from tui.launch import control_pairs, options_from, resolve_options
from tui.replay import load_timeline

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = Path(sys.executable).parent / "skirmish"


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SKIRMISH_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


# --- item 5: a closed pipe ends quietly -----------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["list"], id="list"),
        pytest.param(["list", "--creatures", "battle"], id="list-creatures"),
        pytest.param(["sim", "mirror", "--runs", "1", "--jobs", "1"], id="sim"),
    ],
)
def test_item5_output_to_a_closed_pipe_ends_without_a_traceback(argv: list[str]) -> None:
    if not SKIRMISH.exists():
        pytest.skip("the skirmish command is not installed")
    proc = subprocess.Popen(
        [str(SKIRMISH), *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # `| head -0`: the reader is gone before the first line
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) in (0, 141)
    assert "Traceback" not in err and "BrokenPipe" not in err


# --- item 6: the user's paths are reported as the user's ------------------------------------
def test_item6_check_reports_paths_as_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    missing_abs = str(tmp_path / "nowhere" / "fight.yaml")
    assert main(["check", missing_abs, "rel.yaml"]) == 1
    out = capsys.readouterr().out
    assert "maps/" not in out
    lines = out.splitlines()
    assert any(line.startswith(f"{missing_abs}:") for line in lines)
    assert any(line.startswith("rel.yaml:") for line in lines)
    # A bundled file or encounter name is still the bundled one.
    assert main(["check", "encounters/default.yaml", "default"]) == 0


# --- item 7: one name per encounter ---------------------------------------------------------
def test_item7_resume_list_and_replay_title_use_the_name_play_takes(data_dir: Path) -> None:
    loaded = load_encounter("default")
    assert loaded.spec.name != "default"  # the content's own title differs: the trap
    enc = play(loaded, 3, player="naive", max_records=6)
    with Autosaver.create(enc) as saver:
        path = saver.path
    saves = list_unfinished()
    assert [s.encounter for s in saves] == ["default"]
    listing = format_listing(saves)
    assert " default " in listing and loaded.spec.name not in listing
    assert load_timeline(path).title == "default"
    load_encounter(saves[0].encounter)  # whatever the list shows, `play` takes back


# --- item 8: creature ids -------------------------------------------------------------------
def test_item8_list_creatures_shows_ids_and_sides(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--creatures", "default"]) == 0
    out = capsys.readouterr().out
    header, *rows = out.splitlines()
    assert header.split()[:3] == ["id", "name", "side"]
    kael = next(r for r in rows if r.startswith("kael "))
    assert "Kael" in kael and "party" in kael and kael.endswith("player")


def _opts(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["play", "default", *argv])


def test_item8_control_ids_and_sides_are_case_insensitive() -> None:
    o = options_from(_opts("--control", "KAEL=ai", "--control", "Monsters=player"))
    fixed, problem = resolve_options(o, ["party", "monsters"], ["kael", "nix"])
    assert problem is None and fixed.control == {"kael": "ai", "monsters": "player"}


def test_item8_a_bad_control_lists_the_ids_and_sides(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "default", "--control", "kael2=ai"]) == 2
    err = capsys.readouterr().err
    assert "'kael2'" in err and "sides: party, monsters" in err and "kael, nix" in err


def test_item8_contradictory_controls_are_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert control_pairs([("party", "player"), ("Party", "ai")])[1] is not None
    assert control_pairs([("party", "player"), ("party", "player")])[1] is None
    assert main(["play", "default", "--control", "party=player", "--control", "party=ai"]) == 2
    assert "party=player" in capsys.readouterr().err


# --- item 3: allied NPCs default to the AI --------------------------------------------------
def test_item3_allied_npcs_are_the_ais_unless_the_command_line_says_so() -> None:
    loaded = load_encounter("battle")
    militia = [cd for cd in loaded.spec.combatants if cd.id.startswith("spear-")]
    assert militia and all(loaded.control(cd) == "ai" for cd in militia)
    assert loaded.control(next(cd for cd in loaded.spec.combatants if cd.id == "kael")) == "player"
    b = Encounter.create(loaded, seed=1).battle
    assert b["spear-1"].control == "ai" and b["kael"].control == "player"
    given = Encounter.create(loaded, seed=1, control={"spear-1": "player"}).battle
    assert given["spear-1"].control == "player" and given["spear-2"].control == "ai"


# --- item 9: resume with nothing saved ------------------------------------------------------
def test_item9_resume_latest_with_no_saves_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli_saves import main as saves_main

    assert saves_main(["resume", "--latest"]) == 1
    err = capsys.readouterr().err
    assert "no unfinished fight to resume" in err and "number" not in err


# --- item 10: --version and a help line for every option ------------------------------------
def test_item10_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("skirmish ")


def _parsers(p: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    out = [(p.prog, p)]
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                out.extend(_parsers(sub))
    return out


def test_item10_every_option_and_argument_has_a_help_line() -> None:
    missing = [
        f"{prog}: {'/'.join(a.option_strings) or a.dest}"
        for prog, parser in _parsers(build_parser())
        for a in parser._actions
        if not isinstance(a, argparse._SubParsersAction) and not a.help
    ]
    assert missing == []


def test_item10_manual_dice_help_names_the_sides(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--manual-dice SIDE" in text and "party or monsters" in text


def test_item10_readme_lists_pace_and_step() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "--pace" in readme and "--step" in readme
