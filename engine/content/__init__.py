"""Content: the YAML format for creatures, powers, maps and encounters, and its loader.

Everything the rest of Skirmish needs comes from here: the models (`engine.content.schema`),
`load_encounter` / `load_library`, the bundled content listing, and `ContentError(s)`,
which name the file, line and field of every problem.
"""

from __future__ import annotations

from engine.content.bundled import EncounterInfo, bundled_encounters, bundled_files, check_files
from engine.content.checks import is_weapon_power, weapon_for
from engine.content.errors import ContentError, ContentErrors
from engine.content.loader import (
    LoadedEncounter,
    content_hash,
    load_encounter,
    load_library,
)
from engine.content.placement import SIZE_SQUARES
from engine.content.schema import (
    Creature,
    Encounter,
    Library,
    MapSpec,
    Power,
    Weapon,
)

__all__ = [
    "SIZE_SQUARES",
    "ContentError",
    "ContentErrors",
    "Creature",
    "Encounter",
    "EncounterInfo",
    "Library",
    "LoadedEncounter",
    "MapSpec",
    "Power",
    "Weapon",
    "bundled_encounters",
    "bundled_files",
    "check_files",
    "content_hash",
    "is_weapon_power",
    "load_encounter",
    "load_library",
    "weapon_for",
]
