"""Who stands where, as a value passed into grid queries.

The map never stores creatures: the combat state owns them and changes them every action.
Queries that care about creatures (movement, forced movement, cover from creatures) take an
`Occupancy`, a small frozen index from square to creature id and from id to side. It is cheap
to build (one pass over the creatures), so the engine simply rebuilds it after each move.
Queries also accept a plain sequence of `Occupant` and index it themselves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.events import quick_constructor
from engine.grid.geometry import footprint
from engine.grid.terrain import Square


@dataclass(frozen=True, slots=True)
class Occupant:
    """A creature as the grid sees it: `pos` is its top-left square, `size` squares per side."""

    id: str
    side: str
    pos: Square
    size: int = 1

    @property
    def squares(self) -> tuple[Square, ...]:
        return footprint(self.pos, self.size)


# One per living creature whenever `Battle.occupancy` is rebuilt: a quick __init__
# (engine.events). Not a class decorator: mypyc compiles a decorated class as a plain
# Python class.
quick_constructor(Occupant)


@dataclass(frozen=True, slots=True)
class Occupancy:
    """Square -> occupant id, and id -> occupant. Build with `Occupancy.of(occupants)`."""

    by_square: Mapping[Square, str] = field(default_factory=dict)
    by_id: Mapping[str, Occupant] = field(default_factory=dict)

    @classmethod
    def of(cls, occupants: Iterable[Occupant]) -> Occupancy:
        """Index the creatures; two creatures in one square is a ValueError."""
        by_square: dict[Square, str] = {}
        by_id: dict[str, Occupant] = {}
        for occ in occupants:
            if occ.id in by_id:
                raise ValueError(f"occupant id {occ.id!r} appears twice")
            by_id[occ.id] = occ
            for sq in (occ.pos,) if occ.size == 1 else footprint(occ.pos, occ.size):
                other = by_square.get(sq)
                if other is not None:
                    raise ValueError(f"{occ.id!r} and {other!r} both occupy {sq}")
                by_square[sq] = occ.id
        return cls(by_square, by_id)

    def at(self, sq: Square) -> str | None:
        """Id of the creature in `sq`, if any."""
        return self.by_square.get(sq)

    def side_of(self, occupant_id: str) -> str:
        return self.by_id[occupant_id].side

    def enemy_squares(self, side: str, exclude: Iterable[str] = ()) -> frozenset[Square]:
        """Squares of creatures not on `side`, leaving out the ids in `exclude`.

        For a ranged attack the engine passes `enemy_squares(attacker_side, {target_id})` as
        the cover blockers (F-MOD-6).
        """
        skip = set(exclude)
        return frozenset(
            sq
            for sq, oid in self.by_square.items()
            if oid not in skip and self.by_id[oid].side != side
        )

    def split_for(self, mover_id: str, mover_side: str) -> tuple[frozenset[Square], set[Square]]:
        """(squares the mover may not enter: enemies; squares it may pass but not end in)."""
        enemies: set[Square] = set()
        others: set[Square] = set()
        for sq, oid in self.by_square.items():
            if oid == mover_id:
                continue
            others.add(sq)
            if self.by_id[oid].side != mover_side:
                enemies.add(sq)
        return frozenset(enemies), others


OccupancyLike = Occupancy | Sequence[Occupant]
"""What queries accept for creatures: a prebuilt `Occupancy` or the occupants themselves."""

EMPTY = Occupancy()


def as_occupancy(occupancy: OccupancyLike | None) -> Occupancy:
    if occupancy is None:
        return EMPTY
    if isinstance(occupancy, Occupancy):
        return occupancy
    return Occupancy.of(occupancy)
