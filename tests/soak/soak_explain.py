#!/usr/bin/env python3
"""Audit the AI's explanations against what then happened, over many headless fights.

    .venv/bin/python tests/soak/soak_explain.py --fights 200
    .venv/bin/python tests/soak/soak_explain.py --fights 20 --only mirror --show 5
    .venv/bin/python tests/soak/soak_explain.py --fights 45 --policy naive

Every fight is played by the simulator (`ai.sim.play`, the `tactical` policy on every side, or
`--policy naive`: the baseline explains each of its actions too),
and each `decision` event is held against the events that follow it, up to the creature's
next decision or the end of its turn (the decision's span):

- "avoiding A's opportunity attack" is a lie if A's opportunity attack is then provoked;
- a provoked opportunity attack that the decision did not name as "provoking" is unsaid;
  "provoking A's opportunity attack" with no `provoke` by A after it is unmet (unless the
  mover or A went down first, or a new decision of the mover took over: a re-plan, or the
  plan explained again, says what changed);
- "to flank T" is a lie if the next attack on T is not flanking;
- "T is out of reach" is a lie if a logged candidate of the same decision attacks T;
- "Power on T" is a lie if the creature's next attack uses another power or target;
- an action the decision does not cover (an attack after "no attack this turn" or "holds its
  position", a second action after "stands up") is unexplained;
- every AI action follows a decision of its creature in the same turn;
- summaries that quote a raw square "(x,y)", possessives like "Guard' ", and "0.0 expected"
  are counted.

One line per kind of finding, then examples (`--show`). Exit status 0 when no lie, nothing
unsaid or unexplained and no action without a decision; 1 otherwise. `audit()` is the same as
a function, for tests/ai/test_explain_audit.py.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ai.sim import play  # noqa: E402
from engine.content.loader import load_encounter  # noqa: E402

ENCOUNTERS = (
    "mirror",
    "default",
    "ambush",
    "brawl",
    "chasm",
    "crossroads-4srd",
    "fog",
    "goblin-hall",
    "keep-d20",
)
"""The bundled encounters audited (not `battle`, the 60x60 speed case), in turn."""

LIES = (
    "avoiding",
    "unsaid_provoke",
    "unmet_provoke",
    "to_flank",
    "out_of_reach",
    "attack",
    "unexplained",
)
"""The findings that fail the audit."""
SQUARE = re.compile(r"\(\d+,\d+\)")
BAD_POSSESSIVE = re.compile(r"\b[A-Z][\w]*' ")  # a name's: "Guard' ", not "the enemies' "
ZERO = re.compile(r"(?<![\d.])0\.0 expected")


@dataclass
class Audit:
    """What the audit found over its fights."""

    fights: int = 0
    decisions: int = 0
    actions: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, kind: str, example: str) -> None:
        self.counts[kind] += 1
        self.examples.setdefault(kind, [])
        if len(self.examples[kind]) < 50:
            self.examples[kind].append(example)

    @property
    def lies(self) -> int:
        return sum(self.counts[k] for k in LIES) + self.counts["no_decision"]

    def lines(self, show: int = 0) -> list[str]:
        out = [
            f"{self.fights} fights, {self.decisions} decisions, {self.actions} AI actions "
            f"[{self.seconds:.1f} s]"
        ]
        for kind in (*LIES, "no_decision", "square", "possessive", "zero_expected"):
            n = self.counts[kind]
            pct = f" ({100 * n / self.decisions:.1f}% of decisions)" if kind == "square" else ""
            out.append(f"  {kind:<15} {n}{pct}")
            out.extend(f"      {e}" for e in self.examples.get(kind, [])[:show])
        return out


def _named(text: str, names: dict[str, str]) -> set[str]:
    """The ids of the creatures whose names appear in `text` (longest names first, so that
    "East Cutter 1" is not also read as "East Cutter")."""
    found: set[str] = set()
    rest = text
    for cid, name in sorted(names.items(), key=lambda kv: -len(kv[1])):
        if name and name in rest:
            found.add(cid)
            rest = rest.replace(name, "\0")
    return found


def _clause(text: str, start: str, end: str) -> str | None:
    """The words between `start` and the next `end` in `text`, or None."""
    i = text.find(start)
    if i < 0:
        return None
    j = text.find(end, i + len(start))
    return text[i + len(start) : j if j >= 0 else len(text)]


class _FightAudit:
    """Audits the events of one fight."""

    def __init__(
        self,
        events: list[dict[str, Any]],
        names: dict[str, str],
        sides: dict[str, str],
        powers: dict[str, str],
        out: Audit,
        tag: str,
    ) -> None:
        self.events = events
        self.names = names
        self.sides = sides
        self.powers = powers
        self.out = out
        self.tag = tag

    def run(self) -> None:
        current: dict[str, int] = {}
        turn: str | None = None
        for i, ev in enumerate(self.events):
            t = ev["type"]
            if t == "turn_start":
                turn = ev["id"]
                current.pop(turn, None)
            elif t == "decision":
                self.out.decisions += 1
                current[ev["id"]] = i
                self._decision(i, ev)
            elif t == "action" and ev["id"] == turn:
                self.out.actions += 1
                if turn not in current:
                    self.out.add("no_decision", f"{self.tag} #{ev['seq']}: {ev['name']}")

    def _span(self, i: int, who: str) -> tuple[list[dict[str, Any]], bool]:
        """The events a decision of `who` at index `i` explains, and whether a new decision
        of `who` took over before the end of its turn (a re-plan, or the plan explained
        again: what it had still to do is the new decision's to say)."""
        span: list[dict[str, Any]] = []
        for ev in self.events[i + 1 :]:
            t = ev["type"]
            if t == "decision" and ev["id"] == who:
                return span, True
            if (t == "turn_end" and ev["id"] == who) or t in ("turn_start", "encounter_end"):
                break
            span.append(ev)
        return span, False

    def _decision(self, i: int, d: dict[str, Any]) -> None:
        who, text = d["id"], d["summary"]
        span, superseded = self._span(i, who)
        where = f"{self.tag} #{d['seq']} {text}"
        if SQUARE.search(text):
            self.out.add("square", where)
        if BAD_POSSESSIVE.search(text):
            self.out.add("possessive", where)
        if ZERO.search(text):
            self.out.add("zero_expected", where)
        provokes = [e for e in span if e["type"] == "provoke" and e["mover"] == who]
        avoided = _clause(text, "avoiding ", "opportunit")
        provoking = _clause(text, "provoking ", "opportunit")
        said = _named(provoking, self.names) if provoking else set()
        by = {e["by"] for e in provokes}
        for cid in sorted(said - by) if not superseded else ():
            if not _dropped(span, who) and not _dropped(span, cid):
                self.out.add("unmet_provoke", f"{where}  -> no provoke by {self.names[cid]}")
        for e in provokes:
            if avoided and e["by"] in _named(avoided, self.names):
                self.out.add("avoiding", f"{where}  -> provokes {self.names[e['by']]}")
            elif e["by"] not in said:
                self.out.add("unsaid_provoke", f"{where}  -> provokes {self.names[e['by']]}")
        attacks = [
            e
            for e in span
            if e["type"] == "attack" and e["attacker"] == who and not e["opportunity"]
        ]
        flank = _clause(text, "to flank ", ";")
        if flank is not None:
            targets = _named(flank.split(" with ")[0].split(" (+2)")[0], self.names)
            on = [a for a in attacks if a["target"] in targets]
            if on and not on[0]["flanking"]:
                self.out.add("to_flank", f"{where}  -> attack without flanking")
        out = re.search(r"\(([^()]*) is out of reach\)", text)
        if out:
            tid = _named(out.group(1), self.names)
            for c in d["candidates"]:
                if "->" in c["action"] and tid & _named(c["action"].split("->")[1], self.names):
                    self.out.add("out_of_reach", f"{where}  candidate: {c['action']}")
                    break
        self._covers(who, where, text, span, attacks)

    def _covers(
        self,
        who: str,
        where: str,
        text: str,
        span: list[dict[str, Any]],
        attacks: list[dict[str, Any]],
    ) -> None:
        """The actions in the span are the ones the decision describes."""
        who_actions = [e for e in span if e["type"] == "action" and e["id"] == who]
        standard = [e for e in who_actions if e["kind"] == "standard"]
        quiet = "no attack this turn" in text or "holds its position" in text
        if quiet and attacks:
            self.out.add("unexplained", f"{where}  -> attacks {self.names[attacks[0]['target']]}")
            return
        stood = any(e["name"] == "stand_up" for e in who_actions)
        if "stands up" in text and not stood and not _dropped(span, who):
            self.out.add("unexplained", f"{where}  -> does not stand up")
        if "stands up" in text and standard:
            self.out.add("unexplained", f"{where}  -> {standard[0]['name']}")
        if not attacks:
            return
        first = attacks[0]
        power = self.powers.get(first["power"], first["power"])
        claim = re.search(rf"{re.escape(power)}( on| at| ->| catches|,| \()", text)
        if claim is None:
            self.out.add("attack", f"{where}  -> attacks with {power}")
            return
        named = _named(text[claim.end() :], self.names)
        mine = self.sides[first["target"]] == self.sides[first["attacker"]]
        counted = mine and re.search(r"\d+ all(y|ies)", text)
        if first["target"] not in named and not counted:
            self.out.add("attack", f"{where}  -> {power} on {self.names[first['target']]}")


def _dropped(span: list[dict[str, Any]], who: str) -> bool:
    """The creature went down in the span: what its plan still had to do can't happen."""
    down = ("unconscious", "dying", "dead")
    return any(e["type"] == "state" and e["id"] == who and e["state"] in down for e in span)


def audit_fight(
    name: str, seed: int, out: Audit, *, ruleset: str | None = None, policy: str = "tactical"
) -> None:
    """Play one fight of `name` (`policy` on every side: the naive baseline explains its
    actions too) and audit its decisions into `out`."""
    loaded = load_encounter(name, ruleset)
    sides = list(dict.fromkeys(c.side for c in loaded.spec.combatants))
    events: list[dict[str, Any]] = []
    enc, _ = play(loaded, seed, {s: policy for s in sides}, on_event=events.append)
    b = enc.battle
    names = {c.id: c.name for c in b.combatants.values()}
    side_of = {c.id: c.side for c in b.combatants.values()}
    powers = {p.id: p.name for c in b.combatants.values() for p in c.powers}
    _FightAudit(events, names, side_of, powers, out, f"{name} seed {seed}").run()
    out.fights += 1


def audit(
    fights: int, *, only: list[str] | None = None, seed: int = 1, policy: str = "tactical"
) -> Audit:
    """`fights` fights, shared round-robin among the audited encounters (or `only`); fight k
    of an encounter uses seed `seed + k`; `policy` plays every side."""
    t0 = time.perf_counter()
    names = list(only or ENCOUNTERS)
    out = Audit()
    for k in range(fights):
        name = names[k % len(names)]
        audit_fight(name, seed + k // len(names), out, policy=policy)
    out.seconds = time.perf_counter() - t0
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--fights", type=int, default=200, help="fights in all (default 200)")
    p.add_argument("--only", nargs="+", default=None, metavar="NAME", help="these encounters")
    p.add_argument("--seed", type=int, default=1, help="fight k of an encounter: seed + k")
    p.add_argument("--show", type=int, default=3, help="examples per finding (default 3)")
    p.add_argument("--policy", default="tactical", help="who plays every side (default tactical)")
    args = p.parse_args(argv)
    result = audit(args.fights, only=args.only, seed=args.seed, policy=args.policy)
    print("\n".join(result.lines(args.show)))
    return 0 if result.lies == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
