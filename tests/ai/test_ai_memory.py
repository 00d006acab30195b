"""The AI's memory follows the fight, not the `Encounter` object (issue 13): undo and redo
rebuild the encounter, a resumed fight is another object, a policy may outlive a fight.

The plan for the rest of a turn and the planner's memory (`ai.memory.SideMemory`) are keyed
by where the fight stands (`engine.progress`): after an undo the policy decides as it did the
first time at that point, carries on with the same plan in the rebuilt encounter, and a
policy that played another fight decides as a fresh one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.policy import Choice
from ai.tactical import TacticalPolicy
from engine.actions import Action
from engine.content.loader import LoadedEncounter, load_encounter
from engine.encounter import Encounter


@dataclass
class Step:
    records: int
    """Records before the action."""
    who: str
    choice: Choice
    habits: tuple[int, object, object]
    """The creature's idle turns, previous start and goal right after the choice."""


def _habits(pol: TacticalPolicy, cid: str, turn: int) -> tuple[int, object, object]:
    m = pol.memory
    return m.idle(cid), m.came_from(cid, turn), m.goal(cid)


def _play(
    enc: Encounter, policies: dict[str, TacticalPolicy], n: int, log: list[Step] | None = None
) -> list[Action]:
    """Play `n` actions (or to the end); the actions."""
    out = []
    for _ in range(n):
        c = enc.current
        if enc.over or c is None:
            break
        pol = policies[c.side]
        choice = pol.next_action(enc)
        if log is not None:
            habits = _habits(pol, c.id, enc.battle.turn_counter)
            log.append(Step(len(enc.records), c.id, choice, habits))
        out.append(choice.action)
        enc.apply(choice.action, choice.decision)
    return out


def _fight(loaded: LoadedEncounter, seed: int) -> Encounter:
    enc = Encounter.create(loaded, seed=seed, control={"west": "ai", "east": "ai"})
    enc.start()
    return enc


def _mid_plan_turn_starts(log: list[Step]) -> list[int]:
    """Indexes of turn-start steps followed by another action of the same creature."""
    return [
        i
        for i in range(len(log) - 1)
        if log[i].choice.decision is not None
        and log[i + 1].who == log[i].who
        and log[i + 1].choice.decision is None
    ]


def test_after_an_undo_the_policy_decides_as_it_did_and_goes_on_with_its_plan() -> None:
    loaded = load_encounter("mirror")
    enc = _fight(loaded, 11)
    policies = {"west": TacticalPolicy(), "east": TacticalPolicy()}
    log: list[Step] = []
    _play(enc, policies, 80, log)
    starts = _mid_plan_turn_starts(log)
    assert len(starts) >= 2
    for i in reversed(starts[-3:]):  # undo further and further back
        step, after = log[i], log[i + 1]
        back = Encounter.replay(loaded, enc.records[: step.records], seed=enc.seed)
        assert back.current is not None and back.current.id == step.who
        pol = policies[back.current.side]
        again = pol.next_action(back)
        assert again.decision is not None, "the turn's first decision is made again"
        assert again.action == step.choice.action
        assert step.choice.decision is not None
        assert again.decision.summary == step.choice.decision.summary
        assert _habits(pol, step.who, back.battle.turn_counter) == step.habits
        back.apply(again.action, again.decision)
        then = pol.next_action(back)  # the same plan, in the rebuilt encounter
        assert then.decision is None and then.action == after.choice.action


def test_a_policy_that_played_another_fight_decides_as_a_fresh_one() -> None:
    loaded = load_encounter("mirror")
    worn = {"west": TacticalPolicy(), "east": TacticalPolicy()}
    _play(_fight(loaded, 21), worn, 60)
    fresh = {"west": TacticalPolicy(), "east": TacticalPolicy()}
    assert _play(_fight(loaded, 22), worn, 60) == _play(_fight(loaded, 22), fresh, 60)


def test_an_action_not_applied_is_chosen_again_not_skipped() -> None:
    """The caller may not apply the policy's choice (a person looking at the suggestion, a
    refusal): asked again at the same state, the policy makes the same decision again instead
    of going on to its plan's next step."""
    loaded = load_encounter("mirror")
    enc = _fight(loaded, 11)
    policies = {"west": TacticalPolicy(), "east": TacticalPolicy()}
    log: list[Step] = []
    _play(enc, policies, 80, log)
    i = _mid_plan_turn_starts(log)[0]
    back = Encounter.replay(loaded, enc.records[: log[i].records], seed=enc.seed)
    assert back.current is not None
    pol = policies[back.current.side]
    for _ in range(2):
        again = pol.next_action(back)
        assert again.action == log[i].choice.action and again.decision is not None
    back.apply(again.action, again.decision)
    assert pol.next_action(back).action == log[i + 1].choice.action
