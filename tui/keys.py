"""The keys a screen answers, read from its `BINDINGS`: the one list the footer, the help
screen and the command palette all show (design.md, style 17).

A binding's `description` is its footer label and its palette title; its `tooltip` is the
sentence the help screen and the palette show. Bindings that share a `key_display` and a
description (the eight cursor directions) make one help row.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from textual.app import App
from textual.binding import Binding, BindingType

NOT_IN_PALETTE = frozenset({"cursor", "confirm", "cancel", "cycle", "help", "scroll_log"})
"""Actions that need a key in hand (they act on the cursor or a mode), not a palette entry."""


@dataclass(frozen=True, slots=True)
class KeyHelp:
    keys: str
    """As the footer shows them, joined: "z, ^z"."""
    title: str
    text: str
    action: str


def declared(bindings: Iterable[BindingType]) -> list[Binding]:
    """The Binding objects of a BINDINGS list (tuples made into bindings, keys not split)."""
    out: list[Binding] = []
    for b in bindings:
        if isinstance(b, Binding):
            out.append(b)
        else:
            out.append(Binding(*b))
    return out


def key_text(app: App[object], binding: Binding) -> str:
    """Every key of `binding` as the footer would show it ("z, ^z")."""
    if binding.key_display:
        return binding.key_display
    keys = [k.strip() for k in binding.key.split(",") if k.strip()]
    return ", ".join(app.get_key_display(replace(binding, key=k)) for k in keys)


def help_rows(app: App[object], bindings: Iterable[BindingType]) -> list[KeyHelp]:
    """One row per binding (or per group sharing a key display and description), in order."""
    rows: list[KeyHelp] = []
    seen: set[tuple[str, str]] = set()
    for b in declared(bindings):
        if b.system:
            continue
        keys = key_text(app, b)
        group = (keys, b.description)
        if group in seen:
            continue
        seen.add(group)
        rows.append(KeyHelp(keys, b.description, b.tooltip or b.description, _name(b.action)))
    return rows


def palette_rows(bindings: Iterable[BindingType]) -> list[tuple[str, str, str]]:
    """(title, help, action) for the command palette: every binding with a tooltip whose
    action makes sense without a key in hand."""
    out: list[tuple[str, str, str]] = []
    for b in declared(bindings):
        if b.tooltip and _name(b.action) not in NOT_IN_PALETTE:
            out.append((b.description, b.tooltip, b.action))
    return out


def _name(action: str) -> str:
    """The action's name without its arguments: "move('walk')" -> "move"."""
    return action.split("(", 1)[0]
