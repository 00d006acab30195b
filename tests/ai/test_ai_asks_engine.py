"""The AI asks the engine instead of re-deriving its rules (issue 13, design rule 16): the
action budget, the odds of an attack roll, the flanking sides, the refusal of a power.

Each test sets the AI's answer beside the engine's, over the bundled encounters' states or
random ones (Hypothesis), and names the clause whose copy used to drift.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.memory import SideMemory
from ai.plan import budget
from ai.roles import weights_for
from ai.scoring import Context
from ai.tactical import TacticalPolicy
from engine.actions import Impossible, UsePower
from engine.attacks import setup
from engine.content.loader import load_encounter
from engine.content.schema import Power
from engine.encounter import Encounter
from engine.estimates import estimate
from engine.preview import preview
from engine.refusals import Refusal
from engine.state import Combatant
from tests.ai.random_fights import mid_fight_of
from tests.support.helpers import BASIC_MELEE, DEF, FIGHTER, SLAM, Builder, mon, pc

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


def _situation_free(enc: Encounter, a: Combatant, t: Combatant, p: Power) -> bool:
    """Is the engine's attack setup of `a`'s `p` on `t`, where they stand, nothing but the base
    attack modifiers against the target's defense, with no mitigation of the damage?"""
    b = enc.battle
    weapon = a.weapon_for(p)
    s = setup(b, a, t, p, weapon)
    base = tuple(b.ruleset.attack_modifiers(a, p, weapon))
    hit = p.hit.damage if p.hit is not None else None
    return (
        s.modifiers == base
        and not s.coup_de_grace
        and not b.has(a, "weakened")
        and not b.has(t, "insubstantial")
        and not (p.miss is not None and p.miss.half_damage)
        and not (hit is not None and hit.types)
    )


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    map_seed=st.integers(0, 2**32 - 1),
    n=st.integers(3, 7),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 30),
    ruleset=st.sampled_from(["ffd20", "4srd", "d20srd"]),
)
def test_F_ATK_6_D_8_ai_odds_are_the_rulesets(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str
) -> None:
    """F-ATK-3..8, D-5, D-8: the AI's situation-free odds (`engine.estimates.estimate`, read by
    `Context.quick_attack` and `Context.danger`) are the engine's: wherever the engine's own
    preview has no situational modifier, its chance to hit, to crit and its expected damage
    are the estimate's, threat ranges and confirmation rolls included (the AI used to say
    `(21 - need) / 20` with critical hits fixed at 5%)."""
    enc = mid_fight_of(map_seed, n, seed, steps, ruleset)
    if enc is None:
        return
    c = enc.current
    assert c is not None
    b = enc.battle
    ctx = Context(enc, c, weights_for(c), SideMemory())
    for a in b.combatants.values():
        for p in a.powers:
            if not a.standing or p.attack is None or p.kind not in ("melee", "ranged"):
                continue
            est = estimate(b, a, c, p)
            if est is None:
                continue
            if a.side != c.side:  # what an opportunity attack on me is worth to the AI
                exp, _ = ctx.quick_attack(a, p)
                assert exp == est.expected
            if _situation_free(enc, a, c, p):
                pv = preview(b, a, c, p)
                assert pv is not None
                assert (est.hit, est.crit) == (pv.hit, pv.crit)
                assert est.expected == pytest.approx(pv.expected_damage)
