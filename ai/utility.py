"""What effects are worth, in hit points, and the powers with no attack roll that carry them.

Attack scoring (`ai.scoring`) counts the conditions a hit lays on an enemy with
`condition_value`. The rest is for powers with no attack roll and for sustained effects:
healing (hit points restored to hurt allies, worth more when bloodied, most when dying),
temporary hit points, bonuses to defenses (the damage they avert), to attacks and damage (the
damage they add), invisibility (combat advantage, -5 to be hit, no opportunity attacks from
those that can't see), saves granted against save-ends effects, conditions laid on enemies.
`utilities(ctx)` lists what the deciding creature could do this turn with such powers and
with the effects it may sustain, each with its worth and the action it costs; the planner
(`ai.planner`) weighs them against moving and attacking.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ai.position import close_area
from engine.actions import Action, Sustain, UsePower
from engine.battle import GRANTS_CA_TO_SOURCE
from engine.content.schema import EffectSpec, Heal, Outcome, Power
from engine.dice import DiceExpr
from engine.effects import sustainable
from engine.immunity import immune_to_effects
from engine.preview import damage_expr
from engine.refusals import Refusal
from engine.state import ActiveEffect, Combatant

Square = tuple[int, int]

if TYPE_CHECKING:
    from ai.scoring import Context

COND_VALUE = {
    "stunned": 1.0,
    "unconscious": 1.0,
    "dazed": 0.5,
    "weakened": 0.5,
    "restrained": 0.5,
    "blinded": 0.45,
    "immobilized": 0.3,
    "prone": 0.25,
    "slowed": 0.15,
    "marked": 0.1,
}
"""A condition's worth as a share of the target's damage per round (per round it lasts)."""
DURATION_ROUNDS = {
    "save_ends": 2.0,
    "end_of_next_turn": 1.0,
    "start_of_next_turn": 0.6,
    "end_of_encounter": 3.0,
    "sustain_standard": 1.5,
    "sustain_move": 1.5,
    "sustain_minor": 1.5,
}
BUFF_ROUNDS = {
    **DURATION_ROUNDS,
    "sustain_standard": 2.5,
    "sustain_move": 2.5,
    "sustain_minor": 3.0,
}
"""Rounds a bonus on my side lasts: one it sustains lasts as long as it is worth sustaining."""
DEFENSE_SHARE = {"ac": 0.7, "fortitude": 0.15, "reflex": 0.15, "will": 0.15, "defenses": 1.0}
"""The share of enemy attacks a bonus to that defense applies to (most attacks are vs AC)."""
SAVE_CHANCE = 0.55
GRANTS = {"grants_ca": 2.0, GRANTS_CA_TO_SOURCE: 1.0}
"""Combat advantage an effect makes its target grant: to my whole side (counted as two
attackers) or to the effect's source alone."""

Parts = tuple[tuple[str, ...], int, tuple[tuple[str, int], ...]]
"""An effect as valued here: (conditions, ongoing damage, modifiers (stat, value))."""


def parts_of(eff: EffectSpec | ActiveEffect) -> Parts:
    if isinstance(eff, ActiveEffect):
        return eff.conditions, eff.ongoing, eff.modifiers
    ongoing = eff.ongoing.amount if eff.ongoing is not None else 0
    return tuple(eff.conditions), ongoing, tuple((m.stat, m.value) for m in eff.modifiers)


# --- effects on enemies (what a hit or a zone lays on them) --------------------------------
def condition_value(ctx: Context, p: Power, t: Combatant, hit: float) -> float:
    """The conditions, ongoing damage and penalties `p` lays on enemy `t` (chance-weighted).
    The worth of each outcome is the same all decision long: worked out once per target."""
    key = (p.id, t.id)
    parts = ctx.c.conditions_on.get(key)
    if parts is None:
        parts = ctx.c.conditions_on[key] = _outcomes_on_enemy(ctx, p, t)
    total = 0.0
    for which, worth in parts:
        chance = hit if which == 0 else (1.0 - hit if which == 1 else 1.0)
        if chance <= 0:
            continue
        total += chance * worth
    return total


def _outcomes_on_enemy(ctx: Context, p: Power, t: Combatant) -> tuple[tuple[int, float], ...]:
    if immune_to_effects(t.creature, p) is not None:
        return ()  # none of its effects land (the engine's rule, issue 16)
    out = []
    for which, spec in enumerate((p.hit, p.miss, p.effect)):
        if spec is None or not (spec.effects or spec.forced):
            continue
        out.append((which, _outcome_on_enemy(ctx, spec, t)))
    return tuple(out)


def _outcome_on_enemy(ctx: Context, spec: Outcome, t: Combatant) -> float:
    has = ctx.conditions_of(t)
    total = 0.0
    for eff in spec.effects:
        if eff.to == "target":
            total += on_enemy(ctx, parts_of(eff), t, has, DURATION_ROUNDS.get(eff.duration, 1.0))
    if spec.forced is not None:
        total += 0.3
    return total


def on_enemy(ctx: Context, parts: Parts, t: Combatant, has: set[str], rounds: float) -> float:
    conditions, ongoing, modifiers = parts
    danger = ctx.danger(t).melee
    v = 0.0
    for c in conditions:
        if c not in has:
            v += COND_VALUE.get(c, 0.1) * danger * rounds
    v += ongoing * rounds
    for stat, value in modifiers:
        if stat == "attack" and value < 0:
            v += 0.05 * -value * danger * rounds
        elif stat in DEFENSE_SHARE and value < 0:
            v += 0.25 * -value * rounds
        elif stat == "speed" and value < 0:
            v += 0.1 * rounds
        elif stat in GRANTS:  # +2 to hit it (F-MOD-1): about a tenth more of a hit's damage
            v += 0.1 * ctx.best_at_will_mean() * GRANTS[stat] * rounds
    return v


# --- effects on my side ---------------------------------------------------------------------
def incoming(ctx: Context, t: Combatant) -> float:
    """Expected damage `t` takes next round: the enemies that can reach it (all of what those
    next to it deal, half of what those a move away deal, 40% of the shooters in range),
    shared with the allies close to it. Memoized per decision."""
    hit = ctx.c.incoming.get(t.id)
    if hit is not None:
        return hit
    x, y = t.pos
    total = 0.0
    for e in ctx.f.enemies:
        d = ctx.danger(e)
        gap = max(0, max(abs(e.pos[0] - x), abs(e.pos[1] - y)) - max(e.size, t.size) + 1)
        if gap <= d.reach:
            total += d.melee
        elif gap <= d.speed + d.reach:
            total += 0.5 * d.melee
        elif d.ranged and gap <= d.rng:
            total += 0.4 * d.ranged
    near = sum(
        1
        for a in (ctx.f.me, *ctx.f.allies)
        if a.id != t.id and max(abs(a.pos[0] - x), abs(a.pos[1] - y)) <= 2
    )
    total /= 1.0 + 0.35 * min(near, 3)
    ctx.c.incoming[t.id] = total
    return total


def output(ctx: Context, a: Combatant) -> float:
    """Mean damage a hit of `a`'s best at-will attack deals, if an enemy is within its reach
    after a move (0: out of the fight this round). Memoized per decision."""
    hit = ctx.c.output.get(a.id)
    if hit is not None:
        return hit
    best = 0.0
    speed = ctx.f.b.speed(a)
    for p in a.powers:
        if p.attack is None or p.usage != "at-will" or p.hit is None or p.hit.damage is None:
            continue
        rng = (p.range or 0) if p.kind in ("ranged", "area") else (p.reach or a.reach)
        if not any(
            max(abs(e.pos[0] - a.pos[0]), abs(e.pos[1] - a.pos[1])) <= speed + rng + e.size
            for e in ctx.f.enemies
        ):
            continue
        expr: DiceExpr = damage_expr(ctx.f.b, a, p.hit.damage, a.weapon_for(p))
        best = max(best, expr.mean())
    ctx.c.output[a.id] = best
    return best


def on_ally(ctx: Context, parts: Parts, t: Combatant, rounds: float) -> float:
    """A bonus (or penalty) on `t` of my side: defenses by the damage they avert, attack and
    damage by what they add to its attacks, invisibility (`invisibility`)."""
    conditions, ongoing, modifiers = parts
    v = -ongoing * rounds
    for c in conditions:
        if c == "invisible":
            v += invisibility(ctx, t, rounds)
        elif c == "insubstantial" and c not in ctx.conditions_of(t):
            v += 0.5 * incoming(ctx, t) * rounds
        elif c in COND_VALUE:
            v -= COND_VALUE[c] * max(output(ctx, t), 4.0) * rounds
    for stat, value in modifiers:
        if stat in DEFENSE_SHARE:
            v += 0.05 * value * DEFENSE_SHARE[stat] * incoming(ctx, t) * rounds
        elif stat == "attack":
            v += 0.05 * value * output(ctx, t) * rounds
        elif stat == "damage":
            v += 0.6 * value * (1.0 if output(ctx, t) > 0 else 0.0) * rounds
        elif stat == "speed" and value > 0:
            v += 0.2 * value * rounds
        elif stat == "saves":
            v += 0.1 * value * _save_ends_harm(ctx, t)
    return v


def invisibility(ctx: Context, t: Combatant, rounds: float) -> float:
    """Combat advantage on its attacks (+2: a tenth more hits), -5 on the attacks of the
    enemies that can't see it (a quarter of what they would deal) and no opportunity attacks
    from them when it moves: a lurker's or a thief's way to strike."""
    if "invisible" in ctx.conditions_of(t):
        return 0.0
    attacks = 1.0 + rounds if t is ctx.f.me else rounds
    offence = 0.1 * output(ctx, t) * attacks
    defence = 0.3 * incoming(ctx, t) * rounds
    oa = 0.5 * sum(ctx.oa_cost) if t is ctx.f.me else 0.0
    bonus = ctx.f.w.concealment if t is ctx.f.me and output(ctx, t) > 0 else 0.0
    return offence + defence + oa + bonus


def heal_value(ctx: Context, heal: Heal, t: Combatant) -> float:
    """Hit points restored, worth more the closer `t` is to dropping; a fallen ally back on
    its feet is worth most. Temporary hit points by the damage they would soak."""
    if not t.alive:
        return 0.0
    v = 0.0
    if heal.surge and t.surges <= 0:
        amount = 0.0  # no surge, no healing (the engine says so and heals nothing)
    else:
        amount = float(heal.bonus)
        if heal.ability is not None:
            amount += ctx.f.me.creature.abilities.mod(heal.ability)
        if heal.dice:
            amount += DiceExpr.parse(heal.dice).mean()
        if heal.surge:
            amount += t.surge_value
    if amount > 0:
        if t.hp <= 0:
            v += 12.0 + min(amount, t.max_hp)
        else:
            restored = min(amount, t.max_hp - t.hp)
            if t.hp <= t.max_hp // 4:
                v += 1.3 * restored
            elif t.hp <= t.bloodied_value:
                v += 1.0 * restored
            else:
                v += 0.3 * restored
    if heal.temp_hp and t.hp > 0:
        v += 0.8 * min(max(heal.temp_hp - t.temp_hp, 0), 2.0 * incoming(ctx, t))
    return v


def _save_ends_harm(ctx: Context, t: Combatant) -> float:
    """What the save-ends effects on `t` cost its side per round."""
    harm = 0.0
    for eff in ctx.f.b.effects.values():
        if eff.target != t.id or eff.duration != "save_ends":
            continue
        harm += eff.ongoing
        for c in eff.conditions:
            harm += COND_VALUE.get(c, 0.1) * max(output(ctx, t), 4.0)
        for stat, value in eff.modifiers:
            if stat in DEFENSE_SHARE and value < 0:
                harm += 0.05 * -value * DEFENSE_SHARE[stat] * incoming(ctx, t)
    return harm


def outcome_on(
    ctx: Context, spec: Outcome, t: Combatant, healed: frozenset[str] = frozenset()
) -> float:
    """What an attackless power's outcome is worth on one creature it affects (`healed`:
    creatures already healed this turn, whose healing is counted there)."""
    mine = t.side == ctx.f.me.side
    v = 0.0
    if spec.heal is not None and mine and t.id not in healed:
        v += heal_value(ctx, spec.heal, t)
    for eff in spec.effects:
        if eff.to != "target":
            continue
        rounds = (BUFF_ROUNDS if mine else DURATION_ROUNDS).get(eff.duration, 1.0)
        if mine:
            v += on_ally(ctx, parts_of(eff), t, rounds)
        else:
            v += on_enemy(ctx, parts_of(eff), t, ctx.conditions_of(t), rounds)
    if spec.grant_save and mine:
        v += SAVE_CHANCE * 1.5 * _save_ends_harm(ctx, t)
    return v


def self_value(ctx: Context, spec: Outcome) -> float:
    """The effects an outcome puts on its user ("to: self")."""
    v = 0.0
    for eff in spec.effects:
        if eff.to == "self":
            v += on_ally(ctx, parts_of(eff), ctx.f.me, BUFF_ROUNDS.get(eff.duration, 1.0))
    return v


def usage_cost(p: Power, value: float) -> float:
    """What using up an encounter, daily or recharge power costs: a share of its value plus
    a base (keeping it for later is worth something); nothing for an at-will."""
    if p.usage == "at-will":
        return 0.0
    share = {"recharge": 0.05, "encounter": 0.1, "daily": 0.3}[p.usage]
    base = {"recharge": 0.0, "encounter": 0.5, "daily": 3.0}[p.usage]
    return share * max(value, 0.0) + base


# --- what it could do this turn -------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Utility:
    """A power with no attack roll, or a sustained effect, with its net worth this turn."""

    action: Action
    kind: str
    """The action it costs: "minor", "move", "standard" or "free"."""
    value: float
    text: str
    """What it does, for the explanation: "sustains Gravity Well", "Cure on Kael"."""
    healed: tuple[str, ...] = ()
    """The creatures it heals."""


def utilities(ctx: Context, healed: frozenset[str] = frozenset()) -> list[Utility]:
    """Every attackless power the creature could use now and every effect it may sustain,
    with a positive net worth, best first (legality is checked by the planner). `healed`:
    creatures healed earlier this turn (their healing is not counted twice)."""
    out: list[Utility] = []
    b = ctx.f.b
    for eff in sustainable(b, ctx.f.me):
        v = sustain_value(ctx, eff)
        if v > 0.2:
            kind = eff.duration.removeprefix("sustain_")
            out.append(Utility(Sustain(eff.id), kind, v, f"sustains {eff.name}"))
    for p, refusal in ctx.f.enc.power_refusals():
        if p.attack is not None or p.effect is None:
            continue
        if refusal is not None and refusal.code is not Refusal.NO_ACTION_LEFT:
            continue
        if p.action not in ("minor", "move", "standard", "free"):
            continue
        u = power_utility(ctx, p, healed)
        if u is not None:
            out.append(u)
    out.sort(key=lambda u: -u.value)
    return out


def heals_out_of_reach(ctx: Context) -> list[tuple[tuple[Square, ...], int, float]]:
    """The minor-action heals the creature could give an ally now out of their range: for
    each, (the ally's squares, the range, the net worth). A square in range is worth that much
    more (`ai.position.square_value`): it walks to the ally it can save, and heals it then."""
    out = []
    for p, refusal in ctx.f.enc.power_refusals():
        spec = p.effect
        if p.attack is not None or spec is None or spec.heal is None or refusal is not None:
            continue
        if p.action not in ("minor", "free") or p.kind not in ("melee", "ranged"):
            continue
        if p.target == "self":
            continue
        near = set(ctx.f.enc.targets(p.id))
        rng = p.range or 1
        for a in [
            *ctx.f.allies,
            *(t for t in ctx.f.b.allies_of(ctx.f.me) if t.hp <= 0 and t.alive),
        ]:
            if a.id in near:
                continue
            v = outcome_on(ctx, spec, a)
            v -= usage_cost(p, v)
            if v > 1.0:
                out.append((ctx.f.b.squares(a), rng, v))
    return out


def sustain_value(ctx: Context, eff: ActiveEffect) -> float:
    """One more round of `eff`."""
    t = ctx.f.b.combatants.get(eff.target)
    if t is None or not t.alive:
        return 0.0
    if t.side == ctx.f.me.side:
        return on_ally(ctx, parts_of(eff), t, 1.0)
    if not t.standing and not eff.ongoing:
        return 0.0
    has = ctx.conditions_of(t) - set(eff.conditions)
    return on_enemy(ctx, parts_of(eff), t, has, 1.0)


def power_utility(ctx: Context, p: Power, healed: frozenset[str] = frozenset()) -> Utility | None:
    """The best use of attackless power `p` from where the creature stands, net of what
    spending it costs; None if it is worth nothing now."""
    spec = p.effect
    assert spec is not None
    me = ctx.f.me
    chosen: list[tuple[float, Combatant]] = []
    named = True
    if p.kind == "personal" or p.target == "self":
        chosen = [(outcome_on(ctx, spec, me, healed), me)]
        named = False
    elif p.kind == "close" and p.burst is not None:
        area = close_area(ctx.f.bmap, me.pos, me.size, p.burst, None)
        found = ctx.creatures_in(area, p, me.pos)
        if p.target == "ally_or_self" and me not in found:
            found.append(me)
        chosen = sorted(((outcome_on(ctx, spec, t, healed), t) for t in found), key=lambda x: -x[0])
        named = len(chosen) > p.targets
        chosen = chosen[: p.targets]
    elif p.kind in ("melee", "ranged"):
        ids = ctx.f.enc.targets(p.id)
        scored = sorted(
            ((outcome_on(ctx, spec, ctx.f.b[i], healed), ctx.f.b[i]) for i in ids),
            key=lambda x: -x[0],
        )
        chosen = [x for x in scored[: p.targets] if x[0] > 0]
    else:
        return None  # blasts and area bursts with no attack: none in the content yet
    if not chosen:
        return None
    value = sum(v for v, _ in chosen) + self_value(ctx, spec)
    value -= usage_cost(p, value)
    if value <= 0.3:
        return None
    targets = tuple(t.id for _, t in chosen) if named else ()
    if p.kind == "personal" or p.target == "self":
        text = p.name
    else:
        text = f"{p.name} on " + ", ".join(t.name for _, t in chosen)
    heals = tuple(t.id for _, t in chosen) if spec.heal is not None else ()
    return Utility(UsePower(p.id, targets), p.action, value, text, heals)
