"""The process the kill soak kills: plays an AI-vs-AI fight of `default`, autosaving.

    python -m tests.soak.fight_driver SAVE_PATH SEED

If SAVE_PATH doesn't exist it starts a new fight there; otherwise it resumes the fight the
save holds (exactly as `skirmish resume` does) and plays on. It prints, flushing each line:

    resumed N DIGEST    after rebuilding a fight of N records (DIGEST: its snapshot's digest)
    shown N             after each record is durable: what a screen would now show
    done N              when the fight is over

so the soak knows what the "screen" had shown when it pulled the plug.
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine import autosave
from engine.content.loader import load_encounter
from engine.encounter import Encounter
from tests.support.fights import AI_ONLY, play, snapshot_digest


def main(argv: list[str]) -> int:
    path, seed = Path(argv[0]), int(argv[1])
    if path.exists():
        hist = autosave.resume(path)
        print(f"resumed {len(hist.records)} {snapshot_digest(hist.enc)}", flush=True)
    else:
        loaded = load_encounter("default")
        hist = autosave.begin(Encounter.create(loaded, seed=seed, control=AI_ONLY), path=path)
    if not hist.records:
        hist.start()
        print(f"shown {len(hist.records)}", flush=True)

    def shown(enc: Encounter) -> None:
        print(f"shown {len(enc.records)}", flush=True)

    # History.apply returns once the record is durable; only then does the "screen" show it.
    play(hist.enc.loaded, seed, player="naive", enc=hist.enc, apply=hist.apply, after=shown)
    print(f"done {len(hist.records)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
