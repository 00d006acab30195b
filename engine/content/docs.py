"""Generated parts of docs/content.md, so that the documentation cannot drift from the code.

The conditions table in the content guide is rendered from `engine.conditions.CONDITIONS`,
and the limits table from `engine.content.limits` and `engine.dice`; a test checks that the
guide holds exactly these renderings between their markers.
"""

from __future__ import annotations

from engine import dice
from engine.conditions import CONDITIONS
from engine.content import limits

CONDITIONS_START = "<!-- conditions:start -->"
CONDITIONS_END = "<!-- conditions:end -->"


def conditions_markdown() -> str:
    """The conditions table as Markdown (no markers, ends with a newline)."""
    lines = ["| condition | code | effect |", "|---|---|---|"]
    for info in CONDITIONS:
        effect = info.effect.replace("|", "\\|")
        lines.append(f"| `{info.name}` | {info.code} | {effect} |")
    return "\n".join(lines) + "\n"


def replace_conditions(text: str) -> str:
    """`text` with the part between the condition markers regenerated."""
    start = text.index(CONDITIONS_START) + len(CONDITIONS_START)
    end = text.index(CONDITIONS_END)
    return text[:start] + "\n" + conditions_markdown() + text[end:]


LIMITS_START = "<!-- limits:start -->"
LIMITS_END = "<!-- limits:end -->"


def limits_markdown() -> str:
    """The limits table as Markdown (no markers, ends with a newline)."""
    rows = [
        ("a content file", f"{limits.MAX_FILE_BYTES // 1024} KB"),
        (
            "everything one load reads (an encounter and its includes)",
            f"{limits.MAX_LOAD_BYTES // 1024} KB",
        ),
        ("values one load reads, aliases and merges expanded", f"{limits.MAX_VALUES:,}"),
        ("nesting of lists and mappings", f"{limits.MAX_DEPTH} levels"),
        ("includes of one encounter", str(limits.MAX_INCLUDES)),
        ("creatures defined in one file", str(limits.MAX_CREATURES)),
        ("powers defined in one file", str(limits.MAX_POWERS)),
        ("combatants (and sides) of one encounter", str(limits.MAX_COMBATANTS)),
        ("a map", f"{limits.MAX_MAP_SIDE} x {limits.MAX_MAP_SIDE} squares"),
        ("symbols in a map legend", str(limits.MAX_LEGEND)),
        (
            "a name (creature, power, weapon, combatant, map, race, keyword)",
            f"{limits.MAX_NAME} characters",
        ),
        ("a description", f"{limits.MAX_TEXT:,} characters"),
        (
            "a small list (keywords, damage types, effects, weapons, a creature's powers)",
            f"{limits.MAX_LIST} items",
        ),
        ("dice in one term, sides of a die", f"{dice.MAX_COUNT}, {dice.MAX_SIDES}"),
    ]
    lines = ["| what | at most |", "|---|---|"]
    lines += [f"| {what} | {limit} |" for what, limit in rows]
    return "\n".join(lines) + "\n"


def replace_limits(text: str) -> str:
    """`text` with the part between the limits markers regenerated."""
    start = text.index(LIMITS_START) + len(LIMITS_START)
    end = text.index(LIMITS_END)
    return text[:start] + "\n" + limits_markdown() + text[end:]
