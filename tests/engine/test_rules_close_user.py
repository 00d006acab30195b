"""Issue 16 item 5: a close burst or blast never includes its user unless the power says
`includes_user: true` (the usual 4e reading of "each creature in the burst"; the seed texts
only define the areas, F-MOD-4)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import UsePower
from engine.content.errors import ContentErrors
from engine.events import Attack
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


def _burst(**over: Any) -> dict[str, Any]:
    p: dict[str, Any] = {
        "id": "nova",
        "name": "Nova",
        "kind": "close",
        "burst": 1,
        "target": "creature",
        "targets": 9,
        "attack": {"bonus": 0, "vs": "reflex"},
        "hit": {"damage": {"dice": "1d6"}},
    }
    p.update(over)
    return p


def _fight(build: Builder, power: dict[str, Any]) -> Any:
    striker = dict(STRIKER, powers=["nova"])
    return build(
        OPEN,
        [mon("s", (1, 1), "striker", side="party"), mon("t", (2, 1), "dummy")],
        creatures=[striker, dummy(), FIGHTER, GOBLIN],
        powers=[power, BASIC_MELEE, CLAW, BOLT],
        faces=[20, 1, 10, 10, 1, 1],
    )


def test_F_MOD_4_close_burst_on_each_creature_leaves_out_its_user(build: Builder) -> None:
    enc = _fight(build, _burst())
    attacks = events(enc.apply(UsePower("nova")), Attack)
    assert [a.target for a in attacks] == ["t"]


def test_F_MOD_4_close_burst_with_includes_user_hits_its_user_too(build: Builder) -> None:
    enc = _fight(build, _burst(includes_user=True))
    attacks = events(enc.apply(UsePower("nova")), Attack)
    assert sorted(a.target for a in attacks) == ["s", "t"]


@pytest.mark.parametrize("kind", ["melee", "area"])
def test_includes_user_on_a_power_that_is_not_close_is_a_content_error(
    build: Builder, kind: str
) -> None:
    extra = {"range": 10, "burst": 1} if kind == "area" else {}
    power = _burst(kind=kind, includes_user=True, **extra)
    if kind == "melee":
        power.pop("burst")
    with pytest.raises(ContentErrors) as err:
        _fight(build, power)
    assert "includes_user" in str(err.value) and "close" in str(err.value)
