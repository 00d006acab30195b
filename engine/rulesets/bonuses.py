"""Typed bonuses (`TypedBonus` in content) and which of them stack.

4srd S-9: bonuses of the same type don't stack (a feat and an item bonus add; two feat
bonuses don't: the higher counts). d20srd D-2: the same, except dodge bonuses, which stack.
Untyped bonuses always add, and so do penalties. ffd20 states no such rule: every bonus adds
(F-DEF-6 lists the kinds that add).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.content.schema import TypedBonus

DEFENSE_STATS = frozenset({"ac", "fortitude", "reflex", "will"})


def applies(b: TypedBonus, stat: str) -> bool:
    return b.stat == stat or (b.stat == "defenses" and stat in DEFENSE_STATS)


def by_type(bonuses: Iterable[TypedBonus], stat: str) -> dict[str, list[int]]:
    """The values of the bonuses to `stat`, grouped by type."""
    out: dict[str, list[int]] = {}
    for b in bonuses:
        if applies(b, stat):
            out.setdefault(b.type, []).append(b.value)
    return out


def combine(values: Iterable[int], stacks: bool) -> int:
    """One type's values: all of them if the type stacks, else the highest bonus plus every
    penalty."""
    vals = list(values)
    if stacks:
        return sum(vals)
    bonuses = [v for v in vals if v > 0]
    return max(bonuses, default=0) + sum(v for v in vals if v < 0)


def typed_total(
    bonuses: Iterable[TypedBonus],
    stat: str,
    stacking: frozenset[str] | None,
    *,
    skip: frozenset[str] = frozenset(),
) -> int:
    """The total of the bonuses to `stat` under a stacking rule (None: everything adds).
    `skip`: types the caller combines itself (with armor or a shield, say)."""
    total = 0
    for kind, vals in by_type(bonuses, stat).items():
        if kind in skip:
            continue
        stacks = stacking is None or kind == "untyped" or kind in stacking
        total += combine(vals, stacks)
    return total
