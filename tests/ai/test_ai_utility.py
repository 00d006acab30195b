"""The tactical AI's use of attackless powers and sustained effects, its forced-movement
choices, its movement when nothing is in reach, and the naive baseline's restraint.

Each scenario builds a tiny encounter through the real loader, passes everyone else's turns
(EndTurn) until the creature under test acts, lets the policy play and checks what it did.
"""

from __future__ import annotations

from typing import Any

import pytest

from ai.memory import SideMemory
from ai.naive import NaivePolicy
from ai.roles import weights_for
from ai.scoring import Context
from ai.tactical import TacticalPolicy
from engine.actions import Action, EndTurn, Move, Sustain, UsePower
from engine.decisions import ForcedMoveQuestion
from engine.encounter import Encounter
from engine.events import Attack
from engine.forced import forced_options
from engine.grid import distance_map
from tests.support.helpers import BASIC_MELEE, BOLT_VS_AC, CLAW, DEF, FIGHTER, mon, pc
from tests.support.scenarios import OPEN_9x7, monster, play_turn, until_turn

WARD = {
    "id": "ward",
    "name": "Ward",
    "usage": "encounter",
    "action": "minor",
    "kind": "ranged",
    "range": 5,
    "target": "ally_or_self",
    "effect": {
        "effects": [
            {
                "name": "warded",
                "duration": "sustain_minor",
                "modifiers": [{"stat": "ac", "value": 2}, {"stat": "reflex", "value": 2}],
            }
        ]
    },
}
SNARE = {
    "id": "snare",
    "name": "Snare",
    "usage": "encounter",
    "action": "minor",
    "kind": "ranged",
    "range": 10,
    "target": "enemy",
    "effect": {
        "effects": [
            {
                "name": "snared",
                "duration": "sustain_minor",
                "conditions": ["immobilized"],
                "modifiers": [{"stat": "ac", "value": -2}],
            }
        ]
    },
}
MELT = {
    "id": "melt",
    "name": "Melt into Shadow",
    "usage": "recharge",
    "recharge": 5,
    "action": "minor",
    "kind": "personal",
    "target": "self",
    "effect": {
        "effects": [
            {
                "name": "unseen",
                "to": "self",
                "duration": "end_of_next_turn",
                "conditions": ["invisible"],
            }
        ]
    },
}
RENEW = {
    "id": "renew",
    "name": "Renewal",
    "usage": "encounter",
    "kind": "close",
    "burst": 3,
    "target": "ally_or_self",
    "targets": 6,
    "effect": {"heal": {"dice": "2d6", "bonus": 6}},
}
MEND = {
    "id": "mend",
    "name": "Mend",
    "usage": "encounter",
    "action": "minor",
    "kind": "ranged",
    "range": 3,
    "target": "ally",
    "effect": {"heal": {"dice": "2d6", "bonus": 6}},
}
SHOVE = {
    "id": "shove",
    "name": "Shove",
    "kind": "melee",
    "attack": {"bonus": 6, "vs": "fortitude"},
    "hit": {"damage": {"dice": "1d6", "bonus": 2}, "forced": {"kind": "slide", "distance": 2}},
}
POWERS = [BASIC_MELEE, CLAW, BOLT_VS_AC, WARD, SNARE, MELT, RENEW, MEND, SHOVE]
CREATURES = [
    FIGHTER,
    monster("warden", "soldier", ["claw", "ward"]),
    monster("hexer", "controller", ["bolt", "snare"]),
    monster("knifer", "lurker", ["claw", "melt"]),
    monster("priest", "controller", ["claw", "renew"]),
    monster("medic", "soldier", ["claw", "mend"]),
    monster("brute", "brute", ["claw"]),
    monster("pusher", "soldier", ["shove", "claw"]),
    monster("soldier", "soldier", ["claw"]),
    monster("archer", "artillery", ["bolt"]),
    {**monster("goblin", "skirmisher", ["claw"]), "defenses": DEF},
]


def setup(build: Any, combatants: list[dict[str, Any]], grid: str = OPEN_9x7, **kw: Any) -> Any:
    return build(grid, combatants, creatures=CREATURES, powers=POWERS, **kw)


def pass_round(enc: Encounter, cid: str) -> None:
    """End the turn of `cid` and everyone else's until `cid` acts again."""
    assert enc.current is not None and enc.current.id == cid
    enc.apply(EndTurn())
    until_turn(enc, cid)


# --- 1. sustaining effects -------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2])
def test_sustains_a_ward_on_an_ally(build: Any, seed: int) -> None:
    # Turn 1: the warden wards its hard-pressed ally (a minor action) and still attacks;
    # turn 2: it sustains the ward (minor), so the ward outlasts the turn. It starts away
    # from the fighter: Ward is a ranged power, which used next to an enemy provokes it
    # (S-14), and the AI pays for that (`ai.provoking.oa_charge`).
    enc = setup(
        build,
        [
            pc("hero", (3, 3)),
            mon("ally", (4, 3), creature="brute"),
            mon("warden", (5, 2), creature="warden"),
        ],
        seed=seed,
    )
    until_turn(enc, "warden")
    policy = TacticalPolicy()
    actions, decisions = play_turn(enc, policy)
    assert isinstance(actions[0], UsePower) and actions[0].power == "ward"
    assert any(isinstance(a, UsePower) and a.power == "claw" for a in actions)
    assert "uses Ward" in decisions[0].summary
    ward = [e for e in enc.battle.effects.values() if e.name == "warded"]
    assert len(ward) == 1
    until_turn(enc, "warden")
    actions, decisions = play_turn(enc, policy)
    assert Sustain(ward[0].id) in actions
    assert "sustains warded" in decisions[0].summary
    assert ward[0].id in enc.battle.effects  # still there once the warden's turn is over


def test_sustains_an_effect_on_an_enemy(build: Any) -> None:
    enc = setup(build, [pc("hero", (1, 3)), mon("hexer", (7, 3), creature="hexer")])
    until_turn(enc, "hexer")
    enc.apply(UsePower("snare", ("hero",)))  # test setup: the snare is on
    snare = next(e for e in enc.battle.effects.values() if e.name == "snared")
    pass_round(enc, "hexer")
    actions, _ = play_turn(enc, TacticalPolicy())
    assert actions[0] == Sustain(snare.id)
    assert snare.id in enc.battle.effects
    assert "immobilized" in enc.battle.conditions(enc.battle["hero"])


def test_does_not_sustain_for_a_fallen_target(build: Any) -> None:
    enc = setup(build, [pc("hero", (1, 3)), mon("hexer", (7, 3), creature="hexer")])
    until_turn(enc, "hexer")
    enc.apply(UsePower("snare", ("hero",)))
    pass_round(enc, "hexer")
    hero = enc.battle["hero"]
    hero.hp, hero.state = -1, "dying"  # test setup: the snared hero is down
    actions, _ = play_turn(enc, TacticalPolicy())
    assert not any(isinstance(a, Sustain) for a in actions)


# --- 2. attackless powers ------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_turns_invisible_for_combat_advantage(build: Any, seed: int) -> None:
    enc = setup(build, [pc("hero", (3, 3)), mon("knifer", (4, 3), creature="knifer")], seed=seed)
    until_turn(enc, "knifer")
    mark = len(enc.log)
    actions, decisions = play_turn(enc, TacticalPolicy())
    assert actions[0] == UsePower("melt", ())
    assert any(isinstance(a, UsePower) and a.power == "claw" for a in actions)
    attack = next(lg.event for lg in enc.log[mark:] if isinstance(lg.event, Attack))
    assert attack.combat_advantage
    assert "invisible" in enc.battle.conditions(enc.battle["knifer"])
    assert "uses Melt into Shadow" in decisions[0].summary


def test_no_invisibility_with_no_enemy_near(build: Any) -> None:
    grid = "\n".join(["." * 30] * 5)
    enc = setup(build, [pc("hero", (0, 2)), mon("knifer", (29, 2), creature="knifer")], grid=grid)
    until_turn(enc, "knifer")
    actions, _ = play_turn(enc, TacticalPolicy())
    assert UsePower("melt", ()) not in actions


@pytest.mark.parametrize("hurt", [True, False])
def test_heals_a_bloodied_ally_with_a_burst(build: Any, hurt: bool) -> None:
    # Nothing to attack this turn (the hero is far); the ally is bloodied or unhurt.
    grid = "\n".join(["." * 20] * 5)
    enc = setup(
        build,
        [
            pc("hero", (0, 2)),
            mon("ally", (16, 2), creature="brute"),
            mon("priest", (17, 2), creature="priest"),
        ],
        grid=grid,
    )
    until_turn(enc, "priest")
    ally = enc.battle["ally"]
    if hurt:
        ally.hp, ally.state = 8, "bloodied"  # test setup
    actions, decisions = play_turn(enc, TacticalPolicy())
    used = UsePower("renew", ()) in actions or any(
        isinstance(a, UsePower) and a.power == "renew" for a in actions
    )
    assert used is hurt
    if hurt:
        assert ally.hp > 8
        assert "uses Renewal" in decisions[0].summary


def test_walks_into_range_to_heal_a_dying_ally(build: Any) -> None:
    # Mend reaches 3 squares; the fallen ally is 6 away: the medic walks, then heals.
    grid = "\n".join(["." * 16] * 5)
    enc = setup(
        build,
        [
            pc("hero", (0, 2)),
            mon("ally", (3, 2), creature="brute"),
            mon("medic", (9, 2), creature="medic"),
        ],
        grid=grid,
    )
    until_turn(enc, "medic")
    ally = enc.battle["ally"]
    ally.hp, ally.state = -2, "dying"  # test setup
    actions, _ = play_turn(enc, TacticalPolicy())
    assert isinstance(actions[0], Move)
    assert UsePower("mend", ("ally",)) in actions
    assert ally.hp > 0


# --- 3. no walking back and forth ------------------------------------------------------------
WALLED = """
...........
.#########.
.#.......#.
.#.......#.
.####.####.
...........
...........
"""
"""A room with one doorway (5,4): whoever is inside can only be shot through it."""


ATTACKS = {"claw", "bolt", "shove"}


def _walk(enc: Encounter, me: str) -> int:
    b = enc.battle
    c = b[me]
    best = 99
    for e in b.enemies_of(c):
        dm = distance_map(b.map, b.squares(e), 40)
        best = min(best, dm.get(c.pos, 99))
    return best


def _no_dithering(enc: Encounter, me: str, turns: int) -> list[str]:
    """Play `me`'s turns (everyone else passes); each turn it either attacks or ends
    strictly closer (walking) to the nearest enemy. Returns what it did each turn."""
    policy = TacticalPolicy()
    did = []
    for _ in range(turns):
        until_turn(enc, me)
        before = _walk(enc, me)
        actions, decisions = play_turn(enc, policy)
        attacked = any(isinstance(a, UsePower) and a.power in ATTACKS for a in actions)
        after = _walk(enc, me)
        assert attacked or after < before, (before, after, decisions[0].summary)
        did.append("attack" if attacked else f"{before}->{after}")
        if enc.over:
            break
    return did


def test_walled_in_enemy_is_not_the_goal(build: Any) -> None:
    # The hero at (1,1) is boxed in by walls and two of the brute's allies: no square next
    # to it is free. The brute goes for the other hero instead, closer every turn.
    grid = """
.#.............
#..............
...............
...............
...............
"""
    enc = setup(
        build,
        [
            pc("boxed", (0, 0)),
            pc("open", (14, 4)),
            mon("wall-1", (1, 1), creature="soldier"),
            mon("brute", (3, 0), creature="brute"),
        ],
        grid=grid,
    )
    did = _no_dithering(enc, "brute", 4)
    assert did[-1] == "attack"


def test_archer_finds_the_doorway(build: Any) -> None:
    enc = setup(build, [pc("hero", (5, 2)), mon("archer", (0, 0), creature="archer")], grid=WALLED)
    did = _no_dithering(enc, "archer", 4)
    assert "attack" in did


ROOM = """
....................
....................
....................
.........#####......
.........#...#......
.........#...#......
.........##.##......
....................
....................
"""
"""A room whose only opening (11,6) faces south: few squares have a shot at whoever is in it."""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_archer_walks_to_a_square_with_a_shot(build: Any, seed: int) -> None:
    # Most squares in the archer's reach are far from the hero (where artillery likes to
    # be) but have no line to it; the few with one are near the doorway. It must find them
    # and shoot this turn, not walk there and shoot next turn.
    enc = setup(
        build, [pc("hero", (11, 4)), mon("archer", (6, 7), creature="archer")], grid=ROOM, seed=seed
    )
    until_turn(enc, "archer")
    actions, _ = play_turn(enc, TacticalPolicy())
    assert any(isinstance(a, UsePower) and a.power == "bolt" for a in actions)


# --- 4. soldiers and chokepoints; where a push lands ----------------------------------------
def test_soldier_values_holding_the_doorway(build: Any) -> None:
    enc = setup(
        build,
        [
            pc("hero", (5, 6)),
            mon("soldier", (5, 2), creature="soldier"),
            mon("archer", (5, 3), creature="archer"),
        ],
        grid=WALLED,
    )
    until_turn(enc, "soldier")
    c = enc.current
    assert c is not None
    ctx = Context(enc, c, weights_for(c), SideMemory())
    door, inside = (5, 4), (4, 3)
    assert ctx.value(door) > ctx.value(inside)
    enc2 = setup(build, [pc("hero", (5, 6)), mon("brute", (5, 2), creature="brute")], grid=WALLED)
    until_turn(enc2, "brute")
    c2 = enc2.current
    assert c2 is not None
    ctx2 = Context(enc2, c2, weights_for(c2), SideMemory())
    bonus = ctx.value(door) - ctx.value((5, 3))
    assert bonus > ctx2.value(door) - ctx2.value((5, 3))  # only soldiers care


def test_pushes_into_a_pit_when_it_can(build: Any) -> None:
    grid = "\n".join([".......", "...^...", ".......", "......."])
    enc = setup(build, [pc("hero", (3, 2)), mon("pusher", (3, 3), creature="pusher")], grid=grid)
    until_turn(enc, "pusher")
    b = enc.battle
    options = forced_options(b, b["pusher"], b["hero"], "slide", 2)
    assert any(b.map.cell(p[-1]).terrain == "pit" for p in options)
    pick = TacticalPolicy().answer(
        enc, ForcedMoveQuestion("pusher", "hero", "slide", tuple(options))
    )
    assert options[pick][-1] == (3, 1)


def test_slides_into_an_allys_flank(build: Any) -> None:
    # No pit: the hero is slid to (3,3), between the pusher (north-west) and the brute
    # (south-east): flanked, and next to both.
    enc = setup(
        build,
        [
            pc("hero", (3, 2)),
            mon("pusher", (2, 2), creature="pusher"),
            mon("ally", (4, 4), creature="brute"),
        ],
    )
    until_turn(enc, "pusher")
    b = enc.battle
    options = forced_options(b, b["pusher"], b["hero"], "slide", 2)
    pick = TacticalPolicy().answer(
        enc, ForcedMoveQuestion("pusher", "hero", "slide", tuple(options))
    )
    assert options[pick][-1] == (3, 3)


# --- 5. the naive baseline stays put once engaged ---------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_naive_ends_its_turn_when_adjacent(build: Any, seed: int) -> None:
    enc = setup(
        build,
        [pc("near", (3, 3)), pc("far", (8, 3)), mon("gob", (4, 3), creature="goblin")],
        seed=seed,
    )
    until_turn(enc, "gob")
    policy = NaivePolicy()
    acts: list[Action] = []
    for _ in range(6):
        if enc.current is None or enc.current.id != "gob":
            break
        act = policy.next_action(enc).action
        acts.append(act)
        enc.apply(act)
    assert isinstance(acts[0], UsePower)
    assert not any(isinstance(a, Move) for a in acts)
    assert isinstance(acts[-1], EndTurn)
    assert enc.battle["gob"].pos == (4, 3)
