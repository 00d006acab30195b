"""Hit points: damage with its adjustments, healing, temporary hit points, and the states
that follow (F-DMG-1..5, S-10, X-HP-1..3).

Every change of hit points goes through `deal_damage` or `heal`, which emit the `damage` /
`heal` event and a `state` event whenever the hit point state changes, so the log always
balances (`hp_after == hp_before - amount`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.battle import Battle
from engine.events import Damage, Heal, Mod, StateChange, TempHp
from engine.immunity import immune_to_damage
from engine.state import STANDING, Combatant, HpState
from engine.triggers import any_for, fire


def adjust(
    battle: Battle,
    target: Combatant,
    rolled: int,
    types: tuple[str, ...],
    *,
    halve: Sequence[str],
    minimum: int = 0,
    reduction: int = 0,
) -> list[Mod]:
    """Adjustments to `rolled` in the order the rules apply them: halving, then resistance,
    then vulnerability, then a minimum, then damage reduction (d20srd D-11: it may take the
    damage to 0), then temporary hit points soak the rest."""
    mods: list[Mod] = []
    running = rolled
    if immune_to_damage(target.creature, types) and running > 0:  # issue 16: immunity
        return [Mod("immune", -running)]
    for source in halve:  # weakened attacker, insubstantial target, half damage on a miss
        cut = running - running // 2
        if cut:
            mods.append(Mod(source, -cut))
            running -= cut
    cr = target.creature
    if types:  # F-DMG-3: resist only if it resists every type, and then the lowest
        resists = [cr.resist.get(t, 0) for t in types]
        if all(resists) and running > 0:
            cut = min(min(resists), running)
            mods.append(Mod("resist", -cut))
            running -= cut
        vuln = sum(cr.vulnerable.get(t, 0) for t in types)  # F-DMG-4
        if vuln:
            mods.append(Mod("vulnerable", vuln))
            running += vuln
    if minimum and running < minimum:  # 4srd S-5, d20srd D-7
        mods.append(Mod("minimum", minimum - running))
        running = minimum
    if reduction and running > 0:  # d20srd D-11
        cut = min(reduction, running)
        mods.append(Mod("damage_reduction", -cut))
        running -= cut
    if target.temp_hp and running > 0:  # X-HP-3: temporary hit points go first
        soak = min(target.temp_hp, running)
        mods.append(Mod("temporary_hp", -soak))
    return mods


def deal_damage(
    battle: Battle,
    target: Combatant,
    *,
    source: Combatant | None,
    power: str | None,
    cause: str,
    dice: str,
    rolls: tuple[int, ...],
    rolled: int,
    types: tuple[str, ...],
    adjustments: list[Mod],
    crit_extra: dict[str, object] | None = None,
) -> int:
    amount = rolled
    for m in adjustments:
        amount += m.value
        if m.source == "temporary_hp":
            target.temp_hp += m.value  # X-HP-3: what the temporary hit points soaked
    amount = max(0, amount)
    before = target.hp
    holds = battle.ruleset.state_holds_above(target)
    target.hp = before - amount
    target.damage_taken += amount
    if source is not None and source.side != target.side:
        source.damage_dealt += amount
    battle.emit(
        Damage(
            target.id,
            source.id if source else None,
            power,
            cause,
            dice,
            rolls,
            crit_extra,
            rolled,
            types,
            tuple(adjustments),
            amount,
            before,
            target.hp,
            target.temp_hp,
        )
    )
    if holds is None or target.hp <= holds:  # else the state is as it was (X-HP-1)
        update_state(battle, target, source, hurt=amount > 0)
    if amount > 0 and target.state in STANDING and any_for(battle, "damaged"):
        fire(battle, "damaged", interrupt=False, subject=target, by=source)
    return amount


def heal(battle: Battle, target: Combatant, amount: int, source: str | None, surge: bool) -> None:
    """X-HP-3: healing below 0 starts from 0; never above maximum."""
    before = target.hp
    if target.state == "dead":
        return
    target.hp = min(target.max_hp, max(0, before) + amount)
    battle.emit(Heal(target.id, source, amount, before, target.hp, surge))
    # Failed death saves are not reset by healing: no clause says so (S-10 counts three
    # failures; the usual 4e rule resets them only with a rest, which no encounter has).
    update_state(battle, target)


def stabilize(battle: Battle, c: Combatant) -> None:
    """A dying creature becomes stable: no more death saving throws (issue 16)."""
    if c.state == "dying":
        c.state = "stable"
        battle.emit(StateChange(c.id, "stable", c.hp))


def spend_surge(battle: Battle, target: Combatant, extra: int, source: str | None) -> bool:
    """X-HP-2: spend a healing surge to regain the surge value (+ extra). False if none left."""
    if target.surges <= 0 or target.state == "dead":
        return False
    target.surges -= 1
    heal(battle, target, target.surge_value + extra, source, surge=True)
    return True


def gain_temp_hp(battle: Battle, target: Combatant, amount: int) -> None:
    """X-HP-3: temporary hit points don't stack; keep the higher."""
    if amount > target.temp_hp:
        target.temp_hp = amount
    battle.emit(TempHp(target.id, amount, target.temp_hp))


def update_state(
    battle: Battle, c: Combatant, source: Combatant | None = None, *, hurt: bool = False
) -> None:
    """Set the state that follows from hit points (the ruleset's); a stable creature stays
    stable below 0 until damage makes it dying again (issue 16, the usual 4e rule).
    `source`: who did it, for the triggered powers that a drop or a bloodying sets off."""
    new = _new_state(battle, c, hurt)
    if new not in ("healthy", "bloodied") and c.standing and any_for(battle, "self_dropped"):
        # a "when reduced to 0 hit points" interrupt goes off as the creature falls
        fire(battle, "self_dropped", interrupt=True, subject=c, by=source)
        new = _new_state(battle, c, hurt)
    if new != c.state:
        was = c.state
        was_standing = c.standing
        c.state = new
        battle.emit(StateChange(c.id, new, c.hp))
        if was_standing and not c.standing:
            c.drops += 1
        if new == "dead" or not c.standing:
            battle.moved()
            from engine.effects import creature_dropped

            creature_dropped(battle, c)
        _state_triggers(battle, c, was, source)


def _new_state(battle: Battle, c: Combatant, hurt: bool) -> HpState:
    new = battle.ruleset.hp_state(c)
    if c.state == "stable" and new == "dying" and not hurt:
        new = "stable"
    return new


def _state_triggers(battle: Battle, c: Combatant, was: str, source: Combatant | None) -> None:
    """Reactions to a creature becoming bloodied or dropping (docs/content.md, Triggered
    powers): its own, then its allies'."""
    if was == "healthy" and c.state == "bloodied":
        if any_for(battle, "self_bloodied"):
            fire(battle, "self_bloodied", interrupt=False, subject=c, by=source)
        if any_for(battle, "ally_bloodied"):
            fire(battle, "ally_bloodied", interrupt=False, subject=c, by=source)
    elif was in ("healthy", "bloodied") and not c.standing and any_for(battle, "ally_dropped"):
        fire(battle, "ally_dropped", interrupt=False, subject=c, by=source)
