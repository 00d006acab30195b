"""Footprints and distance, threatened squares and provocations (S-14), bursts and blasts."""

from __future__ import annotations

from engine.grid import (
    BattleMap,
    adjacent,
    blast_origins,
    blast_squares,
    burst_squares,
    close_burst_squares,
    distance,
    footprint,
    in_range,
    provocations,
    threatened_squares,
)

OPEN = BattleMap.from_ascii(["." * 9] * 9)


def test_footprint_distance_adjacency() -> None:
    assert footprint((2, 3)) == ((2, 3),)
    assert footprint((2, 3), 2) == ((2, 3), (3, 3), (2, 4), (3, 4))
    ogre = footprint((2, 2), 2)
    assert distance([(0, 0)], [(3, 1)]) == 3  # diagonals count 1 (Chebyshev)
    assert distance([(0, 0)], ogre) == 2
    assert adjacent([(1, 4)], ogre) and adjacent([(4, 4)], ogre)
    assert not adjacent([(3, 3)], ogre)  # overlapping is not adjacent
    assert not adjacent([(5, 5)], ogre)
    assert in_range([(0, 0)], ogre, 2) and not in_range([(0, 0)], ogre, 1)


def test_S_14_threatened_squares_adjacent_and_reach() -> None:
    assert threatened_squares(OPEN, (4, 4), 1, 1) == {
        (3, 3), (4, 3), (5, 3), (3, 4), (5, 4), (3, 5), (4, 5), (5, 5)
    }  # fmt: skip
    assert len(threatened_squares(OPEN, (4, 4), 1, 2)) == 24
    assert len(threatened_squares(OPEN, (4, 4), 2, 1)) == 12  # a Large creature, reach 1
    assert threatened_squares(OPEN, (0, 0), 1, 1) == {(1, 0), (0, 1), (1, 1)}  # map edge
    assert threatened_squares(OPEN, (4, 4), 1, 1) is threatened_squares(OPEN, (4, 4), 1, 1)


def test_S_14_threat_needs_line_of_effect_not_a_legal_step() -> None:
    m = BattleMap.from_ascii(
        """
        .....
        .#...
        ..x..
        .....
        """.replace("x", ".")
    )
    t = threatened_squares(m, (2, 2), 1, 1)
    assert (1, 1) not in t  # a wall: nothing stands there
    # Diagonally past the wall's corner is fine for an attack.
    assert {(1, 2), (2, 1), (1, 3)} <= t
    # Reach 2 goes round a lone pillar-like wall square (a line passes below it) ...
    assert (0, 0) in threatened_squares(m, (2, 2), 1, 2)
    # ... but not through a wall row.
    row = BattleMap.from_ascii(".....\n###..\n.....")
    reach2 = threatened_squares(row, (2, 2), 1, 2)
    assert (0, 0) not in reach2 and (1, 0) not in reach2
    assert (0, 2) in reach2 and (4, 0) in reach2
    low = BattleMap.from_ascii(".=.")
    assert (2, 0) in threatened_squares(low, (0, 0), 1, 2)  # low obstacles don't stop reach


def test_S_14_provocations_first_time_leaving_each_threat() -> None:
    gob = threatened_squares(OPEN, (3, 1), 1, 1)
    orc = threatened_squares(OPEN, (5, 3), 1, 1)
    path = [(1, 1), (2, 2), (3, 2), (4, 2), (4, 3), (4, 4), (3, 5)]
    # Leaves (2,2) (gob's) at step 1, (4,2) (both) at step 3: gob already provoked.
    assert provocations(path, {"gob": gob, "orc": orc}) == [(1, "gob"), (3, "orc")]
    # Entering a threatened square and stopping there provokes nothing.
    assert provocations([(1, 1), (2, 2)], {"gob": gob}) == []
    assert provocations([(2, 2)], {"gob": gob}) == []


def test_S_14_provocations_for_a_large_mover() -> None:
    gob = threatened_squares(OPEN, (0, 0), 1, 1)
    # An ogre at (1,1) covers (1,1) which the goblin threatens.
    assert provocations([(1, 1), (2, 1), (3, 1)], {"gob": gob}, size=2) == [(0, "gob")]
    assert provocations([(2, 2), (3, 2)], {"gob": gob}, size=2) == []


def test_burst_squares_stop_at_walls() -> None:
    assert len(burst_squares(OPEN, (4, 4), 1)) == 9
    assert len(burst_squares(OPEN, (4, 4), 2)) == 25
    assert len(burst_squares(OPEN, (0, 0), 1)) == 4
    m = BattleMap.from_ascii(
        """
        ..#..
        ..#..
        ..#..
        """
    )
    b = burst_squares(m, (1, 1), 2)
    assert (2, 1) not in b  # the wall itself
    assert not any(x >= 3 for x, _ in b)  # nothing behind it
    assert (0, 0) in b and (1, 2) in b


def test_close_burst_includes_own_squares_and_stops_at_walls() -> None:
    assert len(close_burst_squares(OPEN, (4, 4), 1, 1)) == 9
    assert len(close_burst_squares(OPEN, (4, 4), 2, 1)) == 16
    m = BattleMap.from_ascii(".#..\n.#..")
    assert close_burst_squares(m, (0, 0), 1, 3) == {(0, 0), (0, 1)}


def test_blast_origins_touch_but_never_overlap() -> None:
    origins = blast_origins(OPEN, (4, 4), 1, 1)
    assert origins == sorted([(3, 3), (4, 3), (5, 3), (3, 4), (5, 4), (3, 5), (4, 5), (5, 5)])
    origins3 = blast_origins(OPEN, (4, 4), 1, 3)
    assert len(origins3) == 16  # 5 x 5 candidate top-lefts less the 3 x 3 that overlap
    for tl in origins3:
        sq = footprint(tl, 3)
        assert adjacent([(4, 4)], sq)
        assert (4, 4) not in sq
    assert len(blast_origins(OPEN, (4, 4), 2, 2)) == 16  # a Large attacker
    # At the map corner only blasts with some square on the map are offered.
    corner = blast_origins(OPEN, (0, 0), 1, 3)
    assert (-3, -3) not in corner and (1, 1) in corner and (-2, 1) in corner
    assert all(any(OPEN.in_bounds(s) for s in footprint(tl, 3)) for tl in corner)


def test_blast_squares_with_line_of_effect() -> None:
    m = BattleMap.from_ascii(
        """
        .....
        .#...
        .#...
        .....
        """
    )
    assert blast_squares(OPEN, (4, 4), 1, 2, (5, 3)) == {(5, 3), (6, 3), (5, 4), (6, 4)}
    b = blast_squares(m, (0, 0), 1, 3, (1, 1))
    assert (1, 1) not in b and (1, 2) not in b  # the wall itself
    assert (2, 3) not in b  # straight behind the wall from the attacker's square
    assert {(2, 1), (3, 1), (1, 3)} <= b
