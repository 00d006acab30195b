"""Attack modifiers at the engine level (F-MOD-1..13): combat advantage from conditions and
position, cover and concealment in the attack roll, invisibility, attacking unseen squares,
and the Bluff for combat advantage. The geometry itself is tested in test_grid_*; here the
question is whether the engine puts the right numbers into the attack and the log."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import EndTurn, Move, UsePower
from engine.events import Attack
from tests.support.helpers import (
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


# --- F-MOD-1: combat advantage ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("conditions", "power", "target_pos", "ca"),
    [
        pytest.param(("dazed",), "poke-ac", (2, 1), True, id="dazed"),
        pytest.param(("stunned",), "poke-ac", (2, 1), True, id="stunned"),
        pytest.param(("helpless",), "poke-ac", (2, 1), True, id="helpless"),
        pytest.param(("unconscious",), "poke-ac", (2, 1), True, id="unconscious"),
        pytest.param(("restrained",), "poke-ac", (2, 1), True, id="restrained"),
        pytest.param(("blinded",), "poke-ac", (2, 1), True, id="blinded"),
        pytest.param(("prone",), "poke-ac", (2, 1), True, id="prone-vs-adjacent-melee"),
        pytest.param(("prone",), "zap", (4, 1), False, id="prone-vs-ranged-no"),
        pytest.param(("slowed",), "poke-ac", (2, 1), False, id="slowed-no"),
        pytest.param(("immobilized",), "poke-ac", (2, 1), False, id="immobilized-no"),
        pytest.param(("weakened",), "poke-ac", (2, 1), False, id="weakened-no"),
        pytest.param((), "poke-ac", (2, 1), False, id="nothing-no"),
    ],
)
def test_F_MOD_1_conditions_grant_combat_advantage_plus_2(
    build: Builder,
    conditions: tuple[str, ...],
    power: str,
    target_pos: tuple[int, int],
    ca: bool,
) -> None:
    enc = duel(build, [10, 1], target_pos=target_pos)
    if conditions:
        put_effect(enc, "t", source="s", conditions=conditions)
    atk = attack_on(enc, power)
    assert atk.combat_advantage is ca
    assert mods(atk).get("combat_advantage") == (2 if ca else None)
    assert atk.total == 10 + (2 if ca else 0)


def test_F_MOD_1_S_11_a_runner_grants_combat_advantage_until_its_next_turn(
    build: Builder,
) -> None:
    # The dummy runs up next to the striker; the striker then has combat advantage.
    enc = build(
        "........\n",
        [mon("t", (6, 0), "dummy"), mon("s", (0, 0), "striker", side="party")],
        creatures=[dummy(), STRIKER],
        powers=[*POKES, ZAP, LONG, KEEN],
        faces=[20, 1, 10, 10],
    )
    enc.apply(Move(((6, 0), (5, 0), (4, 0), (3, 0), (2, 0), (1, 0)), "run"))
    enc.apply(EndTurn())
    atk = attack_on(enc, "poke-ac")
    assert atk.combat_advantage and mods(atk)["combat_advantage"] == 2
    enc.apply(EndTurn())  # the runner's next turn starts: running ends
    enc.apply(EndTurn())
    atk = attack_on(enc, "poke-ac")
    assert not atk.combat_advantage


@pytest.mark.parametrize(
    ("setup", "concealment"),
    [
        pytest.param("target-invisible", "total", id="invisible-target"),
        pytest.param("attacker-blinded", "total", id="blinded-attacker"),
        pytest.param("target-in-darkness", "total", id="totally-obscured-target"),
    ],
)
def test_F_MOD_1_no_combat_advantage_against_a_target_the_attacker_cannot_see(
    build: Builder, setup: str, concealment: str
) -> None:
    grid = "......\n..%...\n......\n" if setup == "target-in-darkness" else "......\n" * 3
    target = dummy(invisible=True) if setup == "target-invisible" else None
    enc = duel(build, [10, 1], target=target, grid=grid)
    put_effect(enc, "t", source="s", conditions=("stunned",))
    if setup == "attacker-blinded":
        put_effect(enc, "s", source="t", conditions=("blinded",))
    atk = attack_on(enc, "poke-ac")
    assert not atk.combat_advantage and "combat_advantage" not in mods(atk)
    assert atk.concealment == concealment and mods(atk)["concealment"] == -5


def test_F_MOD_1_combat_advantage_is_relative_to_each_pair(build: Builder) -> None:
    # The dummy is prone: the adjacent striker has combat advantage, the goblin-archer (an ally
    # of the striker, far away, ranged) does not, in the same round.
    enc = duel(
        build, [10, 1, 10, 1], target_pos=(2, 1), more=(mon("a", (5, 2), "goblin", side="party"),)
    )
    put_effect(enc, "t", source="s", duration="end_of_encounter", conditions=("prone",))
    near = attack_on(enc, "poke-ac")
    enc.apply(EndTurn())
    assert enc.current is not None and enc.current.id == "a"
    far = attack_on(enc, "bolt")
    assert near.combat_advantage and not far.combat_advantage


# --- F-MOD-2..6: cover --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("grid", "s_pos", "t_pos", "cover", "penalty"),
    [
        pytest.param(
            ".....\n..=..\n.....\n",
            (2, 0),
            (2, 2),
            "cover",
            -2,
            id="F-MOD-2-low-wall-between-cover-minus-2",
        ),
        pytest.param(
            "......\n......\n......\n...=..\n......\n",
            (0, 0),
            (4, 4),
            "superior",
            -5,
            id="F-MOD-2-3-or-4-lines-blocked-superior-minus-5",
        ),
        pytest.param(
            ".....\n..=..\n.....\n", (0, 0), (4, 0), "none", None, id="F-MOD-3-clear-lines-no-cover"
        ),
        pytest.param(
            "......\n.=....\n......\n",
            (0, 0),
            (4, 2),
            "none",
            None,
            id="F-MOD-3-attacker-picks-best-corner",
        ),
        pytest.param(
            "......\n..#...\n..#...\n......\n",
            (0, 1),
            (3, 1),
            "cover",
            -2,
            id="F-MOD-3-line-along-wall-edge-not-blocked",
        ),
    ],
)
def test_F_MOD_2_F_MOD_3_cover_penalty_in_the_attack_roll(
    build: Builder,
    grid: str,
    s_pos: tuple[int, int],
    t_pos: tuple[int, int],
    cover: str,
    penalty: int | None,
) -> None:
    enc = duel(build, [12, 1], grid=grid, striker_pos=s_pos, target_pos=t_pos)
    atk = attack_on(enc, "zap")
    assert atk.cover == cover
    assert mods(atk).get("cover") == penalty
    assert atk.total == 12 + (penalty or 0)


def test_F_MOD_4_area_attack_cover_is_measured_from_the_origin_square(build: Builder) -> None:
    # The striker stands behind a low wall; the fireball bursts on the far side of it, right
    # next to the dummy: no cover. A burst centred behind the wall gives cover again.
    grid = "......\n......\n.===..\n......\n......\n"
    enc = area_duel(build, grid, (2, 0), (2, 3))
    atk = attack_on(enc, "fireball", origin=(2, 4))
    assert atk.cover == "none" and atk.kind == "area"
    enc2 = area_duel(build, grid, (2, 0), (2, 3))
    atk2 = attack_on(enc2, "fireball", origin=(2, 1))
    assert atk2.cover == "cover" and mods(atk2)["cover"] == -2


def test_F_MOD_5_reach_through_terrain_that_would_give_cover_gives_cover(build: Builder) -> None:
    enc = duel(build, [12, 1], grid=".....\n..=..\n.....\n", striker_pos=(2, 0), target_pos=(2, 2))
    atk = attack_on(enc, "long")
    assert atk.kind == "melee" and atk.cover == "cover" and mods(atk)["cover"] == -2


@pytest.mark.parametrize(
    ("blocker_side", "power", "cover"),
    [
        pytest.param("monsters", "zap", "cover", id="ranged-past-another-enemy-cover"),
        pytest.param("party", "zap", "none", id="allies-never-grant-cover"),
        pytest.param("monsters", "long", "none", id="no-creature-cover-against-melee"),
        pytest.param("monsters", "fireball", "none", id="no-creature-cover-against-area"),
    ],
)
def test_F_MOD_6_creatures_and_cover(
    build: Builder, blocker_side: str, power: str, cover: str
) -> None:
    # striker (0,1), a goblin of the chosen side (1,1), dummy (2,1): in a line
    enc = area_duel(
        build,
        "....\n....\n....\n",
        (0, 1),
        (2, 1),
        more=(mon("x", (1, 1), "goblin", side=blocker_side),),
    )
    kw: dict[str, Any] = {"origin": (2, 0)} if power == "fireball" else {}
    atk = attack_on(enc, power, **kw)
    assert atk.cover == cover


# --- F-MOD-7..10: concealment -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("grid", "t_pos", "power", "concealment", "penalty"),
    [
        pytest.param(
            "......\n..,...\n......\n",
            (2, 1),
            "poke-ac",
            "concealment",
            -2,
            id="F-MOD-7-lightly-obscured",
        ),
        pytest.param(
            "......\n..;...\n......\n",
            (2, 1),
            "poke-ac",
            "concealment",
            -2,
            id="F-MOD-7-heavily-obscured-adjacent",
        ),
        pytest.param(
            "......\n....;.\n......\n",
            (4, 1),
            "zap",
            "total",
            -5,
            id="F-MOD-8-heavily-obscured-not-adjacent",
        ),
        pytest.param(
            "......\n....%.\n......\n", (4, 1), "zap", "total", -5, id="F-MOD-8-totally-obscured"
        ),
        pytest.param(
            "......\n....&.\n......\n",
            (4, 1),
            "zap",
            "concealment",
            -2,
            id="F-MOD-10-undergrowth-is-lightly-obscured",
        ),
    ],
)
def test_F_MOD_7_F_MOD_8_F_MOD_10_concealment_from_obscured_squares(
    build: Builder,
    grid: str,
    t_pos: tuple[int, int],
    power: str,
    concealment: str,
    penalty: int,
) -> None:
    enc = duel(build, [12, 1], grid=grid, target_pos=t_pos)
    atk = attack_on(enc, power)
    assert atk.concealment == concealment
    assert mods(atk)["concealment"] == penalty


def test_F_MOD_8_blinded_attacker_gives_total_concealment(build: Builder) -> None:
    enc = duel(build, [12, 1])
    put_effect(enc, "s", source="t", conditions=("blinded",))
    atk = attack_on(enc, "poke-ac")
    assert atk.concealment == "total" and mods(atk)["concealment"] == -5


@pytest.mark.parametrize(
    ("power", "kw"),
    [
        pytest.param("fireball", {"origin": (4, 1)}, id="area"),
        pytest.param("sweep", {"origin": None}, id="close"),
    ],
)
def test_F_MOD_9_concealment_only_against_melee_and_ranged(
    build: Builder, power: str, kw: dict[str, Any]
) -> None:
    enc = area_duel(build, "......\n..%%%.\n......\n", (1, 1), (2, 1))
    out = enc.apply(UsePower(power, (), **kw))
    atk = next(a for a in events(out, Attack) if a.target == "t")
    assert atk.concealment in ("none", "total")
    assert "concealment" not in mods(atk)
