"""`skirmish sim` without `--log-dir` reads no event, so the tactical policy writes no
decision texts there (`TacticalPolicy.explain`, `ai.sim.play(explain=False)`; issue 14): the
fight is the same action for action, only the decision events' text and candidates are
left empty. With a log the texts are written (tests/engine/test_log_digests.py pins them)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from ai.sim import Job, play, run_job
from engine.actions import Action
from engine.content.loader import load_encounter
from engine.events import Decision


def _fight(explain: bool) -> tuple[list[Action | None], list[Decision]]:
    loaded = load_encounter("maps/encounters/default.yaml")
    enc, _ = play(loaded, 7, {"party": "tactical", "monsters": "tactical"}, explain=explain)
    actions = [r.action for r in enc.records]
    decisions = [lg.event for lg in enc.battle.log if isinstance(lg.event, Decision)]
    return actions, decisions


def test_quiet_fight_makes_the_same_moves() -> None:
    loud_actions, loud = _fight(True)
    quiet_actions, quiet = _fight(False)
    assert quiet_actions == loud_actions
    assert len(quiet) == len(loud) > 20
    assert [d.id for d in quiet] == [d.id for d in loud]
    assert all(d.summary and d.candidates for d in loud)
    assert all(d.summary == "" and d.candidates == () for d in quiet)


def test_sim_writes_texts_with_a_log(tmp_path: Path) -> None:
    policies = {"party": "tactical", "monsters": "tactical"}
    job = Job("maps/encounters/default.yaml", 0, 7, policies, None, str(tmp_path))
    quiet = run_job(replace(job, log_dir=None))
    loud = run_job(job)
    assert (quiet.winner, quiet.rounds) == (loud.winner, loud.rounds)
    assert quiet.damage_dealt == loud.damage_dealt
    [log] = list(tmp_path.glob("*.jsonl"))
    events = [json.loads(line) for line in log.read_text().splitlines()]
    decisions = [ev for ev in events if ev["type"] == "decision"]
    assert decisions and all(ev["summary"] and ev["candidates"] for ev in decisions)
