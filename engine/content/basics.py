"""Every creature has a basic melee attack (issue 16 item 4).

The seed text says "Each character has a number of attacks to choose from, including a basic
attack" (file 000). A creature whose content lists no basic melee attack (a wizard with only
spells) would otherwise threaten nobody and never take an opportunity attack, so the engine
derives one: with the creature's first melee weapon (1[W] + Str, vs AC, the usual 4e basic
melee attack), or unarmed (1d4 + Str) when it has none. `skirmish check` says so as a note
(`notes_for`), since the content did not ask for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.content.schema import Creature, Power

DERIVED_ID = "basic-attack"
"""The id of a derived basic melee attack (a creature's own power ids never collide with
it: a creature that lists a basic melee attack gets no derived one)."""


def has_basic_melee(powers: Iterable[Power]) -> bool:
    return any(p.basic and p.kind == "melee" for p in powers)


def derived_basic_melee(cr: Creature, powers: Iterable[Power]) -> Power | None:
    """The basic melee attack `cr` gets from its weapon (or unarmed), or None when its own
    `powers` already have one."""
    if has_basic_melee(powers):
        return None
    weapon = next((w for w in cr.weapons if w.kind in ("melee", "thrown")), None)
    data: dict[str, Any] = {
        "id": DERIVED_ID,
        "kind": "melee",
        "basic": True,
        "attack": {"ability": "str", "vs": "ac"},
        "description": "Derived: the content lists no basic melee attack (issue 16).",
    }
    if weapon is not None:
        data["name"] = f"Basic Attack ({weapon.name})"[:60]
        data["weapon"] = weapon.id
        data["keywords"] = ["weapon"]
        data["hit"] = {"damage": {"dice": "1[W]", "ability": "str"}}
    else:
        data["name"] = "Basic Attack (unarmed)"
        data["hit"] = {"damage": {"dice": "1d4", "ability": "str"}}
    return Power.model_validate(data)


def with_basic_melee(cr: Creature, powers: tuple[Power, ...]) -> tuple[Power, ...]:
    """`powers` plus the derived basic melee attack when they have none."""
    extra = derived_basic_melee(cr, powers)
    return powers if extra is None else (*powers, extra)


def derived_note(cr: Creature, powers: Mapping[str, Power]) -> str | None:
    """The `skirmish check` note for `cr` (its power ids looked up in `powers`), or None."""
    own = [powers[p] for p in cr.powers if p in powers]
    extra = derived_basic_melee(cr, own)
    if extra is None:
        return None
    return (
        f"note: lists no basic melee attack; it gets {extra.name} (the seed: every "
        "creature has a basic attack)"
    )
