"""The AI asks the engine instead of re-deriving its rules (issue 13, design rule 16): the
action budget, the odds of an attack roll, the flanking sides, the refusal of a power.

Each test sets the AI's answer beside the engine's, over the bundled encounters' states or
random ones (Hypothesis), and names the clause whose copy used to drift.
"""

from __future__ import annotations

import itertools

import pytest
from ai_fixtures import DEF, SLAM
from skirmish_helpers import BASIC_MELEE, FIGHTER, Builder, mon, pc

from ai.plan import budget
from ai.tactical import TacticalPolicy
from engine.actions import Impossible, UsePower
from engine.content.loader import load_encounter
from engine.content.schema import Power
from engine.encounter import Encounter
from engine.refusals import Refusal

SEQUENCES = {
    "move": ("move",),
    "standard": ("standard",),
    "minor": ("minor",),
    "move_then_standard": ("move", "standard"),
    "standard_then_move": ("standard", "move"),
    "two_moves": ("move", "move"),
}


def _engine_allows(enc: Encounter, kinds: tuple[str, ...]) -> bool:
    """Would the engine let the current creature spend `kinds` in order? Asked by spending
    them on a copy of the budget, one `can_spend` at a time (what the engine checks)."""
    b = enc.battle
    saved = dict(b.spent)
    try:
        for k in kinds:
            if not enc.can_spend(k):
                return False
            b.spent[k] = b.spent.get(k, 0) + 1
        return True
    finally:
        b.spent.clear()
        b.spent.update(saved)


def _check_budget(enc: Encounter) -> None:
    c = enc.current
    assert c is not None
    bud = budget(enc.battle, c)
    for field, kinds in SEQUENCES.items():
        assert getattr(bud, field) == _engine_allows(enc, kinds), (field, enc.battle.spent)


def test_S_2_ai_budget_has_no_minor_in_the_4srd_surprise_round() -> None:
    """S-2: every turn start of the 4srd surprise round, the AI's budget agrees with the
    engine: one standard or one move action, no minor (the copy in `ai.plan` said a minor
    action was left)."""
    enc = Encounter.create(load_encounter("crossroads-4srd"), seed=3)
    enc.start()
    pol = TacticalPolicy()
    checked, seen = 0, -1
    while enc.battle.surprise_round and not enc.over:
        c = enc.current
        assert c is not None
        if enc.battle.turn_counter != seen:  # a turn start
            seen = enc.battle.turn_counter
            bud = budget(enc.battle, c)
            assert not bud.minor and not enc.can_spend("minor")
            assert bud.standard and bud.move and not bud.move_then_standard
            checked += 1
        _check_budget(enc)
        enc.apply(pol.next_action(enc).action)
    assert checked >= 2


@pytest.mark.parametrize("name", ["crossroads-4srd", "keep-d20", "goblin-hall", "ambush"])
def test_F_TRN_1_ai_budget_equals_the_engines_at_every_step(name: str) -> None:
    """F-TRN-1, F-TRN-4, S-2: at every step of a fight played by the AI (the actions of a turn
    spent one by one, surprise rounds, dazed creatures), every sequence the AI plans with is
    allowed exactly when the engine allows it."""
    enc = Encounter.create(load_encounter(name), seed=5)
    enc.start()
    pol = TacticalPolicy()
    for _ in itertools.repeat(None, 120):
        if enc.over:
            break
        _check_budget(enc)
        enc.apply(pol.next_action(enc).action)


OPEN = "\n".join(["........."] * 5)


def _brute_duel(build: Builder) -> Encounter:
    brute = {
        "id": "brute",
        "name": "Brute",
        "role": "brute",
        "level": 1,
        "hp": 30,
        "defenses": DEF,
        "speed": 6,
        "initiative": 30,
        "powers": ["slam"],
    }
    return build(
        OPEN,
        [pc("hero", (3, 2)), mon("brute", (4, 2), creature="brute")],
        creatures=[FIGHTER, brute],
        powers=[BASIC_MELEE, SLAM],
        seed=2,
    )


def test_F_TRN_1_ai_reads_the_refusal_code_not_its_text(
    build: Builder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """F-TRN-1: with its standard action spent, an attack is still an option for an action
    point (`extra_standard`) because the engine's refusal is `NO_ACTION_LEFT`, whatever its
    wording (the AI used to test `reason.startswith("no ")`)."""
    enc = _brute_duel(build)
    c = enc.current
    assert c is not None and c.id == "brute"
    enc.apply(UsePower("slam", ("hero",)))
    reworded = Encounter.power_refusals

    def power_refusals(self: Encounter) -> list[tuple[Power, Impossible | None]]:
        return [
            (p, None if r is None else Impossible("the standard action is spent", r.code))
            for p, r in reworded(self)
        ]

    monkeypatch.setattr(Encounter, "power_refusals", power_refusals)
    assert any(r is not None and r.code is Refusal.NO_ACTION_LEFT for _, r in enc.power_refusals())
    planner = TacticalPolicy().planner
    assert planner.decide(enc, c, extra_standard=1).kind == "attack"
    assert planner.decide(enc, c).kind != "attack"
