"""Push, pull and slide (F-DMG-11), and pits as forced-movement destinations (S-12)."""

from __future__ import annotations

from engine.grid import (
    BattleMap,
    Occupancy,
    Occupant,
    Terrain,
    footprint,
    forced_path_ok,
    forced_steps,
)

OPEN = BattleMap.from_ascii(["." * 7] * 7)


def test_F_DMG_11_push_moves_strictly_away() -> None:
    steps = forced_steps(OPEN, "push", [(3, 3)], (4, 3))
    assert sorted(steps) == [(5, 2), (5, 3), (5, 4)]
    # From a diagonal neighbour, a push has 5 squares that each end 2 away.
    assert len(forced_steps(OPEN, "push", [(3, 3)], (4, 4))) == 5


def test_F_DMG_11_pull_moves_strictly_closer() -> None:
    # Chebyshev: from (3,3), only (2,2) is nearer to (0,0); (2,3) is still 3 away.
    assert forced_steps(OPEN, "pull", [(0, 0)], (3, 3)) == [(2, 2)]
    assert sorted(forced_steps(OPEN, "pull", [(0, 3)], (3, 3))) == [(2, 2), (2, 3), (2, 4)]
    # Already adjacent to the puller: the only closer square is the puller's own.
    puller = [Occupant("hero", "pcs", (3, 3))]
    assert forced_steps(OPEN, "pull", [(3, 3)], (4, 3), 1, puller, "gob") == []
    # Towards an empty origin square (an area power), it may end there.
    assert forced_steps(OPEN, "pull", [(3, 3)], (4, 3)) == [(3, 3)]


def test_F_DMG_11_slide_any_open_neighbour() -> None:
    assert len(forced_steps(OPEN, "slide", [(0, 0)], (3, 3))) == 8
    assert len(forced_steps(OPEN, "slide", [(0, 0)], (0, 6))) == 3  # the map edge


def test_F_DMG_11_blocked_by_terrain_creatures_and_corners() -> None:
    m = BattleMap.from_ascii(
        """
        ......
        ...#..
        ..S.=.
        ...g..
        ......
        """.replace("S", ".").replace("g", ".")
    )
    occ = Occupancy.of([Occupant("gob", "monsters", (3, 3)), Occupant("hero", "pcs", (2, 2))])
    # The hero at (2,2) pushes the target standing at (3,2).
    steps = forced_steps(m, "push", [(2, 2)], (3, 2), 1, occ, "target")
    # Farther squares: (4,1) and (4,3) pass the obstacle's corner, (4,2) is the obstacle.
    assert steps == []
    # Sliding: (2,1) would pass the wall's corner; (2,3) passes between the hero and the
    # goblin, which is allowed (only terrain has corners that block).
    assert forced_steps(m, "slide", [(2, 2)], (3, 2), 1, occ, "target") == [(2, 3)]


def test_F_DMG_11_large_target() -> None:
    # An ogre (2x2 at (2,2)) pushed by a hero at (1,2).
    steps = forced_steps(OPEN, "push", [(1, 2)], (2, 2), 2)
    assert sorted(steps) == [(3, 1), (3, 2), (3, 3)]
    occ = Occupancy.of(
        [Occupant("ogre", "monsters", (2, 2), 2), Occupant("gob", "monsters", (4, 3))]
    )
    assert sorted(forced_steps(OPEN, "push", [(1, 2)], (2, 2), 2, occ, "ogre")) == [(3, 1)]


def test_S_12_pits_are_legal_destinations_and_flagged() -> None:
    m = BattleMap.from_ascii("...^.")
    steps = forced_steps(m, "push", [(1, 0)], (2, 0))
    assert steps == [(3, 0)]
    assert m.cell(steps[0]).terrain is Terrain.PIT
    assert m.cell(steps[0]).depth == 10


def test_forced_path_ok_and_reasons() -> None:
    m = BattleMap.from_ascii("......\n...^..\n......")
    ok = forced_path_ok(m, "push", [(0, 0)], [(1, 0), (2, 0), (3, 0)], 2)
    assert ok.ok and ok.cost == 2
    too_far = forced_path_ok(m, "push", [(0, 0)], [(1, 0), (2, 0), (3, 0), (4, 0)], 2)
    assert too_far.reason == "push moves 3 squares, more than 2"
    back = forced_path_ok(m, "push", [(0, 0)], [(1, 0), (2, 0), (1, 0)], 2)
    assert back.index == 2 and back.reason is not None and "not a legal push" in back.reason
    into_pit = forced_path_ok(m, "slide", [(0, 0)], [(2, 1), (3, 1)], 3)
    assert into_pit.ok
    past_pit = forced_path_ok(m, "slide", [(0, 0)], [(2, 1), (3, 1), (4, 1)], 3)
    assert past_pit.reason == "the slide ends in the pit at (3,1)"


def test_forced_movement_ignores_difficult_terrain_cost() -> None:
    m = BattleMap.from_ascii(".~~~.")
    check = forced_path_ok(m, "push", [(0, 0)], [(1, 0), (2, 0), (3, 0), (4, 0)], 3)
    assert check.ok and check.cost == 3
    assert all(m.in_bounds(s) for s in footprint((4, 0)))
