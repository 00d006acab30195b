"""One attack roll's numbers: every modifier with its source, the defense, and the odds.

`setup` gathers what F-ATK-1/2 and F-MOD-1..12 add to the d20 (base attack bonus, combat
advantage, cover, concealment, conditions, effects) and the defense it is compared with. The
same setup serves the roll (`engine.powers`) and the expectations the AI and the UI show
(`preview`), so what a player is told before attacking is what the engine then does.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.battle import Battle
from engine.content.checks import threat_low
from engine.content.schema import DamageSpec, Power, Weapon
from engine.dice import DiceExpr
from engine.events import Mod
from engine.flanking import flanking
from engine.grid import adjacent, concealment, cover, footprint
from engine.immunity import immune_to_damage, immune_to_effects
from engine.rulesets import Ruleset
from engine.state import Combatant

Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class AttackSetup:
    modifiers: tuple[Mod, ...]
    defense: int
    combat_advantage: bool
    flanking: bool
    cover: str
    concealment: str
    crit_low: int
    coup_de_grace: bool

    @property
    def bonus(self) -> int:
        return sum(m.value for m in self.modifiers)


@dataclass(frozen=True, slots=True)
class AttackPreview:
    """What a player sees before confirming, and what the AI scores."""

    hit: float
    """Chance to hit, critical hits included."""
    crit: float
    expected_damage: float
    setup: AttackSetup
    damage: str
    immune_damage: bool = False
    """The target takes none of this damage: immune to each of its types (issue 16)."""
    immune_effects: str | None = None
    """The keyword of the power the target is immune to: none of its effects land."""


def can_see(battle: Battle, viewer: Combatant, target: Combatant, at: Square | None = None) -> bool:
    """F-MOD-8, F-MOD-11: blinded viewers and invisible targets aren't seen. `at`: as if the
    viewer stood there."""
    if battle.flag(viewer, "cant_see") or battle.has(target, "invisible"):
        return False
    v_sq = battle.squares(viewer) if at is None else footprint(at, viewer.size)
    return concealment(battle.map, v_sq, battle.squares(target)) != "total"


def setup(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    power: Power,
    weapon: Weapon | None,
    origin: tuple[Square, ...] | None = None,
    *,
    all_targets: tuple[str, ...] = (),
    at: Square | None = None,
    extra: tuple[Mod, ...] = (),
) -> AttackSetup:
    """`at`: as if the attacker stood there (top-left square); the AI scores "if I stood at X"
    with it. None: where it stands. `extra`: modifiers a preview asks about (a full attack's
    iterative penalty); the roll's come from the action in progress (`action_modifiers`).
    Reads only."""
    assert power.attack is not None
    kind = power.kind
    a_sq = battle.squares(attacker) if at is None else footprint(at, attacker.size)
    t_sq = battle.squares(target)
    src_sq = origin if origin is not None and kind in ("close", "area") else a_sq
    mods = battle.ruleset.attack_modifiers(attacker, power, weapon)
    mods += battle.ruleset.situational_modifiers(
        battle, attacker, target, power, weapon, a_sq, t_sq
    )
    mods += battle.action_modifiers.get(attacker.id, ())  # d20srd iterative attacks
    mods += extra
    # Each creature's conditions read once (`Battle._conditions`): this runs on every attack.
    a_conds, a_flags = battle._conditions(attacker)
    t_conds, t_flags = battle._conditions(target)

    # F-MOD-8, F-MOD-11: as `can_see` (the viewer's squares are `a_sq`)
    if "invisible" in t_conds or "cant_see" in a_flags:
        conceal, seen = "total", False
    else:
        conceal = concealment(battle.map, a_sq, t_sq)
        seen = conceal != "total"

    ca, flank = False, False
    if seen:  # F-MOD-1: only against a target the attacker can see
        ca, flank = _advantage(
            battle, attacker, target, kind, a_sq, t_sq, at, a_conds, (t_conds, t_flags)
        )
    if ca:
        mods.append(Mod("combat_advantage", 2))
    cov = _cover(battle, attacker, target, kind, src_sq, t_sq)
    if cov in COVER_PENALTY:
        mods.append(Mod("cover", COVER_PENALTY[cov]))
    if kind in ("melee", "ranged") and conceal in CONCEALMENT_PENALTY:  # F-MOD-9
        mods.append(Mod("concealment", CONCEALMENT_PENALTY[conceal]))
    mods += _attacker_conditions(battle, attacker, all_targets or (target.id,), a_conds)
    # F-DUR-7: the same modifier from two effects counts once (as in `Battle.modifier`)
    mods += [Mod(name, v) for name, v in battle.modifier_parts(attacker, "attack") if v]

    vs = power.attack.vs
    defense = defense_value(
        battle, target, vs, attacker, kind, a_sq, touch=power.attack.touch, conds=t_conds
    )
    crit_low = threat_low(power, weapon)
    cdg = kind == "melee" and "helpless" in t_conds and adjacent(a_sq, t_sq)
    cdg = cdg and battle.ruleset.coup_de_grace_crits
    return AttackSetup(
        tuple(mods),
        defense,
        ca,
        flank,
        cov if cov != "blocked" else "superior",
        conceal,
        crit_low,
        cdg,
    )


COVER_PENALTY = {"cover": -2, "superior": -5}
"""F-MOD-5/6."""
CONCEALMENT_PENALTY = {"concealment": -2, "total": -5}
"""F-MOD-9."""


def _advantage(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    kind: str,
    a_sq: tuple[Square, ...],
    t_sq: tuple[Square, ...],
    at: Square | None,
    a_conds: frozenset[str],
    t_read: tuple[frozenset[str], frozenset[str]],
) -> tuple[bool, bool]:
    """(combat advantage, by flanking) against a target the attacker can see (F-MOD-1);
    `a_conds`: the attacker's conditions, `t_read`: the target's (conditions, flags)."""
    t_conds, t_flags = t_read
    granted = "grants_ca" in t_flags or battle.effect_flag(target, "grants_ca", attacker.id)
    prone_in_reach = "prone" in t_conds and kind == "melee" and adjacent(a_sq, t_sq)
    unseen = "invisible" in a_conds and not can_see(battle, target, attacker)
    if granted or prone_in_reach or unseen:  # conditions, running, F-MOD-11
        return True, False
    if kind in ("melee", "ranged") and flanking(battle, attacker, target, at):
        return True, True
    return False, False


def _cover(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    kind: str,
    src_sq: tuple[Square, ...],
    t_sq: tuple[Square, ...],
) -> str:
    if kind == "ranged":
        blockers = battle.occupancy().enemy_squares(attacker.side, exclude=(target.id,))
        return cover(battle.map, src_sq, t_sq, blockers=blockers)
    # F-MOD-5/6: terrain only against melee, close and area attacks
    return cover(battle.map, src_sq, t_sq, count_creatures=False)


def _attacker_conditions(
    battle: Battle, attacker: Combatant, targets: tuple[str, ...], conds: frozenset[str]
) -> list[Mod]:
    """Prone and restrained attackers (-2), and a marked one attacking none of its markers
    (`conds`: the attacker's conditions)."""
    out = [Mod(name, -2) for name in ("prone", "restrained") if name in conds]
    if "marked" in conds:
        markers = {
            e.source
            for e in battle.effects.values()
            if e.target == attacker.id and "marked" in e.conditions
        }
        if not markers & set(targets):
            out.append(Mod("marked", -2))
    return out


def defense_value(
    battle: Battle,
    target: Combatant,
    vs: str,
    attacker: Combatant | None,
    kind: str,
    attacker_squares: tuple[Square, ...] | None = None,
    *,
    touch: bool = False,
    conds: frozenset[str] | None = None,
) -> int:
    """The defense with every temporary change: effects, prone, unconscious (F-DEF-6).

    `attacker_squares`: where the attacker is taken to stand (default: where it stands).
    `touch`: a d20srd touch attack (D-3). `conds`: the target's conditions, when the caller
    has read them (`Battle._conditions`)."""
    if conds is None:
        conds = battle._conditions(target)[0]
    value = battle.ruleset.defense(target, vs, flat_footed="flat_footed" in conds, touch=touch)
    value += battle.modifier(target, vs)
    if "unconscious" in conds:
        value -= 5
    if "prone" in conds and kind == "ranged" and attacker is not None:
        a_sq = attacker_squares if attacker_squares is not None else battle.squares(attacker)
        if not adjacent(a_sq, battle.squares(target)):
            value += 2
    return value


def damage_expr(
    battle: Battle,
    attacker: Combatant,
    spec: DamageSpec,
    weapon: Weapon | None,
    *,
    multiply: bool = True,
) -> DiceExpr:
    """F-DMG-1: dice (n[W]) + ability modifier + enhancement + bonuses, as one expression.

    The ability part is the ruleset's (S-6, D-7); a `multiplier` multiplies it the ruleset's
    way (S-7, D-9) unless `multiply` is False (d20srd adds a critical's multiplier to it)."""
    wdice = DiceExpr.parse(weapon.dice) if weapon is not None else None
    expr = DiceExpr.parse(spec.dice, wdice)
    const = spec.bonus + battle.modifier(attacker, "damage")
    const += battle.ruleset.damage_bonus(attacker, spec, weapon)
    if weapon is not None and "[W]" in spec.dice.upper():
        const += weapon.enhancement
    expr = expr.with_constant(const)
    if multiply and spec.multiplier > 1:
        expr = battle.ruleset.multiply(expr, spec.multiplier)
    return expr


def outcome_odds(s: AttackSetup, ruleset: Ruleset | None = None) -> tuple[float, float]:
    """(chance of a hit of any kind, chance of a critical hit) for one d20, as `ruleset`
    judges it (d20srd: meet-or-beat and a confirmation roll); default: F-ATK-3..8."""
    if ruleset is not None:
        return ruleset.odds(s)
    need = s.defense - s.bonus
    hit = crit = 0
    for nat in range(2, 21):
        reaches = nat >= need
        if nat >= s.crit_low and reaches:
            crit += 1
        elif nat == 20 or reaches:
            hit += 1
            if s.coup_de_grace and reaches:
                crit, hit = crit + 1, hit - 1
    return (hit + crit) / 20, crit / 20


def preview(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    power: Power,
    origin: tuple[Square, ...] | None = None,
    at: Square | None = None,
    extra: tuple[Mod, ...] = (),
) -> AttackPreview | None:
    """Odds and expected damage of `power` against `target` (None if it makes no attack).

    `at`: as if the attacker stood at that square (top-left), for the AI; `extra`: further
    attack modifiers (a full attack's iterative -5s). Reads only."""
    if power.attack is None:
        return None
    weapon = attacker.weapon_for(power)
    s = setup(battle, attacker, target, power, weapon, origin, at=at, extra=extra)
    p_hit, p_crit = outcome_odds(s, battle.ruleset)
    expected = 0.0
    text = ""
    immune = False
    if power.hit is not None and power.hit.damage is not None:
        expr = damage_expr(battle, attacker, power.hit.damage, weapon)
        text = str(expr)
        means = battle.ruleset.damage_means(battle, attacker, target, power, weapon, expr)
        hit_dmg, crit_dmg = means
        expected = (p_hit - p_crit) * hit_dmg + p_crit * crit_dmg
        if power.miss is not None and power.miss.half_damage and not target.creature.minion:
            expected += (1 - p_hit) * (expr.mean() / 2)
        if battle.has(attacker, "weakened"):
            expected /= 2
        if battle.has(target, "insubstantial"):
            expected /= 2
        types = power.hit.damage.types
        if types and all(t in target.creature.resist for t in types):
            expected = max(0.0, expected - p_hit * min(target.creature.resist[t] for t in types))
        expected += p_hit * sum(target.creature.vulnerable.get(t, 0) for t in types)
        immune = immune_to_damage(target.creature, types)
    if immune:
        expected = 0.0
    keyword = immune_to_effects(target.creature, power)
    return AttackPreview(p_hit, p_crit, expected, s, text, immune, keyword)
