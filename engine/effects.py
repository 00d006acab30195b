"""Effects with durations, ongoing damage and saving throws (F-DUR-*, F-DMG-6..9, F-SAV-*).

An effect is created from an `EffectSpec` and lives in `Battle.effects` until its duration
says it ends: at the start or end of its owner's turn, at the end of the encounter, on a
successful saving throw, or when its owner stops sustaining it.
"""

from __future__ import annotations

from engine.battle import GRANTS_CA_TO_SOURCE, Battle
from engine.content.schema import EffectSpec
from engine.decisions import SaveOrderQuestion
from engine.events import EffectEnd, EffectStart, Mod, Save
from engine.hp import adjust, deal_damage
from engine.state import ActiveEffect, Combatant

SUSTAIN = {"sustain_standard": "standard", "sustain_move": "move", "sustain_minor": "minor"}


def add_effect(
    battle: Battle,
    spec: EffectSpec,
    target: Combatant,
    source: Combatant | None,
    fallback_name: str,
    *,
    extra: tuple[tuple[str, int], ...] = (),
) -> ActiveEffect | None:
    """Start an effect; returns None when it had no lasting part (nothing to track).

    `extra` adds modifier parts that content can't name (running's and a Bluff's combat
    advantage), so the engine's own effects are logged and expire like any other."""
    if not target.alive:
        return None
    owner = source if source is not None else target
    battle.effect_seq += 1
    eff = ActiveEffect(
        id=f"e{battle.effect_seq}",
        name=spec.name or fallback_name,
        target=target.id,
        source=source.id if source else None,
        owner=owner.id,
        duration=spec.duration,
        conditions=tuple(spec.conditions),
        ongoing=spec.ongoing.amount if spec.ongoing else 0,
        ongoing_type=spec.ongoing.type if spec.ongoing else None,
        modifiers=tuple((m.stat, m.value) for m in spec.modifiers) + _grants(spec) + extra,
        aftereffect=spec.aftereffect,
        owner_turns_at_start=owner.turns_started,
        sustained_turn=owner.turns_started,
        created_round=battle.round,
    )
    start(battle, eff)
    return eff


def _grants(spec: EffectSpec) -> tuple[tuple[str, int], ...]:
    """Content's `grants_ca` as the effect parts the attack rules read (F-MOD-1): every
    attacker, or only the effect's source (the part a Bluff uses, F-MOD-13)."""
    if spec.grants_ca == "all":
        return (("grants_ca", 1),)
    if spec.grants_ca == "source":
        return ((GRANTS_CA_TO_SOURCE, 2),)
    return ()


def start(battle: Battle, eff: ActiveEffect) -> None:
    if "marked" in eff.conditions:  # one mark at a time: a new mark supersedes the old one
        for old in list(battle.effects.values()):
            if old.target == eff.target and "marked" in old.conditions and old.source != eff.source:
                end(battle, old, "superseded")
    battle.effects[eff.id] = eff
    battle.emit(
        EffectStart(eff.id, eff.target, eff.source, eff.name, eff.duration, eff.owner, eff.parts())
    )
    if "prone" in eff.conditions or "restrained" in eff.conditions:
        battle.moved()


def end(battle: Battle, eff: ActiveEffect, reason: str) -> None:
    if battle.effects.pop(eff.id, None) is not None:
        battle.emit(EffectEnd(eff.id, eff.target, reason))


def remove_condition(battle: Battle, c: Combatant, condition: str, reason: str) -> None:
    """End every effect whose only part is `condition` (standing up ends `prone`)."""
    for eff in list(battle.effects.values()):
        if eff.target == c.id and condition in eff.conditions:
            end(battle, eff, reason)


def ongoing_at_turn_start(battle: Battle, c: Combatant) -> None:
    """F-DMG-6, F-DMG-8, F-DMG-9: each type once, the highest of each type."""
    best: dict[str | None, ActiveEffect] = {}
    for eff in battle.effects.values():
        if eff.target == c.id and eff.ongoing:
            cur = best.get(eff.ongoing_type)
            if cur is None or eff.ongoing > cur.ongoing:
                best[eff.ongoing_type] = eff
    for typ, eff in sorted(best.items(), key=lambda kv: kv[0] or ""):
        if not c.alive:
            return
        types = (typ,) if typ else ()
        halve = ["insubstantial"] if battle.has(c, "insubstantial") else []
        mods = adjust(battle, c, eff.ongoing, types, halve=halve)
        src = battle.combatants.get(eff.source) if eff.source else None
        deal_damage(
            battle,
            c,
            source=src,
            power=None,
            cause="ongoing",
            dice=str(eff.ongoing),
            rolls=(),
            rolled=eff.ongoing,
            types=types,
            adjustments=mods,
        )


def expire_at_turn_start(battle: Battle, c: Combatant) -> None:
    """F-DUR-2: "until the start of your next turn" effects owned by `c` end now."""
    for eff in list(battle.effects.values()):
        if (
            eff.owner == c.id
            and eff.duration == "start_of_next_turn"
            and c.turns_started > eff.owner_turns_at_start
        ):
            end(battle, eff, "expired")


def expire_at_turn_end(battle: Battle, c: Combatant) -> None:
    """F-DUR-3 and F-DUR-6 at the end of `c`'s turn."""
    for eff in list(battle.effects.values()):
        if eff.owner != c.id:
            continue
        if eff.duration == "end_of_next_turn" and c.turns_started > eff.owner_turns_at_start:
            end(battle, eff, "expired")
        elif eff.duration in SUSTAIN and eff.sustained_turn < c.turns_started:
            end(battle, eff, "not_sustained")


def expire_for_missed_turn(battle: Battle, c: Combatant) -> None:
    """F-DUR-2/3 when `c` is dead and its turn comes round no more: effects that last until
    the start or the end of its next turn end where that turn would have been."""
    for eff in list(battle.effects.values()):
        if eff.owner == c.id and eff.duration in ("start_of_next_turn", "end_of_next_turn"):
            end(battle, eff, "expired")


def sustainable(battle: Battle, c: Combatant) -> list[ActiveEffect]:
    """Effects `c` may sustain this turn: from the turn after creation, once a turn."""
    return [
        e
        for e in battle.effects.values()
        if e.owner == c.id and e.duration in SUSTAIN and e.sustained_turn < c.turns_started
    ]


def end_of_turn_saves(battle: Battle, c: Combatant) -> None:
    """F-SAV-1..4 and F-DMG-7: one save per save-ends effect, in the order `c` chooses;
    aftereffects begin only after all of them."""
    pending = [e for e in battle.effects.values() if e.target == c.id and e.duration == "save_ends"]
    if not pending:
        return
    ids = tuple(e.id for e in pending)
    order = battle.ask(SaveOrderQuestion(c.id, ids)) if len(ids) > 1 else list(ids)
    after: list[tuple[EffectSpec, str | None]] = []
    for eid in order:
        eff = battle.effects.get(eid)
        if eff is None or not c.alive:
            continue
        if saving_throw(battle, c, eff, "end_of_turn") and eff.aftereffect is not None:
            after.append((eff.aftereffect, eff.source))
    for spec, source in after:  # F-SAV-4: the aftereffect comes from whoever made the effect
        src = battle.combatants.get(source) if source is not None else None
        add_effect(battle, spec, c, src, spec.name or "aftereffect")


def saving_throw(battle: Battle, c: Combatant, eff: ActiveEffect, when: str) -> bool:
    natural = battle.d20(f"{c.name}: saving throw against {eff.name}", c.id)
    mods = save_mods(battle, c)
    total = natural + sum(m.value for m in mods)
    success = total >= 10
    battle.emit(Save(c.id, eff.id, when, natural, tuple(mods), total, success))
    if success:
        end(battle, eff, "save")
    return success


def save_mods(battle: Battle, c: Combatant) -> list[Mod]:
    """What adds to a saving throw of `c` (F-SAV-1): its own `save_bonus` (an elite's +2, a
    solo's +5) and the effects on it that change saves."""
    parts = (("save_bonus", c.creature.save_bonus), ("bonus", battle.modifier(c, "saves")))
    return [Mod(source, v) for source, v in parts if v]


def creature_dropped(battle: Battle, c: Combatant) -> None:
    """A creature that drops can't sustain its effects; a dead one sheds every effect on it."""
    for eff in list(battle.effects.values()):
        if eff.owner == c.id and eff.duration in SUSTAIN:
            end(battle, eff, "not_sustained")
        elif c.state == "dead" and eff.target == c.id:
            end(battle, eff, "dead")


FIVE_MINUTES = 50
"""Rounds in 5 minutes (a round is 6 seconds): the longest an "until the end of the
encounter" effect lasts (F-DUR-4) and the longest sustaining can go on (F-DUR-6)."""


def expire_long(battle: Battle) -> None:
    """At the start of a round: end-of-encounter and sustained effects made 5 minutes ago end."""
    for eff in list(battle.effects.values()):
        if (eff.duration == "end_of_encounter" or eff.duration in SUSTAIN) and (
            battle.round - eff.created_round >= FIVE_MINUTES
        ):
            end(battle, eff, "expired")


def end_all(battle: Battle) -> None:
    """F-DUR-4: everything ends with the encounter."""
    for eff in list(battle.effects.values()):
        end(battle, eff, "encounter_end")
