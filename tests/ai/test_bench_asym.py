"""The asymmetric bench (issue 15, target 2) runs in CI at a tiny size and counts truly.

`tests/benchmarks/bench_asym.py` plays every bundled encounter with the party fixed and the
monsters played by each of a panel; the full run (200 seeds) is by hand (docs/ai.md).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ai.sim import play
from engine.content.loader import load_encounter
from tests.support.helpers import load_script

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests" / "benchmarks" / "bench_asym.py"


def test_the_bench_plays_every_bundled_encounter_but_the_league_maps() -> None:
    bench = load_script("benchmarks/bench_asym.py")
    names = bench.encounters()
    assert {"default", "ambush", "fog", "brawl", "keep-d20"} <= set(names)
    assert not {"mirror", "field", "gate"} & set(names)


def test_wins_are_the_monsters_wins_over_the_same_seeds() -> None:
    bench = load_script("benchmarks/bench_asym.py")
    got = bench.wins("default", "classic", "naive", 2, 1, 5)
    loaded = load_encounter("default")
    want = 0
    for seed in (5, 6):
        _, r = play(loaded, seed, {"party": "classic", "monsters": "naive"})
        want += r.winner == "monsters"
    assert got == want


def test_the_verdict_wants_more_than_classic_and_no_less_than_naive() -> None:
    bench = load_script("benchmarks/bench_asym.py")
    panel = ["tactical", "classic", "naive"]
    assert bench.verdict({"tactical": 5, "classic": 4, "naive": 5}, panel) == "ok"
    assert bench.verdict({"tactical": 4, "classic": 4, "naive": 0}, panel) == "<=classic"
    assert bench.verdict({"tactical": 5, "classic": 1, "naive": 6}, panel) == "<naive"


def test_paired_counts_the_seeds_only_one_side_wins_and_tests_them_by_sign() -> None:
    """The paired comparison (McNemar's exact test): seeds both win or both lose say nothing
    about the difference; ten seeds one way and none the other is p = 2 / 2**10."""
    bench = load_script("benchmarks/bench_asym.py")
    assert bench.paired([True, True, False, False], [False, True, False, True]) == (1, 1, 1.0)
    assert bench.paired([True] * 10, [False] * 10) == (10, 0, 2 / 2**10)
    only_a, only_b, p = bench.paired([True] * 14 + [False] * 12, [False] * 14 + [True] * 12)
    assert (only_a, only_b) == (14, 12) and 0.8 < p < 0.9  # 14 against 12: noise
    assert bench.paired([False, True], [False, True]) == (0, 0, 1.0)
    assert bench.paired_cell([True] * 10, [False] * 10) == "+10/-0 p=0.00"


def test_the_quick_table_has_a_row_per_encounter_and_a_total() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--fights", "1", "--encounters", "default,fog"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("---")) + 1
    rows = [line.split()[0] for line in lines[start:] if line and not line.startswith("CPU")]
    assert rows == ["default", "fog", "total"]
    assert "tactical" in lines[start - 2] and "naive" in lines[start - 2]
    assert "paired" in lines[start - 2]  # tactical and classic both in the panel


def test_the_paired_column_compares_the_pair_asked_for() -> None:
    """`--pair A,B`: a candidate configuration against `classic`, seed by seed; the column
    is named by the pair, and the total pairs every encounter's seeds."""
    bench = load_script("benchmarks/bench_asym.py")
    assert bench.pair_arg("tactical-shooters,classic") == ("tactical-shooters", "classic")
    assert bench.pair_arg("tactical") is None and bench.pair_arg("a,a") is None
    assert bench.pair_arg("a,,b") is None
    panel = ["tactical-shooters", "classic"]
    rows = [("fog", {"tactical-shooters": 2, "classic": 1})]
    seeds = {"fog": {"tactical-shooters": [True, True, False], "classic": [False, True, False]}}
    text = bench.table(rows, panel, 3, seeds, ("tactical-shooters", "classic"))
    head, _, fog, total = text.splitlines()
    assert "tactical-shooters vs classic" in head
    assert fog.split()[-1] == "p=1.00" and "+1/-0" in fog and "+1/-0" in total


def test_seeds_out_keeps_every_fight_for_later_runs_to_join(tmp_path: Path) -> None:
    """`--seeds-out FILE`: one JSON line per encounter and player, the wins in seed order,
    the same outcomes the table counts (so seeds 1-100 and 101-200 make 200 seeds)."""
    import json

    out = tmp_path / "seeds.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH),
            "--fights",
            "2",
            "--seed",
            "5",
            "--encounters",
            "default",
            "--monsters",
            "naive,classic",
            "--pair",
            "naive,classic",
            "--seeds-out",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(x["monsters"], x["seed"], x["party"]) for x in lines] == [
        ("naive", 5, "classic"),
        ("classic", 5, "classic"),
    ]
    bench = load_script("benchmarks/bench_asym.py")
    assert lines[0]["won"] == bench.outcomes("default", "classic", "naive", 2, 1, 5)
    assert "naive vs classic" in done.stdout
