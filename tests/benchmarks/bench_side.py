"""Where one side's turn goes, and how much of it repeats across the side's creatures (issue 14,
target 2: a 20-monster side turn on 40x40 at p95 <= 30 ms).

    python tests/benchmarks/bench_side.py [--quick] [--size 40] [--monsters 20] [--fights 3]
        [--rounds 2]

Plays `--fights` fights (both sides tactical, after a warm one) on the generated map
`bench_ai.encounter` writes (`bench_speed` measures the same maps), and over the monsters'
side turns of rounds 1..`--rounds` (the largest: every monster still standing) prints:

- the side turns' CPU (mean, max), and the shares of the policy, the engine's `apply` and the
  cyclic collector in them;
- the policy's time by stage (inclusive, timed around each call; stages nest: the attack
  search holds far squares and posts, the moves with no attack hold approach terms and square
  values), so the stages don't add up to 100%;
- what repeats across the decisions: square values asked again for a square in the same
  enemy state (what a side-level table of exposure would serve) with the time those repeats
  took, and route searches whose inputs (start, budget, enemies' and others' squares,
  threatened squares and their costs) a search earlier in the fight already had.

The stage timers cost a little (a few percent) and fall on every stage alike. Numbers only:
nothing here is asserted (tests/ai/test_bench_side.py runs it small).

`--valgrind` counts instructions instead (load-independent): the same fights run under
callgrind, collecting only inside the monsters' `next_action` calls of rounds 1..`--rounds`
(each made through `functools.reduce`, which nothing in `ai/` or `engine/` calls:
`--toggle-collect=functools_reduce`), or with `--stage module.name[,...]` only inside those
functions (each as that module binds it, e.g. `ai.moving.stayers`, `ai.planner.Context`;
stages must not nest) during those decisions. It prints the total and a digest of the
decisions (creature and action, in order): two trees that decide alike print the same one.
Another tree is measured by running this file with `--root TREE`.
"""

from __future__ import annotations

import argparse
import functools
import gc
import hashlib
import random
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # the checkout: tests.support (--root comes first later)
from tests.support.callgrind import count  # noqa: E402

TREE = [str(ROOT)]
"""The tree whose code runs (`--root`)."""
SEED = 20240611

STAGES = (
    ("ai.planner", "attack_plans", "attack search (attack_plans)"),
    ("ai.planner", "moving_options", "moves with no attack"),
    ("ai.turn", "routes_for", "first leg's routes (routes_for)"),
    ("ai.planner", "second_move", "second leg (second_move)"),
    ("ai.moving", "approach_terms", "approach terms"),
    ("ai.scoring", "square_value", "square values"),
    ("ai.scoring", "facts_of", "facts"),
    ("ai.planner", "reckon_two_moves", "two moves' opportunity attacks"),
    ("ai.position", "prepare_foes", "foes as square_value reads them"),
)
METHODS = (
    ("ai.scoring", "Context", "__init__", "context (facts, OA estimates, dangers)"),
    ("ai.scoring", "Context", "quick_attack", "opportunity attack estimates"),
    ("ai.scoring", "Context", "_danger", "enemies' dangers (per side and round)"),
)


class Probe:
    """Timers around the stages, switched on only inside a monster's decision we count."""

    def __init__(self) -> None:
        self.on = False
        self.time: dict[str, float] = defaultdict(float)
        self.values: Counter[str] = Counter()
        self.seen_values: set[tuple[object, ...]] = set()
        self.seen_routes: set[tuple[object, ...]] = set()

    def timed(self, fn: Callable[..., Any], label: str) -> Callable[..., Any]:
        def run(*args: Any, **kw: Any) -> Any:
            if not self.on:
                return fn(*args, **kw)
            t0 = time.process_time()
            try:
                return fn(*args, **kw)
            finally:
                self.time[label] += time.process_time() - t0

        return run

    def square_value(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(ctx: Any, sq: tuple[int, int]) -> Any:
            if not self.on:
                return fn(ctx, sq)
            f = ctx.f
            state = tuple((e.id, e.pos, e.hp, e.temp_hp) for e in f.enemies)
            key = (f.b.round, f.me.size, state, sq)
            t0 = time.process_time()
            out = fn(ctx, sq)
            spent = time.process_time() - t0
            self.time["square values"] += spent
            self.values["calls"] += 1
            if key in self.seen_values:
                self.values["repeats"] += 1
                self.time["square values asked again"] += spent
            self.seen_values.add(key)
            return out

        return run

    def kept_routes(self, fn: Callable[..., Any], threat_near: Callable[..., bool]) -> Any:
        def run(
            mg: Any, start: Any, budget: int, blocked: Any, occupied: Any, tm: Any, oa: Any
        ) -> Any:
            if self.on:
                near = threat_near(tm, start, budget)
                key: tuple[object, ...] = (start, budget, blocked, occupied)
                if near:
                    key += (tuple(tm.items()), tuple(oa))
                self.values["searches"] += 1
                if key in self.seen_routes:
                    self.values["searches seen before"] += 1
                self.seen_routes.add(key)
            return fn(mg, start, budget, blocked, occupied, tm, oa)

        return run


@contextmanager
def probed(probe: Probe) -> Iterator[None]:
    """The stage timers in place (each module's own binding of the function), then undone."""
    import importlib

    import ai.moving
    import ai.routes
    import ai.squares

    undo: list[tuple[Any, str, Any]] = []

    def swap(owner: Any, name: str, new: Any) -> None:
        undo.append((owner, name, getattr(owner, name)))
        setattr(owner, name, new)

    for mod, name, label in STAGES:
        m = importlib.import_module(mod)
        if name == "square_value":
            swap(m, name, probe.square_value(getattr(m, name)))
        else:
            swap(m, name, probe.timed(getattr(m, name), label))
    for mod, cls, name, label in METHODS:
        owner = getattr(importlib.import_module(mod), cls)
        swap(owner, name, probe.timed(getattr(owner, name), label))
    for m in (ai.moving, ai.squares):
        swap(m, "kept_routes", probe.kept_routes(m.kept_routes, ai.routes.threat_near))
    try:
        yield
    finally:
        for owner, name, old in reversed(undo):
            setattr(owner, name, old)


def play(path: Path, seeds: list[int], rounds: int, probe: Probe | None) -> dict[str, Any]:
    """Play the fights; per monsters' side turn of rounds 1..`rounds`: CPU of the policy, of
    `apply` and of the collector in it."""
    if str(ROOT) not in sys.path and TREE[0] not in sys.path:
        sys.path.insert(0, TREE[0])
    from engine.actions import EndTurn, Impossible
    from tests.benchmarks.bench_speed import _create, _loaded

    turns: dict[tuple[int, int], list[float]] = {}
    collecting: list[float] = [0.0, 0.0]
    where: list[tuple[int, int] | None] = [None]

    def collector(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting[0] = time.process_time()
        elif where[0] is not None:
            turns[where[0]][2] += time.process_time() - collecting[0]

    gc.callbacks.append(collector)
    try:
        for i, seed in enumerate(seeds):
            gc.collect()
            enc, policies = _create(_loaded(str(path)), seed, "tactical")
            enc.start()
            while not enc.over and enc.battle.round <= rounds:
                c = enc.current
                assert c is not None
                key = (i, enc.battle.round)
                count = c.side == "monsters" and probe is not None
                row = turns.setdefault(key, [0.0, 0.0, 0.0, 0.0]) if count else None
                mark = enc.battle.turn_counter
                for _ in range(24):
                    if enc.over or enc.current is not c or enc.battle.turn_counter != mark:
                        break
                    where[0] = key if count else None
                    if probe is not None:
                        probe.on = count
                    t0 = time.process_time()
                    choice = policies[c.side].next_action(enc)
                    t1 = time.process_time()
                    if probe is not None:
                        probe.on = False
                    try:
                        enc.apply(choice.action, choice.decision)
                    except Impossible:
                        enc.apply(EndTurn())
                    where[0] = None
                    if row is not None:
                        row[0] += t1 - t0
                        row[1] += time.process_time() - t1
                else:
                    if not enc.over and enc.current is c:
                        enc.apply(EndTurn())
                if row is not None:
                    row[3] += 1
            policies.clear()
            del enc
    finally:
        gc.callbacks.remove(collector)
    return {"turns": turns}


def _reduced(fn: Callable[[], Any]) -> Any:
    """`fn()`, called through `functools.reduce` (callgrind's toggle, `--valgrind`)."""
    return cast(Any, functools.reduce)(lambda _a, _b: fn(), (0, 1))


def play_counted(path: Path, seeds: list[int], rounds: int, stages: list[str]) -> str:
    """The fights, with the monsters' decisions of rounds 1..`rounds` (or, with `stages`,
    those functions inside them) called through `functools.reduce` for callgrind's toggle;
    the digest of every decision made."""
    import importlib

    from engine.actions import EndTurn, Impossible
    from tests.benchmarks.bench_speed import _create, _loaded

    counting = [False]

    def through_reduce(fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kw: Any) -> Any:
            if not counting[0]:
                return fn(*args, **kw)
            return _reduced(functools.partial(fn, *args, **kw))

        return run

    for spec in stages:
        mod, name = spec.rsplit(".", 1)
        owner = importlib.import_module(mod)
        setattr(owner, name, through_reduce(getattr(owner, name)))
    made: list[tuple[str, str]] = []
    for seed in seeds:
        enc, policies = _create(_loaded(str(path)), seed, "tactical")
        enc.start()
        while not enc.over and enc.battle.round <= rounds:
            c = enc.current
            assert c is not None
            count = c.side == "monsters"
            mark = enc.battle.turn_counter
            for _ in range(24):
                if enc.over or enc.current is not c or enc.battle.turn_counter != mark:
                    break
                decide = functools.partial(policies[c.side].next_action, enc)
                if count and not stages:
                    choice = _reduced(decide)
                else:
                    counting[0] = count
                    choice = decide()
                    counting[0] = False
                made.append((c.id, repr(choice.action)))
                try:
                    enc.apply(choice.action, choice.decision)
                except Impossible:
                    enc.apply(EndTurn())
            else:
                if not enc.over and enc.current is c:
                    enc.apply(EndTurn())
        policies.clear()
        del enc
    return f"{len(made)} decisions, digest {hashlib.sha256(repr(made).encode()).hexdigest()[:16]}"


def instructions(args: argparse.Namespace) -> None:
    """This script again under callgrind (`--counted`), and its count."""
    total, stdout = count(
        [
            sys.executable,
            __file__,
            "--counted",
            *("--root", args.root, "--size", str(args.size), "--monsters", str(args.monsters)),
            *("--fights", str(args.fights), "--rounds", str(args.rounds)),
            *(("--stage", args.stage) if args.stage else ()),
        ],
        toggle="functools_reduce",
    )
    what = f"inside {args.stage}" if args.stage else "in the monsters' decisions"
    print(
        f"{args.size}x{args.size} with {args.monsters} raiders, {args.fights} fights, rounds"
        f" 1-{args.rounds}: {total / 1e6:.1f}M instructions {what};"
        f" {stdout.strip().splitlines()[-1]}"
    )


def report(label: str, turns: dict[tuple[int, int], list[float]], probe: Probe) -> None:
    rows = [r for r in turns.values() if r[3]]
    if not rows:
        print(f"{label}: no side turn to count")
        return
    totals = [r[0] + r[1] for r in rows]
    policy = sum(r[0] for r in rows)
    whole = sum(totals)
    creatures = int(sum(r[3] for r in rows))
    print(f"{label}: {len(rows)} monsters' side turns, {creatures} creature turns")
    print(
        f"  side turn CPU: mean {1000 * whole / len(rows):.1f} ms, max {1000 * max(totals):.1f}"
        f" ms; {1000 * whole / creatures:.2f} ms a creature turn; policy"
        f" {100 * policy / whole:.0f}%, apply {100 * sum(r[1] for r in rows) / whole:.0f}%,"
        f" collector {100 * sum(r[2] for r in rows) / whole:.0f}% (inside both)"
    )
    print("  policy time by stage (inclusive, nested; % of the policy's):")
    for name, spent in sorted(probe.time.items(), key=lambda kv: -kv[1]):
        if name != "square values asked again":
            print(f"    {name:40s} {1000 * spent:8.1f} ms {100 * spent / policy:5.1f}%")
    v = probe.values
    again = probe.time["square values asked again"]
    print(
        f"  repeated: square values asked again in the same enemy state {v['repeats']} of"
        f" {v['calls']} calls, {1000 * again:.1f} ms ({100 * again / policy:.1f}% of the"
        f" policy); route searches seen before in the fight {v['searches seen before']} of"
        f" {v['searches']}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="one fight")
    ap.add_argument("--size", type=int, default=40)
    ap.add_argument("--monsters", type=int, default=20)
    ap.add_argument("--fights", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--valgrind", action="store_true", help="instructions (see above)")
    ap.add_argument("--stage", default="", help="with --valgrind: module.name[,...]")
    ap.add_argument("--root", default=str(ROOT), help="the tree whose code to run")
    ap.add_argument("--counted", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.valgrind:
        instructions(args)
        return
    TREE[0] = args.root
    sys.path.insert(0, args.root)
    from ai.distances import warm_lines
    from tests.benchmarks.bench_ai import encounter

    warm_lines(20)
    with tempfile.TemporaryDirectory() as tmp:
        # The maps bench_speed writes: its generator, seeded the same, in the same order.
        rng = random.Random(SEED)
        encounter(Path(tmp), 40, 8, rng, 12)
        encounter(Path(tmp), 200, 59, rng, 40)
        path = None
        for size, gap in ((40, 12), (100, 24)):
            for monsters in (10, 20):
                made = encounter(Path(tmp), size, monsters, rng, gap)
                if (size, monsters) == (args.size, args.monsters):
                    path = made
        if path is None:  # not one of bench_speed's maps: a map of its own
            path = encounter(Path(tmp), args.size, args.monsters, rng, max(12, args.size // 4))
        play(path, [SEED - 1], 2, None)  # warm the per-map memos, as bench_speed does
        if args.counted:
            stages = [x for x in args.stage.split(",") if x]
            seeds = [SEED + i for i in range(args.fights)]
            print(play_counted(path, seeds, args.rounds, stages))
            return
        probe = Probe()
        fights = 1 if args.quick else args.fights
        with probed(probe):
            out = play(path, [SEED + i for i in range(fights)], args.rounds, probe)
        label = f"{args.size}x{args.size} with {args.monsters} raiders, {fights} fights"
        report(label, out["turns"], probe)


if __name__ == "__main__":
    main()
