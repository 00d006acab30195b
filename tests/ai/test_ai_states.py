"""The tactical AI under special states (issue 15, target 6) and with needless opportunity
attacks (target 5): each scenario has an obviously better choice, and the AI must take it.

The conditions' meanings are the ones CLAUSES.md gives beyond the clauses (the usual 4e ones):
prone (-2 to attack, grants combat advantage to adjacent melee attackers; standing up is a
move action; a prone creature may still shift), dazed (one action a turn), immobilized (can't
move), slowed (speed 2). S-14 is the opportunity attack, S-15 the withdraw and the 5-foot step,
D-1 the d20srd full attack; F-TRN-1 the actions of a turn.
"""

from __future__ import annotations

from typing import Any

import pytest

from ai.memory import SideMemory
from ai.plan import Option, budget
from ai.provoking import deadly
from ai.roles import weights_for
from ai.scoring import Context, Hit
from ai.tactical import TacticalPolicy
from ai.turn import Habits, Turn
from engine.actions import Action, FullAttack, Move, StandUp, UsePower, Withdraw
from engine.content.schema import EffectSpec
from engine.effects import add_effect
from engine.encounter import Encounter
from engine.events import Provoke
from tests.support.helpers import (
    BASIC_MELEE,
    BOLT_VS_AC,
    CLAW,
    FIGHTER,
    OPEN_9X7,
    SLAM,
    STRIKE,
    load_script,
    mon,
    pc,
)
from tests.support.scenarios import monster, until_turn
from tests.support.scenarios import play_turn as play

CREATURES = [
    FIGHTER,
    monster("brute", "brute", ["slam"], hp=40),
    monster("mage", "controller", ["claw", "bolt"]),
    monster("soldier", "soldier", ["claw"], hp=40),
    monster("archer", "artillery", ["bolt", "claw"]),
]
POWERS = [BASIC_MELEE, CLAW, SLAM, BOLT_VS_AC, STRIKE]


def setup(
    build: Any, combatants: list[dict[str, Any]], ruleset: str = "ffd20", seed: int = 3
) -> Encounter:
    return build(
        OPEN_9X7, combatants, creatures=CREATURES, powers=POWERS, seed=seed, ruleset=ruleset
    )


def condition(enc: Encounter, cid: str, *names: str) -> None:
    """Put `names` on `cid` (save ends; prone until it stands, as the engine does)."""
    b = enc.battle
    for name in names:
        duration = "end_of_encounter" if name == "prone" else "save_ends"
        add_effect(b, EffectSpec(duration=duration, conditions=[name]), b[cid], None, name)


def turn_of(enc: Encounter, cid: str, policy: TacticalPolicy | None = None) -> list[Action]:
    until_turn(enc, cid)
    actions, _ = play(enc, policy or TacticalPolicy())
    return actions


def provoked(enc: Encounter, cid: str) -> list[Provoke]:
    return [lg.event for lg in enc.log if isinstance(lg.event, Provoke) and lg.event.mover == cid]


# --- prone ---------------------------------------------------------------------------------
def test_prone_and_dazed_next_to_an_enemy_attacks_from_the_ground(build: Any) -> None:
    # Dazed: one action. Standing up would spend it and leave the hero unhurt; the slam from
    # the ground (-2) is the better single action.
    enc = setup(build, [pc("hero", (3, 3)), mon("b", (4, 3), "brute")])
    condition(enc, "b", "prone", "dazed")
    actions = turn_of(enc, "b")
    assert not any(isinstance(a, StandUp) for a in actions), actions
    assert any(isinstance(a, UsePower) and a.targets == ("hero",) for a in actions), actions


def test_prone_and_dazed_with_nobody_in_reach_stands_up(build: Any) -> None:
    enc = setup(build, [pc("hero", (0, 0)), mon("b", (7, 5), "brute")])
    condition(enc, "b", "prone", "dazed")
    actions = turn_of(enc, "b")
    assert actions and isinstance(actions[0], StandUp), actions


def test_prone_with_a_whole_turn_stands_up_then_attacks(build: Any) -> None:
    enc = setup(build, [pc("hero", (3, 3)), mon("b", (4, 3), "brute")])
    condition(enc, "b", "prone")
    actions = turn_of(enc, "b")
    assert isinstance(actions[0], StandUp), actions
    assert any(isinstance(a, UsePower) for a in actions), actions


def test_prone_and_immobilized_still_stands_up_and_attacks(build: Any) -> None:
    # Immobilized forbids moving, not standing up (a move action that moves no square).
    enc = setup(build, [pc("hero", (3, 3)), mon("b", (4, 3), "brute")])
    condition(enc, "b", "prone", "immobilized")
    actions = turn_of(enc, "b")
    assert isinstance(actions[0], StandUp), actions
    assert any(isinstance(a, UsePower) for a in actions), actions


# --- dazed, immobilized, slowed ------------------------------------------------------------
def test_dazed_with_a_shot_shoots_rather_than_walking(build: Any) -> None:
    # One action: a walk to the hero would end the turn with no attack; the bolt hits now.
    enc = setup(build, [pc("hero", (1, 3)), mon("m", (6, 3), "mage")])
    condition(enc, "m", "dazed")
    actions = turn_of(enc, "m")
    assert [type(a) for a in actions if not isinstance(a, Move)] and not any(
        isinstance(a, Move) for a in actions
    ), actions
    assert any(isinstance(a, UsePower) and a.power == "bolt" for a in actions), actions


def test_dazed_next_to_an_enemy_attacks_it(build: Any) -> None:
    enc = setup(build, [pc("hero", (3, 3)), mon("b", (4, 3), "brute")])
    condition(enc, "b", "dazed")
    actions = turn_of(enc, "b")
    assert any(isinstance(a, UsePower) and a.targets == ("hero",) for a in actions), actions


def test_immobilized_shoots_what_it_cannot_reach_and_never_moves(build: Any) -> None:
    enc = setup(build, [pc("hero", (1, 3)), mon("m", (5, 3), "mage")])
    condition(enc, "m", "immobilized")
    actions = turn_of(enc, "m")
    assert not any(isinstance(a, Move) for a in actions), actions
    assert any(isinstance(a, UsePower) and a.power == "bolt" for a in actions), actions


def test_immobilized_with_nothing_in_reach_wastes_no_move(build: Any) -> None:
    enc = setup(build, [pc("hero", (0, 0)), mon("b", (7, 5), "brute")])
    condition(enc, "b", "immobilized")
    actions = turn_of(enc, "b")
    assert not any(isinstance(a, Move) for a in actions), actions


def test_slowed_next_to_an_enemy_attacks_rather_than_walking_off_provoking(build: Any) -> None:
    # Slowed (speed 2): the archer 6 squares off can't be reached this turn, and walking
    # toward it provokes the hero (S-14); the hero in reach is the attack to make.
    enc = setup(
        build,
        [pc("hero", (2, 3)), pc("far", (8, 3)), mon("s", (3, 3), "soldier")],
    )
    enc.battle["far"].hp = 5  # bloodied and tempting, but out of reach
    condition(enc, "s", "slowed")
    actions = turn_of(enc, "s")
    assert not provoked(enc, "s"), actions
    assert any(isinstance(a, UsePower) and a.targets == ("hero",) for a in actions), actions


# --- withdraw (S-15) -----------------------------------------------------------------------
def test_S_15_an_archer_next_to_one_enemy_steps_away_and_shoots_rather_than_withdrawing(
    build: Any,
) -> None:
    # d20srd: a 5-foot step out of reach, then a shot, beats a withdraw that gives up the
    # attack.
    enc = setup(build, [pc("hero", (3, 3)), mon("a", (4, 3), "archer")], "d20srd")
    actions = turn_of(enc, "a")
    assert not any(isinstance(a, Withdraw) for a in actions), actions
    assert any(isinstance(a, UsePower) and a.power == "bolt" for a in actions), actions
    assert not provoked(enc, "a"), actions


def test_S_15_no_withdraw_that_still_provokes(build: Any) -> None:
    # Hemmed in by two heroes: any way out leaves a square the second one threatens, so a
    # withdraw would still provoke; it fights instead.
    enc = setup(
        build,
        [pc("h1", (3, 3)), pc("h2", (5, 3)), mon("a", (4, 3), "archer")],
        "4srd",
    )
    enc.battle["a"].hp = 12
    turn_of(enc, "a", TacticalPolicy(flee=True))
    withdrew = [lg.event for lg in enc.log if type(lg.event).__name__ == "Move"]
    assert not provoked(enc, "a") or not any(getattr(e, "mode", "") == "withdraw" for e in withdrew)


def test_S_15_a_fleeing_brute_withdraws_clear_of_its_enemy(build: Any) -> None:
    # 4srd: badly hurt and breaking off, with no way to shift out of reach and keep going,
    # the withdraw takes it away without the hero's opportunity attack.
    enc = setup(build, [pc("hero", (3, 3)), mon("b", (4, 3), "brute")], "4srd")
    enc.battle["b"].hp = 8
    actions = turn_of(enc, "b", TacticalPolicy(flee=True))
    assert isinstance(actions[0], Withdraw), actions
    assert not provoked(enc, "b")
    hx, hy = enc.battle["hero"].pos
    bx, by = enc.battle["b"].pos
    assert max(abs(hx - bx), abs(hy - by)) > 2, "it got clear"


# --- full attack (D-1) ---------------------------------------------------------------------
def test_D_1_the_keep_sergeant_has_two_attacks_and_full_attacks_an_adjacent_hero(
    build: Any,
) -> None:
    # The bundled keep-d20 Hobgoblin Sergeant is a fighter 6: base attack +6/+1. Next to
    # Aldous, both swings (the second at -5) beat one swing after a move to Wren.
    enc = build(
        "\n".join(["..........."] * 7),
        [
            pc("aldous", (3, 3), creature="aldous"),
            pc("wren", (7, 3), creature="wren"),
            mon("sergeant", (4, 3), creature="hobgoblin-sergeant"),
        ],
        creatures=[],
        powers=[],
        include=["d20/keep"],
        ruleset="d20srd",
    )
    b = enc.battle
    assert b.ruleset.attack_count(b["sergeant"]) == 2
    policy = TacticalPolicy()
    actions = turn_of(enc, "sergeant", policy)
    assert isinstance(actions[0], FullAttack), actions
    assert actions[0].targets == ("aldous",)
    assert policy.last_options[0].kind == "full_attack"
    assert len(policy.last_options[0].hits) == 2


# --- needless provoking (S-14, issue 15 target 5) ------------------------------------------
def test_S_14_shifts_to_its_target_rather_than_walking_past_an_enemy(build: Any) -> None:
    # The soldier stands between two heroes; the second one is two squares off. A shift
    # reaches a square next to it as good as any, without the first hero's opportunity attack.
    enc = setup(
        build,
        [pc("h1", (2, 3)), pc("h2", (5, 3)), mon("s", (3, 3), "soldier")],
    )
    enc.battle["h2"].hp = 6
    turn_of(enc, "s")
    assert not provoked(enc, "s")


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_soak_provoke_small_run_finds_nothing_needless() -> None:
    # A small `tests/soak/soak_provoke.py --fights 1000`: one fight of six bundled encounters.
    soak = load_script("soak/soak_provoke.py")
    result = soak.audit(6, jobs=1)
    assert result.fights == 6 and result.decisions > 0
    assert result.needless == [] and result.reckless == [], result.report()


def test_S_14_no_walk_into_an_opportunity_attack_it_cannot_expect_to_survive(build: Any) -> None:
    # Down to 2 hit points next to a fighter whose opportunity attack is expected to deal
    # more: walking to the lone bloodied hero (no likely kill: it has hit points to spare)
    # would most likely end its life on the way.
    enc = setup(
        build,
        [pc("h1", (2, 3)), pc("h2", (6, 3)), mon("s", (3, 3), "soldier")],
    )
    enc.battle["s"].hp = 2
    enc.battle["h1"].hp = 30
    enc.battle["h2"].hp = 20
    policy = TacticalPolicy()
    turn_of(enc, "s", policy)
    assert not provoked(enc, "s")


def test_S_14_a_likely_kill_may_be_worth_the_opportunity_attack(build: Any) -> None:
    enc = setup(build, [pc("h1", (2, 3)), pc("h2", (6, 3)), mon("s", (3, 3), "soldier")])
    until_turn(enc, "s")
    enc.battle["s"].hp = 2
    turn = _turn(enc)
    kill = Hit("h2", 0.8, 6.0, 0.7, False, False, 9.0)
    scratch = Hit("h2", 0.8, 6.0, 0.1, False, False, 3.0)
    o = Option("attack", 0.0, (5, 3), provoked=("h1",), hits=(kill,))
    assert not deadly(turn, o)
    o.hits = (scratch,)
    assert deadly(turn, o)
    o.provoked = ()
    assert not deadly(turn, o)


def _turn(enc: Encounter) -> Turn:
    c = enc.current
    assert c is not None
    memory = SideMemory()
    memory.sync(enc)
    ctx = Context(enc, c, weights_for(c), memory)
    habits = Habits.of(memory, c.id, enc.battle.turn_counter)
    return Turn.of(ctx, budget(enc.battle, c), habits, False)
