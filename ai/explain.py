"""Why the AI did what it did, in one line a person reads, and the runner-up options.

"Goblin Cutter 1 shifts to flank Brom (+2), avoiding Brom's opportunity attack; Short Blade
on Brom: 65% to hit, 7.5 expected". The combat log shows the line and the JSON log keeps it
as a `decision` event with the best few candidates and their scores (../shared/log-schema.md).
"""

from __future__ import annotations

from ai.plan import Option
from engine.battle import Battle
from engine.state import Combatant


def _names(b: Battle, ids: tuple[str, ...] | list[str]) -> str:
    names = [b[i].name for i in ids]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _sq(sq: tuple[int, int]) -> str:
    return f"({sq[0]},{sq[1]})"


def action_text(b: Battle, o: Option) -> str:
    """A short text for one candidate: "shift (5,3) + Short Blade -> Brom"."""
    parts: list[str] = []
    if o.route is not None:
        parts.append(f"{o.route.mode} {_sq(o.route.end)}")
    if o.kind == "attack" and o.power is not None:
        if o.origin is not None:
            foes = sum(1 for h in o.hits if not h.ally)
            allies = sum(1 for h in o.hits if h.ally)
            extra = f", {allies} ally" if allies else ""
            parts.append(f"{o.power.name} @{_sq(o.origin)} [{foes} enemies{extra}]")
        elif o.power.is_area:
            parts.append(f"{o.power.name} [{len(o.hits)} targets]")
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
        parts.append(f"then {o.post.mode} {_sq(o.post.end)}")
    return " + ".join(parts) if parts else "stay"


def summary(b: Battle, me: Combatant, o: Option) -> str:
    """The one line: the move and why, the opportunity attacks avoided or taken, the odds."""
    move = ""
    if o.route is not None:
        verb = {"shift": "shifts", "withdraw": "withdraws"}.get(o.route.mode, "walks")
        squares = o.route.cost
        move = f"{verb} {squares} square{'s' if squares != 1 else ''}"
        why = _purpose(b, o)
        if why:
            move += f" {why}"
    oa = ""
    if o.avoided:
        oa = f", avoiding {_possessive(b, o.avoided)} opportunity attack"
    if o.provoked:
        oa += f", provoking {_possessive(b, o.provoked)} opportunity attack"
    act = _act(b, o)
    head = me.name + (f" {move}" if move else "")
    if not move and o.kind == "attack":
        head += " stays put"
    elif not move and o.kind == "stay":
        head += " holds its position"
        act = (
            o.note  # an attack was in reach: why holding won (`ai.moving.hold_note`)
            if o.note
            else f"nothing in reach worth the risk ({b[o.goal].name} is out of reach)"
            if (o.goal is not None)
            else "no enemy left in sight"
        )
    elif o.kind == "stand":
        head += " stands up"
        act = ""
    elif o.kind == "second_wind":
        head += " catches its breath"
    elif o.kind == "utility":
        head += f" {_doing(o.note)}"
        act = ""
    if o.post is not None:
        after = f"then {'shifts' if o.post.mode == 'shift' else 'walks'} to {_sq(o.post.end)}"
        act = f"{act}, {after}" if act else after
    text = head + oa
    text = f"{text}; {act}" if act else text
    if o.style_note:
        text = f"{text}; {o.style_note}"
    if o.extras:
        # The minor actions come first: "Vessa sustains Gravity Well; walks 3 squares ...".
        first = ", ".join(
            u.text if not u.text[:1].isupper() else f"uses {u.text}" for u in o.extras
        )
        text = f"{me.name} {first}; " + text[len(me.name) + 1 :]
    return text


def _doing(text: str) -> str:
    """ "sustains Aegis Ward" as it is; "Cure on Kael" becomes "uses Cure on Kael"."""
    return f"uses {text}" if text[:1].isupper() else text


def _possessive(b: Battle, ids: tuple[str, ...]) -> str:
    return _names(b, ids) + "'s" if len(ids) == 1 else _names(b, ids) + "'"


def _purpose(b: Battle, o: Option) -> str:
    if o.kind == "attack" and o.hits:
        first = o.hits[0]
        if first.flank:
            return f"to flank {b[first.target].name} (+2)"
        if o.origin is not None or (o.power is not None and o.power.is_area):
            return "to line up the area"
        if o.power is not None and o.power.kind == "ranged":
            if o.avoided:
                return "to get clear before shooting"
            return f"for a clear shot at {b[first.target].name}"
        return f"to reach {b[first.target].name}"
    if o.kind in ("move", "withdraw") and o.fleeing:
        return "away from the fight, badly hurt"
    if o.kind in ("move", "withdraw") and o.goal is not None:
        return f"toward {b[o.goal].name}"
    return ""


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
        where = f" at {_sq(o.origin)}" if o.origin is not None else ""
        exp = sum(h.expected for h in foes)
        text = f"{p.name}{where} catches {_names(b, [h.target for h in foes]) or 'nobody'}"
        text += f" ({len(foes)} enem{'ies' if len(foes) != 1 else 'y'}"
        text += (
            f", {len(allies)} all{'ies' if len(allies) != 1 else 'y'})" if allies else ", no ally)"
        )
        return text + f"; {exp:.1f} expected"
    h = o.hits[0]
    text = f"{p.name} on {b[h.target].name}: {100 * h.hit:.0f}% to hit, {h.expected:.1f} expected"
    if h.drop >= 0.05:
        text += f", {100 * h.drop:.0f}% to drop"
    return text
