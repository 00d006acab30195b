"""Properties of every policy over random fights (Hypothesis, modest example counts).

- A policy never submits an illegal action: whatever `next_action` returns passes
  `Encounter.validate` (and so `apply` never raises).
- A policy never changes the state it reads: the snapshot, the log and the dice are the same
  before and after `next_action`.
- Every fight played by the policies ends (or reaches the action cap without a refusal).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.naive import NaivePolicy
from ai.policy import Policy
from ai.tactical import TacticalPolicy
from engine.decisions import Question
from engine.encounter import Encounter
from tests.ai.random_fights import load_fight, mid_fight_of


class _Route:
    def __init__(self, policies: dict[str, Policy], holder: list[Encounter]) -> None:
        self.policies, self.holder = policies, holder

    def answer(self, q: Question) -> Any:
        enc = self.holder[0]
        return self.policies[enc.battle[q.who].side].answer(enc, q)


def _state(enc: Encounter) -> Any:
    b = enc.battle
    return (
        enc.snapshot(),
        len(b.log),
        list(b.dice.faces),
        dict(b.spent),
        {c.id: (c.pos, c.hp, sorted(c.used_powers)) for c in b.combatants.values()},
        sorted(b.effects),
    )


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    map_seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 7),
    seed=st.integers(0, 10_000),
    party=st.sampled_from(["tactical", "naive"]),
    monsters=st.sampled_from(["tactical", "naive"]),
    ruleset=st.sampled_from(["ffd20", "4srd", "d20srd"]),
)
def test_policies_never_submit_illegal_actions_nor_change_state(
    map_seed: int, n: int, seed: int, party: str, monsters: str, ruleset: str
) -> None:
    loaded = load_fight(map_seed, n)
    if loaded is None:
        return
    pol = {"party": party, "monsters": monsters}
    policies: dict[str, Policy] = {
        s: (TacticalPolicy() if name == "tactical" else NaivePolicy()) for s, name in pol.items()
    }
    holder: list[Encounter] = []
    router = _Route(policies, holder)
    enc = Encounter.create(
        loaded,
        seed=seed,
        deciders=lambda _cid: router,
        control={"party": "ai", "monsters": "ai"},
        ruleset=ruleset,
    )
    holder.append(enc)
    enc.start()
    for _ in range(150):
        if enc.over:
            break
        c = enc.current
        assert c is not None
        before = copy.deepcopy(_state(enc))
        choice = policies[c.side].next_action(enc)
        assert copy.deepcopy(_state(enc)) == before, "a policy changed the state"
        reason = enc.validate(choice.action)
        assert reason is None, f"{policies[c.side].name} chose {choice.action!r}: {reason}"
        enc.apply(choice.action, choice.decision)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    map_seed=st.integers(0, 2**32 - 1),
    n=st.integers(3, 7),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 30),
    ruleset=st.sampled_from(["ffd20", "4srd", "d20srd"]),
)
def test_shared_previews_equal_the_engines(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str
) -> None:
    """F-MOD-1, F-MOD-5..9: the AI shares one preview among the squares with the same
    `ai.previews.preview_key`; each shared value must be what the engine's preview(at=square)
    says there, for every creature as the one deciding, Large ones included."""
    from ai.memory import SideMemory
    from ai.previews import hit_at
    from ai.roles import weights_for
    from ai.scoring import Context
    from engine.flanking import flanking
    from engine.grid import entry_costs, footprint
    from engine.preview import preview

    enc = mid_fight_of(map_seed, n, seed, steps, ruleset)
    if enc is None:
        return
    b = enc.battle
    rng = random.Random(seed)
    walkable = entry_costs(b.map)
    for c in [c for c in b.combatants.values() if c.standing]:
        ctx = Context(enc, c, weights_for(c), SideMemory())
        occ = ctx.f.occ
        squares = [
            sq
            for sq in sorted(walkable)
            if all(s in walkable and occ.at(s) in (None, c.id) for s in footprint(sq, c.size))
        ]
        for p in c.powers:
            if p.attack is None:
                continue
            for t in ctx.f.enemies:
                for sq in rng.sample(squares, min(12, len(squares))):
                    assert ctx.flanks(sq, t) == flanking(b, c, t, sq)
                    origin = t.pos if p.kind == "area" else None
                    hit = hit_at(ctx, p, t, sq, origin)
                    pv = preview(b, c, t, p, (origin,) if origin else None, at=sq)
                    assert hit is not None and pv is not None
                    assert (hit.hit, hit.expected) == (pv.hit, pv.expected_damage), (c.id, sq)
                    assert hit.flank == pv.setup.flanking
