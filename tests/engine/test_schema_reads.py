"""Content models are read as plain attributes (`engine.content.schema.plain_reads`): pydantic's
`BaseModel.__getattr__` is off, which is safe only while no model class of the program has a
private attribute or takes extra fields, and changes nothing a reader sees."""

from __future__ import annotations

import importlib
import pkgutil

import pydantic
import pytest

import engine
from engine.content import schema
from engine.content.loader import load_encounter


def _import_all(package: object) -> None:
    path = getattr(package, "__path__", None)
    assert path is not None
    for info in pkgutil.walk_packages(path, f"{package.__name__}."):  # type: ignore[attr-defined]
        importlib.import_module(info.name)


def test_the_hook_is_off_and_no_model_needs_it() -> None:
    _import_all(engine)  # every model class the engine (and its content format) makes
    assert "__getattr__" not in pydantic.BaseModel.__dict__
    assert schema.PYDANTIC_GETATTR is not None  # (pydantic's own, kept)
    models = schema._model_classes()
    assert schema.Power in models and schema.Creature in models
    assert [m for m in models if schema._needs_getattr(m)] == []
    assert schema.plain_reads()


def test_a_missing_attribute_raises_as_before() -> None:
    power = schema.Power.model_validate(
        {"id": "p", "name": "P", "action": "standard", "usage": "at-will", "kind": "melee"}
    )
    with pytest.raises(AttributeError, match="'Power' object has no attribute 'nope'"):
        power.nope  # type: ignore[attr-defined]  # noqa: B018
    assert not hasattr(power, "nope")
    assert getattr(power, "nope", 7) == 7


def test_fields_read_as_dumped() -> None:
    loaded = load_encounter("default")
    for creature in loaded.creatures.values():
        dumped = creature.model_dump()
        for name in type(creature).model_fields:
            value = getattr(creature, name)
            if isinstance(value, pydantic.BaseModel):
                assert value.model_dump() == dumped[name]
            elif not isinstance(value, tuple | list):
                assert value == dumped[name]
    for power in loaded.powers.values():
        assert power.model_copy() == power
        assert schema.Power.model_validate(power.model_dump()) == power


def test_a_model_with_a_private_attribute_keeps_the_hook() -> None:
    """`plain_reads` leaves the hook on when a class needs it (asked with the hook back)."""
    saved = pydantic.BaseModel.__dict__.get("__getattr__")
    assert saved is None

    class Private(pydantic.BaseModel):
        _secret: int = pydantic.PrivateAttr(default=3)

    try:
        setattr(pydantic.BaseModel, "__getattr__", schema.PYDANTIC_GETATTR)  # noqa: B010
        assert Private()._secret == 3
        assert not schema.plain_reads()
        assert "__getattr__" in pydantic.BaseModel.__dict__
    finally:
        del Private
        import gc

        gc.collect()  # (the class leaves `__subclasses__` once collected)
        delattr(pydantic.BaseModel, "__getattr__")
    assert "__getattr__" not in pydantic.BaseModel.__dict__
