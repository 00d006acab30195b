"""Maps drawn the same share their terrain tables (issue 14): a simulator or a benchmark that
loads the encounter afresh for every fight builds a new `BattleMap` each time, and every fight
started with cold line, cover, threat and adjacency memos. Sharing must change no answer: the
memoized answers a map gets from tables another map filled equal those of a map with tables
of its own (F-MOD-2/3 lines and cover, the movement graph), on random terrain; maps drawn
differently never share; the tables go once no map of the terrain is in play and it has left
the recent few."""

from __future__ import annotations

import gc
import weakref

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grid import (
    BattleMap,
    cover,
    line_of_effect,
    terrain_cover_level,
    threatened_squares,
)
from engine.grid.battlemap import RECENT_TERRAINS, TerrainTables

Sq = tuple[int, int]


def private(bmap: BattleMap) -> BattleMap:
    """`bmap` with tables of its own (built afresh, registered nowhere): the uncached answer."""
    t = TerrainTables(bmap.width, bmap.height, bmap.cells)
    bmap.tables = t
    bmap._line_code, bmap._move_block, bmap._entry_cost = t.line_code, t.move_block, t.entry_cost
    bmap._line_memo, bmap._level_memo, bmap._threat_memo = t.line_memo, t.level_memo, t.threat_memo
    bmap._line_sums = bmap._nbrs = bmap._flat = None
    return bmap


@st.composite
def drawings(draw: st.DrawFn) -> list[str]:
    w = draw(st.integers(2, 9))
    h = draw(st.integers(2, 9))
    return ["".join(draw(st.sampled_from("....~#O=^,;")) for _ in range(w)) for _ in range(h)]


def squares(rows: list[str]) -> st.SearchStrategy[Sq]:
    return st.tuples(st.integers(0, len(rows[0]) - 1), st.integers(0, len(rows) - 1))


@settings(max_examples=40, deadline=None)
@given(drawings(), st.data())
def test_F_MOD_3_shared_tables_answer_as_private_ones(rows: list[str], data: st.DataObject) -> None:
    first = BattleMap.from_ascii(rows)
    pairs = data.draw(st.lists(st.tuples(squares(rows), squares(rows)), min_size=1, max_size=8))
    for a, t in pairs:  # the first map fills the shared memos
        cover(first, (a,), (t,))
        line_of_effect(first, (a,), (t,))
    second = BattleMap.from_ascii(rows, name="drawn again")
    assert second.tables is first.tables
    alone = private(BattleMap.from_ascii(rows))
    assert alone.tables is not first.tables
    for a, t in pairs + data.draw(st.lists(st.tuples(squares(rows), squares(rows)), max_size=6)):
        assert cover(second, (a,), (t,)) == cover(alone, (a,), (t,))
        assert line_of_effect(second, (a,), (t,)) == line_of_effect(alone, (a,), (t,))
        big = tuple((a[0] + i, a[1] + j) for i in range(2) for j in range(2))
        assert cover(second, big, (t,)) == cover(alone, big, (t,))
        for size, reach in ((1, 1), (1, 2), (2, 1), (3, 2)):  # Large and Huge too
            if a[0] + size > len(rows[0]) or a[1] + size > len(rows):
                continue  # a creature stands on the map
            want = threatened_squares(alone, a, size, reach)
            assert threatened_squares(second, a, size, reach) == want
    assert second.nbrs == alone.nbrs
    assert second.flat == alone.flat
    assert second.line_sums == alone.line_sums
    assert dict(second._entry_cost) == dict(alone._entry_cost)


def test_maps_drawn_differently_never_share() -> None:
    a = BattleMap.from_ascii(["....", ".#.."])
    b = BattleMap.from_ascii(["....", "..#."])
    c = BattleMap.from_ascii(["....", ".=.."])
    d = BattleMap.from_ascii(["....", ".#..", "...."])
    tables = {id(m.tables) for m in (a, b, c, d)}
    assert len(tables) == 4
    assert BattleMap.from_ascii(["....", ".#.."]).tables is a.tables


def test_tables_go_when_no_map_of_the_terrain_is_left() -> None:
    bmap = BattleMap.from_ascii(["..#..", "....."])
    cover(bmap, ((0, 0),), ((4, 1),))
    gone = weakref.ref(bmap.tables)
    del bmap
    for i in range(RECENT_TERRAINS):
        BattleMap.from_ascii(["." * (i + 3), "#" * (i + 3)])
    gc.collect()
    assert gone() is None


@settings(max_examples=60, deadline=None)
@given(drawings(), st.data())
def test_F_MOD_3_terrain_cover_level_is_terrain_cover(rows: list[str], data: st.DataObject) -> None:
    """The AI's one-lookup terrain cover (`terrain_cover_level`) is `cover` without creatures,
    asked first or after `cover` memoized it, for single squares and 2x2 footprints."""
    bmap = private(BattleMap.from_ascii(rows))
    names = ("none", "cover", "superior", "blocked")
    for _ in range(8):
        a = data.draw(squares(rows))
        t = data.draw(squares(rows))
        size = data.draw(st.integers(1, 2))
        a_sq = tuple((a[0] + i, a[1] + j) for j in range(size) for i in range(size))
        first = data.draw(st.booleans())
        if first:
            level = terrain_cover_level(bmap, a_sq, (t,))
        want = cover(bmap, a_sq, (t,), count_creatures=False)
        if not first:
            level = terrain_cover_level(bmap, a_sq, (t,))
        assert names[level] == want
        assert names[terrain_cover_level(bmap, (t,), a_sq)] == cover(
            bmap, (t,), a_sq, blockers=frozenset({a}), count_creatures=False
        )
