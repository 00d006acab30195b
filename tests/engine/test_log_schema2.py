"""Issue 16 item 8: log schema 2 (docs/log.md). `encounter_start` says what each creature is
(the traits rules read, the state it starts in, the ruleset's numbers for it) and the
surprise as decided (F-TRN-4, S-2); ../shared/conformance/check_log.py still passes such
logs, and version-1 logs still replay and export."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ai.sim import play
from engine.events import Check
from tests.support.helpers import BASIC_MELEE, BOLT, CLAW, FIGHTER, GOBLIN, NAIVE, Builder, mon, pc
from tui.replay import load_timeline

GRID = "......\n......\n......\n"
CHECKERS = [
    Path(__file__).resolve().parents[2].parent / "shared/conformance/check_log.py",
    Path("/work/shared/conformance/check_log.py"),
]
WRAITH = dict(
    GOBLIN,
    id="wraith",
    name="Wraith",
    immune=["poison", "fear"],
    resist={"necrotic": 10},
    vulnerable={"radiant": 5},
    insubstantial=True,
    invisible=True,
)
DUELIST = dict(FIGHTER, id="duelist", bab=4, feats=["combat_reflexes"])


def checker() -> ModuleType:
    path = next((p for p in CHECKERS if p.is_file()), None)
    if path is None:
        pytest.skip("the conformance checker (../shared/conformance) is missing")
    if "check_log" in sys.modules:
        return sys.modules["check_log"]
    spec = importlib.util.spec_from_file_location("check_log", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["check_log"] = mod
    spec.loader.exec_module(mod)
    return mod


def start_of(enc: Any) -> dict[str, Any]:
    return json.loads(json.dumps(enc.log[0].to_json()))


def test_schema_2_encounter_start_records_the_traits_rules_read(build: Builder) -> None:
    enc = build(
        GRID,
        [pc("d", (1, 1), "duelist", hp=20, temp_hp=3), mon("w", (3, 1), "wraith")],
        creatures=[DUELIST, WRAITH, GOBLIN],
        powers=[BASIC_MELEE, CLAW, BOLT],
        ruleset="d20srd",
        faces=[20, 1],
    )
    start = start_of(enc)
    assert start["schema"] == 2
    d, w = start["combatants"]
    assert w["immune"] == ["poison", "fear"] and w["resist"] == {"necrotic": 10}
    assert w["vulnerable"] == {"radiant": 5} and w["insubstantial"] and w["invisible"]
    assert (d["hp"], d["temp_hp"], d["state"], d["max_hp"]) == (20, 3, "healthy", 30)
    assert d["numbers"]["base_attack_bonus"] == 4 and d["numbers"]["combat_reflexes"]
    assert d["numbers"]["opportunity_attacks_per_round"] == 2  # 1 + Dex 12's +1 (S-14)
    assert "reach" in d and "size" in d and d["powers"] == ["basic-melee"]


def test_F_TRN_4_schema_2_surprise_is_recorded_as_decided(build: Builder) -> None:
    enc = build(
        GRID,
        [pc("f", (1, 1)), mon("g", (4, 1))],
        creatures=[FIGHTER, GOBLIN],
        powers=[BASIC_MELEE, CLAW, BOLT],
        surprise={"mode": "stealth", "hidden": ["monsters"]},
        faces=[15, 3, 10, 10],  # the goblin's Stealth 15, the fighter's Perception 3
    )
    start = start_of(enc)
    surprised = {c["id"]: c["surprised"] for c in start["combatants"]}
    assert surprised == {"f": True, "g": False}
    kinds = [lg.event for lg in enc.log[1:3] if isinstance(lg.event, Check)]
    assert len(kinds) == 2
    assert [(k.skill, k.success) for k in kinds] == [("stealth", None), ("perception", False)]


@pytest.mark.parametrize("seed", [1, 2])
def test_schema_2_logs_pass_the_conformance_checker(default_loaded: Any, seed: int) -> None:
    enc, _ = play(default_loaded, seed, NAIVE)
    log = [json.loads(json.dumps(lg.to_json())) for lg in enc.log]
    assert log[0]["schema"] == 2
    c = checker().Checker(f"seed {seed}")
    c.run(log)
    assert c.findings == []


def test_a_version_1_log_still_replays(default_loaded: Any, tmp_path: Path) -> None:
    enc, _ = play(default_loaded, 3, NAIVE)
    log = [lg.to_json() for lg in enc.log]
    v1_fields = {"id", "name", "side", "pc", "control", "level", "max_hp", "hp", "speed"}
    v1_fields |= {"pos", "size", "reach", "defenses", "surprised", "role", "creature"}
    log[0]["schema"] = 1
    log[0]["combatants"] = [
        {k: v for k, v in c.items() if k in v1_fields} for c in log[0]["combatants"]
    ]
    path = tmp_path / "v1.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in log))
    timeline = load_timeline(path)
    assert timeline.stops and not timeline.exact
    last = timeline.view(len(timeline.stops) - 1)
    assert last.over


def test_schema_2_a_fight_with_reinforcements_and_a_mid_way_start(
    build: Builder, tmp_path: Path
) -> None:
    """A whole fight (naive AI on both sides): the conformance checker passes it, it replays
    from its records, and the log viewer follows the reinforcement's arrival."""
    from engine.encounter import Encounter

    enc = build(
        "........\n........\n........\n",
        [
            pc("f", (1, 1), hp=12, surges_spent=2),
            pc("h", (1, 2), hp=-2, death_failures=1),
            mon("g", (4, 1)),
            mon("r", (7, 2), arrives_round=2),
        ],
        creatures=[FIGHTER, GOBLIN],
        powers=[BASIC_MELEE, CLAW, BOLT],
        seed=5,
        start=False,
    )
    enc, _ = play(enc.loaded, 5, NAIVE)
    log = [json.loads(json.dumps(lg.to_json())) for lg in enc.log]
    assert [r["id"] for r in log if r["type"] == "arrive"] == ["r"]
    c = checker().Checker("reinforced")
    c.run(log)
    assert c.findings == []
    again = Encounter.replay(enc.loaded, enc.records, seed=5, control={"party": "ai"})
    assert [lg.to_json() for lg in again.log] == [lg.to_json() for lg in enc.log]
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in log))
    timeline = load_timeline(path)
    assert timeline.view(len(timeline.stops) - 1).over
