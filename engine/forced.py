"""Forced movement (F-DMG-11) and falling into pits (S-12, adopted by ffd20).

The attacker chooses where a push, pull or slide ends, among the legal paths the grid allows;
forced movement never provokes. A creature forced into a pit makes an immediate saving throw:
on a success it falls prone at the edge instead; otherwise it falls, takes 1d10 per 10 feet and
lands prone at the bottom.
"""

from __future__ import annotations

from engine.battle import Battle
from engine.content.schema import EffectSpec
from engine.decisions import ForcedMoveQuestion
from engine.dice import DiceExpr
from engine.events import Moved, Save
from engine.grid import ForcedKind, Terrain, footprint, forced_steps
from engine.hp import adjust, deal_damage
from engine.state import Combatant

Square = tuple[int, int]
PRONE = EffectSpec(name="prone", duration="end_of_encounter", conditions=["prone"])
MAX_OPTIONS = 64


def forced_options(
    battle: Battle, by: Combatant, target: Combatant, kind: ForcedKind, distance: int
) -> list[tuple[Square, ...]]:
    """One path per reachable end position (up to `distance` squares), pits first, then the
    longest; a path stops at a pit, since the target falls there."""
    if battle.has(target, "restrained"):
        return []
    occ = battle.occupancy()
    src = battle.squares(by)
    best: dict[Square, tuple[Square, ...]] = {}
    frontier: list[tuple[Square, ...]] = [(target.pos,)]
    for _ in range(distance):
        nxt: list[tuple[Square, ...]] = []
        for path in frontier:
            here = path[-1]
            if battle.map.cell(here).terrain == Terrain.PIT:
                continue
            for sq in forced_steps(battle.map, kind, src, here, target.size, occ, target.id):
                if sq in path or sq in best:
                    continue
                p = (*path, sq)
                best[sq] = p
                nxt.append(p)
        frontier = nxt
    paths = list(best.values())

    def key(p: tuple[Square, ...]) -> tuple[int, int, Square]:
        pit = battle.map.cell(p[-1]).terrain == Terrain.PIT
        return (0 if pit else 1, -len(p), p[-1])

    paths.sort(key=key)
    return paths[:MAX_OPTIONS]


def forced_move(
    battle: Battle, by: Combatant, target: Combatant, kind: ForcedKind, distance: int
) -> None:
    options = forced_options(battle, by, target, kind, distance)
    if not options:
        return
    choice = battle.ask(ForcedMoveQuestion(by.id, target.id, kind, tuple(options)))
    path = options[choice]
    final = path[-1]
    if battle.map.cell(final).terrain == Terrain.PIT:
        _into_pit(battle, target, kind, path)
        return
    target.pos = final
    battle.moved()
    battle.emit(Moved(target.id, kind, path, len(path) - 1))


def _into_pit(battle: Battle, c: Combatant, kind: str, path: tuple[Square, ...]) -> None:
    edge, pit = path[-2], path[-1]
    if len(path) > 2:
        c.pos = edge
        battle.moved()
        battle.emit(Moved(c.id, kind, path[:-1], len(path) - 2))
    from engine.effects import add_effect, save_mods

    natural = battle.d20(f"{c.name}: saving throw to stop at the pit's edge", c.id)
    saves = tuple(save_mods(battle, c))
    total = natural + sum(m.value for m in saves)
    ok = total >= 10
    battle.emit(Save(c.id, "", "immediate", natural, saves, total, ok))

    if ok:  # S-12: falls prone at the edge instead
        add_effect(battle, PRONE, c, None, "prone")
        return
    c.pos = pit
    battle.moved()
    battle.emit(Moved(c.id, "fall", (edge, pit), 1))
    depth = max(10, battle.map.cell(pit).depth)
    expr = DiceExpr.parse(f"{depth // 10}d10")
    r = battle.roll(expr, f"{c.name}: falling damage ({expr})", c.id)
    mods = adjust(battle, c, r.total, (), halve=[])
    deal_damage(
        battle,
        c,
        source=None,
        power=None,
        cause="fall",
        dice=str(expr),
        rolls=r.faces,
        rolled=r.total,
        types=(),
        adjustments=mods,
    )
    if c.alive:
        add_effect(battle, PRONE, c, None, "prone")


def shift_self(battle: Battle, c: Combatant, squares: int) -> None:
    """A power's "you shift N squares" (a triggered dodge): the user picks where, among the
    squares it could walk to in N squares of movement (no pits, difficult terrain costs 2);
    a shift provokes nothing (S-14)."""
    if battle.flag(c, "cant_move") or not c.standing:
        return
    options = [
        p
        for p in forced_options(battle, c, c, "slide", squares)
        if _walkable(battle, c, p) and _cost(battle, p) <= squares
    ]
    if not options:
        return
    choice = battle.ask(ForcedMoveQuestion(c.id, c.id, "shift", tuple(options)))
    path = options[choice]
    c.pos = path[-1]
    battle.moved()
    battle.emit(Moved(c.id, "shift", path, _cost(battle, path)))


def _walkable(battle: Battle, c: Combatant, path: tuple[Square, ...]) -> bool:
    return all(
        not battle.map.blocks_movement(sq) and battle.map.cell(sq).terrain != Terrain.PIT
        for pos in path[1:]
        for sq in footprint(pos, c.size)
    )


def _cost(battle: Battle, path: tuple[Square, ...]) -> int:
    return sum(2 if battle.map.cell(sq).difficult else 1 for sq in path[1:])
