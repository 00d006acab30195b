"""The turn path's shortcuts give what the plain rules give (issue 14, targets 3 and 4).

The rules core skips work when nothing can read it: a turn's effect bookkeeping when no
effect is active, triggered-power questions when nobody in the fight has such a power, the
sight tests of an enemy that threatens no square a move leaves, a look at everyone to see
whether the fight is over while two creatures of different sides still stand; and it keeps a
few answers that follow from frozen content (a creature's basic melee power, its powers by
id and its reach, what its log entry takes from its creature, a map's terrain lists). Each
shortcut is checked here against the plain rule, written out again in this file, over random
states: fights of every ruleset cut anywhere (an undo, or a resumed save), with conditions put
on and taken off, the GM's edits (damage, removal, a creature added), creatures moved about,
and Large creatures among them (`keep-d20`'s ogre). The turn bookkeeping's shortcuts are
checked whole: fights played with them turned off log exactly what they log with them on.
"""

from __future__ import annotations

import contextlib
from functools import lru_cache
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.battle
import engine.turns
from ai.sim import play
from engine.actions import GmAdd, GmHp, GmRemove, Impossible
from engine.attacks import can_see
from engine.battle import Battle, EffectTable
from engine.conditions import CONDITION_NAMES
from engine.content.loader import LoadedEncounter, load_encounter
from engine.content.schema import TRIGGERED_ACTIONS, TriggerKind
from engine.effects import end
from engine.encounter import Encounter
from engine.grid import Occupancy, Occupant, distance, footprint, threatened_squares
from engine.movement import _threats, act_provokers, budget, opportunity_attack, reactors
from engine.rulesets.base import DEFENSES
from engine.state import Combatant
from engine.triggers import _entries, any_for
from engine.turns import _terrain, check_end, combatant_entry
from tests.support.fights import log_lines
from tests.support.helpers import NAIVE, put_effect

TRIGGER_KINDS: tuple[str, ...] = get_args(TriggerKind)
FIGHTS = ("default", "keep-d20", "brawl")
"""Medium creatures, a Large ogre and Small ones (keep-d20), everyone in reach (brawl)."""


@lru_cache(maxsize=8)
def loaded(name: str) -> LoadedEncounter:
    return load_encounter(name)


@lru_cache(maxsize=32)
def whole(name: str, seed: int, ruleset: str) -> Encounter:
    enc, _ = play(loaded(name), seed, NAIVE, ruleset=ruleset)
    return enc


def cut(name: str, seed: int, ruleset: str, at: float) -> Encounter:
    """The fight as it stood after a share `at` of its actions (an undo, or a resumed save)."""
    done = whole(name, seed, ruleset)
    records = done.records[: max(1, int(len(done.records) * at))]
    return Encounter.replay(loaded(name), records, seed=done.seed, ruleset=ruleset)


# --- the plain rules, as they read before the shortcuts ------------------------------------
def plain_may_react(b: Battle, e: Combatant, mover: Combatant) -> bool:
    return (
        b.can_react(e)
        and next((p for p in e.powers if p.basic and p.kind == "melee"), None) is not None
        and can_see(b, e, mover)
        and b.ruleset.may_take_opportunity(e, b.turn_counter, b.round)
    )


def plain_act_provokers(b: Battle, c: Combatant) -> list[str]:
    mine = b.squares(c)
    return [
        e.id
        for e in b.enemies_of(c)
        if distance(mine, footprint(e.pos, e.size)) == 1 and plain_may_react(b, e, c)
    ]


def plain_threats(b: Battle, mover: Combatant) -> dict[str, frozenset[tuple[int, int]]]:
    return {
        e.id: threatened_squares(b.map, e.pos, e.size, plain_reach(e))
        for e in b.enemies_of(mover)
        if plain_may_react(b, e, mover) and b.ruleset.move_opportunity_open(mover, e, b.round)
    }


def plain_reach(c: Combatant) -> int:
    if c.creature.reach is not None:
        return c.creature.reach
    return max((w.reach for w in c.creature.weapons if w.kind == "melee"), default=1)


def plain_entries(b: Battle, on: str, subject: Combatant | None) -> list[tuple[str, str]]:
    """(creature id, power id) of the powers `on` may set off, in roster order."""
    self_kinds = ("hit", "missed", "damaged", "self_bloodied", "self_dropped")
    return [
        (c.id, p.id)
        for c in b.combatants.values()
        for p in c.powers
        if p.action in TRIGGERED_ACTIONS
        and p.trigger is not None
        and p.trigger.when == on
        and (subject is None or on not in self_kinds or c.id == subject.id)
    ]


def plain_entry(b: Battle, c: Combatant, surprised: bool = False) -> dict[str, Any]:
    cr, rs = c.creature, b.ruleset
    return {
        "id": c.id,
        "name": c.name,
        "side": c.side,
        "pc": c.pc,
        "control": c.control,
        "level": c.level,
        "max_hp": c.max_hp,
        "hp": c.hp,
        "speed": rs.base_speed(c),
        "pos": list(c.pos),
        "size": c.size,
        "reach": plain_reach(c),
        "defenses": {d: rs.defense(c, d) for d in DEFENSES},
        "surprised": surprised,
        "role": cr.role,
        "creature": cr.id,
        "invisible": cr.invisible,
        "insubstantial": cr.insubstantial,
        "minion": cr.minion,
        "immune": list(cr.immune),
        "resist": dict(cr.resist),
        "vulnerable": dict(cr.vulnerable),
        "state": c.state,
        "temp_hp": c.temp_hp,
        "surges": c.surges,
        "action_points": c.action_points,
        "death_failures": c.death_failures,
        "powers_spent": sorted(c.used_powers),
        "powers": [p.id for p in c.powers],
        "skills": cr.skills.model_dump(),
        "numbers": rs.log_numbers(c),
    }


def plain_budget(b: Battle, c: Combatant, mode: str) -> int:
    speed = b.speed(c)
    return {"walk": speed, "run": speed + 2, "shift": 1, "withdraw": 2 * speed}[mode]


# --- random changes to a state ---------------------------------------------------------------
CHANGE = st.tuples(
    st.sampled_from(["effect", "end", "damage", "move", "remove", "add", "touch"]),
    st.integers(0, 40),  # whose (an index into the creatures)
    st.sampled_from(sorted(CONDITION_NAMES)),
    st.integers(0, 400),  # where to (an index into the free squares), or how much
)


def change(enc: Encounter, what: str, who: int, condition: str, n: int) -> None:
    """One random change, as the rules or the GM would make it (a refused GM edit changes
    nothing, which is a state too)."""
    b = enc.battle
    ids = list(b.combatants)
    c = b[ids[who % len(ids)]]
    if what == "effect" and c.alive:
        put_effect(enc, c.id, conditions=(condition,))
    elif what == "end":
        mine = [e for e in b.effects.values() if e.target == c.id]
        if mine:
            end(b, mine[n % len(mine)], "ended")
    elif what == "touch":  # what a triggered power does after it resolves: nobody moved
        b.moved()
    elif what == "move" and c.alive:
        taken = {sq for o in b.living() if o.id != c.id for sq in b.squares(o)}
        free = [
            sq
            for sq in b.map.squares()
            if all(
                b.map.in_bounds(s) and not b.map.blocks_movement(s) and s not in taken
                for s in footprint(sq, c.size)
            )
        ]
        if free:
            c.pos = free[n % len(free)]
            b.moved()
    else:
        gm = {
            "damage": GmHp(c.id, "damage", 1 + n % 30),
            "remove": GmRemove(c.id),
            "add": GmAdd(c.creature.id, c.side, b.map.squares()[n % len(b.map.squares())]),
        }.get(what)
        if gm is not None and not b.over:
            with contextlib.suppress(Impossible):
                enc.apply(gm)


STATES = {
    "name": st.sampled_from(FIGHTS),
    "seed": st.integers(0, 2),
    "ruleset": st.sampled_from(["ffd20", "4srd", "d20srd"]),
    "at": st.floats(0, 1),
    "changes": st.lists(CHANGE, max_size=6),
}


def agree(enc: Encounter) -> None:
    """Every shortcut of the turn path against its plain rule, for every creature."""
    b = enc.battle
    for kind in TRIGGER_KINDS:
        assert any_for(b, kind) == bool(plain_entries(b, kind, None)), kind
    # the occupancy rebuilt from the entries still true of the last one (or the last one
    # itself, when all are), against a fresh one: the same squares, the same order
    fresh = Occupancy.of([Occupant(c.id, c.side, c.pos, c.size) for c in b.living()])
    occ = b.occupancy()
    assert occ == fresh
    assert list(occ.by_id.items()) == list(fresh.by_id.items())
    assert list(occ.by_square.items()) == list(fresh.by_square.items())
    for c in list(b.combatants.values()):
        assert c.basic_melee() is next((p for p in c.powers if p.basic and p.kind == "melee"), None)
        assert c.reach == plain_reach(c), c.id
        for pid in [*(p.id for p in c.powers), "no-such-power"]:
            assert c.power(pid) is next((p for p in c.powers if p.id == pid), None)
        assert combatant_entry(b, c, c.surprised) == plain_entry(b, c, c.surprised)
        assert list(combatant_entry(b, c)) == list(plain_entry(b, c)), "the keys' order"
        for kind in TRIGGER_KINDS:
            got = [(cid, p.id) for cid, p in _entries(b, kind, c) or []]
            assert got == plain_entries(b, kind, c), (c.id, kind)
        if not c.alive:
            continue
        assert [e.id for e in act_provokers(b, c)] == plain_act_provokers(b, c), c.id
        assert [e.id for e in reactors(b, c)] == [
            e.id for e in b.enemies_of(c) if plain_may_react(b, e, c)
        ]
        every = plain_threats(b, c)
        assert _threats(b, c) == every
        x, y = c.pos
        for reach in (1, 2, 4):  # the squares some move leaves: near ones, then far ones too
            left = {
                sq
                for p in [(x + i, y) for i in range(-reach, reach + 1)]
                for sq in footprint(p, c.size)
            }
            assert _threats(b, c, left) == {
                k: v for k, v in every.items() if not left.isdisjoint(v)
            }, (c.id, reach)
        for mode in ("walk", "run", "shift", "withdraw"):
            assert budget(b, c, mode) == plain_budget(b, c, mode), (c.id, mode)
    assert _terrain(b.map) == tuple((k, tuple(v)) for k, v in b.map.terrain_squares().items())
    if not b.over:  # F-TRN-6: the two kept witnesses (`end_pair`) against everyone's states
        everyone = [*b.combatants.values(), *(c for _, c in b.waiting.values())]
        sides = {c.side for c in everyone if c.standing}
        assert check_end(b) == (len(sides) < 2)


@settings(max_examples=40, deadline=None)
@given(**STATES)
def test_property_turn_path_shortcuts_equal_the_plain_rules(
    name: str, seed: int, ruleset: str, at: float, changes: list[tuple[str, int, str, int]]
) -> None:
    enc = cut(name, seed, ruleset, at)
    agree(enc)  # warm: every memo is filled now
    for what, who, condition, n in changes:
        change(enc, what, who, condition, n)
        agree(enc)


class _Busy(EffectTable):
    """An effect table that says it holds effects even when empty: the turn bookkeeping's
    shortcuts (`engine.turns` skips a turn's expiries and saves when none is active) off."""

    def __bool__(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("name", "ruleset", "policy"),
    [
        ("brawl", "ffd20", NAIVE),
        ("keep-d20", "d20srd", NAIVE),
        ("default", "4srd", NAIVE),
        ("default", "ffd20", {"party": "tactical", "monsters": "tactical"}),
    ],
)
def test_turn_bookkeeping_shortcuts_change_no_log_line(
    name: str, ruleset: str, policy: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """F-DUR-2/3, F-SAV-2, F-DMG-6: a whole fight, played again with every turn-start and
    turn-end rule always run (the triggered-power and effect shortcuts off), logs and
    records the same lines, dice and answers."""
    fast, _ = play(loaded(name), 5, policy, ruleset=ruleset)
    monkeypatch.setattr(engine.battle, "EffectTable", _Busy)
    monkeypatch.setattr(engine.turns, "any_for", lambda battle, *kinds: True)
    slow, _ = play(loaded(name), 5, policy, ruleset=ruleset)
    assert isinstance(slow.battle.effects, _Busy)
    assert log_lines(slow) == log_lines(fast)
    assert [(r.action, r.faces, r.answers) for r in slow.records] == [
        (r.action, r.faces, r.answers) for r in fast.records
    ]


def test_X_OA_1_a_creature_the_gm_adds_takes_opportunity_attacks_like_the_others() -> None:
    """A reinforcement the GM adds gets the ruleset's record of its opportunity attacks, as
    every creature at the start does: it may take one (S-14), then no more this turn."""
    enc = Encounter.create(loaded("brawl"), seed=1)
    enc.start()
    b = enc.battle
    hero = b["seren"]
    enc.apply(GmAdd("raider-thug", "monsters", (hero.pos[0] - 1, hero.pos[1]), id="thug-2"))
    added = b["thug-2"]
    assert added in reactors(b, hero)
    assert added in act_provokers(b, hero)
    opportunity_attack(b, added, hero, hero.pos)
    assert not b.ruleset.may_take_opportunity(added, b.turn_counter, b.round)
    assert added not in act_provokers(b, hero)


def test_F_TRN_6_the_fight_goes_on_while_two_sides_stand_whoever_falls_first() -> None:
    """`check_end` keeps two standing creatures of different sides as witnesses; when one
    falls (or leaves) it looks at everyone again, and the fight ends with the last side."""
    enc = Encounter.create(loaded("brawl"), seed=2)
    enc.start()
    b = enc.battle
    monsters = [c.id for c in b.combatants.values() if c.side == "monsters"]
    assert b.end_pair is not None and not b.over
    for i, cid in enumerate(monsters):
        if cid == b.current:
            continue  # the GM can't remove the creature whose turn it is: it drops last
        enc.apply(GmHp(cid, "damage", 999) if i % 2 else GmRemove(cid))
        left = [m for m in monsters if m in b.combatants and b[m].standing]
        assert b.over == (not left), cid
    for cid in [m for m in monsters if m in b.combatants and b[m].standing]:
        enc.apply(GmHp(cid, "damage", 999))
    assert b.over and b.winner == "party"
