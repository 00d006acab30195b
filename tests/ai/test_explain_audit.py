"""The AI's explanations hold against what then happens, over whole fights (issue 15, target 7).

A small version of `tests/soak/soak_explain.py --fights 200` (one fight of each audited
encounter), so that CI stays quick; run the script itself for the full audit.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "soak" / "soak_explain.py"


def _soak_module() -> Any:
    spec = importlib.util.spec_from_file_location("soak_explain", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["soak_explain"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_explanations_are_true_of_what_follows_in_whole_fights() -> None:
    soak = _soak_module()
    result = soak.audit(len(soak.ENCOUNTERS))
    report = "\n".join(result.lines(show=3))
    assert result.fights == len(soak.ENCOUNTERS)
    assert result.decisions > 100 and result.actions > result.decisions // 2
    assert result.lies == 0, report
    for kind in ("square", "possessive", "zero_expected"):
        assert result.counts[kind] == 0, report


def test_the_audit_catches_each_kind_of_lie() -> None:
    """The checker itself: a made-up log with one of each lie is caught, a true one is not."""
    soak = _soak_module()
    names = {"g": "Goblin", "b": "Brom", "w": "Wren"}
    sides = {"g": "monsters", "b": "party", "w": "party"}
    powers = {"blade": "Short Blade"}

    def run(summary: str, after: list[dict[str, Any]], cands: tuple[str, ...] = ()) -> Any:
        events = [
            {"type": "turn_start", "id": "g", "seq": 1},
            {
                "type": "decision",
                "id": "g",
                "seq": 2,
                "summary": summary,
                "candidates": [{"action": c, "score": 1.0} for c in cands],
            },
            *after,
            {"type": "turn_end", "id": "g", "seq": 99},
        ]
        out = soak.Audit()
        soak._FightAudit(events, names, sides, powers, out, "test").run()
        return out.counts

    walk = {"type": "action", "id": "g", "kind": "move", "name": "walk", "seq": 3}
    hit = {"type": "action", "id": "g", "kind": "standard", "name": "blade", "seq": 5}

    def attack(flank: bool) -> dict[str, Any]:
        return {
            "type": "attack",
            "attacker": "g",
            "target": "b",
            "power": "blade",
            "opportunity": False,
            "flanking": flank,
            "seq": 6,
        }

    provoke = {"type": "provoke", "mover": "g", "by": "b", "seq": 4}
    said = "Goblin walks 2 squares to flank Brom with Wren (+2)"
    assert run(f"{said}; Short Blade on Brom: 60% to hit", [walk, hit, attack(True)]) == {}
    lie = run(f"{said}, avoiding Brom's opportunity attack; Short Blade on Brom", [walk, provoke])
    assert lie["avoiding"] == 1
    assert run(f"{said}; Short Blade on Brom", [walk, provoke])["unsaid_provoke"] == 1
    assert run(f"{said}; Short Blade on Brom", [walk, hit, attack(False)])["to_flank"] == 1
    out = "Goblin holds its position; nothing to attack (Brom is out of reach)"
    assert run(out, [], ("walk 3,4 + Short Blade -> Brom",))["out_of_reach"] == 1
    assert (
        run("Goblin walks 2 squares toward Brom; Short Blade on Wren", [walk, hit, attack(True)])[
            "attack"
        ]
        == 1
    )
    quiet = "Goblin walks 2 squares toward Brom; no attack this turn"
    assert run(quiet, [walk, hit, attack(True)])["unexplained"] == 1
    assert run("Goblin walks to (3,4)", [walk])["square"] == 1
    assert run("Goblin avoids Brom and Wren' opportunity attack", [])["possessive"] == 1


def test_the_naive_baseline_explains_every_action_truly() -> None:
    """Target 7: with the naive policy on every side (`--policy monsters=naive`), every AI
    action follows a `decision` of its creature, and what each says holds."""
    soak = _soak_module()
    result = soak.audit(3, only=["mirror", "default", "chasm"], policy="naive")
    report = "\n".join(result.lines(show=3))
    assert result.actions > 20 and result.decisions >= result.actions, report
    assert result.lies == 0, report
    for kind in ("square", "possessive", "zero_expected"):
        assert result.counts[kind] == 0, report


def test_a_naive_decision_names_the_target_and_who_a_walk_provokes() -> None:
    from ai.naive_explain import naive_decision
    from engine.actions import Move, StandUp, UsePower
    from engine.content.loader import load_encounter
    from engine.encounter import Encounter

    enc = Encounter.create(load_encounter("mirror"), seed=3)
    enc.start()
    b = enc.battle
    c = enc.current
    assert c is not None
    foe = next(iter(b.enemies_of(c)))
    power = c.powers[0]
    d = naive_decision(b, c, UsePower(power.id, (foe.id,)), 0.0)
    assert d is not None and d.policy == "naive"
    assert d.summary == f"{c.name} attacks the nearest enemy in reach: {power.name} on {foe.name}"
    x, y = c.pos
    step = (x + 1, y) if (x + 1, y) in b.map.squares() else (x - 1, y)
    d = naive_decision(b, c, Move((c.pos, step), "walk"), 0.0)
    assert d is not None and d.summary.startswith(f"{c.name} walks 1 square")
    assert naive_decision(b, c, StandUp(), 0.0) is not None


def test_a_naive_walk_cut_short_is_explained_again_even_at_the_end_of_its_turn() -> None:
    """An interrupt stopped its walk (default seed 5: Kael's No Escape): what the walk still
    had to provoke won't come, so its next action, an end of turn too, says it plans again."""
    from ai.naive_explain import NaiveExplainer
    from engine.actions import EndTurn, Move
    from engine.content.loader import load_encounter
    from engine.encounter import Encounter

    enc = Encounter.create(load_encounter("mirror"), seed=3)
    enc.start()
    b = enc.battle
    c = enc.current
    assert c is not None
    x, y = c.pos
    step = (x + 1, y) if (x + 1, y) in b.map.squares() else (x - 1, y)
    ex = NaiveExplainer()
    assert ex.decision(b, c, Move((c.pos, step), "walk"), 0.0) is not None
    d = ex.decision(b, c, EndTurn(), 0.0)  # it never left its square: cut short
    assert d is not None
    assert d.summary == f"{c.name} (plans again: its move was cut short) ends its turn"
    assert ex.decision(b, c, EndTurn(), 0.0) is None  # nothing planned: nothing to say
