"""The policy interface: what the AI is to the engine.

A policy reads the encounter (never changes it) and returns the next action for the creature
whose turn it is; it also answers the engine's mid-action questions for its creatures. The
simulator and the app call `next_action` until the turn ends. One action at a time, not a
whole turn, because an opportunity attack or a readied action can change the picture halfway.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from engine.actions import Action
from engine.decisions import Question
from engine.encounter import Encounter
from engine.events import Decision


@dataclass(frozen=True, slots=True)
class Choice:
    """An action, and optionally the `decision` event that explains it (logged with it)."""

    action: Action
    decision: Decision | None = None


class Policy(Protocol):
    name: str

    def next_action(self, enc: Encounter) -> Choice: ...

    def answer(self, enc: Encounter, question: Question[Any]) -> Any:
        """A raw answer (the engine checks it with `question.check`); a policy with no view
        on a question answers `question.default()`."""
        ...
