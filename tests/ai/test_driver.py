"""The one turn driver (`ai.driver.TurnDriver`): the AI's actions one at a time, a refused
action ends the turn, at most 24 actions a turn, and a person's turn stops it. The simulator
and the app's controller both drive their fights with it."""

from __future__ import annotations

from typing import Any

from ai.driver import MAX_ACTIONS_PER_TURN, DriverStep, TurnDriver, make_policy
from ai.policy import Choice
from ai.sim import play
from engine.actions import Action, EndTurn, Move
from engine.decisions import Question
from engine.encounter import Encounter
from engine.events import TurnStart


class Stubborn:
    """Asks for `action` over and over (never ends its turn by itself)."""

    name = "stubborn"

    def __init__(self, action: Action) -> None:
        self.action = action
        self.asked = 0

    def next_action(self, enc: Encounter) -> Choice:
        self.asked += 1
        return Choice(self.action)

    def answer(self, enc: Encounter, question: Question) -> Any:
        return False


def started(loaded: Any, seed: int = 3) -> Encounter:
    enc = Encounter.create(loaded, seed=seed, control={"party": "ai", "monsters": "ai"})
    enc.start()
    return enc


def test_a_refused_action_ends_the_turn_and_says_why(default_loaded: Any) -> None:
    enc = started(default_loaded)
    who = enc.current
    assert who is not None
    silly = Move((who.pos, (-5, -5)))
    steps: list[DriverStep] = []
    driver = TurnDriver(lambda c: Stubborn(silly))
    step = driver.step(enc)
    assert step is not None
    steps.append(step)
    assert step.who == who.id and step.chosen == silly and step.refused
    assert step.action == EndTurn() and enc.current is not who
    assert any(isinstance(e.event, TurnStart) for e in step.events)


def test_a_turn_is_capped_at_24_actions(default_loaded: Any) -> None:
    enc = started(default_loaded)
    who = enc.current
    assert who is not None
    # An `apply` that accepts anything but changes nothing, unless it is an end of turn: a
    # policy that never ends its turn would go on for ever without the cap.
    applied: list[Action] = []

    def apply(action: Action, decision: Any) -> list[Any]:
        applied.append(action)
        return enc.apply(action, decision) if isinstance(action, EndTurn) else []

    stub = Stubborn(Move((who.pos, who.pos)))
    driver = TurnDriver(lambda c: stub)
    steps = []
    while enc.current is who:
        step = driver.step(enc, apply)
        assert step is not None
        steps.append(step)
    assert stub.asked == MAX_ACTIONS_PER_TURN
    assert len(steps) == MAX_ACTIONS_PER_TURN + 1 and steps[-1].capped
    assert applied[-1] == EndTurn() and applied[:-1] == [stub.action] * MAX_ACTIONS_PER_TURN


def test_a_persons_turn_stops_the_driver(default_loaded: Any) -> None:
    enc = Encounter.create(default_loaded, seed=3, control={"party": "player", "monsters": "ai"})
    enc.start()
    policy = make_policy("naive")
    driver = TurnDriver(lambda c: policy if c.control == "ai" else None)
    driver.run(enc)
    assert enc.over or (enc.current is not None and enc.current.control == "player")
    assert driver.step(enc) is None and driver.actor(enc) is None


def test_the_simulator_is_the_driver_run_to_the_end(default_loaded: Any) -> None:
    enc, result = play(default_loaded, 9, {"party": "naive", "monsters": "tactical"})
    pols = {"party": make_policy("naive"), "monsters": make_policy("tactical")}

    class Sides:
        def answer(self, q: Question) -> Any:
            return pols[again.battle[q.who].side].answer(again, q)

    again = Encounter.create(
        default_loaded,
        seed=9,
        deciders=lambda cid: Sides(),
        control={"party": "ai", "monsters": "ai"},
    )
    again.start()
    TurnDriver(lambda c: pols[c.side]).run(again)
    assert again.over and result.winner == again.battle.winner
    assert [r.action for r in again.records] == [r.action for r in enc.records]


def test_every_policy_call_is_timed_capped_end_excepted(
    default_loaded: Any, monkeypatch: Any
) -> None:
    """`DriverStep.ms` is the time of each `next_action` call, every call of a turn (not only
    the first plan), measured around the policy; a capped end of turn asked no policy."""
    import ai.driver

    clock = [1000.0]
    monkeypatch.setattr(ai.driver.time, "perf_counter", lambda: clock[0])

    class Slow(Stubborn):
        def next_action(self, enc: Encounter) -> Choice:
            clock[0] += 0.004 + 0.001 * self.asked  # 4 ms, 5 ms, 6 ms, ...
            return super().next_action(enc)

    enc = started(default_loaded)
    who = enc.current
    assert who is not None

    def apply(action: Action, decision: Any) -> list[Any]:
        return enc.apply(action, decision) if isinstance(action, EndTurn) else []

    slow = Slow(Move((who.pos, who.pos)))
    driver = TurnDriver(lambda c: slow)
    steps = []
    while enc.current is who:
        step = driver.step(enc, apply)
        assert step is not None
        steps.append(step)
    asked = steps[:-1]
    assert [round(s.ms, 6) for s in asked] == [4.0 + i for i in range(MAX_ACTIONS_PER_TURN)]
    assert steps[-1].capped and steps[-1].ms == 0.0
