"""The scorer of the tactical AI: what each option is worth, from one decision's facts.

A `Context` is built once per decision. It holds the decision's immutable facts
(`ai.facts.Facts`: who decides, who stands where, who threatens whom), the values fixed once
worked out (what each threatening enemy's opportunity attack costs, how dangerous the worst
enemy is), its memo tables (`ai.caches.Caches`, one per question, each written by the one
function that answers it) and the side's memory (`ai.memory.SideMemory`: distance maps and
dangers shared by the side). It answers the questions the candidate generators ask: what an
attack on a target from a square is worth (`score_hit` over the engine's preview,
`ai.previews`), what ending the turn on a square is worth (`value`), how dangerous an enemy is.

Values are in hit points (see `ai.roles`): damage dealt, hit points of the targets dropped,
conditions as the damage they prevent, minus damage expected to be taken.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from ai.caches import Caches, RoughCreature
from ai.distances import Distances
from ai.facts import Facts, facts_of
from ai.memory import Danger, SideMemory
from ai.position import square_value
from ai.previews import damage_part
from ai.roles import Weights
from ai.utility import condition_value, usage_cost
from engine.attacks import condition_inputs
from engine.battle import Battle
from engine.content.schema import Power
from engine.dice import DiceExpr
from engine.encounter import Encounter
from engine.estimates import AttackBase, attack_base, estimate
from engine.flanking import Side, flank_sides, flanking
from engine.grid import distance, footprint, line_of_effect
from engine.powers import eligible, power_range
from engine.preview import AttackPreview, damage_expr
from engine.rulesets.base import Ruleset
from engine.state import Combatant

Square = tuple[int, int]


HitTerms = tuple[bool, bool, int, float | None, bool, float, float]
"""`Context._hit_terms`: (ally, standing, hit points at least 0, chance a hit's damage drops it
(None: it can't be dropped), does a critical hit's mean damage drop it, worth of dropping it,
focus on it)."""


@dataclass(frozen=True, slots=True)
class Hit:
    """One target of an attack option, as scored."""

    target: str
    hit: float
    expected: float
    drop: float
    flank: bool
    ally: bool
    value: float


class Context:
    """One decision of one creature: its facts, caches and the scorer's questions."""

    def __init__(self, enc: Encounter, me: Combatant, weights: Weights, memory: SideMemory) -> None:
        self.f: Facts = facts_of(enc, me, weights)
        self.c = Caches()
        self.side = memory
        f = self.f
        b = f.b
        oa_exp: list[float] = []
        oa_drop: list[float] = []
        near = b.speed(me) + 2
        mx, my = me.pos
        for eid in f.threat_ids:
            e = b[eid]
            p = e.basic_melee()
            # Only enemies whose reach the mover could leave this turn matter.
            far = max(abs(e.pos[0] - mx), abs(e.pos[1] - my)) > near + e.reach + e.size
            exp, drop = self.quick_attack(e, p) if p is not None and not far else (0.0, 0.0)
            oa_exp.append(exp)
            oa_drop.append(drop)
        self.oa_exp = tuple(oa_exp)
        """Per threatening enemy (`Facts.threat_ids` order): its opportunity attack's
        expected damage on me."""
        self.oa_drop = tuple(oa_drop)
        """... and its chance to drop me."""
        self.oa_cost = tuple(
            weights.oa * x * (1.0 + 2.0 * d) for x, d in zip(oa_exp, oa_drop, strict=True)
        )
        """... and what provoking it costs, in the role's weight."""
        max_danger = max((self.danger(e).melee for e in f.enemies), default=1.0)
        self.max_danger = max(max_danger, 1.0)
        self.two_moves = False
        """Whether `provoking.reckon_two_moves` has reckoned the enemies beyond one move."""

    # --- enemies -------------------------------------------------------------------------
    def danger(self, e: Combatant) -> Danger:
        """Expected damage of `e`'s best at-will melee and ranged attacks on my side: the
        engine's situation-free `estimate` against each of us at our bare defenses, averaged
        (kept per round by the side: a rough number that ranks squares and targets)."""
        mine = self.c.dangers.get(e.id)
        if mine is not None:
            return mine
        f = self.f
        key = (e.id, f.me.side, f.b.round)
        table = self.side.dangers
        kept = table.get(key)
        if kept is None:
            hit = self._danger(e)
            if len(table) > 4096:
                table.clear()
            table[key] = (self.side.tag, hit)
        else:
            hit = kept[1]
        self.c.dangers[e.id] = hit
        return hit

    def _danger(self, e: Combatant) -> Danger:
        melee = ranged = 0.0
        rng = 0
        b = self.f.b
        team = [self.f.me, *self.f.allies]
        kept = self._danger_parts(e)
        for p in e.powers:
            if p.attack is None or p.usage not in ("at-will", "recharge"):
                continue
            if p.kind not in ("melee", "ranged", "area", "close"):
                continue
            base = attack_base(b, e, p) if kept is None else _kept_base(kept, b, e, p)
            if base is None:
                continue
            vs = p.attack.vs
            # The ruleset's odds and damage on each of my side, at its bare defense.
            total = 0.0
            for t in team:
                if kept is None:
                    est = estimate(b, e, t, p, defense=b.ruleset.defense(t, vs), base=base)
                    total += est.expected if est is not None else 0.0
                else:
                    total += _kept_expected(kept, b, e, t, p, base)
            exp = total / len(team)
            if p.kind in ("melee", "close"):
                melee = max(melee, exp)
            else:
                ranged = max(ranged, exp)
                rng = max(rng, p.range or 0)
        return Danger(max(melee, ranged * 0.8), ranged, rng, b.speed(e), e.reach)

    def _danger_parts(self, e: Combatant) -> dict[object, object] | None:
        """What `_danger(e)` works out per power (`attack_base`) and per power and member of
        my side (the expected damage of `estimate`), kept per battle across rounds and
        deciders (issue 14: the side's table is per round and a sum over my side), for `e`
        as it is now: keyed by everything those read of `e` (its conditions' inputs,
        `engine.attacks.condition_inputs`, which cover the effects that hold its modifiers;
        its creature and powers), each entry by the member's creature (its defenses). None
        under a ruleset whose damage means read the situation (d20srd's sneak attack reads
        flanking): worked out every time."""
        b = self.f.b
        if type(b.ruleset).damage_means is not Ruleset.damage_means:
            return None
        version, state, acted, surprised, surprise_round, creature = condition_inputs(b, e)
        key = ("ai-danger", e.id, version, state, acted, surprised, surprise_round)
        hit = b.memo.get(key)
        if hit is not None and hit[0] is e.powers and hit[1] is creature:
            parts: dict[object, object] = hit[2]
            return parts
        parts = {}
        b.memo[key] = (e.powers, creature, parts)
        return parts

    def kill_value(self, t: Combatant) -> float:
        """Hit points' worth of dropping `t`: about two rounds of what it deals, plus a base."""
        if t.side == self.f.me.side:
            return 4.0 + 2.0 * 6.0
        return 4.0 + 2.0 * self.danger(t).melee

    def focus(self, t: Combatant) -> float:
        """Damage to a wounded, dangerous enemy is worth more (focus fire)."""
        wounded = 1.0 - max(0, t.hp) / max(1, t.max_hp)
        return (1.0 + 0.6 * wounded) * (0.8 + 0.4 * self.danger(t).melee / self.max_danger)

    def priority(self, t: Combatant) -> float:
        """A rough worth of attacking `t`, before any preview: the value of dropping it per
        hit point it has left, times focus (standing enemies only)."""
        if not t.standing:
            return 0.0
        return self.kill_value(t) * self.focus(t) / max(1, t.hp + t.temp_hp)

    # --- attacks -------------------------------------------------------------------------
    def expr(self, p: Power) -> DiceExpr | None:
        """The damage expression of my power `p` (None: it deals no damage)."""
        exprs = self.c.exprs
        if p.id not in exprs:
            spec = p.hit.damage if p.hit is not None else None
            me = self.f.me
            exprs[p.id] = (
                damage_expr(self.f.b, me, spec, me.weapon_for(p)) if spec is not None else None
            )
        return exprs[p.id]

    def quick_attack(self, attacker: Combatant, p: Power) -> tuple[float, float]:
        """(expected damage, chance to drop me) of `attacker`'s `p` on me: the engine's
        `estimate` (the ruleset's odds and damage, no situational modifiers). For opportunity
        attacks on a path not yet walked, where the engine's full preview would be precision
        the situation doesn't have."""
        b = self.f.b
        est = estimate(b, attacker, self.f.me, p)
        if est is None:
            return 0.0, 0.0
        need = max(1, self.f.hp_eff) * (2 if b.has(attacker, "weakened") else 1)
        drop = (est.hit - est.crit) * est.damage.prob_at_least(need) + est.crit * (
            est.crit_damage >= need
        )
        return est.expected, drop

    def score_hit(self, p: Power, t: Combatant, pv: AttackPreview) -> Hit:
        """Value of one target of an attack (negative for an ally caught in an area)."""
        key = (p.id, t.id)
        terms = self.c.hit_terms.get(key)
        if terms is None:
            terms = self.c.hit_terms[key] = self._hit_terms(p, t)
        ally, standing, hp_cap, at_least, crit_drops, kill, focus = terms
        hit = pv.hit
        expected = pv.expected_damage
        useful = min(expected, hit * hp_cap + 0.5) if standing else expected
        drop = 0.0
        if at_least is not None and not pv.immune_damage:
            crit = pv.crit
            drop = (hit - crit) * at_least + crit * crit_drops
        w = self.f.w
        if ally:
            value = -w.ally_hit * (useful + drop * kill)
        elif not standing:
            value = 0.15 * useful  # finishing the fallen matters little
        else:
            value = (
                w.damage * useful * focus
                + w.kill * drop * kill
                + w.condition * condition_value(self, p, t, hit)
            )
        return Hit(t.id, hit, expected, drop, pv.setup.flanking, ally, value)

    def _hit_terms(self, p: Power, t: Combatant) -> HitTerms:
        """What `score_hit` reads of my `p` on `t` besides the preview, the same all decision
        long: whether `t` is an ally and standing, its hit points (at least 0), the chance
        the damage drops it (None: no damage can) and whether a critical hit's mean does, and
        the worth of dropping it and the focus on it (asked only where `score_hit` reads
        them)."""
        ally = t.side == self.f.me.side
        hp_eff = t.hp + t.temp_hp
        if t.creature.minion:
            hp_eff = 1
        standing = t.standing
        expr = self.expr(p)
        at_least: float | None = None
        crit_drops = False
        if standing and expr is not None:
            need = max(1, hp_eff)
            if self.f.weakened:
                need *= 2
            if t.creature.insubstantial or "insubstantial" in self.conditions_of(t):
                need *= 2
            akey = (p.id, need)
            at_least = self.c.at_least.get(akey)
            if at_least is None:
                at_least = self.c.at_least[akey] = expr.prob_at_least(need)
            crit_drops = self.crit_damage(p, t) >= need
        kill = focus = 0.0
        if ally:
            kill = self.kill_value(t)
        elif standing:
            kill = self.kill_value(t)
            focus = self.focus(t)
        return ally, standing, max(hp_eff, 0), at_least, crit_drops, kill, focus

    def crit_damage(self, p: Power, t: Combatant) -> float:
        """The ruleset's mean damage of a critical hit of my `p` on `t` (`damage_means`): the
        second of the means in the decision's `DamagePart` of `p` on `t`, which asks the
        ruleset the very same question (`ai.previews.damage_part`; issue 14: asked once)."""
        means = damage_part(self, p, t).means
        return float(means[1]) if means is not None else 0.0

    def conditions_of(self, c: Combatant) -> set[str]:
        """`Battle.conditions`, once per creature per decision."""
        hit = self.c.conditions.get(c.id)
        if hit is None:
            hit = self.c.conditions[c.id] = self.f.b.conditions(c)
        return hit

    def spend_cost(self, p: Power, value: float, targets: list[Combatant]) -> float:
        """What using up an encounter, daily or recharge power costs (none for at-wills):
        `ai.utility.usage_cost`, and a prohibitive cost on a lone minion or on a target the
        at-will attacks would finish anyway."""
        if p.usage == "at-will":
            return 0.0
        cost = usage_cost(p, value)
        foes = [t for t in targets if t.side != self.f.me.side and t.standing]
        if p.usage in ("encounter", "daily") and len(foes) <= 1:
            lone = foes[0] if foes else None
            if (
                lone is None
                or lone.creature.minion
                or (lone.hp + lone.temp_hp <= 0.7 * self.best_at_will_mean())
            ):
                cost += 50.0
        return cost

    def best_at_will_mean(self) -> float:
        """Mean damage of my best at-will attack (its expression's), once per decision: every
        encounter or daily candidate on a lone enemy asks it."""
        kept = self.c.at_will_mean
        if kept is None:
            kept = self.c.at_will_mean = self._best_at_will_mean()
        return kept

    def _best_at_will_mean(self) -> float:
        best = 0.0
        for p in self.f.me.powers:
            if p.usage == "at-will" and p.attack is not None:
                e = self.expr(p)
                if e is not None:
                    best = max(best, e.mean())
        return best

    def rough_box(self, box: tuple[int, int, int, int], p: Power, at: Square) -> float:
        """Enemies an area spanning `box` (x0, y0, x1, y1; walls ignored) would catch, weighted
        by focus, minus the allies it would catch (weighted more), if I stood at `at`: the
        cheap ranking that decides which placements are worked out and scored exactly."""
        x0, y0, x1, y1 = box
        total = 0.0
        me = self.f.me
        rough = self.c.rough.get(p.id)
        if rough is None:
            rough = self._rough_creatures(p)
        for c, cx, cy, n, weight in rough:
            if c is me:
                cx, cy = at
            if cx + n <= x0 or cx > x1 or cy + n <= y0 or cy > y1:
                continue
            total += weight
        return total

    def rough_bursts(
        self, p: Power, centers: list[Square], r: int, size: int, moving: bool
    ) -> list[float]:
        """`rough_box` of the burst `r` around each of `centers` (the top-left square of a
        `size` block: the box from (x - r, y - r) to (x + size - 1 + r, y + size - 1 + r)),
        me standing at the center if `moving` (a close burst), else where I stand (an area
        burst), all at once (`centers` distinct). Each creature adds its weight to the
        centers whose box it touches, creature by creature in `rough_box`'s order, so every
        total is the very float `rough_box` gives; it costs the creatures' boxes, not
        centers times creatures."""
        totals = dict.fromkeys(centers, 0.0)
        me = self.f.me
        for c, cx, cy, n, weight in self._rough_creatures(p):
            if c is me and moving:  # in its own close burst wherever it stands
                for k in totals:
                    totals[k] += weight
                continue
            x0, x1 = cx - r - size + 1, cx + n - 1 + r
            y0, y1 = cy - r - size + 1, cy + n - 1 + r
            if (x1 - x0 + 1) * (y1 - y0 + 1) <= len(totals):
                for x in range(x0, x1 + 1):
                    for y in range(y0, y1 + 1):
                        k = (x, y)
                        if k in totals:
                            totals[k] += weight
            else:
                for k in totals:
                    if x0 <= k[0] <= x1 and y0 <= k[1] <= y1:
                        totals[k] += weight
        return [totals[k] for k in centers]

    def _rough_creatures(self, p: Power) -> list[RoughCreature]:
        hit = self.c.rough.get(p.id)
        if hit is not None:
            return hit
        f = self.f
        out = []
        for c in (f.me, *f.allies, *f.enemies):
            if not eligible(f.b, f.me, c, p):
                continue
            if c.side == f.me.side:
                weight = -1.5 * f.w.ally_hit
            else:
                weight = self.focus(c) * (2.0 if c.creature.minion else 1.0)
            out.append((c, c.pos[0], c.pos[1], c.size, weight))
        self.c.rough[p.id] = out
        return out

    def flank_sides(self, t: Combatant) -> frozenset[Side]:
        """`engine.flanking.flank_sides` for `t`, once per decision."""
        sides = self.c.flank_sides.get(t.id)
        if sides is None:
            sides = self.c.flank_sides[t.id] = flank_sides(self.f.b, self.f.me, t)
        return sides

    def flanks(self, at: Square, t: Combatant) -> bool:
        """`engine.flanking.flanking(at=...)`, with the allies' part (`flank_sides`) worked
        out once per decision."""
        sides = self.flank_sides(t)
        return bool(sides) and flanking(self.f.b, self.f.me, t, at, sides)

    def in_reach(self, p: Power, t: Combatant, at: Square) -> bool:
        """Could I use single-target power `p` on `t` standing at `at` (range and effect)?"""
        f = self.f
        me = f.me
        rng = self.c.ranges.get(p.id)
        if rng is None:
            rng = self.c.ranges[p.id] = power_range(me, p)
        if me.size == 1 and t.size == 1:  # most calls: no footprints to build
            (ax, ay), (tx, ty) = at, t.pos
            dx = ax - tx if ax > tx else tx - ax
            dy = ay - ty if ay > ty else ty - ay
            if (dx if dx > dy else dy) > rng:
                return False
        elif distance(footprint(at, me.size), f.b.squares(t)) > rng:
            return False
        lkey = (at, t.id)
        loe = self.c.loe.get(lkey)
        if loe is None:
            a_sq = (at,) if me.size == 1 else footprint(at, me.size)
            loe = self.c.loe[lkey] = line_of_effect(f.bmap, a_sq, f.b.squares(t))
        return loe

    def creatures_in(self, squares: Iterable[Square], p: Power, at: Square) -> list[Combatant]:
        """Who an area covering `squares` affects if I stand at `at` (I may be caught)."""
        f = self.f
        b, me = f.b, f.me
        mine_now = set(f.my_sq)
        mine_then = set(footprint(at, me.size))
        found: dict[str, Combatant] = {}
        for sq in squares:
            if sq in mine_then:
                oid: str | None = me.id
            else:
                oid = f.occ.by_square.get(sq)
                if oid == me.id and sq in mine_now:
                    oid = None
            if oid is None or oid in found:
                continue
            ekey = (p.id, oid)
            ok = self.c.eligible.get(ekey)
            if ok is None:
                ok = self.c.eligible[ekey] = eligible(b, me, b[oid], p)
            if ok:
                found[oid] = b[oid]
        return list(found.values())

    # --- squares -------------------------------------------------------------------------
    def dist_map(self, e: Combatant, cap: int) -> Distances:
        """Walking distance into `e` from every square within `cap` (shared by the side)."""
        return self.side.dcache.get(self.f.bmap, e.pos, e.size, cap, self.side.tag)

    def value(self, sq: Square) -> float:
        """Worth of ending the turn on `sq` (`ai.position.square_value`)."""
        hit = self.c.values.get(sq)
        if hit is None:
            hit = self.c.values[sq] = square_value(self, sq)
        return hit

    def reachable_by_enemies(self, sq: Square) -> bool:
        """Could some enemy reach `sq` next round (straight-line bound)? If none can, moving
        after the attack buys no safety."""
        x, y = sq
        for e in self.f.enemies:
            d = self.danger(e)
            gap = max(abs(x - e.pos[0]), abs(y - e.pos[1]))
            if gap <= d.speed + d.reach + e.size or (d.ranged > 0 and gap <= d.rng):
                return True
        return False

    def gap_capped(self, sq: Square, cap: int = 7) -> int:
        """`min(cap, nearest_gap(sq))` for a square within my speed of where I stand, from
        only the enemies that can be that close (cheap with a crowd of enemies)."""
        key = (sq, cap)
        hit = self.c.capped.get(key)
        if hit is not None:
            return hit
        near = self.c.near_enemies
        if near is None:
            f = self.f
            mx, my = f.me.pos
            reach = f.b.speed(f.me) + cap + 1
            near = self.c.near_enemies = [
                p for p in f.enemy_pos if max(abs(p[0] - mx), abs(p[1] - my)) <= reach
            ]
        x, y = sq
        best = cap
        for ex, ey in near:
            dx = ex - x if ex > x else x - ex
            dy = ey - y if ey > y else y - ey
            d = dx if dx > dy else dy
            if d < best:
                best = d
        self.c.capped[key] = best
        return best

    def nearest_gap(self, sq: Square) -> int:
        """Chebyshev distance to the nearest standing enemy (a cheap safety measure)."""
        hit = self.c.gaps.get(sq)
        if hit is not None:
            return hit
        x, y = sq
        best = 99
        for ex, ey in self.f.enemy_pos:
            dx = ex - x if ex > x else x - ex
            dy = ey - y if ey > y else y - ey
            d = dx if dx > dy else dy
            if d < best:
                best = d
        self.c.gaps[sq] = best
        return best


def _kept_base(kept: dict[object, object], b: Battle, e: Combatant, p: Power) -> AttackBase | None:
    """`attack_base(b, e, p)`, kept in `e`'s danger parts (`Context._danger_parts`)."""
    key = p.id
    hit = kept.get(key)
    if hit is not None:
        pair = cast("tuple[Power, AttackBase | None]", hit)
        if pair[0] is p:
            return pair[1]
    base = attack_base(b, e, p)
    kept[key] = (p, base)
    return base


def _kept_expected(
    kept: dict[object, object], b: Battle, e: Combatant, t: Combatant, p: Power, base: AttackBase
) -> float:
    """`estimate(...).expected` of `e`'s `p` on `t` at its bare defense (0.0: none), kept in
    `e`'s danger parts, checked against `t`'s creature (what its defense reads)."""
    key = (p.id, t.id)
    hit = kept.get(key)
    if hit is not None:
        entry = cast("tuple[Power, object, float]", hit)
        if entry[0] is p and entry[1] is t.creature:
            return entry[2]
    assert p.attack is not None
    est = estimate(b, e, t, p, defense=b.ruleset.defense(t, p.attack.vs), base=base)
    value = est.expected if est is not None else 0.0
    kept[key] = (p, t.creature, value)
    return value
