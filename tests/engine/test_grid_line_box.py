"""The terrain lines' fast path (issue 14): when every square the 16 corner-to-corner lines
between two squares could cross (or slip between, `lines.wall_seams`) is clear, the answer is
"nothing blocks" without reading them one by one (a box test on the map's prefix sums,
`BattleMap.line_sums`). It must give exactly what the full reading gives (F-MOD-3 cover lines,
F-MOD-2 line of effect), on maps with walls, pillars, obstacles and their seams, for near and
far pairs and pairs by the map's edge."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grid import BattleMap
from engine.grid.battlemap import LINE_WALL
from engine.grid.lines import corner_table
from engine.grid.sight import terrain_lines

Sq = tuple[int, int]


def lines_read_one_by_one(bmap: BattleMap, a: Sq, t: Sq) -> tuple[int, int]:
    """(cover mask, effect mask) from the corner table and the terrain, square by square."""
    cells, seams = corner_table(t[0] - a[0], t[1] - a[1])

    def code(ox: int, oy: int) -> int:
        x, y = a[0] + ox, a[1] + oy
        return bmap._line_code[(y + 1) * (bmap.width + 2) + x + 1]

    cov = eff = 0
    for ox, oy, m in cells:
        c = code(ox, oy)
        if c:
            cov |= m
            if c == LINE_WALL:
                eff |= m
    for ax, ay, bx, by, m in seams:
        if code(ax, ay) == LINE_WALL and code(bx, by) == LINE_WALL:
            eff |= m
    return cov | eff, eff


@st.composite
def map_and_pairs(draw: st.DrawFn) -> tuple[BattleMap, list[tuple[Sq, Sq]]]:
    w = draw(st.integers(1, 16))
    h = draw(st.integers(1, 16))
    ink = draw(st.sampled_from(["..........#O", "....#O=^,~", "...........~,"]))
    rows = ["".join(draw(st.sampled_from(ink)) for _ in range(w)) for _ in range(h)]
    sq = st.tuples(st.integers(0, w - 1), st.integers(0, h - 1))
    return BattleMap.from_ascii(rows), draw(st.lists(st.tuples(sq, sq), min_size=1, max_size=30))


@settings(max_examples=300, deadline=None)
@given(map_and_pairs())
def test_F_MOD_3_fast_clear_lines_equal_the_full_reading(
    case: tuple[BattleMap, list[tuple[Sq, Sq]]],
) -> None:
    bmap, pairs = case
    for a, t in pairs:
        want = lines_read_one_by_one(bmap, a, t)
        assert terrain_lines(bmap, a, t) == want
        assert terrain_lines(bmap, a, t) == want  # and from the memo


def test_line_sums_count_the_blocking_squares_of_every_box() -> None:
    bmap = BattleMap.from_ascii(["..#..", ".O...", "....#"])
    pad, rows = bmap.width + 2, bmap.height + 2
    sums = bmap.line_sums
    for y0 in range(rows):
        for y1 in range(y0, rows):
            for x0 in range(pad):
                for x1 in range(x0, pad):
                    want = sum(
                        1
                        for y in range(y0, y1 + 1)
                        for x in range(x0, x1 + 1)
                        if bmap._line_code[y * pad + x]
                    )
                    row = pad + 1
                    got = (
                        sums[(y1 + 1) * row + x1 + 1]
                        - sums[y0 * row + x1 + 1]
                        - sums[(y1 + 1) * row + x0]
                        + sums[y0 * row + x0]
                    )
                    assert got == want
