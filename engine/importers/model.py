"""The importers' middle form: one creature and its powers as the source states them.

Each reader (`cb4e` for Character Builder saves, `statblock` for Compendium pages and pasted
text) fills these with the source's own numbers and words plus the line each came from; then
`mapping` alone turns them into Skirmish content. Keeping the two apart means a number is
read in one place and mapped in one place, and a test can compare either with the source.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Damage:
    """A damage roll as printed: `2d6+4 fire` is dice "2d6", bonus 4, types ["fire"]."""

    dice: str
    bonus: int = 0
    types: list[str] = field(default_factory=list)


@dataclass
class SrcPower:
    """One power as the source gives it."""

    name: str
    line: int | None
    action: str = "standard"
    """standard, move, minor, free or immediate."""
    usage: str = "at-will"
    """at-will, encounter, daily or recharge."""
    recharge: int | None = None
    keywords: list[str] = field(default_factory=list)
    basic: bool = False
    marker: str | None = None
    """The icon letter of a stat block (m M r R C A), if any."""
    kind: str | None = None
    """melee, ranged, close, area or personal; None when the source names no range."""
    reach: int | None = None
    range: int | None = None
    burst: int | None = None
    blast: int | None = None
    target: str = "enemy"
    targets: int = 1
    attack_bonus: int | None = None
    vs: str | None = None
    damage: Damage | None = None
    """The hit's damage, from the numbers the source computed or printed."""
    hit: str = ""
    """The rest of the hit line (after the damage), as prose to read for effects."""
    miss: str = ""
    effect: str = ""
    aftereffect: str = ""
    notes: list[str] = field(default_factory=list)
    """Source text that the readers already know Skirmish can't play (a trigger, an aura)."""
    about: list[str] = field(default_factory=list)
    """Plain facts for the description that change no rule (the weapon or implement used)."""
    problems: list[str] = field(default_factory=list)
    """Why the power can't be imported at all (it is then left out, with a warning)."""


@dataclass
class SrcCreature:
    """One creature as the source gives it; `lines` says where each field was read."""

    name: str
    file: str
    line: int | None
    kind: str = "monster"
    level: int | None = None
    role: str | None = None
    rank: str | None = None
    """elite, solo or minion (monsters)."""
    leader: bool = False
    size: str | None = None
    hp: int | None = None
    bloodied: int | None = None
    healing_surges: int | None = None
    ac: int | None = None
    fortitude: int | None = None
    reflex: int | None = None
    will: int | None = None
    speed: int | None = None
    initiative: int | None = None
    abilities: dict[str, int] = field(default_factory=dict)
    ability_mods: dict[str, int] = field(default_factory=dict)
    """The modifiers as printed (a monster's include half its level)."""
    skills: dict[str, int] = field(default_factory=dict)
    resist: dict[str, int] = field(default_factory=dict)
    vulnerable: dict[str, int] = field(default_factory=dict)
    immune: list[str] = field(default_factory=list)
    saving_throws: int | None = None
    action_points: int | None = None
    race: str | None = None
    description: list[str] = field(default_factory=list)
    notes: list[tuple[int | None, str]] = field(default_factory=list)
    """Creature-level source text Skirmish can't play (auras, senses, traits), with lines."""
    powers: list[SrcPower] = field(default_factory=list)
    lines: dict[str, int | None] = field(default_factory=dict)
    problems: list[tuple[int | None, str, str]] = field(default_factory=list)
    """(line, field, message): what stops the creature from being imported."""

    def at(self, name: str) -> int | None:
        return self.lines.get(name, self.line)
