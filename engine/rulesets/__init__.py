"""Rulesets by name: the policy objects behind `ruleset:` in an encounter."""

from __future__ import annotations

from engine.rulesets.base import Ruleset
from engine.rulesets.ffd20 import Ffd20

RULESETS: dict[str, type[Ruleset]] = {"ffd20": Ffd20}


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]()
    except KeyError:
        known = ", ".join(sorted(RULESETS))
        raise ValueError(f"unknown ruleset {name!r} (known: {known})") from None


__all__ = ["RULESETS", "Ruleset", "get_ruleset"]
