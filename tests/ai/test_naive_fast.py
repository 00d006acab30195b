"""The naive policy's fast path (issue 14) against the plain reference it replaced
(`tests/ai/naive_reference.py`): the same action and the same `decision` event at every step
of random fights (walls, difficult terrain, pits, a Large creature, minions, ranged and area
basics) and of bundled ones, and its reach map and nearest square against the engine's."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.naive import NaivePolicy, nearest_target
from ai.naive_reach import nearest_square, walk_costs
from engine.actions import EndTurn, Impossible
from engine.content.loader import LoadedEncounter, load_encounter
from engine.encounter import Encounter
from engine.events import Decision
from engine.grid import distance
from engine.powers import power_range, targets_for
from tests.ai.naive_reference import ReferenceNaive, _nearest
from tests.ai.random_fights import load_fight

Square = tuple[int, int]


def _same(a: Decision | None, b: Decision | None) -> bool:
    """The same event, its clock reading aside."""
    if a is None or b is None:
        return a is b
    return (a.id, a.policy, a.summary, a.candidates) == (b.id, b.policy, b.summary, b.candidates)


def _check_state(enc: Encounter) -> None:
    """At this state: the fast reach map is the engine's, and the fast nearest target of
    every basic power is the min of the engine's targets."""
    c = enc.current
    assert c is not None
    b = enc.battle
    fast = walk_costs(b, c)
    if fast is not None:
        assert dict(fast.items()) == enc.reachable("walk")
        assert len(fast) == len(enc.reachable("walk"))
    mine = b.squares(c)
    for p in c.powers:
        if p.attack is None:
            continue
        targets = targets_for(b, c, p)
        want = min(targets, key=lambda t: (distance(mine, b.squares(b[t])), t)) if targets else None
        assert nearest_target(b, c, p, power_range(c, p)) == want


def play_both(loaded: LoadedEncounter, seed: int, ruleset: str | None = None) -> int:
    """Play a fight with the fast policy on every side, asking the reference on every side
    the same question at every step: (the number of decisions compared)."""
    sides = list(dict.fromkeys(cs.side for cs in loaded.spec.combatants))
    fast = {s: NaivePolicy() for s in sides}
    ref = {s: ReferenceNaive() for s in sides}
    holder: list[Encounter] = []

    class Router:
        def answer(self, q):  # type: ignore[no-untyped-def]
            enc = holder[0]
            return fast[enc.battle[q.who].side].answer(enc, q)

    router = Router()
    enc = Encounter.create(
        loaded,
        seed=seed,
        deciders=lambda _cid: router,
        control={s: "ai" for s in sides},
        ruleset=ruleset,
    )
    holder.append(enc)
    enc.start()
    compared = 0
    while not enc.over and enc.battle.round <= 30 and compared < 400:
        c = enc.current
        assert c is not None
        _check_state(enc)
        want = ref[c.side].next_action(enc)
        got = fast[c.side].next_action(enc)
        assert got.action == want.action, (compared, c.id, got.action, want.action)
        assert _same(got.decision, want.decision), (compared, got.decision, want.decision)
        compared += 1
        try:
            enc.apply(got.action, got.decision)
        except Impossible:
            enc.apply(EndTurn())
    return compared


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(map_seed=st.integers(0, 10_000), n=st.integers(2, 7), seed=st.integers(0, 1000))
def test_fast_naive_decides_as_the_reference_in_random_fights(
    map_seed: int, n: int, seed: int
) -> None:
    loaded = load_fight(map_seed, n)
    if loaded is None:
        return
    play_both(loaded, seed)


@pytest.mark.parametrize(
    ("name", "ruleset", "seed"),
    [
        ("brawl", None, 1),
        ("brawl", "4srd", 2),
        ("brawl", "d20srd", 3),
        ("default", None, 4),
        ("chasm", None, 5),
        ("goblin-hall", None, 6),
        ("keep-d20", None, 7),
        ("fog", None, 8),
    ],
)
def test_fast_naive_decides_as_the_reference_in_bundled_fights(
    name: str, ruleset: str | None, seed: int
) -> None:
    assert play_both(load_encounter(name, ruleset), seed, ruleset) > 20


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(1, 3),
    below=st.integers(0, 12),
    fill=st.floats(0.0, 1.0),
)
def test_nearest_square_is_the_min_over_every_square(
    seed: int, size: int, below: int, fill: float
) -> None:
    """The rings around the enemy find what a scan of the whole reach map finds: the least
    (distance, cost, square), when that distance is below `below`."""
    rng = random.Random(seed)
    w, h = rng.randint(1, 14), rng.randint(1, 14)
    ex, ey = rng.randint(-2, w), rng.randint(-2, h)
    theirs = tuple((ex + i, ey + j) for j in range(size) for i in range(size))
    reach = {
        (x, y): rng.randint(1, 9)
        for x in range(w)
        for y in range(h)
        if rng.random() < fill and (x, y) not in theirs
    }
    want = _nearest(theirs, reach) if reach else None
    if want is not None and distance(theirs, (want,)) >= below:
        want = None
    assert nearest_square(theirs, reach, below) == want
