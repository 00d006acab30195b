"""Speed of balancing (issue 14): every figure measured on this tree AND on a "before" commit in
the same run, printed side by side with the ratio.

What it prints (CPU time unless it says wall):
1. CPU per fight, both sides tactical: `default`, a 5 v 8 on a generated 40x40 map and a
   64-creature fight on 200x200 (round-capped in --quick). Target: after <= before / 4.
2. Decision time with EVERY decision counted: each `next_action` call of the tactical policy
   (first plans, replans, action points, plan steps), CPU ms, p50/p95/max on 40x40 and 100x100
   with 10 and 20 raiders; and the monsters' side turn p95 (policy + engine). Targets: p50 <= 1,
   p95 <= 5, max <= 15 ms; side turn p95 <= 30 ms on 40x40 with 20.
3. The gridless brawl (bundled `brawl`: 5 v 8 all in reach, naive both sides, full rules):
   creature-turns per CPU second. Target >= 40,000.
4. Attack resolutions/s: through `Encounter.apply` (legality included; target >= 60,000) and
   `engine.powers.resolve` alone (no legality).
5. `run_many` of `default` with --jobs 2 vs 1: wall time (extrapolated to 1,000 runs when
   fewer are played: target < 90 s) and CPU per fight per job count (scaling within 10%).
6. Peak RSS of a process that plays the 200x200 64-creature fight (target < 150 MB).

Every fight is created from an encounter loaded and warmed up once per process (`ai.sim.prewarm`),
as `skirmish sim` plays its fights, on both trees alike: the per-map memos are shared, not
rebuilt per fight.

"Before" is the tree of a git ref (default: the commit this branch started from), unpacked with
`git archive` into a temporary folder and run by this same script in a child process whose
imports come from that tree; the generated maps are written once and given to both sides.

Run from the repository root: `.venv/bin/python tests/benchmarks/bench_speed.py [--quick]
[--before REF | --no-before]`.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
START_REF = "8e725de"
"""The commit the speed work started from (main + redesign-ai merged, issue 14)."""
SEED = 20240611


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    if not s:
        return 0.0
    return s[min(len(s) - 1, max(0, round(q * len(s) + 0.5) - 1))]


# --- the child: measures one tree ---------------------------------------------------------
class _Policies(dict[str, Any]):
    """The policies of one fight by side; `clear()` also lets go of the encounter the fight's
    router holds (`_create`), which breaks the fight's only reference cycle."""

    def __init__(self, policies: dict[str, Any], holder: list[Any]) -> None:
        super().__init__(policies)
        self.holder = holder

    def clear(self) -> None:
        self.holder.clear()
        super().clear()


def _create(loaded: Any, seed: int, policy: str) -> tuple[Any, dict[str, Any]]:
    """A fight of `loaded` with every side played by a fresh `policy` (its questions answered
    by the side's policy), not yet started: (the encounter, the policies by side). The caller
    empties `policies` after the fight, which lets go of the router's encounter too, so a
    fight is freed at once as `ai.sim.play` frees it, not by the collector. (The router holds
    it strongly, as `ai.sim` does: a compiled `Encounter`, `bench_compiled.py`, can't be
    weakly referenced.)"""
    from ai.sim import make_policy
    from engine.encounter import Encounter

    sides = list(dict.fromkeys(c.side for c in loaded.spec.combatants))
    holder: list[Encounter] = []
    policies = _Policies({s: make_policy(policy) for s in sides}, holder)

    class Router:
        def answer(self, q: Any) -> Any:
            enc = holder[0]
            return policies[enc.battle[q.who].side].answer(enc, q)

    router = Router()
    enc = Encounter.create(
        loaded, seed=seed, deciders=lambda _cid: router, control={s: "ai" for s in sides}
    )
    holder.append(enc)
    return enc, policies


_LOADED: dict[str, Any] = {}


def _loaded(path: str) -> Any:
    """The encounter at `path`, loaded and warmed up once per process, as `skirmish sim` does
    (`ai.sim.run_many`: one load per encounter, `prewarm`, then every fight created from it),
    so that every fight shares the map and its memos (movement graph, line and threat tables)
    rather than paying for them again."""
    if path not in _LOADED:
        from ai.sim import prewarm
        from engine.content.loader import load_encounter

        _LOADED[path] = load_encounter(path)
        prewarm(_LOADED[path])
    return _LOADED[path]


def _fight(path: str, seed: int, max_rounds: int, naive: bool = False) -> dict[str, Any]:
    """Play one fight with our own loop (as `ai.sim.play` does), timing every policy call."""
    from engine.actions import EndTurn, Impossible

    loaded = _loaded(path)
    c0 = time.process_time()
    enc, policies = _create(loaded, seed, "naive" if naive else "tactical")
    for pol in policies.values():
        prepare = getattr(pol, "prepare", None)
        if prepare is not None:
            prepare(enc)
    enc.start()
    decisions: list[float] = []
    side_cpu: dict[tuple[int, str], float] = {}
    while not enc.over and enc.battle.round <= max_rounds:
        c = enc.current
        assert c is not None
        key = (enc.battle.round, c.side)
        mark = enc.battle.turn_counter
        for _ in range(24):
            if enc.over or enc.current is not c or enc.battle.turn_counter != mark:
                break
            t0 = time.process_time()
            choice = policies[c.side].next_action(enc)
            t1 = time.process_time()
            decisions.append((t1 - t0) * 1000)
            try:
                enc.apply(choice.action, choice.decision)
            except Impossible:
                enc.apply(EndTurn())
            side_cpu[key] = side_cpu.get(key, 0.0) + (time.process_time() - t0) * 1000
        else:
            if not enc.over and enc.current is c:
                enc.apply(EndTurn())
    turns, winner = enc.battle.turn_counter, enc.battle.winner
    policies.clear()  # (the policies' memos refer to the fight: see `_create`)
    del enc  # freed here, inside the time measured
    cpu = time.process_time() - c0
    monsters = [ms for (_, side), ms in side_cpu.items() if side == "monsters"]
    return {"cpu": cpu, "decisions": decisions, "side": monsters, "turns": turns, "winner": winner}


def _allow_big_maps() -> None:
    """Content refuses maps above 100x100 (engine.content.limits); the 200x200 measurement
    lifts that limit in this child process only, wherever a module copied it."""
    for mod in list(sys.modules.values()):
        for name, value in (("MAX_MAP_SIDE", 200), ("MAX_GRID_CHARS", 201 * 200 * 4)):
            if isinstance(getattr(mod, name, None), int):
                setattr(mod, name, value)


def child(args: argparse.Namespace) -> dict[str, Any]:
    import engine.content.loader
    from ai.distances import warm_lines

    warm_lines(20)
    maps = json.loads(args.maps)
    quick = args.quick
    import engine

    out: dict[str, Any] = {"tree": str(Path(str(engine.__file__)).parents[1])}
    part = args.part
    if part == "rss":
        _allow_big_maps()
        r = _fight(maps["200x200x64"], SEED, 3 if quick else 30)
        out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        out["fight_200"] = r["cpu"] * 1000
        out["rounds_capped"] = 3 if quick else 30
        return out
    if part == "fights":
        _fights(out, maps, quick)
    elif part == "decisions":
        _decisions(out, maps, quick)
    elif part == "brawl":
        _brawl(out, maps, quick)
    elif part == "attacks":
        _attacks(out, args.root, quick)
    elif part == "jobs":
        _jobs(out, args.sim_runs)
    return out


def _fights(out: dict[str, Any], maps: dict[str, str], quick: bool) -> None:
    for name, n in (("default", 3 if quick else 12), ("40x40x8", 3 if quick else 12)):
        _fight(maps[name], SEED - 1, 99)  # warm the per-map memos
        gc.collect()
        cpus = [_fight(maps[name], SEED + i, 99)["cpu"] * 1000 for i in range(n)]
        out[f"fight_{name}"] = statistics.mean(cpus)


def _decisions(out: dict[str, Any], maps: dict[str, str], quick: bool) -> None:
    for size in (40, 100):
        for monsters in (10, 20):
            name = f"{size}x{size}x{monsters}"
            _fight(maps[name], SEED - 1, 2)
            dec: list[float] = []
            side: list[float] = []
            for i in range(1 if quick else 3):
                gc.collect()
                r = _fight(maps[name], SEED + i, 4 if quick else 10)
                dec += r["decisions"]
                side += r["side"]
            out[f"dec_{name}"] = [
                len(dec),
                percentile(dec, 0.5),
                percentile(dec, 0.95),
                max(dec),
                percentile(side, 0.95),
            ]


def _brawl_fight(loaded: Any, seed: int) -> tuple[int, float]:
    """One brawl with no per-action timers (`_fight` reads the clock three times an action,
    a few microseconds each: 5-15% of a brawl turn): (creature-turns, CPU seconds)."""
    from engine.actions import EndTurn, Impossible

    c0 = time.process_time()
    enc, policies = _create(loaded, seed, "naive")
    enc.start()
    while not enc.over and enc.battle.round <= 99:
        c = enc.current
        assert c is not None
        mark = enc.battle.turn_counter
        for _ in range(24):
            if enc.over or enc.current is not c or enc.battle.turn_counter != mark:
                break
            choice = policies[c.side].next_action(enc)
            try:
                enc.apply(choice.action, choice.decision)
            except Impossible:
                enc.apply(EndTurn())
        else:
            if not enc.over and enc.current is c:
                enc.apply(EndTurn())
    turns = enc.battle.turn_counter
    policies.clear()  # (see `_create`)
    del enc  # freed here, inside the time measured
    return turns, time.process_time() - c0


def _brawl(out: dict[str, Any], maps: dict[str, str], quick: bool) -> None:
    """Creature-turns per CPU second of the fights themselves: the encounter is loaded once
    (as `skirmish sim` does), every fight is created, started and played to its end."""
    loaded = _loaded(maps["brawl"])
    _brawl_fight(loaded, SEED - 1)
    turns, cpu = 0, 0.0
    for i in range(20 if quick else 200):
        t, c = _brawl_fight(loaded, SEED + i)
        turns += t
        cpu += c
    out["brawl"] = turns / cpu


def _attacks(out: dict[str, Any], root: str, quick: bool) -> None:
    import importlib.util

    sys.path.insert(0, str(Path(root) / "tests"))
    spec = importlib.util.spec_from_file_location(
        "bench_attack", Path(root) / "tests" / "benchmarks" / "bench_attack.py"
    )
    assert spec is not None and spec.loader is not None
    ba = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ba)

    n, rep = (3000, 3) if quick else (30_000, 3)
    out["attack_apply"] = ba.measure(ba.through_apply(ba.arena()), n, rep)
    out["attack_resolve"] = ba.measure(ba.resolution_only(ba.arena()), n, rep)


def _jobs(out: dict[str, Any], runs: int) -> None:
    from ai.sim import Job, run_many

    jobs = [Job("default", i, SEED + i, {}, None, None) for i in range(runs)]
    run_many(jobs[:10], 1)
    for workers in (1, 2):
        r0 = resource.getrusage(resource.RUSAGE_SELF).ru_utime
        k0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        t0 = time.perf_counter()
        run_many(jobs, workers)
        wall = time.perf_counter() - t0
        used = resource.getrusage(resource.RUSAGE_SELF).ru_utime - r0
        used += resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - k0
        out[f"jobs{workers}"] = [wall, used / runs * 1000]


# --- the parent: writes the maps, runs both trees, prints ---------------------------------
def write_maps(tmp: Path) -> dict[str, str]:
    sys.path.insert(0, str(ROOT))
    from tests.benchmarks.bench_ai import encounter

    rng = random.Random(SEED)
    maps = {
        "default": str(ROOT / "maps" / "encounters" / "default.yaml"),
        "brawl": str(ROOT / "maps" / "encounters" / "brawl.yaml"),
        "40x40x8": str(encounter(tmp, 40, 8, rng, 12)),
        "200x200x64": str(encounter(tmp, 200, 59, rng, 40)),
    }
    for size, gap in ((40, 12), (100, 24)):
        for monsters in (10, 20):
            maps[f"{size}x{size}x{monsters}"] = str(encounter(tmp, size, monsters, rng, gap))
    return maps


PARTS = ("fights", "decisions", "brawl", "attacks", "jobs", "rss")


def run_part(
    tree: Path, part: str, maps: dict[str, str], args: argparse.Namespace
) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--root", str(tree)]
    cmd += ["--part", part, "--maps", json.dumps(maps), "--sim-runs", str(args.sim_runs)]
    if args.quick:
        cmd.append("--quick")
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bench_speed: the child on {tree} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def run_trees(
    trees: list[Path], maps: dict[str, str], args: argparse.Namespace
) -> list[dict[str, Any]]:
    """Each part on every tree in turn, the order alternating from part to part (and from
    round to round), so that a change in the machine's load falls on both sides alike. With
    `--rounds N` every part is measured N times on each tree and each number is the median
    of its N readings (a shared machine's load comes and goes)."""
    readings: list[dict[str, list[Any]]] = [{} for _ in trees]
    i = 0
    for _ in range(max(1, args.rounds)):
        for part in (p for p in PARTS if p in args.parts.split(",")):
            order = list(range(len(trees)))
            if i % 2:
                order.reverse()
            i += 1
            for k in order:
                for key, value in run_part(trees[k], part, maps, args).items():
                    readings[k].setdefault(key, []).append(value)
    return [{key: _median(values) for key, values in r.items()} for r in readings]


def _median(values: list[Any]) -> Any:
    """The median reading (of numbers, or of lists of numbers element by element); the first
    for anything else."""
    first = values[0]
    if isinstance(first, (int, float)) and not isinstance(first, bool):
        return statistics.median(values)
    if isinstance(first, list) and all(isinstance(v, (int, float)) for v in first):
        return [statistics.median(col) for col in zip(*values, strict=True)]
    return first


def unpack(ref: str, into: Path) -> Path:
    tree = into / "before"
    tree.mkdir()
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree


def report(now: dict[str, Any], before: dict[str, Any] | None, sim_runs: int) -> None:
    """Print what was measured (the parts not run are left out)."""

    def row(label: str, key: str, fmt: str, better_low: bool) -> None:
        if key not in now:
            return
        a = now[key]
        line = f"{label:<52} {format(a, fmt):>10}"
        if before is not None and key in before:
            b = before[key]
            ratio = (b / a if better_low else a / b) if a and b else 0.0
            line += f"  before {format(b, fmt):>10}  {ratio:5.2f}x faster"
        print(line)

    trees = [("after", now)] + ([("before", before)] if before is not None else [])
    print(f"-- after: {now['tree']}" + (f"; before: {before['tree']}" if before else ""))
    if "fight_default" in now or "fight_200" in now:
        print("1. CPU per fight, both sides tactical")
    row("   default (5 v 9 on 30x20), ms", "fight_default", ".1f", True)
    row("   5 v 8 on 40x40, ms", "fight_40x40x8", ".1f", True)
    cap = now.get("rounds_capped", "?")
    row(f"   64 creatures on 200x200 ({cap} rounds cap), ms", "fight_200", ".0f", True)
    if "dec_40x40x10" in now:
        _report_decisions(trees)
    if "brawl" in now or "attack_apply" in now:
        print("3-4. rules core")
    row("   brawl (5 v 8, naive), creature-turns per CPU s", "brawl", ",.0f", False)
    row("   attacks/s through Encounter.apply (legality)", "attack_apply", ",.0f", False)
    row("   attacks/s through powers.resolve (no legality)", "attack_resolve", ",.0f", False)
    if "jobs1" in now:
        _report_jobs(trees, sim_runs)
    if "rss_mb" in now:
        print("6. memory")
    row("   peak RSS playing the 200x200 64-creature fight, MB", "rss_mb", ".0f", True)
    print(f"   (load average now {os.getloadavg()[0]:.1f}: the machine is shared)")


def _report_decisions(trees: list[tuple[str, dict[str, Any]]]) -> None:
    print(
        "2. every decision counted (CPU ms; targets p50 <= 1, p95 <= 5, max <= 15): n, p50,"
        " p95, max; monsters' side turn p95 (target <= 30 on 40x40 with 20)"
    )
    for size in (40, 100):
        for m in (10, 20):
            key = f"dec_{size}x{size}x{m}"
            for label, tree in trees:
                n, p50, p95, mx, side = tree[key]
                print(
                    f"   {size}x{size} {m:>2} raiders {label:<6}: {n:>5} decisions p50 {p50:5.2f}"
                    f" p95 {p95:6.2f} max {mx:7.2f}; side turn p95 {side:6.1f}"
                )


def _report_jobs(trees: list[tuple[str, dict[str, Any]]], sim_runs: int) -> None:
    print(
        f"5. run_many, {sim_runs} default fights (targets: 1,000 with --jobs 2 < 90 s wall on an"
        " idle machine; CPU per fight with jobs 2 within 10% of jobs 1)"
    )
    for label, tree in trees:
        (w1, c1), (w2, c2) = tree["jobs1"], tree["jobs2"]
        print(
            f"   {label:<6}: jobs 1 {w1:6.1f} s wall ({c1:5.0f} ms CPU/fight), jobs 2 {w2:6.1f} s"
            f" wall ({c2:5.0f} ms CPU/fight); CPU per fight jobs 2 / jobs 1 = {c2 / c1:4.2f};"
            f" wall speed-up {w1 / w2:4.2f}x; 1,000 runs with --jobs 2 ~"
            f" {w2 * 1000 / sim_runs:5.0f} s"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="few fights (for CI)")
    ap.add_argument("--before", default=START_REF, help="git ref to compare with")
    ap.add_argument("--no-before", action="store_true", help="measure this tree only")
    ap.add_argument("--sim-runs", type=int, default=None, help="fights for run_many")
    ap.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="measure each part this many times per tree, alternating; print the medians",
    )
    ap.add_argument(
        "--parts",
        default=",".join(PARTS),
        help=f"which measurements, comma-separated (default: all of {','.join(PARTS)})",
    )
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--root", default=str(ROOT), help=argparse.SUPPRESS)
    ap.add_argument("--part", default="main", help=argparse.SUPPRESS)
    ap.add_argument("--maps", default="{}", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.sim_runs is None:
        args.sim_runs = 20 if args.quick else 200
    if args.child:
        sys.path.insert(0, args.root)
        print(json.dumps(child(args)))
        return
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        maps = write_maps(Path(tmp))
        trees = [ROOT] if args.no_before else [ROOT, unpack(args.before, Path(tmp))]
        results = run_trees(trees, maps, args)
        now = results[0]
        before = results[1] if len(results) > 1 else None
    report(now, before, args.sim_runs)
    print(f"(bench_speed took {time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
