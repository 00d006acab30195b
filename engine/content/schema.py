"""The content format: creatures, powers, maps and encounters as strict, frozen models.

Content is user-written YAML, so every model forbids unknown keys (a typo is an error, not a
silently ignored field) and checks ranges. The loader (`engine.content.loader`) maps each
validation error back to the file, line and field it came from. The engine reads these
definitions; it never changes them (runtime state lives in `engine.state`).
"""

from __future__ import annotations

import builtins
import unicodedata
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.conditions import CONDITION_NAMES
from engine.content.limits import (
    MAX_COMBATANTS,
    MAX_CREATURES,
    MAX_GRID_CHARS,
    MAX_INCLUDES,
    MAX_LEGEND,
    MAX_LIST,
    MAX_NAME,
    MAX_POWERS,
    MAX_TEXT,
)
from engine.content.styles import AIStyle
from engine.dice import DiceExpr

Ability = Literal["str", "con", "dex", "int", "wis", "cha"]
Defense = Literal["ac", "fortitude", "reflex", "will"]
Role = Literal["brute", "soldier", "skirmisher", "artillery", "controller", "lurker"]
SizeName = Literal["small", "medium", "large"]
Usage = Literal["at-will", "encounter", "daily", "recharge"]
ActionType = Literal[
    "standard", "move", "minor", "free", "immediate", "immediate_interrupt", "immediate_reaction"
]
TRIGGERED_ACTIONS = ("immediate_interrupt", "immediate_reaction")
"""Action types of powers that go off by themselves when their `trigger` happens."""
TriggerKind = Literal[
    "hit",
    "missed",
    "damaged",
    "enemy_enters",
    "enemy_leaves",
    "ally_bloodied",
    "ally_dropped",
    "self_bloodied",
    "self_dropped",
    "turn_start",
    "turn_end",
]
"""What sets off a triggered power (docs/content.md, Triggered powers: the closed set)."""
INTERRUPT_TRIGGERS = frozenset(
    {"hit", "missed", "enemy_enters", "enemy_leaves", "self_dropped", "turn_start", "turn_end"}
)
"""Triggers an interrupt can precede; the others (damage, bloodied, an ally dropped) have
happened by the time anyone can act, so only reactions follow them."""
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
Feat = Literal["weapon_finesse", "weapon_focus", "combat_reflexes", "uncanny_dodge"]
BonusType = Literal[
    "untyped",
    "racial",
    "feat",
    "enhancement",
    "item",
    "power",
    "armor",
    "shield",
    "deflection",
    "natural",
    "dodge",
]
BonusStat = Literal["attack", "damage", "ac", "fortitude", "reflex", "will", "defenses", "speed"]
Control = Literal["player", "ai"]
ID_PATTERN = r"^[a-z][a-z0-9_-]*$"

Id = Annotated[str, Field(pattern=ID_PATTERN, max_length=40)]


def _shown_char(text: str, allowed: str = "") -> str:
    """Refuse characters that are invisible or act on the terminal: controls (ESC, BEL, C1),
    bidi overrides and zero-width characters (Unicode category C). Names are shown in the
    map, the initiative list and the log, where such a character is an attack, not a name."""
    for i, c in enumerate(text):
        if c not in allowed and unicodedata.category(c)[0] == "C":
            raise ValueError(
                f"must not contain control or invisible characters "
                f"(U+{ord(c):04X} at character {i + 1})"
            )
    return text


def _plain_text(text: str) -> str:
    return _shown_char(text, "\n\t")


Name = Annotated[str, Field(max_length=MAX_NAME), AfterValidator(_shown_char)]
"""A display name: one line, at most MAX_NAME characters, nothing invisible."""
Text = Annotated[str, Field(max_length=MAX_TEXT), AfterValidator(_plain_text)]
"""Free text (a description): lines and tabs allowed, nothing else invisible."""
Word = Annotated[str, Field(max_length=MAX_NAME), AfterValidator(_shown_char)]
DiceText = Annotated[str, Field(min_length=1, max_length=60)]
Small = Annotated[int, Field(ge=0, le=50)]
Bonus = Annotated[int, Field(ge=-20, le=40)]


class Model(BaseModel):
    """Base: unknown keys are errors and definitions never change after loading."""

    model_config = ConfigDict(extra="forbid", frozen=True)


PYDANTIC_GETATTR = BaseModel.__dict__.get("__getattr__")
"""pydantic's `BaseModel.__getattr__`, taken off the class below (`plain_reads`)."""


def plain_reads() -> bool:
    """Let the interpreter read content models' fields as plain attributes: take pydantic's
    `BaseModel.__getattr__` away when no model class in the process has a private attribute
    or takes extra fields (the only two things it serves: with neither, it is reached only to
    raise the `AttributeError` that plain lookup raises anyway). Whether a class defines
    `__getattr__` anywhere in its bases decides how CPython reads every attribute of its
    instances: with one, each `power.kind` goes through the generic "getattr hook", which
    the interpreter can't specialise (measured: about 6k instructions of an attack's 119k
    through `Encounter.apply`, docs/ai.md "Speed"). Called once this module's models are
    made; tests/engine/test_schema_reads.py holds every model class of the program to the
    same (a class made later with a private attribute would find it unreadable). True when
    the hook is off."""
    if "__getattr__" not in BaseModel.__dict__:
        return True
    if any(_needs_getattr(cls) for cls in _model_classes()):
        return False
    delattr(BaseModel, "__getattr__")
    return True


def _model_classes() -> list[type[BaseModel]]:
    out: list[type[BaseModel]] = []
    todo = [BaseModel]
    while todo:
        cls = todo.pop()
        subs = cls.__subclasses__()
        out.extend(subs)
        todo.extend(subs)
    return out


def _needs_getattr(cls: type[BaseModel]) -> bool:
    """Would pydantic's `__getattr__` ever answer for an instance of `cls`?"""
    private = getattr(cls, "__private_attributes__", None)
    return bool(private) or cls.model_config.get("extra") == "allow"


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
    heal: Bonus = 0
    """A Heal check stabilizes an adjacent dying creature (DC 15; issue 16)."""


class Weapon(Model):
    id: Id
    name: Name
    dice: DiceText
    kind: Literal["melee", "ranged", "thrown"] = "melee"
    proficiency: Annotated[int, Field(ge=0, le=3)] = 0
    enhancement: Annotated[int, Field(ge=0, le=6)] = 0
    reach: Annotated[int, Field(ge=1, le=3)] = 1
    range: Annotated[int, Field(ge=1, le=40)] | None = None
    crit_dice: DiceText | None = None
    crit_range: Annotated[int, Field(ge=15, le=20)] = 20
    handed: Literal["light", "one", "two"] = "one"
    """4srd: a light thrown weapon attacks with Dex, a heavy one with Str (S-4); d20srd:
    Weapon Finesse works with light weapons, two-handed ones add 1.5 x Str (D-1, D-7)."""
    finesse: bool = False
    """d20srd: usable with Weapon Finesse though not light (a rapier)."""
    off_hand: bool = False
    """d20srd: wielded in the off hand: half the Str bonus to damage (D-7)."""
    crit_multiplier: Annotated[int, Field(ge=2, le=4)] = 2
    """d20srd: the critical multiplier (D-9); `crit_range` is its threat range (D-8)."""
    proficient: bool = True
    """d20srd: -4 to attack with a weapon the wielder is not proficient with (D-1)."""
    focus: bool = False
    """d20srd: the wielder has Weapon Focus with it (+1 to attack, D-1)."""


class Armor(Model):
    name: Name
    weight: Literal["none", "light", "heavy"] = "light"
    bonus: Annotated[int, Field(ge=0, le=15)] = 0
    enhancement: Annotated[int, Field(ge=0, le=6)] = 0
    max_dex: Annotated[int, Field(ge=0, le=10)] | None = None
    """d20srd: the highest Dex modifier that still adds to AC in this armor (D-2)."""
    check_penalty: Annotated[int, Field(ge=0, le=10)] = 0
    """d20srd: armor check penalty, taken on attack rolls when not proficient (D-1)."""
    proficient: bool = True


class TypedBonus(Model):
    """A bonus with a type: same-type bonuses don't stack in 4srd (S-9) and d20srd (D-2)."""

    stat: BonusStat
    type: BonusType = "untyped"
    value: Bonus
    source: Word = ""


class Shield(Model):
    name: Name
    bonus: Annotated[int, Field(ge=0, le=4)] = 1


class DamageSpec(Model):
    """Damage dice (n[W] allowed for weapon powers), an ability modifier, a flat bonus, types."""

    dice: DiceText
    ability: Ability | None = None
    bonus: Bonus = 0
    types: Annotated[
        list[Annotated[str, Field(pattern=ID_PATTERN, max_length=40)]], Field(max_length=MAX_LIST)
    ] = []
    multiplier: Annotated[int, Field(ge=1, le=4)] = 1
    """The power multiplies its damage: the dice are rolled this many times (S-7, D-9)."""


class Ongoing(Model):
    amount: Annotated[int, Field(ge=1, le=50)]
    type: Annotated[str, Field(pattern=ID_PATTERN)] | None = None


class Modifier(Model):
    stat: ModifierStat
    value: Annotated[int, Field(ge=-10, le=10)]


class EffectSpec(Model):
    """One effect: its parts share one duration and one saving throw (F-SAV-3)."""

    name: Name | None = None
    duration: Duration
    to: Literal["target", "self"] = "target"
    conditions: Annotated[list[str], Field(max_length=MAX_LIST)] = []
    ongoing: Ongoing | None = None
    modifiers: Annotated[list[Modifier], Field(max_length=MAX_LIST)] = []
    grants_ca: Literal["all", "source"] | None = None
    """The affected creature grants combat advantage to every attacker (`all`) or to the
    effect's source, the power's user, only (`source`) while the effect lasts."""
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
        if not (self.conditions or self.ongoing or self.modifiers or self.grants_ca):
            raise ValueError("an effect needs conditions, ongoing damage, modifiers or grants_ca")
        if self.aftereffect is not None and self.duration != "save_ends":
            raise ValueError("only a save-ends effect can have an aftereffect (F-SAV-4)")
        return self


class Trigger(Model):
    """When a triggered power goes off (docs/content.md, Triggered powers)."""

    when: TriggerKind
    range: Annotated[int, Field(ge=1, le=20)] = 1
    """enemy_enters/enemy_leaves, ally_bloodied/ally_dropped: within this many squares
    (1: adjacent)."""
    creature: Id | None = None
    """turn_start/turn_end: whose turn: a combatant or creature id, or `enemy` / `ally`."""
    melee_only: bool = False
    """hit/missed: only melee attacks set it off."""

    @model_validator(mode="after")
    def _shape(self) -> Trigger:
        turn = self.when in ("turn_start", "turn_end")
        if turn and self.creature is None:
            raise ValueError(f"trigger {self.when!r} needs `creature`: an id, `enemy` or `ally`")
        if not turn and self.creature is not None:
            raise ValueError(f"`creature` is only for turn_start/turn_end, not {self.when!r}")
        if self.melee_only and self.when not in ("hit", "missed"):
            raise ValueError("`melee_only` is only for the hit and missed triggers")
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
    effects: Annotated[list[EffectSpec], Field(max_length=MAX_LIST)] = []
    forced: Forced | None = None
    heal: Heal | None = None
    grant_save: bool = False
    shift: Annotated[int, Field(ge=1, le=6)] | None = None
    """The power's user shifts up to this many squares (a dodge that can void an attack)."""


class AttackSpec(Model):
    """The attack roll: `ability` given = computed per F-ATK-2; else `bonus` is the whole base."""

    vs: Defense
    ability: Ability | None = None
    bonus: Bonus = 0
    touch: bool = False
    """d20srd: a touch attack: armor, shield and natural armor don't count (D-3)."""


class Power(Model):
    id: Id
    name: Name
    usage: Usage = "at-will"
    recharge: Annotated[int, Field(ge=2, le=6)] | None = None
    action: ActionType = "standard"
    kind: PowerKind = "melee"
    keywords: Annotated[list[Word], Field(max_length=MAX_LIST)] = []
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
    trigger: Trigger | None = None
    """What sets off an immediate_interrupt / immediate_reaction power."""
    crit_range: Annotated[int, Field(ge=15, le=20)] | None = None
    includes_user: bool = False
    """A close burst or blast includes its user only when this says so (the usual 4e
    reading: "each creature in the burst" means each other creature)."""
    description: Text = ""

    @model_validator(mode="after")
    def _shape(self) -> Power:
        if self.includes_user and self.kind != "close":
            raise ValueError("`includes_user` is only for close powers (burst or blast)")
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
        _triggered_shape(self)
        return self

    @property
    def is_area(self) -> bool:
        return self.kind in ("close", "area")


def _triggered_shape(p: Power) -> None:
    """A trigger belongs to a triggered power, and a triggered power has one it can act on."""
    if p.action in TRIGGERED_ACTIONS:
        if p.trigger is None:
            raise ValueError(f"an {p.action} power needs a `trigger`")
        if p.kind == "area" or p.blast is not None:
            raise ValueError("a triggered power is melee, ranged, personal or a close burst")
        if p.trigger.when not in INTERRUPT_TRIGGERS and p.action == "immediate_interrupt":
            raise ValueError(
                f"trigger {p.trigger.when!r} happens after the fact: make it an immediate_reaction"
            )
        if p.trigger.when == "self_dropped" and p.action == "immediate_reaction":
            raise ValueError(
                "a creature that has dropped can't react: make self_dropped an "
                "immediate_interrupt (it goes off as the creature falls)"
            )
    elif p.trigger is not None:
        raise ValueError(
            f"`trigger` is only for immediate_interrupt or immediate_reaction powers, "
            f"not a {p.action} action"
        )


class Creature(Model):
    id: Id
    name: Name
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
    weapons: Annotated[list[Weapon], Field(max_length=MAX_LIST)] = []
    powers: Annotated[list[Id], Field(max_length=MAX_LIST)] = []
    skills: Skills = Skills()
    initiative: Bonus | None = None
    resist: dict[Annotated[str, Field(pattern=ID_PATTERN)], Annotated[int, Field(ge=1, le=50)]] = {}
    vulnerable: dict[
        Annotated[str, Field(pattern=ID_PATTERN)], Annotated[int, Field(ge=1, le=50)]
    ] = {}
    immune: Annotated[list[str], Field(max_length=MAX_LIST)] = []
    """Damage types and power keywords it is immune to (`engine.immunity`, issue 16)."""
    insubstantial: bool = False
    invisible: bool = False
    minion: bool = False
    healing_surges: Small = 0
    action_points: Annotated[int, Field(ge=0, le=3)] | None = None
    save_bonus: Annotated[int, Field(ge=0, le=20)] = 0
    """Added to every saving throw it makes (an elite's +2, a solo's +5; F-SAV-1)."""
    second_wind: bool | None = None
    reach: Annotated[int, Field(ge=1, le=3)] | None = None
    glyph: Annotated[str, Field(min_length=1, max_length=1)] | None = None
    race: Name | None = None
    description: Text = ""
    typed_bonuses: Annotated[list[TypedBonus], Field(max_length=MAX_LIST)] = []
    feats: list[Feat] = []
    bab: Annotated[int, Field(ge=0, le=20)] | None = None
    """d20srd: base attack bonus (D-1); a monster with one may leave `defenses` out."""
    damage_reduction: Annotated[int, Field(ge=0, le=50)] = 0
    """d20srd: DR N/-: subtracted from untyped damage, down to 0 (D-11)."""
    sneak_attack: DiceText | None = None
    """d20srd: extra dice against a flat-footed or flanked target, never multiplied (D-10)."""
    ai: AIStyle | None = None
    """How the AI plays it (`engine.content.styles`); over its side's `ai`."""

    @field_validator("immune")
    @classmethod
    def _known_immunities(cls, value: list[str]) -> list[str]:
        from engine.content.errors import did_you_mean
        from engine.immunity import IMMUNITIES

        for name in value:
            if name not in IMMUNITIES:
                hint = did_you_mean(name, IMMUNITIES)
                raise ValueError(
                    f"an immunity to {name!r} protects from nothing{hint}: name a damage type "
                    f"or a keyword ({', '.join(IMMUNITIES)})"
                )
        return value

    @field_validator("sneak_attack")
    @classmethod
    def _dice(cls, value: str | None) -> str | None:
        if value is not None:
            DiceExpr.parse(value)  # a DiceError is a ValueError: reported at the field
        return value

    @model_validator(mode="after")
    def _shape(self) -> Creature:
        if self.kind == "monster" and self.defenses is None and self.bab is None:
            raise ValueError("a monster needs `defenses` (ac, fortitude, reflex, will)")
        if any(w.focus for w in self.weapons) and "weapon_focus" not in self.feats:
            raise ValueError("a weapon with `focus: true` needs the `weapon_focus` feat")
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
    description: Text = ""


class MapSpec(Model):
    name: Name
    grid: Annotated[str, Field(min_length=1, max_length=MAX_GRID_CHARS)]
    legend: Annotated[
        dict[
            Annotated[str, Field(min_length=1, max_length=1), AfterValidator(_shown_char)],
            LegendEntry,
        ],
        Field(max_length=MAX_LEGEND),
    ] = {}


class StartEffect(EffectSpec):
    """An effect a combatant starts with (a fight moved from the table, issue 16 item 7):
    an effect as a power gives it, plus who gave it (`source`, a combatant id: whose turns a
    start/end-of-turn duration counts, the owner of a sustained one)."""

    source: Id | None = None


class Combatant(Model):
    id: Id
    creature: Id
    side: Id
    name: Name | None = None
    control: Control | None = None
    pos: tuple[Annotated[int, Field(ge=0)], Annotated[int, Field(ge=0)]]
    surprised: bool | None = None
    # A fight that starts mid-way (issue 16 item 7): the state it is in when placed.
    hp: Annotated[int, Field(ge=-1000, le=1000)] | None = None
    """Starting hit points (default: the creature's maximum); below 0 it starts dying."""
    temp_hp: Annotated[int, Field(ge=0, le=500)] = 0
    surges_spent: Small = 0
    powers_spent: Annotated[list[Id], Field(max_length=MAX_LIST)] = []
    """Encounter and daily powers already used (and recharge powers not yet recharged)."""
    action_points: Annotated[int, Field(ge=0, le=3)] | None = None
    """Action points left (default: the creature's)."""
    action_point_used: bool = False
    second_wind_used: bool = False
    death_failures: Annotated[int, Field(ge=0, le=2)] = 0
    effects: Annotated[list[StartEffect], Field(max_length=MAX_LIST)] = []
    arrives_round: Annotated[int, Field(ge=2, le=500)] | None = None
    """A reinforcement: off the map until this round starts, then it rolls initiative."""
    ai: AIStyle | None = None
    """How the AI plays this one (over its creature's and its side's `ai`)."""


class Side(Model):
    control: Control = "ai"
    ai: AIStyle | None = None


class Surprise(Model):
    """Who is surprised: stated by id/side, or decided by Stealth against Perception (file 003)."""

    mode: Literal["stated", "stealth"] = "stated"
    surprised: Annotated[list[Id], Field(max_length=MAX_COMBATANTS)] = []
    hidden: Annotated[list[Id], Field(max_length=MAX_COMBATANTS)] = []

    @model_validator(mode="after")
    def _shape(self) -> Surprise:
        if self.mode == "stated" and not self.surprised:
            raise ValueError("stated surprise needs `surprised`: creature ids or side names")
        if self.mode == "stealth" and not self.hidden:
            raise ValueError("stealth surprise needs `hidden`: the sides or ids that lie in wait")
        return self


class Library(Model):
    """A content file of creatures and powers (a bestiary or a party)."""

    creatures: Annotated[list[Creature], Field(max_length=MAX_CREATURES)] = []
    powers: Annotated[list[Power], Field(max_length=MAX_POWERS)] = []


class Encounter(Model):
    name: Id
    description: Text = ""
    ruleset: Annotated[str, Field(max_length=40)] = "ffd20"
    map: MapSpec
    include: Annotated[
        list[Annotated[str, Field(max_length=200)]], Field(max_length=MAX_INCLUDES)
    ] = []
    creatures: Annotated[list[Creature], Field(max_length=MAX_CREATURES)] = []
    powers: Annotated[list[Power], Field(max_length=MAX_POWERS)] = []
    sides: Annotated[dict[Id, Side], Field(max_length=MAX_COMBATANTS)] = {}
    combatants: Annotated[list[Combatant], Field(min_length=2, max_length=MAX_COMBATANTS)]
    surprise: Surprise | None = None
    round_limit: Annotated[int, Field(ge=1, le=500)] = 50

    @field_validator("ruleset")
    @classmethod
    def _known_ruleset(cls, value: str) -> str:
        return check_ruleset(value)


def check_ruleset(name: str) -> str:
    """`name` if a ruleset has it, else ValueError: "must be one of: ffd20, 4srd, ..." (the
    names come from the ruleset registry, imported here late: rulesets read this module)."""
    from engine.content.errors import did_you_mean
    from engine.rulesets import ruleset_names

    names = ruleset_names()
    if name not in names:
        hint = did_you_mean(name, names).replace(" (did", "; did").rstrip(")")
        raise ValueError(f"must be one of: {', '.join(names)} (got {name!r}{hint})")
    return name


plain_reads()  # (every model class of the content format is made by now)
