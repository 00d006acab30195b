"""A turn plan as the tactical AI scores, explains and then plays it, action by action.

An `Option` is one candidate turn: minor actions first (sustains, attackless powers), an
optional move (walk or shift along a route), an optional power with its targets or area
origin, an optional move after the power (hit and run), or a non-attack standard action. The
chosen option becomes a list of engine actions that the policy feeds to the engine one at a
time, re-planning if the picture changed halfway.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ai.routes import Route
from ai.scoring import Hit
from ai.utility import Utility
from engine.actions import Action
from engine.battle import Battle
from engine.content.schema import Power
from engine.state import Combatant
from engine.turn_budget import turn_budget

Square = tuple[int, int]


@dataclass(slots=True)
class Option:
    kind: str
    """"attack", "full_attack" (d20srd), "withdraw" (4srd, d20srd), "move" (no attack this
    turn), "stay", "second_wind", "stand", "utility" (a
    power with no attack roll, or sustaining an effect, as the standard action)."""
    score: float
    end: Square
    route: Route | None = None
    power: Power | None = None
    targets: tuple[str, ...] = ()
    origin: Square | None = None
    hits: tuple[Hit, ...] = ()
    post: Route | None = None
    provoked: tuple[str, ...] = ()
    avoided: tuple[str, ...] = ()
    goal: str | None = None
    replan_after: bool = False
    """Plan again once its actions are done (a first move of two)."""
    searched: bool = True
    """Every attack from its end square was weighed (false for a move that ends where no
    ranged attack was tried: after it, attacks are weighed again)."""
    fleeing: bool = False
    """A move away from the fight (badly hurt, `TacticalPolicy(flee=True)`)."""
    action: Action | None = None
    """The standard action of a "utility" option."""
    note: str = ""
    """What a "utility" option does, for the explanation."""
    style_note: str = ""
    """What a style changed, for the explanation ("spares the dying Wren: Brom is standing")."""
    extras: tuple[Utility, ...] = ()
    """Minor (or move) actions taken first: sustaining effects, attackless powers."""
    parts: dict[str, float] = field(default_factory=dict)
    """The score's terms, for tests and for tuning."""


@dataclass(frozen=True, slots=True)
class Budget:
    """Which sequences of actions are still possible this turn (`engine.turn_budget`)."""

    move: bool
    standard: bool
    move_then_standard: bool
    standard_then_move: bool
    two_moves: bool
    minor: bool


def budget(b: Battle, c: Combatant, extra_standard: int = 0, more: tuple[str, ...] = ()) -> Budget:
    """What `c` may still do this turn (`extra_standard`: as if an action point were spent;
    `more`: as if these actions were spent too), as the engine's action budget says
    (`engine.turn_budget`)."""

    left = turn_budget(b, c, spent_also=more, extra_standard=extra_standard)

    def can(*kinds: str) -> bool:
        return left.allows(kinds)

    return Budget(
        move=can("move"),
        standard=can("standard"),
        move_then_standard=can("move", "standard"),
        standard_then_move=can("standard", "move"),
        two_moves=can("move", "move"),
        minor=can("minor"),
    )
