"""The plain strike (`engine.strike`, issue 14 target 4) against the general attack path.

F-ATK-1..8, F-DMG-1..5: a single-target melee or ranged attack whose hit only deals damage,
resolved by `engine.strike` when nobody in the fight has a power set off by a hit or a miss,
gives the very log, dice and records the general path (`engine.powers.resolve`) gives:
whole fights of every ruleset and of the bundled encounters (Large and Small creatures,
powers with effects, forced movement and triggered powers among them) are played with the
path on and off and compared line for line, and Hypothesis varies the seeds. Which powers are
plain is checked against the rule written out here, for every power of the bundled content.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.powers
import engine.strike
from ai.sim import play
from engine.actions import UsePower
from engine.conditions import CONDITION_NAMES
from engine.content.loader import LoadedEncounter, load_encounter
from engine.content.schema import TRIGGERED_ACTIONS, Power
from engine.dice import RecordingDice, SeededDice
from engine.effects import end
from engine.encounter import Encounter
from engine.grid import footprint
from engine.state import Combatant
from engine.triggers import answers_attacks
from tests.engine.test_caches import STATES, cut
from tests.support.fights import log_lines
from tests.support.helpers import NAIVE, put_effect

RULESETS = ("ffd20", "4srd", "d20srd")
TACTICAL = {"party": "tactical", "monsters": "tactical"}


@lru_cache(maxsize=16)
def loaded(name: str) -> LoadedEncounter:
    return load_encounter(name)


def _records(enc: Encounter) -> list[tuple[object, ...]]:
    return [(r.action, r.faces, r.answers) for r in enc.records]


def _both(
    name: str, seed: int, ruleset: str, policy: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> tuple[Encounter, Encounter]:
    struck: list[str] = []
    real = engine.powers.strike

    def counted(*args: Any) -> None:
        struck.append(args[3].id)
        real(*args)

    with monkeypatch.context() as m:
        m.setattr(engine.powers, "strike", counted)
        fast, _ = play(loaded(name), seed, policy, ruleset=ruleset)
    assert struck, "the fight took the plain strike at least once"
    with monkeypatch.context() as m:
        m.setattr(engine.strike, "ON", False)
        slow, _ = play(loaded(name), seed, policy, ruleset=ruleset)
    return fast, slow


def _same(fast: Encounter, slow: Encounter) -> None:
    assert log_lines(fast) == log_lines(slow)
    assert _records(fast) == _records(slow)
    assert fast.snapshot() == slow.snapshot()


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("name", ["brawl", "default", "keep-d20", "goblin-hall"])
def test_F_ATK_plain_strike_logs_what_the_general_path_logs(
    name: str, ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _same(*_both(name, 3, ruleset, NAIVE, monkeypatch))


@pytest.mark.parametrize("name", ["default"])
def test_F_ATK_plain_strike_changes_no_tactical_decision(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _same(*_both(name, 11, "ffd20", TACTICAL, monkeypatch))


@settings(max_examples=6, deadline=None)
@given(
    name=st.sampled_from(["brawl", "keep-d20", "default", "gate", "crossroads-4srd"]),
    seed=st.integers(0, 10_000),
    ruleset=st.sampled_from(RULESETS),
)
def test_F_DMG_property_plain_strike_equals_general_path(
    name: str, seed: int, ruleset: str
) -> None:
    """Random seeds: the same fight, line for line, and the same replay records."""
    fast, _ = play(loaded(name), seed, NAIVE, ruleset=ruleset)
    engine.strike.ON = False
    try:
        slow, _ = play(loaded(name), seed, NAIVE, ruleset=ruleset)
    finally:
        engine.strike.ON = True
    _same(fast, slow)
    # a replay takes the general path (recorded dice): the same state and attack lines
    replayed = Encounter.replay(loaded(name), fast.records, seed=fast.seed, ruleset=ruleset)
    assert replayed.snapshot() == fast.snapshot()
    assert _fights(replayed) == _fights(fast)


def _fights(enc: Encounter) -> list[str]:
    """The log but for its first line (which says who controls whom) and the decisions."""
    return [x for x, y in zip(log_lines(enc), enc.log, strict=True) if y.type not in _NOT_REPLAYED]


_NOT_REPLAYED = ("encounter_start", "decision")


def _plain_rule(p: Power) -> bool:
    """The shape `resolve` can hand to the strike, read straight off the power."""
    if p.attack is None or p.kind not in ("melee", "ranged") or p.effect or p.miss:
        return False
    h = p.hit
    return bool(
        h is not None
        and h.damage is not None
        and h.heal is None
        and not h.effects
        and h.forced is None
        and not h.grant_save
        and h.shift is None
    )


@pytest.mark.parametrize("name", ["default", "keep-d20", "battle", "ambush", "goblin-hall"])
def test_F_ATK_plain_power_is_the_plain_shape(name: str) -> None:
    enc = Encounter.create(loaded(name), seed=1)
    b = enc.battle
    seen = 0
    for c in b.combatants.values():
        for p in c.powers:
            for _ in range(2):  # worked out, then kept
                assert engine.strike.plain_power(b, p) is _plain_rule(p), p.id
            seen += 1
    assert seen > 0


def _answers_plain(c: Combatant) -> bool:
    return any(
        p.action in TRIGGERED_ACTIONS and p.trigger is not None and p.trigger.when in HIT_MISS
        for p in c.powers
    )


HIT_MISS = ("hit", "missed")


@pytest.mark.parametrize("name", ["brawl", "default", "keep-d20", "battle"])
def test_F_ATK_answers_attacks_follows_who_is_in_the_fight(name: str) -> None:
    """Whether a target has a power a hit or a miss sets off (the strike is taken only when
    it has none), kept with the index of triggered powers, as creatures come and go."""
    enc = Encounter.create(loaded(name), seed=2)
    enc.start()
    b = enc.battle
    for c in b.combatants.values():
        assert answers_attacks(b, c) is _answers_plain(c)
    answering = [c for c in b.combatants.values() if _answers_plain(c)]
    for c in answering:  # the GM takes each one away, then adds one of its kind back
        enc.gm_removed[c.id] = b.combatants.pop(c.id)
        assert all(answers_attacks(b, o) is _answers_plain(o) for o in b.combatants.values())
    for c in answering:
        b.combatants[c.id] = c
        assert answers_attacks(b, c)


def _state(
    name: str, seed: int, ruleset: str, at: float, changes: list[tuple[int, str, int]]
) -> Encounter:
    """A fight cut anywhere (an undo), changed (`_apply_changes`), then given seeded dice (a
    replay's recorded dice take the general path)."""
    enc = cut(name, seed, ruleset, at)
    _apply_changes(enc, changes)
    enc.battle.dice = RecordingDice(SeededDice(seed + 17))
    return enc


CHANGES = st.lists(
    st.tuples(
        st.integers(0, 30),
        st.sampled_from([*sorted(CONDITION_NAMES), "end", "end", "hp", "temp_hp", "large"]),
        st.integers(0, 40),
    ),
    max_size=6,
)


def _apply_changes(enc: Encounter, changes: list[tuple[int, str, int]]) -> None:
    """Conditions put on and ended, hit points and temporary hit points set, creatures made
    Large (where their 2x2 squares are on the map and free)."""
    b = enc.battle
    ids = list(b.combatants)
    for who, what, n in changes:
        c = b[ids[who % len(ids)]]
        if what == "end":
            mine = [e for e in b.effects.values() if e.target == c.id]
            if mine:
                end(b, mine[0], "ended")
        elif what == "hp":
            c.hp = n - 5
            c.state = b.ruleset.hp_state(c)
        elif what == "temp_hp":
            c.temp_hp = n
        elif what == "large":
            occ = b.occupancy()
            if all(b.map.in_bounds(q) and occ.at(q) in (None, c.id) for q in footprint(c.pos, 2)):
                c.size = 2
                b.moved()
        elif c.alive:
            put_effect(enc, c.id, conditions=(what,))


@settings(max_examples=100, deadline=None)
@given(
    **STATES,
    changes=CHANGES,
    pick=st.tuples(st.integers(0, 30), st.integers(0, 30), st.integers(0, 9)),
    opportunity=st.booleans(),
    between=st.lists(
        st.tuples(
            st.sampled_from(["attacker", "target"]),
            st.sampled_from(["weakened", "insubstantial", "end", "hp", "temp_hp", "prone"]),
            st.integers(0, 40),
        ),
        min_size=1,
        max_size=3,
    ),
    dice=st.integers(0, 1000),
)
def test_F_ATK_property_strike_equals_resolve_over_random_states(
    name: str,
    seed: int,
    ruleset: str,
    at: float,
    changes: list[tuple[int, str, int]],
    pick: tuple[int, int, int],
    opportunity: bool,
    between: list[tuple[str, str, int]],
    dice: int,
) -> None:
    """Two attacks on random states (every ruleset, Large creatures, conditions on and off,
    effects ended, hit point states), more changes between them (what the strike keeps with
    the setup must follow them), resolved with the strike on and off: the same events, dice
    and state."""
    runs = []
    for on in (True, False):
        enc = _state(name, seed, ruleset, at, changes)
        b = enc.battle
        cs = list(b.combatants.values())
        c = cs[pick[0] % len(cs)]
        t = cs[pick[1] % len(cs)]
        powers = [p for p in c.powers if p.attack is not None and p.kind in ("melee", "ranged")]
        if not powers or t is c:
            return
        p = powers[pick[2] % len(powers)]
        b.dice = RecordingDice(SeededDice(dice))
        ids = list(b.combatants)
        later = [(ids.index(c.id if w == "attacker" else t.id), what, n) for w, what, n in between]
        mark = len(b.log)
        engine.strike.ON = on
        try:
            for step in ([], later):
                _apply_changes(enc, step)
                act = UsePower(p.id, (t.id,))
                engine.powers.resolve(b, c, p, act, [t.id], opportunity=opportunity)
        finally:
            engine.strike.ON = True
        lines = [json.dumps(x.to_json(), sort_keys=True, default=str) for x in b.log[mark:]]
        runs.append((lines, b.dice.take(), enc.snapshot()))
    assert runs[0] == runs[1]
