"""The encounter screen's full-round actions (issue 8, `engine.full_round`): the d20srd full
attack (f: Tab picks the target among the legal melee targets, the preview shows each
iterative attack's hit chance, Enter confirms) and the 4srd/d20srd withdraw (W: as the walk
mode at double speed; the first square left provokes nothing; Enter withdraws along the shown
path). Offered only when the encounter's ruleset has them (`Ruleset.offers`; the ruleset
also gives each attack's penalty and which squares provoke): elsewhere the keys are hidden
from the footer and the palette, and pressing one says why. A mixin, as `commands.py`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events

from engine.actions import FullAttack, Withdraw
from engine.rulesets import extra_action, names_offering
from tui import modes

if TYPE_CHECKING:
    from collections.abc import Callable

    from engine.encounter import Encounter
    from tui.controller import Controller

Square = tuple[int, int]
RULES = ("full_attack", "withdraw")
"""The screen actions that exist only where the ruleset has them (`Ruleset.extra_actions`)."""


def full_round_action(key: str) -> str | None:
    """The full-round action bound to `key` in the fight's BINDINGS, if any."""
    from tui.keys import declared
    from tui.screens.encounter import FIGHT_BINDINGS

    for b in declared(FIGHT_BINDINGS):
        if b.action in RULES and key in b.key.split(","):
            return b.action
    return None


def allowed(controller: Controller, action: str) -> bool:
    """Does the fight's ruleset have this full-round action (True for any other action)?"""
    return action not in RULES or controller.enc.battle.ruleset.offers(action)


class FullRoundCommands:
    """Mixed into `EncounterScreen`; uses its state and helpers."""

    if TYPE_CHECKING:
        controller: Controller
        mode: modes.Mode
        hint: str
        _flash: str

        def _can_act(self) -> bool: ...
        def _engine(self, fn: Callable[[Encounter], Any]) -> Any: ...
        def _set_mode(self, got: modes.Mode | str | None) -> None: ...
        def _submit(self, action: Any) -> None: ...
        def _confirm(self, title: str, body: Any, action: Any) -> None: ...
        def _refresh_mode(self) -> None: ...

    def _not_here(self, action: str) -> bool:
        """Say so (and return True) when the ruleset has no such action."""
        if allowed(self.controller, action):
            return False
        name = self.controller.enc.battle.ruleset.name
        about = extra_action(action)  # how the rulesets that have it describe it
        what = about.label.lower() if about is not None else action.replace("_", " ")
        having = ", ".join(names_offering(action))
        self.hint = f"Can't: there is no {what} ({having}) in {name}"
        self._refresh_mode()
        return True

    def on_key(self, event: events.Key) -> None:
        """A full-round key in a ruleset without it: its binding is off (hidden from the
        footer), so say why here."""
        action = full_round_action(event.key)
        if action is not None and self._not_here(action):
            event.stop()

    def action_full_attack(self) -> None:
        if self._not_here("full_attack"):
            return
        if not self._can_act():
            return self._set_mode(None)
        self._set_mode(self._engine(modes.start_full_attack))

    def action_withdraw(self) -> None:
        if self._not_here("withdraw"):
            return
        if not self._can_act():
            return self._set_mode(None)
        self._set_mode(self._engine(modes.start_withdraw))

    def _confirm_full_round(self, mode: modes.Mode, cursor: Square) -> bool:
        """Enter in a full-round mode: submit it (True), or False for the other modes."""
        if isinstance(mode, modes.Withdrawing):
            path = modes.move_path(mode, cursor)
            if path is None:
                self._flash = "Can't: pick a square marked with a dot"
                self._refresh_mode()
            else:
                self._submit(Withdraw(tuple(path)))
            return True
        if isinstance(mode, modes.FullAttacking):
            m = mode
            body = self._engine(lambda enc: modes.full_attack_text(enc, m))
            self._confirm("Full attack?", body, FullAttack(m.power.id, (m.target,)))
            return True
        return False
