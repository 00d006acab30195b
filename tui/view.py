"""A frozen picture of the fight, taken while the engine is still, for the widgets to draw.

The engine runs in a worker thread; a widget may repaint at any moment (a resize, a cursor
key). So widgets never read the live `Battle`: the controller takes a `View` under its lock
after every change and the screen hands it down. A view is plain data and cheap to build.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.attacks import defense_value
from engine.conditions import BY_NAME
from engine.content.schema import Power
from engine.encounter import Encounter
from engine.powers import power_range
from engine.state import ActiveEffect, Combatant
from engine.visibility import Known
from tui.glyphs import HIDDEN, friendly_sides, token_letters
from tui.logtext import DEFENSE, DURATION

Square = tuple[int, int]
DOWN_STATES = ("unconscious", "dying", "stable")


@dataclass(frozen=True, slots=True)
class PowerView:
    id: str
    name: str
    action: str
    kind: str
    reach: str
    """Short range text: "melee 1", "ranged 20", "blast 3", "area burst 1 within 10"."""
    usage: str
    spent: bool
    attack: str
    """"+6 vs AC" style text, or "" for powers without an attack roll."""
    description: str


@dataclass(frozen=True, slots=True)
class EffectView:
    name: str
    parts: str
    duration: str


@dataclass(frozen=True, slots=True)
class CreatureView:
    id: str
    name: str
    side: str
    pc: bool
    letter: str
    number: str
    pos: Square
    size: int
    hp: int
    max_hp: int
    temp_hp: int
    state: str
    conditions: tuple[str, ...]
    """Condition names, sorted."""
    effects: tuple[EffectView, ...]
    defenses: tuple[int, int, int, int]
    speed: int
    surges: int
    action_points: int
    second_wind_used: bool
    delayed: bool
    control: str
    powers: tuple[PowerView, ...]
    role: str
    level: int
    death_failures: int
    damage_dealt: int = 0
    damage_taken: int = 0
    drops: int = 0
    friendly: bool = False
    """On your side (capital letter): the player characters' side and their allies."""
    sight: str = "seen"
    """What your side knows of it (`engine.visibility`): own, seen or hidden."""
    last_seen: Square | None = None
    """Hidden: where your side last saw it (None: never)."""

    @property
    def hidden(self) -> bool:
        return self.sight == "hidden"

    @property
    def alive(self) -> bool:
        return self.state != "dead"

    @property
    def down(self) -> bool:
        return self.state in DOWN_STATES

    @property
    def bloodied(self) -> bool:
        return self.state == "bloodied"

    @property
    def token(self) -> str:
        """Two characters for the grid: the letter, then down/bloodied/number/space."""
        if self.down:
            return self.letter + "_"
        if self.hidden:
            return self.letter + HIDDEN
        if self.bloodied:
            return self.letter + "!"
        return self.letter + (self.number or " ")

    @property
    def label(self) -> str:
        return (self.letter + self.number).ljust(2)

    @property
    def codes(self) -> str:
        return " ".join(BY_NAME[c].code for c in self.conditions if c in BY_NAME)

    def squares(self) -> list[Square]:
        x, y = self.pos
        return [(x + dx, y + dy) for dy in range(self.size) for dx in range(self.size)]


@dataclass(frozen=True, slots=True)
class View:
    round: int
    current: str | None
    order: tuple[str, ...]
    creatures: dict[str, CreatureView] = field(default_factory=dict)
    over: bool = False
    winner: str | None = None
    end_reason: str | None = None
    surprise: bool = False
    actions: tuple[bool, bool, bool] = (False, False, False)
    """Standard, move and minor action still available to the current creature."""
    moved: bool = False
    fog: bool = False
    """A player's view: hidden creatures are not shown where they are (only where last seen).
    False: the GM's (or an all-AI watcher's) view, which shows them, marked hidden."""

    def shown(self, c: CreatureView) -> bool:
        """Is `c` drawn where it stands in this view?"""
        return c.alive and not (self.fog and c.hidden)

    def at(self, sq: Square) -> CreatureView | None:
        for c in self.creatures.values():
            if self.shown(c) and sq in c.squares():
                return c
        return None

    @property
    def active(self) -> CreatureView | None:
        return self.creatures.get(self.current) if self.current else None


def power_reach(c: Combatant, p: Power) -> str:
    if p.kind == "melee":
        return f"melee {power_range(c, p)}"
    if p.kind == "ranged":
        return f"ranged {p.range}"
    if p.kind == "close":
        return f"blast {p.blast}" if p.blast is not None else f"burst {p.burst}"
    if p.kind == "area":
        return f"burst {p.burst} in {p.range}"
    return "personal"


def _power_view(enc: Encounter, c: Combatant, p: Power) -> PowerView:
    attack = ""
    if p.attack is not None:
        ws = c.weapon_for(p)
        bonus = sum(m.value for m in enc.battle.ruleset.attack_modifiers(c, p, ws))
        attack = f"{bonus:+d} vs {DEFENSE.get(p.attack.vs, p.attack.vs)}"
    usage = p.usage if p.usage != "recharge" else f"recharge {p.recharge}+"
    return PowerView(
        p.id,
        p.name,
        p.action,
        p.kind,
        power_reach(c, p),
        usage,
        p.usage != "at-will" and p.id in c.used_powers,
        attack,
        p.description,
    )


def _effect_view(enc: Encounter, e: ActiveEffect) -> EffectView:
    bits = [*e.conditions]
    if e.ongoing:
        bits.append(f"ongoing {e.ongoing}" + (f" {e.ongoing_type}" if e.ongoing_type else ""))
    bits.extend(f"{s} {v:+d}" for s, v in e.modifiers)
    owner = enc.battle.combatants.get(e.owner or "")
    dur = DURATION.get(e.duration, e.duration).format(owner=owner.name if owner else "its owner")
    return EffectView(e.name, ", ".join(bits), dur)


def friends_of(enc: Encounter) -> set[str]:
    """The sides drawn as yours (capital letters), fixed for the fight (`friendly_sides`)."""
    return friendly_sides([(c.side, c.pc) for c in enc.battle.combatants.values()])


def _actions_left(enc: Encounter) -> tuple[bool, bool, bool]:
    """[SMm]: an action of each kind not yet spent and still allowed. A spent move shows as
    spent at once, though the standard could still be taken as a move (F-TRN-1): the help
    says so."""
    spent = enc.battle.spent
    s = enc.can_spend("standard")
    m = enc.can_spend("move") and not spent.get("move", 0)
    n = enc.can_spend("minor") and not spent.get("minor", 0)
    return s, m, n


def take(
    enc: Encounter,
    known: dict[str, Known] | None = None,
    fog: bool = False,
) -> View:
    """Build a view; the caller holds the engine lock. Who plays whom is read from the
    encounter (`Combatant.control`, the one place that holds it). `known`: what your side
    knows of each creature (`engine.visibility`); `fog`: hide what it can't see (a player's
    view)."""
    b = enc.battle
    friends = friends_of(enc)
    letters = token_letters(
        [(c.id, c.creature.glyph or c.name, c.side in friends) for c in b.combatants.values()]
    )
    creatures: dict[str, CreatureView] = {}
    for c in b.combatants.values():
        letter, number = letters[c.id]
        seen = known.get(c.id) if known else None
        defs = tuple(
            defense_value(b, c, d, None, "melee") for d in ("ac", "fortitude", "reflex", "will")
        )
        effects = tuple(_effect_view(enc, e) for e in b.effects.values() if e.target == c.id)
        creatures[c.id] = CreatureView(
            id=c.id,
            name=c.name,
            side=c.side,
            pc=c.pc,
            letter=letter,
            number=number,
            pos=c.pos,
            size=c.size,
            hp=c.hp,
            max_hp=c.max_hp,
            temp_hp=c.temp_hp,
            state=c.state,
            conditions=tuple(sorted(b.conditions(c))) if c.alive else (),
            effects=effects,
            defenses=defs,  # type: ignore[arg-type]
            speed=b.speed(c),
            surges=c.surges,
            action_points=c.action_points,
            second_wind_used=c.second_wind_used,
            delayed=c.delayed,
            control=c.control,
            powers=tuple(_power_view(enc, c, p) for p in c.powers),
            role=c.creature.role or ("hero" if c.pc else "monster"),
            level=c.level,
            death_failures=c.death_failures,
            damage_dealt=c.damage_dealt,
            damage_taken=c.damage_taken,
            drops=c.drops,
            friendly=c.side in friends,
            sight=seen.sight if seen else "seen",
            last_seen=seen.square if seen and seen.sight == "hidden" else None,
        )
    cur = b.current
    actions = _actions_left(enc) if cur else (False, False, False)
    return View(
        round=b.round,
        current=cur,
        order=tuple(b.order),
        creatures=creatures,
        over=b.over,
        winner=b.winner,
        end_reason=b.end_reason,
        surprise=b.surprise_round,
        actions=actions,
        moved=b.moved_this_turn,
        fog=fog,
    )
