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
    TriggerQuestion,
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
    if isinstance(q, TriggerQuestion):
        return Confirm(
            f"{name(q.who)}: {_trigger_title(q)}", _trigger_body(q, name), "Use it", "Let it pass"
        )
    if isinstance(q, DelayReturnQuestion):
        body = f"{name(q.who)} is delaying. Take the turn now, after {name(q.after)}?"
        return Confirm("Delayed turn", body, "Act now", "Keep waiting")
    if isinstance(q, ForcedMoveQuestion):
        title = f"{name(q.who)}: where does the {q.kind} move {name(q.target)}?"
        return ForcedMoveChoice(title, list(q.options))
    raise TypeError(f"no dialog for {q!r}")


TRIGGER_TEXT = {
    "hit": "{by} hits {who}",
    "missed": "{by} misses {who}",
    "damaged": "{who} takes damage",
    "enemy_enters": "{by} comes near {who}",
    "enemy_leaves": "{by} moves away from {who}",
    "ally_bloodied": "an ally of {who} is bloodied",
    "ally_dropped": "an ally of {who} drops",
    "self_bloodied": "{who} is bloodied",
    "self_dropped": "{who} drops",
    "turn_start": "{by}'s turn starts",
    "turn_end": "{by}'s turn ends",
}
"""What happened, for each trigger of the closed set (`engine.content.schema.TriggerKind`)."""


def _trigger_title(q: TriggerQuestion) -> str:
    return "immediate interrupt" if q.interrupt else "immediate reaction"


def _trigger_body(q: TriggerQuestion, name: Any) -> str:
    what = TRIGGER_TEXT.get(q.trigger, q.trigger).format(
        by=name(q.by) if q.by else "something", who=name(q.who)
    )
    when = "before it resolves" if q.interrupt else "now that it has"
    lines = [f"{what[:1].upper()}{what[1:]}.", f"Use {q.power} {when}?"]
    if q.hit is not None and q.target is not None:
        dmg = f", about {q.expected_damage:.1f} damage" if q.expected_damage else ""
        lines.append(f"Against {name(q.target)}: {q.hit:.0%} to hit{dmg}.")
    elif q.target is not None:
        lines.append(f"On {name(q.target)}.")
    lines.append("One immediate action a round.")
    return "\n".join(lines)
