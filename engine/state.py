"""Runtime state of a fight: combatants and the effects on them.

Definitions (`engine.content.schema`) never change; these objects do, but only inside the
engine while it applies an action. Everything outside the engine reads them. Snapshots for
equality checks (replay, undo, resume) come from `snapshot()`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from engine.content.checks import weapon_for
from engine.content.schema import Creature, EffectSpec, Power, Weapon

Square = tuple[int, int]
HpState = Literal["healthy", "bloodied", "unconscious", "dying", "stable", "dead"]
SIZE_SQUARES = {"small": 1, "medium": 1, "large": 2}
STANDING = ("healthy", "bloodied")
"""The hit point states that count as standing (`Combatant.standing`, F-TRN-6). The hot paths
test `c.state in STANDING` (and `c.state != "dead"` for `alive`) rather than read the
properties: in this interpreter a property is a C-level call into a fresh Python frame,
about 400 instructions, several times an attack."""


@dataclass(slots=True)
class ActiveEffect:
    """An effect on a creature with its duration (F-DUR-*); one saving throw ends it all."""

    id: str
    name: str
    target: str
    source: str | None
    owner: str | None
    duration: str
    conditions: tuple[str, ...] = ()
    ongoing: int = 0
    ongoing_type: str | None = None
    modifiers: tuple[tuple[str, int], ...] = ()
    aftereffect: EffectSpec | None = None
    owner_turns_at_start: int = 0
    """How many turns the owner had started when the effect began (F-DUR-2, F-DUR-3)."""
    sustained_turn: int = -1
    """The owner's turn number in which it was last sustained or created (F-DUR-6)."""
    created_round: int = 0

    def parts(self) -> tuple[dict[str, Any], ...]:
        out: list[dict[str, Any]] = [{"condition": c} for c in self.conditions]
        if self.ongoing:
            out.append({"ongoing": self.ongoing, "type": self.ongoing_type})
        out.extend({"modifier": stat, "value": v} for stat, v in self.modifiers)
        return tuple(out)


@dataclass(slots=True)
class Combatant:
    id: str
    name: str
    side: str
    creature: Creature
    powers: tuple[Power, ...]
    control: str
    pos: Square
    max_hp: int
    hp: int
    surges: int
    action_points: int
    state: HpState = "healthy"
    temp_hp: int = 0
    surprised: bool = False
    death_failures: int = 0
    initiative: int = 0
    init_modifier: int = 0
    turns_started: int = 0
    acted: bool = False
    """Has taken an action this encounter (4srd S-1: flat-footed until then)."""
    second_wind_used: bool = False
    action_point_used: bool = False
    bluff_used: bool = False
    """Tried its once-per-encounter Bluff for combat advantage (F-MOD-13)."""
    used_powers: set[str] = field(default_factory=set)
    """Encounter and daily powers spent, and recharge powers waiting for their d6."""
    rules: Any = None
    """The ruleset's own record of this creature (`Ruleset.new_state`: opportunity attacks
    taken, provocations); only the ruleset reads it."""
    delayed: bool = False
    readied: Any = None
    immediate_round: int = -1
    """The round of its last immediate action (one per round: readied or triggered)."""
    damage_dealt: int = 0
    damage_taken: int = 0
    drops: int = 0
    weapon_memo: dict[str, tuple[Power, Weapon | None]] = field(
        default_factory=dict, repr=False, compare=False
    )
    basic_memo: tuple[tuple[Power, ...], Power | None] | None = field(
        default=None, repr=False, compare=False
    )
    """(`powers`, its basic melee power): `basic_melee`, asked for every enemy that might
    take an opportunity attack."""
    power_memo: tuple[tuple[Power, ...], dict[str, Power]] | None = field(
        default=None, repr=False, compare=False
    )
    """(`powers`, them by id): `power`, asked twice on every use of a power."""
    reach_memo: tuple[Creature, int] | None = field(default=None, repr=False, compare=False)
    """(`creature`, its reach from its weapons): `reach`, asked on every threat query."""
    size: int = field(init=False, default=1)
    """Squares per side (1 for Small and Medium, 2 for Large): read on every square query,
    so kept as a plain value, set once from the creature."""

    def __post_init__(self) -> None:
        self.size = SIZE_SQUARES[self.creature.size]

    @property
    def pc(self) -> bool:
        return self.creature.kind == "pc"

    @property
    def level(self) -> int:
        return self.creature.level

    @property
    def bloodied_value(self) -> int:
        return self.max_hp // 2

    @property
    def alive(self) -> bool:
        return self.state != "dead"

    @property
    def standing(self) -> bool:
        """Counts for its side: conscious and alive (F-TRN-6)."""
        return self.state in STANDING

    @property
    def surge_value(self) -> int:
        return self.max_hp // 4

    @property
    def reach(self) -> int:
        cr = self.creature
        if cr.reach is not None:
            return cr.reach
        hit = self.reach_memo
        if hit is not None and hit[0] is cr:
            return hit[1]
        melee = [w.reach for w in cr.weapons if w.kind == "melee"]
        reach = max(melee, default=1)
        self.reach_memo = (cr, reach)
        return reach

    def power(self, power_id: str) -> Power | None:
        powers = self.powers
        memo = self.power_memo
        if memo is None or memo[0] is not powers:
            index: dict[str, Power] = {}
            for p in powers:
                index.setdefault(p.id, p)  # the first of an id, as a search in order finds
            memo = self.power_memo = (powers, index)
        return memo[1].get(power_id)

    def weapon_for(self, power: Power) -> Weapon | None:
        """The weapon `power` is used with (`engine.content.checks.weapon_for`, memoized:
        asked on every attack)."""
        hit = self.weapon_memo.get(power.id)
        if hit is not None and hit[0] is power:
            return hit[1]
        weapon = weapon_for(self.creature, power)
        self.weapon_memo[power.id] = (power, weapon)
        return weapon

    def basic_melee(self) -> Power | None:
        powers = self.powers
        hit = self.basic_memo
        if hit is not None and hit[0] is powers:
            return hit[1]
        found = next((p for p in powers if p.basic and p.kind == "melee"), None)
        self.basic_memo = (powers, found)
        return found

    def snapshot(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "pos": self.pos,
            "hp": self.hp,
            "temp_hp": self.temp_hp,
            "state": self.state,
            "surges": self.surges,
            "action_points": self.action_points,
            "death_failures": self.death_failures,
            "initiative": self.initiative,
            "used_powers": sorted(self.used_powers),
            "second_wind_used": self.second_wind_used,
            "bluff_used": self.bluff_used,
            "delayed": self.delayed,
            "surprised": self.surprised,
            "immediate_round": self.immediate_round,
        }
