"""The enemies' dangers kept across rounds and deciders (issue 14: `Context._danger_parts`)
equal the dangers worked out afresh, to the last bit: Hypothesis over random fights (random
maps, creatures of every size with a Large ogre among them, conditions picked up and lost as
the fight goes on, the three rulesets), checked at every step of the fight's continuation,
for every standing creature against every standing enemy, with the kept parts filled by
every earlier state of the same battle.

A differential, not a timing: tests/benchmarks/bench_speed.py times.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from ai.memory import SideMemory
from ai.roles import weights_for
from ai.scoring import Context
from ai.tactical import TacticalPolicy
from engine.encounter import Encounter
from tests.ai.random_fights import MID_FIGHTS, mid_fight_of


def _check(enc: Encounter) -> int:
    """Compare kept and fresh dangers of every enemy for every standing creature; the count
    of dangers the kept parts answered."""
    b = enc.battle
    kept = 0
    for c in [c for c in b.combatants.values() if c.standing]:
        ctx = Context(enc, c, weights_for(c), SideMemory())
        plain = Context(enc, c, weights_for(c), SideMemory())
        plain._danger_parts = lambda e: None  # type: ignore[method-assign]
        for e in ctx.f.enemies:
            got = ctx._danger(e)
            want = plain._danger(e)
            assert got == want, (c.id, e.id, got, want)
            kept += ctx._danger_parts(e) is not None
    return kept


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**MID_FIGHTS)
def test_kept_dangers_equal_fresh_ones(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str
) -> None:
    enc = mid_fight_of(map_seed, n, seed, steps, ruleset)
    if enc is None:
        return
    pol = TacticalPolicy()
    for _ in range(12):
        if enc.over or enc.current is None:
            break
        kept = _check(enc)
        if ruleset == "d20srd":  # its damage means read the situation: never kept
            assert kept == 0
        enc.apply(pol.next_action(enc).action)


def test_kept_dangers_follow_conditions_added_and_removed() -> None:
    """An effect laid on an enemy (a damage penalty, then slowed) is a new key: the danger
    is worked out again, not read from before; once the effects end, the danger is the
    first one again."""
    from engine.content.loader import load_encounter
    from engine.content.schema import EffectSpec
    from engine.effects import add_effect, end

    loaded = load_encounter("maps/encounters/default.yaml")
    enc = Encounter.create(loaded, seed=3, control={"party": "ai", "monsters": "ai"})
    enc.start()
    b = enc.battle
    me = next(c for c in b.combatants.values() if c.side == "party")
    e = next(c for c in b.combatants.values() if c.side != "party")

    def danger() -> object:
        got = Context(enc, me, weights_for(me), SideMemory())._danger(e)
        plain = Context(enc, me, weights_for(me), SideMemory())
        plain._danger_parts = lambda e: None  # type: ignore[method-assign]
        assert got == plain._danger(e)
        return got

    before = danger()
    spec = EffectSpec.model_validate(
        {"duration": "save_ends", "modifiers": [{"stat": "damage", "value": -4}]}
    )
    weak = add_effect(b, spec, e, None, "weak")
    assert weak is not None
    hurt = danger()
    assert hurt != before
    slow = add_effect(b, EffectSpec(duration="save_ends", conditions=["slowed"]), e, None, "slow")
    assert slow is not None
    assert danger() != hurt
    end(b, slow, "saved")
    end(b, weak, "saved")
    assert danger() == before
