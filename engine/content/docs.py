"""Generated parts of docs/content.md, so that the documentation cannot drift from the code.

The conditions table in the content guide is rendered from `engine.conditions.CONDITIONS`;
a test checks that the guide holds exactly this rendering between its markers.
"""

from __future__ import annotations

from engine.conditions import CONDITIONS

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
