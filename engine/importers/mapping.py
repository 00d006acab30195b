"""From a source creature to Skirmish content: one creature and its powers, checked.

The readers hand over the source's numbers (`model.SrcCreature`); this module writes them
into the content format of docs/content.md unchanged (a stat block's whole attack bonus, its
final defenses, the Character Builder's computed damage), reads the prose of each power into
rules where the words are the usual ones (`effects`), and keeps everything else as a note in
the power's description plus a warning in the report. The result is validated with the
content models before anything is written: a creature that would not pass `skirmish check`
is reported as a problem and left out.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from pydantic import ValidationError

from engine.content.schema import Library
from engine.dice import DiceError, DiceExpr
from engine.immunity import IMMUNITIES
from engine.importers.effects import Outcome, read_aftereffect, read_outcome
from engine.importers.model import Damage, SrcCreature, SrcPower
from engine.importers.report import CreatureReport, ImportFailed, Problem
from engine.importers.source import MAX_NAME, clean

ROLES = ("brute", "soldier", "skirmisher", "artillery", "controller", "lurker")
_SIZES = {"tiny": "small", "small": "small", "medium": "medium", "large": "large"}
_RANK_AP = {"elite": 1, "solo": 2}
_RANK_SAVES = {"elite": 2, "solo": 5}
"""An elite's and a solo's saving throw bonus when the block prints none (the 4e rule)."""
_LIMITS: dict[str, tuple[int, int]] = {
    "level": (1, 30),
    "hp": (1, 1000),
    "ac": (1, 60),
    "fortitude": (1, 60),
    "reflex": (1, 60),
    "will": (1, 60),
    "speed": (0, 20),
    "initiative": (-20, 40),
    "healing_surges": (0, 50),
}
NATIVE = {"second wind", "opportunity attack"}
"""Actions every Skirmish creature has (X-HP-2, F-ACT): a copy would only duplicate them."""
SKILLS = ("perception", "stealth", "bluff", "insight")
ABILITIES = ("str", "con", "dex", "int", "wis", "cha")


def slug(text: str, limit: int = 40) -> str:
    """An id from a name: `"Brünhilde Skull-cleaver"` -> `brunhilde-skull-cleaver`."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    s = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    if not s or not s[0].isalpha():
        s = f"x-{s}".rstrip("-")
    return s[:limit].rstrip("-_")


def unique(base: str, taken: set[str]) -> str:
    ident, n = base, 2
    while ident in taken:
        suffix = f"-{n}"
        ident = base[: 40 - len(suffix)].rstrip("-_") + suffix
        n += 1
    taken.add(ident)
    return ident


def _check_numbers(src: SrcCreature) -> list[Problem]:
    """Required numbers present and within what Skirmish allows; one problem each."""
    problems = [Problem(src.file, line, where, msg) for line, where, msg in src.problems]
    required = ["level", "hp", "speed"]
    if src.kind == "monster":
        required += ["ac", "fortitude", "reflex", "will"]
    missing_def = [d for d in ("ac", "fortitude", "reflex", "will") if getattr(src, d) is None]
    if src.kind == "monster" and len(missing_def) == 4:
        problems.append(
            Problem(
                src.file,
                src.at("defenses"),
                "defenses",
                "no defenses (AC, Fortitude, Reflex, Will) in the stat block",
            )
        )
        required = [r for r in required if r not in missing_def]
    for name in required:
        if getattr(src, name) is None:
            what = "no number" if name in src.lines else "nothing"
            message = f"{what} for {name} in the source"
            problems.append(Problem(src.file, src.at(name), name, message))
    for name, (lo, hi) in _LIMITS.items():
        value = getattr(src, name)
        if value is not None and not lo <= value <= hi:
            problems.append(
                Problem(src.file, src.at(name), name, f"{value} is out of range ({lo}..{hi})")
            )
    for ab, score in src.abilities.items():
        if not 1 <= score <= 30:
            problems.append(
                Problem(src.file, src.at(ab), f"abilities.{ab}", f"{score} is out of range (1..30)")
            )
    if src.kind == "monster" and src.role not in ROLES:
        problems.append(Problem(src.file, src.at("role"), "role", "no role (brute, soldier, ...)"))
    if src.rank == "minion" and src.hp not in (None, 1):
        problems.append(Problem(src.file, src.at("hp"), "hp", f"a minion has 1 hp, not {src.hp}"))
    return problems


def sentences_of(notes: list[str]) -> str:
    """Notes as one readable text: each ends with a full stop unless it has its own."""
    parts = [n.strip() for n in notes if n.strip()]
    return " ".join(n if n[-1] in ".!?:" else f"{n}." for n in parts)


def _creature_fields(src: SrcCreature, rep: CreatureReport) -> dict[str, Any]:
    c: dict[str, Any] = {"id": rep.id, "name": clean(src.name, MAX_NAME)}
    if src.kind == "pc":
        c["kind"] = "pc"
    c["level"] = src.level
    if src.role:
        c["role"] = src.role
    if src.size:
        c["size"] = _size(src, rep)
    c["speed"] = src.speed
    c["hp"] = src.hp
    if src.rank == "minion":
        c["minion"] = True
    if src.initiative is not None:
        c["initiative"] = src.initiative
    if src.abilities:
        c["abilities"] = {ab: src.abilities[ab] for ab in ABILITIES if ab in src.abilities}
    if src.kind == "pc" or None not in (src.ac, src.fortitude, src.reflex, src.will):
        c["defenses"] = {d: getattr(src, d) for d in ("ac", "fortitude", "reflex", "will")}
    if src.healing_surges:
        c["healing_surges"] = src.healing_surges
    ap = _action_points(src, rep)
    if ap is not None:
        c["action_points"] = ap
    saves = _save_bonus(src, rep)
    if saves:
        c["save_bonus"] = saves
    c.update(_tables(src, rep))
    immune = _immunities(src)
    if immune:
        c["immune"] = immune
    if src.race:
        c["race"] = clean(src.race, MAX_NAME)
    return c


def _size(src: SrcCreature, rep: CreatureReport) -> str:
    printed = (src.size or "medium").lower()
    size = _SIZES.get(printed)
    if size is None:
        rep.warn(src.at("size"), "size", f"{src.size}: Skirmish's largest size is large")
        return "large"
    if size != printed:
        rep.warn(src.at("size"), "size", f"{src.size}: imported as small")
    return size


def _action_points(src: SrcCreature, rep: CreatureReport) -> int | None:
    ap = src.action_points
    if ap is None and src.rank in _RANK_AP:
        ap = _RANK_AP[src.rank]
        rep.summary.append(f"{src.rank}: {ap} action point(s) (none printed; the {src.rank} rule)")
    if ap is not None and not 0 <= ap <= 3:
        rep.warn(src.at("action_points"), "action_points", f"{ap}: Skirmish allows 0..3, so 3")
        ap = max(0, min(ap, 3))
    return ap


def _save_bonus(src: SrcCreature, rep: CreatureReport) -> int:
    bonus = src.saving_throws
    if bonus is None and src.rank in _RANK_SAVES:
        bonus = _RANK_SAVES[src.rank]
        rule = f"the {src.rank} rule"
        rep.summary.append(f"{src.rank}: saving throws +{bonus} (none printed; {rule})")
    if bonus is not None and not 0 <= bonus <= 20:
        src.notes.append((src.at("saving_throws"), f"Saving throws {bonus:+d}: out of range 0..20"))
        return 0
    return bonus or 0


def _immunities(src: SrcCreature) -> list[str]:
    """`Immune disease, poison` -> `immune`; a word Skirmish has no immunity for is a note."""
    words = list(dict.fromkeys(slug(w) for w in src.immune if slug(w)))
    unknown = [w for w in words if w not in IMMUNITIES]
    if unknown:
        text = "Immune " + ", ".join(unknown)
        src.notes.append((src.at("immune"), f"{text} (Skirmish has no such immunity)"))
    return [w for w in words if w in IMMUNITIES]


def _tables(src: SrcCreature, rep: CreatureReport) -> dict[str, Any]:
    """Skills, resistances and vulnerabilities; a value Skirmish can't hold is a warning."""
    out: dict[str, Any] = {}
    tables = [
        ("skills", {k: v for k, v in src.skills.items() if k in SKILLS}, -20, 40),
        ("resist", {slug(k): v for k, v in src.resist.items()}, 1, 50),
        ("vulnerable", {slug(k): v for k, v in src.vulnerable.items()}, 1, 50),
    ]
    for name, table, lo, hi in tables:
        kept = {k: v for k, v in table.items() if lo <= v <= hi}
        for k, v in table.items():
            if k not in kept:  # a note (and so a warning), never a changed number
                src.notes.append((src.at(name), f"{name} {k} {v}: out of range {lo}..{hi}"))
        if kept:
            out[name] = kept
    return out


def _creature_notes(src: SrcCreature, rep: CreatureReport) -> list[str]:
    notes = [clean(d, 300) for d in src.description if d.strip()]
    if src.leader:
        notes.append("Leader.")
    for line, note in src.notes:
        notes.append(clean(note, 600))
        rep.warn(line, "trait", f"kept as a note: {clean(note, 160)}")
    for name, printed in src.ability_mods.items():
        score = src.abilities.get(name)
        if score is None:
            continue
        mod = (score - 10) // 2 + ((src.level or 0) // 2 if src.kind == "monster" else 0)
        if mod != printed:
            rep.warn(
                src.at(name),
                f"abilities.{name}",
                f"printed modifier {printed:+d} but the "
                f"score {score} gives {mod:+d}: the score is imported",
            )
    if src.bloodied is not None and src.hp is not None and src.bloodied != src.hp // 2:
        rep.warn(
            src.at("bloodied"),
            "bloodied",
            f"printed {src.bloodied}, Skirmish uses half of {src.hp} ({src.hp // 2})",
        )
    return notes


def _outcome_dict(out: Outcome, damage: dict[str, Any] | None) -> dict[str, Any]:
    d: dict[str, Any] = {}
    if damage:
        d["damage"] = damage
    if out.half_damage:
        d["half_damage"] = True
    if out.effects:
        d["effects"] = out.effects
    if out.forced:
        d["forced"] = out.forced
    if out.shift:
        d["shift"] = out.shift
    return d


def _damage(p: SrcPower, hit: Outcome) -> dict[str, Any] | None:
    """The hit's damage: the file's computed numbers (power cards) or the printed ones, with
    the types the text names."""
    dmg = p.damage or hit.damage
    if dmg is None:
        return None
    types = dmg.types or (hit.damage.types if hit.damage else [])
    return _damage_dict(Damage(dmg.dice, dmg.bonus, types))


def _damage_dict(dmg: Damage | None) -> dict[str, Any] | None:
    if dmg is None or not dmg.dice:
        return None
    types = dmg.types
    out: dict[str, Any] = {"dice": dmg.dice}
    if dmg.bonus:
        out["bonus"] = dmg.bonus
    if types:
        out["types"] = list(dict.fromkeys(types))
    return out


def _shape(p: SrcPower, d: dict[str, Any], rep: CreatureReport) -> None:
    kind = p.kind
    if kind is None:
        kind = "melee" if p.attack_bonus is not None else "personal"
        if kind == "personal":
            d["target"] = "self"
    d["kind"] = kind
    for name in ("reach", "range", "burst", "blast"):
        value = getattr(p, name)
        if value is not None:
            d[name] = value
    if kind != "personal":
        d["target"] = p.target
    elif "target" not in d:
        d["target"] = "self"
    if p.targets != 1:
        d["targets"] = max(1, min(p.targets, 10))


def map_power(p: SrcPower, ident: str, owner: str, rep: CreatureReport) -> dict[str, Any]:
    """The content of one power; notes and warnings for what can't be played."""
    d: dict[str, Any] = {"id": ident, "name": clean(p.name, MAX_NAME), "usage": p.usage}
    if p.usage == "recharge":
        d["recharge"] = p.recharge
    d["action"] = p.action
    _shape(p, d, rep)
    keywords = [slug(k) for k in p.keywords if k.lower() not in ("weapon",)]
    if keywords:
        d["keywords"] = list(dict.fromkeys(k for k in keywords if k))
    if p.basic:
        d["basic"] = True
    notes = list(p.notes)
    hit = read_outcome(p.hit, owner, label="Hit", card=p.damage is not None)
    # A miss or effect text's damage in words ("Intelligence modifier") has no computed
    # number in the file: such a sentence stays a note (card=False).
    miss = read_outcome(p.miss, owner, label="Miss")
    effect = read_outcome(p.effect, owner, label="Effect")
    if p.aftereffect:
        after = read_aftereffect(p.aftereffect, owner)
        target = next((e for e in reversed(hit.effects) if e["duration"] == "save_ends"), None)
        if after is not None and target is not None and "aftereffect" not in target:
            target["aftereffect"] = after
        else:
            notes.append(f"Aftereffect: {p.aftereffect}")
    for part in (hit, miss, effect):
        notes.extend(part.notes)
    if p.attack_bonus is not None and p.vs is not None:
        d["attack"] = {"vs": p.vs, "bonus": p.attack_bonus}
        d["hit"] = _outcome_dict(hit, _damage(p, hit))
        missed = _outcome_dict(miss, _damage_dict(miss.damage))
        if missed:
            d["miss"] = missed
    else:
        notes.extend(f"Hit: {s}" for s in [p.hit] if s)
    eff = _outcome_dict(effect, _damage_dict(effect.damage))
    if eff:
        d["effect"] = eff
    if p.action == "immediate":
        notes.insert(0, "Immediate action: Skirmish uses it only when it is readied")
    for note in notes:
        rep.warn(p.line, f"power {p.name!r}", f"kept as a note: {clean(note, 160)}")
    if not ("attack" in d or "effect" in d):
        rep.warn(p.line, f"power {p.name!r}", "nothing in it is a rule Skirmish plays")
    d["description"] = clean(sentences_of([clean(n, 600) for n in [*p.about, *notes]]))
    if not d["description"]:
        del d["description"]
    return d


def _mark_basic(src: SrcCreature, rep: CreatureReport) -> None:
    if any(p.basic for p in src.powers):
        return
    for p in src.powers:
        if p.usage == "at-will" and p.attack_bonus is not None and p.kind in (None, "melee"):
            p.basic = True
            rep.summary.append(f"{p.name}: basic attack (its first at-will melee attack)")
            return


def _summary(c: dict[str, Any], powers: list[dict[str, Any]], rank: str | None) -> str:
    d = c.get("defenses", {})
    defs = (
        f"AC {d.get('ac')}, Fort {d.get('fortitude')}, Ref {d.get('reflex')}, Will {d.get('will')}"
    )
    who = c.get("role") or "pc"
    if rank:
        who = f"{rank} {who}"
    init = c.get("initiative")
    extras = [f"{k} {t} {v}" for k in ("resist", "vulnerable") for t, v in c.get(k, {}).items()]
    extras += [f"immune {t}" for t in c.get("immune", [])]
    if c.get("action_points"):
        extras.append(f"{c['action_points']} action point(s)")
    if c.get("save_bonus"):
        extras.append(f"saving throws +{c['save_bonus']}")
    if c.get("healing_surges"):
        extras.append(f"{c['healing_surges']} surges")
    return (
        f"level {c['level']} {who}, {c['hp']} hp, {defs}, speed {c['speed']}"
        + (f", initiative {init:+d}" if init is not None else "")
        + "".join(f", {e}" for e in extras)
        + f", {len(powers)} power(s)"
    )


def _power_line(d: dict[str, Any]) -> str:
    usage = d["usage"] + (f" {d['recharge']}" if d.get("recharge") else "")
    shape = d["kind"]
    for k in ("reach", "range", "burst", "blast"):
        if k in d:
            shape += f" {k} {d[k]}"
    text = f"power {d['name']}: {usage}, {d['action']}, {shape}"
    if "attack" in d:
        text += f", {d['attack']['bonus']:+d} vs {d['attack']['vs']}"
        dmg = d["hit"].get("damage")
        if dmg:
            text += f", {dmg['dice']}" + (f"{dmg['bonus']:+d}" if dmg.get("bonus") else "")
    return text


def map_creature(
    src: SrcCreature, taken: set[str]
) -> tuple[dict[str, Any], list[dict[str, Any]], CreatureReport]:
    """The content of one creature and its powers, or ImportFailed with every problem."""
    problems = _check_numbers(src)
    if problems:
        raise ImportFailed(problems)
    cid = unique(slug(src.name) or "creature", taken)
    rep = CreatureReport(clean(src.name, MAX_NAME), cid, src.file, src.line)
    c = _creature_fields(src, rep)
    notes = _creature_notes(src, rep)
    _mark_basic(src, rep)
    powers: list[dict[str, Any]] = []
    for p in src.powers:
        if p.problems:
            for msg in p.problems:
                rep.warn(p.line, f"power {p.name!r}", f"not imported: {msg}")
            notes.append(f"Not imported: {p.name}: " + "; ".join(p.problems))
            continue
        if p.name.lower() in NATIVE:
            rep.summary.append(f"{p.name}: not imported, Skirmish has it for every creature")
            continue
        pid = unique(f"{cid[:18].rstrip('-_')}-{slug(p.name, 21)}", taken)
        powers.append(map_power(p, pid, src.name, rep))
    c["powers"] = [p["id"] for p in powers]
    if notes:
        c["description"] = clean(sentences_of(notes), 4000)
    rep.summary.insert(0, _summary(c, powers, src.rank))
    rep.summary.extend(_power_line(p) for p in powers)
    _validate(src, c, powers)
    return c, powers, rep


def _validate(src: SrcCreature, c: dict[str, Any], powers: list[dict[str, Any]]) -> None:
    """The same models and dice parser `skirmish check` uses; a failure is a problem."""
    problems: list[Problem] = []
    try:
        Library.model_validate({"creatures": [c], "powers": powers})
    except ValidationError as exc:
        for err in exc.errors()[:10]:
            where = ".".join(str(x) for x in err["loc"])
            problems.append(Problem(src.file, src.line, where, clean(err["msg"], 200)))
    for p in powers:
        for part in ("hit", "miss", "effect"):
            dmg = (p.get(part) or {}).get("damage")
            if dmg:
                try:
                    DiceExpr.parse(dmg["dice"])
                except DiceError as exc:
                    problems.append(Problem(src.file, src.line, f"{p['id']}.{part}", str(exc)))
    if problems:
        raise ImportFailed(problems)
