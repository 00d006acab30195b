"""Why the AI did what it did, in one line a person reads, and the runner-up options.

"Goblin Cutter 1 shifts 1 square to flank Brom with Wren (+2), avoiding Brom's opportunity
attack; Short Blade on Brom: 65% to hit, 7.5 expected". The combat log shows the line and the
JSON log keeps it as a `decision` event with the best few candidates and their scores
(../shared/log-schema.md, docs/log.md).

The line says what the plan does and nothing it does not: creatures by name, never a raw
square in the summary (the candidates, which are terse, give squares in the app's `x,y`); who
each opportunity attack on the way comes from (`provoking`), and which threatening enemies the
route leaves behind without one (`avoiding`); what a power does on a hit besides damage. One
possessive rule everywhere: a name takes "'s", whatever its last letter ("Guards's").
"""

from __future__ import annotations

from ai.plan import Option
from ai.utility import Utility
from engine.actions import Action, UsePower
from engine.battle import Battle
from engine.content.schema import EffectSpec, Power
from engine.flanking import flank_partners, side_of
from engine.grid import distance, footprint
from engine.movement import act_provokers
from engine.powers import provoking_kind
from engine.preview import preview
from engine.state import Combatant

Square = tuple[int, int]
DURATION = {
    "save_ends": "save ends",
    "start_of_next_turn": "to the start of its next turn",
    "end_of_next_turn": "to the end of its next turn",
    "end_of_encounter": "to the end of the fight",
    "sustain_standard": "sustained",
    "sustain_move": "sustained",
    "sustain_minor": "sustained",
}


def _names(b: Battle, ids: tuple[str, ...] | list[str]) -> str:
    names = [b[i].name for i in ids]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def possessive(name: str) -> str:
    """The one possessive rule: "Brom's", "Guards's"."""
    return f"{name}'s"


def attacks_of(b: Battle, ids: tuple[str, ...] | list[str]) -> str:
    """ "Brom's opportunity attack", "Kael's and Nix's opportunity attacks"."""
    names = [possessive(b[i].name) for i in ids]
    if len(names) == 1:
        return f"{names[0]} opportunity attack"
    return ", ".join(names[:-1]) + " and " + names[-1] + " opportunity attacks"


def square_text(sq: Square) -> str:
    """A square in the app's notation ("7,6"), as the log pane writes moves."""
    return f"{sq[0]},{sq[1]}"


def action_text(b: Battle, o: Option) -> str:
    """A short text for one candidate: "shift 5,3 + Short Blade -> Brom"."""
    parts: list[str] = []
    if o.route is not None:
        parts.append(f"{o.route.mode} {square_text(o.route.end)}")
    if o.kind == "attack" and o.power is not None:
        if o.origin is not None or o.power.is_area:
            foes = [h.target for h in o.hits if not h.ally]
            allies = sum(1 for h in o.hits if h.ally)
            extra = f" (+{allies} ally)" if allies else ""
            parts.append(f"{o.power.name} -> {_names(b, foes) or 'nobody'}{extra}")
        else:
            parts.append(f"{o.power.name} -> {_names(b, o.targets)}")
    elif o.kind == "full_attack" and o.power is not None:
        parts.append(f"full attack ({len(o.hits)}x {o.power.name}) -> {_names(b, o.targets)}")
    elif o.kind == "second_wind":
        parts.append("second wind")
    elif o.kind == "utility":
        parts.append(o.note)
    elif o.kind == "move" and o.goal is not None:
        parts.append(f"toward {b[o.goal].name}")
    if o.post is not None:
        parts.append(f"then {o.post.mode} {square_text(o.post.end)}")
    return " + ".join(parts) if parts else "stay"


def provokers(b: Battle, me: Combatant, action: Action) -> tuple[str, ...]:
    """The enemies whose opportunity attack `action`, taken where `me` stands now, provokes
    (a ranged or area power next to them, S-14), as the engine rules it."""
    if not isinstance(action, UsePower):
        return ()
    p = me.power(action.power)
    if p is None or not provoking_kind(p):
        return ()
    return tuple(e.id for e in act_provokers(b, me))


def recheck_flank(b: Battle, me: Combatant, power_id: str, target: str) -> str | None:
    """Before the attack of a plan explained as flanking `target`: None if the engine still
    sees a flank, else the new explanation of the attack (something since changed the
    setup: the engine names no flank when combat advantage comes from elsewhere)."""
    p, t = me.power(power_id), b[target]
    if p is None:
        return None
    pv = preview(b, me, t, p)
    if pv is None or pv.setup.flanking:
        return None
    why = "combat advantage without the flank" if pv.setup.combat_advantage else "no flank now"
    return (
        f"{me.name} ({why}) attacks: {p.name} on {t.name}: {_odds(pv.hit, pv.expected_damage, p)}"
    )


def late_minor_text(b: Battle, me: Combatant, u: Utility) -> str:
    """The explanation of a minor action left at the end of a turn, after the creature's
    name: "uses Cure on Kael with the minor action it has left"."""
    text = f"{_doing(u.text)} with the minor action it has left"
    who = provokers(b, me, u.action)
    return text + (f", provoking {attacks_of(b, who)}" if who else "")


def summary(
    b: Battle, me: Combatant, o: Option, *, options: list[Option] | None = None, again: str = ""
) -> str:
    """The one line: the move and why, the opportunity attacks avoided or taken, the odds.
    `options`: every option weighed (best first), for why it attacks nothing; `again`: why
    it plans again in the middle of its turn ("back on its feet")."""
    pre, early = _extras(b, me, o)
    provoked = [i for i in o.provoked if i not in early]
    # An enemy whose opportunity attack the plan provokes anyway is not avoided.
    avoided = [i for i in o.avoided if i not in o.provoked and i not in early]
    doing = ""
    if o.route is not None:
        verb = {"shift": "shifts", "withdraw": "withdraws"}.get(o.route.mode, "walks")
        squares = o.route.cost
        doing = f"{verb} {squares} square{'s' if squares != 1 else ''}"
        why = _purpose(b, me, o, avoided)
        if why:
            doing += f" {why}"
    act = _act(b, o)
    if o.kind == "stay":
        doing = doing or "holds its position"
        # An attack was in reach: why holding won (`ai.moving.hold_note`), else why none.
        act = o.note or _why_no_attack(b, o, options or [])
    elif o.kind == "move":
        act = "no attack this turn" + _why_not(b, o, options or [])
    elif o.kind == "stand":
        doing, act = doing or "stands up", ""
    elif o.kind == "second_wind":
        doing = doing or "catches its breath"
    elif o.kind == "utility":
        doing, act = doing or _doing(o.note), ""
    elif not doing:
        doing = "stays put"
    if avoided:
        doing += f", avoiding {attacks_of(b, avoided)}"
    if provoked:
        doing += f", provoking {attacks_of(b, provoked)}"
    if o.post is not None:
        after = post_text(b, me, o)
        act = f"{act}, {after}" if act else after
    # The minor actions come first: "Vessa sustains Gravity Well; walks 3 squares ...".
    clauses = [x for x in (pre, doing, act, o.style_note) if x]
    return me.name + (f" ({again})" if again else "") + " " + "; ".join(clauses)


def _extras(b: Battle, me: Combatant, o: Option) -> tuple[str, tuple[str, ...]]:
    """The minor actions taken first, as text, and whose opportunity attacks they provoke
    (a ranged power used next to an enemy provokes it like any ranged attack)."""
    parts: list[str] = []
    early: tuple[str, ...] = ()
    for u in o.extras:
        text = _doing(u.text)
        who = tuple(i for i in provokers(b, me, u.action) if i not in early)
        if who:
            text += f", provoking {attacks_of(b, who)}"
            early += who
        parts.append(text)
    return ", ".join(parts), early


def _doing(text: str) -> str:
    """ "sustains Aegis Ward" as it is; "Cure on Kael" becomes "uses Cure on Kael"."""
    return f"uses {text}" if text[:1].isupper() else text


def _purpose(b: Battle, me: Combatant, o: Option, avoided: list[str]) -> str:
    if o.kind == "attack" and o.hits:
        first = o.hits[0]
        t = b[first.target]
        if first.flank:
            partner = _flank_partner(b, me, t, o.route.end if o.route is not None else me.pos)
            with_ = f" with {partner.name}" if partner is not None else ""
            return f"to flank {t.name}{with_} (+2)"
        if o.origin is not None or (o.power is not None and o.power.is_area):
            return "to line up the area"
        if o.power is not None and o.power.kind == "ranged":
            if avoided and not o.provoked:
                return f"to get clear before shooting at {t.name}"
            return f"for a shot at {t.name}"
        return f"to reach {t.name}"
    if o.kind in ("move", "withdraw") and o.fleeing:
        return "away from the fight, badly hurt"
    if o.kind in ("move", "withdraw") and o.goal is not None:
        return f"toward {b[o.goal].name}"
    return ""


def _flank_partner(b: Battle, me: Combatant, t: Combatant, at: Square) -> Combatant | None:
    """The ally opposite `at` across `t` (`engine.flanking`): who it flanks with."""
    mine = side_of(at, me.size, t.pos, t.size)
    for a in flank_partners(b, me, t):
        sx, sy = side_of(a.pos, a.size, t.pos, t.size)
        if (-sx, -sy) == mine:
            return a
    return None


def post_text(b: Battle, me: Combatant, o: Option) -> str:
    """The move after the attack (hit and run) or the second move of a double move."""
    assert o.post is not None
    verb = {"shift": "shifts", "withdraw": "withdraws"}.get(o.post.mode, "walks")
    n = o.post.cost
    squares = f"{n} square{'s' if n != 1 else ''}"
    if o.kind == "move":
        toward = f" toward {b[o.goal].name}" if o.goal is not None else ""
        return f"then {verb} {squares} more{toward}"
    if o.hits:
        t = b[o.hits[0].target]
        t_sq = footprint(t.pos, t.size)
        before = distance(footprint(o.post.path[0], me.size), t_sq)
        after = distance(footprint(o.post.end, me.size), t_sq)
        if after > before:
            return f"then {verb} {squares} away from {t.name}"
    return f"then {verb} {squares}"


def _best_attack(options: list[Option]) -> Option | None:
    return next((x for x in options if x.kind in ("attack", "full_attack")), None)


def _attack_phrase(b: Battle, a: Option) -> str:
    """ "Chilling Touch on Wren after walking 3 squares"."""
    assert a.power is not None
    foes = [h.target for h in a.hits if not h.ally] or list(a.targets)
    text = f"{a.power.name} on {_names(b, foes) or 'nobody'}"
    if a.route is not None:
        verb = {"shift": "shifting", "withdraw": "withdrawing"}.get(a.route.mode, "walking")
        text += f" after {verb} {a.route.cost} square{'s' if a.route.cost != 1 else ''}"
    return text


def _why_no_attack(b: Battle, o: Option, options: list[Option]) -> str:
    """Why it holds: the best attack scored lower, or there was none to make."""
    best = _best_attack(options)
    if best is not None:
        return (
            f"holding scores {o.score:.1f}, more than its best attack, "
            f"{_attack_phrase(b, best)} ({best.score:.1f})"
        )
    if o.goal is not None:
        return f"nothing to attack from any square it can reach ({b[o.goal].name} is out of reach)"
    return "no enemy left in sight"


def _why_not(b: Battle, o: Option, options: list[Option]) -> str:
    best = _best_attack(options)
    if best is None:
        return ""
    phrase = _attack_phrase(b, best)
    return f" (this move scores {o.score:.1f}, its best attack {best.score:.1f}: {phrase})"


def _on_hit(p: Power) -> str:
    """What a hit does besides damage: "slowed (save ends), pushed 1"."""
    out = p.hit
    if out is None:
        return ""
    bits = [_effect_words(e) for e in out.effects if e.to == "target"]
    if out.forced is not None:
        moved = {"push": "pushed", "pull": "pulled", "slide": "slid"}[out.forced.kind]
        bits.append(f"{moved} {out.forced.distance}")
    bits = [x for x in bits if x]
    return "on a hit " + ", ".join(bits) if bits else ""


def _effect_words(e: EffectSpec) -> str:
    parts = list(e.conditions)
    if e.ongoing is not None:
        kind = f" {e.ongoing.type}" if e.ongoing.type else ""
        parts.append(f"ongoing {e.ongoing.amount}{kind}")
    parts.extend(f"{m.stat} {m.value:+d}" for m in e.modifiers)
    if e.grants_ca is not None:
        parts.append("grants combat advantage")
    if not parts:
        return ""
    return f"{' and '.join(parts)} ({DURATION.get(e.duration, e.duration.replace('_', ' '))})"


def _odds(hit: float, expected: float, p: Power) -> str:
    """ "55% to hit, 4.7 expected", or, for a power that deals no damage, what it does."""
    effect = _on_hit(p)
    text = f"{100 * hit:.0f}% to hit"
    damage = _expected(expected, p, effect)
    text += f", {damage}" if damage else ""
    return text + (f"; {effect}" if effect else "")


def _expected(expected: float, p: Power, effect: str) -> str:
    """ "4.7 expected"; nothing for a power that only does `effect`; for damage that can't get
    through (damage reduction, immunity) it says so instead of "0.0 expected"."""
    if expected >= 0.05:
        return f"{expected:.1f} expected"
    if effect:
        return ""
    if p.hit is not None and p.hit.damage is not None:
        return "no damage expected (none gets through)"
    return "no damage"


def _act(b: Battle, o: Option) -> str:
    if o.kind == "utility":
        return o.note
    if o.kind == "second_wind":
        return "second wind (heals a quarter of its hit points, +2 to defenses)"
    if o.kind == "move":
        return "no attack this turn"
    if o.kind == "withdraw":
        return "withdraws (a full round: its first square provokes nothing)"
    if o.kind == "full_attack" and o.power is not None and o.hits:
        odds = "/".join(f"{100 * h.hit:.0f}%" for h in o.hits)
        exp = sum(h.expected for h in o.hits)
        name = b[o.hits[0].target].name
        return f"full attack with {o.power.name} on {name}: {odds} to hit, {exp:.1f} expected"
    if o.kind != "attack" or o.power is None:
        return "holds"
    p = o.power
    if o.origin is not None or p.is_area:
        foes = [h for h in o.hits if not h.ally]
        allies = [h for h in o.hits if h.ally]
        text = f"{p.name} catches {_names(b, [h.target for h in foes]) or 'nobody'}"
        text += f" ({len(foes)} enem{'ies' if len(foes) != 1 else 'y'}"
        if allies:
            text += f"; its own side too: {_names(b, [h.target for h in allies])})"
        else:
            text += ", no ally)"
        effect = _on_hit(p)
        damage = _expected(sum(h.expected for h in foes), p, effect)
        text += f"; {damage}" if damage else ""
        return text + (f"; {effect}" if effect else "")
    parts = []
    for h in o.hits:  # one target, or each target of a power that picks several
        part = f"{b[h.target].name}: {_odds(h.hit, h.expected, p)}"
        parts.append(part + (f", {100 * h.drop:.0f}% to drop" if h.drop >= 0.05 else ""))
    return f"{p.name} on " + "; and on ".join(parts)
