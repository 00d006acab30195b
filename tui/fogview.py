"""What a player's view leaves out of the log: the creatures their side can't see.

The map, the initiative pane and the details pane read `View.fog` and `CreatureView.hidden`
themselves; the log is made of engine events named by id, so it is filtered here. A player's
log pane drops the moves and AI reasons of a hidden creature (they would say where it went)
and names it "an unseen creature" in every other line. Only the on-screen player view is
filtered: the GM's view, the saved log and `skirmish export` keep the truth.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.events import Decision, Logged, Moved
from tui.logtext import Line, LogFormatter, Names
from tui.view import View

UNSEEN = "an unseen creature"
"""How a player's log names a creature their side can't see."""


def hidden_ids(view: View) -> frozenset[str]:
    """In a player's view, the creatures their side can't see (never named to them)."""
    if not view.fog:
        return frozenset()
    return frozenset(c.id for c in view.creatures.values() if c.hidden)


def unseen_dropped(events: Iterable[Logged], view: View) -> tuple[Logged, ...]:
    """A player's view: the moves and AI reasons of creatures their side can't see are not
    told (the log would say where the invisible went)."""
    hidden = hidden_ids(view)
    return tuple(
        e for e in events if not (isinstance(e.event, Moved | Decision) and e.event.id in hidden)
    )


def masked_names(names: Names, hidden: frozenset[str]) -> Names:
    """`names` with every creature in `hidden` called `UNSEEN` (powers keep their names)."""
    if not hidden:
        return names
    creatures = {cid: (UNSEEN if cid in hidden else n) for cid, n in names.creatures.items()}
    creatures.update((cid, UNSEEN) for cid in hidden)
    return Names(creatures, names.powers, names.basic)


def player_lines(
    formatter: LogFormatter, names: Names, events: Iterable[Logged], view: View
) -> list[Line]:
    """The log lines `view` may show for `events`: all of them for the GM's view; for a
    player's, without what their side can't know (`unseen_dropped`, `masked_names`)."""
    hidden = hidden_ids(view)
    formatter.names = masked_names(names, hidden)
    try:
        lines = formatter.lines(unseen_dropped(events, view))
    finally:
        formatter.names = names
    return [_capital(ln) for ln in lines] if hidden else lines


def _capital(ln: Line) -> Line:
    """A line that starts with "an unseen creature" starts with a capital."""
    if not ln.text.startswith(UNSEEN):
        return ln
    return Line(ln.seq, ln.round, ln.kind, ln.text[0].upper() + ln.text[1:])
