"""Rulesets by name: the policy objects behind `ruleset:` in an encounter.

Importing the package imports each of its modules, whose `register(...)` makes their ruleset
known (`engine.rulesets.registry`); `RULESETS` and `ruleset_names()` are the one list.
"""

from __future__ import annotations

import importlib
import pkgutil

from engine.rulesets.base import CreatureRules, ExtraAction, Ruleset
from engine.rulesets.registry import (
    DEFAULT,
    RULESETS,
    extra_action,
    names_offering,
    offered_in,
    register,
    ruleset_names,
    unregister,
)

for _mod in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_mod.name}")


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]()
    except KeyError:
        known = ", ".join(ruleset_names())
        raise ValueError(f"unknown ruleset {name!r} (known: {known})") from None


__all__ = [
    "DEFAULT",
    "RULESETS",
    "CreatureRules",
    "ExtraAction",
    "Ruleset",
    "extra_action",
    "get_ruleset",
    "names_offering",
    "offered_in",
    "register",
    "ruleset_names",
    "unregister",
]
