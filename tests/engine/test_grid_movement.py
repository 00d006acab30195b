"""Movement: costs, corners, creatures in the way, Large movers, and path validation."""

from __future__ import annotations

import pytest

from engine.grid import (
    BattleMap,
    MoveMode,
    Occupancy,
    Occupant,
    cheapest_path,
    distance_map,
    end_squares,
    endable,
    path_to,
    reachable,
    validate_path,
)


def test_difficult_terrain_costs_two() -> None:
    m = BattleMap.from_ascii(".~~..")
    r = reachable(m, (0, 0), 5, "hero", "pcs")
    assert r[(0, 0)] == (0, None)
    assert r[(1, 0)][0] == 2
    assert r[(2, 0)][0] == 4
    assert r[(3, 0)][0] == 5
    assert (4, 0) not in r
    assert path_to(r, (3, 0)) == [(0, 0), (1, 0), (2, 0), (3, 0)]


def test_leaving_difficult_terrain_is_free() -> None:
    m = BattleMap.from_ascii("~..")
    assert reachable(m, (0, 0), 2, "hero", "pcs")[(2, 0)][0] == 2


def test_cannot_cut_wall_corners() -> None:
    m = BattleMap.from_ascii(
        """
        .#.
        ...
        """
    )
    r = reachable(m, (0, 0), 10, "hero", "pcs")
    # (0,0) -> (1,1) would cut the wall's corner: go round by (0,1).
    assert r[(1, 1)] == (2, (0, 1))
    # And (1,1) -> (2,0) would cut it too: (2,0) is only reached from (2,1).
    assert r[(2, 0)] == (4, (2, 1))


def test_obstacles_and_pits_block_movement() -> None:
    m = BattleMap.from_ascii("..=..\n..^..\n.....")
    r = reachable(m, (0, 0), 10, "hero", "pcs")
    assert (2, 0) not in r and (2, 1) not in r
    # Around both by row 2, never diagonally past the pit's or the obstacle's corners:
    # (0,0) (0,1) (1,2) (2,2) (3,2) (3,1) (3,0).
    assert r[(3, 0)][0] == 6
    assert path_to(r, (3, 0))[3:] == [(2, 2), (3, 2), (3, 1), (3, 0)]


def test_may_pass_allies_but_not_end_in_their_squares() -> None:
    m = BattleMap.from_ascii("#####\n.....\n#####")
    occ = Occupancy.of([Occupant("hero", "pcs", (0, 1)), Occupant("bors", "pcs", (1, 1))])
    r = reachable(m, (0, 1), 4, "hero", "pcs", 1, occ)
    assert r[(2, 1)] == (2, (1, 1))
    assert not endable((1, 1), "hero", occ)
    assert endable((2, 1), "hero", occ)
    assert endable((0, 1), "hero", occ)  # its own square
    assert end_squares(r, "hero", occ) == [(0, 1), (2, 1), (3, 1), (4, 1)]
    assert cheapest_path(m, (0, 1), (1, 1), "hero", "pcs", 1, occ) is None


def test_enemies_block() -> None:
    m = BattleMap.from_ascii("#####\n.....\n#####")
    occ = [Occupant("hero", "pcs", (0, 1)), Occupant("gob1", "monsters", (2, 1))]
    r = reachable(m, (0, 1), 6, "hero", "pcs", 1, occ)
    assert set(r) == {(0, 1), (1, 1)}
    assert cheapest_path(m, (0, 1), (4, 1), "hero", "pcs", 1, occ) is None


def test_moving_round_an_enemy() -> None:
    m = BattleMap.from_ascii("...\n...\n...")
    occ = [Occupant("gob1", "monsters", (1, 1))]
    found = cheapest_path(m, (0, 1), (2, 1), "hero", "pcs", 1, occ)
    assert found is not None
    path, cost = found
    assert cost == 2 and (1, 1) not in path


def test_large_creature_needs_room_and_pays_for_new_squares() -> None:
    m = BattleMap.from_ascii(
        """
        ......
        ....~.
        ##.###
        ......
        ......
        """
    )
    # A 2x2 ogre cannot squeeze through the 1-square gap.
    r = reachable(m, (0, 0), 20, "ogre", "monsters", 2)
    assert all(y <= 0 for _, y in r)
    # Stepping right from (2,0) enters (4,0) and (4,1): the difficult one sets the cost.
    assert r[(2, 0)][0] == 2
    assert r[(3, 0)] == (4, (2, 0))
    assert r[(1, 0)][0] == 1


def test_large_creature_diagonal_corner_rule_and_enemies() -> None:
    m = BattleMap.from_ascii(
        """
        .....
        .....
        ....#
        .....
        """
    )
    r = reachable(m, (0, 0), 1, "ogre", "monsters", 2)
    assert (1, 1) in r
    # (2,0) -> (3,1) would sweep past the wall at (4,2)'s corner.
    r2 = reachable(m, (2, 0), 1, "ogre", "monsters", 2)
    assert (3, 1) not in r2
    occ = [Occupant("hero", "pcs", (2, 1))]
    r3 = reachable(m, (0, 0), 1, "ogre", "monsters", 2, occ)
    assert (1, 0) not in r3 and (1, 1) not in r3 and (0, 1) in r3


def test_cheapest_path_prefers_cheap_terrain_and_respects_budget() -> None:
    m = BattleMap.from_ascii(
        """
        .~~~.
        .....
        """
    )
    found = cheapest_path(m, (0, 0), (4, 0), "hero", "pcs")
    assert found is not None
    path, cost = found
    assert cost == 4 and path[0] == (0, 0) and path[-1] == (4, 0)
    assert cheapest_path(m, (0, 0), (4, 0), "hero", "pcs", budget=3) is None
    assert cheapest_path(m, (0, 0), (0, 0), "hero", "pcs") == ([(0, 0)], 0)


def test_creature_in_a_pit_can_climb_out() -> None:
    m = BattleMap.from_ascii("^..")
    r = reachable(m, (0, 0), 2, "hero", "pcs")
    assert r[(1, 0)] == (1, (0, 0)) and r[(2, 0)][0] == 2


def test_distance_map_is_walking_cost_to_the_sources() -> None:
    m = BattleMap.from_ascii(
        """
        ..~..
        .#...
        .....
        """
    )
    d = distance_map(m, [(4, 0)], cap=10)
    for sq in m.graph.nodes:
        forward = reachable(m, sq, 10, "x", "s")
        assert d.get(sq) == forward[(4, 0)][0]
    assert distance_map(m, [(4, 0)], cap=1) == {(4, 0): 0, (3, 0): 1, (3, 1): 1, (4, 1): 1}


def test_distance_map_blocked_sides() -> None:
    m = BattleMap.from_ascii("#####\n.....\n#####")
    occ = [Occupant("gob1", "monsters", (2, 1))]
    assert (0, 1) not in distance_map(m, [(4, 1)], 10, occ, blocked_sides={"monsters"})
    assert distance_map(m, [(4, 1)], 10, occ)[(0, 1)] == 4
    # A source square's own creature never blocks it.
    assert distance_map(m, [(2, 1)], 10, occ, blocked_sides={"monsters"})[(0, 1)] == 2


PATH_MAP = BattleMap.from_ascii(
    """
    ........
    ......#.
    ..=.~...
    ........
    ...^....
    """
)
PATH_OCC = Occupancy.of(
    [
        Occupant("hero", "pcs", (0, 0)),
        Occupant("bors", "pcs", (2, 0)),
        Occupant("gob1", "monsters", (7, 4)),
    ]
)
DIFFICULT_WALK = [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (5, 2)]  # 1 + 1 + 1 + 2 + 1 = 6


@pytest.mark.parametrize(
    ("path", "budget", "mode", "reason", "index"),
    [
        pytest.param([(0, 0), (1, 0), (2, 0), (3, 0)], 6, "walk", None, None, id="through-ally"),
        pytest.param(DIFFICULT_WALK, 6, "walk", None, None, id="difficult-within-speed"),
        pytest.param(DIFFICULT_WALK, 6, "run", None, None, id="run-same-as-walk"),
        pytest.param(DIFFICULT_WALK, 5, "walk", "cost 6 exceeds speed 5", 5, id="over-speed"),
        pytest.param(
            [(0, 0), (2, 0)], 6, "walk", "step 1 (0,0)->(2,0): not adjacent", 1, id="not-adjacent"
        ),
        pytest.param(
            [(0, 0), (1, 1), (2, 2)],
            6,
            "walk",
            "step 2 (1,1)->(2,2) runs into an obstacle at (2,2)",
            2,
            id="obstacle",
        ),
        pytest.param(
            [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 1)],
            6,
            "walk",
            "step 6 (5,0)->(6,1) runs into a wall at (6,1)",
            6,
            id="wall",
        ),
        pytest.param(
            [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 1)],
            8,
            "walk",
            "step 7 (6,0)->(7,1) cuts the corner of a wall at (6,1)",
            7,
            id="wall-corner",
        ),
        pytest.param(
            [(0, 0), (1, 0), (2, 1), (3, 2)],
            6,
            "walk",
            "step 3 (2,1)->(3,2) cuts the corner of an obstacle at (2,2)",
            3,
            id="obstacle-corner",
        ),
        pytest.param(
            [(0, 0), (1, 1), (2, 1), (3, 1), (4, 1), (5, 2), (6, 3), (7, 4)],
            10,
            "walk",
            "step 7 (6,3)->(7,4): (7,4) is occupied by an enemy (gob1)",
            7,
            id="enemy",
        ),
        pytest.param(
            [(0, 0), (0, 1), (0, 2), (1, 3), (2, 3), (3, 4)],
            8,
            "walk",
            "step 5 (2,3)->(3,4) enters a pit at (3,4)",
            5,
            id="pit",
        ),
        pytest.param(
            [(0, 0), (1, 0), (2, 0)],
            6,
            "walk",
            "may not end in an ally's square (bors)",
            2,
            id="end-in-ally",
        ),
        pytest.param(
            [(0, 0), (-1, 0)],
            6,
            "walk",
            "step 1 (0,0)->(-1,0) runs into the edge of the map",
            1,
            id="off-map",
        ),
        pytest.param([(0, 0), (1, 0)], 1, "shift", None, None, id="shift"),
        pytest.param(
            [(0, 0), (1, 0), (1, 1)],
            6,
            "shift",
            "a shift moves exactly 1 square, not 2",
            None,
            id="shift-two-squares",
        ),
    ],
)
def test_validate_path_reasons(
    path: list[tuple[int, int]], budget: int, mode: MoveMode, reason: str | None, index: int | None
) -> None:
    check = validate_path(PATH_MAP, path, "hero", "pcs", 1, PATH_OCC, budget, mode)
    assert check.reason == reason
    assert check.ok is (reason is None)
    assert check.index == index


def test_validate_path_costs() -> None:
    check = validate_path(PATH_MAP, DIFFICULT_WALK, "hero", "pcs", 1, PATH_OCC, 6)
    assert check.ok and check.cost == 6 and check.reason is None


def test_shift_into_difficult_terrain_needs_two_squares_of_movement() -> None:
    m = BattleMap.from_ascii(".~")
    assert not validate_path(m, [(0, 0), (1, 0)], "hero", "pcs", budget=1, mode="shift").ok
    check = validate_path(m, [(0, 0), (1, 0)], "hero", "pcs", budget=6, mode="shift")
    assert check.ok and check.cost == 2


def test_validate_large_path() -> None:
    m = BattleMap.from_ascii("......\n......\n..#...\n......")
    ok = validate_path(m, [(0, 0), (1, 0), (2, 0), (3, 0), (4, 1)], "ogre", "monsters", 2, None, 6)
    assert ok.ok and ok.cost == 4
    bad = validate_path(m, [(0, 0), (1, 1)], "ogre", "monsters", 2, None, 6)
    assert bad.reason == "step 1 (0,0)->(1,1) runs into a wall at (2,2)"
    # The 2x2 sweeping diagonally from (2,0) to (3,1) passes the wall's corner.
    cut = validate_path(m, [(0, 0), (1, 0), (2, 0), (3, 1)], "ogre", "monsters", 2, None, 6)
    assert cut.reason == "step 3 (2,0)->(3,1) cuts the corner of a wall at (2,2)"


def test_empty_path() -> None:
    assert validate_path(PATH_MAP, [], "hero", "pcs").reason == "empty path"
