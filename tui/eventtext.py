"""One small function per event type, registered by that type: the wording of each event.

`tui.logtext.LogFormatter` is the one renderer (the log pane, `skirmish export --format text`,
the replay viewer and the save commands all read their lines from it); it looks an event's
function up here by the event's class. A new event type gets its wording by adding one
function with `@renders(NewEvent)`; an event with no function is bookkeeping nobody reads.

Each function gets a `Wording` (the display names and the effect names seen so far) and the
event, and returns the line's kind (for colour) and text, or None for no line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Literal, Protocol, TypeVar

from engine.events import (
    ActionSpent,
    Arrive,
    Attack,
    Check,
    Damage,
    DeathSave,
    Decision,
    EffectEnd,
    EffectStart,
    EncounterEnd,
    EncounterStart,
    Event,
    Gm,
    Heal,
    Immune,
    Initiative,
    InitiativeOrder,
    Mod,
    Moved,
    Note,
    PowerRecharge,
    Provoke,
    RoundStart,
    Save,
    StateChange,
    TempHp,
    Triggered,
    TurnEnd,
    TurnStart,
)
from tui.words import plural

LineKind = Literal[
    "info",
    "round",
    "turn",
    "move",
    "hit",
    "miss",
    "damage",
    "heal",
    "effect",
    "save",
    "state",
    "ai",
    "end",
]
Text = tuple[LineKind, str] | None
DEFENSE = {"ac": "AC", "fortitude": "Fort", "reflex": "Ref", "will": "Will"}
DURATION = {
    "save_ends": "save ends",
    "start_of_next_turn": "until {owner}'s next turn",
    "end_of_next_turn": "until the end of {owner}'s next turn",
    "end_of_encounter": "until the end of the encounter",
    "sustain_standard": "sustain standard",
    "sustain_move": "sustain move",
    "sustain_minor": "sustain minor",
}
ADJUSTMENT = {
    "resist": "resist {n}",
    "vulnerable": "vulnerable {n}",
    "half_on_miss": "half on a miss",
    "weakened": "halved: weakened",
    "insubstantial": "halved: insubstantial",
    "minimum": "minimum damage",
    "temporary_hp": "{n} soaked by temp hp",
}
STATE = {
    "healthy": "is no longer bloodied",
    "bloodied": "is bloodied",
    "unconscious": "falls unconscious",
    "dying": "drops, dying",
    "stable": "is stable",
    "dead": "dies",
}
END_REASON = {
    "save": "saves",
    "expired": "ends",
    "not_sustained": "ends (not sustained)",
    "dead": "ends",
    "encounter_end": "ends",
    "stood_up": "stands up",
    "gm": "ends (GM)",
}
SPECIAL_ACTION = {
    "second_wind": "uses second wind",
    "action_point": "spends an action point",
    "stand_up": "stands up",
    "ready": "readies an action",
    "sustain": "sustains an effect",
}
MOVE_VERB = {
    "walk": "walks",
    "run": "runs",
    "shift": "shifts",
    "push": "is pushed",
    "pull": "is pulled",
    "slide": "is slid",
    "fall": "falls",
}
FORCED = ("push", "pull", "slide", "fall")
DAMAGE_CAUSE = {"ongoing": " (ongoing)", "miss": " (miss)", "fall": " (fall)"}


class Naming(Protocol):
    basic: set[str]
    """Power ids of basic attacks: their name is left out of attack lines."""

    def who(self, cid: str | None) -> str: ...

    def power(self, pid: str | None) -> str: ...


class Wording(Protocol):
    """What an event's function may read: names, the effects seen so far, the options."""

    @property
    def names(self) -> Naming: ...

    @property
    def explain(self) -> bool:
        """Show the AI's reasons (`decision` events)."""
        ...

    @property
    def effects(self) -> dict[str, tuple[str, str]]:
        """Effect id -> (name, target), remembered from `effect_start` for its end and saves."""
        ...


E = TypeVar("E", bound=Event)
Render = Callable[[Wording, Any, int], Text]
RENDERERS: dict[type[Event], Render] = {}


def renders(cls: type[E]) -> Callable[[Callable[[Wording, E, int], Text]], Render]:
    """Register the function that words events of class `cls` (one per class)."""

    def register(fn: Callable[[Wording, E, int], Text]) -> Render:
        if cls in RENDERERS:
            raise ValueError(f"{cls.__name__} already has a renderer")
        RENDERERS[cls] = fn
        return fn

    return register


def event_text(w: Wording, ev: Event, round_: int = 0) -> Text:
    """The line for one event on its own, or None (bookkeeping, or no renderer)."""
    fn = RENDERERS.get(type(ev))
    return fn(w, ev, round_) if fn is not None else None


def mods_text(mods: Iterable[Mod]) -> str:
    parts = []
    for m in mods:
        template = ADJUSTMENT.get(m.source, m.source.replace("_", " ") + " {v:+d}")
        parts.append(template.format(n=abs(m.value), v=m.value))
    return f" ({', '.join(parts)})" if parts else ""


def square_text(sq: Iterable[int]) -> str:
    x, y = sq
    return f"{x},{y}"


# --- the events ---------------------------------------------------------------------------
@renders(EncounterStart)
def _start(w: Wording, ev: EncounterStart, round_: int) -> Text:
    seed = "dice by hand" if ev.seed is None else f"seed {ev.seed}"
    return "info", f"{ev.map.get('name', ev.encounter)}: {ev.ruleset}, {seed}"


@renders(Check)
def _check(w: Wording, ev: Check, round_: int) -> Text:
    ok = "" if ev.success is None else (" (notices)" if ev.success else " (surprised)")
    if ev.skill == "heal":  # first aid (issue 16)
        ok = " (stabilizes)" if ev.success else " (fails)"
    return "info", f"{w.names.who(ev.id)} {ev.skill}: {ev.total}{ok}"


@renders(Initiative)
def _initiative(w: Wording, ev: Initiative, round_: int) -> Text:
    what = "roll-off" if ev.rolloff else "initiative"
    return "info", f"{w.names.who(ev.id)} {what}: {ev.total}"


@renders(InitiativeOrder)
def _order(w: Wording, ev: InitiativeOrder, round_: int) -> Text:
    return "info", "Order: " + ", ".join(w.names.who(c) for c in ev.order)


@renders(RoundStart)
def _round(w: Wording, ev: RoundStart, round_: int) -> Text:
    return "round", f"-- round {round_} --" if round_ else "-- surprise round --"


@renders(TurnStart)
def _turn_start(w: Wording, ev: TurnStart, round_: int) -> Text:
    return "turn", f"{w.names.who(ev.id)}'s turn"


@renders(TurnEnd)
def _turn_end(w: Wording, ev: TurnEnd, round_: int) -> Text:
    return ("turn", f"{w.names.who(ev.id)} delays") if ev.delayed else None


@renders(ActionSpent)
def _action(w: Wording, ev: ActionSpent, round_: int) -> Text:
    special = SPECIAL_ACTION.get(ev.name)
    return ("info", f"{w.names.who(ev.id)} {special}") if special else None


def attack_text(names: Naming, a: Attack, d: Damage | None) -> tuple[LineKind, str]:
    """An attack, with the damage it dealt when `d` is given: one line."""
    verb = {"hit": "hits", "crit": "CRITS", "miss": "misses"}[a.outcome]
    power = "" if a.power in names.basic else f" with {names.power(a.power)}"
    opp = " (opportunity)" if a.opportunity else ""
    nat = " (nat 20)" if a.natural == 20 else " (nat 1)" if a.natural == 1 else ""
    defense = "?" if a.defense is None else str(a.defense)
    text = (
        f"{names.who(a.attacker)} {verb} {names.who(a.target)}{power}{opp}: "
        f"{a.total}{nat} vs {DEFENSE.get(a.vs, a.vs)} {defense}"
    )
    extras = [
        x
        for x, on in (
            ("CA", a.combat_advantage),
            ("flank", a.flanking),
            (a.cover, a.cover != "none"),
            (a.concealment, a.concealment != "none"),
        )
        if on
    ]
    if a.concealment == "total":
        extras[-1] = "total concealment"
    if a.wrong_square:
        extras.append("wrong square")
    if extras:
        text += f" [{', '.join(extras)}]"
    if d is not None:
        text += f", {d.amount} damage{mods_text(d.adjustments)}"
    return ("hit" if a.outcome != "miss" else "miss"), text


@renders(Attack)
def _attack(w: Wording, ev: Attack, round_: int) -> Text:
    return attack_text(w.names, ev, None)


@renders(Moved)
def _moved(w: Wording, ev: Moved, round_: int) -> Text:
    who, to = w.names.who(ev.id), square_text(ev.path[-1])
    if ev.mode == "displaced":
        return "move", f"{who} is set back to {to}"
    cost = f"{len(ev.path) - 1} sq" if ev.mode in FORCED else f"cost {ev.cost}"
    return "move", f"{who} {MOVE_VERB.get(ev.mode, ev.mode)} to {to} ({cost})"


@renders(Provoke)
def _provoke(w: Wording, ev: Provoke, round_: int) -> Text:
    what = "takes" if ev.taken else "lets pass"
    n = w.names
    return "move", f"{n.who(ev.mover)} provokes {n.who(ev.by)}, who {what} an opportunity attack"


@renders(Triggered)
def _triggered(w: Wording, ev: Triggered, round_: int) -> Text:
    n = w.names
    kind = "interrupt" if ev.interrupt else "reaction"
    what = "uses" if ev.taken else "does not use"
    by = f" by {n.who(ev.by)}" if ev.by else ""
    return "info", (
        f"{n.who(ev.id)} {what} {n.power(ev.power)} (immediate {kind}: "
        f"{ev.trigger.replace('_', ' ')}{by})"
    )


@renders(Damage)
def _damage(w: Wording, ev: Damage, round_: int) -> Text:
    n = w.names
    by = f" from {n.who(ev.source)}" if ev.source else ""
    why = DAMAGE_CAUSE.get(ev.cause, "")
    return "damage", (
        f"{n.who(ev.target)} takes {ev.amount} damage{by}{why}{mods_text(ev.adjustments)}"
    )


@renders(Heal)
def _heal(w: Wording, ev: Heal, round_: int) -> Text:
    surge = " (surge)" if ev.surge else ""
    healed = ev.hp_after - max(0, ev.hp_before)
    return "heal", f"{w.names.who(ev.target)} heals {healed}{surge}: {ev.hp_after} hp"


@renders(TempHp)
def _temp_hp(w: Wording, ev: TempHp, round_: int) -> Text:
    return "heal", f"{w.names.who(ev.target)} has {ev.temp_hp} temporary hp"


@renders(EffectStart)
def _effect_start(w: Wording, ev: EffectStart, round_: int) -> Text:
    w.effects[ev.effect] = (ev.name, ev.target)
    return "effect", f"{w.names.who(ev.target)}: {ev.name} ({effect_parts(w.names, ev)})"


@renders(EffectEnd)
def _effect_end(w: Wording, ev: EffectEnd, round_: int) -> Text:
    if ev.reason in ("encounter_end", "dead", "stood_up"):
        return None
    name, _ = w.effects.get(ev.effect, (ev.effect, ev.target))
    verb = END_REASON.get(ev.reason, f"ends ({ev.reason})")
    return "effect", f"{w.names.who(ev.target)}: {name} {verb}"


@renders(Save)
def _save(w: Wording, ev: Save, round_: int) -> Text:
    name = w.effects.get(ev.effect, (ev.effect, ""))[0]
    ok = "saves" if ev.success else "fails to save"
    return "save", f"{w.names.who(ev.id)} {ok} against {name} ({ev.total})"


@renders(DeathSave)
def _death_save(w: Wording, ev: DeathSave, round_: int) -> Text:
    who = w.names.who(ev.id)
    roll = str(ev.natural) if ev.total == ev.natural else f"{ev.natural} ({ev.total} with bonuses)"
    return "save", f"{who} death save: {roll}, {ev.result} ({ev.failures} failed)"


@renders(StateChange)
def _state(w: Wording, ev: StateChange, round_: int) -> Text:
    return "state", f"{w.names.who(ev.id)} {STATE[ev.state]} ({ev.hp} hp)"


@renders(PowerRecharge)
def _recharge(w: Wording, ev: PowerRecharge, round_: int) -> Text:
    got = "recharges" if ev.recharged else "does not recharge"
    return "info", f"{w.names.who(ev.id)}'s {w.names.power(ev.power)} {got} ({ev.natural})"


@renders(Decision)
def _decision(w: Wording, ev: Decision, round_: int) -> Text:
    """ "AI: Brom walks ..." (the summary names the creature first; an older log's summary
    that does not gets the name in front: "AI Brom: ...")."""
    if not w.explain:
        return None
    who = w.names.who(ev.id)
    return "ai", f"AI: {ev.summary}" if ev.summary.startswith(who) else f"AI {who}: {ev.summary}"


@renders(Arrive)
def _arrive(w: Wording, ev: Arrive, round_: int) -> Text:
    x, y = ev.pos
    return "info", f"{w.names.who(ev.id)} arrives at {x},{y}"


@renders(Immune)
def _immune(w: Wording, ev: Immune, round_: int) -> Text:
    n = w.names
    return (
        "effect",
        f"{n.who(ev.target)} is immune to {ev.keyword}: {n.power(ev.power)} has no effect",
    )


@renders(Gm)
def _gm(w: Wording, ev: Gm, round_: int) -> Text:
    return "info", ev.summary


@renders(Note)
def _note(w: Wording, ev: Note, round_: int) -> Text:
    return "info", ev.text


@renders(EncounterEnd)
def _end(w: Wording, ev: EncounterEnd, round_: int) -> Text:
    who = f"{ev.winner} won" if ev.winner else "nobody won"
    return "end", f"The fight is over after {plural(ev.rounds, 'round')}: {who} ({ev.reason})"


def effect_parts(names: Naming, ev: EffectStart) -> str:
    """What an effect does and how long it lasts, in a few words."""
    bits: list[str] = []
    for p in ev.parts:
        if "condition" in p:
            bits.append(str(p["condition"]))
        elif "ongoing" in p:
            kind = f" {p['type']}" if p.get("type") else ""
            bits.append(f"ongoing {p['ongoing']}{kind}")
        elif "modifier" in p:
            bits.append(f"{p['modifier']} {int(p['value']):+d}")
    owner = names.who(ev.owner) if ev.owner else "its owner"
    bits.append(DURATION.get(ev.duration, ev.duration).format(owner=owner))
    return ", ".join(bits)
