"""`engine.attacks.setup` is three parts (issue 14): the attacker's, the target's and the
squares'. The roll, the previews and the AI compose the same parts; the attacker's part and the
two-creature half of the target's are kept per battle. These properties pin both:

- F-ATK-2, F-MOD-1..11: every attack any creature could make on any other, from where it
  stands and as if it stood elsewhere, composed from kept parts equals the same setup worked
  out with every memo emptied, over random states: fights of every ruleset cut anywhere (an
  undo or a resumed save is such a cut), conditions added and removed between the questions
  (so kept parts must notice), creatures larger than one square (`keep-d20`'s ogre);
- a resumed fight (`Encounter.replay` of the same records, nothing kept) sets up every attack
  as the fight that kept its parts does;
- the damage expression kept per battle for each (attacker, damage, weapon) equals
  `damage_expr` worked out afresh (F-DMG-1), as effects changing damage come and go;
- equal square parts give equal setups, so the AI may share a preview between squares; the
  AI's target part (flank sides worked out once for every square) composes the setup the
  roll's does (flanking asked per square).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import attacks, preview
from engine.damage import _expression
from engine.effects import end
from engine.encounter import Encounter
from engine.grid import footprint
from engine.state import Combatant
from tests.engine.test_caches import CHANGES, STATES, cut, loaded
from tests.support.helpers import put_effect

Setup = attacks.AttackSetup


def every_setup(enc: Encounter, rng: random.Random) -> dict[tuple[object, ...], Setup]:
    """Every attack of every standing creature on every living one, from where it stands and
    from two random squares (powers of every kind; area ones from the target's square)."""
    b = enc.battle
    out: dict[tuple[object, ...], Setup] = {}
    squares = [(x, y) for x in range(b.map.width) for y in range(b.map.height)]
    for c in list(b.combatants.values()):
        if not c.standing:
            continue
        spots = [None, *rng.sample(squares, 2)]
        for p in c.powers:
            if p.attack is None:
                continue
            w = c.weapon_for(p)
            for t in [t for t in b.combatants.values() if t.alive and t.id != c.id]:
                origin = (t.pos,) if p.kind in ("close", "area") else None
                for at in spots:
                    key = (c.id, p.id, t.id, at)
                    out[key] = attacks.setup(b, c, t, p, w, origin, at=at)
    return out


def cold(enc: Encounter, rng: random.Random) -> dict[tuple[object, ...], Setup]:
    """`every_setup` with every memo emptied first (the battle's own left as they were)."""
    b = enc.battle
    kept = b._cond_cache, b.memo
    b._cond_cache, b.memo = {}, {}
    try:
        return every_setup(enc, rng)
    finally:
        b._cond_cache, b.memo = kept


def agree(enc: Encounter, seed: int) -> None:
    warm = every_setup(enc, random.Random(seed))
    again = every_setup(enc, random.Random(seed))  # read from the kept parts
    assert again == warm
    assert warm == cold(enc, random.Random(seed))


@settings(max_examples=30, deadline=None)
@given(**STATES, changes=CHANGES)
def test_property_kept_attack_parts_equal_uncached_F_ATK_2_F_MOD_1(
    name: str, seed: int, ruleset: str, at: float, changes: list[tuple[int, str, bool]]
) -> None:
    enc = cut(name, seed, ruleset, at)
    b = enc.battle
    ids = list(b.combatants)
    agree(enc, seed)
    for who, condition, add in changes:
        cid = ids[who % len(ids)]
        if add:
            if b[cid].alive:
                put_effect(enc, cid, conditions=(condition,))
        else:
            mine = [e for e in b.effects.values() if e.target == cid]
            if mine:
                end(b, mine[0], "ended")
        agree(enc, seed)
    b[ids[0]].acted = not b[ids[0]].acted  # flat-footed (4srd, d20srd) reads it
    agree(enc, seed)


@settings(max_examples=15, deadline=None)
@given(**STATES)
def test_property_a_resumed_fight_sets_up_attacks_as_the_one_that_kept_its_parts(
    name: str, seed: int, ruleset: str, at: float
) -> None:
    enc = cut(name, seed, ruleset, at)
    every_setup(enc, random.Random(seed))  # warm
    resumed = Encounter.replay(loaded(name), enc.records, seed=enc.seed, ruleset=ruleset)
    assert every_setup(resumed, random.Random(seed)) == every_setup(enc, random.Random(seed))


@settings(max_examples=15, deadline=None)
@given(**STATES)
def test_property_equal_square_parts_give_equal_setups_F_MOD_1_F_MOD_3(
    name: str, seed: int, ruleset: str, at: float
) -> None:
    enc = cut(name, seed, ruleset, at)
    b = enc.battle
    c = enc.current
    if c is None:
        return
    seen: dict[tuple[str, str, attacks.SquarePart], Setup] = {}
    for p in [p for p in c.powers if p.attack is not None]:
        w = c.weapon_for(p)
        ap = attacks.attacker_part(b, c, p, w)
        for t in [t for t in b.combatants.values() if t.alive and t.id != c.id]:
            tp = attacks.target_part(b, c, t, ap, sides=True)  # as the AI asks it
            for sq in _spots(enc, c):
                a_sq = footprint(sq, c.size)
                sp = attacks.square_part(b, c, t, p, w, (ap, tp), sq, a_sq, a_sq)
                s = attacks.compose(b, c, t, (ap, tp, sp))
                assert s == attacks.setup(b, c, t, p, w, at=sq)
                assert seen.setdefault((p.id, t.id, sp), s) == s


def _spots(enc: Encounter, c: Combatant) -> list[tuple[int, int]]:
    m = enc.battle.map
    return [(x, y) for x in range(0, m.width - c.size + 1, 2) for y in range(m.height - c.size + 1)]


@settings(max_examples=25, deadline=None)
@given(**STATES, changes=CHANGES, bonus=st.integers(-3, 3))
def test_property_kept_damage_expressions_equal_uncached_F_DMG_1(
    name: str,
    seed: int,
    ruleset: str,
    at: float,
    changes: list[tuple[int, str, bool]],
    bonus: int,
) -> None:
    enc = cut(name, seed, ruleset, at)
    b = enc.battle
    ids = list(b.combatants)

    def agree() -> None:
        for c in b.combatants.values():
            for p in c.powers:
                for spec in (p.hit, p.miss, p.effect):
                    if spec is None or spec.damage is None:
                        continue
                    w = c.weapon_for(p)
                    want = preview.damage_expr(b, c, spec.damage, w)
                    for _ in range(2):  # the second from the memo
                        expr, text = _expression(b, c, spec.damage, w)
                        assert (expr, text) == (want, str(want)), (c.id, p.id)

    agree()
    for who, _condition, add in changes:
        cid = ids[who % len(ids)]
        if add:
            if b[cid].alive:
                put_effect(enc, cid, modifiers=(("damage", bonus),))
        else:
            mine = [e for e in b.effects.values() if e.target == cid]
            if mine:
                end(b, mine[0], "ended")
        agree()


@settings(max_examples=300, deadline=None)
@given(
    defense=st.integers(-10, 60),
    mods=st.lists(st.integers(-8, 12), max_size=6),
    crit_low=st.integers(2, 21),
    cdg=st.booleans(),
)
def test_property_kept_odds_equal_the_odds_worked_out_F_ATK_3_F_ATK_8(
    defense: int, mods: list[int], crit_low: int, cdg: bool
) -> None:
    """`outcome_odds` keeps its answer by (number needed, threat range, coup de grace): twice
    asked, it equals `_odds` worked out over the faces, and the rolls' own count of them."""
    from engine.events import Mod

    s = Setup(
        tuple(Mod("m", v) for v in mods), defense, False, False, "none", "none", crit_low, cdg
    )
    need = defense - sum(mods)
    assert preview.outcome_odds(s) == preview._odds(need, crit_low, cdg)
    assert preview.outcome_odds(s) == preview._odds(need, crit_low, cdg)
    crit = sum(1 for nat in range(2, 21) if nat >= need and (nat >= crit_low or cdg))
    hit = sum(1 for nat in range(2, 21) if nat == 20 or nat >= need)
    assert preview.outcome_odds(s) == (hit / 20, crit / 20)


@settings(max_examples=25, deadline=None)
@given(**STATES)
def test_property_target_part_given_the_flank_sides_equals_working_them_out_F_MOD_1(
    name: str, seed: int, ruleset: str, at: float
) -> None:
    """The AI hands `target_part` the flank sides it asked once per target
    (`engine.flanking.flank_sides`): the part is the one that works them out itself."""
    from engine.flanking import flank_sides

    enc = cut(name, seed, ruleset, at)
    b = enc.battle
    for c in [c for c in b.combatants.values() if c.standing]:
        for p in [p for p in c.powers if p.attack is not None]:
            ap = attacks.attacker_part(b, c, p, c.weapon_for(p))
            for t in [t for t in b.combatants.values() if t.alive and t.id != c.id]:
                own = attacks.target_part(b, c, t, ap, sides=True)
                given_ = attacks.target_part(b, c, t, ap, sides=True, flank=flank_sides(b, c, t))
                assert given_ == own
                assert attacks.target_part(b, c, t, ap, flank=flank_sides(b, c, t)).sides is None
