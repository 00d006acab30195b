"""A creature's own saving throw bonus (`save_bonus`: an elite's +2, a solo's +5) on every
saving throw it makes (F-SAV-1: "powers, feats or racial traits may add modifiers"; S-12)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import EndTurn, UsePower
from engine.content.errors import ContentError, ContentErrors
from engine.encounter import Encounter
from engine.events import Save
from tests.support.helpers import Builder, dummy, events, mon

GRID = "......\n......\n......\n"

HEX: dict[str, Any] = {
    "id": "hex",
    "name": "Hex",
    "kind": "melee",
    "attack": {"bonus": 20, "vs": "ac"},
    "hit": {"effects": [{"name": "hex", "duration": "save_ends", "conditions": ["slowed"]}]},
}
HEXER: dict[str, Any] = {
    "id": "hexer",
    "name": "Hexer",
    "role": "controller",
    "level": 1,
    "hp": 40,
    "defenses": {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12},
    "powers": ["hex"],
}


def fight(build: Builder, bonus: int, natural: int) -> Encounter:
    """The hexer slows the dummy (save ends); the dummy, with `save_bonus`, saves on `natural`."""
    target = dummy(save_bonus=bonus) if bonus else dummy()
    return build(
        GRID,
        [mon("h", (1, 1), "hexer", side="party"), mon("t", (2, 1), "dummy")],
        creatures=[HEXER, target],
        powers=[HEX],
        faces=[20, 1, 10, natural],
    )


def save_of(enc: Encounter) -> Save:
    enc.apply(UsePower("hex", ("t",)))
    enc.apply(EndTurn())
    return events(enc.apply(EndTurn()), Save)[0]


@pytest.mark.parametrize(
    ("bonus", "natural", "success"),
    [
        pytest.param(0, 5, False, id="no-bonus-5-fails"),
        pytest.param(5, 5, True, id="solo-plus-5-saves-on-5"),
        pytest.param(2, 7, False, id="elite-plus-2-fails-on-7"),
        pytest.param(2, 8, True, id="elite-plus-2-saves-on-8"),
    ],
)
def test_F_SAV_1_a_creatures_save_bonus_adds_to_its_saving_throws(
    build: Builder, bonus: int, natural: int, success: bool
) -> None:
    save = save_of(fight(build, bonus, natural))
    assert save.natural == natural
    assert save.total == natural + bonus
    assert save.success is success
    # the log shows where the number came from
    assert [(m.source, m.value) for m in save.modifiers] == (
        [("save_bonus", bonus)] if bonus else []
    )


@pytest.mark.parametrize("bad", [-1, 21, "two"])
def test_save_bonus_out_of_range_is_refused(build: Builder, bad: object) -> None:
    with pytest.raises((ContentError, ContentErrors), match="save_bonus"):
        fight(build, bad, 5)  # type: ignore[arg-type]
