"""Triggered powers: immediate interrupts and reactions that go off by themselves.

A power with `action: immediate_interrupt` or `immediate_reaction` names a `trigger` from a
closed set (`engine.content.schema.TriggerKind`: hit or missed by an attack, damaged, an
enemy entering or leaving a square within N, an ally bloodied or dropped, this creature
bloodied or dropped, the start or end of a named creature's turn). The rules that spot a
trigger (attacks in `engine.powers`, hit points in `engine.hp`, moves in `engine.movement`,
turns in `engine.turns`) call `fire` at the moment it happens: interrupts before the trigger
resolves (an interrupt can void it: a target that shifted away is no longer where the
attack was aimed), reactions after it (X-ACT-1's readied actions are reactions too).

Who may answer (the usual 4e rules the seed texts rely on): a creature that can take
immediate actions (F-TRN-5: never while surprised in the surprise round; not dazed, stunned
or unconscious), not on its own turn, at most one immediate action a round (a readied
action counts), with the power unspent (X-PWR-1) and a legal target. The engine asks the
creature's controller (`TriggerQuestion`, with the odds), logs `trigger` either way, and,
when taken, an `action` of kind `immediate` and the power's own lines.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.actions import Impossible, UsePower
from engine.battle import Battle
from engine.content.schema import TRIGGERED_ACTIONS, Power
from engine.decisions import TriggerQuestion
from engine.events import ActionSpent, Triggered
from engine.grid import distance
from engine.state import Combatant

Square = tuple[int, int]
_MEMO = "triggered_powers"


@dataclass(frozen=True, slots=True)
class _Index:
    """The fight's triggered powers, as (creature id, power) in roster order: by trigger kind,
    and by (kind, creature) for the kinds only the subject's own powers answer."""

    roster: int
    """`battle.combatants.version` when built: who is in the fight is all it depends on (a
    creature's powers never change in a fight)."""
    by_kind: dict[str, list[tuple[str, Power]]]
    by_self: dict[tuple[str, str], list[tuple[str, Power]]]


def _index(battle: Battle) -> _Index:
    hit: _Index | None = battle.memo.get(_MEMO)
    if hit is None or hit.roster != battle.combatants.version:
        hit = _build(battle)
    return hit


def _build(battle: Battle) -> _Index:
    """Index the fight's triggered powers again (a creature joined or left: `_index`)."""
    by_kind: dict[str, list[tuple[str, Power]]] = {}
    by_self: dict[tuple[str, str], list[tuple[str, Power]]] = {}
    for c in battle.combatants.values():
        for p in c.powers:
            if p.action in TRIGGERED_ACTIONS and p.trigger is not None:
                by_kind.setdefault(p.trigger.when, []).append((c.id, p))
                by_self.setdefault((p.trigger.when, c.id), []).append((c.id, p))
    hit = _Index(battle.combatants.version, by_kind, by_self)
    battle.memo[_MEMO] = hit
    return hit


def triggered(battle: Battle) -> dict[str, list[tuple[str, Power]]]:
    """(creature id, power) of every triggered power, by trigger kind: worked out again only
    when a creature joins or leaves the fight (the hot paths ask `any_for` first)."""
    return _index(battle).by_kind


def any_for(battle: Battle, *kinds: str) -> bool:
    """Does anyone in the fight have a power triggered by one of `kinds`? (Asked a few times
    on every action and turn: `_index` inlined.)"""
    hit: _Index | None = battle.memo.get(_MEMO)
    if hit is None or hit.roster != battle.combatants.version:
        hit = _build(battle)
    table = hit.by_kind
    if not table:  # the common case: nobody in the fight has one
        return False
    if len(kinds) == 1:
        return kinds[0] in table
    return not table.keys().isdisjoint(kinds)


def answers_attacks(battle: Battle, target: Combatant) -> bool:
    """Has `target` a power set off by being hit or missed? Only its own can answer an attack
    on it (`SELF_KINDS`), so when it has none, `fire` of "hit" or "missed" on it asks nobody
    (`_index` inlined: asked on every attack)."""
    hit: _Index | None = battle.memo.get(_MEMO)
    if hit is None or hit.roster != battle.combatants.version:
        hit = _build(battle)
    by_self = hit.by_self
    if not by_self:
        return False
    tid = target.id
    return ("hit", tid) in by_self or ("missed", tid) in by_self


def may_react(battle: Battle, r: Combatant) -> bool:
    """Can `r` take an immediate action now: standing, able to react (F-TRN-5: not while
    surprised in the surprise round), not on its own turn, none yet this round."""
    return (
        r.standing
        and battle.can_react(r)
        and battle.current != r.id
        and r.immediate_round != battle.round
    )


def spend_immediate(battle: Battle, r: Combatant) -> None:
    """Count `r`'s one immediate action of the round (readied actions too, X-ACT-1)."""
    r.immediate_round = battle.round


def _matches(
    battle: Battle,
    r: Combatant,
    power: Power,
    subject: Combatant,
    by: Combatant | None,
    melee: bool,
    moved: tuple[tuple[Square, ...], tuple[Square, ...]] | None,
) -> bool:
    """Does this moment set off `r`'s `power`? (who the trigger is about, and how near)"""
    trig = power.trigger
    assert trig is not None
    on = trig.when
    if on in ("hit", "missed", "damaged", "self_bloodied", "self_dropped"):
        if subject.id != r.id:
            return False
        if on in ("hit", "missed"):
            return by is not None and by.side != r.side and (melee or not trig.melee_only)
        return True
    if on in ("ally_bloodied", "ally_dropped"):
        near = distance(battle.squares(r), battle.squares(subject)) <= trig.range
        return subject.side == r.side and subject.id != r.id and near
    if on in ("enemy_enters", "enemy_leaves"):
        if subject.side == r.side or moved is None:
            return False
        before, after = (distance(battle.squares(r), sq) <= trig.range for sq in moved)
        return (not before and after) if on == "enemy_enters" else (before and not after)
    who = trig.creature  # turn_start / turn_end
    if who == "enemy":
        return subject.side != r.side
    if who == "ally":
        return subject.side == r.side and subject.id != r.id
    return who in (subject.id, subject.creature.id)


def _use(
    battle: Battle, r: Combatant, power: Power, subject: Combatant, by: Combatant | None
) -> tuple[UsePower, list[str]] | None:
    """The use of `power` this trigger allows, with its targets, or None: an enemy target
    is the creature that set it off (the attacker, the mover, whose turn it is), an ally
    target the creature the trigger is about."""
    from engine.powers import resolve_targets, usable_refusal

    if usable_refusal(battle, r, power, triggered=True) is not None:
        return None
    if power.kind == "personal" or power.target == "self" or power.kind == "close":
        try:
            act = UsePower(power.id)
            return act, resolve_targets(battle, r, power, act)
        except Impossible:
            return None
    order = (by, subject) if power.target in ("enemy", "creature") else (subject, by)
    for cand in order:
        if cand is None or not cand.alive:
            continue
        act = UsePower(power.id, (cand.id,))
        try:
            return act, resolve_targets(battle, r, power, act)
        except Impossible:
            continue
    return None


SELF_KINDS = frozenset(("hit", "missed", "damaged", "self_bloodied", "self_dropped"))
"""Triggers about the creature itself: only the subject's own powers can match (`_matches`)."""


def _entries(battle: Battle, on: str, subject: Combatant | None) -> list[tuple[str, Power]] | None:
    """The (creature id, power) entries `_reactors` orders: `fire` and `pending` ask first,
    on every hit, damage and step, and stop at once when there are none (`_index` inlined)."""
    hit: _Index | None = battle.memo.get(_MEMO)
    if hit is None or hit.roster != battle.combatants.version:
        hit = _build(battle)
    if subject is not None and on in SELF_KINDS:
        return hit.by_self.get((on, subject.id))
    return hit.by_kind.get(on)


def _reactors(
    battle: Battle, on: str, subject: Combatant | None = None
) -> Iterator[tuple[Combatant, Power]]:
    """Creatures with a power triggered by `on`, in initiative order (a fixed order, so a
    replay asks the same questions). `subject`: leave out the powers that can't match
    (`SELF_KINDS`: the subject's own only), which `_matches` would refuse anyway."""
    entries = _entries(battle, on, subject)
    if not entries:
        return
    if len(entries) == 1:  # nothing to order
        yield battle[entries[0][0]], entries[0][1]
        return
    rank = {cid: i for i, cid in enumerate(battle.order)}
    for cid, power in sorted(entries, key=lambda e: (rank.get(e[0], len(rank)), e[0])):
        yield battle[cid], power


def _offers(
    battle: Battle,
    on: str,
    interrupt: bool,
    subject: Combatant,
    by: Combatant | None,
    melee: bool,
    moved: tuple[tuple[Square, ...], tuple[Square, ...]] | None,
) -> Iterator[tuple[Combatant, Power, UsePower, list[str]]]:
    """Each triggered power this moment offers, with the use it would make."""
    want = "immediate_interrupt" if interrupt else "immediate_reaction"
    for r, power in list(_reactors(battle, on, subject)):
        if power.action != want or not may_react(battle, r):
            continue
        if not _matches(battle, r, power, subject, by, melee, moved):
            continue
        use = _use(battle, r, power, subject, by)
        if use is not None:
            yield r, power, use[0], use[1]


def pending(
    battle: Battle,
    on: str,
    *,
    interrupt: bool,
    subject: Combatant,
    by: Combatant | None = None,
    melee: bool = False,
    moved: tuple[tuple[Square, ...], tuple[Square, ...]] | None = None,
) -> bool:
    """Might `fire` with these arguments ask anyone? (A move logs its path so far first,
    so that the mover stands where the trigger finds it; whether the power then has a
    legal target is `fire`'s to judge.)"""
    if not _entries(battle, on, subject):
        return False
    want = "immediate_interrupt" if interrupt else "immediate_reaction"
    return any(
        power.action == want
        and may_react(battle, r)
        and _matches(battle, r, power, subject, by, melee, moved)
        for r, power in _reactors(battle, on, subject)
    )


def fire(
    battle: Battle,
    on: str,
    *,
    interrupt: bool,
    subject: Combatant,
    by: Combatant | None = None,
    melee: bool = False,
    moved: tuple[tuple[Square, ...], tuple[Square, ...]] | None = None,
) -> bool:
    """`on` happens to `subject` (caused by `by`): offer each matching triggered power
    (interrupts when `interrupt`, else reactions) to its creature's controller, and use the
    ones taken. `moved`: a mover's squares before and after a step (enter/leave triggers).
    True if any was taken."""
    if not _entries(battle, on, subject):
        return False  # the common case: no power in the fight answers this moment
    from engine.powers import resolve

    taken_any = False
    for r, power, act, targets in _offers(battle, on, interrupt, subject, by, melee, moved):
        question = _question(battle, r, power, on, by, targets, interrupt)
        taken = bool(battle.ask(question))
        battle.emit(Triggered(r.id, power.id, on, by.id if by else None, interrupt, taken))
        if not taken:
            continue
        taken_any = True
        spend_immediate(battle, r)
        if power.usage != "at-will":
            r.used_powers.add(power.id)
        battle.emit(ActionSpent(r.id, "immediate", power.id))
        resolve(battle, r, power, act, targets)
        battle.moved()
    return taken_any


def _question(
    battle: Battle,
    r: Combatant,
    power: Power,
    on: str,
    by: Combatant | None,
    targets: list[str],
    interrupt: bool,
) -> TriggerQuestion:
    """The question with the engine's odds against the one target (the app shows them)."""
    from engine.preview import preview

    target = targets[0] if len(targets) == 1 and targets[0] != r.id else None
    hit = expected = None
    if target is not None and power.attack is not None:
        pv = preview(battle, r, battle[target], power)
        if pv is not None:
            hit, expected = round(pv.hit, 4), round(pv.expected_damage, 2)
    return TriggerQuestion(
        r.id, power.id, on, by.id if by else None, target, interrupt, hit, expected
    )
