"""Attacks on the dying (issue 15 target 4): how many monster attacks go into dying creatures
while a standing enemy was free to attack, with the default style and with `ruthless` (the
policy as it chose before styles existed), over the same seeds of every bundled encounter.

Every attack a monster (a creature that is not a player character) makes with a tactical
policy is counted when the policy returns it: its enemy targets (a targeted power's
`targets`, an area's scored targets), whether all of them are down (0 hit points or below:
dying, unconscious), and whether the planner's options for that decision held an attack on a
standing enemy (one was "free to attack"). Both sides play the tactical policy with the same
style; the wins and rounds show what sparing the dying costs or gains.

Run from the repository root: `.venv/bin/python -m tests.benchmarks.bench_dying [--quick]
[--fights N] [--encounters a,b] [--jobs N]`. Prints one table row per encounter and style.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import ai.sim  # noqa: E402
from ai.driver import make_policy  # noqa: E402
from ai.policy import Choice  # noqa: E402
from ai.styles import ATTACKS, StylePick  # noqa: E402
from ai.tactical import TacticalPolicy  # noqa: E402
from engine.actions import FullAttack, UsePower  # noqa: E402
from engine.content.bundled import bundled_encounters  # noqa: E402
from engine.content.loader import load_encounter  # noqa: E402
from engine.encounter import Encounter  # noqa: E402

STYLES = {"default": StylePick(), "ruthless": StylePick(ruthless=True)}


class Counting(TacticalPolicy):
    """The tactical policy, counting its monsters' attacks on the dying in `tally`."""

    tally: Counter[str]

    def next_action(self, enc: Encounter) -> Choice:
        choice = super().next_action(enc)
        c = enc.current
        act = choice.action
        if c is None or c.pc or not isinstance(act, UsePower | FullAttack):
            return choice
        b = enc.battle
        power = c.power(act.power)
        if power is None or power.attack is None:
            return choice
        targets = list(act.targets)
        if not targets:  # an area: the targets the plan scored
            best = self.last_options[0] if self.last_options else None
            targets = [h.target for h in best.hits if not h.ally] if best is not None else []
        foes = [t for t in targets if t in b.combatants and b[t].side != c.side]
        if not foes:
            return choice
        self.tally["attacks"] += 1
        if all(not b[t].standing for t in foes):
            self.tally["on_dying"] += 1
            free = any(
                o.kind in ATTACKS and any(not h.ally and b[h.target].standing for h in o.hits)
                for o in self.last_options
            )
            self.tally["on_dying_standing_free"] += int(free)
        return choice


def _one(job: tuple[str, str, int]) -> dict[str, Any]:
    """One fight of `source`, both sides tactical with style `style`, seed `seed`."""
    source, style, seed = job
    tally: Counter[str] = Counter()

    def policy(name: str, pick: StylePick | None = None) -> Any:
        p = make_policy(name, pick)
        assert isinstance(p, TacticalPolicy)
        counting = Counting(config=p.config)
        counting.tally = tally
        return counting

    ai.sim.make_policy = policy  # type: ignore[assignment]  # this process only
    loaded = load_encounter(source)
    sides = list(dict.fromkeys(c.side for c in loaded.spec.combatants))
    _, result = ai.sim.play(
        loaded, seed, {s: "tactical" for s in sides}, styles=dict.fromkeys(sides, STYLES[style])
    )
    return {"tally": dict(tally), "winner": result.winner, "rounds": result.rounds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="2 fights of 2 encounters (CI)")
    ap.add_argument("--fights", type=int, default=200, help="fights per encounter and style")
    ap.add_argument("--encounters", default="", help="comma-separated (default: all bundled)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    names = [e.name for e in bundled_encounters()]
    if args.encounters:
        names = [n for n in args.encounters.split(",") if n]
    fights = args.fights
    if args.quick:
        names, fights = ["brawl", "mirror"], 2
    print(f"{fights} fights per encounter and style, seeds {args.seed}..{args.seed + fights - 1}")
    head = f"{'encounter':<16} {'style':<9} {'attacks':>7} {'on dying':>8} {'standing free':>13}"
    print(head + "  wins (rounds)")
    totals: dict[str, Counter[str]] = {s: Counter() for s in STYLES}
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for name in names:
            for style in STYLES:
                jobs = [(name, style, args.seed + i) for i in range(fights)]
                rows = list(pool.map(_one, jobs))
                tally: Counter[str] = Counter()
                wins: Counter[str] = Counter()
                rounds = 0
                for r in rows:
                    tally.update(r["tally"])
                    wins[r["winner"] or "draw"] += 1
                    rounds += r["rounds"]
                totals[style].update(tally)
                won = ", ".join(f"{k} {v}" for k, v in sorted(wins.items()))
                print(
                    f"{name:<16} {style:<9} {tally['attacks']:>7} {tally['on_dying']:>8} "
                    f"{tally['on_dying_standing_free']:>13}  {won} ({rounds / len(rows):.1f})",
                    flush=True,
                )
    for style, t in totals.items():
        share = 100 * t["on_dying"] / max(1, t["attacks"])
        print(
            f"{'all':<16} {style:<9} {t['attacks']:>7} {t['on_dying']:>8} "
            f"{t['on_dying_standing_free']:>13}  ({share:.1f}% of monster attacks on the dying)"
        )
    print(f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
