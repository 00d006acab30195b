"""Cover and concealment as rule tables of ASCII fixtures (F-MOD-2 .. F-MOD-10).

Each case is a small map drawing: 'A' marks the attacker's squares, 'T' the target's, 'E' an
enemy of the attacker in the way, 'L' an ally of the attacker, 'X' the origin square of an
area attack. The letters stand on floor ('.') unless a case says what is under them. The
case id names the clause it shows.
"""

from __future__ import annotations

import textwrap

import pytest

from engine.grid import (
    AttackKind,
    BattleMap,
    Occupancy,
    Occupant,
    attack_concealment,
    attack_cover,
    can_see,
    concealment,
    cover,
    line_of_effect,
    line_of_sight,
    reach_cover,
)

Sq = tuple[int, int]
MARKS = "ATELX"


def parse(
    drawing: str, under: dict[str, str] | None = None
) -> tuple[BattleMap, dict[str, list[Sq]]]:
    """The map with the letters replaced by their terrain, and the squares of each letter."""
    under = under or {}
    lines = [line.strip() for line in textwrap.dedent(drawing).strip().splitlines()]
    marks: dict[str, list[Sq]] = {}
    rows = []
    for y, line in enumerate(lines):
        row = []
        for x, ch in enumerate(line):
            if ch in MARKS:
                marks.setdefault(ch, []).append((x, y))
                row.append(under.get(ch, "."))
            else:
                row.append(ch)
        rows.append("".join(row))
    return BattleMap.from_ascii(rows), marks


COVER_CASES = [
    pytest.param("ranged", "A....\n.....\n....T", "none", id="F-MOD-3-open-field"),
    # The best corner's lines run along the top edges of the low wall: not blocked.
    pytest.param("ranged", "..T\nA==", "none", id="F-MOD-3-graze-edge"),
    # A line through the obstacle's corner point only is not blocked; the attacker's top-right
    # corner sees all 4 target corners, its other corners have 1 or 2 lines blocked.
    pytest.param("ranged", "A...\n.=.T", "none", id="F-MOD-3-best-corner"),
    # Behind a low wall: the lines along the seams between obstacle squares are along edges,
    # so 2 of 4 lines are blocked from the best corner.
    pytest.param("ranged", "..=..\nA.=.T\n..=..", "cover", id="F-MOD-2-cover-behind-low-wall"),
    # Every line blocked, but only by low obstacles: line of effect, superior cover.
    pytest.param(
        "ranged", "A....\n.....\n..===\n..=T.", "superior", id="F-MOD-2-superior-low-obstacles"
    ),
    pytest.param(
        "ranged", "A....\n..#..\n..=..\n....T", "superior", id="F-MOD-3-superior-wall-and-obstacle"
    ),
    pytest.param("ranged", "..#..\nA.#.T\n..#..", "blocked", id="F-MOD-3-wall-fully-between"),
    pytest.param("ranged", "A...#..\n....#T.\n.......", "blocked", id="F-MOD-3-behind-wall-corner"),
    # The same spot for a Large target: the attacker picks its most exposed square.
    pytest.param("ranged", "A...#..\n....#TT\n.....TT", "cover", id="F-MOD-3-large-target"),
    pytest.param(
        "ranged", "AA.....\nAA.=...\n...=..T\n...=...", "cover", id="F-MOD-3-large-attacker"
    ),
    pytest.param("ranged", ".....\nA.E.T\n.....", "cover", id="F-MOD-6-enemy-in-the-way"),
    pytest.param("ranged", ".....\nA.L.T\n.....", "none", id="F-MOD-6-ally-never-grants-cover"),
    pytest.param("ranged", "..E..\nA.E.T\n..E..", "cover", id="F-MOD-6-edge-between-enemies"),
    pytest.param("melee", "...\nAET\n...", "none", id="F-MOD-6-no-creature-cover-vs-melee"),
    pytest.param(
        "area", ".......\nA.X.E.T\n.......", "none", id="F-MOD-6-no-creature-cover-vs-area"
    ),
    # Measured from the origin square, not from the attacker behind the wall.
    pytest.param("area", ".#.....\nA#X...T\n.#.....", "none", id="F-MOD-4-origin-not-attacker"),
    pytest.param(
        "area", ".......\nX..=..T\n.......\nA......", "cover", id="F-MOD-4-obstacle-from-origin"
    ),
    # Reach 2 through a low obstacle the target is not in.
    pytest.param("melee", "...\nA=T\n...", "cover", id="F-MOD-5-reach-through-obstacle"),
    pytest.param("melee", "A..\n.=.\n..T", "superior", id="F-MOD-5-reach-diagonal-obstacle"),
]


@pytest.mark.parametrize(("kind", "drawing", "expected"), COVER_CASES)
def test_cover_table(kind: AttackKind, drawing: str, expected: str) -> None:
    bmap, marks = parse(drawing)
    origin = marks["X"][0] if "X" in marks else None
    # The engine passes the attacker's enemies other than the target; allies never.
    blockers = frozenset(marks.get("E", []))
    got = attack_cover(bmap, kind, marks["A"], marks["T"], origin=origin, blockers=blockers)
    assert got == expected


def test_F_MOD_6_blockers_from_occupancy() -> None:
    bmap, marks = parse(".....\nA.E.T\n..L..")
    occ = Occupancy.of(
        [
            Occupant("hero", "pcs", marks["A"][0]),
            Occupant("gob1", "monsters", marks["E"][0]),
            Occupant("gob2", "monsters", marks["T"][0]),
            Occupant("bors", "pcs", marks["L"][0]),
        ]
    )
    blockers = occ.enemy_squares("pcs", exclude={"gob2"})
    assert blockers == {marks["E"][0]}
    assert cover(bmap, marks["A"], marks["T"], blockers=blockers) == "cover"
    assert cover(bmap, marks["A"], marks["T"], blockers=blockers, count_creatures=False) == "none"


def test_F_MOD_5_reach_cover_is_terrain_only() -> None:
    bmap, marks = parse("...\nA=T\n...")
    assert reach_cover(bmap, marks["A"], marks["T"]) == "cover"
    bmap, marks = parse("...\nAET\n...")
    assert reach_cover(bmap, marks["A"], marks["T"]) == "none"


def test_cover_is_memoized_and_stable() -> None:
    bmap, marks = parse("A....\n..#..\n..=..\n....T")
    first = cover(bmap, marks["A"], marks["T"])
    assert bmap._line_memo and bmap._level_memo
    assert cover(bmap, marks["A"], marks["T"]) == first
    assert cover(bmap, list(marks["A"]), tuple(marks["T"])) == first


def test_line_of_effect_ignores_obstacles_and_obscurement() -> None:
    bmap, marks = parse("A=;%T")
    assert line_of_effect(bmap, marks["A"], marks["T"])
    assert line_of_sight(bmap, marks["A"], marks["T"])
    bmap, marks = parse("..#..\nA.#.T\n..#..")
    assert not line_of_effect(bmap, marks["A"], marks["T"])
    assert not line_of_sight(bmap, marks["A"], marks["T"])


CONCEALMENT_CASES = [
    pytest.param("A...T", ".", "none", id="F-MOD-10-clear"),
    pytest.param("A...T", ",", "concealment", id="F-MOD-7-lightly-obscured"),
    pytest.param("A...T", "&", "concealment", id="F-MOD-10-undergrowth-is-lightly-obscured"),
    pytest.param("AT", ";", "concealment", id="F-MOD-7-heavily-obscured-adjacent"),
    pytest.param("A.T", ";", "total", id="F-MOD-8-heavily-obscured-not-adjacent"),
    pytest.param("AT", "%", "total", id="F-MOD-8-totally-obscured-darkness"),
    pytest.param("ATT.\n.TT.", ";", "concealment", id="F-MOD-7-large-target-nearest-square"),
]


@pytest.mark.parametrize(("drawing", "target_under", "expected"), CONCEALMENT_CASES)
def test_concealment_table(drawing: str, target_under: str, expected: str) -> None:
    bmap, marks = parse(drawing, under={"T": target_under})
    assert concealment(bmap, marks["A"], marks["T"]) == expected


def test_F_MOD_7_attacker_square_does_not_matter() -> None:
    bmap, marks = parse("A..T", under={"A": "%"})
    assert concealment(bmap, marks["A"], marks["T"]) == "none"


def test_F_MOD_9_concealment_only_for_melee_and_ranged() -> None:
    bmap, marks = parse("A.T", under={"T": ";"})
    assert attack_concealment(bmap, "ranged", marks["A"], marks["T"]) == "total"
    assert attack_concealment(bmap, "melee", marks["A"], marks["T"]) == "total"
    assert attack_concealment(bmap, "close", marks["A"], marks["T"]) == "none"
    assert attack_concealment(bmap, "area", marks["A"], marks["T"]) == "none"


def test_F_MOD_8_can_see_needs_sight_and_no_total_concealment() -> None:
    bmap, marks = parse("A..T", under={"T": ","})
    assert can_see(bmap, marks["A"], marks["T"])
    bmap, marks = parse("A..T", under={"T": "%"})
    assert not can_see(bmap, marks["A"], marks["T"])
    bmap, marks = parse("..#..\nA.#.T\n..#..")
    assert not can_see(bmap, marks["A"], marks["T"])
