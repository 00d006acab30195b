"""The rulesets by name: the one list every other place (content validation, `--ruleset`,
the app's messages) reads. A ruleset module registers its class with `register(Class)`; the
`engine.rulesets` package imports every module in it, so a new ruleset is its module (and
its content and tests) and nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.rulesets.base import ExtraAction, Ruleset

DEFAULT = "ffd20"
"""The ruleset of an encounter that names none."""

RULESETS: dict[str, type[Ruleset]] = {}
"""Every registered ruleset class by its `name`."""


def register(cls: type[Ruleset]) -> type[Ruleset]:
    """Make a ruleset known by its `name`: `register(Class)` after the class (a test may use
    it as a class decorator; returns the class)."""
    known = RULESETS.get(cls.name)
    if known is not None and known is not cls:
        raise ValueError(f"two rulesets named {cls.name!r}")
    RULESETS[cls.name] = cls
    return cls


def unregister(name: str) -> None:
    """Forget a ruleset (tests that register their own)."""
    RULESETS.pop(name, None)


def ruleset_names() -> tuple[str, ...]:
    """The names, the default first and then in alphabetical order (choices, messages)."""
    return tuple(sorted(RULESETS, key=lambda n: (n != DEFAULT, n)))


def names_offering(action: str) -> tuple[str, ...]:
    """The rulesets that have the extra action `action` ("full_attack"), in `ruleset_names`
    order: for messages such as "no full attack in ffd20 (d20srd has one)"."""
    return tuple(n for n in ruleset_names() if RULESETS[n]().offers(action))


def extra_action(action: str) -> ExtraAction | None:
    """How the first ruleset that has `action` describes it (for a ruleset that lacks it:
    "there is no full attack in ffd20")."""
    for n in ruleset_names():
        found = RULESETS[n]().extra_action(action)
        if found is not None:
            return found
    return None


def offered_in(action: str) -> str:
    """ "d20srd", "4srd/d20srd": the rulesets that have `action`, for help texts."""
    return "/".join(names_offering(action)) or "no ruleset"
