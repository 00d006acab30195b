"""How the grid draws things: two characters per square, so that a square looks square.

The first character is the terrain or the creature's letter, the second a mark: a creature's
number or state, or an overlay (reachable, path, provoke, threat, area, target). Every fact
has a character, so the map reads the same with NO_COLOR and on a 16-colour console; colour
only repeats what the characters say. The help screen's legend is built from the same tables.
"""

from __future__ import annotations

from typing import Literal

from rich.cells import cell_len

from engine.grid import Cell, Obscured, Terrain

Mark = Literal["reach", "path", "provoke", "threat", "area", "target", "origin"]

MARKS: dict[Mark, tuple[str, str, str]] = {
    # mark: (character, style, meaning)
    "reach": ("·", "reach", "reachable with this move"),
    "path": (">", "path", "the path to the cursor"),
    "provoke": ("!", "provoke", "leaving this square provokes an opportunity attack"),
    "threat": ("¤", "threat", "an enemy threatens this square (t toggles)"),
    "area": ("*", "area", "inside the burst or blast"),
    "target": ("+", "target", "a legal target (Tab cycles)"),
    "origin": ("°", "origin", "a legal origin square for the area"),
}

TOKEN_MARKS: tuple[tuple[str, str], ...] = (
    ("B ", "your side: a player character or an ally (capital letter)"),
    ("g ", "the other side: a monster or an enemy (small letter)"),
    ("g2", "the second creature drawn with the same letter"),
    ("g!", "bloodied (at or below half its hit points)"),
    ("B_", "down: dying, unconscious or stable"),
    ("s?", "hidden: your side can't see it (shown to the GM and when the AI plays all)"),
    ("?s", "where your side last saw a creature it can't see now"),
)
HIDDEN = "?"
"""The second character of a hidden creature (GM view) and the first of a last-seen mark."""


def friendly_sides(creatures: list[tuple[str, bool]]) -> set[str]:
    """(side, is_pc) of every creature -> the sides drawn as "yours" (capital letters): the
    sides with a player character, or the first side when none has one (AI against AI)."""
    sides = {side for side, pc in creatures if pc}
    if not sides and creatures:
        sides = {creatures[0][0]}
    return sides


def terrain_glyph(cell: Cell) -> tuple[str, str]:
    """(two characters, style name) for a square's terrain."""
    t = cell.terrain
    if t is Terrain.WALL:
        return "##", "wall"
    if t is Terrain.PILLAR:
        return "OO", "wall"
    if t is Terrain.OBSTACLE:
        return "==", "obstacle"
    if t is Terrain.PIT:
        return "^^", "pit"
    if cell.difficult and cell.obscured is not Obscured.NONE:
        return "& ", "difficult"
    if cell.difficult:
        return "~ ", "difficult"
    if cell.obscured is Obscured.LIGHT:
        return ", ", "obscured"
    if cell.obscured is Obscured.HEAVY:
        return "; ", "obscured"
    if cell.obscured is Obscured.TOTAL:
        return "% ", "dark"
    return ". ", "floor"


TERRAIN_LEGEND: tuple[tuple[str, str], ...] = (
    (". ", "floor"),
    ("##", "wall: blocks movement, sight and line of effect"),
    ("OO", "pillar: like a wall, one square"),
    ("==", "low obstacle: blocks movement, gives cover"),
    ("^^", "pit: can't be entered willingly"),
    ("~ ", "difficult terrain: costs 2 squares to enter"),
    (", ", "lightly obscured: concealment"),
    ("; ", "heavily obscured: total concealment beyond adjacent"),
    ("% ", "totally obscured: total concealment"),
    ("& ", "undergrowth: difficult and lightly obscured"),
)

TERRAIN_NAMES: dict[str, str] = {
    "floor": "floor",
    "wall": "wall",
    "obstacle": "obstacle",
    "pit": "pit",
    "difficult": "difficult",
    "obscured": "obscured",
    "dark": "darkness",
}


def describe_cell(cell: Cell) -> str:
    """Words for a square's terrain (the details panel)."""
    bits = [cell.terrain.value]
    if cell.difficult:
        bits.append("difficult")
    if cell.obscured is not Obscured.NONE:
        bits.append(cell.obscured.value.replace("_", " "))
    return ", ".join(bits)


def _letter(ch: str, pc: bool) -> str:
    """A square's letter: one printable character one cell wide ("?" for a control, bidi or
    wide character from a name, which would break the grid or reach the terminal raw)."""
    cased = ch.upper() if pc else ch.lower()
    ch = cased if len(cased) == 1 else ch
    return ch if ch.isprintable() and cell_len(ch) == 1 else "?"


def token_letters(creatures: list[tuple[str, str, bool]]) -> dict[str, tuple[str, str]]:
    """(id, glyph or name, friendly) in encounter order -> id: (letter, number or "").

    Your side (player characters and their allies, `friendly_sides`) gets capitals, the other
    side small letters, so friend and foe differ without colour; creatures sharing a letter
    are numbered.
    """
    letters: dict[str, str] = {}
    for cid, glyph, friendly in creatures:
        letters[cid] = _letter((glyph or "?")[0], friendly)
    counts: dict[str, int] = {}
    for ch in letters.values():
        counts[ch] = counts.get(ch, 0) + 1
    seen: dict[str, int] = {}
    out: dict[str, tuple[str, str]] = {}
    for cid, ch in letters.items():
        if counts[ch] > 1:
            seen[ch] = seen.get(ch, 0) + 1
            n = seen[ch]
            out[cid] = (ch, str(n) if n < 10 else "#")
        else:
            out[cid] = (ch, "")
    return out
