"""Typed, immutable events: what the engine reports after each action.

Each event class mirrors one line type of the combat log (../shared/log-schema.md); its field
names are the log's field names, so `Logged.to_json()` is a plain conversion, not a mapping
table that could drift. The UI renders these, the AI reads them, the save replays the actions
that produced them.
"""

from __future__ import annotations

import types
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, TypeVar

Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Mod:
    """One number added to a roll or to damage, with where it came from."""

    source: str
    value: int


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str] = "event"

    def payload(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}


def _plain(value: Any) -> Any:
    if isinstance(value, Mod):
        return {"source": value.source, "value": value.value}
    if isinstance(value, Event):
        return value.payload()
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class EncounterStart(Event):
    type: ClassVar[str] = "encounter_start"
    schema: int
    encounter: str
    content_hash: str
    ruleset: str
    seed: int | None
    map: dict[str, Any]
    combatants: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Check(Event):
    """A skill check outside an attack (Stealth and Perception deciding surprise)."""

    type: ClassVar[str] = "check"
    id: str
    skill: str
    natural: int
    modifier: int
    total: int
    against: int | None = None
    success: bool | None = None


@dataclass(frozen=True, slots=True)
class Initiative(Event):
    type: ClassVar[str] = "initiative"
    id: str
    natural: int
    modifier: int
    total: int
    rolloff: bool = False


@dataclass(frozen=True, slots=True)
class InitiativeOrder(Event):
    type: ClassVar[str] = "initiative_order"
    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundStart(Event):
    type: ClassVar[str] = "round_start"


@dataclass(frozen=True, slots=True)
class TurnStart(Event):
    type: ClassVar[str] = "turn_start"
    id: str


@dataclass(frozen=True, slots=True)
class TurnEnd(Event):
    type: ClassVar[str] = "turn_end"
    id: str
    delayed: bool = False


@dataclass(frozen=True, slots=True)
class ActionSpent(Event):
    type: ClassVar[str] = "action"
    id: str
    kind: str
    name: str


@dataclass(frozen=True, slots=True)
class Moved(Event):
    type: ClassVar[str] = "move"
    id: str
    mode: str
    path: tuple[Square, ...]
    cost: int


@dataclass(frozen=True, slots=True)
class Provoke(Event):
    type: ClassVar[str] = "provoke"
    mover: str
    by: str
    at: Square
    taken: bool


@dataclass(frozen=True, slots=True)
class Triggered(Event):
    """A triggered power's moment came (docs/content.md, Triggered powers): `id` could use
    `power` (an `interrupt`, before the trigger, or a reaction, after it) because of
    `trigger`, set off by `by` (the attacker, the mover, whose turn it is; null for ongoing
    damage); `taken` says whether it did. When taken, an `action` line of kind `immediate`
    and the power's own lines follow."""

    type: ClassVar[str] = "trigger"
    id: str
    power: str
    trigger: str
    by: str | None
    interrupt: bool
    taken: bool


@dataclass(frozen=True, slots=True)
class Attack(Event):
    type: ClassVar[str] = "attack"
    attacker: str
    target: str
    power: str
    kind: str
    vs: str
    natural: int
    modifiers: tuple[Mod, ...]
    total: int
    defense: int | None
    outcome: str
    wrong_square: bool
    opportunity: bool
    combat_advantage: bool
    cover: str
    concealment: str
    flanking: bool = False
    confirm: dict[str, Any] | None = None
    """d20srd: the confirmation roll of a critical threat, {natural, total, confirmed} (D-8)."""

    def payload(self) -> dict[str, Any]:
        out = Event.payload(self)
        if out["confirm"] is None:  # only d20srd threats have one: other logs stay as they were
            del out["confirm"]
        return out


@dataclass(frozen=True, slots=True)
class CritExtra:
    dice: str
    rolls: tuple[int, ...]
    value: int


@dataclass(frozen=True, slots=True)
class Damage(Event):
    type: ClassVar[str] = "damage"
    target: str
    source: str | None
    power: str | None
    cause: str
    dice: str
    rolls: tuple[int, ...]
    crit_extra: dict[str, Any] | None
    rolled: int
    types: tuple[str, ...]
    adjustments: tuple[Mod, ...]
    amount: int
    hp_before: int
    hp_after: int
    temp_hp_after: int = 0


@dataclass(frozen=True, slots=True)
class Heal(Event):
    type: ClassVar[str] = "heal"
    target: str
    source: str | None
    amount: int
    hp_before: int
    hp_after: int
    surge: bool = False


@dataclass(frozen=True, slots=True)
class TempHp(Event):
    type: ClassVar[str] = "temp_hp"
    target: str
    amount: int
    temp_hp: int


@dataclass(frozen=True, slots=True)
class EffectStart(Event):
    type: ClassVar[str] = "effect_start"
    effect: str
    target: str
    source: str | None
    name: str
    duration: str
    owner: str | None
    parts: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class EffectEnd(Event):
    type: ClassVar[str] = "effect_end"
    effect: str
    target: str
    reason: str


@dataclass(frozen=True, slots=True)
class Save(Event):
    type: ClassVar[str] = "save"
    id: str
    effect: str
    when: str
    natural: int
    modifiers: tuple[Mod, ...]
    total: int
    success: bool


@dataclass(frozen=True, slots=True)
class DeathSave(Event):
    type: ClassVar[str] = "death_save"
    id: str
    natural: int
    total: int
    result: str
    failures: int


@dataclass(frozen=True, slots=True)
class StateChange(Event):
    type: ClassVar[str] = "state"
    id: str
    state: str
    hp: int


@dataclass(frozen=True, slots=True)
class PowerRecharge(Event):
    type: ClassVar[str] = "recharge"
    id: str
    power: str
    natural: int
    needed: int
    recharged: bool


@dataclass(frozen=True, slots=True)
class Decision(Event):
    type: ClassVar[str] = "decision"
    id: str
    policy: str
    summary: str
    candidates: tuple[dict[str, Any], ...]
    ms: float


@dataclass(frozen=True, slots=True)
class Arrive(Event):
    """A reinforcement arrives at the start of a round, on `pos` (issue 16; schema 2,
    docs/log.md); its `initiative` and a new `initiative_order` follow."""

    type: ClassVar[str] = "arrive"
    id: str
    pos: Square


@dataclass(frozen=True, slots=True)
class Immune(Event):
    """A power's effects did not land: the target is immune to its keyword (issue 16; a
    schema-2 line, docs/log.md). Damage stopped by an immunity is an `immune` adjustment."""

    type: ClassVar[str] = "immune"
    target: str
    source: str | None
    power: str
    keyword: str


@dataclass(frozen=True, slots=True)
class Note(Event):
    """Something a person should read that no other event says (a power used with no roll)."""

    type: ClassVar[str] = "note"
    id: str | None
    text: str


@dataclass(frozen=True, slots=True)
class Gm(Event):
    """The game master changed the fight by hand (engine.gm; docs/log.md): `tool` is `hp`,
    `effect`, `end_effect`, `add` or `remove`. The consequences follow as ordinary events
    (damage, heal, temp_hp, effect_start/end, initiative, initiative_order)."""

    type: ClassVar[str] = "gm"
    tool: str
    target: str
    summary: str
    combatant: dict[str, Any] | None = None
    """`add`: the creature as encounter_start lists its combatants."""


@dataclass(frozen=True, slots=True)
class EncounterEnd(Event):
    type: ClassVar[str] = "encounter_end"
    winner: str | None
    rounds: int
    reason: str


@dataclass(frozen=True, slots=True)
class Logged:
    """An event as the log holds it: its place in the log and the round it happened in."""

    seq: int
    round: int
    event: Event
    rolled_by: str | None = None
    """Table play: who rolled the dice this event reads, "table" (typed in by a person),
    "app" (rolled by the app: its side's dice, or Ctrl+R) or "mixed"; None elsewhere
    (docs/log.md, additions to the log contract)."""

    @property
    def type(self) -> str:
        return self.event.type

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": self.seq, "type": self.event.type, "round": self.round}
        out.update(self.event.payload())
        if self.rolled_by is not None:
            out["rolled_by"] = self.rolled_by
        return out


ROLL_EVENTS = frozenset(
    {"check", "initiative", "attack", "damage", "heal", "save", "death_save", "recharge"}
)
"""The events that read dice: the first one after a roll carries who rolled it."""


# --- construction -------------------------------------------------------------------------
# A frozen dataclass's generated __init__ sets each field through `object.__setattr__`, which
# looks the name up anew for every field; an attack builds several events, so each class below
# gets a quick __init__. Same signature, same defaults, the same frozen class afterwards
# (assignment after construction raises as before); tests/engine/test_events_init.py compares
# each with the generated one, kept in DATACLASS_INIT.
#
# How: a class with few fields sets its slots through their descriptors (`_set0(self, v)`).
# One with more (an `Attack` has 17) is briefly its "builder" while __init__ runs: a subclass
# that adds no slots and keeps object's plain `__setattr__`, so `self.x = v` is the
# interpreter's own slot store (several times cheaper than a descriptor call); its last line
# makes the object the frozen class again. The builder never escapes __init__. A subclass of
# a quick class (which might add slots) takes the descriptor way.
DATACLASS_INIT: dict[type, Any] = {}
"""Each class's __init__ as `dataclass` generated it."""

BUILDER_FIELDS = 3
"""From this many fields on, a class is built through its builder (measured with valgrind:
a `Logged` and an `ActionSpent` together about 7,500 instructions this way, 8,500 the other;
below three fields the two class swaps cost about what the descriptor calls save)."""

_set_class = object.__dict__["__class__"].__set__

T = TypeVar("T", bound=type)


def quick_constructor(cls: T) -> T:
    """Class decorator (above `@dataclass(frozen=True, slots=True)`): the quick __init__
    described above, for a frozen dataclass built on every action."""
    _quick_init(cls)
    return cls


def _builder(cls: type) -> type:
    """`cls` with object's own attribute setting: the same slots, so an object may be made
    one while its fields are set and then `cls` again."""
    return type(
        f"{cls.__name__}Builder",
        (cls,),
        {
            "__slots__": (),
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
            "__module__": cls.__module__,
            "_builder_of": cls,
        },
    )


def _quick_init(cls: type) -> None:
    init = cls.__dict__.get("__init__")
    if not isinstance(init, types.FunctionType):
        return  # not a plain Python class (a compiled build): leave it as it is
    if hasattr(cls, "__post_init__"):
        return  # the generated __init__ calls it: keep that one
    names, params, ns = [], [], {}
    for i, f in enumerate(fields(cls)):
        owner = next((k for k in cls.__mro__ if f.name in k.__dict__), None)
        slot = owner.__dict__[f.name] if owner is not None else None
        if not isinstance(slot, types.MemberDescriptorType) or f.default_factory is not MISSING:
            return
        ns[f"_set{i}"] = slot.__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            ns[f"_default{i}"] = f.default
            params.append(f"{f.name}=_default{i}")
        names.append(f.name)
    slow = "".join(f"\n    _set{i}(self, {n})" for i, n in enumerate(names)) or "\n    pass"
    if len(names) >= BUILDER_FIELDS:
        ns.update(_cls=cls, _build=_builder(cls), _set_class=_set_class)
        fast = "".join(f"\n        self.{n} = {n}" for n in names)
        body = (
            "\n    if type(self) is _cls:\n        _set_class(self, _build)"
            f"{fast}\n        self.__class__ = _cls\n        return"
            f"{slow}"
        )
    else:
        body = slow
    exec(f"def __init__(self, {', '.join(params)}) -> None:{body}", ns)
    quick = ns["__init__"]
    quick.__qualname__ = f"{cls.__qualname__}.__init__"
    DATACLASS_INIT[cls] = init
    cls.__init__ = quick  # type: ignore[misc]


def _quick_all() -> None:
    todo: list[type] = [Mod, CritExtra, Logged, Event]
    while todo:
        cls = todo.pop()
        subs: list[type] = cls.__subclasses__()
        todo.extend(k for k in subs if "_builder_of" not in k.__dict__)
        # (a class `dataclass(slots=True)` replaced may linger among the subclasses: no slots)
        if cls is not Event and "__slots__" in cls.__dict__:
            _quick_init(cls)


_quick_all()
