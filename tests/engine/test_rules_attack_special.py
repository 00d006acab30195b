"""Attack modifiers, part two: invisibility (F-MOD-11), attacking unseen squares (F-MOD-12),
the Bluff for combat advantage (F-MOD-13), and `marked` (a condition the texts use without
defining it: the usual 4e meaning)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import Bluff, EndTurn, UsePower
from engine.encounter import Encounter
from engine.events import Attack, Check, Damage, EffectStart
from tests.support.helpers import (
    CLOSE,
    KEEN,
    LONG,
    POKES,
    STRIKER,
    ZAP,
    Builder,
    area_duel,
    attack_on,
    duel,
    dummy,
    events,
    mods,
    mon,
    put_effect,
)


# --- F-MOD-11 and F-MOD-12: invisibility and unseen targets ------------------------------------
def test_F_MOD_11_invisible_attacker_has_combat_advantage_against_who_cannot_see_it(
    build: Builder,
) -> None:
    enc = build(
        "......\n" * 3,
        [mon("s", (1, 1), "striker", side="party"), mon("t", (2, 1), "dummy")],
        creatures=[dict(STRIKER, invisible=True), dummy()],
        powers=[*POKES, ZAP, LONG, KEEN],
        faces=[20, 1, 10],
    )
    atk = attack_on(enc, "poke-ac")
    assert atk.combat_advantage and mods(atk)["combat_advantage"] == 2


def test_F_MOD_11_invisible_target_has_total_concealment(build: Builder) -> None:
    enc = duel(build, [12, 1], target=dummy(invisible=True))
    atk = attack_on(enc, "poke-ac")
    assert atk.concealment == "total" and mods(atk)["concealment"] == -5


@pytest.mark.parametrize(
    ("square", "wrong"),
    [
        pytest.param((2, 1), False, id="right-square-rolls-with-minus-5"),
        pytest.param((2, 2), True, id="wrong-square-automatic-miss"),
    ],
)
def test_F_MOD_12_attacking_an_unseen_creature_by_choosing_a_square(
    build: Builder, square: tuple[int, int], wrong: bool
) -> None:
    enc = duel(build, [20, 1], target=dummy(invisible=True, ac=16))
    out = enc.apply(UsePower("poke-ac", ("t",), squares=(square,)))
    atk = events(out, Attack)[0]
    assert atk.wrong_square is wrong
    assert atk.natural == 20 and mods(atk)["concealment"] == -5
    if wrong:
        assert atk.outcome == "miss" and atk.defense is None and events(out, Damage) == []
    else:
        assert atk.outcome == "hit" and atk.defense == 16 and len(events(out, Damage)) == 1


def test_F_MOD_12_a_close_attack_including_the_square_takes_no_concealment_penalty(
    build: Builder,
) -> None:
    enc = area_duel(build, "......\n......\n", (1, 1), (2, 1), target=dummy(invisible=True))
    out = enc.apply(UsePower("sweep", ()))
    atk = events(out, Attack)[0]
    assert atk.target == "t" and "concealment" not in mods(atk)


def test_F_MOD_12_one_square_per_target(build: Builder) -> None:
    enc = duel(build, [12, 1], target=dummy(invisible=True))
    reason = enc.validate(UsePower("poke-ac", ("t",), squares=((2, 1), (2, 2))))
    assert reason is not None and "square" in reason


# --- F-MOD-13: Bluff ------------------------------------------------------------------------------
def bluffers(build: Builder, faces: list[int], **kw: Any) -> Encounter:
    striker = dict(STRIKER, skills={"bluff": 5})
    target = dict(dummy(), skills={"insight": 3})
    return build(
        "......\n" * 3,
        [
            mon("s", (1, 1), "striker", side="party"),
            mon("t", (2, 1), "dummy"),
            mon("a", (2, 2), "striker", side="party"),
        ],
        creatures=[striker, target],
        powers=[*POKES, ZAP, LONG, KEEN],
        faces=[20, 1, 15, *faces],
        **kw,
    )


@pytest.mark.parametrize(
    ("natural", "success"),
    [pytest.param(8, True, id="13-beats-13"), pytest.param(7, False, id="12-fails")],
)
def test_F_MOD_13_bluff_against_passive_insight(
    build: Builder, natural: int, success: bool
) -> None:
    enc = bluffers(build, [natural])
    out = enc.apply(Bluff("t"))
    check = events(out, Check)[0]
    assert (
        check.skill,
        check.natural,
        check.modifier,
        check.total,
        check.against,
        check.success,
    ) == ("bluff", natural, 5, natural + 5, 13, success)
    assert len(events(out, EffectStart)) == (1 if success else 0)


def test_F_MOD_13_bluff_gives_the_bluffer_alone_combat_advantage_until_its_next_turn_ends(
    build: Builder,
) -> None:
    enc = bluffers(build, [15, 10, 10, 10, 10])
    enc.apply(Bluff("t"))
    enc.apply(EndTurn())
    # the ally acts: no combat advantage for it
    assert enc.current is not None and enc.current.id == "a"
    assert not attack_on(enc, "poke-ac").combat_advantage
    enc.apply(EndTurn())
    enc.apply(EndTurn())  # the dummy
    atk = attack_on(enc, "poke-ac")  # the bluffer's next turn: still there
    assert atk.combat_advantage and mods(atk)["combat_advantage"] == 2
    assert enc.preview("poke-ac", "t") is not None
    enc.apply(EndTurn())
    enc.apply(EndTurn())
    enc.apply(EndTurn())
    assert not attack_on(enc, "poke-ac").combat_advantage


def test_F_MOD_13_bluff_is_once_per_encounter_and_a_standard_action(build: Builder) -> None:
    enc = bluffers(build, [1])
    enc.apply(Bluff("t"))
    reason = enc.validate(Bluff("t"))
    assert reason is not None and "once per encounter" in reason
    assert not enc.can_spend("standard")


@pytest.mark.parametrize(
    ("target", "why"),
    [
        pytest.param("a", "not an enemy", id="an-ally"),
        pytest.param("nobody", "no creature", id="no-such"),
    ],
)
def test_F_MOD_13_bluff_needs_an_adjacent_enemy(build: Builder, target: str, why: str) -> None:
    enc = bluffers(build, [])
    reason = enc.validate(Bluff(target))
    assert reason is not None and why in reason


# --- marked (a condition the texts use without defining: the usual 4e meaning) -----------------
def marked_fight(build: Builder) -> Encounter:
    """The dummy `t` (acting first, with a claw and a burst) marked by the striker `s`; the
    fighter `f` stands next to it too."""
    burst = dict(CLOSE, id="sweep", target="enemy")
    target = dummy(powers=["poke-ac", "sweep"])
    return build(
        "......\n" * 3,
        [
            mon("t", (2, 1), "dummy"),
            mon("s", (1, 1), "striker", side="party"),
            mon("f", (3, 1), "striker", side="party"),
        ],
        creatures=[STRIKER, target],
        powers=[*POKES, ZAP, LONG, KEEN, burst],
        faces=[20, 1, 2, 10, 10, 10],
    )


@pytest.mark.parametrize(
    ("power", "target", "penalty"),
    [
        pytest.param("poke-ac", "f", -2, id="attack-leaving-out-the-marker-minus-2"),
        pytest.param("poke-ac", "s", None, id="attack-on-the-marker-no-penalty"),
        pytest.param("sweep", None, None, id="attack-including-the-marker-no-penalty"),
    ],
)
def test_marked_minus_2_to_attacks_that_leave_out_the_marker(
    build: Builder, power: str, target: str | None, penalty: int | None
) -> None:
    enc = marked_fight(build)
    put_effect(enc, "t", source="s", duration="end_of_encounter", conditions=("marked",))
    out = enc.apply(UsePower(power, (target,) if target else ()))
    for atk in events(out, Attack):
        assert mods(atk).get("marked") == penalty


def test_marked_a_new_mark_supersedes_the_old(build: Builder) -> None:
    enc = marked_fight(build)
    first = put_effect(enc, "t", source="s", duration="end_of_encounter", conditions=("marked",))
    put_effect(enc, "t", source="f", duration="end_of_encounter", conditions=("marked",))
    from engine.events import EffectEnd

    assert [(e.effect, e.reason) for e in events(enc, EffectEnd)] == [(first, "superseded")]
    atk = events(enc.apply(UsePower("poke-ac", ("s",))), Attack)[0]
    assert mods(atk)["marked"] == -2, "now only an attack on f escapes the penalty"
