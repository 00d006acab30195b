"""What a creature can do on its turn, as immutable values, and the refusal of an illegal one.

The TUI, the AI and tests build these and hand them to `Encounter.apply`; a save file stores
them (with `to_json`/`from_json`) so that a fight can be replayed exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from engine.encounter import Encounter

Square = tuple[int, int]


class Impossible(Exception):
    """An action the rules don't allow now; nothing changed. `reason` is for a person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Action:
    name: ClassVar[str] = "action"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.name}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            out[f.name] = value
        return out

    def check(self, enc: Encounter) -> Any:
        """An action the encounter doesn't know by itself checks itself here and returns its
        plan (raises Impossible; changes nothing): the full-round actions do."""
        raise Impossible(f"unknown action {self!r}")

    def perform(self, enc: Encounter, plan: Any) -> None:
        """Apply an action `check` accepted (the encounter calls it)."""
        raise Impossible(f"unknown action {self!r}")


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Walk or run along `path` (start square first), or shift one square (F-TRN-1, S-11)."""

    name: ClassVar[str] = "move"
    path: tuple[Square, ...]
    mode: str = "walk"


@dataclass(frozen=True, slots=True)
class UsePower(Action):
    """Use a power on creatures (`targets`), an area (`origin`), or unseen squares (`squares`)."""

    name: ClassVar[str] = "power"
    power: str
    targets: tuple[str, ...] = ()
    origin: Square | None = None
    squares: tuple[Square, ...] = ()


@dataclass(frozen=True, slots=True)
class SecondWind(Action):
    name: ClassVar[str] = "second_wind"


@dataclass(frozen=True, slots=True)
class StandUp(Action):
    name: ClassVar[str] = "stand_up"


@dataclass(frozen=True, slots=True)
class Sustain(Action):
    name: ClassVar[str] = "sustain"
    effect: str


@dataclass(frozen=True, slots=True)
class SpendActionPoint(Action):
    name: ClassVar[str] = "action_point"


@dataclass(frozen=True, slots=True)
class Delay(Action):
    name: ClassVar[str] = "delay"


@dataclass(frozen=True, slots=True)
class Ready(Action):
    """Ready `power` against the first enemy that enters a square within its reach/range."""

    name: ClassVar[str] = "ready"
    power: str


@dataclass(frozen=True, slots=True)
class Bluff(Action):
    """Once per encounter, a standard action: Bluff against an adjacent enemy's passive
    Insight; on a success, combat advantage against it until the end of the bluffer's next
    turn (F-MOD-13)."""

    name: ClassVar[str] = "bluff"
    target: str


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    name: ClassVar[str] = "end_turn"


@dataclass(frozen=True, slots=True)
class FullAttack(Action):
    """d20srd, a full-round action: every attack the base attack bonus gives (D-1) with one
    at-will melee or ranged power; `targets[i]` is the target of attack i (the last one takes
    the rest). Rules: `engine.full_round`."""

    name: ClassVar[str] = "full_attack"
    power: str
    targets: tuple[str, ...] = ()

    def check(self, enc: Encounter) -> Any:
        from engine.full_round import check_full_attack

        return check_full_attack(enc, self)

    def perform(self, enc: Encounter, plan: Any) -> None:
        from engine.full_round import full_attack

        full_attack(enc, self, plan)


@dataclass(frozen=True, slots=True)
class Withdraw(Action):
    """4srd and d20srd, a full-round action: move up to double speed along `path`; the
    square left first provokes nothing (S-15). Rules: `engine.full_round`."""

    name: ClassVar[str] = "withdraw"
    path: tuple[Square, ...]

    def check(self, enc: Encounter) -> Any:
        from engine.full_round import check_withdraw

        return check_withdraw(enc, self)

    def perform(self, enc: Encounter, plan: Any) -> None:
        from engine.full_round import withdraw

        withdraw(enc, self, plan)


class _GmAction(Action):
    """The game master's tools (issue 12, item 23): actions like any other (logged, undone,
    saved and replayed), taken at any point of a fight; they spend no creature's action.
    Rules and refusals: `engine.gm`."""

    __slots__ = ()

    def check(self, enc: Encounter) -> Any:
        from engine.gm import check

        return check(enc, self)

    def perform(self, enc: Encounter, plan: Any) -> None:
        from engine.gm import perform

        perform(enc, self, plan)


@dataclass(frozen=True, slots=True)
class GmHp(_GmAction):
    """Damage (temporary hit points soak it first), healing or temporary hit points."""

    name: ClassVar[str] = "gm_hp"
    target: str
    change: str
    """"damage", "heal" or "temp"."""
    amount: int


@dataclass(frozen=True, slots=True)
class GmEffect(_GmAction):
    """Put a condition, ongoing damage or a modifier on a creature, with a duration."""

    name: ClassVar[str] = "gm_effect"
    target: str
    duration: str = "save_ends"
    condition: str | None = None
    ongoing: int = 0
    ongoing_type: str | None = None
    stat: str | None = None
    value: int = 0
    label: str | None = None
    """The effect's name in the log (default: what it does)."""


@dataclass(frozen=True, slots=True)
class GmEndEffect(_GmAction):
    """End an active effect now."""

    name: ClassVar[str] = "gm_end_effect"
    effect: str


@dataclass(frozen=True, slots=True)
class GmAdd(_GmAction):
    """Reinforcements: a creature of the encounter's bestiary joins `side` at `pos`, with
    `initiative` entered by the GM or (None) rolled."""

    name: ClassVar[str] = "gm_add"
    creature: str
    side: str
    pos: Square
    id: str | None = None
    initiative: int | None = None


@dataclass(frozen=True, slots=True)
class GmRemove(_GmAction):
    """A creature leaves the fight (flees, is captured, was never meant to be there)."""

    name: ClassVar[str] = "gm_remove"
    target: str


GM_ACTIONS: tuple[type[Action], ...] = (GmHp, GmEffect, GmEndEffect, GmAdd, GmRemove)


ACTION_TYPES: dict[str, type[Action]] = {
    cls.name: cls
    for cls in (
        Move,
        UsePower,
        SecondWind,
        StandUp,
        Sustain,
        SpendActionPoint,
        Delay,
        Ready,
        Bluff,
        EndTurn,
        FullAttack,
        Withdraw,
    )
}
ACTION_TYPES.update({cls.name: cls for cls in GM_ACTIONS})


def action_from_json(data: dict[str, Any]) -> Action:
    """Rebuild an action stored by `Action.to_json` (raises ValueError on a foreign record)."""
    kind = data.get("action")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown action {kind!r}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name in ("path", "squares"):
            value = tuple(tuple(v) for v in value)
        elif f.name in ("targets", "pos") or (f.name == "origin" and value is not None):
            if not isinstance(value, list):
                raise ValueError(f"bad {kind} action: {f.name} is not a list")
            value = tuple(value)
        kwargs[f.name] = value
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"bad {kind} action: {exc}") from None
