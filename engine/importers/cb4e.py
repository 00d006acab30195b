"""Character Builder saves (`.dnd4e`): a player character from the numbers the file computed.

The file is XML: `<D20Character>` holding a `<CharacterSheet>` with `<Details>` (name,
level), `<StatBlock>` (every final value as `<Stat value="..."><alias name="AC"/>`),
`<RulesElementTally>` (race, class, feats, powers), `<LootTally>` (items) and `<PowerStats>`
(each power's card, and per weapon or implement the computed `<AttackBonus>` and `<Damage>`).
Skirmish takes the final numbers as they are: it does not rebuild a 4e character.

The XML is parsed with expat directly, refusing any document type declaration (so no entity
can expand and no external file or URL is read) and recording each element's line; a save
never has a DTD, so refusing one costs nothing.
"""

from __future__ import annotations

import re
import xml.parsers.expat
from dataclasses import dataclass, field

from engine.importers.effects import parse_damage
from engine.importers.model import SrcCreature, SrcPower
from engine.importers.powertext import read_range, read_targets
from engine.importers.report import ImportFailed, Problem
from engine.importers.source import clean

MAX_ELEMENTS = 200_000
MAX_DEPTH = 64


@dataclass
class Node:
    """An XML element: its tag, attributes, text, children and the line it starts on."""

    tag: str
    attrs: dict[str, str]
    line: int
    children: list[Node] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def find(self, tag: str) -> Node | None:
        return next((c for c in self.children if c.tag == tag), None)

    def all(self, tag: str) -> list[Node]:
        return [c for c in self.children if c.tag == tag]


class _Refused(Exception):
    pass


def parse_xml(data: bytes, file: str) -> Node:
    """The element tree of `data`, or ImportFailed naming the line of the first error."""
    parser = xml.parsers.expat.ParserCreate()
    parser.buffer_text = True
    stack: list[Node] = []
    root: list[Node] = []
    count = [0]

    def start(tag: str, attrs: dict[str, str]) -> None:
        count[0] += 1
        if count[0] > MAX_ELEMENTS or len(stack) >= MAX_DEPTH:
            raise _Refused("too many or too deeply nested elements")
        node = Node(tag, attrs, parser.CurrentLineNumber)
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def chars(text: str) -> None:
        if stack:
            stack[-1].parts.append(text)

    def refuse(*_args: object) -> None:
        raise _Refused("a document type declaration (a save never has one)")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse  # type: ignore[assignment]
    try:
        parser.Parse(data, True)
    except _Refused as exc:
        raise ImportFailed([Problem(file, parser.CurrentLineNumber, "xml", str(exc))]) from None
    except xml.parsers.expat.ExpatError as exc:
        msg = xml.parsers.expat.ErrorString(exc.code) if exc.code else str(exc)
        raise ImportFailed(
            [Problem(file, exc.lineno, "xml", f"not well-formed XML: {msg}")]
        ) from None
    except LookupError as exc:  # an encoding Python doesn't know, from the XML declaration
        raise ImportFailed([Problem(file, 1, "xml", clean(str(exc), 120))]) from None
    except (RecursionError, MemoryError, ValueError) as exc:
        raise ImportFailed([Problem(file, None, "xml", clean(str(exc), 120))]) from None
    if not root:
        raise ImportFailed([Problem(file, 1, "xml", "no XML element")])
    return root[0]


_STATS = {
    "level": "level",
    "hit points": "hp",
    "healing surges": "healing_surges",
    "ac": "ac",
    "armor class": "ac",
    "fortitude defense": "fortitude",
    "fortitude": "fortitude",
    "reflex defense": "reflex",
    "reflex": "reflex",
    "will defense": "will",
    "will": "will",
    "speed": "speed",
    "initiative": "initiative",
    "saving throws": "saving_throws",
}
_ABILITIES = {
    "strength": "str",
    "constitution": "con",
    "dexterity": "dex",
    "intelligence": "int",
    "wisdom": "wis",
    "charisma": "cha",
}
_SKILLS = ("perception", "stealth", "bluff", "insight")
_ACTIONS = {"standard": "standard", "move": "move", "minor": "minor", "free": "free"}
# Normal ranges of the PHB's ranged and thrown weapons, for "Ranged weapon" powers.
_WEAPON_RANGE = {
    "longbow": 20, "shortbow": 15, "crossbow": 15, "hand crossbow": 10, "sling": 10,
    "superior crossbow": 20, "greatbow": 25, "javelin": 10, "dagger": 5, "handaxe": 5,
    "throwing hammer": 5, "shuriken": 6, "spear": 0, "light thrown": 5,
}  # fmt: skip
# The reach weapons (PHB, Adventurer's Vault), for "Melee weapon" powers.
_WEAPON_REACH = {"glaive": 2, "halberd": 2, "longspear": 2, "spiked chain": 2, "whip": 2,
                 "greatspear": 2}  # fmt: skip


def _int(text: str) -> int | None:
    t = text.strip().replace("−", "-")
    return int(t) if re.fullmatch(r"[+-]?\d{1,7}", t) else None


def read_character(data: bytes, file: str) -> SrcCreature:
    root = parse_xml(data, file)
    if root.tag != "D20Character":
        raise ImportFailed(
            [
                Problem(
                    file,
                    root.line,
                    "xml",
                    f"<{clean(root.tag, 40)}> is not a Character "
                    "Builder save (expected <D20Character>)",
                )
            ]
        )
    system = root.attrs.get("game-system", "")
    sheet = root.find("CharacterSheet")
    if sheet is None:
        raise ImportFailed([Problem(file, root.line, "CharacterSheet", "no <CharacterSheet>")])
    details = sheet.find("Details")
    name_node = details.find("name") if details else None
    name = clean(name_node.text, 60) if name_node else ""
    c = SrcCreature(name=name or "Unnamed hero", file=file, line=(name_node or sheet).line)
    c.kind = "pc"
    if system and "4" not in system:
        c.problems.append((root.line, "game-system", f"{clean(system, 40)!r} is not D&D 4E"))
    level_node = details.find("Level") if details else None
    if level_node is not None:
        c.level = _int(level_node.text)
        c.lines["level"] = level_node.line
        if c.level is None:
            c.problems.append(
                (level_node.line, "level", f"{clean(level_node.text, 20)!r} is not a number")
            )
    _read_stats(sheet, c)
    _read_tally(sheet, c)
    powers = sheet.find("PowerStats")
    for node in powers.all("Power") if powers else []:
        c.powers.append(_read_power(node))
    return c


def _read_stats(sheet: Node, c: SrcCreature) -> None:
    block = sheet.find("StatBlock")
    if block is None:
        c.problems.append((sheet.line, "StatBlock", "no <StatBlock> (the computed numbers)"))
        return
    c.lines["defenses"] = block.line
    for stat in block.all("Stat"):
        value = _int(stat.attrs.get("value", ""))
        aliases = [a.attrs.get("name", "").strip().lower() for a in stat.all("alias")]
        for alias in aliases:
            target = _STATS.get(alias)
            if target == "level" and c.level is not None:
                continue
            if target and getattr(c, target) is None:
                if value is None:
                    c.problems.append((stat.line, target, "its value is not a number"))
                    continue
                setattr(c, target, value)
                c.lines[target] = stat.line
            elif alias in _ABILITIES and value is not None:
                c.abilities[_ABILITIES[alias]] = value
                c.lines[_ABILITIES[alias]] = stat.line
            elif alias.endswith(" modifier") and alias[:-9] in _ABILITIES and value is not None:
                c.ability_mods[_ABILITIES[alias[:-9]]] = value
            elif alias in _SKILLS and value is not None:
                c.skills[alias] = value


def _read_tally(sheet: Node, c: SrcCreature) -> None:
    tally = sheet.find("RulesElementTally")
    classes: list[str] = []
    for el in tally.all("RulesElement") if tally else []:
        kind = el.attrs.get("type", "")
        if kind == "Race":
            c.race = clean(el.attrs.get("name", ""), 40) or None
        elif kind == "Class":
            classes.append(clean(el.attrs.get("name", ""), 40))
    if classes:
        c.description.append(f"{c.race or ''} {' / '.join(classes)}".strip())
    loot = sheet.find("LootTally")
    items = []
    for entry in loot.all("loot") if loot else []:
        if (_int(entry.attrs.get("equip-count", "0")) or 0) > 0:
            names = [clean(el.attrs.get("name", ""), 60) for el in entry.all("RulesElement")]
            items.append(" ".join(n for n in names if n))
    if items:
        c.description.append("Equipped: " + ", ".join(items[:20]))


def _specifics(node: Node) -> dict[str, str]:
    out: dict[str, str] = {}
    for s in node.all("specific"):
        key = s.attrs.get("name", "").strip()
        if key and key not in out:
            out[key] = " ".join(s.text.split())
    return out


def _read_power(node: Node) -> SrcPower:
    spec = _specifics(node)
    p = SrcPower(name=clean(node.attrs.get("name", ""), 60) or "Power", line=node.line)
    usage = spec.get("Power Usage", "").lower()
    if usage.startswith("at-will") or usage.startswith("at will"):
        p.usage = "at-will"
    elif usage.startswith("encounter"):
        p.usage = "encounter"
    elif usage.startswith("daily"):
        p.usage = "daily"
    else:
        p.problems.append(f"usage {clean(usage, 30)!r} is not at-will, encounter or daily")
    action = spec.get("Action Type", "").lower()
    first = action.split(" ")[0] if action else ""
    if first in _ACTIONS:
        p.action = _ACTIONS[first]
    elif first in ("immediate", "opportunity"):
        p.action = "immediate"
    else:
        p.action = "free"
        p.notes.append(f"Action: {spec.get('Action Type') or 'none'}")
    p.keywords = [k.strip() for k in spec.get("Keywords", "").split(",") if k.strip()]
    p.basic = "basic attack" in (spec.get("Display", "") + " " + p.name).lower()
    weapons = node.all("Weapon")
    _read_attack_type(spec.get("Attack Type", ""), weapons, p)
    for key in ("Target", "Targets"):
        if key in spec:
            read_targets(spec[key], p)
    if weapons:
        _read_weapon(weapons[0], p)
        for other in weapons[1:4]:
            bonus = other.find("AttackBonus")
            ab = _int(bonus.text) if bonus is not None else None
            dmg = other.find("Damage")
            p.about.append(
                f"With {clean(other.attrs.get('name', ''), 40)}: "
                f"{'' if ab is None else f'{ab:+d}'} {clean(dmg.text, 30) if dmg else ''}".strip()
            )
    p.hit = spec.get("Hit", "")
    p.miss = spec.get("Miss", "")
    p.effect = spec.get("Effect", "")
    p.aftereffect = spec.get("Aftereffect", "")
    for key in (
        "Trigger",
        "Requirement",
        "Special",
        "Secondary Attack",
        "Sustain Minor",
        "Sustain Standard",
        "Sustain Move",
    ):
        if spec.get(key):
            p.notes.append(f"{key}: {spec[key]}")
    return p


def _read_attack_type(text: str, weapons: list[Node], p: SrcPower) -> None:
    low = text.lower()
    if not low:
        p.kind = "melee" if weapons else None
        if weapons:
            p.notes.append("No attack type in the file: imported as melee 1")
        return
    if low.startswith("melee"):
        read_range(text, p)
        p.kind = "melee"
        reach = _WEAPON_REACH.get(_base_weapon(weapons[0])) if weapons else None
        if "weapon" in low and reach:
            p.reach = reach
        return
    if low.startswith("ranged") and "weapon" in low:
        base = _base_weapon(weapons[0]) if weapons else ""
        rng = _WEAPON_RANGE.get(base)
        if not rng:
            p.problems.append(f"'{text}' with {base or 'no weapon'}: its range is not in the file")
            return
        p.kind, p.range = "ranged", rng
        return
    if not read_range(text, p) and not p.problems:
        p.problems.append(f"attack type '{clean(text, 40)}' is not one Skirmish has")


def _base_weapon(weapon: Node) -> str:
    for el in weapon.all("RulesElement"):
        if el.attrs.get("type") == "Weapon":
            return el.attrs.get("name", "").strip().lower()
    return weapon.attrs.get("name", "").strip().lower()


def _read_weapon(weapon: Node, p: SrcPower) -> None:
    bonus = weapon.find("AttackBonus")
    defense = weapon.find("Defense")
    damage = weapon.find("Damage")
    if bonus is not None and defense is not None and defense.text.strip():
        value = _int(bonus.text)
        vs = defense.text.strip().lower().split(" ")[0]
        if value is None or vs not in ("ac", "fortitude", "reflex", "will"):
            p.problems.append(
                f"attack '{clean(bonus.text, 10)} vs {clean(defense.text, 20)}' "
                "is not a number against a defense"
            )
            return
        p.attack_bonus, p.vs = value, vs
    if damage is not None and damage.text.strip():
        parsed = parse_damage(damage.text)
        if parsed is None:
            p.problems.append(f"damage {clean(damage.text, 30)!r} is not dice text")
            return
        p.damage = parsed
    p.about.insert(0, f"With {clean(weapon.attrs.get('name', ''), 60)}.")
