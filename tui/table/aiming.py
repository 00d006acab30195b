"""Aiming for a remote seat: the host turns a seat's "I am aiming this" into what the seat
draws (the grid marks, the status hint, the odds) and the exact action Enter would submit.

The seat holds no rules: it names a mode (walk, a power, a full attack...), a cursor square
and a Tab index, and the host answers with the same `tui.modes` functions the solo screen
uses, under the controller's lock, on that seat's turn only. The action it returns is only a
suggestion: when the seat sends it back with `act`, the engine checks it again.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, FullAttack, Move, UsePower, Withdraw
from engine.encounter import Encounter
from tui import modes

Square = tuple[int, int]


def _basic(enc: Encounter) -> str | None:
    usable = [p for p, why in enc.usable_powers() if why is None and p.attack]
    for p in sorted(usable, key=lambda p: (not p.basic, p.kind != "melee")):
        if p.kind in ("melee", "ranged") and enc.targets(p.id):
            return p.id
    return None


def _start(enc: Encounter, mode: str, power: str | None) -> modes.Mode | str:
    if mode in ("walk", "run", "shift"):
        return modes.start_move(enc, mode)
    if mode == "withdraw":
        return modes.start_withdraw(enc)
    if mode == "full_attack":
        return modes.start_full_attack(enc)
    if mode == "basic":
        power = _basic(enc)
        if power is None:
            return "no enemy in reach of a basic attack (p lists every power)"
    return modes.start_power_by_id(enc, power or "")


def _cursor(enc: Encounter, m: modes.Mode, cursor: Square | None) -> Square:
    b = enc.battle
    if isinstance(m, modes.Targeting):
        if cursor is not None:
            for i, t in enumerate(m.targets):
                if cursor in b.squares(b[t]):
                    m.index = i
        return b[m.target].pos
    if isinstance(m, modes.Placing) and m.origins and (cursor is None or cursor not in m.origins):
        return m.origins[m.index]
    if cursor is not None:
        return cursor
    return enc.current.pos if enc.current is not None else (0, 0)


def _action(enc: Encounter, m: modes.Mode, cursor: Square) -> tuple[Action | None, str | None]:
    """The action Enter submits, and the title of the confirmation asked first (if any)."""
    if isinstance(m, modes.Withdrawing):
        path = modes.move_path(m, cursor)
        return (Withdraw(tuple(path)) if path else None), None
    if isinstance(m, modes.Moving):
        path = modes.move_path(m, cursor)
        return (Move(tuple(path), m.mode) if path else None), None
    if isinstance(m, modes.FullAttacking):
        return FullAttack(m.power.id, (m.target,)), "Full attack?"
    if isinstance(m, modes.Targeting):
        return UsePower(m.power.id, (m.target,)), f"Use {m.power.name}?"
    if isinstance(m, modes.Placing):
        _, _, origin = modes.area_of(enc, m, cursor)
        if m.origins and origin is None:
            return None, None
        return UsePower(m.power.id, origin=origin), f"Use {m.power.name}?"
    return None, None


def _only_seen(m: modes.Mode | str, seen: frozenset[str] | None) -> modes.Mode | str:
    """A seat aims only at creatures it sees: the others are not even counted."""
    if seen is None or not isinstance(m, modes.Targeting):
        return m
    m.targets = [t for t in m.targets if t in seen]
    return m if m.targets else "no target you can see"


def _placing(
    enc: Encounter, m: modes.Placing, at: Square, seen: frozenset[str] | None
) -> tuple[str, Any]:
    """An area's hint and preview, naming only the creatures the seat sees."""
    _, who, origin = modes.area_of(enc, m, at)
    if m.origins and origin is None:
        return f"{m.power.name}: move the cursor onto a marked origin (Tab)", None
    if seen is not None:
        who = [t for t in who if t in seen]
    names = ", ".join(enc.battle[t].name for t in who) or "nobody you can see"
    hint = f"{m.power.name} hits {names}. Enter to confirm"
    return hint, modes.preview_text(enc, m.power, who, origin)


def aim(
    enc: Encounter,
    mode: str,
    power: str | None,
    index: int,
    cursor: Square | None,
    seen: frozenset[str] | None = None,
) -> dict[str, Any]:
    """The `aimed` message's fields (the caller holds the lock, on the seat's turn); `seen`:
    the creatures the seat sees (None: all, the GM)."""
    if mode == "powers":
        return {"mode": mode, "reasons": modes.power_reasons(enc)}
    m = _only_seen(_start(enc, mode, power), seen)
    if isinstance(m, str):
        return {"mode": mode, "problem": m}
    count = 0
    if isinstance(m, modes.Targeting):
        count = len(m.targets)
    elif isinstance(m, modes.Placing):
        count = len(m.origins)
    if count:
        m.index = index % count  # type: ignore[union-attr]
    at = _cursor(enc, m, cursor)
    overlay, hint, preview = modes.mode_overlay(enc, m, at, "")
    if isinstance(m, modes.Placing):
        hint, preview = _placing(enc, m, at, seen)
    action, confirm = _action(enc, m, at)
    return {
        "mode": mode,
        "power": getattr(getattr(m, "power", None), "id", None),
        "index": getattr(m, "index", 0),
        "count": count,
        "cursor": list(at),
        "marks": [[x, y, mark] for (x, y), mark in overlay.marks.items()],
        "selected": [list(sq) for sq in overlay.selected],
        "hint": hint,
        "preview": preview.markup if preview is not None else None,
        "action": action.to_json() if action is not None else None,
        "confirm": confirm,
    }
