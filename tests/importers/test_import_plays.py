"""The imported creatures pass `skirmish check` and play: an encounter that uses them loads,
and the simulator runs it with the AI using their powers (issue 18)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ai.sim import play
from engine.content.bundled import check_files
from engine.content.loader import load_encounter
from engine.events import ActionSpent
from engine.importers import import_all
from tests.support.importers import GOOD, SAMPLES
from tui.cli import main

ENCOUNTER = """\
name: imported-fight
description: the imported party against the imported monsters
map:
  name: Test field
  grid: |
    ##################
    #................#
    #................#
    #................#
    #................#
    #................#
    #................#
    #................#
    #................#
    ##################
include: [brunhilde-fighter, ilvaris-wizard, fen-raiders, ogre-warhulk, marsh-wyrm]
sides:
  party: {control: ai}
  foes: {control: ai}
combatants:
  - {id: bru, creature: brunhilde-eisenfaust, side: party, pos: [3, 3]}
  - {id: ilv, creature: ilvaris-of-the-silver-tower, side: party, pos: [1, 5]}
"""
FOES_SMALL = """\
  - {id: gob, creature: bog-goblin-skulker, side: foes, pos: [12, 2]}
  - {id: hag, creature: mire-hag, side: foes, pos: [14, 6]}
"""
FOES_BIG = """\
  - {id: ogre, creature: ogre-warhulk, side: foes, pos: [10, 4]}
  - {id: wyrm, creature: marsh-wyrm, side: foes, pos: [13, 1]}
"""


def _import(tmp_path: Path, foes: str = FOES_SMALL) -> Path:
    results = import_all([str(SAMPLES / n) for n in GOOD], tmp_path)
    assert all(r.output is not None and not r.problems for r in results)
    encounter = tmp_path / "fight.yaml"
    encounter.write_text(ENCOUNTER + foes, encoding="utf-8")
    return encounter


def test_imported_files_pass_skirmish_check(tmp_path: Path) -> None:
    encounter = _import(tmp_path)
    files = sorted(tmp_path.glob("*.yaml"))
    assert len(files) == 7
    assert check_files(files) == []
    assert main(["check", *map(str, files)]) == 0
    assert encounter in files


def _powers_used(path: Path, seeds: range) -> dict[str, set[str]]:
    """Per combatant, the powers it spent an action on over fights with the given seeds."""
    loaded = load_encounter(str(path))
    used: dict[str, set[str]] = {}
    for seed in seeds:
        enc, result = play(loaded, seed, {})
        assert result.illegal == []
        assert enc.over and result.reason
        for logged in enc.log:
            ev = logged.event
            # powers only: not a walk, a stand-up, a second wind
            if isinstance(ev, ActionSpent) and ev.name in loaded.powers:
                used.setdefault(ev.id, set()).add(ev.name)
    return used


@pytest.mark.parametrize(
    ("foes", "who"),
    [(FOES_SMALL, ["gob", "hag"]), (FOES_BIG, ["ogre", "wyrm"])],
    ids=["party-vs-minion-and-controller", "party-vs-elite-and-solo"],
)
def test_an_encounter_of_imported_creatures_plays_with_the_ai_using_their_powers(
    tmp_path: Path, foes: str, who: list[str]
) -> None:
    encounter = _import(tmp_path, foes)
    used = _powers_used(encounter, range(1, 4))
    loaded = load_encounter(str(encounter))
    own = {c.id: set(loaded.creatures[c.creature].powers) for c in loaded.spec.combatants}
    for cid in ["bru", "ilv", *who]:
        assert used.get(cid), cid
        assert used[cid] <= own[cid], (cid, used[cid])
    everything = set().union(*used.values())
    # more than basic attacks: encounter, daily, recharge, close and area powers too
    assert len({p for p in everything if "basic" not in p}) >= 4, everything


def test_skirmish_sim_runs_the_imported_encounter(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    encounter = _import(tmp_path)
    assert main(["sim", str(encounter), "--runs", "2", "--jobs", "1", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"runs": 2' in out and '"illegal_actions": 0' in out


ROOT = Path(__file__).resolve().parents[2]
CHECKERS = [d / "shared/conformance/check_log.py" for d in (ROOT.parent, ROOT.parent.parent)]


def test_the_combat_logs_of_imported_creatures_pass_the_conformance_checker(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checker = next((c for c in CHECKERS if c.is_file()), None)
    if checker is None:
        pytest.skip(f"the conformance checker is not at {CHECKERS[0]} (../shared is missing)")
    encounter = _import(tmp_path, FOES_SMALL + FOES_BIG)
    logs = tmp_path / "logs"
    assert main(["sim", str(encounter), "--runs", "3", "--jobs", "1", "--log-dir", str(logs)]) == 0
    capsys.readouterr()
    done = subprocess.run(
        [sys.executable, str(checker), *map(str, sorted(logs.glob("*.jsonl")))],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 passed, 0 failed" in done.stdout
