"""Moving on one's own: walk, run and shift, with the opportunity attacks and readied actions
a move sets off (S-11, S-14, X-OA-1, X-ACT-1, F-MOD-11).

A walk or run that leaves a square an enemy threatens provokes that enemy once per move; the
engine asks its controller, logs `provoke` either way, stops the move at that square while the
attack resolves, and goes on if the mover still can. A shift provokes nothing.
"""

from __future__ import annotations

from typing import cast

from engine.actions import Impossible, Move, UsePower
from engine.attacks import can_see
from engine.battle import Battle
from engine.content.schema import EffectSpec, Modifier
from engine.decisions import OpportunityQuestion
from engine.effects import add_effect
from engine.events import ActionSpent, Moved, Provoke
from engine.grid import (
    MoveMode,
    Terrain,
    distance,
    footprint,
    provocations,
    threatened_squares,
    validate_path,
)
from engine.refusals import Refusal
from engine.state import STANDING, Combatant
from engine.triggers import any_for, fire, pending

Square = tuple[int, int]
RUNNING = EffectSpec(
    name="running",
    duration="start_of_next_turn",
    modifiers=[Modifier(stat="attack", value=-5)],
)


def budget(battle: Battle, c: Combatant, mode: str) -> int:
    if mode == "shift":
        return 1
    speed = battle.speed(c)
    if mode == "walk":
        return speed
    if mode == "run":
        return speed + 2
    if mode == "withdraw":
        return 2 * speed
    raise KeyError(mode)


def check_move(
    battle: Battle, c: Combatant, act: Move, modes: tuple[str, ...] = ("walk", "run", "shift")
) -> int:
    """Validate a move; return its cost. Raises Impossible with the reason. `modes`: the
    modes the action allows (a `Withdraw` checks its path as mode "withdraw")."""
    if act.mode not in modes:
        raise Impossible(
            f"unknown move mode {act.mode!r} (walk, run or shift)", Refusal.BAD_MOVE_MODE
        )
    problem = battle.ruleset.move_problem(battle, c, act.mode)  # S-15's 5-foot step
    if problem is not None:
        raise Impossible(problem, Refusal.ALREADY_ACTED)
    if battle.flag(c, "cant_move"):
        raise Impossible(f"{c.name} can't move ({_why_stuck(battle, c)})", Refusal.CONDITION)
    if battle.has(c, "prone") and act.mode != "shift":
        raise Impossible(
            f"{c.name} is prone: stand up first (a move action), or shift", Refusal.CONDITION
        )
    path = act.path
    if not path or tuple(path[0]) != c.pos:
        raise Impossible(f"a path starts at the mover's square {c.pos}", Refusal.BAD_PATH)
    if battle.map.cell(c.pos).terrain == Terrain.PIT:
        return _climb_cost(battle, c, act)
    check = validate_path(
        battle.map,
        list(path),
        c.id,
        c.side,
        c.size,
        battle.occupancy(),
        budget(battle, c, act.mode),
        cast(MoveMode, "walk" if act.mode == "withdraw" else act.mode),  # checked above
    )
    if not check.ok:
        raise Impossible(check.reason or "illegal path", check.code or Refusal.BAD_PATH)
    return check.cost


def _climb_cost(battle: Battle, c: Combatant, act: Move) -> int:
    """Climbing out of a pit takes a whole move to one adjacent square."""
    if len(act.path) != 2 or act.mode == "shift":
        raise Impossible(
            "climbing out of a pit is a walk of one square, using all your speed", Refusal.BAD_PATH
        )
    dest = act.path[1]
    if distance((c.pos,), (dest,)) != 1 or battle.map.blocks_movement(dest):
        raise Impossible(f"can't climb out to {dest}", Refusal.BLOCKED)
    if battle.occupancy().at(dest) not in (None, c.id):
        raise Impossible(f"{dest} is occupied", Refusal.OCCUPIED)
    return max(1, battle.speed(c))


def _why_stuck(battle: Battle, c: Combatant) -> str:
    conds = battle.conditions(c)
    for name in ("immobilized", "restrained", "stunned", "unconscious"):
        if name in conds:
            return name
    return "a condition"


def perform_move(battle: Battle, c: Combatant, act: Move, cost: int) -> None:
    battle.moved_this_turn = True
    battle.passing = c.id  # it may stop in an ally's square while others act (Battle.occupancy)
    try:
        _perform_move(battle, c, act, cost)
    finally:
        battle.passing = None
        battle.moved()


def _perform_move(battle: Battle, c: Combatant, act: Move, cost: int) -> None:
    path: list[Square] = [(p[0], p[1]) for p in act.path]
    if act.mode == "run":  # S-11: -5 to attack, and every attacker has combat advantage
        add_effect(battle, RUNNING, c, c, "running", extra=(("grants_ca", 1),))
    moving_triggers = any_for(battle, "enemy_enters", "enemy_leaves") and len(path) >= 2
    if (act.mode == "shift" and not moving_triggers) or len(path) < 2:
        _segment(battle, c, act.mode, path, cost)
        return
    if battle.map.cell(c.pos).terrain == Terrain.PIT:
        _segment(battle, c, act.mode, path, cost)
        return
    provoked: dict[int, list[str]] = {}
    left = {sq for p in path[:-1] for sq in footprint(p, c.size)}
    for i, enemy in move_provocations(battle, c, path, act.mode, _threats(battle, c, left)):
        provoked.setdefault(i, []).append(enemy)
    # Nobody readies during another's move: with no readied action now, no step sets one off.
    readied = act.mode != "shift" and any(r.readied is not None for r in battle.combatants.values())
    start = 0
    for i in range(len(path) - 1):
        start, stop = _step(
            battle, c, act.mode, path, i, start, provoked, (moving_triggers, readied)
        )
        if stop is not None:
            _settle(battle, c, act.mode, path, stop)  # the move ends where it was stopped
            return
    if start < len(path) - 1:
        rest = cost if start == 0 else _cost(battle, path[start:])
        _segment(battle, c, act.mode, path[start:], rest)


def _step(
    battle: Battle,
    c: Combatant,
    mode: str,
    path: list[Square],
    i: int,
    start: int,
    provoked: dict[int, list[str]],
    watch: tuple[bool, bool],
) -> tuple[int, int | None]:
    """What happens around the step from path[i] to path[i+1]: interrupts before it, the
    opportunity attacks of leaving path[i], then readied actions and reactions once in
    path[i+1]. Returns (where the unlogged rest of the path starts, the index in `path`
    where the move stopped or None). Whatever interrupts the move logs the path so far.
    `watch`: (may a triggered power answer a step, may a readied action)."""
    triggers, readied = watch
    if triggers and _step_triggers(battle, c, mode, path, i, start, True):
        start = i  # an interrupt of the step: the mover is still at path[i]
        if _stopped(battle, c):
            return start, i
    for enemy_id in provoked.get(i, []):
        if i > start:
            _segment(battle, c, mode, path[start : i + 1], _cost(battle, path[start : i + 1]))
            start = i
        battle.ruleset.note_move_opportunity(c, enemy_id, battle.round)  # S-14
        opportunity_attack(battle, battle[enemy_id], c, path[i])
        if _stopped(battle, c):
            return start, i
    if readied and _readied_trigger(battle, c, mode, path, i + 1, start):
        start = i + 1
        if _stopped(battle, c):
            return start, i + 1
    if triggers and _step_triggers(battle, c, mode, path, i, start, False):
        start = i + 1  # a reaction to the step: the mover has made it
        if _stopped(battle, c):
            return start, i + 1
    return start, None


def _stopped(battle: Battle, c: Combatant) -> bool:
    return c.state not in STANDING or battle.flag(c, "cant_move") or battle.has(c, "prone")


def _step_triggers(
    battle: Battle, c: Combatant, mode: str, path: list[Square], i: int, start: int, before: bool
) -> bool:
    """Triggered powers on `c`'s step from path[i] to path[i+1] that enters or leaves a
    square within an enemy's trigger range: interrupts (`before`) with the mover still at
    path[i], reactions once it is at path[i+1]. The move so far is logged first."""
    moved = (footprint(path[i], c.size), footprint(path[i + 1], c.size))
    at = i if before else i + 1
    fired = False
    for on in ("enemy_leaves", "enemy_enters"):
        if not pending(battle, on, interrupt=before, subject=c, moved=moved):
            continue
        if at > start:
            _segment(battle, c, mode, path[start : at + 1], _cost(battle, path[start : at + 1]))
            start = at
        fired = fire(battle, on, interrupt=before, subject=c, by=c, moved=moved) or fired
        fired = True  # the move was split here either way
        if _stopped(battle, c):
            break
    return fired


def _settle(battle: Battle, c: Combatant, mode: str, path: list[Square], i: int) -> None:
    """A move stopped in an ally's square: back up along the path to the last free square
    (two creatures never share a square), logged as the same kind of move at no cost. The
    dead leave the grid."""
    if not c.alive:
        return
    taken = {s for o in battle.living() if o.id != c.id for s in battle.squares(o)}
    j = i
    while j > 0 and any(s in taken for s in footprint(path[j], c.size)):
        j -= 1
    if j != i:
        back = list(reversed(path[j : i + 1]))
        _segment(battle, c, mode, back, 0)


def _cost(battle: Battle, path: list[Square]) -> int:
    total = 0
    for sq in path[1:]:
        total += 2 if battle.map.cell(sq).difficult else 1
    return total


def _segment(battle: Battle, c: Combatant, mode: str, path: list[Square], cost: int) -> None:
    c.pos = path[-1]
    battle.moved()
    battle.emit(Moved(c.id, mode, tuple(path), cost))


def reactors(battle: Battle, mover: Combatant) -> list[Combatant]:
    """Enemies that could take an opportunity attack on `mover` now (S-14, F-MOD-11, X-OA-1)."""
    return [e for e in battle.enemies_of(mover) if _may_react(battle, e, mover)]


def _may_react(battle: Battle, e: Combatant, mover: Combatant) -> bool:
    # Pure tests, cheapest first (sight is the dear one): the order changes only the cost.
    return (
        battle.ruleset.may_take_opportunity(e, battle.turn_counter, battle.round)
        and battle.can_react(e)
        and e.basic_melee() is not None
        and can_see(battle, e, mover)
    )


def _threats(
    battle: Battle, mover: Combatant, left: set[Square] | None = None
) -> dict[str, frozenset[Square]]:
    """Each enemy that could take an opportunity attack on `mover` now, with the squares it
    threatens, in roster order. `left`: the squares a move leaves; an enemy that threatens
    none of them is left out (it is provoked by nothing: the sight tests aren't worth it)."""
    rules, round_no, bmap = battle.ruleset, battle.round, battle.map
    out: dict[str, frozenset[Square]] = {}
    for e in battle.enemies_of(mover):
        threat = threatened_squares(bmap, e.pos, e.size, e.reach)
        if left is not None and left.isdisjoint(threat):
            continue
        if _may_react(battle, e, mover) and rules.move_opportunity_open(mover, e, round_no):
            out[e.id] = threat  # S-14: once a round per enemy
    return out


def move_provocations(
    battle: Battle,
    c: Combatant,
    path: list[Square],
    mode: str,
    threat: dict[str, frozenset[Square]],
) -> list[tuple[int, str]]:
    """(index in `path`, enemy id) of each opportunity a move of `mode` along `path` gives
    the enemies in `threat` (`threatening`): the ruleset may exempt the first squares left
    (S-15: a withdraw's first). The engine's move and the app's path preview both ask here."""
    if mode == "shift":
        return []
    skip = battle.ruleset.unprovoked_squares(mode)
    return [(i + skip, e) for i, e in provocations(path[skip:], threat, c.size)]


def threatening(
    battle: Battle, mover: Combatant, left: set[Square] | None = None
) -> dict[str, frozenset[Square]]:
    """For the UI and AI: each enemy's threatened squares, for those that could react
    (`left`: only those threatening one of these squares, as the engine's move asks)."""
    return _threats(battle, mover, left)


def opportunity_attack(battle: Battle, by: Combatant, mover: Combatant, at: Square) -> None:
    from engine.powers import resolve  # (engine.powers imports the modules this one does)

    power = by.basic_melee()
    assert power is not None
    taken = bool(battle.ask(OpportunityQuestion(by.id, mover.id, at, power.id)))
    battle.emit(Provoke(mover.id, by.id, at, taken))
    if not taken:
        return
    battle.ruleset.note_opportunity(by, battle.turn_counter, battle.round)
    battle.emit(ActionSpent(by.id, "opportunity", power.id))
    resolve(battle, by, power, UsePower(power.id, (mover.id,)), [mover.id], opportunity=True)


def act_provokers(battle: Battle, c: Combatant) -> list[Combatant]:
    """The enemies a ranged or area power used by `c` where it stands provokes (S-14): the
    AI's explanations ask this too."""
    # `reactors` filtered by adjacency, cheapest test first (sight is the dear one).
    out = []
    side, size = c.side, c.size
    cx, cy = c.pos
    mine = battle.squares(c)
    for e in battle.combatants.values():
        if e.side == side or e.state == "dead":
            continue
        if size == 1 and e.size == 1:  # `distance` of two single squares, inlined
            dx, dy = e.pos[0] - cx, e.pos[1] - cy
            if not (-1 <= dx <= 1 and -1 <= dy <= 1) or dx == dy == 0:
                continue
        elif distance(mine, footprint(e.pos, e.size)) != 1:
            continue
        if _may_react(battle, e, c):
            out.append(e)
    return out


def provoke_for_act(battle: Battle, c: Combatant) -> None:
    """A ranged or area power used next to enemies provokes each of them (S-14)."""
    for e in act_provokers(battle, c):
        if c.state not in STANDING:
            return
        opportunity_attack(battle, e, c, c.pos)


def _readied_trigger(
    battle: Battle, mover: Combatant, mode: str, path: list[Square], i: int, start: int
) -> bool:
    """X-ACT-1: a readied attack fires when an enemy enters a square within its reach/range."""
    from engine.turns import fire_readied

    fired = False
    for r in list(battle.living()):
        if r.readied is None or r.side == mover.side or not battle.can_react(r):
            continue
        if r.immediate_round == battle.round:  # one immediate action a round
            continue
        power = r.power(r.readied)
        if power is None:
            continue
        from engine.powers import power_range

        here = footprint(path[i], mover.size)
        if distance(battle.squares(r), here) > power_range(r, power):
            continue
        if not fired and i > start:
            _segment(battle, mover, mode, path[start : i + 1], _cost(battle, path[start : i + 1]))
        fired = True
        fire_readied(battle, r, mover)
        if not mover.standing:
            break
    return fired
