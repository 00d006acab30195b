"""Limits of the content format: what a file may ask for, so that any accepted file is cheap.

Content files come from anyone (a downloaded bestiary, a hand-edited encounter), and the YAML
format itself can ask for far more than it looks like: a few hundred bytes of aliases expand to
billions of values, a thousand `[` exhaust the parser's stack, a 3000x3000 map or 20,000
creatures take minutes and gigabytes to load and simulate. Each limit here is refused at load
time with `file:line: field: message`, and is chosen so that an accepted file loads in well
under 2 s and simulates on a small machine; the bundled content is far inside all of them.
docs/content.md ("Limits") lists them for authors; `tests/engine/test_content_limits.py`
shows each one refused.
"""

from __future__ import annotations

MAX_FILE_BYTES = 256 * 1024
"""One content file (the largest bundled file is 17 KB)."""
MAX_LOAD_BYTES = 512 * 1024
"""Every file one load reads: an encounter and its includes."""
MAX_DEPTH = 40
"""Nesting of YAML lists and mappings (the content format needs 8)."""
MAX_VALUES = 20_000
"""Values one load reads, once aliases and merges are expanded (billion-laughs files); a
value costs ~50 us to read and check, so this bounds a load to about a second. The bundled
`battle` encounter with its includes has about 2,000."""
MAX_INCLUDES = 8
"""Library files one encounter may include."""
MAX_CREATURES = 200
"""Creature definitions in one file (a library or an encounter's inline ones)."""
MAX_POWERS = 400
"""Power definitions in one file."""
MAX_COMBATANTS = 64
"""Creatures placed in one encounter."""
MAX_MAP_SIDE = 100
"""Squares along each side of a map (the bundled maps are at most 60x60)."""
MAX_LEGEND = 64
"""Symbols a map's legend may define."""
MAX_NAME = 40
"""Characters of a display name (creature, power, weapon, combatant, map)."""
MAX_TEXT = 2000
"""Characters of free text (descriptions)."""
MAX_LIST = 32
"""Items in a small list (keywords, damage types, effects, weapons, a creature's powers)."""
MAX_GRID_CHARS = (MAX_MAP_SIDE + 1) * MAX_MAP_SIDE * 4
"""Characters of a map drawing (rows of at most MAX_MAP_SIDE squares, some indentation)."""
