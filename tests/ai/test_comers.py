"""Patience waits for the enemies that will come (`read_comers`, `ai.comers`; issue 15,
target 2: `crossroads-4srd` against the tactical party).

A brute that can't reach anyone waits out of a fighter's walk. On its next turn it keeps
waiting if the fighter came closer (it will come and take the first blow), or if nobody hurt
it (two sides that both wait lose nothing by it); but if the fighter held while an archer
shot the brute (the heroes outshoot it: it has no ranged attack), waiting only hands the
archer free shots, and it walks in.
"""

from __future__ import annotations

from typing import Any

from ai.comers import Sighting, gap, keeping_off, opening, sighting
from ai.config import CONFIGS
from ai.tactical import TacticalPolicy
from engine.actions import EndTurn, Move, UsePower
from engine.encounter import Encounter
from engine.grid import chebyshev
from engine.grid.geometry import footprint
from tests.support.helpers import BASIC_MELEE, BOLT_VS_AC, FIGHTER, SLAM, mon, pc
from tests.support.scenarios import monster, play_turn, until_turn

WIDE = "\n".join(["......................"] * 7)
BOW = {**BOLT_VS_AC, "id": "longbow", "name": "Longbow", "range": 20}
ARCHER = {**FIGHTER, "id": "archer", "name": "Archer", "powers": ["basic-melee", "longbow"]}


def _lane(build: Any, seed: int = 1) -> Encounter:
    """A slow brute (speed 4) 10 squares from a fighter (who strikes 7 squares away), and an
    archer whose bow reaches the brute."""
    return build(
        WIDE,
        [
            pc("hero", (15, 3), creature="fighter"),
            pc("bow", (20, 6), creature="archer"),
            mon("b", (5, 3), creature="brute"),
        ],
        creatures=[FIGHTER, ARCHER, monster("brute", "brute", ["slam"], speed=4)],
        powers=[BASIC_MELEE, SLAM, BOW],
        seed=seed,
    )


def _strike(enc: Encounter) -> int:
    """How far the fighter can walk up and strike from next round (speed plus reach)."""
    h = enc.battle["hero"]
    return enc.battle.speed(h) + h.reach


def _heroes(enc: Encounter, walk: int, shoot: bool) -> None:
    """The heroes' turns until the brute's: the fighter walks `walk` squares toward it (0:
    holds), the archer shoots it or holds."""
    for _ in range(10):
        c = enc.current
        assert c is not None
        if c.id == "b":
            return
        if c.id == "hero" and walk:
            x, y = c.pos
            enc.apply(Move(tuple((x - i, y) for i in range(walk + 1))))
        if c.id == "bow" and shoot:
            enc.apply(UsePower("longbow", targets=("b",)))
        enc.apply(EndTurn())
    raise AssertionError("the brute never got its turn back")


def _second_turn(build: Any, config: str, walk: int, shoot: bool) -> tuple[Encounter, bool]:
    """The brute's second turn after the heroes did as told: the fight, and whether its end
    square is in the fighter's walk. Its first turn waits out of it (nothing in reach)."""
    for seed in range(1, 40):
        enc = _lane(build, seed)
        policy = TacticalPolicy(config=CONFIGS[config])
        until_turn(enc, "b")
        actions, _ = play_turn(enc, policy)
        assert not any(isinstance(a, UsePower) for a in actions)
        assert chebyshev(enc.battle["b"].pos, enc.battle["hero"].pos) > _strike(enc)
        hp = enc.battle["b"].hp
        _heroes(enc, walk, shoot)
        if shoot and enc.battle["b"].hp == hp:
            continue  # the arrow missed: another seed
        actions, _ = play_turn(enc, policy)
        assert not any(isinstance(a, UsePower) for a in actions)
        near = chebyshev(enc.battle["b"].pos, enc.battle["hero"].pos) <= _strike(enc)
        return enc, near
    raise AssertionError("no seed where the arrow hit")


def test_it_waits_for_a_fighter_that_comes(build: Any) -> None:
    """The fighter walked a square closer (and the archer shot): it will come, so the brute
    keeps waiting out of its walk."""
    _, near = _second_turn(build, "tactical", walk=1, shoot=True)
    assert not near


def test_it_waits_while_nobody_hurts_it(build: Any) -> None:
    """The fighter held and nobody shot: waiting costs nothing, the brute keeps waiting."""
    _, near = _second_turn(build, "tactical", walk=0, shoot=False)
    assert not near


def test_it_does_not_wait_for_a_fighter_that_holds_while_the_archer_shoots(build: Any) -> None:
    """The fighter held while the archer shot the brute: neither comes, so the brute walks
    into the fighter's walk; `tactical-waiting` (round 7's default), without the evidence,
    keeps waiting."""
    _, near = _second_turn(build, "tactical", walk=0, shoot=True)
    assert near
    _, near = _second_turn(build, "tactical-waiting", walk=0, shoot=True)
    assert not near


def _after_heroes(build: Any, walk: int, shoot: bool) -> tuple[Encounter, Sighting]:
    """The brute's sighting at its first turn (it ends the turn where it stands), then the
    heroes' turns as told (a seed where the arrow hits, when it shoots)."""
    for seed in range(1, 40):
        enc = _lane(build, seed)
        until_turn(enc, "b")
        b = enc.battle
        then = sighting(b, b["b"])
        enc.apply(EndTurn())
        hp = b["b"].hp
        _heroes(enc, walk, shoot)
        if not shoot or b["b"].hp < hp:
            return enc, then
    raise AssertionError("no seed where the arrow hit")


def _off(
    enc: Encounter, then: Sighting | None, outshot: bool = True, hero: int = 7
) -> frozenset[str]:
    """`keeping_off` for the brute, the fighter striking `hero` squares away, the archer 7."""
    b = enc.battle
    strike = {"hero": hero, "bow": 7}
    return keeping_off(then, b, [b["b"]], [b["hero"], b["bow"]], strike, lambda: outshot)


def test_keeping_off_needs_evidence_and_harm(build: Any) -> None:
    """No sighting, or nobody hurt since: every enemy counts. Hurt: an enemy that took a turn
    and got no closer is left out if my side is outshot, or if one of us was in its walk (it
    could have come and didn't); the fighter that came is not; an enemy that has not acted
    since is no evidence."""
    enc, then = _after_heroes(build, walk=0, shoot=False)
    assert then.enemies == {"hero": ((15, 3),), "bow": ((20, 6),)}
    assert _off(enc, None) == frozenset()
    assert _off(enc, then) == frozenset()  # nobody hurt
    enc, then = _after_heroes(build, walk=0, shoot=True)
    assert _off(enc, then) == {"hero", "bow"}
    # Not outshot: holders with none of us in their walk are as patient as we are ...
    assert _off(enc, then, outshot=False) == frozenset()
    # ... but one that had the brute in its walk (10 squares) and held will not come.
    assert _off(enc, then, outshot=False, hero=10) == {"hero"}
    b = enc.battle
    assert _off(enc, sighting(b, b["b"])) == frozenset()  # nothing since
    enc, then = _after_heroes(build, walk=1, shoot=True)
    assert _off(enc, then) == {"bow"}


def test_the_opening_stands_for_the_first_sighting(build: Any) -> None:
    """Before its first turn the fight's opening is the last sighting: where the enemies
    were placed."""
    enc = _lane(build)
    b = enc.battle
    first = opening(b, b["b"])
    assert first is not None
    assert first.enemies == {"hero": ((15, 3),), "bow": ((20, 6),)}
    assert opening(b, b["hero"]) == Sighting(1, {"b": ((5, 3),)})


def test_gap_between_footprints() -> None:
    """The gap counts a large creature's whole footprint, as `engine.grid.distance` does."""
    assert gap(footprint((5, 0)), [footprint((0, 0))]) == 5
    assert gap(footprint((5, 0)), [footprint((0, 0), 2)]) == 4  # a large ally covers x 0-1
    assert gap(footprint((0, 0), 2), [footprint((5, 5))]) == 4  # a large enemy: 0-1 both ways
    assert gap(footprint((3, 3)), [footprint((9, 9)), footprint((3, 5))]) == 2
