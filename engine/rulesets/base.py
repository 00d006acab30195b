"""The ruleset interface: the rules that differ between ffd20, 4srd and d20srd.

Everything else in the engine is shared. A ruleset is a policy object with no fight state of
its own (only memos of pure functions of frozen content); it reads combatants and answers
questions (what is this defense, is this a critical hit, may this creature take another
opportunity attack, what hit point state follows). What it must remember about each creature
(opportunity attacks taken, S-14's provocations) is its own `CreatureRules` object, kept on
the combatant (`Combatant.rules`) and made by `new_state`. The extra actions it has (a full
attack, a withdraw, a 5-foot step) it describes in `extra_actions`, with their rules
(`iterative_penalty`, `unprovoked_squares`, `move_problem`), so that the app and the AI ask
it instead of knowing which ruleset has what.

Every hook below has the `ffd20` answer as its default, so the default ruleset overrides only
the two abstract ones and the other rulesets override what their texts change.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from engine.content.schema import Creature, DamageSpec, Power, Weapon
from engine.dice import DiceExpr
from engine.events import Mod
from engine.native import mypyc_attr
from engine.rulesets.bonuses import typed_total
from engine.state import Combatant, HpState

if TYPE_CHECKING:
    from engine.attacks import AttackSetup
    from engine.battle import Battle

Outcome = Literal["hit", "miss", "crit"]
DEFENSES = ("ac", "fortitude", "reflex", "will")
Square = tuple[int, int]
TURN_ACTIONS = ("standard", "move", "minor")


@dataclass(frozen=True, slots=True)
class ExtraAction:
    """An action (or a move mode) only some rulesets have, as the ruleset describes it."""

    action: str
    """The engine's name for it: an `Action.name` ("full_attack", "withdraw") or a move mode
    ("shift", when the ruleset gives the shift rules of its own)."""
    label: str
    """What the app calls it: "Full attack", "5-foot step"."""
    summary: str
    """Its rule in a line, for help and hints."""
    clause: str
    """The clause id that defines it (D-1, S-15)."""


@dataclass(slots=True)
class CreatureRules:
    """What the ruleset remembers about one creature through a fight (ffd20: X-OA-1)."""

    last_oa_turn: int = -1
    """The global turn counter of its last opportunity attack (X-OA-1: one per turn)."""


MEMO_LIMIT = 20_000
"""Entries the shared attack and defense memos of one ruleset class hold before starting over."""
_SHARED_MEMOS: dict[type, tuple[dict[Any, Any], dict[Any, Any]]] = {}
"""Per ruleset class: (attack modifiers memo, defense memo), see `Ruleset.__init__`."""


@mypyc_attr(allow_interpreted_subclasses=True)  # a test's own ruleset (tests/engine)
class Ruleset(ABC):
    name: ClassVar[str] = "base"
    maximize_crit_damage: ClassVar[bool] = True
    """ffd20: a critical hit's damage is its maximum (F-ATK-7)."""
    minimum_damage_on_hit: ClassVar[int] = 0
    """4srd S-5 and d20srd D-7: a hit deals at least 1."""
    coup_de_grace_crits: ClassVar[bool] = True
    """F-ATK-8: a melee hit on a helpless adjacent target is a critical hit."""
    stacking: ClassVar[frozenset[str] | None] = None
    """Bonus types that stack with themselves (`TypedBonus`); None: every bonus adds."""
    extra_actions: ClassVar[tuple[ExtraAction, ...]] = ()
    """The actions beyond the shared ones this ruleset has (full attack, withdraw, ...)."""
    situational: ClassVar[bool] = False
    """`situational_modifiers` may add something (4srd range penalties): the AI then asks
    for each square it weighs instead of once per target."""
    rolls_damage: ClassVar[bool] = False
    """The class overrides `damage_roll` (d20srd): the hit path asks it only then. Set for
    every subclass by `__init_subclass__`, never by hand."""
    confirms_threats: ClassVar[bool] = False
    """The class overrides `confirm_threat` (d20srd D-8): the roll asks it only then. Set by
    `__init_subclass__`."""
    shared_hp_state: ClassVar[bool] = True
    """The class keeps the shared `hp_state` (every ruleset today): `state_holds_above`
    speaks for it. Set by `__init_subclass__`."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.rolls_damage = cls.damage_roll is not Ruleset.damage_roll
        cls.confirms_threats = cls.confirm_threat is not Ruleset.confirm_threat
        cls.shared_hp_state = cls.hp_state is Ruleset.hp_state

    def offers(self, action: str) -> bool:
        """Does this ruleset have the extra action `action` (an `ExtraAction.action`)?"""
        return any(x.action == action for x in self.extra_actions)

    def extra_action(self, action: str) -> ExtraAction | None:
        return next((x for x in self.extra_actions if x.action == action), None)

    @property
    def withdraw(self) -> bool:
        """S-15: the withdraw action (a full-round move) exists."""
        return self.offers("withdraw")

    @property
    def full_attack(self) -> bool:
        """D-1: the full attack action (iterative attacks) exists."""
        return self.offers("full_attack")

    def __init__(self) -> None:
        # The base attack bonus and the defenses are pure functions of frozen content and of
        # the ruleset's class, asked on every attack: cached by the identity of the objects
        # they come from (kept in the entry, so an id can't be reused by another object while
        # its entry lives), and shared by every fight of this ruleset in the process (a sim
        # plays many fights of one loaded encounter: each would otherwise work them out anew).
        memos = _SHARED_MEMOS.get(type(self))
        if memos is None or len(memos[0]) + len(memos[1]) > MEMO_LIMIT:
            memos = ({}, {})  # bounded: a long session that loads much content starts over
            _SHARED_MEMOS[type(self)] = memos
        self._attack_memo: dict[
            tuple[int, int, int], tuple[Creature, Power, Weapon | None, tuple[Mod, ...]]
        ] = memos[0]
        self._defense_memo: dict[tuple[int, str, bool, bool], tuple[Creature, int]] = memos[1]

    def defense(
        self, c: Combatant, which: str, *, flat_footed: bool = False, touch: bool = False
    ) -> int:
        """The defense score before situational modifiers (F-DEF-*)."""
        cr = c.creature
        key = (id(cr), which, flat_footed, touch)
        hit = self._defense_memo.get(key)
        if hit is not None and hit[0] is cr:
            return hit[1]
        value = self._defense(cr, which, flat_footed, touch)
        self._defense_memo[key] = (cr, value)
        return value

    @abstractmethod
    def _defense(self, cr: Creature, which: str, flat_footed: bool, touch: bool) -> int:
        """`defense` uncached: each ruleset's own F-DEF-* / S-8 / D-2."""

    # --- the ruleset's own state of each creature ---------------------------------------------
    def new_state(self, c: Combatant) -> CreatureRules:
        """A fresh `Combatant.rules` for `c` at the start of a fight."""
        return CreatureRules()

    def attack_modifiers(self, c: Combatant, power: Power, weapon: Weapon | None) -> list[Mod]:
        """The parts of the base attack bonus (F-ATK-2); the first is `attack_bonus`."""
        cr = c.creature
        key = (id(cr), id(power), id(weapon))
        hit = self._attack_memo.get(key)
        if hit is not None and hit[0] is cr and hit[1] is power and hit[2] is weapon:
            return list(hit[3])
        mods = self._attack_modifiers(c, power, weapon)
        self._attack_memo[key] = (cr, power, weapon, tuple(mods))
        return mods

    @abstractmethod
    def _attack_modifiers(self, c: Combatant, power: Power, weapon: Weapon | None) -> list[Mod]:
        """`attack_modifiers` uncached: each ruleset's own F-ATK-2 / S-4 / D-1."""

    def situational_modifiers(
        self,
        battle: Battle,
        attacker: Combatant,
        target: Combatant,
        power: Power,
        weapon: Weapon | None,
        a_sq: tuple[Square, ...],
        t_sq: tuple[Square, ...],
    ) -> list[Mod]:
        """Modifiers that depend on where the two stand (4srd range penalties)."""
        return []

    def outcome(self, natural: int, total: int, defense: int, crit_low: int) -> Outcome:
        """F-ATK-3..6: natural 1 misses, 20 hits; a crit needs the total to reach the defense."""
        if natural == 1:
            return "miss"
        reaches = total >= defense
        if natural >= crit_low and reaches:
            return "crit"
        if natural == 20 or reaches:
            return "hit"
        return "miss"

    def confirm_threat(
        self, battle: Battle, attacker: Combatant, natural: int, outcome: str, s: AttackSetup
    ) -> tuple[str, dict[str, Any] | None]:
        """d20srd D-8 rolls a confirmation here; the others take the outcome as it is."""
        return outcome, None

    def odds(self, s: AttackSetup) -> tuple[float, float]:
        """(chance of a hit of any kind, chance of a critical hit) of one attack roll."""
        from engine.preview import outcome_odds

        return outcome_odds(s)

    # --- damage ---------------------------------------------------------------------------
    def damage_bonus(self, c: Combatant, spec: DamageSpec, weapon: Weapon | None) -> int:
        """The ability modifier the damage names (F-DMG-1) and typed damage bonuses."""
        cr = c.creature
        bonus = cr.abilities.mod(spec.ability) if spec.ability is not None else 0
        if cr.typed_bonuses:
            bonus += typed_total(cr.typed_bonuses, "damage", self.stacking)
        return bonus

    def multiply(self, expr: DiceExpr, times: int) -> DiceExpr:
        """S-7 (and ffd20, whose texts are silent): roll the dice `times` times, add the
        bonuses once."""
        return expr.times(times)

    def damage_roll(
        self,
        battle: Battle,
        attacker: Combatant,
        target: Combatant,
        power: Power,
        spec: DamageSpec,
        weapon: Weapon | None,
        outcome: str,
    ) -> tuple[str, tuple[int, ...], int, dict[str, Any] | None] | None:
        """(dice text, faces, rolled total, crit_extra) when this ruleset rolls the damage
        itself (d20srd critical multipliers and sneak attack); None: the shared F-ATK-7 way."""
        return None

    def damage_means(
        self,
        battle: Battle,
        attacker: Combatant,
        target: Combatant,
        power: Power,
        weapon: Weapon | None,
        expr: DiceExpr,
    ) -> tuple[float, float]:
        """(mean damage of a hit, of a critical hit) before mitigation, for previews."""
        crit = expr.max() if self.maximize_crit_damage else expr.mean() * 2
        if weapon is not None and weapon.crit_dice:
            crit += DiceExpr.parse(weapon.crit_dice).mean()
        return expr.mean(), crit

    def damage_reduction(self, target: Combatant, types: tuple[str, ...]) -> int:
        """d20srd D-11: damage reduction against this damage (0: none)."""
        return 0

    # --- hit points -------------------------------------------------------------------------
    def hp_state(self, c: Combatant) -> HpState:
        """X-HP-1 and S-10: the state that follows from hit points and failed death saves."""
        hp = c.hp
        if not c.pc:
            if hp <= 0:
                return "dead"
        elif hp <= -c.bloodied_value or c.death_failures >= 3:
            return "dead"
        elif hp < 0:
            return "dying"
        elif hp == 0:
            return "unconscious"
        return "bloodied" if hp <= c.bloodied_value else "healthy"

    def state_holds_above(self, c: Combatant) -> int | None:
        """Hit points above which `hp_state(c)` is still `c.state` after damage (which only
        lowers them): `engine.hp` skips working the state out then. None: no such bound
        (a state other than healthy or bloodied, a ruleset with its own `hp_state`, a
        creature whose state disagrees with its hit points)."""
        if not self.shared_hp_state or (c.death_failures >= 3 and c.pc):
            return None
        state, hp, bloodied = c.state, c.hp, c.bloodied_value
        if state == "healthy" and hp > bloodied:
            return bloodied  # X-HP-1: healthy above half, bloodied at half or below
        if state == "bloodied" and 0 < hp <= bloodied:
            return 0
        return None

    # --- turns, movement, opportunities -----------------------------------------------------
    def turn_actions(self, battle: Battle) -> tuple[str, ...]:
        """The action kinds a turn may spend now (4srd's surprise round has no minor)."""
        return TURN_ACTIONS

    def base_speed(self, c: Combatant) -> int:
        """Speed before effects (S-11): the creature's own, plus typed speed bonuses."""
        cr = c.creature
        if not cr.typed_bonuses:
            return cr.speed
        return cr.speed + typed_total(cr.typed_bonuses, "speed", self.stacking)

    def move_problem(self, battle: Battle, c: Combatant, mode: str) -> str | None:
        """Why a move of `mode` is not allowed now (4srd/d20srd S-15), or None."""
        return None

    def unprovoked_squares(self, mode: str) -> int:
        """How many squares at the start of a move of `mode` provoke nothing when left
        (S-15: a withdraw's first). The engine's move and the app's path preview both ask."""
        return 0

    def attack_count(self, c: Combatant) -> int:
        """Attacks in a full attack (d20srd D-1); 1 where there is none."""
        return 1

    def iterative_penalty(self, i: int) -> int:
        """The attack modifier of attack `i` (0 first) of a full attack (d20srd D-1: -5 per
        attack after the first); 0 where there is none."""
        return 0

    def may_take_opportunity(self, c: Combatant, turn_counter: int, round_no: int) -> bool:
        """X-OA-1: one opportunity attack per combatant's turn."""
        state: CreatureRules = c.rules
        return state.last_oa_turn != turn_counter

    def note_opportunity(self, c: Combatant, turn_counter: int, round_no: int) -> None:
        state: CreatureRules = c.rules
        state.last_oa_turn = turn_counter

    def move_opportunity_open(self, mover: Combatant, enemy: Combatant, round_no: int) -> bool:
        """May leaving `enemy`'s threatened squares provoke it (again)? ffd20: in every move."""
        return True

    def note_move_opportunity(self, mover: Combatant, enemy_id: str, round_no: int) -> None:
        """A move of `mover` provoked `enemy_id` (S-14 counts these per round)."""
        return None

    def is_flat_footed(self, c: Combatant) -> bool:
        """Only 4srd and d20srd have flat-footed (S-1, D-4)."""
        return False

    def log_numbers(self, c: Combatant) -> dict[str, Any]:
        """The per-creature numbers this ruleset's rules read, for `encounter_start` (log
        schema 2, docs/log.md): a log alone says why an attack had the bonus it had."""
        return {
            "initiative_modifier": self.initiative_modifier(c),
            "attacks_per_round": self.attack_count(c),
            "flat_footed_until_acting": self.is_flat_footed(c),
        }

    def initiative_modifier(self, c: Combatant) -> int:
        """F-TRN-2: one-half level + Dex modifier + bonuses; a monster's given number wins."""
        cr = c.creature
        if cr.initiative is not None:
            return cr.initiative
        return cr.level // 2 + cr.abilities.mod("dex")
