"""The AI and triggered powers (X-ACT-1): it takes them when they pay (`ai.triggers`), whole
fights that use them replay exactly and their logs pass check_log.py, and the AI values an
effect that makes its target grant combat advantage (F-MOD-1)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ai.memory import SideMemory
from ai.roles import weights_for
from ai.scoring import Context
from ai.sim import play
from ai.triggers import trigger_pays
from ai.utility import on_enemy
from engine.battle import GRANTS_CA_TO_SOURCE
from engine.content.loader import load_encounter
from engine.decisions import TriggerQuestion
from engine.encounter import Encounter

CHECK_LOG = next(
    (
        p / "shared" / "conformance" / "check_log.py"
        for p in Path(__file__).resolve().parents
        if (p / "shared" / "conformance" / "check_log.py").is_file()
    ),
    Path("/work/shared/conformance/check_log.py"),
)
"""The contract's checker, next to the checkout (or its worktree's parent's parent)."""
ALL_AI = {"party": "ai", "monsters": "ai"}


def _q(who: str, power: str, trigger: str, **kw: object) -> TriggerQuestion:
    base: dict[str, object] = {"by": None, "target": None, "interrupt": True}
    base.update(kw)
    return TriggerQuestion(who, power, trigger, **base)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def default_fight() -> Encounter:
    enc, _ = play(load_encounter("default"), 5, {})
    return enc


def test_X_ACT_1_ai_takes_an_attack_that_pays_and_not_one_that_does_not(
    default_fight: Encounter,
) -> None:
    b = default_fight.battle
    kael = next(c for c in b.combatants.values() if c.creature.id == "kael")
    good = _q(kael.id, "no-escape", "enemy_leaves", hit=0.6, expected_damage=6.0)
    poor = _q(kael.id, "no-escape", "enemy_leaves", hit=0.05, expected_damage=0.2)
    assert trigger_pays(b, good)
    assert not trigger_pays(b, poor), "an encounter power is kept for a better chance"


def test_X_ACT_1_ai_dodges_a_hit_but_not_a_miss(default_fight: Encounter) -> None:
    b = default_fight.battle
    duel = next(c for c in b.combatants.values() if c.creature.id == "raider-duelist")
    assert trigger_pays(b, _q(duel.id, "slip-aside", "hit"))
    assert not trigger_pays(b, _q(duel.id, "slip-aside", "missed"))


def test_X_ACT_1_whole_ai_fights_use_triggered_powers_replay_and_pass_check_log(
    tmp_path: Path,
) -> None:
    taken: set[str] = set()
    for i, seed in enumerate((5, 11)):
        loaded = load_encounter("default")
        enc, _ = play(loaded, seed, {})
        lines = [lg.to_json() for lg in enc.log]
        taken |= {ln["power"] for ln in lines if ln["type"] == "trigger" and ln["taken"]}
        log = tmp_path / f"run-{i}.jsonl"
        log.write_text("".join(json.dumps(ln) + "\n" for ln in lines))
        replayed = Encounter.replay(loaded, enc.records, seed=seed, control=ALL_AI)
        assert [lg.to_json() for lg in replayed.log] == lines
        assert replayed.snapshot() == enc.snapshot()
    assert taken, "the bundled triggered powers go off in real fights"
    out = subprocess.run(
        [sys.executable, str(CHECK_LOG), *map(str, sorted(tmp_path.glob("*.jsonl")))],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout


def test_F_MOD_1_ai_values_making_an_enemy_grant_combat_advantage(
    default_fight: Encounter,
) -> None:
    enc = default_fight
    b = enc.battle
    me = next(c for c in b.combatants.values() if c.creature.id == "nix")
    foe = next(c for c in b.combatants.values() if c.side != me.side)
    ctx = Context(enc, me, weights_for(me), SideMemory())
    none = on_enemy(ctx, ((), 0, ()), foe, set(), 1.0)
    mine = on_enemy(ctx, ((), 0, ((GRANTS_CA_TO_SOURCE, 2),)), foe, set(), 1.0)
    every = on_enemy(ctx, ((), 0, (("grants_ca", 1),)), foe, set(), 1.0)
    assert none == 0.0 < mine < every
