"""Undo and redo: by replay, a step at a time, AI turns whole, no re-rolls, kept in the save."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.naive import NaivePolicy
from engine import autosave
from engine.actions import EndTurn
from engine.content.loader import load_encounter
from engine.encounter import Encounter
from engine.history import History, control_of, trace
from engine.save import read_save, same_record
from tests.support.fights import (
    AI_ONLY,
    RandomDecider,
    fingerprint,
    next_choice,
    play,
    random_action,
)

MIXED = {"party": "player", "monsters": "ai"}
LOADED = load_encounter("default")


def fresh_replay(hist: History) -> Encounter:
    """The fight rebuilt from scratch with the kept records."""
    return Encounter.replay(
        LOADED, list(hist.records), seed=hist.enc.seed, control=control_of(hist.enc)
    )


def step(hist: History, rng: random.Random, naive) -> None:  # type: ignore[no-untyped-def]
    enc = hist.enc
    action, decision = next_choice(enc, "random", rng, naive)
    if enc.validate(action) is not None:
        action, decision = EndTurn(), None
    hist.apply(action, decision)


ops = st.lists(
    st.one_of(
        st.tuples(st.just("play"), st.integers(1, 12)),
        st.tuples(st.just("undo"), st.integers(1, 4)),
        st.tuples(st.just("redo"), st.integers(1, 4)),
    ),
    min_size=1,
    max_size=12,
)


@pytest.mark.slow  # 25 random undo/redo scripts
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), control=st.sampled_from([MIXED, AI_ONLY]), script=ops)
def test_undo_redo_equals_replay_without_the_undone_actions(seed, control, script) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    decider = RandomDecider(rng)
    enc = Encounter.create(LOADED, seed=seed, control=control, deciders=lambda _c: decider)
    hist = History(enc, deciders=lambda _c: decider)
    hist.start()
    naive = NaivePolicy()
    seen: dict[tuple[int, ...], str] = {}  # the state first met after each record prefix

    def note() -> None:
        key = tuple(id(r) for r in hist.records)
        seen.setdefault(key, fingerprint(hist.enc))
        assert seen[key] == fingerprint(hist.enc)

    note()
    for op, n in script:
        before = len(hist.records)
        if op == "play":
            future = [r for r, _ in hist.redo_stack]
            for _ in range(n):
                if hist.enc.over:
                    break
                step(hist, rng, naive)
                note()
            played = hist.records[before:]
            # A new action drops the redo stack; the undone ones done again are redos.
            redone = 0
            while redone < min(len(played), len(future)) and same_record(
                played[redone], future[redone]
            ):
                redone += 1
            expect = future[redone:] if redone == len(played) else []
            assert [r for r, _ in hist.redo_stack] == expect
        elif op == "undo":
            undone = hist.undo(n)
            assert len(hist.records) == before - undone
            assert len(hist.records) >= 1
            note()
        else:
            redone = hist.redo(n)
            assert len(hist.records) == before + redone
            note()
        assert fingerprint(hist.enc) == fingerprint(fresh_replay(hist))


def play_mixed(seed: int, records: int) -> History:
    rng = random.Random(seed)
    naive = NaivePolicy()
    hist = History(Encounter.create(LOADED, seed=seed, control=MIXED))
    hist.start()
    while len(hist.records) < records and not hist.enc.over:
        action, decision = next_choice(hist.enc, "naive", rng, naive)
        if hist.enc.validate(action) is not None:
            action, decision = EndTurn(), None
        hist.apply(action, decision)
    return hist


def test_undo_lands_where_a_person_decides_taking_ai_turns_whole() -> None:
    hist = play_mixed(3, 80)
    actors = hist.actors
    players = {c.id for c in hist.enc.battle.combatants.values() if c.control == "player"}
    sizes = []
    while hist.can_undo():
        before = len(hist.records)
        hist.undo()
        k = len(hist.records)
        sizes.append(before - k)
        # It took back a player's action and only AI records after it, up to where it
        # stood: the AI turns in between went whole, and it is that player's turn again.
        assert actors[k] in players
        assert all(a not in players for a in actors[k + 1 : before])
        assert hist.enc.current is not None and hist.enc.current.id in players
    assert all(a not in players for a in actors[1 : len(hist.records)])
    assert max(sizes) > 2 and min(sizes) == 1  # AI turns went with some; some were alone


def test_undo_in_an_ai_only_fight_takes_back_one_creatures_turn() -> None:
    enc = play(LOADED, 5, player="naive", max_records=60)
    hist = History(enc)
    actors = hist.actors
    n = len(hist.records)
    last = actors[-1]
    first_of_turn = n - 1
    while actors[first_of_turn - 1] == last:
        first_of_turn -= 1
    assert hist.undo() == n - first_of_turn
    assert hist.enc.current is not None and hist.enc.current.id == last


def test_undo_then_the_same_action_gets_the_same_dice() -> None:
    """No re-rolls: a seeded fight's stream is where it was before the undone action."""
    enc = play(LOADED, 21, player="naive", max_records=70)
    originals = list(enc.records)
    hist = History(enc)
    while hist.can_undo():
        hist.undo(3)
        k = len(hist.records)
        again = originals[k]
        assert again.action is not None
        hist.enc.battle.scripted_answers = list(again.answers)  # the same choices too
        hist.apply(again.action, again.decision)
        assert hist.records[-1].faces == again.faces
        hist.undo()
        hist.undo()


def test_redo_restores_exactly_and_new_action_drops_it() -> None:
    hist = play_mixed(1, 60)
    full = fingerprint(hist.enc)
    n = len(hist.records)
    hist.undo(3)
    assert hist.can_redo()
    while hist.redo():
        pass
    assert len(hist.records) == n and fingerprint(hist.enc) == full
    hist.undo()
    head = hist.redo_stack[0][0].action
    rng = random.Random(0)
    tries = (random_action(hist.enc, rng) for _ in range(100))
    new = EndTurn() if head != EndTurn() else next(a for a in tries if a != head)
    hist.apply(new)
    assert not hist.can_redo() and hist.redo() == 0


def test_nothing_to_undo_at_the_start() -> None:
    hist = History(Encounter.create(LOADED, seed=1, control=MIXED))
    hist.start()
    assert not hist.can_undo() and hist.undo() == 0 and len(hist.records) == 1


def test_trace_agrees_with_live_tracking() -> None:
    hist = play_mixed(12, 90)
    steps = trace(hist.enc)
    assert [s.actor for s in steps] == hist.actors
    assert steps[-1].events == len(hist.enc.log)
    assert [s.events for s in steps] == sorted(s.events for s in steps)
    assert History(hist.enc).actors == hist.actors


def test_undo_and_redo_are_kept_in_the_save(tmp_path: Path) -> None:
    """An undo appends a marker; the save then reads as the undone fight, with the redo
    stack, so a crash right after an undo (or a redo) loses neither."""
    enc = Encounter.create(LOADED, seed=4, control=MIXED)
    hist = autosave.begin(enc, directory=tmp_path)
    hist.start()
    naive = NaivePolicy()
    rng = random.Random(0)
    while len(hist.records) < 70 and not hist.enc.over:
        step(hist, rng, naive) if rng.random() < 0.3 else hist.apply(
            *next_choice(hist.enc, "naive", rng, naive)
        )
    path = hist.saver.path  # type: ignore[union-attr]
    full = fingerprint(hist.enc)
    hist.undo(2)
    undone = fingerprint(hist.enc)
    save = read_save(path)
    assert save.records == hist.records and [e.record for e in save.redo] == [
        r for r, _ in hist.redo_stack
    ]
    assert isinstance(hist.saver, autosave.Autosaver)
    hist.saver.close()  # the crash
    again = autosave.resume(path)
    assert fingerprint(again.enc) == undone and again.can_redo()
    while again.redo():
        pass
    assert fingerprint(again.enc) == full
    again.undo()
    again.apply(EndTurn())
    again.saver.close()  # type: ignore[union-attr]
    last = read_save(path)
    assert last.records == again.records
    assert [e.record for e in last.redo] == [r for r, _ in again.redo_stack]
    assert fingerprint(last.encounter()) == fingerprint(again.enc)


@pytest.mark.parametrize("steps", [1, 2, 5, 100])
def test_undo_many_steps_at_once_equals_one_at_a_time(steps: int) -> None:
    a = play_mixed(17, 90)
    b = play_mixed(17, 90)
    a.undo(steps)
    for _ in range(steps):
        b.undo()
    assert fingerprint(a.enc) == fingerprint(b.enc)
    a.redo(steps)
    for _ in range(steps):
        b.redo()
    assert fingerprint(a.enc) == fingerprint(b.enc)
