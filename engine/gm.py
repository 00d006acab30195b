"""The game master's tools: hit points, effects, reinforcements and removal, by hand.

At a real table the GM overrules, patches and improvises: a player's potion the app doesn't
know, a condition from a trap, the goblins' friends arriving in round 3, the kobold that runs
off. Each tool is an action (`engine.actions.GmHp`, `GmEffect`, `GmEndEffect`, `GmAdd`,
`GmRemove`) that `Encounter.apply` checks and performs like any other, so it is logged (a
`gm` event, then the ordinary events it causes), undone, saved and replayed exactly. Nothing
here spends a creature's action. What the rules forbid is refused with a reason
(`Impossible`): no creature on a wall, no healing the dead, no unknown condition.

A creature the GM adds is also listed in the JSON log's `encounter_start` on export
(`log_json`), so a reader that learns the creatures there (check_log.py) knows it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from engine.actions import (
    Action,
    GmAdd,
    GmEffect,
    GmEndEffect,
    GmHp,
    GmRemove,
    Impossible,
)
from engine.battle import Battle
from engine.conditions import BY_NAME
from engine.content.schema import EffectSpec
from engine.effects import add_effect, end
from engine.events import Gm, Initiative, InitiativeOrder, Logged
from engine.grid import footprint
from engine.hp import adjust, deal_damage, gain_temp_hp, heal
from engine.refusals import Refusal
from engine.state import Combatant
from engine.turns import combatant_entry

if TYPE_CHECKING:
    from engine.encounter import Encounter

Square = tuple[int, int]

HP_CHANGES = ("damage", "heal", "temp")
DURATIONS = ("save_ends", "start_of_next_turn", "end_of_next_turn", "end_of_encounter")
"""What a GM effect may last: sustained durations need a sustainer, which a GM effect lacks."""
MAX_AMOUNT = 999
ID = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _creature(b: Battle, cid: Any) -> Combatant:
    c = b.combatants.get(cid) if isinstance(cid, str) else None
    if c is None:
        raise Impossible(f"no creature {cid!r} in the fight", Refusal.BAD_TARGET)
    return c


def check(enc: Encounter, action: Action) -> Any:
    """The plan for a GM action, or Impossible with the reason (nothing changes)."""
    b = enc.battle
    if isinstance(action, GmHp):
        return _check_hp(b, action)
    if isinstance(action, GmEffect):
        return _check_effect(b, action)
    if isinstance(action, GmEndEffect):
        eff = b.effects.get(action.effect) if isinstance(action.effect, str) else None
        if eff is None:
            raise Impossible(f"no active effect {action.effect!r}", Refusal.BAD_TARGET)
        return eff
    if isinstance(action, GmAdd):
        return _check_add(enc, action)
    if isinstance(action, GmRemove):
        c = _creature(b, action.target)
        if c.id == b.current:
            raise Impossible(
                f"it is {c.name}'s turn: end it first, then remove {c.name}", Refusal.BAD_TARGET
            )
        return c
    raise Impossible(f"unknown GM action {action!r}", Refusal.UNKNOWN_ACTION)


def _check_hp(b: Battle, a: GmHp) -> Combatant:
    c = _creature(b, a.target)
    if a.change not in HP_CHANGES:
        raise Impossible(
            f"hit point change {a.change!r} is not one of {', '.join(HP_CHANGES)}",
            Refusal.BAD_VALUE,
        )
    if not _int(a.amount) or a.amount < 1:
        raise Impossible(
            f"the amount must be a whole number of 1 or more, not {a.amount!r}", Refusal.BAD_VALUE
        )
    if a.amount > MAX_AMOUNT:
        raise Impossible(f"{a.amount} is more than {MAX_AMOUNT}", Refusal.BAD_VALUE)
    if not c.alive:
        raise Impossible(f"{c.name} is dead", Refusal.BAD_TARGET)
    if a.change == "heal" and c.hp >= c.max_hp:
        raise Impossible(
            f"{c.name} is at full hit points ({c.hp}/{c.max_hp})", Refusal.NOTHING_TO_DO
        )
    return c


def _check_effect(b: Battle, a: GmEffect) -> tuple[Combatant, EffectSpec]:
    c = _creature(b, a.target)
    if not c.alive:
        raise Impossible(f"{c.name} is dead", Refusal.BAD_TARGET)
    if a.duration not in DURATIONS:
        raise Impossible(
            f"duration {a.duration!r} is not one of {', '.join(DURATIONS)}", Refusal.BAD_VALUE
        )
    if a.condition and a.condition not in BY_NAME:
        known = ", ".join(sorted(BY_NAME))
        raise Impossible(f"unknown condition {a.condition!r} (known: {known})", Refusal.BAD_VALUE)
    data: dict[str, Any] = {"duration": a.duration}
    if a.condition:
        data["conditions"] = [a.condition]
    if a.ongoing:
        data["ongoing"] = {
            "amount": a.ongoing,
            **({"type": a.ongoing_type} if a.ongoing_type else {}),
        }
    if a.stat:
        data["modifiers"] = [{"stat": a.stat, "value": a.value}]
    if isinstance(a.label, str) and a.label.strip():
        data["name"] = a.label.strip()[:40]
    try:
        spec = EffectSpec.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "effect"
        raise Impossible(f"{where}: {first['msg']}", Refusal.BAD_VALUE) from None
    return c, spec


def _check_add(enc: Encounter, a: GmAdd) -> tuple[Combatant, int | None]:
    b = enc.battle
    creatures = enc.loaded.creatures
    if not isinstance(a.creature, str) or a.creature not in creatures:
        known = ", ".join(sorted(creatures))
        raise Impossible(
            f"no creature {a.creature!r} in this encounter's bestiary ({known})", Refusal.BAD_TARGET
        )
    sides = b.sides()
    if a.side not in sides:
        raise Impossible(f"no side {a.side!r} (sides: {', '.join(sides)})", Refusal.BAD_VALUE)
    cr = creatures[a.creature]
    cid = a.id or _free_id(b, enc, a.creature)
    if not isinstance(cid, str) or not ID.match(cid):
        raise Impossible(
            f"id {cid!r}: lower-case letters, digits, - and _, starting with a letter",
            Refusal.BAD_VALUE,
        )
    if cid in b.combatants or cid in enc.gm_removed:
        raise Impossible(f"a creature {cid!r} is already in this fight", Refusal.BAD_TARGET)
    pos = a.pos
    if not (isinstance(pos, tuple) and len(pos) == 2 and all(_int(v) for v in pos)):
        raise Impossible(f"square {pos!r} is not x,y", Refusal.BAD_VALUE)
    spec_side = enc.loaded.spec.sides.get(a.side)
    c = Combatant(
        id=cid,
        name=_free_name(b, cr.name),
        side=a.side,
        creature=cr,
        powers=tuple(enc.loaded.powers[p] for p in cr.powers),
        control=spec_side.control if spec_side is not None else "ai",
        pos=(pos[0], pos[1]),
        max_hp=cr.hp,
        hp=cr.hp,
        surges=cr.healing_surges,
        action_points=cr.action_points if cr.action_points is not None else int(cr.kind == "pc"),
    )
    occupied = b.occupancy()
    for sq in footprint(c.pos, c.size):
        if not b.map.in_bounds(sq):
            raise Impossible(
                f"{sq[0]},{sq[1]} is off the {b.map.width}x{b.map.height} map", Refusal.OFF_MAP
            )
        if b.map.blocks_movement(sq):
            raise Impossible(
                f"{sq[0]},{sq[1]} is {b.map.cell(sq).terrain.name.lower()}", Refusal.BLOCKED
            )
        who = occupied.at(sq)
        if who is not None:
            raise Impossible(f"{sq[0]},{sq[1]} is taken by {b[who].name}", Refusal.OCCUPIED)
    init = a.initiative
    if init is not None:
        mod = b.ruleset.initiative_modifier(c)
        if not _int(init) or not 1 <= init - mod <= 20:
            raise Impossible(
                f"initiative {init!r} is out of reach of d20 {mod:+d} ({1 + mod}..{20 + mod})",
                Refusal.BAD_VALUE,
            )
    return c, init


def _free_id(b: Battle, enc: Encounter, base: str) -> str:
    n = 1
    while f"{base}-{n}" in b.combatants or f"{base}-{n}" in enc.gm_removed:
        n += 1
    return f"{base}-{n}"


def _free_name(b: Battle, name: str) -> str:
    names = {c.name for c in b.combatants.values()}
    if name not in names:
        return name
    n = 2
    while f"{name} {n}" in names:
        n += 1
    return f"{name} {n}"


def perform(enc: Encounter, action: Action, plan: Any) -> None:
    b = enc.battle
    if isinstance(action, GmHp):
        _hp(b, action, plan)
    elif isinstance(action, GmEffect):
        c, spec = plan
        b.emit(Gm("effect", c.id, f"GM: {c.name} gets {spec.name or _what(action)}"))
        add_effect(b, spec, c, None, _what(action))
    elif isinstance(action, GmEndEffect):
        c = b.combatants.get(plan.target)
        who = c.name if c is not None else plan.target
        b.emit(Gm("end_effect", plan.target, f"GM: {who}'s {plan.name} ends"))
        end(b, plan, "gm")
    elif isinstance(action, GmAdd):
        _add(b, plan)
    elif isinstance(action, GmRemove):
        _remove(enc, plan)


def _what(a: GmEffect) -> str:
    parts = [a.condition] if a.condition else []
    if a.ongoing:
        parts.append(f"ongoing {a.ongoing}" + (f" {a.ongoing_type}" if a.ongoing_type else ""))
    if a.stat:
        parts.append(f"{a.stat} {a.value:+d}")
    return ", ".join(parts) or "an effect"


def _hp(b: Battle, a: GmHp, c: Combatant) -> None:
    word = {"damage": "takes", "heal": "heals", "temp": "gains"}[a.change]
    unit = "temporary hit points" if a.change == "temp" else "hit points"
    b.emit(Gm("hp", c.id, f"GM: {c.name} {word} {a.amount} {unit}"))
    if a.change == "damage":
        mods = adjust(b, c, a.amount, (), halve=[])  # temporary hit points soak it first
        deal_damage(
            b,
            c,
            source=None,
            power=None,
            cause="gm",
            dice=str(a.amount),
            rolls=(),
            rolled=a.amount,
            types=(),
            adjustments=mods,
        )
    elif a.change == "heal":
        heal(b, c, a.amount, None, surge=False)
    else:
        gain_temp_hp(b, c, a.amount)


def _add(b: Battle, plan: tuple[Combatant, int | None]) -> None:
    c, entered = plan
    b.emit(Gm("add", c.id, f"GM: {c.name} joins {c.side}", combatant_entry(b, c)))
    if c.rules is None:  # the ruleset's record of it (opportunity attacks taken), as at start
        c.rules = b.ruleset.new_state(c)
    b.combatants[c.id] = c
    b.moved()
    mod = b.ruleset.initiative_modifier(c)
    natural = entered - mod if entered is not None else b.d20(f"{c.name}: initiative", c.id)
    c.initiative, c.init_modifier = natural + mod, mod
    b.emit(Initiative(c.id, natural, mod, natural + mod))
    # after everyone with a higher count (and after those it ties: they were there first)
    at = len(b.order)
    for i, other in enumerate(b.order):
        if b[other].initiative < c.initiative:
            at = i
            break
    b.order.insert(at, c.id)
    if at <= b.turn_index:
        b.turn_index += 1  # the creature whose turn it is stays current
    b.emit(InitiativeOrder(tuple(b.order)))


def _remove(enc: Encounter, c: Combatant) -> None:
    b = enc.battle
    b.emit(Gm("remove", c.id, f"GM: {c.name} leaves the fight"))
    for eff in list(b.effects.values()):
        if c.id in (eff.target, eff.owner):
            end(b, eff, "gm")
    i = b.order.index(c.id)
    del b.order[i]
    if i < b.turn_index:
        b.turn_index -= 1
    del b.combatants[c.id]
    enc.gm_removed[c.id] = c
    if c.standing:
        b.fled_sides.add(c.side)
    b.moved()
    b.emit(InitiativeOrder(tuple(b.order)))


def log_json(events: Iterable[Logged]) -> list[dict[str, Any]]:
    """The JSON Lines log of `events`, with every creature the GM added also listed in
    `encounter_start`'s combatants (`joined`: the seq of its `gm` event), so that a reader
    that learns the creatures there knows each one (docs/log.md)."""
    out = [ev.to_json() for ev in events]
    added = [
        {**ev["combatant"], "joined": ev["seq"]}
        for ev in out
        if ev.get("type") == "gm" and ev.get("tool") == "add" and ev.get("combatant")
    ]
    if added and out and out[0].get("type") == "encounter_start":
        out[0] = {**out[0], "combatants": [*out[0]["combatants"], *added]}
    return out
