"""Choices the rules need in the middle of an action, and who answers them.

An opportunity attack, the order of saving throws, where a push ends, whether a delayed
creature steps back in: the engine asks the controller of the creature concerned through
`Decider.answer`, so the same rules code serves the TUI (a person answers, and the engine's
worker waits) and the simulator (a policy answers at once). Answers are recorded with each
action, so that a replay asks nobody.

Each question type owns its answer: `Question[T]` says the answer's type, `check` turns a
raw answer (from a policy, a person, or a save's JSON) into a T or refuses it with a reason
(`InvalidAnswer`, a ValueError), and `default` is the answer given without thought (the
`AutoDecider`, and the app when there is nothing for a person to choose). Answering code
therefore handles the questions it has an opinion on and leaves the rest to `default()`;
adding a question is one class here (plus the rules that ask it, and its tests).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from engine.events import quick_constructor

Square = tuple[int, int]
T = TypeVar("T")


class InvalidAnswer(ValueError):
    """An answer the question can't take; `reason` says why, in one line."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _yes_no(question: Question[bool], answer: object) -> bool:
    if not isinstance(answer, bool):
        raise InvalidAnswer(f"expected yes/no for {type(question).__name__}, got {answer!r}")
    return answer


@dataclass(frozen=True, slots=True)
class Question(ABC, Generic[T]):
    who: str
    """The creature whose controller must answer."""

    asks_person: ClassVar[bool] = True
    """Whether the app shows a person a dialog for it (else the default is taken)."""

    @abstractmethod
    def check(self, answer: object) -> T:
        """`answer` as this question's answer type; InvalidAnswer (one line) if it isn't one."""

    @abstractmethod
    def default(self) -> T:
        """The answer without thought."""

    def choice(self) -> bool:
        """Whether there is anything to choose (a one-option question answers itself)."""
        return True


@quick_constructor  # one per opportunity a move or an act gives
@dataclass(frozen=True, slots=True)
class OpportunityQuestion(Question[bool]):
    """`who` may make an opportunity attack on `mover`, who provoked it at `at`. Answer bool."""

    mover: str
    at: Square
    power: str

    def check(self, answer: object) -> bool:
        return _yes_no(self, answer)

    def default(self) -> bool:
        return True


@quick_constructor  # one per triggered power offered
@dataclass(frozen=True, slots=True)
class TriggerQuestion(Question[bool]):
    """`who` may use its triggered `power` (an `interrupt` before `trigger` resolves, else a
    reaction after it), set off by `by`, against `target` (None: itself or an area).
    `hit` and `expected_damage` are the engine's odds against `target` (None: no attack
    roll), for the person deciding. Answer bool."""

    power: str
    trigger: str
    by: str | None
    target: str | None
    interrupt: bool
    hit: float | None = None
    expected_damage: float | None = None

    def check(self, answer: object) -> bool:
        return _yes_no(self, answer)

    def default(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class SaveOrderQuestion(Question[list[str]]):
    """The order of end-of-turn saving throws (F-SAV-2). Answer: a permutation of `effects`."""

    effects: tuple[str, ...]
    asks_person: ClassVar[bool] = False  # the app saves in the given order

    def check(self, answer: object) -> list[str]:
        if not isinstance(answer, list | tuple) or not all(isinstance(a, str) for a in answer):
            raise InvalidAnswer(f"save order {answer!r} is not a list of effect ids")
        if sorted(answer) != sorted(self.effects):
            raise InvalidAnswer(f"save order {answer!r} is not a permutation of {self.effects}")
        return list(answer)

    def default(self) -> list[str]:
        return list(self.effects)


@dataclass(frozen=True, slots=True)
class ForcedMoveQuestion(Question[int]):
    """Where `target` ends up. `options` are whole paths (start first). Answer: an index."""

    target: str
    kind: str
    options: tuple[tuple[Square, ...], ...]

    def check(self, answer: object) -> int:
        if (
            not isinstance(answer, int)
            or isinstance(answer, bool)
            or not 0 <= answer < len(self.options)
        ):
            raise InvalidAnswer(f"forced move choice {answer!r} out of range")
        return answer

    def default(self) -> int:
        return 0

    def choice(self) -> bool:
        return len(self.options) > 1


@dataclass(frozen=True, slots=True)
class DelayReturnQuestion(Question[bool]):
    """A delayed creature may take its turn now, after `after`'s turn. Answer bool."""

    after: str

    def check(self, answer: object) -> bool:
        return _yes_no(self, answer)

    def default(self) -> bool:
        return True


class Decider(Protocol):
    def answer(self, question: Question[Any]) -> Any:
        """A raw answer; the engine checks it with `question.check`."""
        ...


class AutoDecider:
    """Answers without thought: every question's `default()` (takes every opportunity
    attack, saves in the given order, takes the first forced-movement option, and returns
    from a delay at once)."""

    def answer(self, question: Question[T]) -> T:
        return question.default()


def check_answer(question: Question[T], answer: object) -> T:
    """Validate an answer (from a person or a replay) so a bad one can't corrupt state;
    InvalidAnswer (a ValueError) with the reason."""
    if not isinstance(question, Question):
        raise TypeError(f"unknown question {question!r}")
    return question.check(answer)
