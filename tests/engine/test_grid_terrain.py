"""The ASCII map format, the legend, map errors and per-square terrain queries."""

from __future__ import annotations

import pytest

from engine.grid import DEFAULT_LEGEND, BattleMap, Cell, MapError, Obscured, Terrain

ALL_SYMBOLS = """
.#O=~
,;%^&
"""


def test_default_legend_symbols() -> None:
    m = BattleMap.from_ascii(ALL_SYMBOLS, name="legend")
    assert (m.name, m.width, m.height) == ("legend", 5, 2)
    assert m.cell((0, 0)) == Cell()
    assert m.cell((1, 0)).terrain is Terrain.WALL
    assert m.cell((2, 0)).terrain is Terrain.PILLAR
    assert m.cell((3, 0)).terrain is Terrain.OBSTACLE
    assert m.cell((4, 0)) == Cell(difficult=True)
    assert m.cell((0, 1)).obscured is Obscured.LIGHT
    assert m.cell((1, 1)).obscured is Obscured.HEAVY
    assert m.cell((2, 1)).obscured is Obscured.TOTAL
    assert m.cell((3, 1)) == Cell(Terrain.PIT, depth=10)
    assert m.cell((4, 1)) == Cell(difficult=True, obscured=Obscured.LIGHT)
    assert set(DEFAULT_LEGEND) == set(".#O=~,;%^&")


def test_list_rows_and_custom_legend() -> None:
    deep = Cell(Terrain.PIT, depth=30)
    m = BattleMap.from_ascii(["..V", "#.."], legend={"V": deep})
    assert m.cell((2, 0)) == deep
    assert m.cell((0, 1)).terrain is Terrain.WALL


def test_legend_can_override_a_default_symbol() -> None:
    m = BattleMap.from_ascii(["~"], legend={"~": Cell(obscured=Obscured.LIGHT)})
    assert m.cell((0, 0)) == Cell(obscured=Obscured.LIGHT)


def test_unknown_symbol_names_row_column_and_legend() -> None:
    with pytest.raises(MapError) as info:
        BattleMap.from_ascii(["....", "....", "..Q."])
    err = info.value
    assert (err.line, err.column) == (3, 3)
    assert "row 3, column 3: unknown map symbol 'Q'" in str(err)
    assert "legend has: . # O = ~ , ; % ^ &" in str(err)


def test_creature_letters_are_not_terrain() -> None:
    with pytest.raises(MapError, match="unknown map symbol 'A'"):
        BattleMap.from_ascii(["A."])


def test_ragged_rows_name_the_row() -> None:
    with pytest.raises(MapError, match="row 2 has 3 columns, expected 4") as info:
        BattleMap.from_ascii("....\n...\n....")
    assert info.value.line == 2
    assert info.value.column is None


def test_empty_map_and_bad_legend_key() -> None:
    with pytest.raises(MapError, match="no rows"):
        BattleMap.from_ascii("\n\n")
    with pytest.raises(MapError, match="single character"):
        BattleMap.from_ascii(["."], legend={"ab": Cell()})


def test_indented_triple_quoted_text_is_dedented() -> None:
    m = BattleMap.from_ascii(
        """
        ..#
        ...
        """
    )
    assert (m.width, m.height) == (3, 2)
    assert m.cell((2, 0)).terrain is Terrain.WALL


def test_blocking_queries_and_bounds() -> None:
    m = BattleMap.from_ascii(ALL_SYMBOLS)
    blocks_move = {sq for sq in m.squares() if m.blocks_movement(sq)}
    blocks_sight = {sq for sq in m.squares() if m.blocks_sight(sq)}
    assert blocks_move == {(1, 0), (2, 0), (3, 0), (3, 1)}
    assert blocks_sight == {(1, 0), (2, 0)}
    for off in [(-1, 0), (0, -1), (5, 0), (0, 2)]:
        assert not m.in_bounds(off)
        assert m.blocks_movement(off) and m.blocks_sight(off)
    with pytest.raises(IndexError):
        m.cell((5, 0))
    assert m.entry_cost((4, 0)) == 2 and m.entry_cost((0, 0)) == 1
    assert m.entry_cost((1, 0)) is None


def test_terrain_squares_for_the_log() -> None:
    m = BattleMap.from_ascii(ALL_SYMBOLS)
    assert m.terrain_squares() == {
        "wall": [(1, 0)],
        "pillar": [(2, 0)],
        "obstacle": [(3, 0)],
        "difficult": [(4, 0), (4, 1)],
        "lightly_obscured": [(0, 1), (4, 1)],
        "heavily_obscured": [(1, 1)],
        "totally_obscured": [(2, 1)],
        "pit": [(3, 1)],
    }
    assert BattleMap.from_ascii(["..."]).terrain_squares() == {}


def test_graph_nodes_costs_and_corner_rule() -> None:
    m = BattleMap.from_ascii(
        """
        .~.
        .#.
        ...
        """
    )
    g = m.graph
    assert g is m.graph  # built once per map
    assert (1, 1) not in g
    assert g.nodes[(1, 0)]["cost"] == 2 and g.nodes[(0, 0)]["cost"] == 1
    assert g.has_edge((0, 0), (1, 0))
    assert not g.has_edge((0, 0), (1, 1))
    # Diagonals around the wall would cut its corner.
    assert not g.has_edge((1, 0), (0, 1)) and not g.has_edge((1, 0), (2, 1))
    assert not g.has_edge((0, 1), (1, 2))
    assert g.number_of_nodes() == 8
