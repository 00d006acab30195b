"""Moving and what it sets off: walking, running and shifting (S-11), opportunity attacks as
ffd20 adopts S-14 with its own limit (X-OA-1, F-MOD-11), and flanking (F-MOD-1)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import EndTurn, Move, StandUp, UsePower
from engine.events import ActionSpent, Attack, Damage, Moved, Provoke
from tests.support.helpers import Answers, Builder, events, mods, put_effect
from tests.support.movement import CREATURES, GRID, POWERS, fight, mon, unit


def walk(*path: tuple[int, int], mode: str = "walk") -> Move:
    return Move(tuple(path), mode)


def provokes(out: list[Any]) -> list[tuple[str, str, tuple[int, int], bool]]:
    return [(p.mover, p.by, tuple(p.at), p.taken) for p in events(out, Provoke)]


# --- S-14 as adopted: leaving a threatened square --------------------------------------------
def test_S_14_walking_out_of_reach_provokes_once_per_enemy_per_move(build: Builder) -> None:
    # m walks along the enemy e's front: three squares it threatens, left one after another
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (2, 2))], [2])
    out = enc.apply(walk((1, 1), (2, 1), (3, 1), (4, 1)))
    assert provokes(out) == [("m", "e", (1, 1), True)]
    kinds = [e.type for e in events(out)]
    assert kinds == ["action", "provoke", "action", "attack", "move"]
    spent = events(out, ActionSpent)
    assert [(a.id, a.kind) for a in spent] == [("m", "move"), ("e", "opportunity")]
    atk = events(out, Attack)[0]
    assert atk.opportunity and atk.attacker == "e" and atk.target == "m"
    assert events(out, Moved)[-1].path[-1] == (4, 1)


def test_S_14_two_enemies_two_opportunity_attacks_at_the_squares_left(build: Builder) -> None:
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (0, 2)), mon("f", (3, 0))], [2, 2])
    out = enc.apply(walk((1, 1), (2, 1), (3, 2), (4, 3)))
    assert provokes(out) == [("m", "e", (1, 1), True), ("m", "f", (2, 1), True)]
    moves = [(m.path[0], m.path[-1]) for m in events(out, Moved)]
    assert moves == [((1, 1), (2, 1)), ((2, 1), (4, 3))], "the move pauses at each"


def test_S_14_moving_within_the_threatened_area_does_not_provoke_until_it_is_left(
    build: Builder,
) -> None:
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (2, 2))], [2])
    out = enc.apply(walk((1, 1), (1, 2)))
    assert provokes(out) == [("m", "e", (1, 1), True)], "leaving a threatened square provokes"


def test_S_14_a_declined_opportunity_attack_is_logged_and_rolls_nothing(build: Builder) -> None:
    ans = Answers(opportunity=False)
    enc = fight(
        build,
        [mon("m", (1, 1), side="party"), mon("e", (2, 1))],
        [],
        deciders=lambda _cid: ans,
        strict=True,
    )
    out = enc.apply(walk((1, 1), (0, 1)))
    assert provokes(out) == [("m", "e", (1, 1), False)]
    assert events(out, Attack) == []


def test_S_14_reach_threatens_farther_squares(build: Builder) -> None:
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (3, 1), "lancer")], [2])
    out = enc.apply(walk((1, 1), (0, 1)))
    assert provokes(out) == [("m", "e", (1, 1), True)]


def test_S_14_seed_000_a_creature_listing_no_melee_attack_threatens_with_its_basic_one(
    build: Builder,
) -> None:
    # Issue 16: "each character has ... a basic attack" (file 000): the pacifist, listing
    # only a ranged power, gets an unarmed basic melee attack and so threatens (it used to
    # threaten nothing).
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (2, 1), "pacifist")], [10])
    provoked = events(enc.apply(walk((1, 1), (0, 1))), Provoke)
    assert [(p.by, p.taken) for p in provoked] == [("e", True)]


def test_S_14_shifting_does_not_provoke(build: Builder) -> None:
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (2, 1))], [], strict=True)
    out = enc.apply(walk((1, 1), (0, 1), mode="shift"))
    assert events(out, Provoke) == [] and events(out, Moved)[0].mode == "shift"


def test_F_MOD_11_an_invisible_mover_does_not_provoke_enemies_that_cannot_see_it(
    build: Builder,
) -> None:
    enc = fight(build, [mon("m", (1, 1), "ghost", side="party"), mon("e", (2, 1))], [], strict=True)
    assert events(enc.apply(walk((1, 1), (0, 1))), Provoke) == []


def test_F_MOD_11_a_blinded_enemy_cannot_take_the_opportunity(build: Builder) -> None:
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (2, 1))], [], strict=True)
    put_effect(enc, "e", source="m", conditions=("blinded",))
    assert events(enc.apply(walk((1, 1), (0, 1))), Provoke) == []


@pytest.mark.parametrize("condition", ["dazed", "stunned", "unconscious", "surprised"])
def test_S_14_an_enemy_that_cannot_react_takes_no_opportunity_attack(
    build: Builder, condition: str
) -> None:
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (2, 1))], [], strict=True)
    if condition == "surprised":
        enc.battle["e"].surprised = True
        enc.battle.surprise_round = True
    else:
        put_effect(enc, "e", source="m", conditions=(condition,))
    assert events(enc.apply(walk((1, 1), (0, 1))), Provoke) == []


@pytest.mark.parametrize(
    ("pid", "origin", "provoked"),
    [
        pytest.param("zap", None, True, id="ranged-provokes"),
        pytest.param("flare", (6, 1), True, id="area-provokes"),
        pytest.param("nova", None, False, id="close-does-not"),
        pytest.param("jab", None, False, id="melee-does-not"),
    ],
)
def test_S_14_a_ranged_or_area_power_used_next_to_an_enemy_provokes(
    build: Builder, pid: str, origin: tuple[int, int] | None, provoked: bool
) -> None:
    enc = fight(
        build, [mon("m", (1, 1), side="party"), mon("e", (2, 1)), mon("x", (6, 1))], [2, 2, 2, 2]
    )
    targets = () if origin is not None or pid == "nova" else ("x" if pid == "zap" else "e",)
    out = enc.apply(UsePower(pid, targets, origin))
    assert provokes(out) == ([("m", "e", (1, 1), True)] if provoked else [])
    if provoked:
        first = [e.type for e in events(out)][:4]
        assert first == ["action", "provoke", "action", "attack"], "before the power resolves"


# --- X-OA-1 -----------------------------------------------------------------------------------
def test_X_OA_1_one_opportunity_attack_per_combatants_turn(build: Builder) -> None:
    # m double-moves past e in one turn: e's opportunity attack is spent after the first move
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (2, 2))], [2])
    first = enc.apply(walk((1, 1), (1, 0)))
    assert provokes(first) == [("m", "e", (1, 1), True)]
    second = enc.apply(walk((1, 0), (2, 1), (3, 0)))  # leaves (2, 1), in e's reach, again
    assert provokes(second) == [], "no second opportunity attack in this turn"


def test_X_OA_1_one_per_turn_but_again_on_the_next_creatures_turn(build: Builder) -> None:
    enc = fight(
        build,
        [mon("m", (1, 1), side="party"), mon("n", (3, 1), side="party"), mon("e", (2, 1))],
        [2, 2],
    )
    assert provokes(enc.apply(walk((1, 1), (0, 1)))) == [("m", "e", (1, 1), True)]
    enc.apply(EndTurn())
    assert provokes(enc.apply(walk((3, 1), (4, 1)))) == [("n", "e", (3, 1), True)]


def test_X_OA_1_a_declined_opportunity_does_not_use_it_up(build: Builder) -> None:
    ans = Answers(opportunity=False)
    enc = fight(
        build, [mon("m", (1, 1), side="party"), mon("e", (2, 2))], [2], deciders=lambda _cid: ans
    )
    assert provokes(enc.apply(walk((1, 1), (1, 0)))) == [("m", "e", (1, 1), False)]
    ans.opportunity = True
    out = enc.apply(walk((1, 0), (2, 1), (3, 0)))
    assert provokes(out) == [("m", "e", (2, 1), True)]


# --- the mover stops --------------------------------------------------------------------------
def test_a_mover_dropped_by_an_opportunity_attack_stops_there(build: Builder) -> None:
    enc = fight(build, [pc_hero("m", (1, 1)), mon("e", (2, 2), "ogre")], [10])
    out = enc.apply(walk((1, 1), (2, 1), (3, 1), (4, 1)))
    assert enc.battle["m"].state == "dying"
    assert enc.battle["m"].pos == (1, 1)
    assert [m.path for m in events(out, Moved)] == [], "it never left its square"
    assert enc.current is None or enc.current.id != "m", "its turn is over"


def test_a_mover_knocked_prone_by_an_opportunity_attack_stops(build: Builder) -> None:
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (2, 2), "tripper")], [10])
    enc.apply(walk((1, 1), (2, 1), (3, 1), (4, 1)))
    assert enc.battle["m"].pos == (1, 1) and enc.battle.has(enc.battle["m"], "prone")


def test_a_mover_dropped_in_an_allys_square_ends_in_the_last_free_square(
    build: Builder,
) -> None:
    # m walks through its ally a's square (2,1); the ogre's blow fells it there: it can't stay
    grid = "......\n......\n......\n"
    enc = fight(
        build,
        [pc_hero("m", (1, 1)), mon("a", (2, 1), side="party"), mon("e", (3, 2), "ogre")],
        [10],
        grid=grid,
    )
    out = enc.apply(walk((1, 1), (2, 1), (3, 0), (4, 0)))
    assert provokes(out) == [("m", "e", (2, 1), True)]
    m = enc.battle["m"]
    assert m.pos == (1, 1), "back to the last square it could stop in"
    squares = [p for c in enc.battle.living() for p in enc.battle.squares(c)]
    assert len(squares) == len(set(squares)), "two creatures never share a square"
    last = events(out, Moved)[-1]
    assert last.mode == "walk" and last.path[0] == (2, 1) and last.path[-1] == (1, 1)


def pc_hero(cid: str, pos: tuple[int, int]) -> dict[str, Any]:
    return {"id": cid, "creature": "hero", "side": "party", "pos": list(pos)}


# --- S-11: speed and running ------------------------------------------------------------------
def test_S_11_walk_up_to_speed_run_speed_plus_2(build: Builder) -> None:
    enc = fight(build, [mon("m", (0, 0), side="party"), mon("e", (9, 3))], [])
    far = [(x, 0) for x in range(0, 9)]
    assert enc.validate(Move(tuple(far[:7]), "walk")) is None
    reason = enc.validate(Move(tuple(far[:8]), "walk"))
    assert reason is not None
    assert enc.validate(Move(tuple(far[:9]), "run")) is None
    out = enc.apply(Move(tuple(far[:9]), "run"))
    eff = next(e for e in events(out) if e.type == "effect_start")
    assert eff.duration == "start_of_next_turn"
    assert {"modifier": "attack", "value": -5} in eff.parts


def test_S_11_a_runner_takes_minus_5_to_attack_until_its_next_turn(build: Builder) -> None:
    enc = fight(build, [mon("m", (0, 1), side="party"), mon("e", (8, 1))], [10])
    enc.apply(Move(tuple((x, 1) for x in range(0, 8)), "run"))
    atk = events(enc.apply(UsePower("zap", ("e",))), Attack)
    assert atk and mods(atk[-1]).get("running") == -5


def test_S_11_two_move_actions_move_double_speed(build: Builder) -> None:
    enc = fight(build, [mon("m", (0, 0), side="party"), mon("e", (9, 3))], [])
    enc.apply(Move(tuple((x, 0) for x in range(0, 7)), "walk"))
    enc.apply(Move(tuple((x, 0) for x in range(6, 10)), "walk"))
    assert enc.battle["m"].pos == (9, 0)
    assert not enc.can_spend("move")


def test_difficult_terrain_costs_2(build: Builder) -> None:
    enc = fight(
        build,
        [mon("m", (0, 0), side="party"), mon("e", (9, 3))],
        [],
        grid="..~~~~....\n..........\n..........\n..........\n",
    )
    reason = enc.validate(Move(tuple((x, 0) for x in range(0, 5)), "walk"))
    assert reason is not None, "1 + 2 + 2 + 2 = 7 squares of movement: more than speed 6"
    out = enc.apply(Move(((0, 0), (1, 0), (2, 0), (3, 0)), "walk"))
    assert events(out, Moved)[0].cost == 1 + 2 + 2


@pytest.mark.parametrize(
    ("condition", "move", "ok"),
    [
        pytest.param("slowed", walk((0, 0), (1, 0), (2, 0)), True, id="slowed-2-squares"),
        pytest.param("slowed", walk((0, 0), (1, 0), (2, 0), (3, 0)), False, id="slowed-not-3"),
        pytest.param(
            "immobilized", walk((0, 0), (1, 0), mode="shift"), False, id="immobilized-no-shift"
        ),
        pytest.param("prone", walk((0, 0), (1, 0)), False, id="prone-must-stand-first"),
        pytest.param("prone", walk((0, 0), (1, 0), mode="shift"), True, id="prone-may-shift"),
    ],
)
def test_conditions_that_limit_movement(
    build: Builder, condition: str, move: Move, ok: bool
) -> None:
    enc = fight(build, [mon("m", (0, 0), side="party"), mon("e", (9, 3))], [])
    put_effect(enc, "m", source="e", conditions=(condition,))
    assert (enc.validate(move) is None) is ok


def test_standing_up_is_a_move_action_and_ends_prone(build: Builder) -> None:
    enc = fight(build, [mon("m", (0, 0), side="party"), mon("e", (9, 3))], [])
    put_effect(enc, "m", source="e", duration="end_of_encounter", conditions=("prone",))
    out = enc.apply(StandUp())
    assert [(a.kind, a.name) for a in events(out, ActionSpent)] == [("move", "stand_up")]
    assert not enc.battle.has(enc.battle["m"], "prone")
    assert enc.validate(StandUp()) is not None


# --- F-MOD-1: flanking ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ally", "attacker", "target_creature", "ally_condition", "flank"),
    [
        pytest.param((5, 2), (3, 2), "unit", None, True, id="opposite-sides"),
        pytest.param((5, 3), (3, 1), "unit", None, True, id="opposite-corners"),
        pytest.param((5, 1), (3, 2), "unit", None, False, id="not-opposite"),
        pytest.param((4, 3), (3, 2), "unit", None, False, id="adjacent-sides-not-opposite"),
        pytest.param((5, 2), (3, 2), "unit", "dazed", False, id="ally-cannot-react"),
        pytest.param((5, 2), (3, 2), "unit", "blinded", False, id="ally-cannot-see"),
        pytest.param((6, 2), (3, 2), "unit", None, False, id="ally-not-adjacent"),
    ],
)
def test_F_MOD_1_flanking_gives_combat_advantage(
    build: Builder,
    ally: tuple[int, int],
    attacker: tuple[int, int],
    target_creature: str,
    ally_condition: str | None,
    flank: bool,
) -> None:
    enc = fight(
        build,
        [
            mon("m", attacker, side="party"),
            mon("a", ally, side="party"),
            mon("t", (4, 2), target_creature),
        ],
        [10],
    )
    if ally_condition:
        put_effect(enc, "a", source="t", conditions=(ally_condition,))
    atk = events(enc.apply(UsePower("jab", ("t",))), Attack)[0]
    assert (atk.flanking, atk.combat_advantage) == (flank, flank)
    assert mods(atk).get("combat_advantage") == (2 if flank else None)


def test_F_MOD_1_flanking_a_large_creature(build: Builder) -> None:
    big = unit("big", size="large")
    enc = build(
        GRID,
        [mon("m", (2, 1), side="party"), mon("a", (5, 2), side="party"), mon("t", (3, 1), "big")],
        creatures=[*CREATURES, big],
        powers=POWERS,
        faces=[20, 19, 18, 10],
    )
    atk = events(enc.apply(UsePower("jab", ("t",))), Attack)[0]
    assert atk.flanking and atk.combat_advantage


def test_F_MOD_1_a_ranged_attack_from_afar_does_not_flank(build: Builder) -> None:
    enc = fight(
        build,
        [mon("m", (0, 2), side="party"), mon("a", (5, 2), side="party"), mon("t", (4, 2))],
        [10],
    )
    atk = events(enc.apply(UsePower("zap", ("t",))), Attack)[0]
    assert not atk.flanking and not atk.combat_advantage


def test_opportunity_attack_damage_is_logged_against_the_mover(build: Builder) -> None:
    enc = fight(build, [mon("m", (1, 1), side="party"), mon("e", (2, 1))], [15, 4])
    out = enc.apply(walk((1, 1), (0, 1)))
    d = events(out, Damage)[0]
    assert (d.target, d.source, d.power, d.amount) == ("m", "e", "jab", 4)


def test_X_ACT_1_a_readied_ranged_attack_on_a_walker_passing_through_an_ally(
    build: Builder,
) -> None:
    # e readies its ranged zap; m walks through its ally a's square, within range: the zap
    # fires there (the cover check sees both on one square mid-move), then m walks on
    from engine.actions import Ready

    enc = fight(
        build,
        [mon("e", (9, 0)), mon("m", (0, 0), side="party"), mon("a", (1, 0), side="party")],
        [15, 3],
    )
    enc.apply(Ready("zap"))
    enc.apply(EndTurn())
    out = enc.apply(walk((0, 0), (1, 0), (2, 0)))
    atk = events(out, Attack)
    assert [(x.attacker, x.target, x.kind) for x in atk] == [("e", "m", "ranged")]
    assert enc.battle["m"].pos == (2, 0) and enc.battle["a"].pos == (1, 0)
