"""Reading a power's hit, miss and effect text: the usual words become rules, the rest notes.

Stat blocks and power cards write their common effects in set phrases: "1d8+4 fire damage",
"the target is knocked prone", "the target is dazed (save ends)", "slowed until the end of
your next turn", "ongoing 5 fire damage (save ends)", "you push the target 2 squares", "half
damage". A sentence becomes rules only when every clause of it is one of those phrases;
otherwise the whole sentence stays a note (a qualifier like "if the target is bloodied"
changes the meaning, and a rule that ignores it would be a guess). The one exception is the
damage a hit starts with: its numbers are the power's damage whatever follows, and the
sentence is also kept as a note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.importers.model import Damage

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
_TYPE = "(?:" + "|".join(DAMAGE_TYPES) + ")"
_TYPES = rf"{_TYPE}(?:(?:\s*,\s*and\s+|\s*,\s*|\s+and\s+){_TYPE})*"
_COND = (
    r"(?:knocked\s+prone|prone|dazed|slowed|immobilized|weakened|blinded|stunned|restrained"
    r"|marked)"
)
_CONDS = rf"{_COND}(?:(?:\s*,\s*and\s+|\s*,\s*|\s+and\s+){_COND})*"
_DUR = (
    r"(?:\(\s*save\s+ends(?:\s+both|\s+all)?\s*\)"
    r"|until\s+the\s+(?:end|start)\s+of\s+(?:your|the\s+[a-z' -]+?'s)\s+next\s+turn"
    r"|until\s+the\s+end\s+of\s+the\s+encounter)"
)
_SUBJ = r"(?:(?:the\s+|each\s+)?targets?\s+|it\s+|they\s+)?"
_BE = r"(?:(?:is|are|becomes|become)\s+(?:also\s+)?|falls\s+|fall\s+|is\s+knocked\s+)?"
_ONGOING = rf"ongoing\s+(?P<amt>\d{{1,9}}(?!\d))(?:\s+(?P<otype>{_TYPE}))?\s+damage"

# A dice term as printed: "1d8+4", "2d6 + 3", "5"; in power cards also "2[W] + Strength
# modifier" (the file's computed numbers are used; the words only confirm the shape).
_N = r"\d{1,9}(?!\d)"  # a number, never so long that int() refuses it
_DICE = rf"{_N}d{_N}(?:\s*[+-]\s*{_N}d{_N})*(?:\s*[+-]\s*{_N})?|{_N}"
_CARD_TERM = rf"(?:{_N}\[W\]|{_N}d{_N}|{_N}|(?:your\s+)?[A-Za-z]+\s+modifier)"
_CARD_DICE = rf"{_CARD_TERM}(?:\s*\+\s*{_CARD_TERM})*"

_CLAUSES: list[tuple[str, re.Pattern[str]]] = [
    ("half", re.compile(r"half\s+damage", re.I)),
    (
        "damage",
        re.compile(rf"(?P<dice>{_DICE})\s+(?:(?P<types>{_TYPES})\s+)?damage", re.I),
    ),
    (
        "card_damage",
        re.compile(rf"(?P<dice>{_CARD_DICE})\s+(?:(?P<types>{_TYPES})\s+)?damage", re.I),
    ),
    (
        "effect",
        re.compile(
            rf"{_SUBJ}(?:takes\s+)?{_ONGOING}"
            rf"(?:\s*,?\s+and\s+{_BE}(?P<conds>{_CONDS}))?\s*(?P<dur>{_DUR})?",
            re.I,
        ),
    ),
    (
        "effect",
        re.compile(
            rf"{_SUBJ}{_BE}(?P<conds>{_CONDS})"
            rf"(?:\s*,?\s+and\s+(?:takes\s+)?{_ONGOING})?\s*(?P<dur>{_DUR})?",
            re.I,
        ),
    ),
    (
        "knock",
        re.compile(
            r"(?:(?:you|it|the\s+[a-z' -]+?)\s+)?(?:can\s+|may\s+)?knocks?\s+"
            r"(?:the\s+target|it)\s+prone",
            re.I,
        ),
    ),
    (
        "mark",
        re.compile(
            rf"(?:you|it|the\s+[a-z' -]+?)\s+marks?\s+(?:the\s+target|each\s+target|it)\s+"
            rf"(?P<dur>{_DUR})",
            re.I,
        ),
    ),
    (
        "forced",
        re.compile(
            r"(?:(?:you|it|the\s+[a-z' -]+?)\s+(?:can\s+|may\s+)?)?"
            r"(?P<kind>push|pull|slide)(?:e?s)?"
            r"(?:\s+(?:the\s+target|each\s+target|it))?\s+(?:up\s+to\s+)?(?P<n>\d{1,9}(?!\d))"
            r"(?:\s+squares?)?",
            re.I,
        ),
    ),
    (
        "forced",
        re.compile(
            r"(?:the\s+)?target\s+is\s+(?P<kind>push|pull|slid)(?:ed)?\s+(?:up\s+to\s+)?"
            r"(?P<n>\d{1,9}(?!\d))\s+squares?",
            re.I,
        ),
    ),
    (
        "shift",
        re.compile(
            r"(?:(?:you|it|the\s+[a-z' -]+?)\s+(?:can\s+|may\s+)?)?shifts?\s+(?:up\s+to\s+)?"
            r"(?P<n>\d{1,9}(?!\d))\s+squares?",
            re.I,
        ),
    ),
]
_SEP = re.compile(r"\s*(?:,\s*and\s+|,\s*plus\s+|\s+and\s+|,\s*|;\s*)", re.I)
_END = re.compile(r"\s*[.!]?\s*$")
_SENTENCE = re.compile(r"(?<=[.!])\s+(?=[A-Z(])")
_DICE_TERM = re.compile(r"([+-]?)\s*(\d{1,9}(?!\d))d(\d{1,9}(?!\d))|([+-]?)\s*(\d{1,9}(?!\d))")

KNOCKED = re.compile(r"knocked\s+", re.I)


@dataclass
class Outcome:
    """Rules read from one hit, miss or effect text, and the sentences left as notes."""

    damage: Damage | None = None
    half_damage: bool = False
    effects: list[dict[str, Any]] = field(default_factory=list)
    forced: dict[str, Any] | None = None
    shift: int | None = None
    """The power's user shifts up to this many squares ("You shift 2 squares")."""
    notes: list[str] = field(default_factory=list)
    unplayable: list[str] = field(default_factory=list)
    """Phrases recognised but that Skirmish has no rule for (a shift too far): kept as notes."""

    def empty(self) -> bool:
        return not (self.damage or self.half_damage or self.effects or self.forced or self.shift)


def parse_damage(text: str) -> Damage | None:
    """`"2d10+9"` -> Damage("2d10", 9); `"5"` -> Damage("5"); None if it isn't dice text."""
    text = text.strip().replace(" ", "")
    if not text or not re.fullmatch(
        r"[+-]?(?:\d{1,9}(?!\d)d\d{1,9}(?!\d)|\d{1,9}(?!\d))(?:[+-](?:\d{1,9}(?!\d)d\d{1,9}(?!\d)|\d{1,9}(?!\d)))*",
        text,
    ):
        return None
    dice: list[str] = []
    bonus = 0
    for m in _DICE_TERM.finditer(text):
        if m.group(2):
            if m.group(1) == "-":
                return None  # a subtracted die is not a damage roll Skirmish writes
            dice.append(f"{int(m.group(2))}d{int(m.group(3))}")
        else:
            bonus += int(m.group(5)) * (-1 if m.group(4) == "-" else 1)
    if not dice:
        return Damage(str(bonus)) if bonus > 0 else None
    if any(int(d.split("d")[0]) > 40 or int(d.split("d")[1]) > 100 for d in dice):
        return None
    return Damage("+".join(dice), bonus)


def _types(text: str | None) -> list[str]:
    return re.findall(_TYPE, text.lower()) if text else []


def _duration(text: str | None, owner: str) -> str | None:
    """The Skirmish duration of a printed one; None when it isn't the user's own turn."""
    if not text:
        return None
    low = " ".join(text.lower().split())
    if "save ends" in low:
        return "save_ends"
    if "end of the encounter" in low:
        return "end_of_encounter"
    m = re.search(r"the (end|start) of (your|the .+?'s) next turn", low)
    if m is None:
        return None
    whose = m.group(2)
    if whose != "your":
        who = whose.removeprefix("the ").removesuffix("'s")
        words = owner.lower().split()
        if who not in words and who != " ".join(words):
            return None  # "the target's next turn" is not a duration Skirmish has
    return "end_of_next_turn" if m.group(1) == "end" else "start_of_next_turn"


def _conditions(text: str | None) -> list[str]:
    if not text:
        return []
    return re.findall(
        r"prone|dazed|slowed|immobilized|weakened|blinded|stunned|restrained|marked", text
    )


def _effect(m: re.Match[str], owner: str) -> list[dict[str, Any]] | None:
    """The effects of one effect clause; None when it lacks a duration Skirmish has."""
    conds = _conditions(m.group("conds"))
    amt = m.group("amt")
    dur = _duration(m.group("dur"), owner)
    out: list[dict[str, Any]] = []
    if "prone" in conds:
        # Prone lasts until the creature stands (docs/content.md, Tips): its own effect.
        conds.remove("prone")
        out.append({"duration": "end_of_encounter", "conditions": ["prone"]})
        if not conds and not amt and m.group("dur"):
            return None  # "prone (save ends)" is not how prone works
    if conds or amt:
        if dur is None:
            return None
        eff: dict[str, Any] = {"duration": dur}
        if conds:
            eff["conditions"] = list(dict.fromkeys(conds))
        if amt:
            amount = int(amt)
            if not 1 <= amount <= 50:
                return None
            ongoing: dict[str, Any] = {"amount": amount}
            if m.group("otype"):
                ongoing["type"] = m.group("otype").lower()
            eff["ongoing"] = ongoing
        out.append(eff)
    return out or None


def _clause(rest: str, owner: str, allow_card: bool) -> tuple[str, Any, int] | None:
    """The first clause of `rest`: (kind, value, length) or None."""
    for kind, pattern in _CLAUSES:
        if kind == "card_damage" and not allow_card:
            continue
        m = pattern.match(rest)
        if m is None:
            continue
        if kind in ("damage", "card_damage"):
            dmg = parse_damage(m.group("dice")) if kind == "damage" else None
            if kind == "damage" and dmg is None:
                continue
            return "damage", (dmg, _types(m.group("types"))), m.end()
        if kind == "effect":
            effects = _effect(m, owner)
            if effects is None:
                continue
            return "effect", effects, m.end()
        if kind == "mark":
            dur = _duration(m.group("dur"), owner)
            if dur is None:
                continue
            return "effect", [{"duration": dur, "conditions": ["marked"]}], m.end()
        if kind == "knock":
            return "effect", [{"duration": "end_of_encounter", "conditions": ["prone"]}], m.end()
        if kind == "forced":
            n = int(m.group("n"))
            if not 1 <= n <= 6:
                continue
            name = {"slid": "slide"}.get(m.group("kind").lower(), m.group("kind").lower())
            return "forced", {"kind": name, "distance": n}, m.end()
        if kind == "shift":
            return "shift", int(m.group("n")), m.end()
        return kind, True, m.end()
    return None


def _sentence(text: str, owner: str, allow_card: bool) -> list[tuple[str, Any]] | None:
    """Every clause of one sentence, or None if any part of it is not a known phrase."""
    out: list[tuple[str, Any]] = []
    pos = 0
    while True:
        found = _clause(text[pos:], owner, allow_card)
        if found is None:
            return None
        kind, value, length = found
        out.append((kind, value))
        pos += length
        if _END.fullmatch(text[pos:]):
            return out
        sep = _SEP.match(text, pos)
        if sep is None:
            return None
        pos = sep.end()


def sentences(text: str) -> list[str]:
    text = " ".join(text.split())
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def read_outcome(text: str, owner: str, *, label: str, card: bool = False) -> Outcome:
    """The rules in a hit/miss/effect text. `card`: the text is a power card's (damage in
    words such as "1[W] + Strength modifier", whose numbers come from elsewhere)."""
    out = Outcome()
    for i, sentence in enumerate(sentences(text)):
        clauses = _sentence(sentence, owner, card)
        if clauses is None:
            lead = _clause(sentence, owner, card) if i == 0 else None
            if lead is not None and lead[0] == "damage" and out.damage is None:
                _take_damage(out, lead[1])
            out.notes.append(f"{label}: {sentence}")
            continue
        kept = _apply(out, clauses)
        if not kept:
            out.notes.append(f"{label}: {sentence}")
    return out


def _take_damage(out: Outcome, value: tuple[Damage | None, list[str]]) -> None:
    dmg, types = value
    if dmg is not None:
        dmg.types = types
        out.damage = dmg
    elif types:
        out.damage = Damage("", 0, types)  # a power card's words: types only


def _apply(out: Outcome, clauses: list[tuple[str, Any]]) -> bool:
    """Add the clauses to `out`; False if one can't be added (then the sentence is a note)."""
    trial = Outcome(out.damage, out.half_damage, list(out.effects), out.forced, out.shift)
    for kind, value in clauses:
        if kind == "damage":
            if trial.damage is not None and trial.damage.dice:
                return False
            _take_damage(trial, value)
        elif kind == "half":
            trial.half_damage = True
        elif kind == "effect":
            trial.effects.extend(value)
        elif kind == "forced":
            if trial.forced is not None:
                return False
            trial.forced = value
        elif kind == "shift":
            # the content's `shift` (the user shifts up to N, 1-6); more, or twice, stays a note
            if trial.shift is not None or not 1 <= value <= 6:
                out.unplayable.append(f"shift {value}")
                return False
            trial.shift = value
    out.damage, out.half_damage, out.effects, out.forced, out.shift = (
        trial.damage,
        trial.half_damage,
        trial.effects,
        trial.forced,
        trial.shift,
    )
    return True


def read_aftereffect(text: str, owner: str) -> dict[str, Any] | None:
    """The effect an "Aftereffect:" text describes, if it is one plain effect."""
    parts = sentences(text)
    if len(parts) != 1:
        return None
    clauses = _sentence(parts[0], owner, False)
    if not clauses or len(clauses) != 1 or clauses[0][0] != "effect":
        return None
    effects: list[dict[str, Any]] = clauses[0][1]
    return effects[0] if len(effects) == 1 else None
