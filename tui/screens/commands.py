"""The encounter screen's one-key commands that need no aiming: end turn, second wind, Heal
check, stand up, action point, delay, threat overlay, take over a creature, AI explanations,
GM step mode, help and quit. A mixin, so that `encounter.py` keeps to the modes and the
engine traffic."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from engine.actions import Action, Delay, EndTurn, SecondWind, SpendActionPoint, StandUp
from tui.first_aid import heal_check_plan
from tui.screens.dialogs import Confirm
from tui.widgets.grid import GridPane
from tui.widgets.panes import InitiativePane

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.app import App

    from engine.encounter import Encounter
    from tui.controller import Controller
    from tui.logtext import LogFormatter
    from tui.view import View

T = TypeVar("T")


class FightCommands:
    """Mixed into `EncounterScreen` (a Textual Screen); uses its state and helpers."""

    if TYPE_CHECKING:
        controller: Controller
        formatter: LogFormatter
        view: View
        hint: str
        show_threats: bool
        app: App[int]

        def _submit(self, action: Action) -> None: ...
        def _refresh_mode(self) -> None: ...
        def _start_worker(self, body: Callable[[], None]) -> None: ...
        def _engine(self, fn: Callable[[Encounter], T]) -> T | None: ...
        def _can_act(self) -> bool: ...
        def _wait_hint(self) -> str: ...
        def _confirm(self, title: str, body: Any, action: Action) -> None: ...

    def _grid(self) -> GridPane:
        return self.query_one("#grid", GridPane)  # type: ignore[attr-defined]

    def _initiative(self) -> InitiativePane:
        return self.query_one("#initiative", InitiativePane)  # type: ignore[attr-defined]

    def action_end_turn(self) -> None:
        self._submit(EndTurn())

    def action_second_wind(self) -> None:
        self._submit(SecondWind())

    def action_heal_check(self) -> None:
        """H: a Heal check on the dying creature under the cursor (or the one dying ally
        next to you), after a dialog with the engine's odds; else the engine's refusal."""
        if not self._can_act():
            self.hint = self._wait_hint()
            return self._refresh_mode()
        here = self.view.at(self._grid().cursor)
        plan = self._engine(lambda enc: heal_check_plan(enc, here.id if here else None))
        if plan is None:
            self.hint = self._wait_hint()
            return self._refresh_mode()
        if isinstance(plan, str):
            self.hint = plan
            return self._refresh_mode()
        action, odds = plan
        self._confirm("Heal check?", odds, action)

    def action_stand_up(self) -> None:
        self._submit(StandUp())

    def action_action_point(self) -> None:
        self._submit(SpendActionPoint())

    def action_delay(self) -> None:
        self._submit(Delay())

    def action_threats(self) -> None:
        self.show_threats = not self.show_threats
        self.hint = "Threatened squares: x" if self.show_threats else ""
        self._refresh_mode()

    def action_take_over(self) -> None:
        c = self.view.at(self._grid().cursor)
        if c is None:
            self.hint = "Put the cursor on a creature to take it over or hand it to the AI"
            return self._refresh_mode()
        new = self.controller.toggle_control(c.id)
        self.hint = f"{c.name} is now played by {'you' if new == 'player' else 'the AI'}"
        self.view = self.controller.snapshot() if not self.controller.busy else self.view
        if new == "ai" and not self.controller.busy and c.id == self.view.current:
            self._start_worker(self.controller.run_autoplay)
        self._initiative().show(self.view)
        self._refresh_mode()

    def action_verbose(self) -> None:
        self.formatter.explain = not self.formatter.explain
        self.hint = f"AI explanations {'on' if self.formatter.explain else 'off'}"
        self._refresh_mode()

    def action_step_mode(self) -> None:
        ctl = self.controller
        ctl.step_mode = not ctl.step_mode
        self.hint = (
            "GM step mode: Space plays each AI action" if ctl.step_mode else "GM step mode off"
        )
        if not ctl.busy:  # the GM's view shows what the players' side can't see, marked
            self.view = ctl.snapshot()
            self._initiative().show(self.view)
        self._refresh_mode()

    def action_step(self) -> None:
        self.controller.step()

    def action_help(self) -> None:
        from tui.screens.encounter import FIGHT_BINDINGS
        from tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(FIGHT_BINDINGS, "Keys in a fight"))

    def action_quit_fight(self) -> None:
        def done(ok: bool | None) -> None:
            if ok:
                self.app.exit(0)

        if self.view.over:
            self.app.exit(0)
            return
        self.app.push_screen(
            Confirm(
                "Quit?",
                "Leave this fight? It is not over yet. It is saved: "
                "`skirmish resume` (or the start screen) picks it up.",
                "Quit",
                "Keep playing",
            ),
            done,
        )
