"""Every cache on the rules core's hot paths gives what working it out afresh gives (issue 14),
over random states: fights of every ruleset cut anywhere (an undo or a resume is such a cut:
`Encounter.replay` of the first records), with conditions added and removed, creatures larger
than one square among them (`keep-d20`'s ogre), and random creatures for the ruleset memos.

- `Battle._conditions` (conditions and flags, cached until an effect on the creature, its hit
  point state, surprise or having acted changes) against an empty cache, and the effect
  table's per-creature versions it keys on, whatever changes the table;
- the ruleset's attack-bonus and defense memos, shared by every fight of a ruleset class,
  against the uncached `_attack_modifiers` / `_defense`;
- the naive policy's basic powers per creature against `basic_powers`;
- an attack's setup (which reads each creature's conditions once) against the same setup
  with every cache emptied first; flanking's early out against the set of flank sides, and
  the enemy targets' fast path against the general rule.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ai.naive import Kit, NaivePolicy, basic_powers
from ai.sim import play
from engine import attacks
from engine.battle import EffectTable
from engine.conditions import CONDITION_NAMES
from engine.content.loader import LoadedEncounter, load_encounter
from engine.content.schema import Creature
from engine.effects import end
from engine.encounter import Encounter
from engine.flanking import flank_sides, flanking, side_of
from engine.grid import adjacent, distance, line_of_effect
from engine.powers import eligible, power_range, targets_for
from engine.rulesets import get_ruleset, ruleset_names
from engine.state import ActiveEffect
from tests.support.helpers import NAIVE, put_effect

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


def fresh_conditions(enc: Encounter, cid: str) -> tuple[frozenset[str], frozenset[str]]:
    """`_conditions` worked out with an empty cache (the battle's own cache left as it was)."""
    b = enc.battle
    kept = b._cond_cache
    b._cond_cache = {}
    try:
        return b._conditions(b[cid])
    finally:
        b._cond_cache = kept


STATES = {
    "name": st.sampled_from(FIGHTS),
    "seed": st.integers(0, 2),
    "ruleset": st.sampled_from(["ffd20", "4srd", "d20srd"]),
    "at": st.floats(0, 1),
}
CHANGES = st.lists(
    st.tuples(
        st.integers(0, 30),  # whose (an index into the creatures)
        st.sampled_from(sorted(CONDITION_NAMES)),
        st.booleans(),  # True: add an effect, False: end one
    ),
    max_size=8,
)


@settings(max_examples=40, deadline=None)
@given(**STATES, changes=CHANGES)
def test_property_conditions_cache_equals_uncached(
    name: str, seed: int, ruleset: str, at: float, changes: list[tuple[int, str, bool]]
) -> None:
    enc = cut(name, seed, ruleset, at)
    b = enc.battle
    ids = list(b.combatants)

    def agree() -> None:
        for cid in ids:
            assert b._conditions(b[cid]) == fresh_conditions(enc, cid), cid

    agree()  # warm: every creature's entry is cached now
    for who, condition, add in changes:
        cid = ids[who % len(ids)]
        if add:
            if b[cid].alive:  # no effect lands on the dead
                put_effect(enc, cid, conditions=(condition,))
        else:
            mine = [e for e in b.effects.values() if e.target == cid]
            if mine:
                end(b, mine[0], "ended")
        agree()
    b[ids[0]].acted = not b[ids[0]].acted  # flat-footed (4srd, d20srd) reads it
    agree()


@settings(max_examples=30, deadline=None)
@given(**STATES)
def test_property_attack_setup_with_warm_caches_equals_cold(
    name: str, seed: int, ruleset: str, at: float
) -> None:
    """Every attack the current creature could make now, set up with the caches a fight has
    filled and again from nothing (conditions, memos): the same numbers."""
    enc = cut(name, seed, ruleset, at)
    b = enc.battle
    c = enc.current
    if c is None:
        return
    for power in c.powers:
        if power.attack is None or power.kind not in ("melee", "ranged"):
            continue
        weapon = c.weapon_for(power)
        for t in list(b.enemies_of(c)):
            warm = attacks.setup(b, c, t, power, weapon)
            b._cond_cache, b.memo = {}, {}
            cold = attacks.setup(b, c, t, power, weapon)
            assert warm == cold, (c.id, power.id, t.id)
    for power in c.powers:  # targets_for's fast path for enemy powers, against the rule
        if power.kind in ("personal", "close", "area") or power.target == "self":
            continue
        rng, mine = power_range(c, power), b.squares(c)
        want = [
            o.id
            for o in b.living()
            if eligible(b, c, o, power)
            and (
                o.id == c.id
                or (
                    distance(mine, b.squares(o)) <= rng
                    and line_of_effect(b.map, mine, b.squares(o))
                )
            )
        ]
        assert targets_for(b, c, power) == want, power.id
    for t in list(b.enemies_of(c)):  # the early-out flanking test against the sides' set
        facing = side_of(c.pos, c.size, t.pos, t.size)
        sides = flank_sides(b, c, t)
        near = adjacent(b.squares(c), b.squares(t)) and b.can_react(c)
        assert flanking(b, c, t) == (near and facing in sides)
        assert flanking(b, c, t, sides=sides) == flanking(b, c, t)


ABILITY = st.integers(3, 22)
CREATURES = st.fixed_dictionaries(
    {
        "level": st.integers(1, 20),
        "abilities": st.fixed_dictionaries(
            {a: ABILITY for a in ("str", "con", "dex", "int", "wis", "cha")}
        ),
        "armor": st.one_of(
            st.none(),
            st.fixed_dictionaries(
                {
                    "name": st.just("Armor"),
                    "weight": st.sampled_from(["light", "heavy"]),
                    "bonus": st.integers(0, 8),
                }
            ),
        ),
        "shield": st.one_of(
            st.none(),
            st.fixed_dictionaries({"name": st.just("Shield"), "bonus": st.integers(1, 2)}),
        ),
        "given": st.booleans(),
        "size": st.sampled_from(["small", "medium", "large"]),
    }
)


def creature(base: Creature, draw: dict[str, Any]) -> Creature:
    """`base` with the drawn numbers; a monster keeps its given defenses (it must have them)."""
    update = {k: v for k, v in draw.items() if k != "given"}
    if base.kind != "pc" and not draw["given"]:
        update["defenses"] = {k: v + draw["level"] // 4 for k, v in DEFENSES.items()}
    return Creature.model_validate({**base.model_dump(), **update})


DEFENSES = {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12}


@settings(max_examples=60, deadline=None)
@given(spec=CREATURES, ruleset=st.sampled_from(sorted(ruleset_names())), which=st.integers(0, 9))
def test_property_shared_ruleset_memos_equal_uncached(
    spec: dict[str, Any], ruleset: str, which: int
) -> None:
    """A ruleset made for a later fight answers from what an earlier one worked out: the
    same as the uncached rules, for random creatures."""
    enc = Encounter.create(loaded("default"), seed=1, ruleset=ruleset)
    combatants = list(enc.battle.combatants.values())
    c0 = combatants[which % len(combatants)]
    c = dataclasses.replace(c0, creature=creature(c0.creature, spec))
    first, later = get_ruleset(ruleset), get_ruleset(ruleset)
    for rs in (first, later, later):  # the first fills the shared memo; the later one reads it
        for d in ("ac", "fortitude", "reflex", "will"):
            for flat in (False, True):
                for touch in (False, True):
                    want = rs._defense(c.creature, d, flat, touch)
                    assert rs.defense(c, d, flat_footed=flat, touch=touch) == want
        for p in c.powers:
            if p.attack is not None:
                w = c.weapon_for(p)
                assert rs.attack_modifiers(c, p, w) == rs._attack_modifiers(c, p, w)


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(FIGHTS), seed=st.integers(0, 2))
def test_property_naive_basic_powers_cache_equals_uncached(name: str, seed: int) -> None:
    """The naive policy's per-creature basic powers (with their ranges, and its reach), across
    fights (a new fight's creature of the same id has its own powers) and encounters."""
    policy = NaivePolicy()
    for other in FIGHTS:
        enc = Encounter.create(loaded(other), seed=seed)
        for c in enc.battle.combatants.values():
            assert policy.kit(c) == Kit.of(c)
            assert [p for p, _ in policy.kit(c).basics] == basic_powers(c)
    enc = Encounter.create(loaded(name), seed=seed + 1)
    for c in enc.battle.combatants.values():
        kit = policy.kit(c)
        assert [p for p, _ in kit.basics] == basic_powers(c)
        assert [r for _, r in kit.basics] == [power_range(c, p) for p in basic_powers(c)]
        assert kit.reach == max(1, c.reach)
        assert policy.kit(c) is kit


OPS = st.lists(
    st.tuples(
        st.sampled_from(["set", "del", "pop", "popitem", "clear", "update", "setdefault"]),
        st.sampled_from(["e1", "e2", "e3", "e4"]),
        st.sampled_from(["a", "b", "c"]),
    ),
    max_size=20,
)


@settings(max_examples=100, deadline=None)
@given(ops=OPS)
def test_property_effect_table_versions_move_with_each_targets_effects(
    ops: list[tuple[str, str, str]],
) -> None:
    """The conditions cache keys on `EffectTable.target_version`: whenever the effects on a
    creature change, whatever dict method changed them, its version moves."""
    table = EffectTable()

    def on(target: str) -> list[tuple[str, int]]:
        return sorted((k, id(e)) for k, e in table.items() if e.target == target)

    for op, key, target in ops:
        before = {t: (on(t), table.target_version.get(t, 0)) for t in "abc"}
        eff = ActiveEffect(key, "x", target, None, None, "save_ends")
        if op == "set":
            table[key] = eff
        elif op == "del" and key in table:
            del table[key]
        elif op == "pop":
            table.pop(key, None)
        elif op == "popitem" and table:
            table.popitem()
        elif op == "clear":
            table.clear()
        elif op == "update":
            table.update({key: eff})
        elif op == "setdefault":
            table.setdefault(key, eff)
        for t in "abc":
            effects, version = before[t]
            if on(t) != effects:
                assert table.target_version.get(t, 0) > version, (op, key, t)
