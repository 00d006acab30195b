"""Put a fight back as it was before an action that failed half-way.

The engine checks an action before it changes anything, but some answers come only in the
middle of it: the opportunity attack a move provokes, where a push ends, the order of saving
throws, whether a delayed creature steps back in, a die a person types. A controller (an AI,
a person, a seat over the wire) can answer something the question refuses (`InvalidAnswer`,
`InvalidFace`) after the action has moved a creature or dealt damage. `Encounter.apply` then
calls `restore`, and refuses the action (`Refusal.BAD_ANSWER`): the fight is as if the action
had never been tried.

The fight is event-sourced, so its state is its records replayed (`engine.replay`); only the
failure pays for the replay. The dice the failed action read are given back to the next
action, in order, so a seeded or scripted fight rolls exactly what it would have rolled
without the failed try; dice a person typed are not (they were rolled for the refused action:
the person is asked again).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.dice import DiceSource
    from engine.encounter import Encounter


class GivenBack:
    """`faces` first (what a failed action read), then the source they came from."""

    def __init__(self, faces: list[int], inner: DiceSource) -> None:
        self._faces = list(faces)
        self._inner = inner
        self.reports_typed = bool(getattr(inner, "reports_typed", False))
        self.explains = bool(getattr(inner, "explains", False))
        self.last_typed = False

    def roll(self, sides: int, purpose: str = "", who: str | None = None) -> int:
        while self._faces:
            face = self._faces.pop(0)
            if 1 <= face <= sides:
                self.last_typed = False
                return face
            self._faces.clear()  # the stream went another way: roll afresh from here
        face = self._inner.roll(sides, purpose, who)
        self.last_typed = bool(getattr(self._inner, "last_typed", False))
        return face


def restore(enc: Encounter) -> None:
    """Rebuild `enc`'s fight from its records (the failed action's never got in), in place:
    the same `Battle` object holds the rebuilt state, so whoever holds it reads the fight as it
    was. Who controls each creature (the GM may have handed one over) is kept."""
    from engine.replay import Replay

    b = enc.battle
    spent = b.dice.take()
    inner = b.dice._inner
    # table dice (typed in) are rebuilt as an undo rebuilds them (`Encounter.replay`)
    live: DiceSource = inner if b.dice._reports else GivenBack(spent, inner)
    control = {c.id: c.control for c in b.combatants.values()}
    control.update({cid: c.control for cid, (_, c) in b.waiting.items()})
    rebuilt = Replay(
        enc.loaded,
        enc.records,
        seed=enc.seed,
        ruleset=enc.ruleset_name,
        control=control,
        deciders=b._decider_for,
        live=live,
    ).run()
    nb = rebuilt.battle
    vars(b).clear()
    vars(b).update(vars(nb))
    enc.records = rebuilt.records
    enc.gm_removed = rebuilt.gm_removed
    enc.started = rebuilt.started
