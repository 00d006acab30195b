"""The AI's previews (the engine's `preview_at` on the `damage_part` kept once per (power,
target) a decision) equal `engine.preview.preview_of`, and both equal the preview worked out
in one piece as the engine did before it was split (`_plain_preview`), to the last bit
(issue 14): every field of the preview, for every attack power of every standing
creature on every other creature, from squares around the map, at every step of each bundled
encounter (the three rulesets; resistances, radiant vulnerability, an insubstantial wraith,
weakening attacks, half damage on a miss) and of random fights (a Large ogre, minions,
conditions picked up mid-fight): F-ATK-3..8, F-DMG-1..5.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.memory import SideMemory
from ai.previews import damage_part, parts_for, square_part_at
from ai.roles import weights_for
from ai.scoring import Context
from ai.tactical import TacticalPolicy
from engine.attacks import AttackSetup, compose
from engine.battle import Battle
from engine.content.loader import load_encounter
from engine.content.schema import Power, Weapon
from engine.encounter import Encounter
from engine.grid import entry_costs
from engine.immunity import immune_to_damage, immune_to_effects
from engine.preview import AttackPreview, damage_expr, outcome_odds, preview_at, preview_of
from engine.state import Combatant
from tests.ai.random_fights import mid_fight_of


def _plain_preview(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    power: Power,
    weapon: Weapon | None,
    s: AttackSetup,
) -> AttackPreview:
    """The preview as the engine worked it out in one piece (the reference)."""
    p_hit, p_crit = outcome_odds(s, battle.ruleset)
    expected = 0.0
    text = ""
    immune = False
    if power.hit is not None and power.hit.damage is not None:
        expr = damage_expr(battle, attacker, power.hit.damage, weapon)
        text = str(expr)
        means = battle.ruleset.damage_means(battle, attacker, target, power, weapon, expr)
        hit_dmg, crit_dmg = means
        expected = (p_hit - p_crit) * hit_dmg + p_crit * crit_dmg
        if power.miss is not None and power.miss.half_damage and not target.creature.minion:
            expected += (1 - p_hit) * (expr.mean() / 2)
        if battle.has(attacker, "weakened"):
            expected /= 2
        if battle.has(target, "insubstantial"):
            expected /= 2
        types = power.hit.damage.types
        if types and all(t in target.creature.resist for t in types):
            expected = max(0.0, expected - p_hit * min(target.creature.resist[t] for t in types))
        expected += p_hit * sum(target.creature.vulnerable.get(t, 0) for t in types)
        immune = immune_to_damage(target.creature, types)
    if immune:
        expected = 0.0
    keyword = immune_to_effects(target.creature, power)
    return AttackPreview(p_hit, p_crit, expected, s, text, immune, keyword)


ENCOUNTERS = ["default", "fog", "ambush", "chasm", "keep-d20", "crossroads-4srd"]


def _check(enc: Encounter, rng: random.Random, squares: int) -> int:
    """Compare every preview of the fight as it stands; the number compared."""
    b = enc.battle
    walkable = sorted(entry_costs(b.map))
    done = 0
    for c in [c for c in b.combatants.values() if c.standing]:
        ctx = Context(enc, c, weights_for(c), SideMemory())
        for p in [p for p in c.powers if p.attack is not None]:
            for t in [t for t in b.combatants.values() if t.alive and t is not c]:
                for sq in [c.pos, *rng.sample(walkable, min(squares, len(walkable)))]:
                    origin = rng.choice(walkable) if p.kind in ("area", "close") else None
                    sp = square_part_at(ctx, p, t, sq, origin)
                    s = compose(b, c, t, (*parts_for(ctx, p, t), sp))
                    want = preview_of(b, c, t, p, c.weapon_for(p), s)
                    assert preview_at(damage_part(ctx, p, t), s, b.ruleset) == want, (c.id, p.id)
                    assert _plain_preview(b, c, t, p, c.weapon_for(p), s) == want, (c.id, p.id)
                    done += 1
    return done


@pytest.mark.parametrize("name", ENCOUNTERS)
def test_preview_at_equals_the_engines_preview_in_the_bundled_encounters_F_ATK_3_F_DMG_1(
    name: str,
) -> None:
    loaded = load_encounter(name)
    sides = sorted({c.side for c in loaded.spec.combatants})
    enc = Encounter.create(loaded, seed=7, control={s: "ai" for s in sides})
    enc.start()
    pol = TacticalPolicy()
    rng = random.Random(7)
    done = 0
    for step in range(40):
        if enc.over:
            break
        if step % 5 == 0:
            done += _check(enc, rng, 2)
        enc.apply(pol.next_action(enc).action)
    assert done > 0


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    map_seed=st.integers(0, 2**32 - 1),
    n=st.integers(3, 7),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 30),
    ruleset=st.sampled_from(["ffd20", "4srd", "d20srd"]),
)
def test_preview_at_equals_the_engines_preview_in_random_fights_F_ATK_3_F_DMG_1(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str
) -> None:
    enc = mid_fight_of(map_seed, n, seed, steps, ruleset)
    if enc is not None:
        _check(enc, random.Random(seed), 4)
