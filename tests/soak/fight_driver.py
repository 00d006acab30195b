"""The process the kill soak kills: a table-played fight of `default`, autosaving.

    python -m tests.soak.fight_driver SAVE_PATH SEED

If SAVE_PATH doesn't exist it starts a new fight there; otherwise it resumes the fight the
save holds (exactly as `skirmish resume` does) and plays on, with player actions, undo, redo
and dice typed in (`tests.soak.table_play`). It prints, flushing each line:

    resumed L DIGEST    after rebuilding the fight from a save of L lines (DIGEST: its state)
    shown L             after each operation is durable (the save has L lines): what a
                        screen would now show
    done L              when the fight is over (or long enough)

so the soak knows what the "screen" had shown when it pulled the plug.
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine.content.loader import load_encounter
from tests.soak.table_play import Table, begin, resume, save_lines, step
from tests.support.fights import snapshot_digest


def main(argv: list[str]) -> int:
    path, seed = Path(argv[0]), int(argv[1])
    table = Table(seed)
    if path.exists():
        hist = resume(table, path)
        print(f"resumed {save_lines(path)} {snapshot_digest(hist.enc)}", flush=True)
    else:
        hist = begin(load_encounter("default"), table, path)
    # History's methods return once the save is durable; only then does the "screen" show it.
    while step(hist, table, path):
        print(f"shown {save_lines(path)}", flush=True)
    print(f"done {save_lines(path)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
