"""The headless simulator and `skirmish sim`: decision events, seeds independent of `--jobs`,
`--swap-sides` and `wins_by_policy`, the JSON summary, the logs (checked by check_log.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ai.sim import CHUNK_MAX, Interrupted, Job, chunks, play, run_many, summarize
from engine.content.loader import load_encounter
from tui.cli import main

CHECK_LOG = Path(__file__).resolve().parents[3] / "shared" / "conformance" / "check_log.py"


def test_every_ai_turn_starts_with_a_decision() -> None:
    """A turn's first action follows its decision; re-plans add more (docs/ai.md)."""
    enc, result = play(load_encounter("mirror"), 7, {})
    turns: list[tuple[str, list[str]]] = []
    for lg in enc.log:
        j = lg.to_json()
        if j["type"] == "turn_start":
            turns.append((j["id"], []))
        elif turns and j["type"] in ("decision", "action"):
            turns[-1][1].append(j["type"] if j["type"] == "decision" else j["kind"])
    acted = [
        (cid, kinds)
        for cid, kinds in turns
        if any(k in ("standard", "move", "minor") for k in kinds)
    ]
    assert acted
    for cid, kinds in acted:
        assert kinds.count("decision") >= 1, (cid, kinds)
        assert kinds[0] == "decision", (cid, kinds)  # logged before the action it explains
    # every policy call is timed: at least one per turn that decided
    assert len(result.decision_ms) >= sum(k.count("decision") for _, k in turns)


def test_decision_events_follow_the_log_schema() -> None:
    enc, _ = play(load_encounter("default"), 3, {})
    decisions = [lg.to_json() for lg in enc.log if lg.type == "decision"]
    assert decisions
    names = {c.id: c.name for c in enc.battle.combatants.values()}
    for d in decisions:
        assert {"id", "policy", "summary", "candidates", "ms"} <= set(d)
        assert d["policy"] == "tactical"
        assert d["summary"].startswith(names[d["id"]])
        assert 1 <= len(d["candidates"]) <= 5
        for cand in d["candidates"]:
            assert isinstance(cand["action"], str) and isinstance(cand["score"], float | int)
        assert isinstance(d["ms"], float) and d["ms"] >= 0


def test_results_do_not_depend_on_jobs() -> None:
    jobs = [Job("mirror", i, 11 + i, {}, None, None) for i in range(4)]
    one = run_many(jobs, 1)
    two = run_many(jobs, 2)
    assert [(r.winner, r.rounds, r.damage_dealt) for r in one] == [
        (r.winner, r.rounds, r.damage_dealt) for r in two
    ]


def test_summary_counts_wins_by_policy() -> None:
    jobs = [
        Job(
            "mirror",
            i,
            5 + i,
            {"west": "naive", "east": "tactical"}
            if i % 2 == 0
            else {"west": "tactical", "east": "naive"},
            None,
            None,
        )
        for i in range(4)
    ]
    results = run_many(jobs, 1)
    s = summarize(results, ["west", "east"], 1.0, by_policy=True)
    assert sum(s["wins_by_policy"].values()) == 4
    assert set(s["wins_by_policy"]) == {"naive", "tactical", "draw"}
    assert sum(s["wins"].values()) == 4


def test_sim_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "sim",
            "mirror",
            "--runs",
            "4",
            "--jobs",
            "1",
            "--json",
            "--swap-sides",
            "--policy",
            "east=tactical",
            "--policy",
            "west=naive",
        ]
    )
    assert code == 0
    s = json.loads(capsys.readouterr().out)
    for key in (
        "runs",
        "wins",
        "mean_rounds",
        "decisions",
        "decision_ms",
        "elapsed_s",
        "wins_by_policy",
    ):
        assert key in s
    assert s["runs"] == 4 and "draw" in s["wins"]
    assert set(s["decision_ms"]) >= {"p50", "p95", "max"}
    assert s["decisions"] > 0 and s["illegal_actions"] == 0


def test_sim_human_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "sim",
                "mirror",
                "--runs",
                "2",
                "--jobs",
                "1",
                "--swap-sides",
                "--policy",
                "west=naive",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "95% CI" in out and "by policy" in out and "AI decisions" in out


def test_sim_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "mirror", "--runs", "0"]) == 2
    assert main(["sim", "mirror", "--policy", "north=naive", "--runs", "1"]) == 2
    assert main(["sim", "mirror", "--dice", "20,1", "--runs", "2"]) == 2
    assert main(["sim", "mirror", "--jobs", "0", "--runs", "1"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err


def test_sim_logs_pass_check_log(tmp_path: Path) -> None:
    assert (
        main(
            [
                "sim",
                "default",
                "--runs",
                "3",
                "--seed",
                "9",
                "--jobs",
                "1",
                "--log-dir",
                str(tmp_path),
                "--json",
            ]
        )
        == 0
    )
    files = sorted(tmp_path.glob("run-*.jsonl"))
    assert [f.name for f in files] == [f"run-{i:04d}-seed-{9 + i}.jsonl" for i in range(3)]
    if not CHECK_LOG.is_file():
        pytest.skip("check_log.py not found next to the checkout")
    proc = subprocess.run(
        [sys.executable, str(CHECK_LOG), *map(str, files)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout


def test_decision_ms_counts_every_policy_call_not_only_first_plans(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 14: `decision_ms` (and so `skirmish sim --json`'s percentiles) holds one time per
    `next_action` call, replans and action points included, whether or not it logged a
    decision event."""
    import ai.sim

    calls = [0]
    real = ai.sim.make_policy

    def counting(name: str) -> Any:
        pol = real(name)
        inner = pol.next_action

        def next_action(enc: Any) -> Any:
            calls[0] += 1
            return inner(enc)

        pol.next_action = next_action  # type: ignore[method-assign]
        return pol

    monkeypatch.setattr(ai.sim, "make_policy", counting)
    enc, result = play(load_encounter("default"), 3, {})
    events = sum(1 for lg in enc.log if lg.type == "decision")
    assert len(result.decision_ms) == calls[0] >= events  # (182 calls, 63 events today)
    assert all(ms >= 0.0 for ms in result.decision_ms)


def test_chunks_keep_every_job_in_order_in_small_tasks() -> None:
    jobs = [Job("mirror", i, i, {}, None, None) for i in range(1000)]
    for workers in (1, 2, 3, 8):
        tasks = chunks(jobs, workers)
        assert [j for t in tasks for j in t] == jobs
        assert max(len(t) for t in tasks) <= CHUNK_MAX
        assert len(tasks) >= min(len(jobs), 16 * workers)
    assert chunks(jobs[:3], 2) == [[jobs[0]], [jobs[1]], [jobs[2]]]


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_the_run_with_the_fights_that_finished(workers: int, tmp_path: Path) -> None:
    """Ctrl-C (a KeyboardInterrupt in the parent) ends `run_many` with `Interrupted`, carrying
    the finished fights in job order, with no worker process left running and no log cut
    short (each finished fight has its whole log; no temporary file is left)."""
    import multiprocessing

    jobs = [Job("mirror", i, 40 + i, {}, None, str(tmp_path)) for i in range(40)]
    seen: list[int] = []

    def tick(done: int) -> None:
        seen.append(done)
        if done >= 2:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as caught:
        run_many(jobs, workers, tick)
    got = caught.value.results
    assert 2 <= len(got) < len(jobs) and caught.value.total == len(jobs)
    assert [r.index for r in got] == sorted(r.index for r in got)
    assert str(caught.value) == f"interrupted after {len(got)} of 40 fights"
    assert multiprocessing.active_children() == []
    names = {p.name for p in tmp_path.iterdir()}
    assert not [n for n in names if n.endswith(".tmp")]
    assert {f"run-{r.index:04d}-seed-{r.seed}.jsonl" for r in got} <= names
    for r in got:
        lines = (tmp_path / f"run-{r.index:04d}-seed-{r.seed}.jsonl").read_text().splitlines()
        assert json.loads(lines[-1])["type"] == "encounter_end"
    again = run_many([jobs[r.index] for r in got], 1)  # the same fights, the same results
    assert [(r.winner, r.rounds) for r in again] == [(r.winner, r.rounds) for r in got]


def test_sim_ctrl_c_prints_one_line_and_the_partial_summary(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import ai.sim

    real = ai.sim.run_many

    def stopped(jobs: list[Job], workers: int, progress: Any = None) -> Any:
        raise Interrupted(real(jobs[:3], 1), len(jobs))

    monkeypatch.setattr(ai.sim, "run_many", stopped)
    code = main(["sim", "mirror", "--runs", "10", "--jobs", "2", "--json"])
    out, err = capsys.readouterr()
    assert code == 130
    assert err == "skirmish sim: interrupted after 3 of 10 fights\n"
    s = json.loads(out)
    assert s["runs"] == 3 and s["interrupted"] is True and s["reproduce"]["runs"] == 10


def test_ctrl_c_before_any_fight_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C while the content is still warming up: nothing to sum up, one line, 130."""
    import ai.sim

    def interrupted(loaded: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(ai.sim, "prewarm", interrupted)
    code = main(["sim", "mirror", "--runs", "12", "--jobs", "2"])
    out, err = capsys.readouterr()
    assert (code, out, err) == (130, "", "skirmish sim: interrupted after 0 of 12 fights\n")
