"""The one replay loop (`engine.replay.Replay`): each step is a record, whose turn it was, the
encounter after it and exactly the events it caused; `Encounter.replay`, undo's `trace` and the
replay viewer are all this loop."""

from __future__ import annotations

from typing import Any

from engine.history import control_of, trace
from engine.replay import Replay
from tests.support.fights import AI_ONLY, play


def test_replay_steps_give_back_each_records_events_and_actor(default_loaded: Any) -> None:
    enc = play(default_loaded, 11, control=AI_ONLY, max_records=60)
    replay = Replay(default_loaded, enc.records, seed=enc.seed, control=control_of(enc))
    seen: list[dict[str, Any]] = []
    for step in replay:
        assert step.record is enc.records[step.index]
        seen.extend(e.to_json() for e in step.events)
        assert len(step.enc.log) == len(seen)
    assert seen == [e.to_json() for e in enc.log]
    assert replay.enc.records == enc.records and replay.enc.battle.scripted_answers is None
    actors = [s.actor for s in Replay(default_loaded, enc.records, seed=enc.seed)]
    assert [s.actor for s in trace(enc)] == actors
    assert actors[0] is None and all(a is not None for a in actors[1:])


def test_a_replay_run_to_its_end_plays_on_like_the_original(default_loaded: Any) -> None:
    enc = play(default_loaded, 4, control=AI_ONLY, max_records=30)
    again = Replay(default_loaded, enc.records, seed=enc.seed, control=control_of(enc)).run()
    assert again.snapshot() == enc.snapshot()
    assert [e.to_json() for e in again.log] == [e.to_json() for e in enc.log]
