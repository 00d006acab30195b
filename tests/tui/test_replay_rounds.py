"""Issue 12 item 4: the replay labels each step with the round it was taken in (the end of
round 3's last turn is R3, not R4), from a save and from a combat log alike."""

from __future__ import annotations

import json
from pathlib import Path

from engine.autosave import Autosaver
from engine.content.loader import load_encounter
from tests.support.fights import play
from tui.replay import Timeline, load_timeline


def _saved(tmp_path: Path) -> Path:
    enc = play(load_encounter("mirror"), 4, player="naive", max_records=400)
    assert enc.battle.round >= 3
    with Autosaver.create(enc, directory=tmp_path) as saver:
        return saver.path


def _check(tl: Timeline) -> int:
    """Every stop's round is the round of the first event it caused; returns how many stops
    crossed into a new round (the ones the bug mislabelled)."""
    crossings = 0
    for before, stop in zip(tl.stops, tl.stops[1:], strict=False):
        caused = tl.events[before.events : stop.events]
        if not caused:
            continue
        assert stop.round == caused[0].round, (stop.label, stop.round, caused[0].round)
        crossings += caused[-1].round != caused[0].round
    return crossings


def test_replay_of_a_save_labels_the_round_the_action_was_taken_in(tmp_path: Path) -> None:
    assert _check(load_timeline(_saved(tmp_path))) >= 2


def test_replay_of_a_combat_log_labels_the_round_the_action_was_taken_in(tmp_path: Path) -> None:
    enc = play(load_encounter("mirror"), 4, player="naive", max_records=400)
    log = tmp_path / "fight.jsonl"
    log.write_text("".join(json.dumps(ev.to_json()) + "\n" for ev in enc.log))
    assert _check(load_timeline(log)) >= 2
