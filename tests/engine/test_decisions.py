"""Typed questions (issue 13): each question type carries its answer type, its default and its
own validation, so a bad answer from a policy, a person or a save is refused with a reason
(one line) before it can touch the fight, and answering code only handles what it cares
about."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import Impossible, Move
from engine.decisions import (
    AutoDecider,
    DelayReturnQuestion,
    ForcedMoveQuestion,
    InvalidAnswer,
    OpportunityQuestion,
    Question,
    SaveOrderQuestion,
    check_answer,
)
from engine.dice import DiceRequest, InvalidFace, ManualDice
from engine.encounter import Encounter
from engine.events import Provoke
from engine.refusals import Refusal
from tests.support.helpers import Builder, events
from tests.support.movement import fight, mon

OA = OpportunityQuestion("e", "m", (1, 1), "claw")
SAVES = SaveOrderQuestion("m", ("e1", "e2"))
PUSH = ForcedMoveQuestion("e", "m", "push", (((1, 1), (2, 1)), ((1, 1), (1, 2))))
BACK = DelayReturnQuestion("m", "e")

GOOD: list[tuple[str, Question[Any], object, object]] = [
    ("X-OA-1-yes", OA, True, True),
    ("X-OA-1-no", OA, False, False),
    ("F-SAV-2-order", SAVES, ["e2", "e1"], ["e2", "e1"]),
    ("F-SAV-2-order-from-a-tuple", SAVES, ("e1", "e2"), ["e1", "e2"]),
    ("F-MOD-11-push-choice", PUSH, 1, 1),
    ("X-ACT-1-delay-return", BACK, False, False),
]
BAD: list[tuple[str, Question[Any], object]] = [
    ("X-OA-1-not-a-bool", OA, 1),
    ("X-OA-1-none", OA, None),
    ("F-SAV-2-missing-one", SAVES, ["e1"]),
    ("F-SAV-2-foreign-id", SAVES, ["e1", "zz"]),
    ("F-SAV-2-not-a-list", SAVES, 5),
    ("F-SAV-2-not-strings", SAVES, [1, 2]),
    ("F-MOD-11-out-of-range", PUSH, 2),
    ("F-MOD-11-negative", PUSH, -1),
    ("F-MOD-11-a-bool-is-no-index", PUSH, True),
    ("F-MOD-11-a-string", PUSH, "0"),
    ("X-ACT-1-delay-not-a-bool", BACK, "yes"),
]


@pytest.mark.parametrize(("q", "raw", "typed"), [c[1:] for c in GOOD], ids=[c[0] for c in GOOD])
def test_each_question_takes_its_own_answer_type(
    q: Question[Any], raw: object, typed: object
) -> None:
    assert q.check(raw) == typed
    assert check_answer(q, raw) == typed


@pytest.mark.parametrize(("q", "raw"), [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_each_question_refuses_a_bad_answer_with_a_reason(q: Question[Any], raw: object) -> None:
    with pytest.raises(InvalidAnswer) as info:
        q.check(raw)
    assert info.value.reason and "\n" not in info.value.reason
    assert isinstance(info.value, ValueError)  # callers that caught ValueError still do


def test_defaults_are_valid_answers_and_what_the_auto_decider_gives() -> None:
    auto = AutoDecider()
    questions: tuple[Question[Any], ...] = (OA, SAVES, PUSH, BACK)
    for q in questions:
        assert q.check(q.default()) == q.default() == auto.answer(q)
    assert (OA.default(), SAVES.default(), PUSH.default(), BACK.default()) == (
        True,
        ["e1", "e2"],
        0,
        True,
    )


def test_a_question_says_whether_there_is_anything_to_choose() -> None:
    assert PUSH.choice()
    assert not ForcedMoveQuestion("e", "m", "push", (((1, 1), (2, 1)),)).choice()
    assert not SaveOrderQuestion.asks_person, "the app saves in the given order"
    assert OpportunityQuestion.asks_person and DelayReturnQuestion.asks_person


def test_a_die_request_takes_only_a_face_of_its_die() -> None:
    req = DiceRequest(20, "attack", "m")
    assert req.check(20) == 20
    for bad in (0, 21, True, "7", 7.0):
        with pytest.raises(InvalidFace):
            req.check(bad)
    with pytest.raises(InvalidFace, match="d6"):
        ManualDice(lambda r: 9).roll(6, "damage")


class Liar:
    """A decider answering an opportunity question with something that is no yes/no."""

    def answer(self, question: Question[Any]) -> Any:
        return "maybe" if isinstance(question, OpportunityQuestion) else question.default()


def test_X_OA_1_a_policys_bad_answer_is_refused_with_the_reason(build: Builder) -> None:
    enc = fight(
        build, [mon("m", (1, 1), side="party"), mon("e", (2, 1))], [], deciders=lambda _c: Liar()
    )
    with pytest.raises(Impossible, match="expected yes/no for OpportunityQuestion") as info:
        enc.apply(Move(((1, 1), (0, 1))))
    assert info.value.code is Refusal.BAD_ANSWER  # and nothing changed: test_hostile_answers
    assert enc.battle["m"].pos == (1, 1)


def test_X_OA_1_a_saved_bad_answer_is_refused_on_replay(build: Builder) -> None:
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (2, 1))], [2, 2])
    enc.apply(Move(((1, 1), (0, 1))))
    assert [p.taken for p in events(enc, Provoke)] == [True]
    rec = enc.records[-1]
    assert rec.answers == (True,)
    tampered = [*enc.records[:-1], type(rec)(rec.action, rec.faces, ("yes",), rec.decision)]
    with pytest.raises(InvalidAnswer, match="got 'yes'"):
        Encounter.replay(enc.loaded, tampered, seed=enc.seed)
