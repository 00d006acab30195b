"""The fast paths of engine.grid.geometry (issue 14) give the same answers as the plain
definition, for single squares and for creatures larger than one square."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.grid.geometry import adjacent, distance, footprint

coord = st.integers(min_value=-50, max_value=250)
pos = st.tuples(coord, coord)
size = st.integers(min_value=1, max_value=4)


def reference(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> int:
    return min(max(abs(ax - bx), abs(ay - by)) for ax, ay in a for bx, by in b)


@given(pos, size, pos, size, st.sampled_from(["tuple", "list", "generator"]))
def test_distance_fast_path_equals_definition(
    a: tuple[int, int], sa: int, b: tuple[int, int], sb: int, kind: str
) -> None:
    fa, fb = footprint(a, sa), footprint(b, sb)
    want = reference(list(fa), list(fb))
    assert distance(fa, fb) == want
    if kind == "list":
        assert distance(list(fa), list(fb)) == want
    elif kind == "generator":
        assert distance(iter(fa), iter(fb)) == want


@given(pos, size, pos, size, st.sampled_from(["tuple", "list"]))
def test_adjacent_fast_path_equals_definition(
    a: tuple[int, int], sa: int, b: tuple[int, int], sb: int, kind: str
) -> None:
    fa, fb = footprint(a, sa), footprint(b, sb)
    want = reference(list(fa), list(fb)) == 1
    assert adjacent(fa, fb) == want
    if kind == "list":
        assert adjacent(list(fa), list(fb)) == want
