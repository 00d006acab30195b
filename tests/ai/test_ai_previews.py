"""`ai.previews.preview_at` (the engine's preview with what it reads besides the odds worked
out once per (power, target): `damage_part`) equals `engine.attacks.preview_of` to the last
bit (issue 14): every field of the preview, for every attack power of every standing
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
from ai.previews import parts_for, preview_at, square_part_at
from ai.roles import weights_for
from ai.scoring import Context
from ai.tactical import TacticalPolicy
from engine.attacks import compose, preview_of
from engine.content.loader import load_encounter
from engine.encounter import Encounter
from engine.grid import entry_costs
from tests.ai.random_fights import load_fight, mid_fight

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
                    assert preview_at(ctx, p, t, s) == want, (c.id, p.id, t.id, sq)
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
    loaded = load_fight(map_seed, n)
    enc = mid_fight(loaded, seed, steps, ruleset) if loaded is not None else None
    if enc is not None:
        _check(enc, random.Random(seed), 4)
