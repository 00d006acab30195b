#!/usr/bin/env python3
"""Audit every provoking move of the tactical AI (issue 15, target 5), and count what the
special states do (target 6).

    .venv/bin/python tests/soak/soak_provoke.py --fights 1000
    .venv/bin/python tests/soak/soak_provoke.py --fights 20 --jobs 1

Fights are spread evenly over the bundled encounters and `mirror` (seeds 1, 2, ...; both
sides tactical, each encounter's own ruleset, plus `mirror` under 4srd and d20srd). Every
decision of the planner is checked against the alternatives it had:

- **needless**: a turn that provokes opportunity attacks when the creature had the same
  turn provoking a strict subset of them. For an attack turn (the route there, the act of a
  ranged or area attack, the move after it): another square reachable this turn (or where it
  stands) from which the same power hits the same targets for at least as much, ending on a
  square worth at least as much (`Turn.value`). For a move with no attack (a double move's
  first leg): another square (a shift, another path, or staying put) worth at least as much
  and as near the enemy it walks toward (`ai.moving.approach_terms`, by walking distance).
  Every decision of the planner is audited, with the planner's own `Turn` (its weights, its
  styles, the budget left after its minor actions). Target: 0.
- **reckless**: a turn whose provoked opportunity attacks (its minor actions' included, a
  double move's second leg too) are expected to deal at least the creature's hit points (and
  temporary hit points), when its attack is not expected to
  drop anyone and it heals no one (a kill or a rescue is the reason that can excuse it).
  Target: 0.

From the logs it counts the creatures dropped by the opportunity attacks their own move or
act provoked, the withdraws (squares moved, how often they still provoked), the full attacks
and the stand-ups. Exit status 0 when no needless and no reckless turn was found.

`audit()` is the same as a function, for tests/ai/test_ai_states.py.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ai import planner as planner_mod  # noqa: E402
from ai.candidates import attack_options  # noqa: E402
from ai.moving import CAP, approach_terms  # noqa: E402
from ai.plan import Option  # noqa: E402
from ai.routes import Route, routes  # noqa: E402
from ai.sim import _loaded, play  # noqa: E402
from ai.squares import act_provokes  # noqa: E402
from ai.turn import Turn  # noqa: E402
from engine.content.bundled import bundled_encounters  # noqa: E402
from engine.encounter import Encounter  # noqa: E402
from engine.movement import act_provokers  # noqa: E402
from engine.powers import provoking_kind  # noqa: E402
from engine.state import Combatant  # noqa: E402

Square = tuple[int, int]
EPS = 1e-6
EXTRA_CASES = (("mirror", "4srd"), ("mirror", "d20srd"))


@dataclass
class Audit:
    """What the audited fights did."""

    fights: int = 0
    decisions: int = 0
    provoking: int = 0
    needless: list[str] = field(default_factory=list)
    reckless: list[str] = field(default_factory=list)
    oa_drops: int = 0
    """Creatures dropped by an opportunity attack that their own move or act provoked."""
    withdraws: int = 0
    withdraw_squares: int = 0
    withdraw_provoked: int = 0
    full_attacks: int = 0
    stand_ups: int = 0
    kinds: Counter[str] = field(default_factory=Counter)

    def add(self, other: Audit) -> None:
        for name in ("fights", "decisions", "provoking", "oa_drops", "withdraws"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("withdraw_squares", "withdraw_provoked", "full_attacks", "stand_ups"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.needless.extend(other.needless)
        self.reckless.extend(other.reckless)
        self.kinds.update(other.kinds)

    def report(self) -> str:
        w = self.withdraws
        mean = self.withdraw_squares / w if w else 0.0
        pct = 100.0 * self.withdraw_provoked / w if w else 0.0
        lines = [
            f"fights {self.fights}  decisions {self.decisions}  provoking turns {self.provoking}",
            f"needless provoking turns: {len(self.needless)}",
            f"reckless provoking turns (expected OA damage >= hp, no kill): {len(self.reckless)}",
            f"creatures dropped by the opportunity attacks of their own move: {self.oa_drops}",
            f"withdraws {w} (mean {mean:.1f} squares, {pct:.0f}% provoked)  "
            f"full attacks {self.full_attacks}  stand-ups {self.stand_ups}",
            "chosen kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(self.kinds.items())),
        ]
        lines.extend("  needless: " + s for s in self.needless[:10])
        lines.extend("  reckless: " + s for s in self.reckless[:10])
        return "\n".join(lines)


_CURRENT: list[Audit] = []
_TAG: list[str] = [""]


def _same_attack(turn: Turn, o: Option, sq: Square, via: Route | None, worth: float) -> bool:
    """Can `o`'s power hit `o`'s targets from `sq`, for at least `worth`?"""
    ctx = turn.ctx
    assert o.power is not None
    f = ctx.f
    targets = [*f.enemies, *f.downed]
    want = set(h.target for h in o.hits)
    for at, hits, _ in attack_options(ctx, o.power, targets, {sq: via}, [sq]):
        if at != sq or set(h.target for h in hits) != want:
            continue
        if sum(h.value for h in hits) >= worth - EPS:
            return True
    return False


def _needless(turn: Turn, o: Option) -> str | None:
    """The alternative that makes attack turn `o` a needless provocation, if one exists."""
    ctx = turn.ctx
    assert o.power is not None
    who = set(o.provoked)
    worth = sum(h.value for h in o.hits)
    end_value = turn.value(o.end)
    squares: dict[Square, Route | None] = {}
    if turn.bud.standard:
        squares[turn.s0] = None
    if turn.bud.move_then_standard:
        squares.update(turn.moves)
    for sq, via in squares.items():
        alt = set(turn.route_cost[sq][2])
        if o.power.kind in ("ranged", "area"):
            alt |= set(act_provokes(ctx, sq, via)[2])
        if not alt < who or turn.value(sq) < end_value - EPS:
            continue
        if _same_attack(turn, o, sq, via, worth):
            return f"{sq} provokes {sorted(alt)} instead of {sorted(who)}"
    return None


def _needless_move(turn: Turn, o: Option, fleeing: bool) -> str | None:
    """The alternative that makes move `o` (its first leg) a needless provocation."""
    ctx = turn.ctx
    assert o.route is not None
    who = set(turn.route_cost[o.end][2])
    if not who:
        return None
    if fleeing:
        near = {
            sq: 0.8 * ctx.nearest_gap(sq) + 0.5 * turn.value(sq) for sq in [turn.s0, *turn.moves]
        }
    else:
        near = approach_terms(turn, turn.moves, CAP, exact=True)[1]
    end_value, end_near = turn.value(o.end), near.get(o.end, 0.0)
    for sq in [turn.s0, *turn.moves]:
        alt = set(turn.route_cost[sq][2])
        if not alt < who or turn.value(sq) < end_value - EPS:
            continue
        if near.get(sq, 0.0) >= end_near - EPS:
            return f"{sq} provokes {sorted(alt)} instead of {sorted(who)}"
    return None


def _second_leg_routes(turn: Turn, end: Square) -> dict[Square, Route]:
    """Every square the second move of a double move can end on from `end`: a walk by the
    least provoking route, or a shift (one square, provoking no one) where the ruleset allows
    one after a walk (not the d20srd 5-foot step, S-15)."""
    ctx = turn.ctx
    f = ctx.f
    out = routes(f.mg, end, turn.speed, f.enemy_sq, f.occupied, f.threat_mask, ctx.oa_cost)
    if f.me.size == 1 and not f.b.ruleset.offers("shift"):
        for nb in f.mg.adj.get(end, ()):
            if f.mg.cost[nb] <= 1 and nb not in f.occupied and nb != end:
                w = out.get(nb)
                if w is None or w.mask:
                    out[nb] = Route(nb, (end, nb), 1, 0, "shift")
    out.pop(end, None)
    return out


def _needless_second(turn: Turn, o: Option) -> str | None:
    """The alternative that makes the second leg of double move `o` a needless provocation:
    another second leg from the first one's end (a shift, another path) provoking a strict
    subset, ending on a square worth as much and as near the enemy it walks toward."""
    assert o.route is not None and o.post is not None
    who = set(turn.oa(o.post)[2])
    if not who:
        return None
    second = _second_leg_routes(turn, o.end)
    near = approach_terms(turn, {o.end: o.route, **second}, CAP, exact=True)[1]
    end = o.post.end
    end_value, end_near = turn.value(end), near.get(end, 0.0)
    for sq, r in second.items():
        alt = set(turn.oa(r)[2])
        if not alt < who or turn.value(sq) < end_value - EPS:
            continue
        if near.get(sq, 0.0) >= end_near - EPS:
            return f"second leg to {sq} provokes {sorted(alt)} instead of {sorted(who)}"
    return None


def _early(turn: Turn, o: Option) -> tuple[str, ...]:
    """Who the minor actions taken first provoke (S-14), as the engine rules it."""
    f = turn.ctx.f
    out: list[str] = []
    for u in o.extras:
        pid = getattr(u.action, "power", None)
        p = f.me.power(pid) if isinstance(pid, str) else None
        if p is not None and provoking_kind(p):
            out.extend(e.id for e in act_provokers(f.b, f.me) if e.id not in out)
    return tuple(out)


def _reckless(turn: Turn, o: Option, early: tuple[str, ...]) -> bool:
    ctx = turn.ctx
    ids = ctx.f.threat_ids
    exp = sum(ctx.oa_exp[ids.index(e)] for e in {*o.provoked, *early} if e in ids)
    if exp < max(1, ctx.f.hp_eff):  # its hit points and temporary hit points
        return False
    rescue = o.kind == "utility" or any(u.healed for u in o.extras)
    return not rescue and not any(h.drop >= 0.5 and not h.ally for h in o.hits)


def _check(enc: Encounter, c: Combatant, pl: Any, o: Option, moves_only: bool) -> None:
    audit = _CURRENT[-1] if _CURRENT else None
    turn: Turn | None = pl.last_turn
    if audit is None:
        return
    audit.decisions += 1
    audit.kinds[o.kind] += 1
    if turn is None or turn.ctx.f.me is not c:
        return  # a stand-up first: nothing weighed yet
    early = _early(turn, o)
    if not o.provoked and not early:
        return
    audit.provoking += 1
    where = f"{_TAG[0]} round {enc.battle.round} {c.name}: {o.kind}"
    alt = None
    if o.kind == "attack" and o.power is not None and o.hits and not moves_only:
        alt = _needless(turn, o)
    elif o.kind == "move" and o.route is not None:
        alt = _needless_move(turn, o, o.fleeing)
        if alt is None and o.post is not None:
            alt = _needless_second(turn, o)
    if alt is not None:
        audit.needless.append(f"{where} to {o.end} ({alt})")
    if _reckless(turn, o, early):
        who = [*o.provoked, *early]
        audit.reckless.append(f"{where} to {o.end} provoking {who} at {c.hp} hp")


_ORIGINAL = planner_mod.Planner.decide


def _audited_decide(self: Any, enc: Encounter, c: Combatant, *args: Any, **kw: Any) -> Option:
    o = _ORIGINAL(self, enc, c, *args, **kw)
    if not args and not kw.get("extra_standard"):
        _check(enc, c, self, o, bool(kw.get("moves_only")))
    return o


class _Events:
    """Counts from one fight's events: drops to one's own provocations, withdraws."""

    def __init__(self, audit: Audit) -> None:
        self.a = audit
        self.turn: str | None = None
        self.provoked_by_me = False
        self.in_withdraw = False

    def __call__(self, ev: dict[str, Any]) -> None:
        kind = ev.get("type")
        if kind == "turn_start":
            self.turn = ev["id"]
        elif kind == "action" and ev.get("id") == self.turn:
            self._action(ev)
        elif kind == "provoke" and ev.get("mover") == self.turn and ev.get("taken"):
            if self.in_withdraw and not self.provoked_by_me:
                self.a.withdraw_provoked += 1
            self.provoked_by_me = True
        elif kind == "move" and ev.get("mode") == "withdraw":
            self.a.withdraw_squares += max(0, len(ev.get("path", [])) - 1)
        elif kind == "damage" and ev.get("target") == self.turn and self.provoked_by_me:
            dropped = ev.get("hp_after", 1) <= 0 < ev.get("hp_before", 1)
            if ev.get("source") != self.turn and dropped:
                self.a.oa_drops += 1
        mine = kind == "attack" and ev.get("attacker") == self.turn
        if kind in ("turn_end", "turn_start") or (mine and not ev.get("opportunity")):
            self.provoked_by_me = False

    def _action(self, ev: dict[str, Any]) -> None:
        a = self.a
        name = ev.get("name")
        self.in_withdraw = name == "withdraw"
        if name == "stand_up":
            a.stand_ups += 1
        elif ev.get("kind") == "full_round" and name != "withdraw":
            a.full_attacks += 1
        elif self.in_withdraw:
            a.withdraws += 1
            self.provoked_by_me = False


def cases() -> list[tuple[str, str | None]]:
    names = sorted(e.name for e in bundled_encounters())
    return [(n, None) for n in names] + list(EXTRA_CASES)


def _one(job: tuple[str, str | None, int]) -> Audit:
    name, ruleset, seed = job
    audit = Audit(fights=1)
    _CURRENT.append(audit)
    _TAG[0] = f"{name}{'/' + ruleset if ruleset else ''} seed {seed}"
    planner_mod.Planner.decide = _audited_decide  # type: ignore[method-assign]
    try:
        loaded = _loaded(name, ruleset)
        play(loaded, seed, {}, ruleset=ruleset, on_event=_Events(audit))
    finally:
        planner_mod.Planner.decide = _ORIGINAL  # type: ignore[method-assign]
        _CURRENT.pop()
    return audit


def jobs_for(fights: int) -> list[tuple[str, str | None, int]]:
    cs = cases()
    return [(cs[i % len(cs)][0], cs[i % len(cs)][1], 1 + i // len(cs)) for i in range(fights)]


def audit(fights: int, jobs: int = 1, progress: int = 0) -> Audit:
    """Play `fights` fights (spread over `cases()`) and audit them; with `progress`, print
    the running totals every that many fights."""
    total = Audit()
    work = jobs_for(fights)

    def add(part: Audit) -> None:
        total.add(part)
        if progress and total.fights % progress == 0 and total.fights < fights:
            print(f"-- after {total.fights} fights\n{total.report()}", flush=True)

    if jobs <= 1:
        for job in work:
            add(_one(job))
        return total
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for part in pool.imap_unordered(_one, work, chunksize=2):
            add(part)
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fights", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--progress", type=int, default=0, help="print totals every N fights")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    result = audit(args.fights, args.jobs, args.progress)
    print(result.report())
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0 if not result.needless and not result.reckless else 1


if __name__ == "__main__":
    sys.exit(main())
