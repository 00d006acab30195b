"""Patience and the enemies that strike from afar (issue 15, target 2: `crossroads-4srd`
against the tactical party): `read_shooters` (the `tactical-shooters` configuration) does not
wait for an archer that will not close.

Patience waits at the edge of the enemies' walk so that they come and take the first blow.
An archer whose bow outdoes its blade does not come: it shoots. `tactical` counts its danger
as melee (`Context.danger`'s `melee` is at least `SHOOTS` times its bow), so a brute waits
out of the archer's walk while the archer shoots it; `tactical-shooters` leaves the archer
out of its patience and walks in, as it waits for a fighter that will come.
"""

from __future__ import annotations

from typing import Any

from ai.config import CONFIGS
from ai.tactical import TacticalPolicy
from engine.actions import UsePower
from engine.encounter import Encounter
from engine.grid import chebyshev
from tests.support.helpers import BASIC_MELEE, BOLT_VS_AC, FIGHTER, SLAM, mon, pc
from tests.support.scenarios import monster, play_turn, until_turn

WIDE = "\n".join(["................"] * 5)
BOW = {**BOLT_VS_AC, "id": "longbow", "name": "Longbow", "hit": {"damage": {"dice": "3d8"}}}
ARCHER = {**FIGHTER, "id": "archer", "name": "Archer", "powers": ["basic-melee", "longbow"]}


def _lane(build: Any, hero: str) -> Encounter:
    """One hero (an archer or a fighter) 14 squares from a brute: too far to strike."""
    return build(
        WIDE,
        [pc("hero", (15, 2), creature=hero), mon("b", (1, 2), creature="brute")],
        creatures=[FIGHTER, ARCHER, monster("brute", "brute", ["slam"])],
        powers=[BASIC_MELEE, SLAM, BOW],
    )


def _end(build: Any, hero: str, config: str) -> tuple[int, int]:
    enc = _lane(build, hero)
    until_turn(enc, "b")
    actions, _ = play_turn(enc, TacticalPolicy(config=CONFIGS[config]))
    assert not any(isinstance(a, UsePower) for a in actions)  # nothing in reach this turn
    return enc.battle["b"].pos


def _strike(build: Any, hero: str) -> int:
    """How far the hero can walk up and strike from next round (speed plus reach)."""
    enc = _lane(build, hero)
    h = enc.battle["hero"]
    return enc.battle.speed(h) + h.reach


def test_patience_does_not_wait_for_an_archer_that_will_not_close(build: Any) -> None:
    """Against the archer, `tactical` ends out of its walk (its bow counted as melee) and
    `tactical-shooters` walks into it: waiting there only lets the archer shoot."""
    hero = _lane(build, "archer").battle["hero"].pos
    strike = _strike(build, "archer")
    assert chebyshev(_end(build, "archer", "tactical"), hero) > strike
    assert chebyshev(_end(build, "archer", "tactical-shooters"), hero) <= strike


def test_patience_still_waits_for_a_fighter_that_will(build: Any) -> None:
    """Against a fighter (all its damage up close) both wait out of its walk: the fighter
    must come to strike, and then the brute strikes first."""
    hero = _lane(build, "fighter").battle["hero"].pos
    strike = _strike(build, "fighter")
    for config in ("tactical", "tactical-shooters"):
        end = _end(build, "fighter", config)
        assert chebyshev(end, hero) > strike
        assert end[0] > 1  # it still came closer
