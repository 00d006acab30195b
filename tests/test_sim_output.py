"""`skirmish sim` output (issue 12, item 24): the progress bar's ETA, and a `--json` summary
that says alone how to run the same fights again."""

from __future__ import annotations

import io
import json
import shlex
import sys

import pytest

from tui.cli import main
from tui.progress import bar, clock, progress


def test_bar_shows_an_eta_from_the_pace_so_far() -> None:
    # 25 of 100 runs in 10 s: 75 more at 0.4 s each is 30 s
    line = bar(25, 100, 10.0)
    assert "25/100" in line and "0:10 elapsed" in line and "ETA 0:30" in line


def test_bar_has_no_eta_before_the_first_run_and_says_done_at_the_end() -> None:
    assert "ETA --:--" in bar(0, 50, 0.3)
    assert bar(50, 50, 61.0).endswith("1:01 elapsed, done")


def test_clock_counts_hours() -> None:
    assert clock(3725) == "1:02:05" and clock(59.6) == "1:00" and clock(-3) == "0:00"


def test_progress_ticks_redraw_one_line_with_the_eta() -> None:
    out = io.StringIO()
    t = iter([100.0, 104.0, 108.0])
    tick = progress(4, out, now=lambda: next(t))
    tick(1)
    tick(2)
    text = out.getvalue()
    assert text.count("\r") == 2 and "\n" not in text
    assert "ETA 0:12" in text.split("\r")[1]  # 1 run in 4 s: 3 more, 12 s
    assert "ETA 0:08" in text.split("\r")[2]


def test_sim_json_records_how_to_reproduce_it(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["sim", "default", "--runs", "2", "--seed", "5", "--jobs", "1", "--json"]
    assert main([*args, "--policy", "monsters=naive"]) == 0
    first = json.loads(capsys.readouterr().out)
    rep = first["reproduce"]
    assert rep["encounter"] == "default" and rep["first_seed"] == 5 and rep["runs"] == 2
    assert rep["ruleset"] == "ffd20"
    assert rep["policies"] == {"party": "tactical", "monsters": "naive"}
    assert rep["content_hash"]
    # the recorded command alone gives the same fights
    cmd = shlex.split(rep["command"])
    assert cmd[:2] == ["skirmish", "sim"]
    assert main([*cmd[1:], "--jobs", "1", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["wins"] == first["wins"] and again["mean_rounds"] == first["mean_rounds"]
    assert again["reproduce"] == rep


def test_progress_redraws_at_most_ten_times_a_second_and_always_at_the_end() -> None:
    """Fights that end faster than the eye can see don't each cost a terminal write."""
    out = io.StringIO()
    t = iter([0.0, 0.01, 0.02, 0.15, 0.16, 0.17])
    tick = progress(5, out, now=lambda: next(t))
    for done in range(1, 6):
        tick(done)
    draws = out.getvalue().split("\r")[1:]
    assert [d.split("]")[1].split()[0] for d in draws] == ["1/5", "3/5", "5/5"]
    assert "done" in draws[-1]


@pytest.mark.parametrize(
    ("tty", "as_json", "drawn"), [(True, False, True), (True, True, False), (False, False, False)]
)
def test_the_bar_is_only_for_a_terminal_and_never_with_json(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tty: bool,
    as_json: bool,
    drawn: bool,
) -> None:
    from dataclasses import replace

    import ai.sim
    from ai.sim import Job, run_job

    one = run_job(Job("mirror", 0, 1, {}, None, None))
    given: list[object] = []

    def fake_run_many(jobs: list[Job], workers: int, progress: object = None) -> list[object]:
        given.append(progress)
        if callable(progress):
            for i in range(len(jobs)):
                progress(i + 1)
        return [replace(one, index=j.index, seed=j.seed) for j in jobs]

    monkeypatch.setattr(ai.sim, "run_many", fake_run_many)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: tty)
    args = ["sim", "mirror", "--runs", "30", "--jobs", "2"] + (["--json"] if as_json else [])
    assert main(args) == 0
    err = capsys.readouterr().err
    assert callable(given[0]) is drawn
    assert ("30/30" in err) is drawn and ("\r" in err) is drawn
