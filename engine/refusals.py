"""Why the engine refuses an action, as a closed set of codes the AI and the app can test.

`Impossible.reason` is written for a person and changes wording freely; `Impossible.code` is
one of `Refusal` and is the thing to branch on (`code is Refusal.NO_ACTION_LEFT`), never the
text. Every `raise Impossible(...)` in the engine names one. The codes are strings, so a
refusal sent over the wire or written to a log stays readable.
"""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    """The kinds of refusal. Grouped by what the caller can do about them."""

    # the fight itself
    NOT_STARTED = "not_started"
    """The encounter has not started (call `start()` first)."""
    ALREADY_STARTED = "already_started"
    NO_TURN = "no_turn"
    """The encounter is over, or it is nobody's turn."""
    UNKNOWN_ACTION = "unknown_action"
    """An action type the encounter doesn't know."""
    NOT_IN_RULESET = "not_in_ruleset"
    """The action exists only in other rulesets (a full attack in ffd20)."""

    # the turn's action budget (F-TRN-1/4, S-2, S-15)
    NO_ACTION_LEFT = "no_action_left"
    """The action kind it costs is spent (or the surprise round/dazed allows no more)."""
    ALREADY_ACTED = "already_acted"
    """Only allowed before something this turn already did (delay, a 5-foot step)."""

    # the creature's own resources
    UNKNOWN_POWER = "unknown_power"
    POWER_SPENT = "power_spent"
    """An encounter/daily power already used, or a recharge power waiting (X-PWR-1)."""
    WRONG_POWER = "wrong_power"
    """The power exists but can't serve this action (an immediate power used directly)."""
    ONCE_PER_ENCOUNTER = "once_per_encounter"
    """Second wind, an action point, a Bluff: already used this encounter."""
    NO_RESOURCE = "no_resource"
    """The creature lacks what the action spends (no second wind, no healing surge)."""
    CONDITION = "condition"
    """A condition forbids it (immobilized, prone)."""
    NOTHING_TO_DO = "nothing_to_do"
    """Standing up when not prone, sustaining an effect that isn't there."""

    # movement
    BAD_MOVE_MODE = "bad_move_mode"
    BAD_PATH = "bad_path"
    """A path that is not a chain of adjacent squares from the mover's square."""
    BLOCKED = "blocked"
    """A wall, an obstacle, a corner, a pit or the map's edge is in the way."""
    OCCUPIED = "occupied"
    """An enemy's square on the way, or a creature's square at the end."""
    TOO_FAR = "too_far"
    """The path costs more than the movement allowed."""

    # targets and areas
    NEEDS_TARGET = "needs_target"
    """A target or an origin square (or a choice among the creatures in the area) is missing."""
    TOO_MANY_TARGETS = "too_many_targets"
    BAD_TARGET = "bad_target"
    """Not a creature the power may target (unknown, wrong side, outside the area, twice)."""
    OUT_OF_RANGE = "out_of_range"
    """Beyond reach or range (or, for a Bluff, not adjacent; a blast not touching)."""
    OFF_MAP = "off_map"
    NO_LINE_OF_EFFECT = "no_line_of_effect"
    NO_LINE_OF_SIGHT = "no_line_of_sight"
    # the GM's tools (engine.gm)
    BAD_VALUE = "bad_value"
    """A number, a name or a choice the rules can't take (negative healing, an unknown
    condition, an initiative no d20 gives)."""
    # answers in the middle of an action (engine.decisions, engine.rollback)
    BAD_ANSWER = "bad_answer"
    """A controller's answer to a question in the middle of the action (an opportunity
    attack, where a push ends, a save order, a typed die) that the question refuses: the
    action was undone; nothing changed."""
