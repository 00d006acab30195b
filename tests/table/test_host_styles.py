"""`skirmish host --ai-style` (issue 15, target 4): the parser and the one-line errors of
`sim` and `play`, the choices kept in the table's save so that `--resume` plays the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from ai.styles import StylePick
from tests.support.table import AMBUSH, HostProc, wait_save
from tui.cli import main
from tui.cli_styles import style_for

pytestmark = pytest.mark.timeout(120)


def _host(tmp_path: Path, *more: str) -> list[str]:
    return ["host", AMBUSH, "--seat", "kara", "--dir", str(tmp_path / "t"), *more]


def test_a_bad_style_word_is_the_argparse_error_of_sim_and_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(_host(tmp_path, "--ai-style", "wild\x1b[2J"))
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "unknown style 'wild" in err and "--ai-style" in err
    assert "Traceback" not in err and "\x1b" not in err


def test_a_style_for_a_side_the_encounter_lacks_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(_host(tmp_path, "--ai-style", "nobody=flee")) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("skirmish host: --ai-style nobody=...: no side 'nobody' (sides: ")
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "t" / "private").exists()  # refused before the table is made


def test_resume_refuses_new_styles(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["host", "--resume", "--dir", str(tmp_path), "--ai-style", "ruthless"]) == 2
    assert "keeps the styles it began with" in capsys.readouterr().err


def test_the_styles_are_saved_with_the_table_and_come_back_on_resume(tmp_path: Path) -> None:
    from tui.controller import Controller

    args = [AMBUSH, "--seed", "5", "--pace", "0", "--step", "--seat", "kara", "--seat", "brak"]
    h = HostProc(tmp_path / "t", tmp_path / "d", [*args, "--ai-style", "MONSTERS=ruthless,flee"])
    try:
        wait_save(h.root)
        save = h.save()
    finally:
        err = h.stop()
    assert "Traceback" not in err, err
    ctl = Controller.resumed(save)
    try:
        assert ctl.options.ai_style == ("monsters=ruthless,flee",)
        assert style_for(ctl.options.ai_style, "monsters") == StylePick(ruthless=True, flee=True)
        assert style_for(ctl.options.ai_style, "party") is None
    finally:
        ctl.close()
