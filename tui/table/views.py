"""What one seat may see of the fight, computed by the host from what its creatures know.

A player's seat sees its own side and whatever of the others its creatures can see now (an
invisible enemy, or one in total concealment from all of them, is left out of the picture,
of the initiative order and of the log lines that name it); a spectator seat sees what its
side's creatures see; the GM sees everything. The host never sends something and trusts the
seat to hide it: what isn't visible never leaves the host.

Who sees whom is asked of one function, `Knowledge`: by default the engine's own model of
what a set of creatures knows (`engine.visibility`: invisible creatures, darkness, heavy fog
at a distance, no line of sight, blinded viewers; F-MOD-8, F-MOD-10, F-MOD-11).

Also here: a `View` to and from JSON (the `update` message), and the map's terrain.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, replace
from typing import Any

from engine.encounter import Encounter
from engine.events import Logged
from engine.visibility import knowledge
from tui.view import CreatureView, EffectView, PowerView, View

Knowledge = Callable[[Encounter, frozenset[str]], frozenset[str]]
"""Given the ids of the creatures a seat looks through, the ids of every creature it sees."""


def engine_knowledge(enc: Encounter, eyes: frozenset[str]) -> frozenset[str]:
    """Its own side always; any other creature that one of `eyes` can see now."""
    known = knowledge(enc.battle, eyes)
    return frozenset(cid for cid, k in known.items() if k.visible)


def eyes_of(enc: Encounter, creatures: Iterable[str], side: str | None) -> frozenset[str]:
    """The creatures a seat looks through: its own, or (a spectator) every creature of its
    side."""
    own = frozenset(c for c in creatures if c in enc.battle.combatants)
    if own or side is None:
        return own
    return frozenset(c.id for c in enc.battle.combatants.values() if c.side == side)


def seat_view(view: View, seen: frozenset[str] | None) -> View:
    """`view` with only the creatures in `seen` (None: all of them, the GM)."""
    if seen is None:
        return view
    creatures = {k: c for k, c in view.creatures.items() if k in seen}
    current = view.current if view.current in seen else None
    return replace(
        view,
        creatures=creatures,
        current=current,
        order=tuple(c for c in view.order if c in seen),
        actions=view.actions if current else (False, False, False),
        fog=True,
    )


def _mentions(value: Any, ids: frozenset[str]) -> bool:
    if isinstance(value, str):
        return value in ids
    if isinstance(value, list | tuple):
        return any(_mentions(v, ids) for v in value)
    if isinstance(value, dict):
        return any(_mentions(v, ids) for v in value.values())
    return False


def seat_events(
    events: Iterable[Logged], hidden: frozenset[str], own: frozenset[str] = frozenset()
) -> list[Logged]:
    """The events a seat may read: none that names a creature it can't see (the start of the
    encounter, which lists every combatant, is never sent to a seat that can't see all)."""
    if not hidden:
        return list(events)
    out = []
    for ev in events:
        if ev.type == "encounter_start":
            continue
        if _mentions(ev.event.payload(), hidden - own):
            continue
        out.append(ev)
    return out


# --- JSON ---------------------------------------------------------------------------------
def view_json(view: View) -> dict[str, Any]:
    return asdict(view)


def _tuple(v: Any) -> tuple[Any, ...]:
    return tuple(tuple(x) if isinstance(x, list) else x for x in v)


def _creature(d: dict[str, Any]) -> CreatureView:
    data = dict(d)
    data["pos"] = tuple(data["pos"])
    data["conditions"] = tuple(data["conditions"])
    data["defenses"] = tuple(data["defenses"])
    data["effects"] = tuple(EffectView(**e) for e in data["effects"])
    data["powers"] = tuple(PowerView(**p) for p in data["powers"])
    if data.get("last_seen") is not None:
        data["last_seen"] = tuple(data["last_seen"])
    return CreatureView(**data)


def view_from_json(d: dict[str, Any]) -> View:
    """Rebuild a view sent by the host; ValueError if it isn't one."""
    try:
        return View(
            round=int(d["round"]),
            current=d["current"],
            order=tuple(d["order"]),
            creatures={str(k): _creature(c) for k, c in d["creatures"].items()},
            over=bool(d["over"]),
            winner=d["winner"],
            end_reason=d["end_reason"],
            surprise=bool(d["surprise"]),
            actions=_tuple(d["actions"]),
            moved=bool(d["moved"]),
            fog=bool(d.get("fog", False)),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not a view: {exc}") from None


def map_json(enc: Encounter) -> dict[str, Any]:
    """The terrain, as the combat log's `encounter_start.map` has it (no creatures)."""
    m = enc.battle.map
    terrain = {k: [list(sq) for sq in v] for k, v in m.terrain_squares().items()}
    return {
        "name": enc.loaded.spec.map.name,
        "width": m.width,
        "height": m.height,
        "terrain": terrain,
    }
