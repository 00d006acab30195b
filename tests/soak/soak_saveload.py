"""Save-then-load equals the original, over many seeds.

Each seed plays a fight of `default` (even seeds: the naive AI on both sides; odd seeds: a
random player using every kind of action and answering questions at random), autosaving as
it goes, then reads the save back and replays it: the rebuilt fight must have the same state
and the same combat log, event for event. It also checks that every prefix the save held
along the way (what a crash at that moment would have left) replays to the state the fight
had then, for a sample of the records.

    python tests/soak/soak_saveload.py --seeds 1000        (prints "N seeds, M mismatches")
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.autosave import Autosaver
from engine.content.loader import LoadedEncounter, load_encounter
from engine.encounter import Encounter
from engine.save import read_save
from tests.support.fights import AI_ONLY, fingerprint, play, snapshot_digest


class EngineError(Exception):
    """The fight itself failed (an engine bug, not a save problem): reported apart."""


def check_seed(
    loaded: LoadedEncounter, seed: int, directory: Path, max_records: int = 150, prefixes: int = 7
) -> str | None:
    """None if the save of fight `seed` loads back exactly; else what differs."""
    player = "naive" if seed % 2 == 0 else "random"
    snapshots: list[str] = []
    saver: Autosaver | None = None

    def after(enc: Encounter) -> None:
        nonlocal saver
        if saver is None:
            saver = Autosaver.create(enc, directory=directory)
        saver.sync(enc)
        snapshots.append(snapshot_digest(enc))

    try:
        enc = play(
            loaded, seed, player=player, control=AI_ONLY, max_records=max_records, after=after
        )
    except Exception as exc:
        raise EngineError(
            f"seed {seed} ({player}): the fight failed: {type(exc).__name__}: {exc}"
        ) from exc
    assert saver is not None
    saver.close()
    save = read_save(saver.path)
    if save.records != enc.records:
        return f"seed {seed} ({player}): the save holds other records than the fight"
    back = save.encounter()
    if fingerprint(back) != fingerprint(enc):
        return f"seed {seed} ({player}): the loaded fight differs from the original"
    step = max(1, len(enc.records) // prefixes)
    for k in range(1, len(enc.records) + 1, step):
        if snapshot_digest(save.encounter(upto=k)) != snapshots[k - 1]:
            return f"seed {seed} ({player}): the first {k} records replay to another state"
    saver.path.unlink()
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--start", type=int, default=0)
    args = parser.parse_args(argv)
    loaded = load_encounter("default")
    t0 = time.perf_counter()
    bad = []
    engine_errors = []
    with tempfile.TemporaryDirectory(prefix="skirmish-saveload-") as tmp:
        for seed in range(args.start, args.start + args.seeds):
            try:
                problem = check_seed(loaded, seed, Path(tmp))
            except EngineError as exc:
                engine_errors.append(str(exc))
                print(exc, flush=True)
                continue
            if problem:
                bad.append(problem)
                print(problem, flush=True)
    extra = f", {len(engine_errors)} fights failed in the engine" if engine_errors else ""
    print(f"{args.seeds} seeds, {len(bad)} mismatches{extra} ({time.perf_counter() - t0:.1f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
