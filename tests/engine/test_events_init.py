"""The events' quick constructors (`engine.events._quick_init`, issue 14) take the arguments the
dataclass-generated ones take, with the same defaults, and build equal, still frozen events:
every event class of the log (../shared/log-schema.md), `Mod`, `Logged`, `CritExtra`, the
replay's `Record`, the `Move` and `UsePower` actions and the dice's `Roll` and `DiceExpr`
(`quick_constructor`)."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from typing import Any

import pytest

from engine import dice, events
from engine.encounter import Record

CLASSES = sorted(events.DATACLASS_INIT, key=lambda c: c.__name__)


def test_every_event_class_has_a_quick_constructor() -> None:
    want = {events.Mod, events.Logged, events.CritExtra, events.Attack, events.Damage, Record}
    want |= {dice.Roll, dice.DiceExpr}
    assert want <= set(CLASSES)
    for cls in CLASSES:
        assert vars(cls)["__init__"] is not events.DATACLASS_INIT[cls]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_quick_constructor_matches_the_generated_one(cls: type) -> None:
    generated = events.DATACLASS_INIT[cls]
    quick = vars(cls)["__init__"]
    assert list(inspect.signature(quick).parameters) == list(
        inspect.signature(generated).parameters
    )
    for name, p in inspect.signature(generated).parameters.items():
        assert inspect.signature(quick).parameters[name].default == p.default, name
    args: dict[str, Any] = {
        f.name: (i, f.name) for i, f in enumerate(dataclasses.fields(cls)) if f.init
    }
    made = cls(**args)
    old: Any = object.__new__(cls)
    generated(old, **args)
    assert made == old and hash(made) == hash(old)
    assert type(made) is cls  # a builder (engine.events._builder) never escapes __init__
    assert pickle.loads(pickle.dumps(made)) == made
    assert repr(made) == repr(old)
    for f in dataclasses.fields(cls):
        assert getattr(made, f.name) == args[f.name]
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, f.name, None)
    required = [f for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING]
    if required:
        with pytest.raises(TypeError):
            cls()
    defaults = {
        f.name: f.default for f in dataclasses.fields(cls) if f.default is not dataclasses.MISSING
    }
    short = cls(**{k: v for k, v in args.items() if k not in defaults})
    for name, value in defaults.items():
        assert getattr(short, name) == value


@dataclasses.dataclass(frozen=True, slots=True)
class _Later(events.Attack):
    """A subclass of a quick class, adding a field: built the descriptor way, as itself."""

    extra: int = 0


def test_a_subclass_of_a_built_class_is_built_as_itself() -> None:
    fields = [f.name for f in dataclasses.fields(events.Attack) if f.default is dataclasses.MISSING]
    later: Any = _Later
    made = later(*range(len(fields)), extra=5)
    assert type(made) is _Later and made.extra == 5 and made.attacker == 0
    quick = vars(events.Attack)["__init__"]
    short: Any = object.__new__(_Later)
    quick(short, *range(len(fields)))  # the inherited quick __init__ on a subclass object
    assert type(short) is _Later and short.concealment == len(fields) - 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(short, "attacker", 1)  # noqa: B010 (mypy knows the field is frozen)
