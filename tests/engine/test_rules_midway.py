"""Issue 16 item 7: fights that start mid-way. An encounter places a combatant in the state
it is in: hit points, temporary hit points, spent surges and powers, action points, failed
death saves and effects with their durations (F-DUR-*), checked against the creature."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import EndTurn, Impossible, Move, SecondWind, UsePower
from engine.content.errors import ContentErrors
from engine.events import DeathSave, EffectEnd, EffectStart
from engine.hp import update_state
from engine.refusals import Refusal
from engine.turns import check_end
from tests.support.helpers import BOLT, CLAW, FIGHTER, GOBLIN, Builder, events, mon, pc

GRID = "......\n......\n......\n"
SMITE = {
    "id": "smite",
    "name": "Smite",
    "usage": "encounter",
    "kind": "melee",
    "attack": {"bonus": 5, "vs": "ac"},
    "hit": {"damage": {"dice": "2d6"}},
}
BASIC = {
    "id": "basic-melee",
    "name": "Basic",
    "kind": "melee",
    "basic": True,
    "attack": {"bonus": 5, "vs": "ac"},
    "hit": {"damage": {"dice": "1d6"}},
}
HERO = dict(FIGHTER, powers=["basic-melee", "smite"])


def _build(build: Builder, hero: dict[str, Any], gob: dict[str, Any] | None = None) -> Any:
    return build(
        GRID,
        [pc("f", (1, 1), **hero), mon("g", (2, 1), **(gob or {}))],
        creatures=[HERO, GOBLIN],
        powers=[BASIC, SMITE, *_goblin_powers()],
        faces=[20, 1],
    )


def _goblin_powers() -> list[dict[str, Any]]:
    return [CLAW, BOLT]


def test_X_HP_midway_starting_hit_points_surges_and_spent_powers(build: Builder) -> None:
    enc = _build(
        build,
        {"hp": 12, "temp_hp": 4, "surges_spent": 8, "powers_spent": ["smite"], "action_points": 0},
    )
    f = enc.battle["f"]
    assert (f.hp, f.max_hp, f.temp_hp, f.surges, f.action_points) == (12, 30, 4, 1, 0)
    assert f.state == "bloodied"  # S-10: 12 of 30
    with pytest.raises(Impossible) as err:
        enc.apply(UsePower("smite", ("g",)))
    assert err.value.code is Refusal.POWER_SPENT


def test_S_10_midway_a_character_placed_below_0_is_dying_with_its_failed_saves(
    build: Builder,
) -> None:
    enc = build(
        GRID,
        [mon("g", (2, 1)), pc("f", (1, 1), hp=-3, death_failures=2), pc("h", (4, 2))],
        creatures=[HERO, GOBLIN],
        powers=[BASIC, SMITE, *_goblin_powers()],
        faces=[20, 10, 1, 5],  # initiative g, f, h; f's death save fails: its third
    )
    f = enc.battle["f"]
    assert f.state == "dying" and f.death_failures == 2
    enc.apply(EndTurn())  # the goblin; the fighter's turn passes with a death save
    assert [d.result for d in events(enc, DeathSave)] == ["fail"]
    assert enc.battle["f"].state == "dead"


def test_X_HP_2_midway_second_wind_already_used(build: Builder) -> None:
    enc = _build(build, {"hp": 10, "second_wind_used": True})
    with pytest.raises(Impossible) as err:
        enc.apply(SecondWind())
    assert err.value.code is Refusal.ONCE_PER_ENCOUNTER


def test_F_DUR_5_midway_a_starting_save_ends_effect_is_on_and_saved_against(
    build: Builder,
) -> None:
    effect = {"name": "dazed by Mara", "duration": "save_ends", "conditions": ["dazed"]}
    enc = build(
        GRID,
        [pc("f", (1, 1)), mon("g", (2, 1), effects=[{**effect, "source": "f"}])],
        creatures=[HERO, GOBLIN],
        powers=[BASIC, SMITE, *_goblin_powers()],
        faces=[20, 1, 15],  # initiative; the goblin's saving throw at the end of its turn
    )
    starts = events(enc, EffectStart)
    assert [(e.target, e.source, e.name, e.duration) for e in starts] == [
        ("g", "f", "dazed by Mara", "save_ends")
    ]
    assert enc.battle.has(enc.battle["g"], "dazed")
    enc.apply(EndTurn())  # the fighter
    enc.apply(EndTurn())  # the goblin saves
    assert [e.reason for e in events(enc, EffectEnd)] == ["save"]


def test_F_DUR_2_midway_an_effect_until_its_source_next_turn_ends_then(build: Builder) -> None:
    effect = {"duration": "start_of_next_turn", "modifiers": [{"stat": "ac", "value": -2}]}
    enc = build(
        GRID,
        [pc("f", (1, 1)), mon("g", (2, 1), effects=[{**effect, "source": "g"}])],
        creatures=[HERO, GOBLIN],
        powers=[BASIC, SMITE, *_goblin_powers()],
        faces=[20, 1],
    )
    assert enc.battle.modifier(enc.battle["g"], "ac") == -2
    enc.apply(EndTurn())  # the fighter; the goblin's turn starts: the effect ends
    assert enc.battle.modifier(enc.battle["g"], "ac") == 0
    assert [e.reason for e in events(enc, EffectEnd)] == ["expired"]


@pytest.mark.parametrize(
    ("hero", "gob", "field", "words"),
    [
        ({"hp": 31}, {}, "hp", "above"),
        ({"surges_spent": 10}, {}, "surges_spent", "healing surges"),
        ({"powers_spent": ["smote"]}, {}, "powers_spent", "did you mean"),
        ({}, {"hp": 0}, "hp", "dead"),
        (
            {"effects": [{"duration": "save_ends", "conditions": ["dazed"], "source": "x"}]},
            {},
            "source",
            "unknown combatant",
        ),
    ],
)
def test_midway_a_state_the_creature_cannot_be_in_is_a_content_error(
    build: Builder, hero: dict[str, Any], gob: dict[str, Any], field: str, words: str
) -> None:
    with pytest.raises(ContentErrors) as err:
        _build(build, hero, gob)
    text = str(err.value)
    assert field in text and words in text and "test.yaml:" in text


# --- reinforcements -----------------------------------------------------------------------
def _reinforced(build: Builder, faces: list[int], pos: tuple[int, int] = (5, 2)) -> Any:
    return build(
        GRID,
        [pc("f", (1, 1)), mon("g", (2, 1)), mon("r", pos, arrives_round=2)],
        creatures=[HERO, GOBLIN],
        powers=[BASIC, SMITE, *_goblin_powers()],
        faces=faces,
    )


def test_F_TRN_2_reinforcements_arrive_at_their_round_and_roll_initiative(
    build: Builder,
) -> None:
    enc = _reinforced(build, [20, 1, 10])  # initiative f 20, g 1; r rolls 10 in round 2
    b = enc.battle
    assert "r" not in b.combatants and b.order == ["f", "g"]
    start = enc.log[0].event.combatants
    assert [(c["id"], c["arrives_round"]) for c in start] == [("f", None), ("g", None), ("r", 2)]
    with pytest.raises(Impossible):
        enc.apply(UsePower("basic-melee", ("r",)))
    enc.apply(EndTurn())  # f
    out = enc.apply(EndTurn())  # g; round 2 starts: r arrives
    arrive = [e for e in events(out) if e.type == "arrive"]
    assert [(a.id, tuple(a.pos)) for a in arrive] == [("r", (5, 2))]
    inits = [e for e in events(out) if e.type == "initiative"]
    assert [(i.id, i.natural) for i in inits] == [("r", 10)]
    assert b.order == ["f", "r", "g"]  # between f (20 + 2) and g (1 + 3)
    assert "r" in b.combatants


def test_F_TRN_6_a_side_with_reinforcements_to_come_has_not_lost(build: Builder) -> None:
    enc = _reinforced(build, [20, 1, 10])
    enc.battle["g"].hp = 0  # (the goblin falls in round 1)
    update_state(enc.battle, enc.battle["g"])
    assert not check_end(enc.battle)
    enc.apply(EndTurn())
    assert not enc.over
    assert "r" in enc.battle.combatants and enc.current is not None


def test_reinforcement_held_back_while_its_square_is_taken(build: Builder) -> None:
    enc = _reinforced(build, [20, 1, 10], pos=(5, 0))
    enc.apply(Move(((1, 1), (2, 0), (3, 0), (4, 0), (5, 0)), "walk"))  # f takes the square
    enc.apply(EndTurn())
    out = enc.apply(EndTurn())
    assert "r" not in enc.battle.combatants
    assert any(e.type == "note" and "can't arrive" in e.text for e in events(out))
