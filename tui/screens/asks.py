"""The dialog for each question the engine asks a person mid-action.

`dialog_for` maps an `Ask` (an opportunity attack, a delayed creature's return, where a push
ends, a die to roll at the table) to the modal that answers it; the screen pushes it and hands
the dismissed value back to the controller.
"""

from __future__ import annotations

from typing import Any

from textual.screen import ModalScreen

from engine.decisions import (
    DelayReturnQuestion,
    ForcedMoveQuestion,
    OpportunityQuestion,
)
from engine.dice import DiceRequest
from tui.controller import Ask
from tui.safetext import NAME_CELLS, fit
from tui.screens.dialogs import Confirm, DiceEntry, ForcedMoveChoice


def dialog_for(ask: Ask) -> ModalScreen[Any]:
    q = ask.question
    view = ask.view

    def name(cid: str) -> str:
        c = view.creatures.get(cid)
        return fit(c.name if c else cid, NAME_CELLS)

    if isinstance(q, DiceRequest):
        return DiceEntry(q, name(q.who) if q.who else None)
    if isinstance(q, OpportunityQuestion):
        mover = view.creatures.get(q.mover)
        hp = f" ({mover.hp}/{mover.max_hp} hp)" if mover else ""
        attacker = view.creatures.get(q.who)
        power = (
            next((p.name for p in attacker.powers if p.id == q.power), None) if attacker else None
        )
        body = (
            f"{name(q.mover)}{hp} leaves {q.at[0]},{q.at[1]}, next to {name(q.who)}.\n"
            f"Make an opportunity attack with {power or q.power.replace('-', ' ')}?"
        )
        return Confirm(f"{name(q.who)}: opportunity attack", body, "Attack", "Let it pass")
    if isinstance(q, DelayReturnQuestion):
        body = f"{name(q.who)} is delaying. Take the turn now, after {name(q.after)}?"
        return Confirm("Delayed turn", body, "Act now", "Keep waiting")
    if isinstance(q, ForcedMoveQuestion):
        title = f"{name(q.who)}: where does the {q.kind} move {name(q.target)}?"
        return ForcedMoveChoice(title, list(q.options))
    raise TypeError(f"no dialog for {q!r}")
