"""The league bench (issue 15) runs in CI with --quick, and its rollout player is sound.

`tests/benchmarks/bench_league.py --quick` plays a few fights per pairing (the full league, 200
fights per pairing, is run by hand: docs/ai.md). The rollout player (`ai.rollout`) must be
deterministic for a fight and leave the real encounter untouched.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ai.driver import POLICIES, make_policy
from ai.rollout import RolloutPlanner, RolloutPolicy
from ai.sim import play
from engine.content.loader import load_encounter
from engine.encounter import Encounter
from tests.support.helpers import load_script

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests" / "benchmarks" / "bench_league.py"


def _run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--quick", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _rows(out: str) -> list[list[str]]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("---")) + 1
    return [line.split() for line in lines[start:] if line and not line.startswith("wall")]


def test_league_quick_prints_a_row_per_map_and_opponent() -> None:
    out = _run("--panel", "naive,classic,exposure-x2,exposure-x3")
    rows = _rows(out)
    assert [(r[0], r[1]) for r in rows] == [
        (m, o)
        for m in ("mirror", "field", "gate")
        for o in ("naive", "classic", "exposure-x2", "exposure-x3")
    ]
    for r in rows:
        wins, losses, draws, fights = int(r[2]), int(r[3]), int(r[4]), int(r[7])
        assert wins + losses + draws == fights == 2
        assert float(r[5].rstrip("%")) == pytest.approx(100 * wins / fights, abs=0.05)


@pytest.mark.slow
def test_league_quick_with_the_whole_panel() -> None:
    rows = _rows(_run())
    assert {r[1] for r in rows} == {"naive", "classic", "exposure-x2", "exposure-x3", "rollout"}
    assert len(rows) == 15


def test_league_pairing_alternates_sides() -> None:
    bench = load_script("benchmarks/bench_league.py")
    row = bench.pairing("mirror", "tactical", "naive", 2, 1, 7)
    assert row["wins"] + row["losses"] + row["draws"] == 2
    # Fight 0: tactical plays west; fight 1: east (the sim's own results say so).
    loaded = load_encounter("mirror")
    _, first = play(loaded, 7, {"west": "tactical", "east": "naive"})
    _, second = play(loaded, 8, {"west": "naive", "east": "tactical"})
    won = [r.policies.get(r.winner or "") == "tactical" for r in (first, second)]
    assert row["wins"] == sum(won)


def test_every_policy_name_builds_a_policy() -> None:
    assert "rollout" in POLICIES and "classic" in POLICIES
    for name in POLICIES:
        assert make_policy(name).name == name


def test_rollout_is_deterministic_and_leaves_the_fight_alone() -> None:
    """At the start of each turn of a `mirror` fight (both sides classic), two fresh rollout
    players choose alike and leave the encounter as it was; until one decision rolled out."""
    enc = Encounter.create(load_encounter("mirror"), seed=11)
    enc.start()
    players = {"west": make_policy("classic"), "east": make_policy("classic")}
    rolled = 0
    for _ in range(30):
        if enc.over or rolled:
            break
        c = enc.current
        assert c is not None
        records, snap = list(enc.records), enc.snapshot()
        picks = []
        for _ in range(2):
            policy = RolloutPolicy()
            choice = policy.next_action(enc)
            assert isinstance(policy.planner, RolloutPlanner)
            rolled = policy.planner.rollouts
            picks.append((choice.action, [o.end for o in policy.last_options[:3]]))
            assert enc.records == records and enc.snapshot() == snap
        assert picks[0] == picks[1]
        before = enc.battle.turn_counter
        while enc.battle.turn_counter == before and not enc.over:
            enc.apply(players[c.side].next_action(enc).action)
    assert rolled > 0
