"""Issue 16 item 3: immunities. `immune: [...]` names damage types and power keywords: no
damage of a type the target is immune to (read as F-DMG-3 reads resistance: every type of the
damage), no effect from a power with a keyword it is immune to. The preview shows both."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import UsePower
from engine.content.errors import ContentErrors
from engine.events import Damage, EffectStart, Immune, Moved
from tests.support.helpers import (
    BASIC_MELEE,
    BOLT,
    CLAW,
    FIGHTER,
    GOBLIN,
    OPEN,
    STRIKER,
    Builder,
    dummy,
    events,
    mon,
)

FIRE = {
    "id": "fire",
    "name": "Fire Touch",
    "kind": "melee",
    "attack": {"bonus": 0, "vs": "ac"},
    "hit": {"damage": {"dice": "1d6", "types": ["fire"]}},
}
FROSTFIRE = dict(FIRE, id="frostfire", name="Frostfire")
FROSTFIRE["hit"] = {"damage": {"dice": "1d6", "types": ["fire", "cold"]}}
TERROR = {
    "id": "terror",
    "name": "Terror",
    "kind": "melee",
    "keywords": ["fear"],
    "attack": {"bonus": 0, "vs": "will"},
    "hit": {
        "damage": {"dice": "1d6"},
        "effects": [{"duration": "save_ends", "conditions": ["dazed"]}],
        "forced": {"kind": "push", "distance": 1},
    },
}


def _fight(build: Builder, faces: list[int], **target: Any) -> Any:
    striker = dict(STRIKER, powers=["fire", "frostfire", "terror"])
    return build(
        OPEN,
        [mon("s", (1, 1), "striker", side="party"), mon("t", (2, 1), "dummy")],
        creatures=[striker, dummy(**target), FIGHTER, GOBLIN],
        powers=[FIRE, FROSTFIRE, TERROR, BASIC_MELEE, CLAW, BOLT],
        faces=[20, 1, *faces],
    )


def test_immune_to_a_damage_type_takes_none_of_it(build: Builder) -> None:
    enc = _fight(build, [15, 5], immune=["fire"], resist={"fire": 2})
    dmg = events(enc.apply(UsePower("fire", ("t",))), Damage)[0]
    assert dmg.rolled == 5 and dmg.amount == 0 and dmg.hp_after == dmg.hp_before
    assert [(m.source, m.value) for m in dmg.adjustments] == [("immune", -5)]


def test_F_DMG_3_immunity_to_one_of_two_damage_types_stops_nothing(build: Builder) -> None:
    enc = _fight(build, [15, 5], immune=["fire"])
    dmg = events(enc.apply(UsePower("frostfire", ("t",))), Damage)[0]
    assert dmg.amount == 5 and dmg.adjustments == ()


def test_immune_to_a_keyword_gets_none_of_the_power_effects(build: Builder) -> None:
    enc = _fight(build, [15, 4], immune=["fear"])
    out = enc.apply(UsePower("terror", ("t",)))
    assert events(out, Damage)[0].amount == 4  # the damage is untyped: it lands
    assert events(out, EffectStart) == [] and events(out, Moved) == []
    assert [(i.target, i.power, i.keyword) for i in events(out, Immune)] == [
        ("t", "terror", "fear")
    ]


def test_not_immune_the_same_power_dazes_and_pushes(build: Builder) -> None:
    enc = _fight(build, [15, 4])
    out = enc.apply(UsePower("terror", ("t",)))
    assert events(out, EffectStart) and events(out, Moved) and not events(out, Immune)


def test_the_preview_sees_immunity(build: Builder) -> None:
    enc = _fight(build, [], immune=["fire", "fear"])
    fire = enc.preview("fire", "t")
    assert fire is not None and fire.immune_damage and fire.expected_damage == 0.0
    terror = enc.preview("terror", "t")
    assert terror is not None and terror.immune_effects == "fear" and not terror.immune_damage
    assert terror.expected_damage > 0


def test_an_immunity_to_nothing_is_a_content_error(build: Builder) -> None:
    with pytest.raises(ContentErrors) as err:
        _fight(build, [], immune=["fiire"])
    text = str(err.value)
    assert "immune" in text and "protects from nothing" in text and "'fire'" in text
