"""Save size and resume time for a 10-round fight (targets: < 100 KB, < 0.5 s).

The bundled `default` encounter rarely lasts 10 rounds, so this plays a copy of it with every
creature's hit points multiplied by 4 (written to a temporary folder, loaded like any file),
the tactical AI on both sides (its decision events, with their candidates, are saved with the
actions), autosaving with real fsyncs, and stops at the end of round 10.

    python tests/benchmarks/bench_saves.py [--quick] [--rounds 10]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ai.sim import make_policy
from engine import autosave
from engine.actions import EndTurn
from engine.content.loader import LoadedEncounter, load_encounter
from engine.encounter import Encounter
from engine.save import read_save
from tests.support.fights import AI_ONLY


def long_fight_content(folder: Path, factor: int = 4) -> LoadedEncounter:
    """`default` with `factor` times the hit points, as files in `folder`."""
    base = load_encounter("default")
    for key, text in base.sources.items():
        rel = key.removeprefix("maps/")
        target = folder / ("long.yaml" if key == base.root else rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        text = re.sub(
            r"(?m)^(\s*-?\s*hp:\s*)([2-9]|\d\d+)\b",  # minions keep their 1 hp
            lambda m: f"{m.group(1)}{int(m.group(2)) * factor}",
            text,
        )
        target.write_text(text)
    return load_encounter(folder / "long.yaml")


def play_rounds(loaded: LoadedEncounter, folder: Path, rounds: int, seed: int) -> tuple[Path, str]:
    enc = Encounter.create(loaded, seed=seed, control=AI_ONLY)
    hist = autosave.begin(enc, directory=folder)
    hist.start()
    policies = {s: make_policy("tactical") for s in ("party", "monsters")}
    turn, count = -1, 0
    while not hist.enc.over and hist.enc.battle.round <= rounds:
        e = hist.enc
        c = e.current
        assert c is not None
        count = count + 1 if e.battle.turn_counter == turn else 1
        turn = e.battle.turn_counter
        choice = policies[c.side].next_action(e)
        action, decision = choice.action, choice.decision
        if count > 20 or e.validate(action) is not None:
            action, decision = EndTurn(), None
        hist.apply(action, decision)
    assert hist.saver is not None
    hist.saver.close()  # type: ignore[attr-defined]
    return hist.saver.path, policies["party"].name  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer timing runs")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    runs = 3 if args.quick else 15
    with tempfile.TemporaryDirectory(prefix="skirmish-bench-") as tmp:
        folder = Path(tmp)
        loaded = long_fight_content(folder / "content")
        t0 = time.perf_counter()
        path, policy = play_rounds(loaded, folder / "saves", args.rounds, args.seed)
        play_s = time.perf_counter() - t0
        save = read_save(path)
        raw = path.read_bytes()
        header = raw.index(b"\n") + 1
        n = len(save.entries)
        print(
            f"fight: {save.header.name} x4 hp, {policy} AI, {save.round - 1} full rounds, "
            f"{n} records "
            f"(played and autosaved in {play_s:.2f} s, {1000 * play_s / n:.2f} ms a record)"
        )
        print(
            f"save size: {len(raw) / 1024:.1f} KB (target < 100 KB): header with the "
            f"content texts {header / 1024:.1f} KB, records {(len(raw) - header) / 1024:.1f} "
            f"KB ({(len(raw) - header) / n:.0f} bytes each)"
        )
        phases: dict[str, list[float]] = {"read": [], "content": [], "replay": [], "resume": []}
        for _ in range(runs):
            # The whole of `skirmish resume` minus the app: read + check, load the embedded
            # content, replay, open the save for appending. Then the phases one by one.
            t = time.perf_counter()
            hist = autosave.resume(path)
            phases["resume"].append(time.perf_counter() - t)
            hist.saver.close()  # type: ignore[union-attr]
            t = time.perf_counter()
            s = read_save(path)
            phases["read"].append(time.perf_counter() - t)
            t = time.perf_counter()
            _ = s.content
            phases["content"].append(time.perf_counter() - t)
            t = time.perf_counter()
            s.encounter()
            phases["replay"].append(time.perf_counter() - t)
        med = {k: 1000 * statistics.median(v) for k, v in phases.items()}
        print(
            f"resume: {med['resume']:.0f} ms median of {runs} (target < 500 ms): read and "
            f"check {med['read']:.0f} ms, load the embedded content {med['content']:.0f} ms, "
            f"replay {med['replay']:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
