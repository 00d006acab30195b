"""Immunities (issue 16 item 3): `immune: [fire, poison, fear, charm, ...]` on a creature.

An immunity names a damage type or a power keyword (the closed lists below; `skirmish check`
refuses anything else: an immunity to nothing protects from nothing). The specification has
no immunity clause; this follows the usual 4e reading and the resist rule beside it:
- damage: a creature immune to every type of the damage takes none of it (as F-DMG-3 reads
  resistance: a damage of several types is stopped only by an immunity to each);
- effects: a creature immune to one of a power's keywords gets none of that power's effects
  (conditions, ongoing damage, modifiers, forced movement); its damage is judged by type.
The engine applies both, the attack preview shows both (`AttackPreview.immune_damage`,
`immune_effects`), and the AI reads them there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.content.schema import Creature, Power

DAMAGE_TYPES = (
    "acid",
    "cold",
    "fire",
    "force",
    "lightning",
    "necrotic",
    "poison",
    "psychic",
    "radiant",
    "thunder",
)
"""The usual 4e damage types."""
KEYWORDS = ("charm", "fear", "illusion", "sleep", "poison", "disease", "gaze", "zone")
"""Power keywords an immunity may name (the usual 4e effect keywords)."""
IMMUNITIES = tuple(dict.fromkeys((*DAMAGE_TYPES, *KEYWORDS)))


def immune_to_damage(cr: Creature, types: tuple[str, ...] | list[str]) -> bool:
    """No damage of these types: immune to each of them (untyped damage is never stopped)."""
    return bool(types) and all(t in cr.immune for t in types)


def immune_to_effects(cr: Creature, power: Power) -> str | None:
    """The keyword of `power` that `cr` is immune to (none of its effects land), or None."""
    return next((k for k in power.keywords if k in cr.immune), None)
