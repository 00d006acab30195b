"""What `read_comers` reads, worked out faster (issue 14), equals the plain code: Hypothesis
over random fights (random maps, creatures of every size with a Large ogre among them, the
three rulesets).

- `ai.comers.since` reads the log's index (`ai.log_index`), kept up to date as the fight
  goes on, instead of scanning the log since the sighting: the same creatures and the same
  verdict for every place in the log and both sides, at every step of the fight; and after
  the log was cut back and grown another way (the index starts again).
- `ai.comers.gap` works out the one-square pairs inline: the same as the engine's
  `distance` over the team's footprints (sizes 1-3).
- `ai.profile.profile_of` is kept by the powers' identity and the reach: the same as the
  profile read afresh, for every creature of the fight.

A differential, not a timing: tests/benchmarks/bench_side.py measures.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.comers import gap, since
from ai.log_index import LogIndex
from ai.profile import profile_of, read_profile
from ai.tactical import TacticalPolicy
from engine.battle import Battle
from engine.events import Damage, Logged, TurnStart
from engine.grid.geometry import distance, footprint
from tests.ai.random_fights import MID_FIGHTS, mid_fight_of


def plain_since(log: list[Logged], seq: int, b: Battle, side: str) -> tuple[set[str], bool]:
    """`since` as it was: a scan of the log from `seq`."""
    acted: set[str] = set()
    hurt = False
    roster = b.combatants
    for logged in log[seq:]:
        ev = logged.event
        if isinstance(ev, TurnStart):
            acted.add(ev.id)
        elif isinstance(ev, Damage) and ev.amount > 0 and not hurt:
            c = roster.get(ev.target)
            hurt = c is not None and c.side == side
    return acted, hurt


class _Then:
    def __init__(self, seq: int) -> None:
        self.seq = seq


def _check_since(b: Battle) -> None:
    sides = sorted({c.side for c in b.combatants.values()})
    n = len(b.log)
    for seq in {0, 1, n // 3, n // 2, max(0, n - 7), max(0, n - 1), n, n + 3}:
        for side in sides:
            got = since(_Then(seq), b, side)  # type: ignore[arg-type]
            assert got == plain_since(b.log, seq, b, side), (seq, side)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**MID_FIGHTS)
def test_since_reads_the_log_as_the_scan(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str
) -> None:
    enc = mid_fight_of(map_seed, n, seed, steps, ruleset)
    if enc is None:
        return
    pol = TacticalPolicy()
    for _ in range(15):
        _check_since(enc.battle)
        if enc.over or enc.current is None:
            break
        enc.apply(pol.next_action(enc).action)
    _check_since(enc.battle)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**MID_FIGHTS, cut=st.integers(0, 40), data=st.data())
def test_the_index_starts_again_on_a_log_cut_back(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str, cut: int, data: st.DataObject
) -> None:
    """A log cut back (and grown with other entries, or not) is read again from its start:
    the index answers as the scan of the log as it now is."""
    enc = mid_fight_of(map_seed, n, seed, steps, ruleset)
    if enc is None:
        return
    b = enc.battle
    log = list(b.log)
    index = LogIndex()
    index.update(log)
    cut = min(cut, len(log))
    shorter = log[: len(log) - cut]
    # grown again with copies (other objects) of some of the entries cut off, or none
    extra = data.draw(st.lists(st.sampled_from(log), max_size=cut)) if cut else []
    other = shorter + [Logged(len(shorter) + i, x.round, x.event) for i, x in enumerate(extra)]
    index.update(other)
    fresh = LogIndex()
    fresh.update(other)
    assert (index.n, index.turns, index.hurt) == (fresh.n, fresh.turns, fresh.hurt)
    for seq in range(0, len(other) + 2, max(1, len(other) // 9)):
        for side in {c.side for c in b.combatants.values()}:
            assert index.since(seq, b, side) == plain_since(other, seq, b, side)


def _foot(draw: st.DrawFn) -> tuple[tuple[int, int], ...]:
    size = draw(st.sampled_from([1, 1, 1, 2, 3]))
    return footprint((draw(st.integers(-5, 30)), draw(st.integers(-5, 30))), size)


@given(st.data())
def test_gap_equals_the_distance_over_the_team(data: st.DataObject) -> None:
    squares = data.draw(st.composite(_foot)())
    team = data.draw(st.lists(st.composite(_foot)(), min_size=1, max_size=8))
    want = min(distance(squares, other) for other in team)
    assert gap(squares, team) == want
    assert gap(squares, tuple(team)) == want


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**MID_FIGHTS)
def test_kept_profiles_equal_fresh_ones(
    map_seed: int, n: int, seed: int, steps: int, ruleset: str
) -> None:
    enc = mid_fight_of(map_seed, n, seed, steps, ruleset)
    if enc is None:
        return
    for _ in range(2):  # the second time from what was kept
        for c in enc.battle.combatants.values():
            assert profile_of(c) == read_profile(tuple(c.powers), c.reach), c.id
