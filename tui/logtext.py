"""The one renderer: engine events into the short lines a person reads.

The log pane shows these lines, `skirmish export --format text` and the save commands write
them and the replay viewer labels its steps with them, so none of them can disagree. The
wording of each event type is one small function in `tui.eventtext`, looked up by the event's
class; this module joins lines: an attack and the damage it deals become one line ("Goblin
Cutter hits Brom: 17 vs AC 16, 7 damage (resist 2)"), and a change of hit point state caused
by that damage is appended to it. Nothing here imports Textual: a line is a kind (for colour)
and plain text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.events import Attack, Damage, Event, Logged, StateChange
from tui.eventtext import (
    DEFENSE,
    DURATION,
    STATE,
    LineKind,
    attack_text,
    event_text,
)
from tui.safetext import clean

__all__ = ["DEFENSE", "DURATION", "Line", "LineKind", "LogFormatter", "Names", "format_log"]


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
    everyone = [*getattr(enc, "gm_removed", {}).values(), *battle.combatants.values()]
    powers = []
    for c in everyone:
        for p in c.powers:
            powers.append((p.id, p.name, bool(p.basic)))
    return Names.of({c.id: c.name for c in everyone}, powers)


class LogFormatter:
    """Feeds on events in order and returns their lines; remembers effect names for their end."""

    def __init__(self, names: Names, *, explain: bool = True) -> None:
        self.names = names
        self.explain = explain
        self.effects: dict[str, tuple[str, str]] = {}

    def lines(self, events: Iterable[Logged]) -> list[Line]:
        out: list[Line] = []
        pending: tuple[Logged, Attack] | None = None  # an attack waiting for its damage
        for item in events:
            ev = item.event
            if pending is not None:
                at, attack = pending
                hit = ev if isinstance(ev, Damage) and _deals(attack, ev) else None
                kind, body = attack_text(self.names, attack, hit)
                tags = rolled_by_pair(at, item if hit is not None else None)
                out.append(_line(at, (kind, body + tags)))
                pending = None
                if hit is not None:
                    continue
            if isinstance(ev, Attack):
                pending = (item, ev)
            elif isinstance(ev, StateChange) and out and _merges(out[-1], ev, self.names):
                last = out[-1]
                joined = clean(f"{last.text}; {self.names.who(ev.id)} {STATE[ev.state]}")
                out[-1] = Line(last.seq, last.round, last.kind, joined)
            elif (text := self.text(ev, item.round)) is not None:
                out.append(_line(item, (text[0], text[1] + rolled_by(item))))
        if pending is not None:
            kind, body = attack_text(self.names, pending[1], None)
            out.append(_line(pending[0], (kind, body + rolled_by(pending[0]))))
        return out

    def text(self, ev: Event, round_: int = 0) -> tuple[LineKind, str] | None:
        """The line for one event on its own, or None for bookkeeping nobody reads."""
        return event_text(self, ev, round_)


def _line(item: Logged, text: tuple[LineKind, str]) -> Line:
    kind, body = text
    return Line(item.seq, item.round, kind, clean(body))  # names are data: see tui.safetext


ROLLED_BY = {"table": "typed", "app": "app rolled", "mixed": "partly typed"}
"""Table play: who rolled a line's dice (`Logged.rolled_by`), as the line says it."""


def rolled_by(item: Logged) -> str:
    """ " (typed)" or " (app rolled)" after a line whose dice were typed at the table or
    rolled by the app; nothing in a fight with no typed dice."""
    word = ROLLED_BY.get(item.rolled_by or "")
    return f" ({word})" if word else ""


def rolled_by_pair(attack: Logged, damage: Logged | None) -> str:
    """An attack line with its damage: one mark when both rolls were rolled alike."""
    a = ROLLED_BY.get(attack.rolled_by or "")
    d = ROLLED_BY.get(damage.rolled_by or "") if damage is not None else None
    if a and d and a != d:
        return f" (attack {a}, damage {d})"
    if a or d:
        return f" ({a or 'damage ' + str(d)})"
    return ""


def _deals(a: Attack, ev: Damage) -> bool:
    """Is `ev` the damage of the attack `a`?"""
    return ev.target == a.target and ev.source == a.attacker


def _merges(last: Line, ev: StateChange, names: Names) -> bool:
    """A state change right after the damage that caused it joins that line."""
    return last.kind in ("hit", "damage") and names.who(ev.id) in last.text


def format_log(events: Iterable[Logged], names: Names, *, explain: bool = True) -> list[str]:
    """Every event as text, one line each, with the round: for `skirmish export`."""
    return [f"[{ln.round}] {ln.text}" for ln in LogFormatter(names, explain=explain).lines(events)]
