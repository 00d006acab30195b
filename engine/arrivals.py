"""Reinforcements: creatures an encounter adds at a given round (issue 16 item 7).

A combatant with `arrives_round: N` waits off the map (`Battle.waiting`) until round N
starts. Then it is placed on its square, rolls initiative (F-TRN-2: d20 + its modifier, as
every creature did at the start) and enters the initiative order at that count: after the
creatures with a higher total or an equal one (S-13's tie-break is for creatures that rolled
together; a newcomer yields the tie), so this round it acts when its count comes. A square
still taken when it arrives holds it back a round (a note says so). A side with creatures
still to come has not lost (F-TRN-6 counts them as standing).
"""

from __future__ import annotations

from engine.battle import Battle
from engine.events import Arrive, Initiative, InitiativeOrder, Note
from engine.state import Combatant


def blocked(battle: Battle, c: Combatant) -> bool:
    """Is one of its squares taken by a creature on the map?"""
    mine = set(battle.squares(c))
    return any(o.alive and mine & set(battle.squares(o)) for o in battle.combatants.values())


def arrive(battle: Battle) -> None:
    """At the start of a round: every waiting creature due by now arrives (in the order the
    encounter lists them)."""
    for cid, (when, c) in list(battle.waiting.items()):
        if when > battle.round:
            continue
        if blocked(battle, c):
            battle.emit(Note(c.id, f"{c.name} can't arrive: its square is taken."))
            continue
        del battle.waiting[cid]
        battle.combatants[c.id] = c
        if c.rules is None:
            c.rules = battle.ruleset.new_state(c)
        battle.moved()
        mod = battle.ruleset.initiative_modifier(c)
        nat = battle.d20(f"{c.name}: initiative", c.id)
        c.initiative, c.init_modifier = nat + mod, mod
        battle.emit(Arrive(c.id, c.pos))
        battle.emit(Initiative(c.id, nat, mod, nat + mod))
        _enter_order(battle, c)
        battle.emit(InitiativeOrder(tuple(battle.order)))


def _enter_order(battle: Battle, c: Combatant) -> None:
    order = battle.order
    at = len(order)
    for i, oid in enumerate(order):
        if battle[oid].initiative < c.initiative:
            at = i
            break
    order.insert(at, c.id)
    if at < battle.turn_index:  # (turn_index is 0 at a round's start: never, in practice)
        battle.turn_index += 1


def sides_waiting(battle: Battle) -> set[str]:
    return {c.side for _, c in battle.waiting.values()}
