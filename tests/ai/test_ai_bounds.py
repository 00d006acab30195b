"""The attack search's bound and the candidates it skips (issue 14, `ai.attack_plans`).

- `hit_bound` (the best odds any square could give: combat advantage, no cover, no
  concealment, no range penalty, adjacent; the damage and the chance to drop the target at
  those odds) is never below what `hit_at` scores from a square, over random fights
  (random maps with obscured squares and obstacles, a Large ogre, minions, conditions picked
  up mid-fight, the three rulesets): F-ATK-3..8, F-MOD-1..11;
- with no combat advantage possible on a square (`ca_possible`: not granted, not adjacent)
  the tighter bound holds there too;
- the search that skips candidates by the bound keeps the same best turns as the search that
  scores every one (same options, scores, order), over random fights and over fixed ones
  where it does skip some.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ai.attack_plans as attack_plans
import ai.previews as previews
from ai.memory import SideMemory
from ai.planner import Planner
from ai.previews import ca_possible, hit_at, hit_bound
from ai.roles import weights_for
from ai.scoring import Context
from engine.encounter import Encounter
from engine.grid import entry_costs
from tests.ai.random_fights import load_fight, mid_fight

STATES = {
    "map_seed": st.integers(0, 2**32 - 1),
    "n": st.integers(3, 7),
    "seed": st.integers(0, 10_000),
    "steps": st.integers(0, 30),
    "ruleset": st.sampled_from(["ffd20", "4srd", "d20srd"]),
}


def _fight(map_seed: int, n: int, seed: int, steps: int, ruleset: str) -> Encounter | None:
    loaded = load_fight(map_seed, n)
    return mid_fight(loaded, seed, steps, ruleset) if loaded is not None else None


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**STATES)
def test_hit_bound_is_never_below_the_scored_hit_from_any_square_F_ATK_3_F_MOD_1_F_MOD_2(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str
) -> None:
    enc = _fight(map_seed, n, seed, steps, ruleset)
    if enc is None:
        return
    b = enc.battle
    rng = random.Random(seed)
    walkable = sorted(entry_costs(b.map))
    for c in [c for c in b.combatants.values() if c.standing]:
        ctx = Context(enc, c, weights_for(c), SideMemory())
        for p in c.powers:
            if p.attack is None:
                continue
            for t in [*ctx.f.enemies, *ctx.f.downed]:
                squares = rng.sample(walkable, min(8, len(walkable)))
                # the squares next to the target too: flanking, a prone or helpless target
                squares += [(t.pos[0] + dx, t.pos[1] + dy) for dx in (-1, 1) for dy in (-1, 1)]
                for sq in squares:
                    if sq not in entry_costs(b.map):
                        continue
                    origin = rng.choice(walkable) if p.kind == "area" else None
                    hit = hit_at(ctx, p, t, sq, origin)
                    assert hit is not None
                    top = hit_bound(ctx, p, t)
                    near = hit_bound(ctx, p, t, ca_possible(ctx, p, t, sq))
                    assert hit.value <= near <= top, (c.id, p.id, t.id, sq, origin, hit)


def _plans(enc: Encounter, prune: bool) -> dict[str, list[tuple[object, ...]]]:
    """Every standing creature's attack turns as the planner keeps them, with or without
    skipping by the bound."""
    attack_plans.PRUNE = prune
    try:
        out: dict[str, list[tuple[object, ...]]] = {}
        for c in [c for c in enc.battle.combatants.values() if c.standing]:
            if enc.current is None or enc.current.id != c.id:
                continue
            planner = Planner()
            planner.decide(enc, c)
            out[c.id] = [
                (
                    o.kind,
                    o.score,
                    o.end,
                    o.route.path if o.route is not None else None,
                    o.power.id if o.power is not None else None,
                    o.targets,
                    o.origin,
                    o.hits,
                    o.post.path if o.post is not None else None,
                    o.provoked,
                )
                for o in planner.last_options
            ]
        return out
    finally:
        attack_plans.PRUNE = True


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**STATES)
def test_skipping_by_the_bound_keeps_the_same_best_turns(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str
) -> None:
    enc = _fight(map_seed, n, seed, steps, ruleset)
    if enc is None:
        return
    assert _plans(enc, True) == _plans(enc, False)


@pytest.mark.parametrize("ruleset", ["ffd20", "4srd", "d20srd"])
def test_the_search_skips_candidates_and_keeps_the_same_turns(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fixed fights where the bound does skip some: fewer previews, same turns."""
    calls = {True: 0, False: 0}
    mode = [True]
    real = previews.hit_at

    def counting(*args: object, **kw: object) -> object:
        calls[mode[0]] += 1
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(attack_plans, "hit_at", counting)
    compared = 0
    for map_seed in range(20):
        enc = _fight(map_seed, 7, map_seed, 6, ruleset)
        if enc is None:
            continue
        mode[0] = True
        pruned = _plans(enc, True)
        mode[0] = False
        full = _plans(enc, False)
        assert pruned == full, map_seed
        compared += len(full)
    assert compared >= 10
    assert calls[True] < calls[False]
