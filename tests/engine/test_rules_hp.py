"""Hit points, dying and healing: S-10 as ffd20 adopts it (X-HP-1), healing surges and second
wind (X-HP-2), healing from below 0 and temporary hit points (X-HP-3). Every change of hit
points must show in a `damage`/`heal` event, and every change of state in a `state` event."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import EndTurn, SecondWind, UsePower
from engine.encounter import Encounter
from engine.events import ActionSpent, Damage, DeathSave, EffectStart, Heal, StateChange
from tests.support.helpers import FIGHTER, Builder, dummy, events, mon, pc

GRID = "......\n......\n......\n"
AMOUNTS = (1, 5, 7, 8, 14, 15, 16, 20, 29, 30, 31, 38, 44, 45, 60)


def smack(n: int) -> dict[str, Any]:
    """A sure hit for exactly `n` damage (no dice)."""
    return {
        "id": f"smack-{n}",
        "name": f"Smack {n}",
        "kind": "melee",
        "attack": {"bonus": 30, "vs": "ac"},
        "hit": {"damage": {"dice": str(n)}},
    }


MENDING = {
    "id": "mending",
    "name": "Mending Word",
    "action": "minor",
    "kind": "close",
    "burst": 5,
    "target": "ally_or_self",
    "targets": 1,
    "effect": {"heal": {"surge": True, "dice": "1d6", "bonus": 1}},
}
WARD = {
    "id": "ward",
    "name": "Ward",
    "action": "minor",
    "kind": "personal",
    "target": "self",
    "effect": {"heal": {"temp_hp": 5}},
}
BIG_WARD = dict(WARD, id="big-ward", name="Big Ward", effect={"heal": {"temp_hp": 8}})
HEAL_FLAT = {
    "id": "heal-flat",
    "name": "Heal",
    "action": "minor",
    "kind": "close",
    "burst": 5,
    "target": "ally_or_self",
    "targets": 1,
    "effect": {"heal": {"bonus": 10}},
}
POWERS = [
    *(smack(n) for n in AMOUNTS),
    MENDING,
    WARD,
    BIG_WARD,
    HEAL_FLAT,
    {
        "id": "basic-melee",
        "name": "Basic",
        "kind": "melee",
        "basic": True,
        "keywords": ["weapon"],
        "attack": {"ability": "str", "vs": "ac"},
        "hit": {"damage": {"dice": "1[W]", "ability": "str"}},
    },
]
BRUTE = {
    "id": "brute",
    "name": "Brute",
    "role": "brute",
    "level": 1,
    "hp": 30,
    "defenses": {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12},
    "powers": [p["id"] for p in POWERS if p["id"] != "basic-melee"],
}
HERO = dict(FIGHTER, powers=["basic-melee", "mending", "ward", "big-ward", "heal-flat"])


def fight(build: Builder, faces: list[int], **kw: Any) -> Encounter:
    """The brute `b` acts first, then the fighter `f` (30 hp, bloodied at 15, surge 7), then
    a cleric `c` (the same fighter, for healing)."""
    return build(
        GRID,
        [mon("b", (1, 1), "brute"), pc("f", (2, 1)), pc("c", (3, 1))],
        creatures=[BRUTE, HERO, dummy()],
        powers=POWERS,
        faces=[20, 2, 1, *faces],
        **kw,
    )


def hit(enc: Encounter, n: int, target: str = "f") -> list[Any]:
    """Hit `target` for `n` and return the events."""
    enc.battle.spent["standard"] = 0  # several blows in one turn, for the test
    return enc.apply(UsePower(f"smack-{n}", (target,)))


def states(out: list[Any]) -> list[tuple[str, int]]:
    return [(e.state, e.hp) for e in events(out, StateChange)]


# --- S-10 / X-HP-1 ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("damage", "state"),
    [
        pytest.param(14, "healthy", id="16-of-30-healthy"),
        pytest.param(15, "bloodied", id="half-is-bloodied"),
        pytest.param(29, "bloodied", id="1-bloodied"),
        pytest.param(30, "unconscious", id="0-unconscious"),
        pytest.param(31, "dying", id="below-0-dying"),
        pytest.param(44, "dying", id="minus-14-still-dying"),
        pytest.param(45, "dead", id="minus-bloodied-value-dead"),
        pytest.param(60, "dead", id="far-below-dead"),
    ],
)
def test_X_HP_1_S_10_character_states_follow_hit_points(
    build: Builder, damage: int, state: str
) -> None:
    enc = fight(build, [10])
    out = hit(enc, damage)
    f = enc.battle["f"]
    assert f.hp == 30 - damage and f.state == state
    assert states(out) == ([] if state == "healthy" else [(state, 30 - damage)])


@pytest.mark.parametrize("damage", [pytest.param(30, id="at-0"), pytest.param(31, id="below-0")])
def test_X_HP_1_monsters_die_at_0(build: Builder, damage: int) -> None:
    enc = build(
        GRID,
        [pc("f", (1, 1)), mon("b", (2, 1), "brute"), mon("x", (4, 1), "brute")],
        creatures=[dict(FIGHTER, powers=[f"smack-{damage}"]), BRUTE],
        powers=POWERS,
        faces=[20, 1, 1, 10],
    )
    out = enc.apply(UsePower(f"smack-{damage}", ("b",)))
    assert states(out) == [("dead", 30 - damage)]
    assert not enc.battle["b"].alive


def test_S_10_each_state_change_is_one_state_event(build: Builder) -> None:
    enc = fight(build, [10, 10, 10, 10])
    seen = []
    for n in (8, 7, 15, 5):  # 22 healthy, 15 bloodied, 0 unconscious, -5 dying
        seen += states(hit(enc, n))
    assert seen == [("bloodied", 15), ("unconscious", 0), ("dying", -5)]


@pytest.mark.parametrize(
    ("faces", "results", "state"),
    [
        pytest.param([9, 9, 9], ["fail", "fail", "fail"], "dead", id="three-failures-dead"),
        pytest.param(
            [10, 19, 10], ["success", "success", "success"], "dying", id="10-to-19-nothing-happens"
        ),
        pytest.param([5, 20], ["fail", "recover"], "bloodied", id="20-regains-a-quarter"),
    ],
)
def test_S_10_death_saving_throws_at_the_end_of_each_turn(
    build: Builder, faces: list[int], results: list[str], state: str
) -> None:
    enc = fight(build, [10, *faces])
    hit(enc, 31)  # -1: dying
    for _ in range(len(faces)):
        enc.apply(EndTurn())  # the brute; the fighter's turn passes with a death save
        if enc.current is not None and enc.current.id == "c":
            enc.apply(EndTurn())
    saves = events(enc, DeathSave)
    assert [d.result for d in saves] == results
    assert [d.natural for d in saves] == faces
    assert [d.failures for d in saves] == [
        sum(1 for r in results[: i + 1] if r == "fail") for i in range(len(results))
    ]
    f = enc.battle["f"]
    assert f.state == state
    if state == "bloodied":
        heal = events(enc, Heal)[-1]
        assert (heal.hp_before, heal.amount, heal.hp_after) == (-1, 7, 7)


def test_S_10_a_dying_character_takes_no_actions(build: Builder) -> None:
    enc = fight(build, [10, 12])
    hit(enc, 31)
    out = enc.apply(EndTurn())
    f_actions = [a for a in events(out, ActionSpent) if a.id == "f"]
    assert f_actions == [] and enc.current is not None and enc.current.id == "c"
    assert [d.id for d in events(out, DeathSave)] == ["f"]


def test_S_10_unconscious_at_0_makes_no_death_saves(build: Builder) -> None:
    enc = fight(build, [10])
    hit(enc, 30)
    enc.apply(EndTurn())
    assert events(enc, DeathSave) == [] and enc.battle["f"].state == "unconscious"


# --- X-HP-2 -----------------------------------------------------------------------------------
def test_X_HP_2_second_wind_spends_a_surge_for_a_quarter_and_plus_2_defenses(
    build: Builder,
) -> None:
    enc = fight(build, [10])
    hit(enc, 20)
    enc.apply(EndTurn())
    out = enc.apply(SecondWind())
    f = enc.battle["f"]
    h = events(out, Heal)[0]
    assert (h.hp_before, h.amount, h.hp_after, h.surge) == (10, 7, 17, True)
    assert f.surges == 9 - 1 and f.state == "healthy"
    assert [(a.kind, a.name) for a in events(out, ActionSpent)] == [("standard", "second_wind")]
    eff = events(out, EffectStart)[0]
    assert (eff.duration, eff.parts) == (
        "start_of_next_turn",
        ({"modifier": "defenses", "value": 2},),
    )
    assert enc.validate(SecondWind()) is not None


def test_X_HP_2_second_wind_once_per_encounter(build: Builder) -> None:
    enc = fight(build, [10])
    enc.apply(EndTurn())
    enc.apply(SecondWind())
    for _ in range(3):
        enc.apply(EndTurn())
    reason = enc.validate(SecondWind())
    assert reason is not None and "once per encounter" in reason


def test_X_HP_2_monsters_have_no_second_wind_unless_given(build: Builder) -> None:
    enc = fight(build, [])
    reason = enc.validate(SecondWind())
    assert reason is not None and "no second wind" in reason


def test_X_HP_2_no_surge_left_no_second_wind(build: Builder) -> None:
    enc = fight(build, [10])
    enc.apply(EndTurn())
    enc.battle["f"].surges = 0
    reason = enc.validate(SecondWind())
    assert reason is not None and "surge" in reason


def test_X_HP_2_a_healing_power_spends_the_targets_surge(build: Builder) -> None:
    enc = fight(build, [10, 4])
    hit(enc, 20)
    enc.apply(EndTurn())
    enc.apply(EndTurn())  # the fighter; now the cleric heals it
    reason = enc.validate(UsePower("mending", ()))
    assert reason is not None and "choose" in reason, "one target of the two in the burst"
    out = enc.apply(UsePower("mending", ("f",)))
    h = events(out, Heal)
    assert [(x.target, x.amount, x.hp_after) for x in h] == [("f", 7 + 4 + 1, 22)]
    assert enc.battle["f"].surges == 8 and enc.battle["c"].surges == 9


# --- X-HP-3 -----------------------------------------------------------------------------------
def test_X_HP_3_healing_below_0_starts_from_0(build: Builder) -> None:
    enc = fight(build, [10])
    hit(enc, 38)  # -8: dying
    enc.apply(EndTurn())  # the fighter's turn passes (death save)
    out = enc.apply(UsePower("heal-flat", ("f",)))
    h = events(out, Heal)[0]
    assert (h.hp_before, h.amount, h.hp_after) == (-8, 10, 10)
    assert states(out) == [("bloodied", 10)]


def test_X_HP_3_healing_never_goes_above_maximum(build: Builder) -> None:
    enc = fight(build, [10])
    hit(enc, 5)
    enc.apply(EndTurn())
    enc.apply(EndTurn())
    h = events(enc.apply(UsePower("heal-flat", ("f",))), Heal)[0]
    assert (h.hp_before, h.amount, h.hp_after) == (25, 10, 30)


def test_X_HP_3_temporary_hit_points_are_lost_first(build: Builder) -> None:
    enc = fight(build, [10])
    enc.apply(EndTurn())
    enc.apply(UsePower("ward", ()))
    enc.apply(EndTurn())
    enc.apply(EndTurn())
    d = events(hit(enc, 7), Damage)[0]
    assert [(a.source, a.value) for a in d.adjustments] == [("temporary_hp", -5)]
    assert (d.rolled, d.amount, d.hp_before, d.hp_after) == (7, 2, 30, 28)
    assert enc.battle["f"].temp_hp == 0


def test_X_HP_3_temporary_hit_points_soak_all_of_a_small_blow(build: Builder) -> None:
    enc = fight(build, [10])
    enc.apply(EndTurn())
    enc.apply(UsePower("ward", ()))
    enc.apply(EndTurn())
    enc.apply(EndTurn())
    d = events(hit(enc, 1), Damage)[0]
    assert (d.amount, d.hp_after) == (0, 30) and enc.battle["f"].temp_hp == 4


@pytest.mark.parametrize(
    ("first", "second", "kept"),
    [
        pytest.param("ward", "big-ward", 8, id="higher-replaces"),
        pytest.param("big-ward", "ward", 8, id="lower-is-ignored"),
    ],
)
def test_X_HP_3_temporary_hit_points_do_not_stack(
    build: Builder, first: str, second: str, kept: int
) -> None:
    enc = fight(build, [])
    enc.apply(EndTurn())
    enc.apply(UsePower(first, ()))
    enc.battle.spent["minor"] = 0
    enc.apply(UsePower(second, ()))
    assert enc.battle["f"].temp_hp == kept
