"""Behaviour of the tactical policy on small fixed maps (issue 4, "Must show").

Each scenario builds a tiny encounter through the real loader, passes the turns of everyone
else (EndTurn) until the creature under test acts, lets the policy play its whole turn, and
checks what it did: the actions, the log, where it ended.
"""

from __future__ import annotations

from typing import Any

import pytest

from ai.tactical import TacticalPolicy
from engine.actions import Move, UsePower
from engine.encounter import Encounter
from engine.events import Attack, Provoke
from engine.grid import distance, threatened_squares
from tests.support.helpers import BASIC_MELEE, BOLT_VS_AC, CLAW, FIGHTER, SLAM, mon, pc
from tests.support.scenarios import OPEN_9x7, monster, play_turn, until_turn

FLAME = {
    "id": "flame",
    "name": "Flame Burst",
    "kind": "area",
    "range": 10,
    "burst": 1,
    "target": "creature",
    "targets": 9,
    "attack": {"bonus": 5, "vs": "reflex"},
    "hit": {"damage": {"dice": "1d6", "bonus": 3}},
}
PIKE = {
    "id": "pike-jab",
    "name": "Pike Jab",
    "kind": "melee",
    "basic": True,
    "reach": 2,
    "attack": {"bonus": 6, "vs": "ac"},
    "hit": {"damage": {"dice": "1d8", "bonus": 3}},
}


PIKEMAN_PC = {
    **FIGHTER,
    "id": "pikeman",
    "name": "Pikeman",
    "powers": ["basic-melee"],
    "weapons": [{"id": "pike", "name": "Pike", "dice": "1d10", "proficiency": 2, "reach": 2}],
}
CREATURES = [
    FIGHTER,
    PIKEMAN_PC,
    monster("skirmisher", "skirmisher", ["claw"]),
    monster("soldier", "soldier", ["claw"]),
    monster("archer", "artillery", ["bolt"]),
    monster("mage", "controller", ["flame", "bolt"]),
    monster("brute", "brute", ["slam"]),
]
POWERS = [BASIC_MELEE, CLAW, BOLT_VS_AC, FLAME, SLAM, PIKE]


def setup(
    build: Any, combatants: list[dict[str, Any]], grid: str = OPEN_9x7, seed: int = 3
) -> Encounter:
    return build(grid, combatants, creatures=CREATURES, powers=POWERS, seed=seed)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_skirmisher_moves_to_the_flanking_square(build: Any, seed: int) -> None:
    # The fighter at (3,3) has the soldier on its west side; the square east of it (4,3)
    # flanks. Squares (4,2) and (4,4) are as close but do not flank.
    enc = setup(
        build,
        [
            pc("hero", (3, 3)),
            mon("ally", (2, 3), creature="soldier"),
            mon("skirm", (7, 3), creature="skirmisher"),
        ],
        seed=seed,
    )
    until_turn(enc, "skirm")
    actions, decisions = play_turn(enc, TacticalPolicy())
    moves = [a for a in actions if isinstance(a, Move)]
    assert moves and moves[0].path[-1] == (4, 3)
    attack = next(a for a in actions if isinstance(a, UsePower))
    assert attack.targets == ("hero",)
    rolled = [lg.event for lg in enc.log if isinstance(lg.event, Attack)]
    assert rolled and rolled[-1].combat_advantage and rolled[-1].flanking
    assert "flank" in decisions[0].summary


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ranged_monster_shifts_away_before_shooting(build: Any, seed: int) -> None:
    enc = setup(build, [pc("hero", (3, 3)), mon("arch", (4, 3), creature="archer")], seed=seed)
    until_turn(enc, "arch")
    mark = len(enc.log)
    actions, _ = play_turn(enc, TacticalPolicy())
    assert isinstance(actions[0], Move) and actions[0].mode == "shift"
    assert isinstance(actions[1], UsePower) and actions[1].power == "bolt"
    b = enc.battle
    assert distance(b.squares(b["arch"]), b.squares(b["hero"])) > 1
    assert not [lg for lg in enc.log[mark:] if isinstance(lg.event, Provoke)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_artillery_ends_out_of_melee_reach(build: Any, seed: int) -> None:
    # The pikeman threatens every square within 2; the archer starts inside that reach
    # (not adjacent, so shooting would not provoke) and can shift out of it.
    enc = setup(
        build,
        [pc("pike", (2, 3), creature="pikeman"), mon("arch", (4, 3), creature="archer")],
        seed=seed,
    )
    until_turn(enc, "arch")
    actions, _ = play_turn(enc, TacticalPolicy())
    assert any(isinstance(a, UsePower) for a in actions)
    b = enc.battle
    pike = b["pike"]
    assert pike.reach == 2
    reach = threatened_squares(b.map, pike.pos, pike.size, pike.reach)
    assert b["arch"].pos not in reach


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_controller_centres_burst_on_three_enemies_and_no_ally(build: Any, seed: int) -> None:
    # Three heroes in a bent line; the soldier stands west of the middle one, so the burst
    # centred on the middle hero would catch it. Centred one square east, it catches the
    # three heroes and not the soldier.
    enc = setup(
        build,
        [
            pc("a", (5, 2)),
            pc("b", (5, 3)),
            pc("c", (5, 4)),
            mon("ally", (4, 3), creature="soldier"),
            mon("mage", (12, 3), creature="mage"),
        ],
        grid="\n".join(["..............."] * 7),
        seed=seed,
    )
    until_turn(enc, "mage")
    policy = TacticalPolicy()
    actions, decisions = play_turn(enc, policy)
    use = next(a for a in actions if isinstance(a, UsePower))
    assert use.power == "flame" and use.origin is not None
    ox, oy = use.origin
    caught = {
        cid
        for cid, (x, y) in {"a": (5, 2), "b": (5, 3), "c": (5, 4), "ally": (4, 3)}.items()
        if max(abs(x - ox), abs(y - oy)) <= 1
    }
    assert caught == {"a", "b", "c"}
    assert "no ally" in decisions[0].summary


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_brute_finishes_the_bloodied_hero(build: Any, seed: int) -> None:
    enc = setup(
        build,
        [pc("fresh", (3, 2)), pc("hurt", (3, 4)), mon("brute", (4, 3), creature="brute")],
        seed=seed,
    )
    until_turn(enc, "brute")
    hurt = enc.battle["hurt"]
    hurt.hp, hurt.state = 4, "bloodied"  # test setup: a hero nearly down
    actions, decisions = play_turn(enc, TacticalPolicy())
    use = next(a for a in actions if isinstance(a, UsePower))
    assert use.targets == ("hurt",)
    assert "to drop" in decisions[0].summary


def test_encounter_power_not_spent_on_a_minion(build: Any) -> None:
    minion = {**FIGHTER, "id": "minion-pc", "name": "Mook", "hp": 1, "minion": True}
    big = {
        **SLAM,
        "id": "smash",
        "name": "Smash",
        "usage": "encounter",
        "basic": False,
        "hit": {"damage": {"dice": "3d6", "bonus": 4}},
    }
    brute = monster("brute", "brute", ["slam", "smash"])
    enc = build(
        OPEN_9x7,
        [pc("mook", (3, 3), creature="minion-pc"), mon("brute", (4, 3), creature="brute")],
        creatures=[minion, brute],
        powers=[BASIC_MELEE, SLAM, big],
        seed=3,
    )
    until_turn(enc, "brute")
    actions, _ = play_turn(enc, TacticalPolicy())
    use = next(a for a in actions if isinstance(a, UsePower))
    assert use.power == "slam"


def test_takes_opportunity_attacks(build: Any) -> None:
    enc = setup(build, [pc("hero", (3, 3)), mon("brute", (4, 3), creature="brute")])
    until_turn(enc, "hero")
    policy = TacticalPolicy()
    from engine.decisions import OpportunityQuestion

    q = OpportunityQuestion("brute", "hero", (3, 3), "slam")
    assert policy.answer(enc, q) is True


def test_flees_when_badly_hurt_only_if_asked(build: Any) -> None:
    for flee in (False, True):
        enc = setup(build, [pc("hero", (3, 3)), mon("brute", (4, 3), creature="brute")])
        until_turn(enc, "brute")
        brute = enc.battle["brute"]
        brute.hp, brute.state = 6, "bloodied"  # test setup: a fifth of its hit points left
        actions, decisions = play_turn(enc, TacticalPolicy(flee=flee))
        attacked = any(isinstance(a, UsePower) for a in actions)
        b = enc.battle
        gap = distance(b.squares(b["brute"]), b.squares(b["hero"]))
        if flee:
            assert not attacked and gap > 1
            assert "badly hurt" in decisions[0].summary
        else:
            assert attacked


def test_cover_from_a_shooter_makes_a_square_safer(build: Any) -> None:
    from ai.memory import SideMemory
    from ai.roles import weights_for
    from ai.scoring import Context

    shooter = {**FIGHTER, "id": "shooter", "name": "Shooter", "powers": ["bolt"]}
    # The shooter stands out of walking reach of both squares: every creature has a basic
    # melee attack (issue 16), and here only its bolt should count.
    rows = ["..............."] * 5
    rows[2] = "......=........"
    grid = "\n".join(rows)
    enc = build(
        grid,
        [pc("gun", (14, 2), creature="shooter"), mon("arch", (1, 2), creature="archer")],
        creatures=[shooter, monster("archer", "artillery", ["bolt"])],
        powers=POWERS,
    )
    until_turn(enc, "arch")
    c = enc.current
    assert c is not None
    ctx = Context(enc, c, weights_for(c), SideMemory())
    behind, open_ = (5, 2), (5, 0)  # the same distance from the shooter
    assert ctx.value(behind) > ctx.value(open_)


def test_names_its_pick_when_an_area_holds_more_than_it_may_affect(build: Any) -> None:
    lash = {
        "id": "lash",
        "name": "Lash",
        "kind": "close",
        "burst": 2,
        "target": "enemy",
        "targets": 1,
        "attack": {"bonus": 6, "vs": "reflex"},
        "hit": {"damage": {"dice": "3d6", "bonus": 4}},
    }
    whip = monster("whip", "controller", ["lash"])
    enc = build(
        OPEN_9x7,
        [pc("a", (2, 3)), pc("b", (6, 3)), mon("whip", (4, 3), creature="whip")],
        creatures=[FIGHTER, whip],
        powers=[BASIC_MELEE, lash],
    )
    until_turn(enc, "whip")
    actions, _ = play_turn(enc, TacticalPolicy())
    use = next(a for a in actions if isinstance(a, UsePower))
    assert use.power == "lash" and len(use.targets) == 1
