"""The one interface every action type's rules sit behind, and the registry that finds them.

An action type has one `Handler`: `check` (is it legal now? raises `Impossible`, changes
nothing, returns a plan), `perform` (apply a checked action with its plan) and `describe`
(a short line for lists, saves and the replay). `Encounter` only dispatches here, the save
format (`action_from_json`) reads its action names from here, and so adding an action means
writing one handler module in this package (plus its tests): the package imports each of
its modules, and `register(Class)` records the handler under its action's `name` (called after
the class, not as a decorator: mypyc compiles a decorated class as a plain Python class).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from engine import turn_budget
from engine.actions import Action, Impossible
from engine.events import ActionSpent
from engine.native import mypyc_attr
from engine.refusals import Refusal

if TYPE_CHECKING:
    from engine.content.schema import Power
    from engine.encounter import Encounter
    from engine.state import Combatant

A = TypeVar("A", bound=Action)


class Naming(Protocol):
    """What ids stand for in a description (`tui.logtext.Names` is one)."""

    def who(self, cid: str | None) -> str: ...

    def power(self, pid: str | None) -> str: ...


class Ids:
    """The plain naming: ids as they are (saves and lists outside the app)."""

    def who(self, cid: str | None) -> str:
        return cid or "?"

    def power(self, pid: str | None) -> str:
        return pid or "?"


@mypyc_attr(allow_interpreted_subclasses=True)  # a test's own handler (tests/engine)
class Handler(ABC, Generic[A]):
    """The rules of one action type. Subclasses set `action` and are registered once."""

    action: ClassVar[type[Action]]

    @abstractmethod
    def check(self, enc: Encounter, c: Combatant, act: A) -> Any:
        """Raise Impossible (with its code) if `act` is illegal for `c` now; else return the
        plan `perform` needs. Changes nothing."""

    @abstractmethod
    def perform(self, enc: Encounter, c: Combatant, act: A, plan: Any) -> None:
        """Apply `act`, which `check` accepted with `plan`."""

    def describe(self, act: A, who: str, names: Naming) -> str:
        """A short line: "Brom: stand up"."""
        return f"{who}: {act.name.replace('_', ' ')}"


HANDLERS: dict[str, Handler[Any]] = {}
"""Every action type's handler, by the action's `name` (the save format's "action")."""


def register(cls: type[Handler[Any]]) -> type[Handler[Any]]:
    """The one place an action type becomes known to the engine: `register(Class)` after the
    class (a test may use it as a class decorator; returns the class)."""
    name = cls.action.name
    if name in HANDLERS and type(HANDLERS[name]) is not cls:
        raise ValueError(f"two handlers for action {name!r}")
    HANDLERS[name] = cls()
    return cls


def handler_for(act: Action) -> Handler[Any]:
    """The handler of `act`'s type; Impossible (UNKNOWN_ACTION) for a type nobody handles."""
    h = HANDLERS.get(act.name)
    if h is None or not isinstance(act, h.action):
        raise Impossible(f"unknown action {act!r}", Refusal.UNKNOWN_ACTION)
    return h


# --- what several handlers share ----------------------------------------------------------
def spend_check(enc: Encounter, kind: str, what: str, c: Combatant | None = None) -> None:
    """F-TRN-1: refuse when no action of `kind` is left this turn (`c`: the current
    creature, when the caller has it)."""
    if c is None:
        ok = enc.can_spend(kind)
    else:
        ok = turn_budget.can_spend_one(enc.battle, c, kind)
    if not ok:
        raise Impossible(f"no {kind} action left for {what} this turn", Refusal.NO_ACTION_LEFT)


def spend(enc: Encounter, c: Combatant, kind: str, name: str) -> None:
    """Count an action of `kind` (free actions are not counted: F-TRN-1) and log it."""
    b = enc.battle
    if kind in b.spent:
        b.spent[kind] += 1
    c.acted = True
    b.emit(ActionSpent(c.id, kind, name))


def power_of(c: Combatant, power_id: str) -> Power:
    """`c`'s power `power_id`; Impossible (UNKNOWN_POWER) naming the ones it has."""
    p = c.power(power_id)
    if p is None:
        known = ", ".join(x.id for x in c.powers) or "none"
        raise Impossible(
            f"{c.name} has no power {power_id!r} (has: {known})", Refusal.UNKNOWN_POWER
        )
    return p


def describe_action(act: Action, who: str, names: Naming | None = None) -> str:
    """`act` in a few words, by its handler: "Brom: walk to 3,4" (ids as they are unless
    `names` says what they stand for)."""
    h = HANDLERS.get(act.name)
    names = names if names is not None else Ids()
    if h is None or not isinstance(act, h.action):
        return f"{who}: {act.name.replace('_', ' ')}"
    return h.describe(act, who, names)
