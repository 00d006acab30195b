"""The monster AI league (issue 15): the `tactical` configuration against a panel of players.

Each pairing plays N fights (default 200) of one symmetric map with the two warbands played by
`tactical` and by the opponent, sides swapped on every other fight (so initiative and any
leftover asymmetry cancel out), fight i with seed SEED + i. Maps: `mirror` (a ruin with
cover), `field` (open ground) and `gate` (two halls joined by a two-square gate). The panel:

- `naive`: walk to the nearest enemy, basic attack (the baseline);
- `classic`: the tactical weights when issue 15 was filed (a fixed reference);
- `exposure-x2`, `exposure-x3`: classic weighing its end-square exposure 2 and 3 times;
- `rollout`: one-round rollouts of classic's best few options (`ai.rollout`; slow).

It prints one row per map and opponent: tactical's wins/losses/draws, its win rate with a 95%
Wilson interval, the fights and the CPU seconds they took (this process and its workers).
The target: a win rate of at least 60% in every row.

`--check-classic REF` instead checks that `classic` here chooses exactly as the `tactical`
policy of git ref REF did (the commit where `classic` was named): both sides play N fights of
`mirror` (seed SEED + i), REF's tree is unpacked with `git archive` and run by this script in
a child process, and every fight's applied actions and dice must be the same.

Run from the repository root:
    .venv/bin/python tests/benchmarks/bench_league.py [--quick] [--fights N] [--jobs J]
        [--maps mirror,field,gate] [--panel naive,classic,...] [--check-classic REF]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path and "--child" not in sys.argv:
    sys.path.insert(0, str(ROOT))

SEED = 15000
MAPS = ("mirror", "field", "gate")
PANEL = ("naive", "classic", "exposure-x2", "exposure-x3", "rollout")
PLAYER = "tactical"
QUICK_FIGHTS = 2
TARGET = 0.60


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def pairing(
    source: str, player: str, opponent: str, fights: int, jobs: int, seed: int
) -> dict[str, float | int | str]:
    """`fights` fights of `player` against `opponent` on `source`, sides alternated."""
    from ai.sim import Job, run_many, wilson

    sides = ("west", "east")
    work = []
    for i in range(fights):
        a, b = (player, opponent) if i % 2 == 0 else (opponent, player)
        work.append(Job(source, i, seed + i, {sides[0]: a, sides[1]: b}, None, None))
    t0 = _cpu()
    results = run_many(work, jobs)
    cpu = _cpu() - t0
    wins = losses = draws = 0
    rounds = 0
    for r in results:
        rounds += r.rounds
        if r.winner is None:
            draws += 1
        elif r.policies.get(r.winner) == player:
            wins += 1
        else:
            losses += 1
    lo, hi = wilson(wins, fights)
    return {
        "map": source,
        "opponent": opponent,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "fights": fights,
        "rate": wins / fights if fights else 0.0,
        "lo": lo,
        "hi": hi,
        "rounds": rounds / fights if fights else 0.0,
        "cpu": cpu,
    }


def table(rows: list[dict[str, float | int | str]], player: str) -> str:
    head = (
        f"{'map':<8} {'opponent':<12} {'W':>4} {'L':>4} {'D':>4} {'win%':>6} "
        f"{'95% CI':>13} {'fights':>6} {'rounds':>6} {'CPU s':>7}  target"
    )
    lines = [f"league: {player} vs the panel (sides alternated)", head, "-" * len(head)]
    for r in rows:
        ok = "ok" if float(r["rate"]) >= TARGET else "BELOW"
        ci = f"{100 * float(r['lo']):.0f}-{100 * float(r['hi']):.0f}%"
        lines.append(
            f"{r['map']!s:<8} {r['opponent']!s:<12} {r['wins']:>4} {r['losses']:>4} "
            f"{r['draws']:>4} {100 * float(r['rate']):>5.1f}% {ci:>13} {r['fights']:>6} "
            f"{float(r['rounds']):>6.1f} {float(r['cpu']):>7.1f}  {ok}"
        )
    return "\n".join(lines)


# --- classic == the tactical policy of a ref ------------------------------------------------
def digests(policy: str, fights: int, seed: int) -> list[str]:
    """Per fight of `mirror` with `policy` on both sides: a digest of every applied action
    and the dice it used (the decision texts, which name the policy, left out)."""
    from ai.sim import play
    from engine.content.loader import load_encounter

    loaded = load_encounter("mirror")
    out = []
    for i in range(fights):
        enc, _ = play(loaded, seed + i, {"west": policy, "east": policy})
        h = hashlib.sha256()
        for rec in enc.records:
            h.update(repr((rec.action, rec.faces, rec.answers)).encode())
        out.append(h.hexdigest()[:16])
    return out


def check_classic(ref: str, fights: int, seed: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "ref"
        tree.mkdir()
        archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
        env = dict(os.environ, PYTHONPATH=str(tree))
        cmd = [sys.executable, str(Path(__file__).resolve()), "--child", PLAYER]
        cmd += ["--fights", str(fights), "--seed", str(seed)]
        done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"bench_league: the child on {ref} failed:\n{done.stderr[-3000:]}")
        theirs = json.loads(done.stdout.strip().splitlines()[-1])
    ours = digests("classic", fights, seed)
    same = sum(a == b for a, b in zip(ours, theirs, strict=True))
    print(
        f"classic here vs {PLAYER} at {ref}: {same}/{fights} mirror fights identical "
        f"(seeds {seed}..{seed + fights - 1}, every action and die compared)"
    )
    return 0 if same == fights else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help=f"{QUICK_FIGHTS} fights per pairing")
    ap.add_argument("--fights", type=int, default=None, help="fights per pairing (200)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--maps", default=",".join(MAPS))
    ap.add_argument("--panel", default=",".join(PANEL))
    ap.add_argument("--player", default=PLAYER)
    ap.add_argument("--json", action="store_true", help="also print the rows as JSON")
    ap.add_argument("--check-classic", metavar="REF", default=None)
    ap.add_argument("--child", metavar="POLICY", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    fights = args.fights or (QUICK_FIGHTS if args.quick else 200)
    if args.child:
        print(json.dumps(digests(args.child, fights, args.seed)))
        return 0
    if args.check_classic:
        return check_classic(args.check_classic, fights, args.seed)
    rows = []
    t0 = time.perf_counter()
    for source in args.maps.split(","):
        for opponent in args.panel.split(","):
            rows.append(pairing(source, args.player, opponent, fights, args.jobs, args.seed))
            print(table(rows[-1:], args.player).splitlines()[-1], file=sys.stderr, flush=True)
    print(table(rows, args.player))
    print(f"wall {time.perf_counter() - t0:.1f}s, jobs {args.jobs}")
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
