"""What `ai.comers.since` reads of the engine's log, indexed as the log grows (issue 14).

`since` asks, at a creature's decision, who took a turn and whether its side lost hit points
since its last turn began: a scan of every event logged since then (a round of the fight:
every creature's moves, attacks and damage), for every decision of every creature. The
index reads each event once: per creature, the place in the log of its last `TurnStart` and
of the last `Damage` it took (amount above 0). "Since `seq`" is then "at `seq` or later".

The log only grows (`Battle.emit`); an index that finds it shorter, or a different entry
where it stopped, starts again from the beginning. The index lives in the battle's memo
(`Battle.memo`, as the AI's kept dangers do), and goes with it. (Not a weak reference to
the battle: the compiled build's `Battle` is a native class, which can't be weakly
referenced.)
"""

from __future__ import annotations

from engine.battle import Battle
from engine.events import Damage, Logged, TurnStart


class LogIndex:
    """Per creature: the log position of its last `TurnStart` and of its last `Damage`
    with an amount above 0, over the log's first `n` entries."""

    __slots__ = ("hurt", "last", "n", "turns")

    def __init__(self) -> None:
        self.n = 0
        self.last: Logged | None = None
        """The log's entry `n - 1` when it was read (the check that the log only grew)."""
        self.turns: dict[str, int] = {}
        self.hurt: dict[str, int] = {}

    def update(self, log: list[Logged]) -> None:
        """Read the entries logged since the last update."""
        n = self.n
        if n and (len(log) < n or log[n - 1] is not self.last):
            n = self.n = 0
            self.turns.clear()
            self.hurt.clear()
        end = len(log)
        if end == n:
            return
        turns, hurt = self.turns, self.hurt
        for i in range(n, end):
            ev = log[i].event
            if isinstance(ev, TurnStart):
                turns[ev.id] = i
            elif isinstance(ev, Damage) and ev.amount > 0:
                hurt[ev.target] = i
        self.n = end
        self.last = log[end - 1]

    def since(self, seq: int, b: Battle, side: str) -> tuple[set[str], bool]:
        """`ai.comers.since` from log position `seq`: who took a turn, and whether a
        creature of `side` (as the roster now says) lost hit points."""
        acted = {cid for cid, i in self.turns.items() if i >= seq}
        roster = b.combatants
        for cid, i in self.hurt.items():
            if i >= seq:
                c = roster.get(cid)
                if c is not None and c.side == side:
                    return acted, True
        return acted, False


_KEY = "ai-log-index"


def log_index(b: Battle) -> LogIndex:
    """The index of `b`'s log, brought up to date."""
    index = b.memo.get(_KEY)
    if not isinstance(index, LogIndex):
        index = b.memo[_KEY] = LogIndex()
    index.update(b.log)
    return index
