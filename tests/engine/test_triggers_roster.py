"""Triggered powers follow the fight's roster (issue 14 indexes them by kind and creature):
a reinforcement that arrives (F-TRN-2) or a creature the GM adds brings its triggered powers
into the fight, and one the GM removes takes its own away (X-ACT-1)."""

from __future__ import annotations

import copy
import functools
import pickle
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import EndTurn, GmRemove, Move, UsePower
from engine.battle import Battle, Roster
from engine.content.loader import LoadedEncounter, load_encounter
from engine.content.schema import TRIGGERED_ACTIONS
from engine.encounter import Encounter
from engine.events import Attack, Triggered
from engine.triggers import SELF_KINDS, _reactors, any_for, triggered
from tests.support.helpers import Builder, events, mon, write_encounter

GRID = "..........\n..........\n..........\n"
JAB = {
    "id": "jab",
    "name": "Jab",
    "kind": "melee",
    "basic": True,
    "attack": {"bonus": 0, "vs": "ac"},
    "hit": {"damage": {"dice": "6"}},
}


def _triggered(pid: str, action: str, on: str, usage: str = "encounter") -> dict[str, Any]:
    """A triggered melee attack (3 damage)."""
    return {
        "id": pid,
        "name": pid.title(),
        "usage": usage,
        "action": action,
        "kind": "melee",
        "trigger": {"when": on},
        "attack": {"bonus": 0, "vs": "ac"},
        "hit": {"damage": {"dice": "3"}},
    }


ALL = [
    JAB,
    _triggered("riposte", "immediate_reaction", "hit", usage="at-will"),
    _triggered("dodge", "immediate_interrupt", "hit"),
    _triggered("brace", "immediate_reaction", "enemy_enters"),
    _triggered("parting", "immediate_interrupt", "enemy_leaves"),
    _triggered("spite", "immediate_reaction", "damaged"),
    _triggered("fury", "immediate_reaction", "self_bloodied"),
]


def unit(cid: str, powers: list[str]) -> dict[str, Any]:
    return {
        "id": cid,
        "name": cid.title(),
        "role": "soldier",
        "hp": 40,
        "speed": 6,
        "defenses": {"ac": 10, "fortitude": 10, "reflex": 10, "will": 10},
        "powers": ["jab", *powers],
    }


def test_X_ACT_1_F_TRN_2_a_reinforcement_brings_its_triggered_power(build: Builder) -> None:
    enc = build(
        GRID,
        [
            mon("a", (1, 1), "attacker", side="party"),
            mon("d", (5, 1), "defender"),
            mon("r", (2, 1), "riposter", arrives_round=2),
        ],
        creatures=[unit("attacker", []), unit("defender", []), unit("riposter", ["riposte"])],
        powers=ALL,
        faces=[20, 1, 10, 15, 12],  # initiative a, d; r at its arrival; a's jab; r's riposte
    )
    enc.apply(EndTurn())  # a
    enc.apply(EndTurn())  # d; round 2: r arrives between a and d
    assert "r" in enc.battle.combatants and enc.current is not None and enc.current.id == "a"
    out = enc.apply(UsePower("jab", ("r",)))
    assert [(t.id, t.power, t.taken) for t in events(out, Triggered)] == [("r", "riposte", True)]
    assert [(x.attacker, x.target) for x in events(out, Attack)] == [("a", "r"), ("r", "a")]


def test_X_ACT_1_a_creature_the_gm_removed_takes_its_triggered_power_along(
    build: Builder,
) -> None:
    enc = build(
        GRID,
        [
            mon("a", (1, 1), "attacker", side="party"),
            mon("d", (8, 2), "defender"),
            mon("b", (4, 1), "bracer"),
        ],
        creatures=[unit("attacker", []), unit("defender", []), unit("bracer", ["brace"])],
        powers=ALL,
        faces=[20, 1, 10],
    )
    enc.apply(EndTurn())  # a: the triggered powers are indexed by now (turn starts ask)
    assert enc.current is not None and enc.current.id == "b"
    enc.apply(EndTurn())  # b
    enc.apply(GmRemove("b"))  # d's turn: the GM takes the bracer away
    enc.apply(EndTurn())  # d
    out = enc.apply(Move(((1, 1), (2, 1), (3, 1)), "walk"))  # where b's brace would be set off
    assert not events(out, Triggered)
    assert enc.battle["a"].pos == (3, 1)


@functools.cache
def _pool_content() -> LoadedEncounter:
    """Six creatures with assorted triggered powers, two of them Large."""
    kinds = [["riposte", "dodge"], ["brace"], [], ["spite", "fury"], ["parting", "riposte"], []]
    creatures = [unit(f"u{i}", powers) for i, powers in enumerate(kinds)]
    creatures[1]["size"] = creatures[4]["size"] = "large"
    spots = [(0, 0), (3, 0), (6, 0), (0, 2), (8, 1), (5, 2)]
    with tempfile.TemporaryDirectory() as tmp:
        path = write_encounter(
            Path(tmp),
            GRID,
            [mon(f"c{i}", spots[i], f"u{i}", side=("party", "monsters")[i % 2]) for i in range(6)],
            creatures=creatures,
            powers=ALL,
        )
        return load_encounter(path)


def _pool() -> Encounter:
    enc = Encounter.create(_pool_content(), seed=1)
    enc.start()
    assert [c.size for c in enc.battle.combatants.values()] == [1, 2, 1, 1, 2, 1]
    return enc


def _uncached(battle: Battle) -> dict[str, list[tuple[str, str]]]:
    out: dict[str, list[tuple[str, str]]] = {}
    for c in battle.combatants.values():
        for p in c.powers:
            if p.action in TRIGGERED_ACTIONS and p.trigger is not None:
                out.setdefault(p.trigger.when, []).append((c.id, p.id))
    return out


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.booleans()), max_size=12), st.data())
def test_triggered_index_is_the_uncached_table_whoever_joins_or_leaves(
    ops: list[tuple[int, bool]], data: st.DataObject
) -> None:
    enc = _pool()
    b = enc.battle
    everyone = dict(b.combatants)
    for i, leave in ops:
        cid = f"c{i}"
        if leave and data.draw(st.booleans()):
            b.combatants.pop(cid, None)
        elif leave and cid in b.combatants:
            del b.combatants[cid]
        else:
            b.combatants[cid] = everyone[cid]
        table = {k: [(cid, p.id) for cid, p in v] for k, v in triggered(b).items()}
        assert table == _uncached(b)
        for kind in SELF_KINDS:
            for c in b.combatants.values():
                via_index = [(r.id, p.id) for r, p in _reactors(b, kind, c)]
                assert via_index == [e for e in table.get(kind, []) if e[0] == c.id]
        assert any_for(b, *table) == bool(table)


def test_a_roster_copies_and_pickles_with_its_creatures_and_version() -> None:
    roster = _pool().battle.combatants
    del roster["c5"]
    for twin in (copy.deepcopy(roster), pickle.loads(pickle.dumps(roster))):
        assert isinstance(twin, Roster) and list(twin) == list(roster)
        assert twin.version >= roster.version  # never an older version than its creatures
