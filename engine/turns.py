"""Rounds and turns: surprise, initiative, what happens at the start and end of each turn,
delaying and readying, and the end of the encounter (F-TRN-*, F-DMG-6/7, F-SAV-2, S-10, S-13,
X-ACT-1, X-PWR-1).

Turns of creatures that can't act (dying, stunned, surprised) pass by themselves: the engine
rolls their saves and moves on, so a caller only ever sees a turn that needs a decision.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.arrivals import arrive
from engine.battle import Battle
from engine.content.schema import Creature, Surprise
from engine.content.schema import Encounter as EncounterSpec
from engine.decisions import DelayReturnQuestion
from engine.effects import (
    add_effect,
    end_all,
    end_of_turn_saves,
    expire_at_turn_end,
    expire_at_turn_start,
    expire_for_missed_turn,
    expire_long,
    ongoing_at_turn_start,
    save_mods,
)
from engine.events import (
    ActionSpent,
    Check,
    DeathSave,
    EncounterEnd,
    EncounterStart,
    Initiative,
    InitiativeOrder,
    Note,
    PowerRecharge,
    RoundStart,
    TurnEnd,
    TurnStart,
)
from engine.grid import BattleMap
from engine.hp import heal, update_state
from engine.rulesets.base import DEFENSES
from engine.state import STANDING, Combatant
from engine.triggers import any_for, fire, spend_immediate

Square = tuple[int, int]
SCHEMA = 2
"""The combat log's schema version (log-schema.md, `encounter_start.schema`). Version 2
(docs/log.md "schema 2 additions"): each combatant's rule-relevant traits and starting state
at `encounter_start`, surprise as decided, `immune` lines, Heal checks."""


def start_event(
    battle: Battle,
    spec: EncounterSpec,
    source: str,
    content_hash: str,
    ruleset: str,
    seed: int | None,
) -> EncounterStart:
    """The log's first line: the fight as it begins (log-schema.md, encounter_start)."""
    b = battle
    coming = {cid: rnd for cid, (rnd, _) in b.waiting.items()}
    combatants = [
        {**combatant_entry(b, c, c.surprised), "arrives_round": coming.get(c.id)}
        for c in [*b.combatants.values(), *(c for _, c in b.waiting.values())]
    ]  # `surprised` as decided: `decide_surprise` runs first
    terrain = {k: [list(sq) for sq in v] for k, v in _terrain(b.map)}
    bmap = {"name": spec.map.name, "width": b.map.width, "height": b.map.height, "terrain": terrain}
    return EncounterStart(SCHEMA, source, content_hash, ruleset, seed, bmap, tuple(combatants))


_TERRAIN: dict[int, tuple[BattleMap, tuple[tuple[str, tuple[Square, ...]], ...]]] = {}


def _terrain(bmap: BattleMap) -> tuple[tuple[str, tuple[Square, ...]], ...]:
    """`bmap.terrain_squares()`, kept per map in the process (a map never changes; a sim
    writes it in every fight's first line). Bounded as `_TRAITS` is."""
    hit = _TERRAIN.get(id(bmap))
    if hit is not None and hit[0] is bmap:
        return hit[1]
    out = tuple((k, tuple(v)) for k, v in bmap.terrain_squares().items())
    if len(_TERRAIN) >= _TRAITS_LIMIT:
        _TERRAIN.clear()
    _TERRAIN[id(bmap)] = (bmap, out)
    return out


def combatant_entry(b: Battle, c: Combatant, surprised: bool = False) -> dict[str, Any]:
    """One creature as the log describes it (encounter_start's `combatants`, and a creature
    the GM adds mid-fight: `engine.gm`)."""
    t = _traits(b, c)
    return {
        "id": c.id,
        "name": c.name,
        "side": c.side,
        "pc": t.pc,
        "control": c.control,
        "level": t.level,
        "max_hp": c.max_hp,
        "hp": c.hp,
        "speed": t.speed,
        "pos": list(c.pos),
        "size": c.size,
        "reach": t.reach,
        "defenses": dict(t.defenses),
        "surprised": surprised,
        "role": t.role,
        "creature": t.creature,
        **_schema2(b, c, t),
    }


def _schema2(b: Battle, c: Combatant, t: _Traits) -> dict[str, Any]:
    """What schema 2 adds for each combatant (docs/log.md): the traits rules read, the
    state it starts in (a fight that starts mid-way), the ruleset's numbers for it."""
    return {
        "invisible": t.invisible,
        "insubstantial": t.insubstantial,
        "minion": t.minion,
        "immune": list(t.immune),
        "resist": dict(t.resist),
        "vulnerable": dict(t.vulnerable),
        "state": c.state,
        "temp_hp": c.temp_hp,
        "surges": c.surges,
        "action_points": c.action_points,
        "death_failures": c.death_failures,
        "powers_spent": sorted(c.used_powers),
        "powers": [p.id for p in c.powers],
        "skills": dict(t.skills),
        "numbers": b.ruleset.log_numbers(c),
    }


@dataclass(frozen=True, slots=True)
class _Traits:
    """What a combatant's log entry takes from its creature (frozen content) and the
    ruleset's class alone: worked out once per creature and ruleset in the process (a sim
    writes an `encounter_start` per fight; `_TRAITS`). Each entry gets its own copies of the
    containers (a log line is the caller's to keep)."""

    creature_obj: Creature
    """Kept so that the `id()` in the key can't be reused by another object meanwhile."""
    pc: bool
    level: int
    speed: int
    reach: int
    defenses: tuple[tuple[str, int], ...]
    role: str | None
    creature: str
    invisible: bool
    insubstantial: bool
    minion: bool
    immune: tuple[str, ...]
    resist: tuple[tuple[str, int], ...]
    vulnerable: tuple[tuple[str, int], ...]
    skills: tuple[tuple[str, Any], ...]


_TRAITS: dict[tuple[int, type], _Traits] = {}
_TRAITS_LIMIT = 4096
"""Entries of `_TRAITS` before it starts over (a long session that loads much content)."""


def _traits(b: Battle, c: Combatant) -> _Traits:
    cr = c.creature
    key = (id(cr), type(b.ruleset))
    hit = _TRAITS.get(key)
    if hit is not None and hit.creature_obj is cr:
        return hit
    rs = b.ruleset
    t = _Traits(
        cr,
        c.pc,
        c.level,
        rs.base_speed(c),
        c.reach,
        tuple((d, rs.defense(c, d)) for d in DEFENSES),
        cr.role,
        cr.id,
        cr.invisible,
        cr.insubstantial,
        cr.minion,
        tuple(cr.immune),
        tuple(cr.resist.items()),
        tuple(cr.vulnerable.items()),
        tuple(cr.skills.model_dump().items()),
    )
    if len(_TRAITS) >= _TRAITS_LIMIT:
        _TRAITS.clear()
    _TRAITS[key] = t
    return t


def start_effects(battle: Battle, spec: EncounterSpec) -> None:
    """The effects the encounter places combatants under (a fight that starts mid-way,
    issue 16 item 7): started as a power would start them, before surprise and initiative."""
    for cd in spec.combatants:
        if cd.arrives_round is not None:
            continue  # (content check: a reinforcement starts with no effects)
        for eff in cd.effects:
            source = battle.combatants.get(eff.source) if eff.source else None
            add_effect(battle, eff, battle[cd.id], source, eff.name or "starting effect")


def decide_surprise(battle: Battle, spec: Surprise | None) -> list[Check]:
    """F-TRN-4, S-2: who is surprised, stated or by Stealth against Perception (file 003).
    Decided before the log's first line, which records it; the checks that decided it are
    returned, to be logged after that line."""
    checks: list[Check] = []
    if spec is None:
        return checks
    everyone = list(battle.combatants.values())
    if spec.mode == "stated":
        names = set(spec.surprised)
        for c in everyone:
            if c.id in names or c.side in names:
                c.surprised = True
        return checks
    hidden_names = set(spec.hidden)
    hidden = [c for c in everyone if c.id in hidden_names or c.side in hidden_names]
    hidden_sides = {c.side for c in hidden}
    stealth: list[int] = []
    for h in hidden:
        nat = battle.d20(f"{h.name}: Stealth", h.id)
        mod = h.creature.skills.stealth
        stealth.append(nat + mod)
        checks.append(Check(h.id, "stealth", nat, mod, nat + mod))
    for c in everyone:
        if c.side in hidden_sides or not stealth:
            continue
        nat = battle.d20(f"{c.name}: Perception", c.id)
        mod = c.creature.skills.perception
        noticed = nat + mod >= min(stealth)  # the clumsiest of the hidden gives them away
        checks.append(Check(c.id, "perception", nat, mod, nat + mod, min(stealth), noticed))
        c.surprised = not noticed
    return checks


def roll_initiative(battle: Battle) -> None:
    """F-TRN-2, S-13: highest first; ties by modifier, then by roll-off."""
    rolls: dict[str, tuple[int, int]] = {}
    for c in battle.combatants.values():
        mod = battle.ruleset.initiative_modifier(c)
        nat = battle.d20(f"{c.name}: initiative", c.id)
        c.initiative, c.init_modifier = nat + mod, mod
        rolls[c.id] = (nat + mod, mod)
        battle.emit(Initiative(c.id, nat, mod, nat + mod))
    groups: dict[tuple[int, int], list[str]] = {}
    for cid, key in rolls.items():
        groups.setdefault(key, []).append(cid)
    tiebreak: dict[str, tuple[int, ...]] = {cid: () for cid in rolls}
    # S-13: each group still tied rolls off again, until every creature has its own place
    pending = [g for g in groups.values() if len(g) > 1]
    while pending:
        tied = pending.pop(0)
        by_face: dict[int, list[str]] = {}
        for cid in tied:
            face = battle.d20(f"{battle[cid].name}: initiative roll-off", cid)
            battle.emit(Initiative(cid, face, 0, face, rolloff=True))
            tiebreak[cid] = (*tiebreak[cid], face)
            by_face.setdefault(face, []).append(cid)
        pending.extend(g for g in by_face.values() if len(g) > 1)
    order = sorted(rolls, key=lambda cid: (rolls[cid], tiebreak[cid]), reverse=True)
    battle.order = order
    battle.emit(InitiativeOrder(tuple(order)))


def begin(battle: Battle) -> None:
    """Start the first round (the surprise round when some, not all, are surprised: S-2)."""
    surprised = [c for c in battle.combatants.values() if c.surprised]
    battle.surprise_round = 0 < len(surprised) < len(battle.combatants)
    if not battle.surprise_round:
        for c in surprised:
            c.surprised = False
    battle.round = 0 if battle.surprise_round else 1
    battle.emit(RoundStart())
    battle.turn_index = -1
    advance(battle)


def advance(battle: Battle) -> None:
    """Move to the next creature that gets a turn and start it."""
    while not battle.over:
        battle.turn_index += 1
        if battle.turn_index >= len(battle.order):
            _new_round(battle)
            if battle.over:
                return
        c = battle.combatants[battle.order[battle.turn_index]]
        if c.state == "dead":
            if battle.effects:
                expire_for_missed_turn(battle, c)
            continue
        if battle.surprise_round and c.surprised:
            continue
        start_turn(battle, c)
        if battle.current is not None:
            return


def _new_round(battle: Battle) -> None:
    if battle.surprise_round:  # F-TRN-5: surprise ends with the surprise round
        battle.surprise_round = False
        for c in battle.combatants.values():
            c.surprised = False
    for c in battle.combatants.values():
        if c.delayed:  # X-ACT-1: a delayed turn is taken later in the same round, or lost
            c.delayed = False
            battle.emit(Note(c.id, f"{c.name} never took its delayed turn: it is lost."))
    battle.round += 1
    battle.turn_index = 0
    if battle.round > battle.round_limit:
        battle.round -= 1
        finish(battle, None, "round_limit")
        return
    battle.emit(RoundStart())
    expire_long(battle)  # F-DUR-4, F-DUR-6: 5 minutes at most
    if battle.waiting:
        arrive(battle)


def start_turn(battle: Battle, c: Combatant, *, resumed: bool = False) -> None:
    battle.current = c.id
    battle.spent = {"standard": 0, "move": 0, "minor": 0}
    battle.extra_standard = 0
    battle.moved_this_turn = False
    battle.emit(TurnStart(c.id))
    battle.turn_counter += 1  # a resumed (delayed) turn is a turn of its own too (X-OA-1)
    if not resumed:
        c.turns_started += 1
        c.readied = None
        triggers = any_for(battle, "turn_start")  # (who is in the fight can't change here)
        if triggers:
            _turn_trigger(battle, "turn_start", c, interrupt=True)
        if battle.effects:  # (each of these only reads the effects: none, nothing to do)
            expire_at_turn_start(battle, c)  # F-DUR-2
            ongoing_at_turn_start(battle, c)  # F-DMG-6
        if c.used_powers:
            _recharge(battle, c)  # X-PWR-1
        if triggers:
            _turn_trigger(battle, "turn_start", c, interrupt=False)
        if check_end(battle):
            return
    if c.state == "dead":
        battle.current = None
        battle.emit(TurnEnd(c.id))
        return
    if not battle.can_act(c):
        end_turn(battle, c)


def _turn_trigger(battle: Battle, on: str, c: Combatant, *, interrupt: bool) -> None:
    """Triggered powers on the start or end of `c`'s turn (an interrupt before the turn's
    own start-of-turn or end-of-turn rules, a reaction after them)."""
    if c.state != "dead" and any_for(battle, on) and not battle.over:
        fire(battle, on, interrupt=interrupt, subject=c, by=c)


def _recharge(battle: Battle, c: Combatant) -> None:
    for power in c.powers:
        if power.usage == "recharge" and power.id in c.used_powers and c.standing:
            assert power.recharge is not None
            face = battle.dice.roll(6, f"{c.name}: recharge {power.name}", c.id)
            ok = face >= power.recharge
            if ok:
                c.used_powers.discard(power.id)
            battle.emit(PowerRecharge(c.id, power.id, face, power.recharge, ok))


def end_turn(battle: Battle, c: Combatant) -> None:
    """F-DUR-3/6 expiries, then saving throws (F-SAV-2), then a death save (S-10)."""
    triggers = any_for(battle, "turn_end")  # (who is in the fight can't change here)
    if triggers:
        _turn_trigger(battle, "turn_end", c, interrupt=True)
    if battle.effects:  # (both only read the effects: none, nothing to do)
        expire_at_turn_end(battle, c)
        end_of_turn_saves(battle, c)
    if c.state == "dying":
        _death_save(battle, c)
    battle.current = None
    battle.emit(TurnEnd(c.id))
    if triggers:
        _turn_trigger(battle, "turn_end", c, interrupt=False)
    if check_end(battle):
        return
    _offer_delayed(battle, c)
    if battle.current is None:
        advance(battle)


def _death_save(battle: Battle, c: Combatant) -> None:
    nat = battle.d20(f"{c.name}: death saving throw", c.id)
    total = nat + sum(m.value for m in save_mods(battle, c))  # a saving throw: its bonuses add
    if nat >= 20:
        battle.emit(DeathSave(c.id, nat, total, "recover", c.death_failures))
        heal(battle, c, c.surge_value, None, surge=False)
        return
    if total < 10:
        c.death_failures += 1
        battle.emit(DeathSave(c.id, nat, total, "fail", c.death_failures))
        update_state(battle, c)
    else:
        battle.emit(DeathSave(c.id, nat, total, "success", c.death_failures))


def delay(battle: Battle, c: Combatant) -> None:
    """X-ACT-1: put off the whole turn; it may be taken after any later creature's turn."""
    c.delayed = True
    battle.current = None
    battle.emit(TurnEnd(c.id, delayed=True))
    advance(battle)


def _offer_delayed(battle: Battle, after: Combatant) -> None:
    for c in battle.combatants.values():
        if c.delayed:
            break
    else:
        return  # the common case: nobody is waiting
    for cid in list(battle.order):
        d = battle[cid]
        if not d.delayed or d.id == after.id or not d.standing:
            continue
        if battle.ask(DelayReturnQuestion(d.id, after.id)):
            d.delayed = False
            cur = battle.order[battle.turn_index]
            battle.order.remove(d.id)
            battle.order.insert(battle.order.index(cur) + 1, d.id)
            battle.turn_index = battle.order.index(d.id)
            battle.emit(InitiativeOrder(tuple(battle.order)))
            start_turn(battle, d, resumed=True)
            return


def fire_readied(battle: Battle, r: Combatant, trigger: Combatant) -> None:
    """X-ACT-1: the readied power goes off as an immediate reaction; the readier's place in
    the order moves to just before the triggering creature."""
    from engine.actions import UsePower
    from engine.powers import resolve

    power = r.power(r.readied) if r.readied else None
    r.readied = None
    if power is None:
        return
    spend_immediate(battle, r)  # one immediate action a round, readied or triggered
    battle.emit(ActionSpent(r.id, "immediate", power.id))
    targets = [trigger.id] if power.kind in ("melee", "ranged") else []
    if targets:
        resolve(battle, r, power, UsePower(power.id, tuple(targets)), targets)
    cur = battle.order[battle.turn_index]
    battle.order.remove(r.id)
    battle.order.insert(battle.order.index(trigger.id), r.id)
    battle.turn_index = battle.order.index(cur)
    battle.emit(InitiativeOrder(tuple(battle.order)))


def check_end(battle: Battle) -> bool:
    """F-TRN-6: the fight ends when at most one side has anyone standing."""
    if battle.over:
        return True
    pair = battle.end_pair
    if pair is not None:  # checked after every action: the last two witnesses usually stand
        a, b = pair
        roster = battle.combatants
        standing = a.state in STANDING and b.state in STANDING
        if standing and roster.get(a.id) is a and roster.get(b.id) is b:
            return False
    first: Combatant | None = None
    everyone: Iterable[Combatant] = battle.combatants.values()
    if battle.waiting:  # reinforcements count as standing
        everyone = [*everyone, *(c for _, c in battle.waiting.values())]
    for c in everyone:
        if c.state in STANDING:
            if first is None:
                first = c
            elif c.side != first.side:
                battle.end_pair = (first, c)  # two sides stand while these two do
                return False  # (stop at the second side)
    fled = battle.fled_sides - {first.side if first is not None else None}
    finish(battle, first.side if first is not None else None, "fled" if fled else "defeat")
    return True


def finish(battle: Battle, winner: str | None, reason: str) -> None:
    end_all(battle)  # F-DUR-4
    battle.over = True
    battle.current = None
    battle.winner = winner
    battle.end_reason = reason
    battle.emit(EncounterEnd(winner, battle.round, reason))
