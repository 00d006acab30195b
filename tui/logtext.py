"""The one place that turns engine events into short lines a person reads.

The log pane shows these lines and `skirmish export --format text` writes them, so the two
never disagree. An attack and the damage it deals become one line ("Goblin Cutter hits Brom:
17 vs AC 16, 7 damage (resist 2)"), and a change of hit point state caused by that damage is
appended to it; every other event is one line or none (bookkeeping such as `action` is left
out). Nothing here imports Textual: a line is a kind (for colour) and plain text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from engine.events import (
    ActionSpent,
    Attack,
    Check,
    Damage,
    DeathSave,
    Decision,
    EffectEnd,
    EffectStart,
    EncounterEnd,
    EncounterStart,
    Event,
    Heal,
    Initiative,
    InitiativeOrder,
    Logged,
    Mod,
    Moved,
    Note,
    PowerRecharge,
    Provoke,
    RoundStart,
    Save,
    StateChange,
    TempHp,
    Triggered,
    TurnEnd,
    TurnStart,
)
from tui.safetext import clean
from tui.words import plural

LineKind = Literal[
    "info",
    "round",
    "turn",
    "move",
    "hit",
    "miss",
    "damage",
    "heal",
    "effect",
    "save",
    "state",
    "ai",
    "end",
]
DEFENSE = {"ac": "AC", "fortitude": "Fort", "reflex": "Ref", "will": "Will"}
DURATION = {
    "save_ends": "save ends",
    "start_of_next_turn": "until {owner}'s next turn",
    "end_of_next_turn": "until the end of {owner}'s next turn",
    "end_of_encounter": "until the end of the encounter",
    "sustain_standard": "sustain standard",
    "sustain_move": "sustain move",
    "sustain_minor": "sustain minor",
}
ADJUSTMENT = {
    "resist": "resist {n}",
    "vulnerable": "vulnerable {n}",
    "half_on_miss": "half on a miss",
    "weakened": "halved: weakened",
    "insubstantial": "halved: insubstantial",
    "minimum": "minimum damage",
    "temporary_hp": "{n} soaked by temp hp",
}
STATE = {
    "healthy": "is no longer bloodied",
    "bloodied": "is bloodied",
    "unconscious": "falls unconscious",
    "dying": "drops, dying",
    "stable": "is stable",
    "dead": "dies",
}
END_REASON = {
    "save": "saves",
    "expired": "ends",
    "not_sustained": "ends (not sustained)",
    "dead": "ends",
    "encounter_end": "ends",
    "stood_up": "stands up",
}


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the log as a person reads it."""

    seq: int
    """The `seq` of the event the line starts at (the log pane's bookmark)."""
    round: int
    kind: LineKind
    text: str


@dataclass
class Names:
    """What ids stand for: creatures' and powers' display names."""

    creatures: dict[str, str] = field(default_factory=dict)
    powers: dict[str, str] = field(default_factory=dict)
    basic: set[str] = field(default_factory=set)
    """Power ids of basic attacks: their name is left out of attack lines."""

    @classmethod
    def of(cls, creatures: Mapping[str, str], powers: Iterable[tuple[str, str, bool]]) -> Names:
        """`powers`: (id, name, is_basic) triples."""
        out = cls(dict(creatures))
        for pid, name, basic in powers:
            out.powers[pid] = name
            if basic:
                out.basic.add(pid)
        return out

    def who(self, cid: str | None) -> str:
        if cid is None:
            return "someone"
        return self.creatures.get(cid, cid)

    def power(self, pid: str | None) -> str:
        return self.powers.get(pid or "", pid or "?")


def names_of_encounter(enc: object) -> Names:
    """Names from an `engine.encounter.Encounter` (typed loosely: no import cycle to care for)."""
    battle = enc.battle  # type: ignore[attr-defined]
    powers = []
    for c in battle.combatants.values():
        for p in c.powers:
            powers.append((p.id, p.name, bool(p.basic)))
    return Names.of({c.id: c.name for c in battle.combatants.values()}, powers)


def _mods(mods: Iterable[Mod]) -> str:
    parts = []
    for m in mods:
        template = ADJUSTMENT.get(m.source, m.source.replace("_", " ") + " {v:+d}")
        parts.append(template.format(n=abs(m.value), v=m.value))
    return f" ({', '.join(parts)})" if parts else ""


def _square(sq: Iterable[int]) -> str:
    x, y = sq
    return f"{x},{y}"


class LogFormatter:
    """Feeds on events in order and returns their lines; remembers effect names for their end."""

    def __init__(self, names: Names, *, explain: bool = True) -> None:
        self.names = names
        self.explain = explain
        self._effects: dict[str, tuple[str, str]] = {}

    def lines(self, events: Iterable[Logged]) -> list[Line]:
        out: list[Line] = []
        pending: Logged | None = None  # an attack waiting for its damage
        for item in events:
            ev = item.event
            if pending is not None:
                attack = pending.event
                assert isinstance(attack, Attack)
                if (
                    isinstance(ev, Damage)
                    and ev.target == attack.target
                    and ev.source == attack.attacker
                ):
                    out.append(self._line(pending, self._attack(attack, ev)))
                    pending = None
                    continue
                out.append(self._line(pending, self._attack(attack, None)))
                pending = None
            if isinstance(ev, Attack):
                pending = item
                continue
            if isinstance(ev, StateChange) and out and _merges(out[-1], ev, self.names):
                last = out[-1]
                out[-1] = Line(
                    last.seq,
                    last.round,
                    last.kind,
                    clean(f"{last.text}; {self.names.who(ev.id)} {STATE[ev.state]}"),
                )
                continue
            text = self.text(ev, item.round)
            if text is not None:
                out.append(self._line(item, text))
        if pending is not None:
            attack = pending.event
            assert isinstance(attack, Attack)
            out.append(self._line(pending, self._attack(attack, None)))
        return out

    def _line(self, item: Logged, text: tuple[LineKind, str]) -> Line:
        kind, body = text
        return Line(item.seq, item.round, kind, clean(body))  # names are data: see tui.safetext

    # --- one event -----------------------------------------------------------------------
    def _attack(self, a: Attack, d: Damage | None) -> tuple[LineKind, str]:
        n = self.names
        verb = {"hit": "hits", "crit": "CRITS", "miss": "misses"}[a.outcome]
        power = "" if a.power in n.basic else f" with {n.power(a.power)}"
        opp = " (opportunity)" if a.opportunity else ""
        nat = " (nat 20)" if a.natural == 20 else " (nat 1)" if a.natural == 1 else ""
        defense = "?" if a.defense is None else str(a.defense)
        text = (
            f"{n.who(a.attacker)} {verb} {n.who(a.target)}{power}{opp}: "
            f"{a.total}{nat} vs {DEFENSE.get(a.vs, a.vs)} {defense}"
        )
        extras = [
            x
            for x, on in (
                ("CA", a.combat_advantage),
                ("flank", a.flanking),
                (a.cover, a.cover != "none"),
                (a.concealment, a.concealment != "none"),
            )
            if on
        ]
        if a.concealment == "total":
            extras[-1] = "total concealment"
        if a.wrong_square:
            extras.append("wrong square")
        if extras:
            text += f" [{', '.join(extras)}]"
        if d is not None:
            text += f", {d.amount} damage{_mods(d.adjustments)}"
        return ("hit" if a.outcome != "miss" else "miss"), text

    def text(self, ev: Event, round_: int = 0) -> tuple[LineKind, str] | None:
        """The line for one event on its own, or None for bookkeeping nobody reads."""
        n = self.names
        if isinstance(ev, EncounterStart):
            seed = "dice by hand" if ev.seed is None else f"seed {ev.seed}"
            return "info", f"{ev.map.get('name', ev.encounter)}: {ev.ruleset}, {seed}"
        if isinstance(ev, Check):
            ok = "" if ev.success is None else (" (notices)" if ev.success else " (surprised)")
            return "info", f"{n.who(ev.id)} {ev.skill}: {ev.total}{ok}"
        if isinstance(ev, Initiative):
            what = "roll-off" if ev.rolloff else "initiative"
            return "info", f"{n.who(ev.id)} {what}: {ev.total}"
        if isinstance(ev, InitiativeOrder):
            return "info", "Order: " + ", ".join(n.who(c) for c in ev.order)
        if isinstance(ev, RoundStart):
            return "round", f"-- round {round_} --" if round_ else "-- surprise round --"
        if isinstance(ev, TurnStart):
            return "turn", f"{n.who(ev.id)}'s turn"
        if isinstance(ev, TurnEnd):
            return ("turn", f"{n.who(ev.id)} delays") if ev.delayed else None
        if isinstance(ev, ActionSpent):
            special = {
                "second_wind": "uses second wind",
                "action_point": "spends an action point",
                "stand_up": "stands up",
                "ready": "readies an action",
                "sustain": "sustains an effect",
            }
            if ev.name in special:
                return "info", f"{n.who(ev.id)} {special[ev.name]}"
            return None
        if isinstance(ev, Moved):
            steps = len(ev.path) - 1
            if ev.mode == "displaced":
                return "move", f"{n.who(ev.id)} is set back to {_square(ev.path[-1])}"
            forced = ev.mode in ("push", "pull", "slide", "fall")
            verb = {
                "walk": "walks",
                "run": "runs",
                "shift": "shifts",
                "push": "is pushed",
                "pull": "is pulled",
                "slide": "is slid",
                "fall": "falls",
            }.get(ev.mode, ev.mode)
            cost = f"{steps} sq" if forced else f"cost {ev.cost}"
            return "move", f"{n.who(ev.id)} {verb} to {_square(ev.path[-1])} ({cost})"
        if isinstance(ev, Provoke):
            what = "takes" if ev.taken else "lets pass"
            return "move", (
                f"{n.who(ev.mover)} provokes {n.who(ev.by)}, who {what} an opportunity attack"
            )
        if isinstance(ev, Triggered):
            kind = "interrupt" if ev.interrupt else "reaction"
            what = "uses" if ev.taken else "does not use"
            by = f" by {n.who(ev.by)}" if ev.by else ""
            return "info", (
                f"{n.who(ev.id)} {what} {n.power(ev.power)} (immediate {kind}: "
                f"{ev.trigger.replace('_', ' ')}{by})"
            )
        if isinstance(ev, Damage):
            by = f" from {n.who(ev.source)}" if ev.source else ""
            why = {"ongoing": " (ongoing)", "miss": " (miss)", "fall": " (fall)"}.get(ev.cause, "")
            return "damage", (
                f"{n.who(ev.target)} takes {ev.amount} damage{by}{why}{_mods(ev.adjustments)}"
            )
        if isinstance(ev, Heal):
            surge = " (surge)" if ev.surge else ""
            return "heal", (
                f"{n.who(ev.target)} heals {ev.hp_after - max(0, ev.hp_before)}"
                f"{surge}: {ev.hp_after} hp"
            )
        if isinstance(ev, TempHp):
            return "heal", f"{n.who(ev.target)} has {ev.temp_hp} temporary hp"
        if isinstance(ev, EffectStart):
            self._effects[ev.effect] = (ev.name, ev.target)
            return "effect", f"{n.who(ev.target)}: {ev.name} ({self._parts(ev)})"
        if isinstance(ev, EffectEnd):
            name, _ = self._effects.get(ev.effect, (ev.effect, ev.target))
            if ev.reason in ("encounter_end", "dead"):
                return None
            verb = END_REASON.get(ev.reason, f"ends ({ev.reason})")
            if ev.reason == "stood_up":
                return None
            return "effect", f"{n.who(ev.target)}: {name} {verb}"
        if isinstance(ev, Save):
            name = self._effects.get(ev.effect, (ev.effect, ""))[0]
            ok = "saves" if ev.success else "fails to save"
            return "save", f"{n.who(ev.id)} {ok} against {name} ({ev.total})"
        if isinstance(ev, DeathSave):
            return "save", (
                f"{n.who(ev.id)} death save: {ev.natural}, {ev.result} ({ev.failures} failed)"
            )
        if isinstance(ev, StateChange):
            return "state", f"{n.who(ev.id)} {STATE[ev.state]} ({ev.hp} hp)"
        if isinstance(ev, PowerRecharge):
            got = "recharges" if ev.recharged else "does not recharge"
            return "info", f"{n.who(ev.id)}'s {n.power(ev.power)} {got} ({ev.natural})"
        if isinstance(ev, Decision):
            if not self.explain:
                return None
            return "ai", f"AI {n.who(ev.id)}: {ev.summary}"
        if isinstance(ev, Note):
            return "info", ev.text
        if isinstance(ev, EncounterEnd):
            who = f"{ev.winner} won" if ev.winner else "nobody won"
            rounds = plural(ev.rounds, "round")
            return "end", f"The fight is over after {rounds}: {who} ({ev.reason})"
        return None

    def _parts(self, ev: EffectStart) -> str:
        bits: list[str] = []
        for p in ev.parts:
            if "condition" in p:
                bits.append(str(p["condition"]))
            elif "ongoing" in p:
                kind = f" {p['type']}" if p.get("type") else ""
                bits.append(f"ongoing {p['ongoing']}{kind}")
            elif "modifier" in p:
                bits.append(f"{p['modifier']} {int(p['value']):+d}")
        owner = self.names.who(ev.owner) if ev.owner else "its owner"
        bits.append(DURATION.get(ev.duration, ev.duration).format(owner=owner))
        return ", ".join(bits)


def _merges(last: Line, ev: StateChange, names: Names) -> bool:
    """A state change right after the damage that caused it joins that line."""
    return last.kind in ("hit", "damage") and names.who(ev.id) in last.text


def format_log(events: Iterable[Logged], names: Names, *, explain: bool = True) -> list[str]:
    """Every event as text, one line each, with the round: for `skirmish export`."""
    return [f"[{ln.round}] {ln.text}" for ln in LogFormatter(names, explain=explain).lines(events)]
