"""Rulesets by name: the policy objects behind `ruleset:` in an encounter."""

from __future__ import annotations

from engine.rulesets.base import Ruleset
from engine.rulesets.d20srd import D20Srd
from engine.rulesets.ffd20 import Ffd20
from engine.rulesets.srd4 import Srd4

RULESETS: dict[str, type[Ruleset]] = {"ffd20": Ffd20, "4srd": Srd4, "d20srd": D20Srd}


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]()
    except KeyError:
        known = ", ".join(sorted(RULESETS))
        raise ValueError(f"unknown ruleset {name!r} (known: {known})") from None


__all__ = ["RULESETS", "Ruleset", "get_ruleset"]
