"""The content format: creatures, powers, maps and encounters as strict, frozen models.

Content is user-written YAML, so every model forbids unknown keys (a typo is an error, not a
silently ignored field) and checks ranges. The loader (`engine.content.loader`) maps each
validation error back to the file, line and field it came from. The engine reads these
definitions; it never changes them (runtime state lives in `engine.state`).
"""

from __future__ import annotations

import builtins
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.conditions import CONDITION_NAMES

Ability = Literal["str", "con", "dex", "int", "wis", "cha"]
Defense = Literal["ac", "fortitude", "reflex", "will"]
Role = Literal["brute", "soldier", "skirmisher", "artillery", "controller", "lurker"]
SizeName = Literal["small", "medium", "large"]
Usage = Literal["at-will", "encounter", "daily", "recharge"]
ActionType = Literal["standard", "move", "minor", "free", "immediate"]
PowerKind = Literal["melee", "ranged", "close", "area", "personal"]
TargetWho = Literal["creature", "enemy", "ally", "self", "ally_or_self"]
Duration = Literal[
    "save_ends",
    "start_of_next_turn",
    "end_of_next_turn",
    "end_of_encounter",
    "sustain_standard",
    "sustain_move",
    "sustain_minor",
]
ModifierStat = Literal[
    "attack", "damage", "ac", "fortitude", "reflex", "will", "defenses", "speed", "saves"
]
RulesetName = Literal["ffd20", "4srd", "d20srd"]
Control = Literal["player", "ai"]
ID_PATTERN = r"^[a-z][a-z0-9_-]*$"

Id = Annotated[str, Field(pattern=ID_PATTERN, max_length=40)]
DiceText = Annotated[str, Field(min_length=1, max_length=60)]
Small = Annotated[int, Field(ge=0, le=50)]
Bonus = Annotated[int, Field(ge=-20, le=40)]


class Model(BaseModel):
    """Base: unknown keys are errors and definitions never change after loading."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# A module-level alias: inside `Abilities` the names `str` and `int` are fields, so a field
# annotated `int` after the `int` field would refer to that field's default (10).
Score = Annotated[int, Field(ge=1, le=30)]


class Abilities(Model):
    str: Score = 10
    con: Score = 10
    dex: Score = 10
    int: Score = 10
    wis: Score = 10
    cha: Score = 10

    def mod(self, ability: Ability) -> builtins.int:
        """The ability modifier: (score - 10) // 2."""
        score: int = getattr(self, ability)
        return (score - 10) // 2


class Defenses(Model):
    ac: Annotated[int, Field(ge=1, le=60)]
    fortitude: Annotated[int, Field(ge=1, le=60)]
    reflex: Annotated[int, Field(ge=1, le=60)]
    will: Annotated[int, Field(ge=1, le=60)]


class DefenseBonuses(Model):
    """Untyped/feat/item bonuses to defenses (F-DEF-6)."""

    ac: Bonus = 0
    fortitude: Bonus = 0
    reflex: Bonus = 0
    will: Bonus = 0


class Skills(Model):
    """Skill modifiers (the whole bonus added to a d20 check)."""

    perception: Bonus = 0
    stealth: Bonus = 0
    bluff: Bonus = 0
    insight: Bonus = 0


class Weapon(Model):
    id: Id
    name: str
    dice: DiceText
    kind: Literal["melee", "ranged", "thrown"] = "melee"
    proficiency: Annotated[int, Field(ge=0, le=3)] = 0
    enhancement: Annotated[int, Field(ge=0, le=6)] = 0
    reach: Annotated[int, Field(ge=1, le=3)] = 1
    range: Annotated[int, Field(ge=1, le=40)] | None = None
    crit_dice: DiceText | None = None
    crit_range: Annotated[int, Field(ge=15, le=20)] = 20


class Armor(Model):
    name: str
    weight: Literal["none", "light", "heavy"] = "light"
    bonus: Annotated[int, Field(ge=0, le=15)] = 0
    enhancement: Annotated[int, Field(ge=0, le=6)] = 0


class Shield(Model):
    name: str
    bonus: Annotated[int, Field(ge=0, le=4)] = 1


class DamageSpec(Model):
    """Damage dice (n[W] allowed for weapon powers), an ability modifier, a flat bonus, types."""

    dice: DiceText
    ability: Ability | None = None
    bonus: Bonus = 0
    types: list[Annotated[str, Field(pattern=ID_PATTERN)]] = []


class Ongoing(Model):
    amount: Annotated[int, Field(ge=1, le=50)]
    type: Annotated[str, Field(pattern=ID_PATTERN)] | None = None


class Modifier(Model):
    stat: ModifierStat
    value: Annotated[int, Field(ge=-10, le=10)]


class EffectSpec(Model):
    """One effect: its parts share one duration and one saving throw (F-SAV-3)."""

    name: str | None = None
    duration: Duration
    to: Literal["target", "self"] = "target"
    conditions: list[str] = []
    ongoing: Ongoing | None = None
    modifiers: list[Modifier] = []
    aftereffect: EffectSpec | None = None

    @field_validator("conditions")
    @classmethod
    def _known_conditions(cls, value: list[str]) -> list[str]:
        for name in value:
            if name not in CONDITION_NAMES:
                raise ValueError(f"unknown condition {name!r}")
        return value

    @model_validator(mode="after")
    def _has_parts(self) -> EffectSpec:
        if not (self.conditions or self.ongoing or self.modifiers):
            raise ValueError("an effect needs conditions, ongoing damage or modifiers")
        if self.aftereffect is not None and self.duration != "save_ends":
            raise ValueError("only a save-ends effect can have an aftereffect (F-SAV-4)")
        return self


class Forced(Model):
    kind: Literal["push", "pull", "slide"]
    distance: Annotated[int, Field(ge=1, le=6)]


class Heal(Model):
    """Healing: optionally spend a healing surge of the healed creature (X-HP-2), plus dice."""

    surge: bool = False
    dice: DiceText | None = None
    ability: Ability | None = None
    bonus: Bonus = 0
    temp_hp: Annotated[int, Field(ge=0, le=50)] = 0


class Outcome(Model):
    damage: DamageSpec | None = None
    half_damage: bool = False
    effects: list[EffectSpec] = []
    forced: Forced | None = None
    heal: Heal | None = None
    grant_save: bool = False


class AttackSpec(Model):
    """The attack roll: `ability` given = computed per F-ATK-2; else `bonus` is the whole base."""

    vs: Defense
    ability: Ability | None = None
    bonus: Bonus = 0


class Power(Model):
    id: Id
    name: str
    usage: Usage = "at-will"
    recharge: Annotated[int, Field(ge=2, le=6)] | None = None
    action: ActionType = "standard"
    kind: PowerKind = "melee"
    keywords: list[str] = []
    basic: bool = False
    weapon: str | None = None
    reach: Annotated[int, Field(ge=1, le=5)] | None = None
    range: Annotated[int, Field(ge=1, le=40)] | None = None
    burst: Annotated[int, Field(ge=0, le=10)] | None = None
    blast: Annotated[int, Field(ge=1, le=10)] | None = None
    target: TargetWho = "enemy"
    targets: Annotated[int, Field(ge=1, le=10)] = 1
    attack: AttackSpec | None = None
    hit: Outcome | None = None
    miss: Outcome | None = None
    effect: Outcome | None = None
    crit_range: Annotated[int, Field(ge=15, le=20)] | None = None
    description: str = ""

    @model_validator(mode="after")
    def _shape(self) -> Power:
        if self.usage == "recharge" and self.recharge is None:
            raise ValueError("a recharge power needs `recharge` (the d6 face it returns on)")
        if self.recharge is not None and self.usage != "recharge":
            raise ValueError("`recharge` is only for usage: recharge")
        if self.kind == "ranged" and self.range is None:
            raise ValueError("a ranged power needs `range`")
        if self.kind == "area" and (self.range is None or self.burst is None):
            raise ValueError("an area power needs `range` and `burst`")
        if self.kind == "close" and (self.burst is None) == (self.blast is None):
            raise ValueError("a close power needs exactly one of `burst` or `blast`")
        if self.attack is None and self.hit is not None:
            raise ValueError("`hit` needs an `attack`; use `effect` for powers without a roll")
        if self.attack is not None and self.hit is None and self.miss is None:
            raise ValueError("an attack power needs a `hit` outcome")
        return self

    @property
    def is_area(self) -> bool:
        return self.kind in ("close", "area")


class Creature(Model):
    id: Id
    name: str
    kind: Literal["pc", "monster"] = "monster"
    level: Annotated[int, Field(ge=1, le=30)] = 1
    role: Role | None = None
    size: SizeName = "medium"
    speed: Annotated[int, Field(ge=0, le=20)] = 6
    hp: Annotated[int, Field(ge=1, le=1000)]
    abilities: Abilities = Abilities()
    defenses: Defenses | None = None
    defense_bonuses: DefenseBonuses = DefenseBonuses()
    armor: Armor | None = None
    shield: Shield | None = None
    weapons: list[Weapon] = []
    powers: list[Id] = []
    skills: Skills = Skills()
    initiative: Bonus | None = None
    resist: dict[Annotated[str, Field(pattern=ID_PATTERN)], Annotated[int, Field(ge=1, le=50)]] = {}
    vulnerable: dict[
        Annotated[str, Field(pattern=ID_PATTERN)], Annotated[int, Field(ge=1, le=50)]
    ] = {}
    insubstantial: bool = False
    invisible: bool = False
    minion: bool = False
    healing_surges: Small = 0
    action_points: Annotated[int, Field(ge=0, le=3)] | None = None
    second_wind: bool | None = None
    reach: Annotated[int, Field(ge=1, le=3)] | None = None
    glyph: Annotated[str, Field(min_length=1, max_length=1)] | None = None
    race: str | None = None
    description: str = ""

    @model_validator(mode="after")
    def _shape(self) -> Creature:
        if self.kind == "monster" and self.defenses is None:
            raise ValueError("a monster needs `defenses` (ac, fortitude, reflex, will)")
        if self.kind == "monster" and self.role is None:
            raise ValueError("a monster needs a `role`")
        if self.minion and self.hp != 1:
            raise ValueError("a minion has exactly 1 hit point")
        return self


class LegendEntry(Model):
    terrain: Literal["floor", "wall", "pillar", "obstacle", "pit"] = "floor"
    difficult: bool = False
    obscured: Literal["none", "lightly_obscured", "heavily_obscured", "totally_obscured"] = "none"
    depth: Annotated[int, Field(ge=0, le=100)] = 0
    description: str = ""


class MapSpec(Model):
    name: str
    grid: Annotated[str, Field(min_length=1)]
    legend: dict[Annotated[str, Field(min_length=1, max_length=1)], LegendEntry] = {}


class Combatant(Model):
    id: Id
    creature: Id
    side: Id
    name: str | None = None
    control: Control | None = None
    pos: tuple[Annotated[int, Field(ge=0)], Annotated[int, Field(ge=0)]]
    surprised: bool | None = None


class Side(Model):
    control: Control = "ai"


class Surprise(Model):
    """Who is surprised: stated by id/side, or decided by Stealth against Perception (file 003)."""

    mode: Literal["stated", "stealth"] = "stated"
    surprised: list[Id] = []
    hidden: list[Id] = []

    @model_validator(mode="after")
    def _shape(self) -> Surprise:
        if self.mode == "stated" and not self.surprised:
            raise ValueError("stated surprise needs `surprised`: creature ids or side names")
        if self.mode == "stealth" and not self.hidden:
            raise ValueError("stealth surprise needs `hidden`: the sides or ids that lie in wait")
        return self


class Library(Model):
    """A content file of creatures and powers (a bestiary or a party)."""

    creatures: list[Creature] = []
    powers: list[Power] = []


class Encounter(Model):
    name: Id
    description: str = ""
    ruleset: RulesetName = "ffd20"
    map: MapSpec
    include: list[str] = []
    creatures: list[Creature] = []
    powers: list[Power] = []
    sides: dict[Id, Side] = {}
    combatants: Annotated[list[Combatant], Field(min_length=2)]
    surprise: Surprise | None = None
    round_limit: Annotated[int, Field(ge=1, le=500)] = 50
