"""`--ai-style` on the command line (issue 15 target 4): the words, bad values as one-line
argparse errors, sides matched and checked, the choices reaching each side's policy in `sim`
and `play`, kept in a play save for resume (and a hostile save's values dropped)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ai.driver import make_policy
from ai.styles import MAX_STYLE_ARG, StylePick, parse_style
from ai.tactical import TacticalPolicy
from tui.cli import main
from tui.cli_styles import style_for, styles_by_side
from tui.launch import options_from, resolve_options
from tui.options import MAX_SAVED_STYLES, GameOptions, options_from_save


@pytest.mark.parametrize(
    ("text", "side", "pick"),
    [
        ("ruthless", None, StylePick(ruthless=True)),
        ("merciful", None, StylePick(ruthless=False)),
        ("flee", None, StylePick(flee=True)),
        ("stand-fast", None, StylePick(flee=False)),
        ("cautious", None, StylePick(caution="cautious")),
        ("monsters=ruthless,flee,bold", "monsters", StylePick(True, True, "bold")),
        ("Monsters = Cautious , Flee", "Monsters", StylePick(flee=True, caution="cautious")),
    ],
)
def test_style_words(text: str, side: str | None, pick: StylePick) -> None:
    assert parse_style(text) == (side, pick)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("wild", "unknown style 'wild'"),
        ("monsters=", "unknown style ''"),
        ("=flee", "expected SIDE=STYLE"),
        ("ruthless,merciful", "chooses ruthless twice"),
        ("bold,cautious", "chooses caution twice"),
        ("flee\x1b[2J", "unknown style"),
        ("x" * (MAX_STYLE_ARG + 1), "too long"),
    ],
)
def test_bad_styles_are_one_line_argparse_errors(
    capsys: pytest.CaptureFixture[str], text: str, needle: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["sim", "mirror", "--runs", "1", "--ai-style", text])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert needle in err and "--ai-style" in err and "Traceback" not in err
    assert "\x1b" not in err  # the value is quoted (repr), never echoed raw


@pytest.mark.parametrize("command", ["sim", "play"])
def test_a_style_for_a_side_the_encounter_lacks_is_refused(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    assert main([command, "mirror", "--ai-style", "nobody=flee"]) == 2
    err = capsys.readouterr().err
    assert "no side 'nobody' (sides: west, east)" in err and "Traceback" not in err


def test_side_choices_win_over_every_side_choices_and_later_over_earlier() -> None:
    picks = [parse_style(t) for t in ("ruthless,bold", "WEST=merciful", "west=flee", "cautious")]
    by_side, problem = styles_by_side(picks, ["west", "east"])
    assert problem is None
    assert by_side == {
        "west": StylePick(ruthless=False, flee=True, caution="cautious"),
        "east": StylePick(ruthless=True, caution="cautious"),
    }


def test_sim_hands_each_side_its_styles(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import ai.sim

    seen: list[Any] = []
    real = ai.sim.make_policy

    def spy(name: str, style: StylePick | None = None) -> Any:
        policy = real(name, style)
        seen.append(policy)
        return policy

    monkeypatch.setattr(ai.sim, "make_policy", spy)
    args = ["sim", "mirror", "--runs", "1", "--jobs", "1", "--json"]
    assert main([*args, "--ai-style", "ruthless", "--ai-style", "east=flee"]) == 0
    west, east = seen
    assert isinstance(west, TacticalPolicy) and isinstance(east, TacticalPolicy)
    assert west.config.style == StylePick(ruthless=True)
    assert east.config.style == StylePick(ruthless=True, flee=True)
    rep = json.loads(capsys.readouterr().out)["reproduce"]
    assert rep["ai_style"] == ["west=ruthless", "east=ruthless,flee"]
    assert "--ai-style west=ruthless --ai-style east=ruthless,flee" in rep["command"]


def test_naive_takes_no_style() -> None:
    assert make_policy("naive", StylePick(ruthless=True)).name == "naive"


def test_play_options_name_the_sides_as_the_encounter_does() -> None:
    from tui.cli import build_parser

    args = build_parser().parse_args(
        ["play", "mirror", "--ai-style", "ruthless", "--ai-style", "EAST=cautious"]
    )
    options, problem = resolve_options(options_from(args), ["west", "east"], ["w1", "e1"])
    assert problem is None
    assert options.ai_style == ("west=ruthless", "east=ruthless,cautious")
    assert style_for(options.ai_style, "east") == StylePick(ruthless=True, caution="cautious")
    assert style_for(options.ai_style, "nobody") is None
    assert style_for((), "east") is None


def test_a_play_save_keeps_the_styles_for_resume() -> None:
    options = GameOptions(ai_style=("monsters=ruthless,flee", "cautious"))
    back = options_from_save("default", 3, "ffd20", {}, options.meta())
    assert back.ai_style == options.ai_style


@pytest.mark.parametrize(
    ("saved", "kept"),
    [
        ("ruthless", ()),  # not a list: the default
        ([1, None, {"a": 1}, "monsters=ruthless"], ("monsters=ruthless",)),
        (["wild", "monsters=flee,stand-fast", "flee"], ("flee",)),
        (["flee"] * 10_000, ("flee",) * MAX_SAVED_STYLES),
    ],
    ids=["not-a-list", "not-strings", "not-styles", "too-many"],
)
def test_a_hostile_save_keeps_only_good_styles(saved: Any, kept: tuple[str, ...]) -> None:
    back = options_from_save("default", 3, "ffd20", {}, {"app": {"ai_style": saved}})
    assert back.ai_style == kept
