"""Full-round actions: the d20srd full attack (D-1) and the 4srd/d20srd withdraw (S-15).

A full-round action takes the whole turn's standard and move actions at once (the log's
`full_round` kind): it is allowed only before either has been spent, never in the surprise
round (one action there) or while dazed. The encounter knows these actions only through
their handlers (`engine.handlers.full_round`), which land here, so the encounter module
stays the same for every ruleset; whether a ruleset has them is its own say
(`Ruleset.extra_actions`).

Full attack: one attack per 5 points of base attack bonus (+1/+6/+11/+16, D-1), each further
attack at -5 more (`Ruleset.iterative_penalty`, logged as an `iterative` modifier), all with
one at-will melee or ranged power; `targets[i]` is attack i's target and the last named
target takes the attacks left. An attack whose target has fallen goes to the next named
target still alive, and the rest are lost when none is. Withdraw: a move of up to double
speed in which the square left first provokes no opportunity attack (the later ones do, as
in the d20 SRD; `Ruleset.unprovoked_squares`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import FullAttack, Impossible, Move, UsePower, Withdraw
from engine.events import ActionSpent, Mod, Note
from engine.movement import check_move, perform_move, provoke_for_act
from engine.powers import provoking_kind, resolve, resolve_targets, usable_refusal
from engine.refusals import Refusal
from engine.rulesets import Ruleset, names_offering
from engine.state import Combatant

if TYPE_CHECKING:
    from engine.content.schema import Power
    from engine.encounter import Encounter
    from engine.preview import AttackPreview


def full_round_refusal(enc: Encounter, c: Combatant) -> Impossible | None:
    """Why `c` can't take a full-round action now, as a refusal, or None."""
    b = enc.battle
    if b.surprise_round:
        why = "no full-round action in the surprise round (one action only)"
    elif b.has(c, "dazed"):
        why = f"{c.name} is dazed: one action only"
    elif b.spent.get("standard", 0) or b.spent.get("move", 0) or not enc.can_spend("standard"):
        why = "a full-round action needs the turn's standard and move actions, both unspent"
    else:
        return None
    return Impossible(why, Refusal.NO_ACTION_LEFT)


def full_round_problem(enc: Encounter, c: Combatant) -> str | None:
    """Why `c` can't take a full-round action now, or None."""
    refusal = full_round_refusal(enc, c)
    return refusal.reason if refusal is not None else None


def not_in_ruleset(ruleset: str, action: str, what: str) -> Impossible:
    """The refusal of an action this ruleset lacks, naming those that have it."""
    having = ", ".join(names_offering(action)) or "no ruleset"
    return Impossible(f"there is no {what} in {ruleset} ({having})", Refusal.NOT_IN_RULESET)


def iterative(ruleset: Ruleset, i: int) -> tuple[Mod, ...]:
    """The modifier of attack `i` of a full attack, as the ruleset has it (D-1)."""
    penalty = ruleset.iterative_penalty(i)
    return (Mod("iterative", penalty),) if penalty else ()


def spend_full_round(enc: Encounter, c: Combatant, name: str) -> None:
    b = enc.battle
    b.spent["standard"] += 1
    b.spent["move"] += 1
    c.acted = True
    b.emit(ActionSpent(c.id, "full_round", name))


def _current(enc: Encounter) -> Combatant:
    c = enc.current
    if c is None:
        raise Impossible(
            "the encounter is over" if enc.over else "no creature's turn", Refusal.NO_TURN
        )
    return c


# --- full attack (d20srd D-1) -----------------------------------------------------------------
def check_full_attack(enc: Encounter, act: FullAttack) -> tuple[Power, tuple[str, ...]]:
    """The power and one target per attack; raises Impossible with the reason."""
    b = enc.battle
    c = _current(enc)
    if not b.ruleset.full_attack:
        raise not_in_ruleset(b.ruleset.name, "full_attack", "full attack")
    p = c.power(act.power)
    if p is None:
        raise Impossible(f"{c.name} has no power {act.power!r}", Refusal.UNKNOWN_POWER)
    if p.attack is None or p.kind not in ("melee", "ranged") or p.usage != "at-will":
        raise Impossible(
            f"{p.name} can't make a full attack (an at-will melee or ranged attack)",
            Refusal.WRONG_POWER,
        )
    if p.action != "standard" or p.targets != 1:
        raise Impossible(
            f"{p.name} can't make a full attack (a single-target standard attack)",
            Refusal.WRONG_POWER,
        )
    refusal = usable_refusal(b, c, p) or full_round_refusal(enc, c)
    if refusal is not None:
        raise refusal
    count = b.ruleset.attack_count(c)
    if not act.targets:
        raise Impossible("a full attack needs a target", Refusal.NEEDS_TARGET)
    if len(act.targets) > count:
        raise Impossible(
            f"{c.name} makes {count} attack(s) in a full attack, not more",
            Refusal.TOO_MANY_TARGETS,
        )
    for tid in dict.fromkeys(act.targets):
        resolve_targets(b, c, p, UsePower(p.id, (tid,)))
    plan = act.targets + (act.targets[-1],) * (count - len(act.targets))
    return p, plan


def full_attack(enc: Encounter, act: FullAttack, plan: tuple[Power, tuple[str, ...]]) -> None:
    b = enc.battle
    c = _current(enc)
    power, targets = plan
    spend_full_round(enc, c, power.id)
    if provoking_kind(power):
        provoke_for_act(b, c)
    for i in range(len(targets)):
        if not c.standing:
            return
        target = _next_target(enc, targets, i)
        if target is None:
            b.emit(Note(c.id, f"{c.name} has no target left for its other attacks."))
            return
        b.action_modifiers[c.id] = iterative(b.ruleset, i)
        try:
            resolve(b, c, power, UsePower(power.id, (target,)), [target])
        finally:
            b.action_modifiers.pop(c.id, None)


def full_attack_previews(enc: Encounter, power_id: str, target_id: str) -> list[AttackPreview]:
    """The odds and expected damage of each attack of a full attack on `target_id`, each at
    its own iterative penalty (reads only; one entry when the ruleset has no full attack)."""
    b = enc.battle
    c = _current(enc)
    count = b.ruleset.attack_count(c) if b.ruleset.full_attack else 1
    out = []
    for i in range(count):
        pv = enc.preview(power_id, target_id, extra=iterative(b.ruleset, i))
        if pv is not None:
            out.append(pv)
    return out


def _next_target(enc: Encounter, targets: tuple[str, ...], i: int) -> str | None:
    b = enc.battle
    for tid in targets[i:]:
        if b[tid].alive:
            return tid
    return None


# --- withdraw (S-15) ---------------------------------------------------------------------------
def check_withdraw(enc: Encounter, act: Withdraw) -> Any:
    b = enc.battle
    c = _current(enc)
    if not b.ruleset.withdraw:
        raise not_in_ruleset(b.ruleset.name, "withdraw", "withdraw action")
    refusal = full_round_refusal(enc, c)
    if refusal is not None:
        raise refusal
    return check_move(b, c, Move(act.path, "withdraw"), ("withdraw",))


def withdraw(enc: Encounter, act: Withdraw, cost: int) -> None:
    b = enc.battle
    c = _current(enc)
    spend_full_round(enc, c, "withdraw")
    perform_move(b, c, Move(act.path, "withdraw"), cost)
