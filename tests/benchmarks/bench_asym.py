"""Asymmetric play (issue 15, target 2): how often each monster player beats a fixed party.

For every bundled encounter with a party and monsters (`maps/encounters/*.yaml` but the
symmetric league maps `mirror`, `field` and `gate`), the party is played by one fixed policy
(`classic` by default: the tactical policy when issue 15 was filed) and the monsters by each
of a panel (`tactical`, `classic`, `naive`), the same seeds (SEED .. SEED + N - 1) for every
monster player, so a row differs only by who plays the monsters.

It prints one row per encounter: the monsters' wins out of N for each monster player, with a
95% Wilson interval, and whether the target holds there: `tactical` monsters win more often
than `classic` ones and at least as often as `naive` ones. A total row sums the encounters,
and the CPU seconds of the whole run close the table.

With `tactical` and `classic` both in the panel, a `paired` column compares them seed by seed
(the same seed is the same fight but for who plays the monsters): the seeds only tactical
monsters win, the seeds only classic ones win, and the two-sided sign test's p on those
(McNemar's exact test: whether tactical wins more often than classic beyond the noise of
which seeds fell which way). Seeds both win or both lose say nothing about the difference,
so this is sharper than comparing two Wilson intervals. `--discordant` prints those seeds
(to read the fights one side won and the other lost: `skirmish sim NAME --runs 1 --seed S
--policy monsters=... --log-dir D`). `--pair A,B` compares two other players of the panel
instead (a candidate configuration against `classic`: `--monsters tactical-shooters,classic
--pair tactical-shooters,classic`); `--seeds-out FILE` appends every fight's outcome, one
JSON line per encounter and player (the party, the first seed, the wins in seed order), so
runs over different seeds can be put together (seeds 1-100 and 101-200 are 200 seeds).

Run from the repository root:
    .venv/bin/python tests/benchmarks/bench_asym.py [--quick] [--fights N] [--jobs J]
        [--encounters default,fog,...] [--monsters tactical,classic,naive] [--party classic]
        [--discordant] [--pair A,B] [--seeds-out FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SEED = 1
LEAGUE_MAPS = frozenset({"mirror", "field", "gate"})
MONSTERS = ("tactical", "classic", "naive")
PAIR = ("tactical", "classic")
PARTY = "classic"
QUICK_FIGHTS = 2


def encounters() -> list[str]:
    """The bundled encounters with a party and monsters (the league's maps left out)."""
    folder = ROOT / "maps" / "encounters"
    return sorted(p.stem for p in folder.glob("*.yaml") if p.stem not in LEAGUE_MAPS)


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def outcomes(
    source: str, party: str, monsters: str, fights: int, jobs: int, seed: int
) -> list[bool]:
    """Whether the monsters won each of `fights` fights of `source` (seed `seed` + i)."""
    from ai.sim import Job, run_many

    work = [
        Job(source, i, seed + i, {"party": party, "monsters": monsters}, None, None)
        for i in range(fights)
    ]
    return [r.winner == "monsters" for r in run_many(work, jobs)]


def wins(source: str, party: str, monsters: str, fights: int, jobs: int, seed: int) -> int:
    """The monsters' wins in `fights` fights of `source` (seed `seed` + i)."""
    return sum(outcomes(source, party, monsters, fights, jobs, seed))


def paired(a: list[bool], b: list[bool]) -> tuple[int, int, float]:
    """(seeds only `a` won, seeds only `b` won, the two-sided exact sign test's p on them):
    McNemar's exact test of whether `a` and `b` win equally often on the same seeds."""
    only_a = sum(x and not y for x, y in zip(a, b, strict=True))
    only_b = sum(y and not x for x, y in zip(a, b, strict=True))
    n, k = only_a + only_b, min(only_a, only_b)
    if n == 0:
        return only_a, only_b, 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return only_a, only_b, min(1.0, 2 * tail)


def paired_cell(a: list[bool], b: list[bool]) -> str:
    """`+a/-b p=0.12`: the seeds only `a` won (tactical), only `b` won (classic), and the
    sign test's p."""
    only_a, only_b, p = paired(a, b)
    return f"+{only_a}/-{only_b} p={p:.2f}"


def pair_arg(text: str) -> tuple[str, str] | None:
    """`A,B` as the pair of players the paired column compares; None unless two names."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts) or parts[0] == parts[1]:
        return None
    return parts[0], parts[1]


def save_seeds(path: Path, name: str, party: str, seed: int, got: dict[str, list[bool]]) -> None:
    """Append one JSON line per monster player: the encounter, the party's player, the
    first seed and whether the monsters won each fight, in seed order."""
    with path.open("a", encoding="utf-8") as out:
        for m, won in got.items():
            line = {"encounter": name, "party": party, "monsters": m, "seed": seed, "won": won}
            out.write(json.dumps(line) + "\n")


def verdict(row: dict[str, int], panel: list[str]) -> str:
    """`ok` when tactical monsters beat classic's wins and match naive's, else what fails."""
    if "tactical" not in row:
        return ""
    bad = []
    if "classic" in panel and row["tactical"] <= row["classic"]:
        bad.append("<=classic")
    if "naive" in panel and row["tactical"] < row["naive"]:
        bad.append("<naive")
    return " ".join(bad) or "ok"


def cell(k: int, n: int) -> str:
    """`k/n pct% (lo-hi)`: wins out of n with the 95% Wilson interval, in percent."""
    from ai.sim import wilson

    lo, hi = wilson(k, n)
    pct = 100 * k / n if n else 0.0
    return f"{k}/{n} {pct:.0f}% ({100 * lo:.0f}-{100 * hi:.0f})"


WIDTH = 22


def table(
    rows: list[tuple[str, dict[str, int]]],
    panel: list[str],
    fights: int,
    seeds: dict[str, dict[str, list[bool]]] | None = None,
    pair_of: tuple[str, str] = PAIR,
) -> str:
    """The table; `seeds` (encounter -> monster player -> outcome per seed) adds the
    `paired` column when it has both players of `pair_of` (tactical's and classic's)."""
    a, b = pair_of
    pair = seeds is not None and {a, b} <= set(panel)
    head = f"{'encounter':<16}" + "".join(f"{m:>{WIDTH}}" for m in panel)
    label = "paired" if pair_of == PAIR else f"{a} vs {b}"
    head += f"{label:>{WIDTH}}" if pair else ""
    head += "  target"
    lines = [head, "-" * len(head)]
    every: dict[str, list[bool]] = {m: [] for m in panel}
    for name, row in rows:
        cells = "".join(f"{cell(row[m], fights):>{WIDTH}}" for m in panel)
        if pair and seeds is not None:
            got = seeds[name]
            cells += f"{paired_cell(got[a], got[b]):>{WIDTH}}"
            for m in panel:
                every[m] += got[m]
        lines.append(f"{name:<16}{cells}  {verdict(row, panel)}")
    n = fights * len(rows)
    total = "".join(f"{cell(sum(row[m] for _, row in rows), n):>{WIDTH}}" for m in panel)
    if pair:
        total += f"{paired_cell(every[a], every[b]):>{WIDTH}}"
    lines.append(f"{'total':<16}{total}")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help=f"{QUICK_FIGHTS} fights per row")
    ap.add_argument("--fights", type=int, default=None, help="seeds per encounter (200)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--encounters", default=None, help="comma list (default: all but the league's)")
    ap.add_argument("--monsters", default=",".join(MONSTERS), help="the monster players")
    ap.add_argument("--party", default=PARTY, help="the party's player (classic)")
    ap.add_argument("--json", action="store_true", help="also print the rows as JSON")
    ap.add_argument(
        "--discordant",
        action="store_true",
        help="print the seeds only tactical or only classic monsters win (or --pair's)",
    )
    ap.add_argument(
        "--pair",
        default=",".join(PAIR),
        help="the two monster players the paired column compares (tactical,classic)",
    )
    ap.add_argument("--seeds-out", default=None, help="append each fight's outcome (JSON lines)")
    args = ap.parse_args()
    pair_of = pair_arg(args.pair)
    if pair_of is None:
        ap.error(f"--pair wants two players, as A,B; got {args.pair!r}")
    fights = args.fights or (QUICK_FIGHTS if args.quick else 200)
    names = args.encounters.split(",") if args.encounters else encounters()
    panel = args.monsters.split(",")
    t0, wall = _cpu(), time.perf_counter()
    rows: list[tuple[str, dict[str, int]]] = []
    seeds: dict[str, dict[str, list[bool]]] = {}
    for name in names:
        got = {m: outcomes(name, args.party, m, fights, args.jobs, args.seed) for m in panel}
        seeds[name] = got
        row = {m: sum(v) for m, v in got.items()}
        rows.append((name, row))
        print(f"{name}: {row}", file=sys.stderr, flush=True)
        if args.seeds_out:
            save_seeds(Path(args.seeds_out), name, args.party, args.seed, got)
    print(
        f"asymmetric: the party played by {args.party}, monsters' wins over seeds "
        f"{args.seed}..{args.seed + fights - 1} (95% Wilson interval)"
    )
    print(table(rows, panel, fights, seeds, pair_of))
    a, b = pair_of
    if args.discordant and {a, b} <= set(panel):
        for name, got in seeds.items():
            pairs = list(zip(got[a], got[b], strict=True))
            tac = [args.seed + i for i, (x, y) in enumerate(pairs) if x and not y]
            cls = [args.seed + i for i, (x, y) in enumerate(pairs) if y and not x]
            print(f"{name}: only {a} wins seeds {tac}; only {b} wins seeds {cls}")
    print(f"CPU {_cpu() - t0:.1f}s, wall {time.perf_counter() - wall:.1f}s, jobs {args.jobs}")
    if args.json:
        print(json.dumps(dict(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
