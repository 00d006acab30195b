"""Choices the rules need in the middle of an action, and who answers them.

An opportunity attack, the order of saving throws, where a push ends, whether a delayed
creature steps back in: the engine asks the controller of the creature concerned through
`Decider.answer`, so the same rules code serves the TUI (a person answers, and the engine's
worker waits) and the simulator (a policy answers at once). Answers are recorded with each
action, so that a replay asks nobody.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Question:
    who: str
    """The creature whose controller must answer."""


@dataclass(frozen=True, slots=True)
class OpportunityQuestion(Question):
    """`who` may make an opportunity attack on `mover`, who provoked it at `at`. Answer bool."""

    mover: str
    at: Square
    power: str


@dataclass(frozen=True, slots=True)
class SaveOrderQuestion(Question):
    """The order of end-of-turn saving throws (F-SAV-2). Answer: a permutation of `effects`."""

    effects: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ForcedMoveQuestion(Question):
    """Where `target` ends up. `options` are whole paths (start first). Answer: an index."""

    target: str
    kind: str
    options: tuple[tuple[Square, ...], ...]


@dataclass(frozen=True, slots=True)
class DelayReturnQuestion(Question):
    """A delayed creature may take its turn now, after `after`'s turn. Answer bool."""

    after: str


class Decider(Protocol):
    def answer(self, question: Question) -> Any: ...


class AutoDecider:
    """Answers without thought: takes every opportunity attack, saves in the given order,
    takes the first forced-movement option, and returns from a delay at once."""

    def answer(self, question: Question) -> Any:
        if isinstance(question, OpportunityQuestion):
            return True
        if isinstance(question, SaveOrderQuestion):
            return list(question.effects)
        if isinstance(question, ForcedMoveQuestion):
            return 0
        if isinstance(question, DelayReturnQuestion):
            return True
        raise TypeError(f"unknown question {question!r}")


def check_answer(question: Question, answer: Any) -> Any:
    """Validate an answer (from a person or a replay) so a bad one can't corrupt state."""
    if isinstance(question, OpportunityQuestion | DelayReturnQuestion):
        if not isinstance(answer, bool):
            raise ValueError(f"expected yes/no for {type(question).__name__}, got {answer!r}")
        return answer
    if isinstance(question, SaveOrderQuestion):
        if sorted(answer) != sorted(question.effects):
            raise ValueError(f"save order {answer!r} is not a permutation of {question.effects}")
        return list(answer)
    if isinstance(question, ForcedMoveQuestion):
        if not isinstance(answer, int) or not 0 <= answer < len(question.options):
            raise ValueError(f"forced move choice {answer!r} out of range")
        return answer
    raise TypeError(f"unknown question {question!r}")
