"""What the tactical AI knows at the start of a decision, and what each option is worth.

A `Context` is built once per decision and reads the encounter only: the creature deciding,
its allies and enemies, who could make opportunity attacks on it and for how much, how much
each enemy could hurt it, and a cache of the engine's attack previews. Everything that does
not depend on the candidate square is computed here once, so that scoring a candidate (end
square x power x target) is a few dictionary lookups plus, for a new combination of
flanking, cover and concealment, one `engine.attacks.preview(at=square)`.

Values are in hit points (see `ai.roles`): damage dealt, hit points of the targets dropped,
conditions as the damage they prevent, minus damage expected to be taken.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ai.distances import DistanceCache, MapGraph, graph_of
from ai.position import Foe, square_value
from ai.roles import Weights
from ai.utility import condition_value, usage_cost
from engine.attacks import AttackPreview, damage_expr, preview
from engine.battle import Battle
from engine.content.schema import Power
from engine.dice import DiceExpr
from engine.encounter import Encounter
from engine.grid import (
    concealment,
    cover,
    distance,
    footprint,
    line_of_effect,
)
from engine.movement import threatening
from engine.powers import eligible, power_range
from engine.state import Combatant

Square = tuple[int, int]


def _side_of(pos: Square, size: int, target: Combatant) -> tuple[int, int]:
    """Which side of `target`'s space a creature at `pos` stands on (-1, 0, +1 per axis),
    as `engine.attacks` reckons it for flanking."""
    tx, ty = target.pos
    n = target.size
    cx0, cy0 = pos
    cx1, cy1 = cx0 + size - 1, cy0 + size - 1
    sx = -1 if cx1 < tx else (1 if cx0 >= tx + n else 0)
    sy = -1 if cy1 < ty else (1 if cy0 >= ty + n else 0)
    return sx, sy


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


@dataclass(frozen=True, slots=True)
class Danger:
    """How much an enemy can hurt the deciding creature with one attack."""

    melee: float
    ranged: float
    rng: int
    speed: int
    reach: int


class Context:
    """Read-only facts for one decision of one creature."""

    def __init__(
        self,
        enc: Encounter,
        me: Combatant,
        weights: Weights,
        dcache: DistanceCache,
        danger_cache: dict[tuple[str, str, int], Danger],
    ) -> None:
        b = enc.battle
        self.enc = enc
        self.b: Battle = b
        self.bmap = b.map
        self.mg: MapGraph = graph_of(b.map)
        self.me = me
        self.w = weights
        self.dcache = dcache
        self.occ = b.occupancy()
        self.my_sq = b.squares(me)
        self.allies = [a for a in b.allies_of(me) if a.standing]
        living_enemies = list(b.enemies_of(me))
        self.enemies = [e for e in living_enemies if e.standing]
        self.downed = [e for e in living_enemies if not e.standing]
        self.threat = threatening(b, me)
        """Enemies that could make an opportunity attack on me now -> squares they threaten."""
        self.threat_ids = list(self.threat)
        self.threat_bit = {eid: 1 << i for i, eid in enumerate(self.threat_ids)}
        mask: dict[Square, int] = {}
        for eid, sqs in self.threat.items():
            bit = self.threat_bit[eid]
            for sq in sqs:
                mask[sq] = mask.get(sq, 0) | bit
        self.threat_mask = mask
        self.hp_eff = me.hp + me.temp_hp
        self.weakened = b.has(me, "weakened")
        self._by_distance = b.ruleset.situational  # the ruleset says (4srd range penalties)
        self._conds: dict[str, set[str]] = {}
        self._hits: dict[tuple[object, ...], Hit | None] = {}
        self._values: dict[Square, float] = {}
        self.foes: list[Foe] | None = None
        """The enemies as `ai.position.square_value` reads them (filled on first use)."""
        self.support: list[tuple[tuple[Square, ...], int, float]] = []
        """Allies out of reach of a heal it could give (`ai.utility.heals_out_of_reach`)."""
        self.flankers: set[Square] = set()
        self.ally_pos: list[Square] = []
        self._exprs: dict[str, DiceExpr | None] = {}
        self._dangers = danger_cache
        self._danger_memo: dict[str, Danger] = {}
        self._side_def: dict[str, float] = {}
        self.oa_exp: list[float] = []
        self.oa_drop: list[float] = []
        near = b.speed(me) + 2
        mx, my = me.pos
        for eid in self.threat_ids:
            e = b[eid]
            p = e.basic_melee()
            # Only enemies whose reach the mover could leave this turn matter.
            far = max(abs(e.pos[0] - mx), abs(e.pos[1] - my)) > near + e.reach + e.size
            exp, drop = self.quick_attack(e, p) if p is not None and not far else (0.0, 0.0)
            self.oa_exp.append(exp)
            self.oa_drop.append(drop)
        self.oa_cost = [
            weights.oa * x * (1.0 + 2.0 * d) for x, d in zip(self.oa_exp, self.oa_drop, strict=True)
        ]
        max_danger = max((self.danger(e).melee for e in self.enemies), default=1.0)
        self.max_danger = max(max_danger, 1.0)
        self.occupied = {sq for sq, oid in self.occ.by_square.items() if oid != me.id}
        self.enemy_sq = frozenset(
            sq for sq, oid in self.occ.by_square.items() if self.occ.side_of(oid) != me.side
        )
        self._blockers: dict[str, frozenset[Square]] = {}
        self._geo: dict[tuple[Square, str, bool], tuple[bool, bool, str, str]] = {}
        self._enemy_pos = [e.pos for e in self.enemies]
        self._gaps: dict[Square, int] = {}
        self._near_enemies: list[Square] | None = None
        self._can_flank_me = b.can_react(me)
        self._flank_allies = [
            a for a in self.allies if b.can_react(a) and not b.flag(a, "cant_see")
        ]
        self._flank_sides: dict[str, set[tuple[int, int]]] = {}
        self._capped: dict[tuple[Square, int], int] = {}
        self._eligible: dict[tuple[str, str], bool] = {}
        self.memo: dict[object, object] = {}
        """Scratch memo for the planner's own per-decision lookups."""
        self._loe: dict[tuple[Square, str], bool] = {}

    # --- enemies -------------------------------------------------------------------------
    def danger(self, e: Combatant) -> Danger:
        """Expected damage of `e`'s best at-will melee and ranged attacks on me, from attack
        bonus, defense and mean damage only (cached per round: a rough number that ranks
        squares and targets)."""
        mine = self._danger_memo.get(e.id)
        if mine is not None:
            return mine
        key = (e.id, self.me.side, self.b.round)
        hit = self._dangers.get(key)
        if hit is not None:
            self._danger_memo[e.id] = hit
            return hit
        melee = ranged = 0.0
        rng = 0
        b = self.b
        for p in e.powers:
            if p.attack is None or p.usage not in ("at-will", "recharge"):
                continue
            if p.kind not in ("melee", "ranged", "area", "close"):
                continue
            if p.hit is None or p.hit.damage is None:
                continue
            weapon = e.weapon_for(p)
            bonus = sum(m.value for m in b.ruleset.attack_modifiers(e, p, weapon))
            need = self.side_defense(p.attack.vs) - bonus
            chance = min(0.95, max(0.05, (21 - need) / 20))
            expr = damage_expr(b, e, p.hit.damage, weapon)
            exp = chance * expr.mean() + 0.05 * (expr.max() - expr.mean())
            if p.kind in ("melee", "close"):
                melee = max(melee, exp)
            else:
                ranged = max(ranged, exp)
                rng = max(rng, p.range or 0)
        d = Danger(max(melee, ranged * 0.8), ranged, rng, self.b.speed(e), e.reach)
        if len(self._dangers) > 4096:
            self._dangers.clear()
        self._dangers[key] = d
        return d

    def side_defense(self, vs: str) -> float:
        """My side's mean defense `vs` (what an enemy's attacks are measured against)."""
        hit = self._side_def.get(vs)
        if hit is None:
            team = [self.me, *self.allies]
            hit = self._side_def[vs] = sum(self.b.ruleset.defense(c, vs) for c in team) / len(team)
        return hit

    def kill_value(self, t: Combatant) -> float:
        """Hit points' worth of dropping `t`: about two rounds of what it deals, plus a base."""
        if t.side == self.me.side:
            return 4.0 + 2.0 * 6.0
        return 4.0 + 2.0 * self.danger(t).melee

    def focus(self, t: Combatant) -> float:
        """Damage to a wounded, dangerous enemy is worth more (focus fire)."""
        wounded = 1.0 - max(0, t.hp) / max(1, t.max_hp)
        return (1.0 + 0.6 * wounded) * (0.8 + 0.4 * self.danger(t).melee / self.max_danger)

    # --- attacks -------------------------------------------------------------------------
    def expr(self, p: Power) -> DiceExpr | None:
        if p.id not in self._exprs:
            spec = p.hit.damage if p.hit is not None else None
            self._exprs[p.id] = (
                damage_expr(self.b, self.me, spec, self.me.weapon_for(p))
                if spec is not None
                else None
            )
        return self._exprs[p.id]

    def quick_attack(self, attacker: Combatant, p: Power) -> tuple[float, float]:
        """(expected damage, chance to drop me) of `attacker`'s `p` on me: its attack bonus
        against my defense with its effects (F-DEF-6), mean damage, a critical on 20; no
        situational modifiers. For opportunity attacks on a path not yet walked, where the
        engine's full preview would be precision the situation doesn't have."""
        if p.attack is None or p.hit is None or p.hit.damage is None:
            return 0.0, 0.0
        b = self.b
        weapon = attacker.weapon_for(p)
        bonus = sum(m.value for m in b.ruleset.attack_modifiers(attacker, p, weapon))
        defense = b.ruleset.defense(self.me, p.attack.vs) + b.modifier(self.me, p.attack.vs)
        chance = min(0.95, max(0.05, (21 - (defense - bonus)) / 20))
        crit = 0.05
        expr = damage_expr(b, attacker, p.hit.damage, weapon)
        crit_dmg = expr.max() if b.ruleset.maximize_crit_damage else expr.mean() * 2
        need = max(1, self.hp_eff) * (2 if b.has(attacker, "weakened") else 1)
        exp = (chance - crit) * expr.mean() + crit * crit_dmg
        drop = (chance - crit) * expr.prob_at_least(need) + crit * (crit_dmg >= need)
        return exp, drop

    def hit_at(
        self, p: Power, t: Combatant, at: Square, origin: Square | None = None
    ) -> Hit | None:
        """`score_hit` of the engine's preview as if I stood at `at` (None: no attack roll),
        shared between squares that give the same flanking, cover, concealment and
        adjacency, which is everything the square changes in the preview (and the distance,
        under a ruleset with modifiers by distance)."""
        b = self.b
        if p.kind in ("area", "close"):
            # Close and area attacks take no flanking, no concealment penalty and nothing
            # from adjacency: only the cover (from the origin) and whether the target is
            # seen at all (combat advantage needs it) change with the square.
            t_sq = self.b.squares(t)
            a_sq = footprint(at, self.me.size)
            seen = concealment(self.bmap, a_sq, t_sq) != "total"
            src = (origin,) if origin is not None and p.kind == "area" else a_sq
            cov = cover(self.bmap, src, t_sq, count_creatures=False)
            key: tuple[object, ...] = (p.id, t.id, p.kind, cov, seen, origin is None)
        else:
            key = (p.id, t.id, *self.geometry(at, t, p.kind == "ranged"))
        if self._by_distance:  # the ruleset adds modifiers by distance (4srd range)
            key = (*key, distance(footprint(at, self.me.size), self.b.squares(t)))
        if key in self._hits:
            return self._hits[key]
        pv = preview(b, self.me, t, p, (origin,) if origin is not None else None, at=at)
        hit = self.score_hit(p, t, pv) if pv is not None else None
        self._hits[key] = hit
        return hit

    def score_hit(self, p: Power, t: Combatant, pv: AttackPreview) -> Hit:
        """Value of one target of an attack (negative for an ally caught in an area)."""
        ally = t.side == self.me.side
        hp_eff = t.hp + t.temp_hp
        if t.creature.minion:
            hp_eff = 1
        standing = t.standing
        useful = (
            min(pv.expected_damage, pv.hit * max(hp_eff, 0) + 0.5)
            if standing
            else (pv.expected_damage)
        )
        expr = self.expr(p)
        drop = 0.0
        if standing and expr is not None and not pv.immune_damage:
            need = max(1, hp_eff)
            if self.weakened:
                need *= 2
            if t.creature.insubstantial or "insubstantial" in self.conditions_of(t):
                need *= 2
            crit_dmg = expr.max() if self.b.ruleset.maximize_crit_damage else expr.mean() * 2
            drop = (pv.hit - pv.crit) * expr.prob_at_least(need) + pv.crit * (crit_dmg >= need)
        w = self.w
        if ally:
            value = -w.ally_hit * (useful + drop * self.kill_value(t))
        elif not standing:
            value = 0.15 * useful  # finishing the fallen matters little
        else:
            value = (
                w.damage * useful * self.focus(t)
                + w.kill * drop * self.kill_value(t)
                + w.condition * condition_value(self, p, t, pv.hit)
            )
        return Hit(t.id, pv.hit, pv.expected_damage, drop, pv.setup.flanking, ally, value)

    def conditions_of(self, c: Combatant) -> set[str]:
        """`Battle.conditions`, once per creature per decision."""
        hit = self._conds.get(c.id)
        if hit is None:
            hit = self._conds[c.id] = self.b.conditions(c)
        return hit

    def spend_cost(self, p: Power, value: float, targets: list[Combatant]) -> float:
        """What using up an encounter, daily or recharge power costs (none for at-wills):
        `ai.utility.usage_cost`, and a prohibitive cost on a lone minion or on a target the
        at-will attacks would finish anyway."""
        if p.usage == "at-will":
            return 0.0
        cost = usage_cost(p, value)
        foes = [t for t in targets if t.side != self.me.side and t.standing]
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
        best = 0.0
        for p in self.me.powers:
            if p.usage == "at-will" and p.attack is not None:
                e = self.expr(p)
                if e is not None:
                    best = max(best, e.mean())
        return best

    def geometry(self, at: Square, t: Combatant, ranged: bool) -> tuple[bool, bool, str, str]:
        """(adjacent, flanking, cover, concealment) of an attack on `t` from `at`: everything
        the attacker's square changes in the engine's attack setup. Memoized per decision."""
        gkey = (at, t.id, ranged)
        hit = self._geo.get(gkey)
        if hit is not None:
            return hit
        b = self.b
        a_sq = footprint(at, self.me.size)
        t_sq = b.squares(t)
        conceal = concealment(self.bmap, a_sq, t_sq)
        adj = distance(a_sq, t_sq) == 1
        if ranged:
            blockers = self._blockers.get(t.id)
            if blockers is None:
                blockers = self.enemy_sq.difference(t_sq)
                self._blockers[t.id] = blockers
            # Only creatures inside the two squares' bounding box can cut a corner line;
            # with none there the cover is the terrain's (memoized by the map).
            xs = [x for x, _ in a_sq] + [x for x, _ in t_sq]
            ys = [y for _, y in a_sq] + [y for _, y in t_sq]
            x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
            near = frozenset((x, y) for x, y in blockers if x0 <= x <= x1 and y0 <= y <= y1)
            cov = cover(self.bmap, a_sq, t_sq, blockers=near)
        else:
            cov = cover(self.bmap, a_sq, t_sq, count_creatures=False)
        flank = adj and self.flanks(at, t)
        out = (adj, flank, str(cov), str(conceal))
        self._geo[gkey] = out
        return out

    def priority(self, t: Combatant) -> float:
        """A rough worth of attacking `t`, before any preview: the value of dropping it per
        hit point it has left, times focus (standing enemies only)."""
        if not t.standing:
            return 0.0
        return self.kill_value(t) * self.focus(t) / max(1, t.hp + t.temp_hp)

    def rough_box(self, box: tuple[int, int, int, int], p: Power, at: Square) -> float:
        """Enemies an area spanning `box` (x0, y0, x1, y1; walls ignored) would catch, weighted
        by focus, minus the allies it would catch (weighted more), if I stood at `at`: the
        cheap ranking that decides which placements are worked out and scored exactly."""
        x0, y0, x1, y1 = box
        total = 0.0
        for c, cx, cy, n, weight in self._rough_creatures(p):
            if c is self.me:
                cx, cy = at
            if cx + n - 1 < x0 or cx > x1 or cy + n - 1 < y0 or cy > y1:
                continue
            total += weight
        return total

    def _rough_creatures(self, p: Power) -> list[tuple[Combatant, int, int, int, float]]:
        key = ("rough", p.id)
        hit = self.memo.get(key)
        if isinstance(hit, list):
            return hit
        out = []
        for c in (self.me, *self.allies, *self.enemies):
            if not eligible(self.b, self.me, c, p):
                continue
            if c.side == self.me.side:
                weight = -1.5 * self.w.ally_hit
            else:
                weight = self.focus(c) * (2.0 if c.creature.minion else 1.0)
            out.append((c, c.pos[0], c.pos[1], c.size, weight))
        self.memo[key] = out
        return out

    def flanks(self, at: Square, t: Combatant) -> bool:
        """`engine.attacks.flanking(at=...)`, with the allies' part worked out once per
        decision: which allies can flank (standing, able to react, able to see) and on which
        side of each target they stand. Exact for every size (same side rule)."""
        if not self._can_flank_me:
            return False
        sides = self._flank_sides.get(t.id)
        if sides is None:
            sides = set()
            t_sq = self.b.squares(t)
            for a in self._flank_allies:
                if distance(self.b.squares(a), t_sq) == 1:
                    sides.add(_side_of(a.pos, a.size, t))
            self._flank_sides[t.id] = sides
        if not sides:
            return False
        if distance(footprint(at, self.me.size), self.b.squares(t)) != 1:
            return False
        sx, sy = _side_of(at, self.me.size, t)
        return (-sx, -sy) in sides

    def in_reach(self, p: Power, t: Combatant, at: Square) -> bool:
        """Could I use single-target power `p` on `t` standing at `at` (range and effect)?"""
        a_sq = footprint(at, self.me.size)
        t_sq = self.b.squares(t)
        if distance(a_sq, t_sq) > power_range(self.me, p):
            return False
        lkey = (at, t.id)
        loe = self._loe.get(lkey)
        if loe is None:
            loe = self._loe[lkey] = line_of_effect(self.bmap, a_sq, t_sq)
        return loe

    def creatures_in(self, squares: Iterable[Square], p: Power, at: Square) -> list[Combatant]:
        """Who an area covering `squares` affects if I stand at `at` (I may be caught)."""
        b = self.b
        me = self.me
        mine_now = set(self.my_sq)
        mine_then = set(footprint(at, me.size))
        found: dict[str, Combatant] = {}
        for sq in squares:
            if sq in mine_then:
                oid: str | None = me.id
            else:
                oid = self.occ.by_square.get(sq)
                if oid == me.id and sq in mine_now:
                    oid = None
            if oid is None or oid in found:
                continue
            ekey = (p.id, oid)
            ok = self._eligible.get(ekey)
            if ok is None:
                ok = self._eligible[ekey] = eligible(b, me, b[oid], p)
            if ok:
                found[oid] = b[oid]
        return list(found.values())

    # --- squares -------------------------------------------------------------------------
    def dist_map(self, e: Combatant, cap: int) -> dict[Square, int]:
        return self.dcache.get(self.bmap, e.pos, e.size, cap)

    def value(self, sq: Square) -> float:
        """Worth of ending the turn on `sq` (`ai.position.square_value`), memoized for the
        decision."""
        hit = self._values.get(sq)
        if hit is None:
            hit = self._values[sq] = square_value(self, sq)
        return hit

    def reachable_by_enemies(self, sq: Square) -> bool:
        """Could some enemy reach `sq` next round (straight-line bound)? If none can, moving
        after the attack buys no safety."""
        x, y = sq
        for e in self.enemies:
            d = self.danger(e)
            gap = max(abs(x - e.pos[0]), abs(y - e.pos[1]))
            if gap <= d.speed + d.reach + e.size or (d.ranged > 0 and gap <= d.rng):
                return True
        return False

    def gap_capped(self, sq: Square, cap: int = 7) -> int:
        """`min(cap, nearest_gap(sq))` for a square within my speed of where I stand, from
        only the enemies that can be that close (cheap with a crowd of enemies)."""
        key = (sq, cap)
        hit = self._capped.get(key)
        if hit is not None:
            return hit
        near = self._near_enemies
        if near is None:
            mx, my = self.me.pos
            reach = self.b.speed(self.me) + cap + 1
            near = self._near_enemies = [
                p for p in self._enemy_pos if max(abs(p[0] - mx), abs(p[1] - my)) <= reach
            ]
        x, y = sq
        best = cap
        for ex, ey in near:
            dx = ex - x if ex > x else x - ex
            dy = ey - y if ey > y else y - ey
            d = dx if dx > dy else dy
            if d < best:
                best = d
        self._capped[key] = best
        return best

    def nearest_gap(self, sq: Square) -> int:
        """Chebyshev distance to the nearest standing enemy (a cheap safety measure)."""
        hit = self._gaps.get(sq)
        if hit is not None:
            return hit
        x, y = sq
        best = 99
        for ex, ey in self._enemy_pos:
            dx = ex - x if ex > x else x - ex
            dy = ey - y if ey > y else y - ey
            d = dx if dx > dy else dy
            if d < best:
                best = d
        self._gaps[sq] = best
        return best
