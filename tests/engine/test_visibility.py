"""What a side can know about each creature (engine.visibility): invisibility, obscurement,
blindness, walls, and the last-seen square (F-MOD-7, F-MOD-8, F-MOD-10, F-MOD-11, F-MOD-12)."""

from __future__ import annotations

import pytest

from engine.actions import EndTurn, Move
from engine.visibility import knowledge, sees, side_knowledge
from tests.support.helpers import Builder, duel, dummy, mon, put_effect

# Striker `s` (party) at (1, 1); dummy `t` (monsters) placed per test.
LEGEND = {
    ",": {"obscured": "lightly_obscured"},
    ";": {"obscured": "heavily_obscured"},
    "%": {"obscured": "totally_obscured"},
}


def _grid(cell: str) -> str:
    """An open 8x3 map whose square (5, 1) is `cell`."""
    return "........\n....." + cell + "..\n........\n"


def test_F_MOD_11_an_invisible_creature_is_hidden_from_the_other_side(build: Builder) -> None:
    enc = duel(build, [], target=dummy(invisible=True), target_pos=(5, 1))
    seen = side_knowledge(enc.battle, "party")
    assert seen["t"].sight == "hidden" and seen["t"].hidden_by == "invisible"
    assert seen["t"].square is None  # never seen: no last-seen square
    assert not sees(enc.battle, enc.battle["s"], enc.battle["t"])
    # ...but the invisible creature's own side always knows where it is.
    assert side_knowledge(enc.battle, "monsters")["t"].sight == "own"


def test_F_MOD_11_the_invisible_see_normally(build: Builder) -> None:
    enc = duel(build, [], target=dummy(invisible=True), target_pos=(5, 1))
    theirs = side_knowledge(enc.battle, "monsters")
    assert theirs["s"].sight == "seen" and theirs["s"].square == (1, 1)


@pytest.mark.parametrize(
    ("cell", "sight", "hidden_by"),
    [
        pytest.param(".", "seen", None, id="F-MOD-10-clear"),
        pytest.param(",", "seen", None, id="F-MOD-7-lightly-obscured-only-conceals"),
        pytest.param(";", "hidden", "obscured", id="F-MOD-8-heavily-obscured-not-adjacent"),
        pytest.param("%", "hidden", "darkness", id="F-MOD-8-totally-obscured"),
    ],
)
def test_F_MOD_8_obscured_squares_hide_at_a_distance(
    build: Builder, cell: str, sight: str, hidden_by: str | None
) -> None:
    enc = duel(build, [], target_pos=(5, 1), grid=_grid(cell), legend=LEGEND)
    known = side_knowledge(enc.battle, "party")["t"]
    assert (known.sight, known.hidden_by) == (sight, hidden_by)
    assert known.square == ((5, 1) if sight == "seen" else None)


def test_F_MOD_7_heavy_fog_next_to_the_viewer_only_conceals(build: Builder) -> None:
    enc = duel(build, [], striker_pos=(4, 1), target_pos=(5, 1), grid=_grid(";"), legend=LEGEND)
    assert side_knowledge(enc.battle, "party")["t"].sight == "seen"


def test_F_MOD_8_a_blinded_viewer_sees_nothing_but_an_ally_still_can(build: Builder) -> None:
    enc = duel(build, [], target_pos=(5, 1), more=(mon("a", (1, 2), "goblin", side="party"),))
    put_effect(enc, "s", source="t", conditions=("blinded",))
    b = enc.battle
    assert knowledge(b, ["s"])["t"].hidden_by == "blinded"
    assert knowledge(b, ["s", "a"])["t"].sight == "seen"  # a seat with both creatures sees it
    # The whole side sees what any of its creatures sees.
    assert side_knowledge(b, "party")["t"].sight == "seen"


def test_F_MOD_10_walls_block_sight_and_fog_does_not_block_lines(build: Builder) -> None:
    grid = "...#....\n...#....\n...#....\n"
    enc = duel(build, [], target_pos=(5, 1), grid=grid)
    assert side_knowledge(enc.battle, "party")["t"].hidden_by == "no line of sight"


def test_F_MOD_12_a_hidden_creature_is_known_where_it_was_last_seen(build: Builder) -> None:
    # The dummy stands in the open, is seen, then walks into the darkness at (5, 1) (F-MOD-12:
    # the side keeps the square where it saw it, not where it is now).
    grid = "........\n....%%%.\n........\n"
    enc = duel(build, [1], target_pos=(3, 1), grid=grid, legend=LEGEND)
    first = side_knowledge(enc.battle, "party")
    assert first["t"].sight == "seen" and first["t"].square == (3, 1)
    enc.apply(EndTurn())
    assert enc.current is not None and enc.current.id == "t"
    enc.apply(Move(((3, 1), (4, 1), (5, 1))))
    after = side_knowledge(enc.battle, "party", previous=first)
    assert after["t"].sight == "hidden" and after["t"].hidden_by == "darkness"
    assert after["t"].square == (3, 1)
    # And the next call, fed the hidden answer, still remembers it.
    again = side_knowledge(enc.battle, "party", previous=after)
    assert again["t"].square == (3, 1)


def test_knowledge_changes_nothing_in_the_battle(build: Builder) -> None:
    enc = duel(build, [], target=dummy(invisible=True), target_pos=(5, 1))
    before = [c.snapshot() for c in enc.battle.combatants.values()], len(enc.battle.log)
    side_knowledge(enc.battle, "party")
    side_knowledge(enc.battle, "monsters")
    assert ([c.snapshot() for c in enc.battle.combatants.values()], len(enc.battle.log)) == before
