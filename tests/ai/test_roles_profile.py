"""Roles read from the creature (issue 15, target 3) and patience (target 1's first strike).

`ai.profile` reads what a creature's powers do; `ai.roles.weights_for` corrects the role's
weights by it under the `tactical` configuration (the `classic` one keeps the role table).
Patience: a turn with no attack doesn't end where the enemies can walk up and strike first,
and wears off after `AIConfig.patient_turns` idle turns, so two patient sides still meet.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ai.config import CLASSIC, CONFIGS
from ai.moving import Patience
from ai.profile import mean_damage, profile_of
from ai.roles import AREA_ENGAGED, REACH_FLANK, ROLE_PATIENCE, ROLE_WEIGHTS, weights_for
from ai.tactical import TacticalPolicy
from engine.actions import EndTurn, Move, UsePower
from engine.content.loader import load_encounter
from engine.encounter import Encounter
from engine.grid import chebyshev
from tests.support.helpers import BASIC_MELEE, BOLT_VS_AC, CLAW, FIGHTER, SLAM, mon, pc
from tests.support.scenarios import monster, play_turn, until_turn

TACTICAL = CONFIGS["tactical"]


def _keep() -> Encounter:
    return Encounter.create(load_encounter("keep-d20"), seed=1)


def test_keep_shadow_is_read_as_the_melee_creature_it_is() -> None:
    shadow = _keep().battle["shadow"]
    prof = profile_of(shadow)
    assert shadow.creature.role == "controller"
    assert prof.melee_only and not prof.controls and not prof.shooter
    classic = weights_for(shadow, config=CLASSIC)
    tactical = weights_for(shadow, config=TACTICAL)
    assert classic == ROLE_WEIGHTS["controller"]  # classic: the tag alone
    assert classic.keep_range and classic.engaged < 0
    assert not tactical.keep_range and tactical.engaged >= 0  # no range to keep
    assert tactical.condition == 1.0  # no control power to favour


def test_a_ranged_creature_keeps_its_range_whatever_its_tag(build: Any) -> None:
    creatures = [FIGHTER, monster("sniper", "brute", ["bolt"])]
    enc = build(
        "........",
        [pc("hero", (0, 0)), mon("s", (7, 0), creature="sniper")],
        creatures=creatures,
        powers=[BASIC_MELEE, BOLT_VS_AC],
    )
    s = enc.battle["s"]
    prof = profile_of(s)
    bolt = s.power("bolt")
    assert bolt is not None
    assert prof.far_range == 10 and prof.far == mean_damage(bolt) == 7.5  # 1d8+3
    assert 0 < prof.melee < prof.far / 1.2  # the basic melee every creature gets
    assert prof.shooter
    tactical = weights_for(s, config=TACTICAL)
    assert tactical.keep_range and tactical.engaged < 0
    assert not weights_for(s, config=CLASSIC).keep_range


SHADOW_GRID = "\n".join(["............"] * 7)


def _shadow_turn(tmp_path: Any, party: list[dict[str, Any]], cfg: Any) -> tuple[Any, Any]:
    from tests.support.helpers import write_encounter

    path = write_encounter(
        tmp_path,
        SHADOW_GRID,
        [*party, mon("shadow", (9, 3), creature="keep-shadow")],
        creatures=[],
        powers=[],
        include=["d20/keep"],
        ruleset="d20srd",
    )
    enc = Encounter.create(load_encounter(path), seed=3)
    enc.start()
    until_turn(enc, "shadow")
    return play_turn(enc, TacticalPolicy(config=cfg))


def test_keep_shadow_attacks_what_it_can_reach(tmp_path: Any) -> None:
    """The issue's Keep Shadow: a "controller" whose one attack is a touch kept out of reach
    by its tag (`classic` walks up and doesn't attack) with Wren in reach of a walk and a
    touch; read as the melee creature it is, it attacks."""
    party = [pc("wren", (3, 3), creature="wren")]
    actions, decisions = _shadow_turn(tmp_path, party, TACTICAL)
    touches = [a for a in actions if isinstance(a, UsePower)]
    assert touches and touches[0].power == "chilling-touch", decisions[0].summary
    assert touches[0].targets == ("wren",)
    c_actions, c_decisions = _shadow_turn(tmp_path, party, CLASSIC)
    assert not any(isinstance(a, UsePower) for a in c_actions), c_decisions[0].summary


def test_keep_shadow_holding_with_an_attack_in_reach_says_why(tmp_path: Any) -> None:
    """With Korga's greataxe by Wren, every square that reaches Wren is deadly: holding may
    win on expected value, and then the explanation says so and names the attack (never
    "out of reach" while an attack was a candidate)."""
    party = [pc("wren", (3, 3), creature="wren"), pc("korga", (1, 2), creature="korga")]
    actions, decisions = _shadow_turn(tmp_path, party, TACTICAL)
    text = decisions[0].summary
    if not any(isinstance(a, UsePower) for a in actions):
        assert "holds its position" in text
        assert "holding wins on expected value" in text and "Chilling Touch" in text, text
        assert "out of reach" not in text


# --- patience ------------------------------------------------------------------------------
LANE = "\n".join(["................"] * 3)


def _lane(build: Any) -> Encounter:
    creatures = [FIGHTER, monster("brute", "brute", ["slam"])]
    return build(
        LANE,
        [pc("hero", (15, 1)), mon("b", (1, 1), creature="brute")],
        creatures=creatures,
        powers=[BASIC_MELEE, CLAW, SLAM],
    )


def test_patient_brute_waits_at_the_edge_of_the_reach_it_cant_strike_from(build: Any) -> None:
    """14 squares away: too far to attack this turn. Classic double-moves into the hero's
    reach (the hero strikes first); tactical ends out of the hero's walk and reach."""
    ends = {}
    for name, cfg in (("classic", CLASSIC), ("tactical", TACTICAL)):
        enc = _lane(build)
        until_turn(enc, "b")
        actions, _ = play_turn(enc, TacticalPolicy(config=cfg))
        assert not any(isinstance(a, UsePower) for a in actions)
        ends[name] = enc.battle["b"].pos
    hero = _lane(build).battle["hero"]
    strike = _lane(build).battle.speed(hero) + hero.reach
    assert chebyshev(ends["classic"], hero.pos) <= strike
    assert chebyshev(ends["tactical"], hero.pos) > strike
    assert ends["tactical"][0] > 1  # it still came closer


def test_patience_wears_off_so_two_waiting_sides_meet(build: Any) -> None:
    """The hero never comes: after `patient_turns` idle turns the brute goes to it."""
    enc = _lane(build)
    policy = TacticalPolicy(config=TACTICAL)
    for _ in range(TACTICAL.patient_turns + 3):
        until_turn(enc, "b")
        actions, _ = play_turn(enc, policy)
        if any(isinstance(a, UsePower) for a in actions):
            break
        assert enc.current is None or enc.current.id != "b"
    else:
        raise AssertionError("the brute never attacked the waiting hero")
    assert (
        any(isinstance(a, Move) for a in actions)
        or chebyshev(enc.battle["b"].pos, enc.battle["hero"].pos) == 1
    )


def test_patience_costs_nothing_out_of_reach_and_the_enemies_danger_within(build: Any) -> None:
    from ai.memory import SideMemory
    from ai.plan import budget
    from ai.scoring import Context
    from ai.turn import Habits, Turn

    enc = _lane(build)
    until_turn(enc, "b")
    b = enc.battle
    me, hero = b["b"], b["hero"]
    memory = SideMemory()

    def decide() -> Patience:  # a decision's patience (kept for the decision: a fresh one)
        ctx = Context(enc, me, weights_for(me, config=TACTICAL), memory)
        return Patience.of(Turn.of(ctx, budget(b, me), Habits(0, None, None), False))

    ctx = Context(enc, me, weights_for(me, config=TACTICAL), memory)
    turn = Turn.of(ctx, budget(b, me), Habits(0, None, None), False)
    wait = Patience.of(turn)
    assert Patience.of(turn) is wait  # worked out once per decision
    strike = b.speed(hero) + hero.reach
    far = (hero.pos[0] - strike - 1, 1)
    near = (hero.pos[0] - strike, 1)
    assert wait.cost(far) == 0.0
    assert wait.cost(near) == ctx.f.w.patience * ctx.danger(hero).melee > 0
    memory.note(me.id, b.turn_counter, "acted", False)  # this turn's first decision: idle
    assert decide().cost(near) == wait.cost(near)  # its own turn doesn't count
    for k in range(TACTICAL.patient_turns):  # earlier turns with nothing attacked
        memory.note(me.id, b.turn_counter + 1 + k, "acted", False)
    assert decide().cost(near) == 0.0  # worn off
    assert weights_for(me, config=CLASSIC).patience == 0.0  # classic has none


def test_ending_the_turn_is_unchanged_for_classic(build: Any) -> None:
    """`classic` is the reference: its weights are the role table's, untouched by patience
    or by the creature's powers."""
    enc = _lane(build)
    me = enc.battle["b"]
    assert weights_for(me, config=CLASSIC) == ROLE_WEIGHTS["brute"]
    assert EndTurn() == EndTurn()


# --- when waiting for the first strike is no gain (issue 15, target 2) ----------------------
WIDE = "\n".join(["................"] * 5)


SHOOTERS = CONFIGS["tactical-shooters"]


def _patience(enc: Encounter, cid: str, cfg: Any = TACTICAL) -> Patience:
    from ai.memory import SideMemory
    from ai.plan import budget
    from ai.scoring import Context
    from ai.turn import Habits, Turn

    until_turn(enc, cid)
    me = enc.battle[cid]
    ctx = Context(enc, me, weights_for(me, config=cfg), SideMemory())
    return Patience.of(Turn.of(ctx, budget(enc.battle, me), Habits(0, None, None), False))


def _brutes(build: Any, others: list[dict[str, Any]]) -> Encounter:
    return build(
        WIDE,
        [pc("hero", (15, 2)), mon("b", (1, 2), creature="brute"), *others],
        creatures=[FIGHTER, monster("brute", "brute", ["slam"])],
        powers=[BASIC_MELEE, SLAM],
    )


def test_no_patience_once_an_ally_is_in_the_fight(build: Any) -> None:
    """An ally already trades blows with the hero: holding back leaves it alone while the
    hero strikes anyway. The brute has no patience and walks in (classic would too)."""
    alone = _patience(_lane(build), "b")
    assert alone.weight == TACTICAL.patience * ROLE_PATIENCE["brute"] > 0
    enc = _brutes(build, [mon("b2", (14, 2), creature="brute")])
    assert _patience(enc, "b").weight == 0.0
    enc = _brutes(build, [mon("b2", (14, 2), creature="brute")])
    until_turn(enc, "b")
    play_turn(enc, TacticalPolicy(config=TACTICAL))
    hero = enc.battle["hero"]
    assert chebyshev(enc.battle["b"].pos, hero.pos) <= enc.battle.speed(hero) + hero.reach


def test_patience_shrinks_when_my_side_outnumbers_theirs(build: Any) -> None:
    """Two brutes far from one hero (nobody engaged): the hero's first strike is one of few,
    theirs two: half the patience of a one-to-one."""
    enc = _brutes(build, [mon("b2", (1, 4), creature="brute")])
    assert _patience(enc, "b").weight == TACTICAL.patience * ROLE_PATIENCE["brute"] / 2


BOW = {**BOLT_VS_AC, "id": "longbow", "name": "Longbow", "hit": {"damage": {"dice": "3d8"}}}
ARCHER = {**FIGHTER, "id": "archer", "name": "Archer", "powers": ["basic-melee", "longbow"]}


def _shot_at(build: Any, heroes: list[dict[str, Any]]) -> Encounter:
    return build(
        WIDE,
        [*heroes, mon("b", (1, 2), creature="brute")],
        creatures=[FIGHTER, ARCHER, monster("brute", "brute", ["slam"])],
        powers=[BASIC_MELEE, SLAM, BOW],
    )


def test_patience_shrinks_by_the_share_of_the_enemies_blows_that_are_melee(build: Any) -> None:
    """Waiting out of a shooter's walk only lets it shoot for free: with `read_shooters`
    (`tactical-shooters`) a hero whose bow outdoes its blade (its danger's `melee` is
    `SHOOTS` times its bow) leaves the brute no patience; beside a fighter, the fighter's
    share of the two heroes' blows. `tactical` counts the archer's `melee` as melee."""
    from ai.memory import SideMemory
    from ai.moving import SHOOTS, melee_part
    from ai.scoring import Context

    def danger(enc: Encounter, who: str) -> Any:
        b = enc.battle
        ctx = Context(enc, b["b"], weights_for(b["b"], config=TACTICAL), SideMemory())
        return ctx.danger(b[who])

    enc = _shot_at(build, [pc("hero", (15, 2), creature="archer")])
    wait = _patience(enc, "b", SHOOTERS)
    d = danger(enc, "hero")
    assert d.melee == pytest.approx(SHOOTS * d.ranged) and melee_part(d) == 0.0
    assert wait.weight == 0.0 and wait.cost((14, 2)) == 0.0
    enc = _shot_at(build, [pc("hero", (15, 2), creature="archer")])
    plain = TACTICAL.patience * ROLE_PATIENCE["brute"]
    assert _patience(enc, "b").weight == pytest.approx(plain * SHOOTS)  # the bow as "melee"
    heroes = [pc("hero", (15, 2), creature="archer"), pc("f", (15, 4), name="Fighter")]
    enc = _shot_at(build, heroes)
    wait = _patience(enc, "b", SHOOTERS)
    arch, fighter = danger(enc, "hero"), danger(enc, "f")
    assert melee_part(fighter) == fighter.melee > 0
    share = fighter.melee / (fighter.melee + max(arch.melee, arch.ranged))
    assert wait.weight == pytest.approx(TACTICAL.patience * ROLE_PATIENCE["brute"] * share)
    assert wait.foes == [(15, 4, fighter.speed + fighter.reach, fighter.melee)]  # no archer


def test_surprised_enemies_that_act_after_it_strike_no_first_blow_F_TRN_5(build: Any) -> None:
    """In the surprise round a surprised hero acts first in round 1, after the brute has
    acted again (F-TRN-5): waiting for it gains nothing, so no square costs patience."""
    enc = _lane(build)
    b = enc.battle
    near = (b["hero"].pos[0] - b.speed(b["hero"]) - b["hero"].reach, 1)
    assert _patience(_lane(build), "b").cost(near) > 0
    enc = _lane(build)
    until_turn(enc, "b")
    b = enc.battle
    b.surprise_round = True
    b["hero"].surprised = True
    b.order = ["b", "hero"]
    assert _patience(enc, "b").cost(near) == 0.0
    b.order = ["hero", "b"]  # before it in the order: it acts before the brute again
    assert _patience(enc, "b").cost(near) > 0


# --- reach and areas in the weights (issue 15, target 3) ------------------------------------
TAG_ONLY = replace(TACTICAL, name="tag-only", read_powers=False)
OPEN_GRID = "\n".join(["............"] * 7)


def _marauder_turn(tmp_path: Any, creature: str, at: tuple[int, int], cfg: Any) -> Encounter:
    from tests.support.helpers import write_encounter

    party = [pc("hero", (2, 3)), pc("hero2", (2, 5))]
    path = write_encounter(
        tmp_path,
        OPEN_GRID,
        [*party, mon("m", at, creature=creature)],
        creatures=[FIGHTER],
        powers=[BASIC_MELEE],
        include=["bestiary/marauders", "bestiary/mistfen"],
    )
    enc = Encounter.create(load_encounter(path), seed=3)
    enc.start()
    until_turn(enc, "m")
    play_turn(enc, TacticalPolicy(config=cfg))
    return enc


def test_a_reach_creature_strikes_from_beyond_the_enemys_reach(tmp_path: Any) -> None:
    """The Red Hand Pikeman (pike, reach 2) two squares from a fighter: read by its tag (a
    soldier likes to be engaged) it steps next to both fighters before it hooks; read by its
    powers it hooks from where it stands, out of their reach."""
    pikeman = _marauder_turn(tmp_path, "raider-pikeman", (4, 3), TACTICAL).battle["m"]
    assert profile_of(pikeman).reach == 2 and not profile_of(pikeman).burst
    w = weights_for(pikeman, config=TACTICAL)
    assert w.engaged <= 0 < ROLE_WEIGHTS["soldier"].engaged
    assert w.flank == ROLE_WEIGHTS["soldier"].flank * REACH_FLANK
    assert pikeman.pos == (4, 3)  # it stayed two squares off
    tagged = _marauder_turn(tmp_path, "raider-pikeman", (4, 3), TAG_ONLY).battle["m"]
    assert tagged.pos != (4, 3)
    assert chebyshev(tagged.pos, (2, 5)) == 1  # next to the second fighter too


def test_a_creature_with_a_close_burst_weighs_each_enemy_around_it() -> None:
    """The Bog Ghoul's close burst catches whoever stands next to it: each enemy it ends
    beside counts AREA_ENGAGED more than its brute tag says."""
    ghoul = Encounter.create(load_encounter("fog"), seed=1).battle["ghoul"]
    assert profile_of(ghoul).burst >= 1
    assert weights_for(ghoul, config=TACTICAL).engaged == pytest.approx(
        ROLE_WEIGHTS["brute"].engaged + AREA_ENGAGED
    )
    assert weights_for(ghoul, config=CLASSIC).engaged == ROLE_WEIGHTS["brute"].engaged


def test_exposure_leaves_out_surprised_enemies_that_act_after_it_F_TRN_5(build: Any) -> None:
    """In the surprise round the square next to a surprised hero that acts after the brute
    costs it no exposure (no blow lands before it moves again); with the hero before it in the
    order, or for `classic` (which reads no turn order), it does."""
    from ai.memory import SideMemory
    from ai.scoring import Context

    def value(order: list[str], cfg: Any) -> float:
        enc = _lane(build)
        until_turn(enc, "b")
        b = enc.battle
        b.surprise_round = True
        b["hero"].surprised = True
        b.order = order
        me = b["b"]
        ctx = Context(enc, me, weights_for(me, config=cfg), SideMemory())
        return ctx.value((b["hero"].pos[0] - 1, 1))

    assert value(["b", "hero"], TACTICAL) == 0.0
    assert value(["hero", "b"], TACTICAL) < 0.0
    assert value(["b", "hero"], CLASSIC) < 0.0
