"""The ruleset interface: the rules that differ between ffd20, 4srd and d20srd.

Everything else in the engine is shared. A ruleset is a policy object with no state of its
own; it reads combatants and answers questions (what is this defense, is this a critical hit,
may this creature take another opportunity attack, what hit point state follows).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Literal

from engine.content.schema import Power, Weapon
from engine.events import Mod
from engine.state import Combatant, HpState

Outcome = Literal["hit", "miss", "crit"]
DEFENSES = ("ac", "fortitude", "reflex", "will")


class Ruleset(ABC):
    name: str = "base"
    maximize_crit_damage: bool = True
    """ffd20: a critical hit's damage is its maximum (F-ATK-7)."""
    minimum_damage_on_hit: int = 0
    """4srd S-5 and d20srd D-7: a hit deals at least 1."""

    @abstractmethod
    def defense(self, c: Combatant, which: str, *, flat_footed: bool = False) -> int:
        """The defense score before situational modifiers (F-DEF-*)."""

    @abstractmethod
    def attack_modifiers(self, c: Combatant, power: Power, weapon: Weapon | None) -> list[Mod]:
        """The parts of the base attack bonus (F-ATK-2); the first is `attack_bonus`."""

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

    def may_take_opportunity(self, c: Combatant, turn_counter: int, round_no: int) -> bool:
        """X-OA-1: one opportunity attack per combatant's turn."""
        return c.last_oa_turn != turn_counter

    def note_opportunity(self, c: Combatant, turn_counter: int, round_no: int) -> None:
        c.last_oa_turn = turn_counter
        if c.oa_round != round_no:
            c.oa_round, c.oa_count = round_no, 0
        c.oa_count += 1

    def is_flat_footed(self, c: Combatant) -> bool:
        """Only 4srd and d20srd have flat-footed (S-1, D-4)."""
        return False

    def initiative_modifier(self, c: Combatant) -> int:
        """F-TRN-2: one-half level + Dex modifier + bonuses; a monster's given number wins."""
        cr = c.creature
        if cr.initiative is not None:
            return cr.initiative
        return cr.level // 2 + cr.abilities.mod("dex")
