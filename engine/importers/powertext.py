"""Reading a power's text: its range or area, its targets, its attack and its labelled parts.

The two stat block styles print a power's body as `Reach 2; +8 vs. AC; 1d8+4 damage. Miss:
half damage.` (the older one: the hit follows the attack after a semicolon) or with labels
(`Attack: Melee 1 (one creature); +8 vs. AC` / `Hit: ...`); a Character Builder power card
gives the same parts as separate fields. This module reads either into a `SrcPower`; the
prose of the hit, miss and effect is read later by `effects`.
"""

from __future__ import annotations

import re

from engine.importers.model import SrcPower

_LABEL = re.compile(
    r"\b(Hit|Miss|Effect|Aftereffect|Secondary\s+Attack|Secondary\s+Targets?|Special|Trigger"
    r"|Sustain\s+(?:Standard|Move|Minor)|Attack|Requirements?|Targets?|Prerequisite"
    r"|First\s+Failed\s+Saving\s+Throw|Second\s+Failed\s+Saving\s+Throw|Level\s+\d{1,9}(?!\d))"
    r"(?:\s*\((?P<paren>[^()]*)\))?\s*:",
)
_LABEL_ACTIONS = {
    "immediate": "immediate",
    "opportunity": "immediate",
    "free": "free",
    "minor": "minor",
    "move": "move",
    "standard": "standard",
    "no action": "free",
}
ATTACK = re.compile(
    r"(?P<bonus>[+\-−–]\s?\d{1,9}(?!\d))\s+vs\.?\s+(?P<def>AC|Fortitude|Reflex|Will)\b(?:\s*\([^)]*\))?",
    re.I,
)
_RANGE = re.compile(
    r"\b(?:(?P<reach>Reach)\s+(?P<rn>\d{1,9}(?!\d))"
    r"|(?P<melee>Melee)(?:\s+(?P<mn>\d{1,9}(?!\d)|touch|weapon))?"
    r"|(?P<ranged>Ranged)\s+(?P<gn>\d{1,9}(?!\d)|sight|weapon)"
    r"|(?P<close>Close)\s+(?P<cshape>burst|blast)\s+(?P<cn>\d{1,9}(?!\d))"
    r"|(?P<area>Area)\s+(?P<ashape>burst|wall)\s+(?P<an>\d{1,9}(?!\d))\s+within\s+(?P<aw>\d{1,9}(?!\d)|sight)"
    r"|(?P<personal>Personal))\b",
    re.I,
)
_DEFENSES = {"ac": "ac", "fortitude": "fortitude", "reflex": "reflex", "will": "will"}
_COUNT = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def split_labels(text: str) -> list[tuple[str | None, str]]:
    """`"Reach 2; +8 vs. AC; 4 damage. Miss: half damage."` -> [(None, ...), ("Miss", ...)]."""
    parts: list[tuple[str | None, str]] = []
    label: str | None = None
    pos = 0
    for m in _LABEL.finditer(text):
        chunk = text[pos : m.start()].strip()
        if chunk or label is not None:
            parts.append((label, chunk))
        label = " ".join(m.group(1).split())
        if m.group("paren"):
            label += f" ({' '.join(m.group('paren').split())})"
        pos = m.end()
    chunk = text[pos:].strip()
    if chunk or label is not None:
        parts.append((label, chunk))
    return parts


def read_range(text: str, power: SrcPower) -> bool:
    """Set the power's kind, reach, range and area from `Melee 1`, `Reach 2`, `Ranged 10`,
    `Close burst 1`, `Close blast 3`, `Area burst 1 within 10` or `Personal`. False when
    the text names a range Skirmish has no shape for (a wall, sight) or none at all."""
    m = _RANGE.search(text)
    if m is None:
        return False
    g = m.groupdict()
    if g["reach"]:
        power.kind, power.reach = "melee", int(g["rn"])
    elif g["melee"]:
        power.kind = "melee"
        if g["mn"] and g["mn"].isdigit():
            power.reach = int(g["mn"])
    elif g["ranged"]:
        if not g["gn"].isdigit():
            power.problems.append(f"range '{m.group(0)}' needs a number of squares")
            return False
        power.kind, power.range = "ranged", int(g["gn"])
    elif g["close"]:
        power.kind = "close"
        setattr(power, g["cshape"].lower(), int(g["cn"]))
    elif g["area"]:
        if g["ashape"].lower() != "burst" or not g["aw"].isdigit():
            power.problems.append(f"'{m.group(0)}': Skirmish has area bursts only")
            return False
        power.kind, power.burst, power.range = "area", int(g["an"]), int(g["aw"])
    else:
        power.kind, power.target = "personal", "self"
    read_targets(text[m.end() :], power)
    return True


def read_targets(text: str, power: SrcPower) -> None:
    """Who and how many: `(one or two creatures)`, `targets enemies`, `each ally in burst`."""
    low = text.lower()
    if power.kind in ("close", "area"):
        power.targets = 10
    who = re.search(r"\b(enem|all(?:y|ies)|creature)", low)
    if who:
        power.target = {"enem": "enemy", "creature": "creature"}.get(who.group(1), "ally")
    count = re.search(r"\b(one|two|three|four|five)(?:\s+or\s+(two|three|four|five))?\s", low)
    if count:
        power.targets = _COUNT[count.group(2) or count.group(1)]


def read_attack(text: str, power: SrcPower) -> str | None:
    """Find `+8 vs. AC` in `text`: set the bonus and the defense, read the range written
    before it; return the text after it (the older style's hit), or None if no attack."""
    m = ATTACK.search(text)
    if m is None:
        return None
    bonus = m.group("bonus").replace("−", "-").replace("–", "-").replace(" ", "")
    power.attack_bonus = int(bonus)
    power.vs = _DEFENSES[m.group("def").lower()]
    before = text[: m.start()]
    if before.strip(" ;"):
        read_range(before, power)
    return text[m.end() :].lstrip(" ;:")


def _label_action(full: str, label: str, power: SrcPower) -> None:
    """`Effect (Immediate Reaction):` says the action the power takes."""
    paren = full[len(label) + 2 : -1].lower()
    action = next((a for w, a in _LABEL_ACTIONS.items() if paren.startswith(w)), None)
    if action:
        power.action = action
    else:
        power.notes.append(f"{full}:")


def read_body(text: str, power: SrcPower) -> None:
    """Fill `power` from a stat block power's body (either style)."""
    leftovers: list[str] = []
    for full, chunk in split_labels(text):
        label = full.split(" (")[0] if full else None
        if full and label and full != label:
            _label_action(full, label, power)
        if label in (None, "Attack"):
            hit = read_attack(chunk, power)
            if hit is not None:
                power.hit = f"{power.hit} {hit}".strip()
            elif chunk and not read_range(chunk, power):
                leftovers.append(chunk)
            elif chunk:
                rest = _RANGE.sub("", chunk, count=1).strip(" ;")
                rest = re.sub(r"^\([^)]*\)\s*;?", "", rest).strip(" ;")
                if rest:
                    leftovers.append(rest)
        elif label == "Hit":
            power.hit = f"{power.hit} {chunk}".strip()
        elif label == "Miss":
            power.miss = chunk
        elif label == "Effect":
            power.effect = f"{power.effect} {chunk}".strip()
        elif label == "Aftereffect":
            power.aftereffect = chunk
        elif label in ("Target", "Targets"):
            read_targets(chunk, power)
        else:
            power.notes.append(f"{label}: {chunk}")
    if leftovers:
        # Text with no attack and no label: a power without an attack roll describes its
        # effect this way ("The dragon shifts 3 squares.").
        power.effect = " ".join([*leftovers, power.effect]).strip()
