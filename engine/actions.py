"""What a creature can do on its turn, as immutable values, and the refusal of an illegal one.

The TUI, the AI and tests build these and hand them to `Encounter.apply`; a save file stores
them (with `to_json`/`action_from_json`) so that a fight can be replayed exactly. These are
values only: each type's rules (check, perform, describe) are its handler in
`engine.handlers`, which is also where the save format learns the type's name.
"""

from __future__ import annotations

from dataclasses import Field, dataclass, fields
from typing import Any, ClassVar

from engine.events import quick_constructor
from engine.refusals import Refusal

Square = tuple[int, int]


class Impossible(Exception):
    """An action the rules don't allow now; nothing changed. `reason` is for a person,
    `code` (one of the closed set `Refusal`) for code that must tell refusals apart."""

    def __init__(self, reason: str, code: Refusal) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code

    def __repr__(self) -> str:
        return f"Impossible({self.reason!r}, {self.code.name})"


class Action:
    """The base of every action: `name` is the save format's and the handlers' key for its
    type. A plain class, not a dataclass, and each type's `name` set after its class, so that
    mypyc (the optional compiled build) doesn't take `name` for a dataclass field."""

    __slots__ = ()
    name: ClassVar[str] = "action"
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    """(Set by `dataclass` on each subclass; declared for the type checker's `fields`.)"""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.name}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            out[f.name] = value
        return out


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Walk or run along `path` (start square first), or shift one square (F-TRN-1, S-11)."""

    path: tuple[Square, ...]
    mode: str = "walk"


Move.name = "move"


@dataclass(frozen=True, slots=True)
class UsePower(Action):
    """Use a power on creatures (`targets`), an area (`origin`), or unseen squares (`squares`)."""

    power: str
    targets: tuple[str, ...] = ()
    origin: Square | None = None
    squares: tuple[Square, ...] = ()


UsePower.name = "power"


@dataclass(frozen=True, slots=True)
class SecondWind(Action):
    pass


SecondWind.name = "second_wind"


@dataclass(frozen=True, slots=True)
class StandUp(Action):
    pass


StandUp.name = "stand_up"


@dataclass(frozen=True, slots=True)
class Sustain(Action):
    effect: str


Sustain.name = "sustain"


@dataclass(frozen=True, slots=True)
class SpendActionPoint(Action):
    pass


SpendActionPoint.name = "action_point"


@dataclass(frozen=True, slots=True)
class Delay(Action):
    pass


Delay.name = "delay"


@dataclass(frozen=True, slots=True)
class Ready(Action):
    """Ready `power` against the first enemy that enters a square within its reach/range."""

    power: str


Ready.name = "ready"


@dataclass(frozen=True, slots=True)
class Bluff(Action):
    """Once per encounter, a standard action: Bluff against an adjacent enemy's passive
    Insight; on a success, combat advantage against it until the end of the bluffer's next
    turn (F-MOD-13)."""

    target: str


Bluff.name = "bluff"


@dataclass(frozen=True, slots=True)
class HealCheck(Action):
    """A standard action: a Heal check (DC 15) on an adjacent dying creature; a success
    makes it stable (no more death saves). The usual 4e rule, an addition to the
    specification (issue 16): `engine.handlers.first_aid`."""

    target: str


HealCheck.name = "heal_check"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    pass


EndTurn.name = "end_turn"


@dataclass(frozen=True, slots=True)
class FullAttack(Action):
    """d20srd, a full-round action: every attack the base attack bonus gives (D-1) with one
    at-will melee or ranged power; `targets[i]` is the target of attack i (the last one takes
    the rest). Rules: `engine.full_round`."""

    power: str
    targets: tuple[str, ...] = ()


FullAttack.name = "full_attack"


@dataclass(frozen=True, slots=True)
class Withdraw(Action):
    """4srd and d20srd, a full-round action: move up to double speed along `path`; the
    square left first provokes nothing (S-15). Rules: `engine.full_round`."""

    path: tuple[Square, ...]


# --- the game master's tools (issue 12, item 23) -------------------------------------------
# Actions like any other (logged, undone, saved and replayed), taken at any point of a fight;
# they spend no creature's action. Rules and refusals: `engine.gm`, dispatched by
# `engine.handlers.gm`.


Withdraw.name = "withdraw"


@dataclass(frozen=True, slots=True)
class GmHp(Action):
    """Damage (temporary hit points soak it first), healing or temporary hit points."""

    target: str
    change: str
    """"damage", "heal" or "temp"."""
    amount: int


GmHp.name = "gm_hp"


@dataclass(frozen=True, slots=True)
class GmEffect(Action):
    """Put a condition, ongoing damage or a modifier on a creature, with a duration."""

    target: str
    duration: str = "save_ends"
    condition: str | None = None
    ongoing: int = 0
    ongoing_type: str | None = None
    stat: str | None = None
    value: int = 0
    label: str | None = None
    """The effect's name in the log (default: what it does)."""


GmEffect.name = "gm_effect"


@dataclass(frozen=True, slots=True)
class GmEndEffect(Action):
    """End an active effect now."""

    effect: str


GmEndEffect.name = "gm_end_effect"


@dataclass(frozen=True, slots=True)
class GmAdd(Action):
    """Reinforcements: a creature of the encounter's bestiary joins `side` at `pos`, with
    `initiative` entered by the GM or (None) rolled."""

    creature: str
    side: str
    pos: Square
    id: str | None = None
    initiative: int | None = None


GmAdd.name = "gm_add"


@dataclass(frozen=True, slots=True)
class GmRemove(Action):
    """A creature leaves the fight (flees, is captured, was never meant to be there)."""

    target: str


GmRemove.name = "gm_remove"


GM_ACTIONS: tuple[type[Action], ...] = (GmHp, GmEffect, GmEndEffect, GmAdd, GmRemove)


def action_from_json(data: dict[str, Any]) -> Action:
    """Rebuild an action stored by `Action.to_json`; a foreign or malformed record (a save
    is user-supplied bytes) is a ValueError saying which field is wrong, in one line."""
    from engine.handlers import HANDLERS  # the handlers import this module

    kind = data.get("action")
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise ValueError(f"unknown action {kind!r}")
    cls = handler.action
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name in data:
            convert = _FIELDS.get(f.name, _scalar)
            try:
                kwargs[f.name] = convert(data[f.name])
            except (TypeError, ValueError):
                raise ValueError(f"bad {kind} action: {f.name} {data[f.name]!r}") from None
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"bad {kind} action: {exc}") from None


def _square(value: Any) -> Square:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    raise ValueError("not a square")


def _squares(value: Any) -> tuple[Square, ...]:
    if not isinstance(value, list | tuple):
        raise ValueError("not a list of squares")
    return tuple(_square(v) for v in value)


def _ids(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValueError("not a list of ids")
    return tuple(value)


def _scalar(value: Any) -> Any:
    if value is not None and not isinstance(value, str | int | float | bool):
        raise ValueError("not a plain value")
    return value


_FIELDS: dict[str, Any] = {
    "path": _squares,
    "squares": _squares,
    "targets": _ids,
    "origin": lambda v: None if v is None else _square(v),
    "pos": _square,
}
"""How the save format's fields become action fields (any other field: a plain value)."""


# Built by the AI and the engine on every attack and move. Called here, not as class
# decorators: mypyc compiles a decorated class as a plain Python class.
quick_constructor(Move)
quick_constructor(UsePower)
