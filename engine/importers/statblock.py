"""Monster stat blocks: a Compendium page (through `htmltext`) or a block pasted as text.

A stat block is labels and numbers in a known order: the name with `Level 3 Elite Brute`,
the size and type, `Initiative`, `Senses`, `HP`/`Bloodied`, `AC; Fortitude, Reflex, Will`,
`Speed`, `Resist`/`Vulnerable`/`Immune`, `Saving Throws`, `Action Points`, then one block
per power (`Claw (standard; at-will) ✦ Weapon` followed by `Reach 2; +8 vs. AC; 1d8+4
damage`), then `Alignment`, `Skills` and the ability scores. Text pasted from a PDF breaks
lines anywhere, so the reader joins each stat block into one string (keeping the line of
every character) and finds the labels in it, never relying on where a line ends. Whatever
it does not recognise in the header is kept as a note, so nothing is silently lost.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.importers.model import SrcCreature, SrcPower
from engine.importers.powertext import read_body, read_range
from engine.importers.source import LineIndex, clean

LEVEL = re.compile(
    r"\bLevel\s+(?P<lvl>\d{1,6})\s+(?:(?P<rank>Elite|Solo|Minion)\s+)?"
    r"(?P<role>Brute|Soldier|Skirmisher|Artillery|Controller|Lurker)\b"
    r"(?:\s*\((?P<leader>Leader)\))?",
    re.I,
)
_TYPE_LINE = re.compile(
    r"\b(?P<size>Tiny|Small|Medium|Large|Huge|Gargantuan)\s+"
    r"(?:natural|elemental|fey|shadow|immortal|aberrant)(?-i:(?:\s+[a-z]+){1,2})(?:\s*\([^)]*\))?",
    re.I,
)
_ACTION = (
    r"standard|move|minor|free|immediate(?:\s+(?:interrupt|reaction))?|no\s+action|opportunity"
)
# `(standard; at-will)`; not `Effect (Free Action):`, a label of the newer layout
_HEAD = re.compile(rf"\((?P<inner>\s*(?P<action>{_ACTION})\b[^()]*)\)(?!\s*:)", re.I)
_AURA = re.compile(r"\baura\s+(?P<n>\d{1,9}(?!\d))\b", re.I)
# The newer layout (Monster Manual 3, Monster Vault): `m Slam (weapon) ✦ At-Will` under
# section heads ("Standard Actions", "Triggered Actions", "Traits"), then labelled lines.
_FACE = "[2-6⚁⚂⚃⚄⚅]"
_HEAD3 = re.compile(
    rf"(?:\((?P<kw>[^()]*)\)\s*)?✦\s*(?P<usage>At[-\s]?Will|Encounter|Daily"
    rf"|Recharge(?:\s+{_FACE}(?:\s*,?\s*{_FACE})*|\s+when\s+first\s+bloodied)?|Aura\s+\d{{1,9}}(?!\d))\b",
    re.I,
)
_SECTION = re.compile(
    r"\b(?P<s>Standard|Move|Minor|Triggered|Free|Opportunity)\s+Actions\b|\bTraits\b"
)
_SECTION_ACTION = {
    "standard": "standard",
    "move": "move",
    "minor": "minor",
    "free": "free",
    "triggered": "immediate",
    "opportunity": "immediate",
}
_HEADER_LABEL = re.compile(
    r"\b(?:HP|AC|Speed|Resist|Vulnerable|Immune|Saving\s+Throws|Action\s+Points|Regeneration)\b"
)
_TAIL = re.compile(r"\b(?:Alignment|Languages|Skills|Equipment)\b|\bStr\s+\d{1,9}(?!\d)\s*\(")
_DIE_FACES = {"⚀": 1, "⚁": 2, "⚂": 3, "⚃": 4, "⚄": 5, "⚅": 6}
_USAGE = re.compile(r"\b(?P<u>at[-\s]?will|encounter|daily|recharges?)\b(?P<rest>[^;]*)", re.I)
KEYWORDS = (  # noqa: SIM905 (one readable list of words)
    "Acid Arcane Augmentable Beast Charm Cold Conjuration Disease Divine Elemental Fear Fire "
    "Force Healing Illusion Implement Invigorating Lightning Martial Necrotic Poison Polymorph "
    "Primal Psionic Psychic Radiant Rattling Reliable Shadow Sleep Stance Summoning "
    "Teleportation Thunder Weapon Zone Aura Channel Divinity Full Discipline Runic Spirit"
).split()
_KW = "|".join(KEYWORDS)
_KEYWORDS = re.compile(rf"\s*[✦*•]\s*(?P<kw>(?:{_KW})(?:\s*,\s*(?:{_KW}))*)\b", re.I)
_NAME_WORD = re.compile(r"[A-Z][\w'’\-]*|of|the|and|in|on|to|a|an|with|from|[mMrRCA]|✦")
_CONNECTORS = {"of", "the", "and", "in", "on", "to", "a", "an", "with", "from"}
_CUT = re.compile(
    r"[.;:)\]✦]|\bdamage\b|\bvs\b|\b(?:Standard|Move|Minor|Triggered|Free)\s+Actions\b|\bTraits\b"
)

_LIST = r"\d{1,9}(?!\d)\s+[a-z]+(?:\s*,\s*\d{1,9}(?!\d)\s+[a-z]+)*"
_SENSES = r"(?P<extra>(?:\s*[;,]\s*[a-z][a-z -]*(?:\s\d{1,9}(?!\d))?)*)"
_MOVES = r"(?P<extra>(?:\s*,\s*[a-z]+\s+\d{1,9}(?!\d)(?:\s*\([^)]*\))?)*)"
_LABELS = {
    "hp": re.compile(r"\bHP\b"),
    "ac": re.compile(r"\bAC\b"),
    "speed": re.compile(r"\bSpeed\b"),
    "initiative": re.compile(r"\bInitiative\b"),
}
_HEADER_FIELDS: list[tuple[str, re.Pattern[str]]] = [
    ("initiative", re.compile(r"\bInitiative\s*(?P<v>[+-]?\s?\d{1,9}(?!\d))")),
    ("senses", re.compile(r"\bSenses\s+Perception\s*(?P<v>[+-]\s?\d{1,9}(?!\d))" + _SENSES)),
    ("perception", re.compile(r"\bPerception\s*(?P<v>[+-]\s?\d{1,9}(?!\d))")),
    ("hp", re.compile(r"\bHP\s*(?P<v>\d{1,9}(?!\d))")),
    ("bloodied", re.compile(r"[;,]?\s*Bloodied\s*(?P<v>\d{1,9}(?!\d))")),
    ("minion", re.compile(r"[;,]?\s*a\s+missed\s+attack\s+never\s+damages\s+a\s+minion\.?", re.I)),
    ("ac", re.compile(r"\bAC\s*(?P<v>\d{1,9}(?!\d))\s*[;,]?")),
    ("fortitude", re.compile(r"\bFort(?:itude)?\s*(?P<v>\d{1,9}(?!\d))\s*[;,]?")),
    ("reflex", re.compile(r"\bRef(?:lex)?\s*(?P<v>\d{1,9}(?!\d))\s*[;,]?")),
    ("will", re.compile(r"\bWill\s*(?P<v>\d{1,9}(?!\d))\s*[;,]?")),
    ("speed", re.compile(r"\bSpeed\s*(?P<v>\d{1,9}(?!\d))" + _MOVES)),
    ("resist", re.compile(rf"[;,]?\s*\bResist(?:ance)?\s+(?P<v>{_LIST})")),
    ("vulnerable", re.compile(rf"[;,]?\s*\bVulnerab(?:le|ility)\s+(?P<v>{_LIST})")),
    ("immune", re.compile(r"[;,]?\s*\bImmune\s+(?P<v>(?i:[a-z]+(?:\s*,\s*[a-z]+)*))")),
    ("saving_throws", re.compile(r"\bSaving\s+Throws?\s*(?P<v>[+-]\s?\d{1,9}(?!\d))")),
    ("action_points", re.compile(r"\bAction\s+Points?\s*(?P<v>\d{1,9}(?!\d))")),
    ("xp", re.compile(r"\bXP\s*[\d,]+")),
]
_ABILITY = re.compile(
    r"\b(?P<ab>Str|Con|Dex|Int|Wis|Cha)\s+(?P<score>\d{1,9}(?!\d))\s*\((?P<mod>[+-]?\s?\d{1,9}(?!\d))\)"
)
_SKILL = re.compile(r"\b(?P<skill>Perception|Stealth|Bluff|Insight)\s*(?P<v>[+-]\s?\d{1,9}(?!\d))")
_NORMAL = str.maketrans({"−": "-", "–": "-", "—": "-", "♦": "✦", "◆": "✦", "’": "'", "\t": " "})


def text_pieces(text: str) -> list[tuple[int, str]]:
    return [(i + 1, line + "\n") for i, line in enumerate(text.split("\n"))]


def read_statblocks(pieces: Iterable[tuple[int, str]], file: str) -> list[SrcCreature]:
    """Every stat block in the text (a page may hold several); [] when there is none."""
    index = LineIndex()
    for line, text in pieces:
        index.add(text.translate(_NORMAL), line)
    full = index.text
    starts: list[tuple[int, str, re.Match[str]]] = []
    offset = 0
    prev: list[tuple[int, str]] = []
    for raw in full.split("\n"):
        m = LEVEL.search(raw)
        if m is not None:
            name = raw[: m.start()].strip(" :-|")
            start = offset
            if not name:
                cands = [p for p in prev[-3:] if not _TYPE_LINE.search(p[1])]
                if cands:
                    start, name = cands[-1]
            starts.append((start, clean(name, 80) or "Unnamed", m))
        if raw.strip():
            prev.append((offset, raw.strip()))
        offset += len(raw) + 1
    out = []
    for i, (start, name, m) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(full)
        out.append(_read_block(full, start, end, name, m, index, file))
    return out


def _read_block(
    full: str, start: int, end: int, name: str, level: re.Match[str], index: LineIndex, file: str
) -> SrcCreature:
    block = full[start:end].replace("\n", " ")
    c = SrcCreature(name=name, file=file, line=index.line(start))
    c.level = int(level.group("lvl"))
    c.role = level.group("role").lower()
    c.rank = level.group("rank").lower() if level.group("rank") else None
    c.leader = bool(level.group("leader"))
    lvl_at = block.find(level.group(0))
    c.lines["level"] = c.lines["role"] = index.line(start + max(lvl_at, 0))
    consumed = [(0, len(name) + 1), (lvl_at, lvl_at + len(level.group(0)))]
    size = _TYPE_LINE.search(block)
    if size is not None:
        c.size = size.group("size").lower()
        c.lines["size"] = index.line(start + size.start())
        consumed.append(size.span())
        c.description.append(clean(size.group(0), 120))
    heads = _power_heads(block)
    tail = _TAIL.search(block, heads[-1][1] if heads else 0)
    tail_at = tail.start() if tail else len(block)
    first = next((h[0] for h in heads if h[2] != "aura"), tail_at)
    action = "standard"
    for i, (b0, b1, kind) in enumerate(heads):
        body_end = heads[i + 1][0] if i + 1 < len(heads) else tail_at
        line = index.line(start + b0)
        if kind.startswith("section:"):
            section = kind.split(":", 1)[1]
            action = _SECTION_ACTION.get(section, action)
            traits = clean(block[b1:body_end], 600) if section == "traits" else ""
            if traits:
                c.notes.append((line, f"Traits: {traits}"))
        elif kind == "power3":
            c.powers.append(_read_power3(block[b0:b1], block[b1:body_end], line, action))
        elif kind == "aura":
            label = _HEADER_LABEL.search(block, b1, body_end)
            body_end = label.start() if label else body_end
            consumed.append((b0, body_end))
            c.notes.append((line, f"Aura: {clean(block[b0:body_end], 600)}"))
        else:
            c.powers.append(_read_power(block[b0:b1], block[b1:body_end], line))
    _read_header(block[:first], start, c, index, consumed)
    _read_tail(block[tail_at:], start + tail_at, c, index)
    if c.rank == "minion":
        c.lines.setdefault("hp", c.line)
    return c


def _name_start(block: str, pos: int) -> int:
    """Where the name that ends at `pos` starts: the run of capitalised words before it."""
    window_start = max(0, pos - 100)
    window = block[window_start:pos]
    cut = max((m.end() for m in _CUT.finditer(window)), default=0)
    words = list(re.finditer(r"\S+", window[cut:]))
    first = len(words)
    for j in range(len(words) - 1, -1, -1):
        if not _NAME_WORD.fullmatch(words[j].group(0)):
            break
        first = j
    while first < len(words) and words[first].group(0) in _CONNECTORS:
        first += 1
    if first >= len(words):
        return pos
    return window_start + cut + words[first].start()


def _power_heads(block: str) -> list[tuple[int, int, str]]:
    """(name start, header end, "power" | "aura") for each power and aura, in order."""
    heads: list[tuple[int, int, str]] = []
    for m in _HEAD.finditer(block):
        heads.append((_name_start(block, m.start()), m.end(), "power"))
    for m in _HEAD3.finditer(block):
        kind = "aura" if m.group("usage").lower().startswith("aura") else "power3"
        heads.append((_name_start(block, m.start()), m.end(), kind))
    for m in _SECTION.finditer(block):
        heads.append((m.start(), m.end(), f"section:{(m.group('s') or 'traits').lower()}"))
    for m in _AURA.finditer(block):
        if any(h0 <= m.start() < h1 for h0, h1, _ in heads):
            continue
        pre = block[max(0, m.start() - 60) : m.start()]
        if re.search(r"\bin\s+the\s*$|\bthe\s*$|\bits\s*$", pre, re.I):
            continue  # "enemies in the aura": a mention, not a new aura
        heads.append((_name_start(block, m.start()), m.end(), "aura"))
    heads.sort()
    kept: list[tuple[int, int, str]] = []
    for h in heads:
        if kept and h[0] < kept[-1][1]:
            continue
        kept.append(h)
    return kept


def _read_header(
    text: str, base: int, c: SrcCreature, index: LineIndex, consumed: list[tuple[int, int]]
) -> None:
    for field, pattern in _HEADER_FIELDS:
        m = pattern.search(text)
        if m is None:
            label = _LABELS.get(field)
            found = label.search(text) if label else None
            if found is not None:  # the label without its number: point at it
                c.lines[field] = index.line(base + found.start())
            continue
        consumed.append(m.span())
        lead = len(m.group(0)) - len(m.group(0).lstrip(";, \t\r\n"))  # the label's own line
        c.lines[field] = index.line(base + m.start() + lead)
        value = m.groupdict().get("v")
        if field == "minion":
            continue
        if field in ("resist", "vulnerable"):
            for amount, kind in re.findall(r"(\d{1,9}(?!\d))\s+([a-z]+)", value or ""):
                getattr(c, field)[kind] = int(amount)
        elif field == "immune":
            c.immune = [w.strip() for w in (value or "").split(",") if w.strip()]
        elif field == "senses":
            c.skills["perception"] = int((value or "0").replace(" ", ""))
            extra = (m.group("extra") or "").strip(" ;,")
            if extra:
                c.notes.append((c.lines[field], f"Senses: {extra}"))
        elif field == "xp":
            continue
        elif field == "perception":
            c.skills.setdefault("perception", int((value or "0").replace(" ", "")))
        else:
            if field == "speed" and (m.group("extra") or "").strip(" ,"):
                c.notes.append((c.lines[field], f"Speed also: {m.group('extra').strip(' ,')}"))
            setattr(c, field, int((value or "0").replace(" ", "")))
    c.lines.setdefault("defenses", c.lines.get("ac", c.line))
    for at, rest in _leftover(text, consumed):
        c.notes.append((index.line(base + at), rest))


def _leftover(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, str]]:
    """The runs of header text no pattern read (a trait, regeneration), with their offsets:
    each is kept as a note."""
    keep = list(text)
    for a, b in spans:
        for k in range(max(a, 0), min(b, len(keep))):
            keep[k] = "\x00"
    out = []
    for m in re.finditer(r"[^\x00]+", "".join(keep)):
        rest = re.sub(r"^[\s;,.]+|[\s;,]+$", "", clean(m.group(0)))
        if re.search(r"[A-Za-z]{3}", rest):
            out.append((m.start(), rest))
    return out


def _read_power(head: str, body: str, line: int | None) -> SrcPower:
    m = _HEAD.search(head)
    assert m is not None
    p = _named(head[: m.start()], line)
    _read_action(m.group("inner"), p)
    kw = _KEYWORDS.match(body)
    if kw is not None:
        p.keywords = [k.strip().lower() for k in kw.group("kw").split(",")]
        body = body[kw.end() :]
    _read_rest(clean(body.lstrip(" ✦*"), 3000), p)
    return p


def _read_power3(head: str, body: str, line: int | None, action: str) -> SrcPower:
    """A power of the newer layout: `m Slam (weapon) ✦ At-Will`, its action from the
    section it is under (or from `Effect (Free Action):` in its body)."""
    m = _HEAD3.search(head)
    assert m is not None
    p = _named(head[: m.start()], line)
    if m.group("kw"):
        p.keywords = [k.strip().lower() for k in m.group("kw").split(",") if k.strip()]
    _read_action(f"{action}; {m.group('usage')}", p)
    _read_rest(clean(body.lstrip(" ✦*"), 3000), p)
    return p


def _named(text: str, line: int | None) -> SrcPower:
    """A power named by `text`, with its icon letter read (m, r: basic; M, R, C, A)."""
    words = text.split()
    marker = words[0] if words and words[0] in ("m", "M", "r", "R", "C", "A") else None
    name = " ".join(w for w in words[1 if marker else 0 :] if w != "✦") or "Power"
    p = SrcPower(name=clean(name, 60), line=line)
    p.basic = marker in ("m", "r")
    p.marker = marker
    return p


def _read_rest(body: str, p: SrcPower) -> None:
    read_body(body, p)
    if p.kind is None and p.marker in ("M", "m"):
        p.kind = "melee"
    elif p.kind is None and p.marker in ("R", "r", "C", "A") and p.attack_bonus is not None:
        read_range(body, p)
        if p.kind is None:
            p.problems.append("a ranged or area power with no range in its text")


def _read_action(inner: str, p: SrcPower) -> None:
    """`standard; recharge 5 6`, `immediate reaction, when ...; encounter`, `minor; at-will`."""
    parts = [s.strip() for s in inner.split(";")]
    action = parts[0].lower()
    if action.startswith("immediate") or action.startswith("opportunity"):
        p.action = "immediate"
    elif action.startswith("no action"):
        p.action = "free"
        p.notes.append(f"Action: {parts[0]}")
    else:
        p.action = action.split()[0].strip(",")
    extra = re.sub(rf"^(?:{_ACTION})\s*,?\s*", "", parts[0], flags=re.I).strip()
    if extra:
        p.notes.append(
            f"Only {extra}" if not extra.lower().startswith("when") else f"Trigger: {extra}"
        )
    usage_text = "; ".join(parts[1:]) if len(parts) > 1 else parts[0]
    u = _USAGE.search(usage_text)
    if u is None:
        p.problems.append(
            f"no usage (at-will, encounter, daily or recharge) in '({inner.strip()})'"
        )
        return
    word = u.group("u").lower().replace(" ", "-")
    if word.startswith("recharge"):
        rest = u.group("rest")
        faces = [int(ch) for ch in re.findall(r"[1-6]", rest)]
        faces += [_DIE_FACES[ch] for ch in rest if ch in _DIE_FACES]
        if faces and "when" not in rest.lower():
            p.usage, p.recharge = "recharge", min(faces)
            if p.recharge < 2:
                p.problems.append("recharge on a 1 is not a recharge Skirmish has")
        else:
            p.usage = "encounter"
            p.notes.append(f"Recharge {clean(rest, 80)}: Skirmish uses it once per encounter")
    else:
        p.usage = "at-will" if word.startswith("at") else word


def _read_tail(text: str, base: int, c: SrcCreature, index: LineIndex) -> None:
    for m in _ABILITY.finditer(text):
        ab = m.group("ab").lower()
        c.abilities[ab] = int(m.group("score"))
        c.ability_mods[ab] = int(m.group("mod").replace(" ", ""))
        c.lines[ab] = index.line(base + m.start())
    skills = re.search(r"\bSkills\b(?P<v>.*?)(?=\bStr\s+\d|\bEquipment\b|$)", text)
    if skills:
        for m in _SKILL.finditer(skills.group("v")):
            c.skills[m.group("skill").lower()] = int(m.group("v").replace(" ", ""))
    for label in ("Alignment", "Languages", "Equipment"):
        found = re.search(
            rf"\b{label}\s+(?P<v>.*?)(?=\b(?:Alignment|Languages|Skills|Str|Equipment)\b|$)", text
        )
        if found and found.group("v").strip():
            c.description.append(f"{label}: {clean(found.group('v'), 200)}")
