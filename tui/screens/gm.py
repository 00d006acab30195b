"""The GM's tools on the encounter screen: a menu (key T, or the command palette) and one
small form per tool: hit points, an effect with a duration, ending an effect, reinforcements
and removal.

The forms only read text and build `engine.actions` GM actions; the engine decides what is
allowed (`Encounter.validate`, under the controller's lock), so a refusal is shown in the
form with the engine's reason and the form stays open. An accepted action goes to the
controller's worker like any other (logged, undoable, saved).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from engine.actions import Action, GmAdd, GmEffect, GmEndEffect, GmHp, GmRemove
from tui.safetext import clean

if TYPE_CHECKING:
    from textual.app import App

    from engine.content.loader import LoadedEncounter
    from engine.encounter import Encounter
    from tui.controller import Controller
    from tui.view import View
    from tui.widgets.grid import GridPane

Square = tuple[int, int]
TOOLS: tuple[tuple[str, str], ...] = (
    ("hp", "Hit points: damage, healing, temporary hit points"),
    ("effect", "Add a condition or an effect with a duration"),
    ("end_effect", "End an effect"),
    ("add", "Add a creature (reinforcements) on the cursor's square"),
    ("remove", "Remove the creature under the cursor from the fight"),
)
CHANGES = {"d": "damage", "h": "heal", "t": "temp"}
DURATIONS = {
    "s": "save_ends",
    "e": "end_of_next_turn",
    "n": "start_of_next_turn",
    "x": "end_of_encounter",
}
"""First letters a GM may type for a duration (the full names work too)."""


class GmMenu(ModalScreen[str | None]):
    """Which tool: one line each; Enter picks, Escape backs out."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label("GM tools", classes="dialog-title")
            yield OptionList(*(Option(text, id=key) for key, text in TOOLS), id="gm-tools")
            yield Label("[Enter] choose  [Esc] cancel", classes="dialog-keys", markup=False)

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class GmForm(ModalScreen[Action | None]):
    """A few text fields (Tab moves between them); Enter builds the action with `build`
    (a string back is what's wrong with the text) and asks the engine (`validate`) before
    closing, so a refusal is shown here, with its reason."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        title: str,
        body: str,
        fields: list[tuple[str, str, str]],
        build: Callable[[dict[str, str]], Action | str],
        validate: Callable[[Action], str | None],
    ) -> None:
        super().__init__(classes="dialog")
        self.title_text = clean(title)
        self.body = clean(body)
        self.fields = fields
        """(key, label, default) per field."""
        self.build = build
        self.validate = validate

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label(self.title_text, classes="dialog-title", markup=False)
            yield Static(self.body, classes="dialog-body", markup=False)
            for key, label, default in self.fields:
                yield Label(label, markup=False)
                yield Input(default, id=f"gm-{key}", classes="wide", max_length=40)
            yield Label("", id="gm-error", classes="dialog-error", markup=False)
            yield Label(
                "[Tab] next field  [Enter] apply  [Esc] cancel", classes="dialog-keys", markup=False
            )

    def on_mount(self) -> None:
        self.query(Input).first().focus()

    def values(self) -> dict[str, str]:
        return {key: self.query_one(f"#gm-{key}", Input).value.strip() for key, _, _ in self.fields}

    @on(Input.Submitted)
    def _submit(self, _event: Input.Submitted) -> None:
        got = self.build(self.values())
        problem = got if isinstance(got, str) else self.validate(got)
        if problem:
            self.query_one("#gm-error", Label).update(Text(clean(problem)))
            return
        assert not isinstance(got, str)
        self.dismiss(got)

    def action_cancel(self) -> None:
        self.dismiss(None)


class EffectPicker(ModalScreen[str | None]):
    """The active effects (on the creature under the cursor, or all): Enter ends one."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, effects: list[tuple[str, str]]) -> None:
        super().__init__(classes="dialog")
        self.effects = effects

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label("GM: end which effect?", classes="dialog-title")
            yield OptionList(*(Option(Text(clean(text)), id=eid) for eid, text in self.effects))
            yield Label("[Enter] end it  [Esc] cancel", classes="dialog-keys", markup=False)

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


def _number(text: str, what: str) -> int | str:
    t = text.strip()
    if not t.isdigit():
        return f"{what}: type a whole number of 1 or more, not {t or 'nothing'!r}"
    return int(t)


def hp_action(target: str, v: dict[str, str]) -> Action | str:
    change = CHANGES.get(v.get("change", "")[:1].lower())
    if change is None:
        return "change: damage, heal or temp (d, h or t)"
    amount = _number(v.get("amount", ""), "amount")
    return amount if isinstance(amount, str) else GmHp(target, change, amount)


def effect_action(target: str, v: dict[str, str]) -> Action | str:
    """`what`: a condition ("dazed"), "ongoing 5 fire", or a modifier ("ac -2")."""
    words = v.get("what", "").lower().split()
    dur_text = v.get("duration", "").lower()
    duration = DURATIONS.get(dur_text, dur_text) if len(dur_text) <= 1 else dur_text
    label = v.get("name", "")
    if not words:
        return "what: a condition (dazed), ongoing 5 fire, or a modifier (ac -2)"
    if words[0] == "ongoing":
        amount = _number(words[1] if len(words) > 1 else "", "ongoing damage")
        if isinstance(amount, str):
            return amount
        kind = words[2] if len(words) > 2 else None
        return GmEffect(target, duration, ongoing=amount, ongoing_type=kind, label=label or None)
    if len(words) == 2 and words[1].lstrip("+-").isdigit():
        stat, value = words[0], int(words[1])
        return GmEffect(target, duration, stat=stat, value=value, label=label or None)
    return GmEffect(target, duration, condition="_".join(words), label=label or None)


def add_action(pos: Square, v: dict[str, str]) -> Action | str:
    init_text = v.get("initiative", "")
    initiative: int | None = None
    if init_text:
        if not init_text.lstrip("-").isdigit():
            return f"initiative: a number, or empty to roll it (not {init_text!r})"
        initiative = int(init_text)
    return GmAdd(v.get("creature", ""), v.get("side", ""), pos, v.get("id") or None, initiative)


class GmCommands:
    """Mixed into `EncounterScreen`: the GM tools' key (T), palette entries and dialogs."""

    if TYPE_CHECKING:
        controller: Controller
        view: View
        hint: str
        loaded: LoadedEncounter
        app: App[int]

        def _refresh_mode(self) -> None: ...
        def _start_worker(self, body: Callable[[], None]) -> None: ...
        def _engine(self, fn: Callable[[Encounter], Any]) -> Any: ...
        def _grid(self) -> GridPane: ...

    def _cursor(self) -> Square:
        return self._grid().cursor

    def action_gm(self) -> None:
        self.app.push_screen(GmMenu(classes="dialog"), self._gm_picked)

    def _gm_picked(self, tool: str | None) -> None:
        if tool:
            self.action_gm_tool(tool)

    def _gm_busy(self) -> bool:
        if self.controller.busy:
            self.hint = "Wait: the engine is busy (GM tools work between actions)"
            self._refresh_mode()
            return True
        return False

    def _gm_validate(self, action: Action) -> str | None:
        if self.controller.busy:
            return "Wait: the engine is busy"
        return self._engine(lambda enc: enc.validate(action))

    def _gm_run(self, action: Action | None) -> None:
        if action is None or self._gm_busy():
            return
        self.hint = "..."
        self._start_worker(lambda: self.controller.run_gm(action))
        self._refresh_mode()

    def action_gm_tool(self, tool: str) -> None:
        if self._gm_busy():
            return
        pos = self._cursor()
        c = self.view.at(pos)
        if tool == "add":
            return self._gm_add(pos)
        if c is None:
            self.hint = "GM: put the cursor on a creature first"
            return self._refresh_mode()
        if tool == "hp":
            form = GmForm(
                f"GM: {c.name}'s hit points",
                f"{c.name}: {c.hp}/{c.max_hp} hp, {c.temp_hp} temporary",
                [("amount", "amount", ""), ("change", "damage, heal or temp (d/h/t)", "damage")],
                lambda v: hp_action(c.id, v),
                self._gm_validate,
            )
        elif tool == "effect":
            form = GmForm(
                f"GM: an effect on {c.name}",
                "What: a condition (dazed, prone, slowed...), ongoing 5 fire, or a modifier "
                "(ac -2). Duration: s = save ends, e = end of its next turn, n = start of its "
                "next turn, x = end of the encounter.",
                [
                    ("what", "what", ""),
                    ("duration", "duration", "s"),
                    ("name", "name (optional)", ""),
                ],
                lambda v: effect_action(c.id, v),
                self._gm_validate,
            )
        elif tool == "end_effect":
            return self._gm_end_effect(c.id)
        elif tool == "remove":
            from tui.screens.dialogs import Confirm

            action = GmRemove(c.id)

            def done(ok: bool | None) -> None:
                if ok:
                    problem = self._gm_validate(action)
                    if problem:
                        self.hint = f"Can't: {problem}"
                        return self._refresh_mode()
                    self._gm_run(action)

            self.app.push_screen(
                Confirm(
                    clean(f"GM: remove {c.name}?"),
                    clean(f"{c.name} leaves the fight."),
                    "Remove",
                    "Keep",
                ),
                done,
            )
            return
        else:
            return
        self.app.push_screen(form, self._gm_run)

    def _gm_end_effect(self, cid: str) -> None:
        def listing(enc: Encounter) -> list[tuple[str, str]]:
            b = enc.battle
            return [
                (e.id, f"{b[e.target].name}: {e.name} ({e.duration.replace('_', ' ')})")
                for e in b.effects.values()
                if e.target == cid and e.target in b.combatants
            ]

        effects = self._engine(listing) or []
        if not effects:
            self.hint = "GM: no effect on that creature to end"
            return self._refresh_mode()

        def done(eid: str | None) -> None:
            if eid:
                self._gm_run(GmEndEffect(eid))

        self.app.push_screen(EffectPicker(effects), done)

    def _gm_add(self, pos: Square) -> None:
        spec = self.loaded.spec
        sides = list(dict.fromkeys(cd.side for cd in spec.combatants))
        ai_sides = [s for s in sides if spec.sides.get(s) is None or spec.sides[s].control == "ai"]
        side = (ai_sides or sides)[0]
        first = next((cd.creature for cd in spec.combatants if cd.side == side), "")
        bestiary = ", ".join(sorted(self.loaded.creatures))
        form = GmForm(
            f"GM: reinforcements at {pos[0]},{pos[1]}",
            f"Bestiary: {bestiary}. Sides: {', '.join(sides)}. Leave initiative empty to roll it.",
            [
                ("creature", "creature", first),
                ("side", "side", side),
                ("initiative", "initiative (empty: roll)", ""),
                ("id", "id (optional)", ""),
            ],
            lambda v: add_action(pos, v),
            self._gm_validate,
        )
        self.app.push_screen(form, self._gm_run)
