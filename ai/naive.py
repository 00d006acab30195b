"""The naive baseline: walk toward the nearest enemy along the shortest path, basic attack.

Kept as the yardstick for the tactical policy (`skirmish sim --policy SIDE=naive`) and as the
simplest correct player of any encounter.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ai.naive_explain import NaiveExplainer
from ai.naive_reach import nearest_square, walk_costs
from ai.policy import Choice
from engine.actions import Action, EndTurn, Move, StandUp, UsePower
from engine.battle import Battle
from engine.content.schema import Creature, Power
from engine.decisions import Question
from engine.encounter import Encounter
from engine.grid import Terrain, cheapest_path, distance, line_of_effect
from engine.powers import power_range, targets_for, usable_refusal
from engine.state import Combatant

Square = tuple[int, int]
STANDING = ("healthy", "bloodied")
"""`Combatant.standing`'s states: conscious and alive."""


def basic_powers(c: Combatant) -> list[Power]:
    basics = [p for p in c.powers if p.basic and p.attack is not None]
    if not basics:  # no power marked basic: any at-will attack will do
        basics = [
            p
            for p in c.powers
            if p.usage == "at-will" and p.attack is not None and p.kind in ("melee", "ranged")
        ]
    return basics


@dataclass(frozen=True, slots=True)
class Kit:
    """What the naive policy reads of a creature that cannot change during a fight (its
    content: powers, weapons, reach), read once per creature rather than on every decision."""

    powers: tuple[Power, ...]
    """The powers tuple it was read from (a new fight's creature of the same id has its own)."""
    basics: tuple[tuple[Power, int], ...]
    """`basic_powers`, each with its range or reach (`engine.powers.power_range`)."""
    reach: int
    """How far it threatens for `_engaged`: its reach, at least 1."""

    @classmethod
    def of(cls, c: Combatant) -> Kit:
        """`c`'s kit: read from its content, or taken from the last fight's creature of the
        same content (every fight of an encounter builds new creatures from the same loaded
        creature and power objects, and a kit reads nothing else)."""
        powers, cr = c.powers, c.creature
        hit = _KITS.get(id(cr))
        if (
            hit is not None
            and hit.creature is cr
            and len(hit.powers) == len(powers)
            and all(a is b for a, b in zip(hit.powers, powers, strict=True))
        ):
            return cls(powers, hit.basics, hit.reach)
        basics = tuple((p, power_range(c, p)) for p in basic_powers(c))
        kit = cls(powers, basics, max(1, c.reach))
        if len(_KITS) > 4096:  # many encounters loaded in one process: start afresh
            _KITS.clear()
        _KITS[id(cr)] = _Known(cr, powers, basics, kit.reach)
        return kit


@dataclass(frozen=True, slots=True)
class _Known:
    """A kit as read last, with the content it was read from (kept alive, so `id(creature)`
    can't be reused while it is here)."""

    creature: Creature
    powers: tuple[Power, ...]
    basics: tuple[tuple[Power, int], ...]
    reach: int


_KITS: dict[int, _Known] = {}
"""The last kit read of each loaded creature, by `id` of its content object."""


class NaivePolicy:
    name = "naive"

    def __init__(self) -> None:
        self._kits: dict[str, Kit] = {}
        """Each creature's `Kit`, by id."""
        self._explain = NaiveExplainer()
        """Its `decision` events (`ai.naive_explain`)."""

    def answer(self, enc: Encounter, question: Question[Any]) -> Any:
        return question.default()  # as the AutoDecider: no thought

    def next_action(self, enc: Encounter) -> Choice:
        """Attack the nearest enemy in reach, else walk toward the nearest, else end the turn;
        once next to an enemy it stays there (and ends its turn after attacking).
        Whatever it picks is checked with `Encounter.validate` first (never an illegal
        action: EndTurn instead)."""
        t0 = time.perf_counter()
        c = enc.current
        if c is None:
            return Choice(EndTurn())
        kit = self.kit(c)
        b = enc.battle
        attack = _attack(enc, c, kit)  # first, so that a legal attack skips the path search
        if attack is not None and enc.validate(attack) is None:
            return Choice(attack, self._explain.decision(b, c, attack, t0))
        for act in self._others(enc, c, kit):
            if act is not None and enc.validate(act) is None:
                return Choice(act, self._explain.decision(b, c, act, t0))
        end = EndTurn()
        return Choice(end, self._explain.decision(b, c, end, t0))

    def kit(self, c: Combatant) -> Kit:
        """`c`'s `Kit`, read once per creature of a fight."""
        kit = self._kits.get(c.id)
        if kit is None or kit.powers is not c.powers:
            kit = self._kits[c.id] = Kit.of(c)
        return kit

    def _others(self, enc: Encounter, c: Combatant, kit: Kit) -> list[Action | None]:
        """What it would do without an attack, in order of preference."""
        b = enc.battle
        prone = b.has(c, "prone")
        if _engaged(b, c, kit.reach):
            # Already next to an enemy: walking on would only provoke opportunity attacks.
            return [StandUp()] if prone and enc.can_spend("move") else []
        out: list[Action | None] = []
        if enc.can_spend("move") and not prone:
            if b.map.cell(c.pos).terrain == Terrain.PIT:
                out.append(self._climb(enc, c))
            else:
                out.append(self._approach(enc, c))
        if prone and enc.can_spend("move"):
            out.append(StandUp())
        return out

    @staticmethod
    def _climb(enc: Encounter, c: Combatant) -> Move | None:
        """Out of a pit: one square toward the nearest enemy (a whole move)."""
        b = enc.battle
        enemies = [e.pos for e in b.enemies_of(c)]
        options = sorted(
            enc.reachable("walk"),
            key=lambda sq: (min((distance((sq,), (e,)) for e in enemies), default=0), sq),
        )
        for sq in options:
            if distance((c.pos,), (sq,)) == 1:
                return Move((c.pos, sq), "walk")
        return None

    def _approach(self, enc: Encounter, c: Combatant) -> Move | None:
        b = enc.battle
        mine = b.squares(c)
        enemies = sorted((distance(mine, b.squares(e)), e.id, e) for e in b.enemies_of(c))
        if not enemies:
            return None
        fast = walk_costs(b, c)
        # a creature larger than one square: the engine's own search
        reach: Mapping[Square, int] = fast if fast is not None else enc.reachable("walk")
        if not reach:
            return None
        occ = b.occupancy()
        for now, _, enemy in enemies[:3]:
            goal = nearest_square(b.squares(enemy), reach, now)
            if goal is None:  # no square it can reach is nearer that enemy than it is now
                continue
            found = cheapest_path(b.map, c.pos, goal, c.id, c.side, c.size, occ)
            if found is not None:
                return Move(tuple(found[0]), "walk")
        return None


def _attack(enc: Encounter, c: Combatant, kit: Kit) -> UsePower | None:
    """The first basic power (in the creature's order) that `Encounter.power_refusals`
    would pass, on its nearest target; only the basic powers are asked about."""
    b = enc.battle
    spendable: dict[str, bool] = {}
    for power, rng in kit.basics:
        if usable_refusal(b, c, power) is not None:
            continue
        kind = power.action
        if kind in ("standard", "move", "minor"):
            ok = spendable.get(kind)
            if ok is None:
                ok = spendable[kind] = enc.can_spend(kind)
            if not ok:
                continue
        nearest = nearest_target(b, c, power, rng)
        if nearest is not None:
            return UsePower(power.id, (nearest,))
    return None


def _engaged(b: Battle, c: Combatant, reach: int) -> bool:
    """Is a standing enemy within `reach` (adjacent, for most)?"""
    side = c.side
    if c.size != 1:
        mine = b.squares(c)
        return any(e.standing and distance(mine, b.squares(e)) <= reach for e in b.enemies_of(c))
    cx, cy = c.pos
    for e in b.combatants.values():
        if e.side == side or e.state not in STANDING:
            continue
        if e.size == 1:
            ex, ey = e.pos
            dx, dy = ex - cx, ey - cy
            if -reach <= dx <= reach and -reach <= dy <= reach:
                return True
        elif distance((c.pos,), b.squares(e)) <= reach:
            return True
    return False


def nearest_target(b: Battle, c: Combatant, power: Power, rng: int) -> str | None:
    """The target of `power` (of range or reach `rng`) nearest `c`, by (distance, id), among
    `engine.powers.targets_for`; None when there is none. A power on an enemy (the usual basic
    attack) asks the line of effect only of the nearest enemies in range, in that order."""
    if power.kind not in ("melee", "ranged") or power.target != "enemy":
        targets = targets_for(b, c, power)
        if not targets:
            return None
        mine = b.squares(c)
        return min(targets, key=lambda t: (distance(mine, b.squares(b[t])), t))
    mine = b.squares(c)
    side = c.side
    near = []
    one = c.size == 1
    cx, cy = c.pos
    for other in b.combatants.values():
        # `targets_for`'s enemies: the living creatures of the other sides, in range
        if other.state == "dead" or other.side == side:
            continue
        if one and other.size == 1:
            ox, oy = other.pos
            dx, dy = (ox - cx if ox >= cx else cx - ox), (oy - cy if oy >= cy else cy - oy)
            d = dx if dx >= dy else dy
        else:
            d = distance(mine, b.squares(other))
        if d <= rng:
            near.append((d, other.id, other))
    if len(near) > 1:
        near.sort()
    bmap = b.map
    for _, tid, other in near:
        if line_of_effect(bmap, mine, b.squares(other)):
            return tid
    return None
