"""Every event and action type names itself (issue 14's compiled build): each event class
sets its log `type`, and each action class its `name`, right after the class rather than as
a class attribute in its body (mypyc takes a dataclass body's assignments for fields). A
class that forgot would log or parse as its base ("event", "action"): these tests catch it."""

from __future__ import annotations

import dataclasses

import pytest

import engine.actions as actions
import engine.events as events


def _concrete(base: type) -> list[type]:
    """The dataclasses under `base` that their module names (`dataclass(slots=True)` makes a
    new class: the one it replaced lingers among the subclasses until collected; the quick
    constructors' builder classes are no types of their own)."""
    out: list[type] = []
    todo: list[type] = list(base.__subclasses__())
    modules = {events.__name__: events, actions.__name__: actions}
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        module = modules.get(cls.__module__)
        if (
            module is not None
            and getattr(module, cls.__name__, None) is cls
            and dataclasses.is_dataclass(cls)
            and "_builder_of" not in vars(cls)
        ):
            out.append(cls)
    return out


@pytest.mark.parametrize(
    ("base", "attr", "least"), [(events.Event, "type", 20), (actions.Action, "name", 10)]
)
def test_every_event_and_action_class_sets_its_own_unique_name(
    base: type, attr: str, least: int
) -> None:
    classes = _concrete(base)
    assert len(classes) > least
    for cls in classes:
        assert attr in vars(cls), f"{cls.__name__} does not set its {attr}"
        assert vars(cls)[attr] != vars(base)[attr]
    names = [vars(cls)[attr] for cls in classes]
    assert len(names) == len(set(names)), sorted(names)
