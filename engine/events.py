"""Typed, immutable events: what the engine reports after each action.

Each event class mirrors one line type of the combat log (../shared/log-schema.md); its field
names are the log's field names, so `Logged.to_json()` is a plain conversion, not a mapping
table that could drift. The UI renders these, the AI reads them, the save replays the actions
that produced them.
"""

from __future__ import annotations

import types
from dataclasses import MISSING, Field, dataclass, fields
from typing import Any, ClassVar, TypeVar

Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Mod:
    """One number added to a roll or to damage, with where it came from."""

    source: str
    value: int


class Event:
    """The base of every event: `type` is its log line type. A plain class, not a
    dataclass, and each type's `type` set after its class, so that mypyc (the optional
    compiled build) doesn't take `type` for a dataclass field."""

    __slots__ = ()
    type: ClassVar[str] = "event"
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    """(Set by `dataclass` on each subclass; declared for the type checker's `fields`.)"""

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
    schema: int
    encounter: str
    content_hash: str
    ruleset: str
    seed: int | None
    map: dict[str, Any]
    combatants: tuple[dict[str, Any], ...]


EncounterStart.type = "encounter_start"


@dataclass(frozen=True, slots=True)
class Check(Event):
    """A skill check outside an attack (Stealth and Perception deciding surprise)."""

    id: str
    skill: str
    natural: int
    modifier: int
    total: int
    against: int | None = None
    success: bool | None = None


Check.type = "check"


@dataclass(frozen=True, slots=True)
class Initiative(Event):
    id: str
    natural: int
    modifier: int
    total: int
    rolloff: bool = False


Initiative.type = "initiative"


@dataclass(frozen=True, slots=True)
class InitiativeOrder(Event):
    order: tuple[str, ...]


InitiativeOrder.type = "initiative_order"


@dataclass(frozen=True, slots=True)
class RoundStart(Event):
    pass


RoundStart.type = "round_start"


@dataclass(frozen=True, slots=True)
class TurnStart(Event):
    id: str


TurnStart.type = "turn_start"


@dataclass(frozen=True, slots=True)
class TurnEnd(Event):
    id: str
    delayed: bool = False


TurnEnd.type = "turn_end"


@dataclass(frozen=True, slots=True)
class ActionSpent(Event):
    id: str
    kind: str
    name: str


ActionSpent.type = "action"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    id: str
    mode: str
    path: tuple[Square, ...]
    cost: int


Moved.type = "move"


@dataclass(frozen=True, slots=True)
class Provoke(Event):
    mover: str
    by: str
    at: Square
    taken: bool


Provoke.type = "provoke"


@dataclass(frozen=True, slots=True)
class Triggered(Event):
    """A triggered power's moment came (docs/content.md, Triggered powers): `id` could use
    `power` (an `interrupt`, before the trigger, or a reaction, after it) because of
    `trigger`, set off by `by` (the attacker, the mover, whose turn it is; null for ongoing
    damage); `taken` says whether it did. When taken, an `action` line of kind `immediate`
    and the power's own lines follow."""

    id: str
    power: str
    trigger: str
    by: str | None
    interrupt: bool
    taken: bool


Triggered.type = "trigger"


@dataclass(frozen=True, slots=True)
class Attack(Event):
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


Attack.type = "attack"


@dataclass(frozen=True, slots=True)
class CritExtra:
    dice: str
    rolls: tuple[int, ...]
    value: int


@dataclass(frozen=True, slots=True)
class Damage(Event):
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


Damage.type = "damage"


@dataclass(frozen=True, slots=True)
class Heal(Event):
    target: str
    source: str | None
    amount: int
    hp_before: int
    hp_after: int
    surge: bool = False


Heal.type = "heal"


@dataclass(frozen=True, slots=True)
class TempHp(Event):
    target: str
    amount: int
    temp_hp: int


TempHp.type = "temp_hp"


@dataclass(frozen=True, slots=True)
class EffectStart(Event):
    effect: str
    target: str
    source: str | None
    name: str
    duration: str
    owner: str | None
    parts: tuple[dict[str, Any], ...]


EffectStart.type = "effect_start"


@dataclass(frozen=True, slots=True)
class EffectEnd(Event):
    effect: str
    target: str
    reason: str


EffectEnd.type = "effect_end"


@dataclass(frozen=True, slots=True)
class Save(Event):
    id: str
    effect: str
    when: str
    natural: int
    modifiers: tuple[Mod, ...]
    total: int
    success: bool


Save.type = "save"


@dataclass(frozen=True, slots=True)
class DeathSave(Event):
    id: str
    natural: int
    total: int
    result: str
    failures: int


DeathSave.type = "death_save"


@dataclass(frozen=True, slots=True)
class StateChange(Event):
    id: str
    state: str
    hp: int


StateChange.type = "state"


@dataclass(frozen=True, slots=True)
class PowerRecharge(Event):
    id: str
    power: str
    natural: int
    needed: int
    recharged: bool


PowerRecharge.type = "recharge"


@dataclass(frozen=True, slots=True)
class Decision(Event):
    id: str
    policy: str
    summary: str
    candidates: tuple[dict[str, Any], ...]
    ms: float


Decision.type = "decision"


@dataclass(frozen=True, slots=True)
class Arrive(Event):
    """A reinforcement arrives at the start of a round, on `pos` (issue 16; schema 2,
    docs/log.md); its `initiative` and a new `initiative_order` follow."""

    id: str
    pos: Square


Arrive.type = "arrive"


@dataclass(frozen=True, slots=True)
class Immune(Event):
    """A power's effects did not land: the target is immune to its keyword (issue 16; a
    schema-2 line, docs/log.md). Damage stopped by an immunity is an `immune` adjustment."""

    target: str
    source: str | None
    power: str
    keyword: str


Immune.type = "immune"


@dataclass(frozen=True, slots=True)
class Note(Event):
    """Something a person should read that no other event says (a power used with no roll)."""

    id: str | None
    text: str


Note.type = "note"


@dataclass(frozen=True, slots=True)
class Gm(Event):
    """The game master changed the fight by hand (engine.gm; docs/log.md): `tool` is `hp`,
    `effect`, `end_effect`, `add` or `remove`. The consequences follow as ordinary events
    (damage, heal, temp_hp, effect_start/end, initiative, initiative_order)."""

    tool: str
    target: str
    summary: str
    combatant: dict[str, Any] | None = None
    """`add`: the creature as encounter_start lists its combatants."""


Gm.type = "gm"


@dataclass(frozen=True, slots=True)
class EncounterEnd(Event):
    winner: str | None
    rounds: int
    reason: str


EncounterEnd.type = "encounter_end"


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

_set_class = vars(object)["__class__"].__set__  # (`object.__dict__` crashes mypyc 2.4)

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
        return  # no generated __init__ to replace
    if hasattr(cls, "__post_init__"):
        return  # the generated __init__ calls it: keep that one
    names, params, ns = [], [], {}
    native = False  # a compiled (mypyc) class: getset fields, set through their `__set__`
    # (the generated __init__'s `object.__setattr__` reaches the same setter at ~3x the cost);
    # never made a builder (a native instance's class can't be swapped)
    for i, f in enumerate(fields(cls)):
        owner = next((k for k in cls.__mro__ if f.name in k.__dict__), None)
        slot = owner.__dict__[f.name] if owner is not None else None
        if isinstance(slot, types.GetSetDescriptorType):
            native = True
        elif not isinstance(slot, types.MemberDescriptorType):
            return
        if f.default_factory is not MISSING:
            return
        ns[f"_set{i}"] = slot.__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            ns[f"_default{i}"] = f.default
            params.append(f"{f.name}=_default{i}")
        names.append(f.name)
    slow = "".join(f"\n    _set{i}(self, {n})" for i, n in enumerate(names)) or "\n    pass"
    if len(names) >= BUILDER_FIELDS and not native:
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
        # (a class `dataclass(slots=True)` replaced may linger among the subclasses: no slots;
        # a compiled build's native class has none either, but getset fields)
        if cls is not Event and ("__slots__" in cls.__dict__ or _native(cls)):
            _quick_init(cls)


def _native(cls: type) -> bool:
    """Is `cls` a native class of the compiled build (its fields getset descriptors)?"""
    own = cls.__dict__
    return any(
        isinstance(own.get(f.name), types.GetSetDescriptorType)
        for f in getattr(cls, "__dataclass_fields__", {}).values()
    )


_quick_all()
