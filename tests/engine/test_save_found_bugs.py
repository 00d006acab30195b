"""Engine bugs found by the save soaks' random fights: the smallest reproduction of each, kept
as a regression test once fixed (the code at fault belongs to other modules)."""

from __future__ import annotations

from engine.actions import EndTurn, Move, Ready
from tests.support.helpers import mon, pc


def test_readied_ranged_attack_on_a_creature_passing_through_an_ally(build) -> None:  # type: ignore[no-untyped-def]
    # g readies a ranged bolt (range 10). a walks through b's square, (1,0): the first square
    # of its path within g's range. Found by the random player in `ambush`, seed 1: the attack's
    # cover check built the occupancy, which refused two creatures on a square (ValueError,
    # with the move half done). Fixed by Battle.passing.
    enc = build(
        "." * 14 + "\n" + "." * 14,
        [pc("a", (0, 0)), pc("b", (1, 0)), mon("g", (11, 0))],
        faces=[1, 2, 20],
    )
    assert enc.current is not None and enc.current.id == "g"
    enc.apply(Ready("bolt"))
    while enc.current is not None and enc.current.id != "a":
        enc.apply(EndTurn())
    move = Move(((0, 0), (1, 0), (2, 0)))
    assert enc.validate(move) is None
    enc.apply(move)
    assert enc.battle["a"].pos == (2, 0)
