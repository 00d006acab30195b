"""The per-map memos of `ai.position` (bursts, close areas, chokepoints): every memoized answer
equals the engine's own, on maps of every kind of terrain, for attackers of every size, with
several maps in play at once; and a map's memos go with its terrain's tables (issue 14: a
simulator that loads a fresh map for every fight kept each of them alive, about 13 MB a fight
on 200x200; now maps drawn the same share one set)."""

from __future__ import annotations

import gc
import weakref

from hypothesis import given, settings
from hypothesis import strategies as st

from ai import position
from ai.position import burst_at, chokepoints, close_area
from engine.grid import (
    BattleMap,
    blast_origins,
    blast_squares,
    burst_squares,
    close_burst_squares,
    entry_costs,
)
from engine.grid.battlemap import RECENT_TERRAINS

Sq = tuple[int, int]


@st.composite
def maps(draw: st.DrawFn) -> BattleMap:
    w = draw(st.integers(2, 10))
    h = draw(st.integers(2, 10))
    rows = ["".join(draw(st.sampled_from(".....~#O=^,")) for _ in range(w)) for _ in range(h)]
    return BattleMap.from_ascii(rows)


def narrow(bmap: BattleMap) -> frozenset[Sq]:
    """Chokepoints from first principles: walkable, closed on exactly one pair of sides."""
    walk = entry_costs(bmap)
    out = set()
    for x, y in walk:
        we = (x - 1, y) not in walk and (x + 1, y) not in walk
        ns = (x, y - 1) not in walk and (x, y + 1) not in walk
        if we != ns:
            out.add((x, y))
    return frozenset(out)


@settings(max_examples=60, deadline=None)
@given(st.lists(maps(), min_size=1, max_size=3), st.data())
def test_memoized_areas_equal_the_engines(bmaps: list[BattleMap], data: st.DataObject) -> None:
    for _ in range(6):
        bmap = data.draw(st.sampled_from(bmaps))  # the maps take turns, as in a test run
        w, h = bmap.width, bmap.height
        size = data.draw(st.integers(1, min(3, w, h)))  # the footprint on the map
        pos = (data.draw(st.integers(0, w - size)), data.draw(st.integers(0, h - size)))
        n = data.draw(st.integers(1, 3))
        for _ in range(2):  # asked twice: the second answer comes from the memo
            assert burst_at(bmap, pos, n) == burst_squares(bmap, pos, n)
            assert close_area(bmap, pos, size, n, None) == close_burst_squares(bmap, pos, size, n)
            for tl in blast_origins(bmap, pos, size, n)[:3]:
                want = blast_squares(bmap, pos, size, n, tl)
                assert close_area(bmap, pos, size, n, tl) == want
            assert chokepoints(bmap) == narrow(bmap)


def test_a_maps_memos_go_with_its_terrain() -> None:
    """The memos hang off the terrain's shared tables: a map drawn the same reads them, and
    they go once no map of that terrain is in play and it has left the recent few."""
    rows = ["....#....", "....#....", "........."]
    bmap = BattleMap.from_ascii(rows)
    burst_at(bmap, (1, 1), 2)
    close_area(bmap, (1, 1), 1, 1, None)
    chokepoints(bmap)
    memo = position._memo_of(bmap)
    assert memo.bursts and memo.close and memo.narrow is not None
    again = BattleMap.from_ascii(rows, name="the same drawing")
    assert position._memo_of(again) is memo
    gone = weakref.ref(bmap.tables)
    del bmap, again, memo
    for i in range(RECENT_TERRAINS + 1):  # other terrains push it out of the recent ones
        other = BattleMap.from_ascii(["." * (i + 2), ".."[:2] + "." * i])
        burst_at(other, (0, 0), 1)
    gc.collect()
    assert gone() is None
    # A new map (perhaps at the old one's address) starts with empty memos.
    fresh = BattleMap.from_ascii(["...", "###", "..."])
    assert chokepoints(fresh) == narrow(fresh)
    assert burst_at(fresh, (0, 0), 2) == burst_squares(fresh, (0, 0), 2)
