"""`skirmish` and `skirmish play`: options reach the app, bad ones stop before the screen."""

from __future__ import annotations

import pytest

from tests.support.app import DUEL
from tui.cli import build_parser, main
from tui.launch import check_options, options_from


def test_play_options_become_game_options() -> None:
    args = build_parser().parse_args(
        [
            "play",
            DUEL,
            "--seed",
            "9",
            "--control",
            "gob-1=player",
            "--manual-dice",
            "party",
            "--pace",
            "0",
            "--step",
        ]
    )
    o = options_from(args)
    assert (o.source, o.seed, o.control, o.manual_dice, o.pace, o.step) == (
        DUEL,
        9,
        {"gob-1": "player"},
        ("party",),
        0.0,
        True,
    )


def test_no_subcommand_picks_a_seed_and_the_default() -> None:
    o = options_from(build_parser().parse_args([]))
    assert o.source == "default" and o.seed >= 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", DUEL, "--control", "nobody=ai"], "no side or creature 'nobody'"),
        (["play", DUEL, "--manual-dice", "gob-1"], "no side 'gob-1'"),
    ],
)
def test_bad_options_exit_2_before_the_app(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_check_options_accepts_sides_and_ids() -> None:
    o = options_from(
        build_parser().parse_args(
            ["play", DUEL, "--control", "monsters=player", "--control", "kara=ai"]
        )
    )
    assert check_options(o, {"party", "monsters"}, {"kara", "brak"}) is None


def test_a_missing_encounter_is_one_line_and_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "no-such-fight"]) == 1
    err = capsys.readouterr().err
    assert "no-such-fight" in err and "Traceback" not in err
