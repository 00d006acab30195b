"""The conditions a creature can suffer, each with its effect, in one table.

The rules texts name conditions without defining them (CLAUSES.md, "Expected beyond the
clauses"); the usual 4e meanings are used. This table is the single source of truth: the
engine's rules read the flags below, the help screen and docs/content.md show `effect`, and a
test checks that all three agree.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ConditionInfo:
    name: str
    code: str
    """Two-letter code for the initiative pane."""
    effect: str
    """What it does, in one sentence (shown in help and docs)."""
    grants_ca: bool = False
    """Every attacker has combat advantage against the creature."""
    no_actions: bool = False
    one_action: bool = False
    no_reactions: bool = False
    """No immediate or opportunity actions (and so it cannot flank)."""
    cant_move: bool = False
    """No walking, running or shifting; forced movement and teleports still work."""
    cant_see: bool = False


CONDITIONS: tuple[ConditionInfo, ...] = (
    ConditionInfo(
        "blinded",
        "Bl",
        "Can't see: every target has total concealment against it (-5), it grants combat "
        "advantage, and it can't flank.",
        grants_ca=True,
        cant_see=True,
    ),
    ConditionInfo(
        "dazed",
        "Dz",
        "Takes only one action on its turn (standard, move or minor) plus free actions, no "
        "immediate or opportunity actions; grants combat advantage; can't flank.",
        grants_ca=True,
        one_action=True,
        no_reactions=True,
    ),
    ConditionInfo(
        "stunned",
        "St",
        "Takes no actions at all; grants combat advantage; can't flank.",
        grants_ca=True,
        no_actions=True,
        no_reactions=True,
    ),
    ConditionInfo(
        "helpless",
        "He",
        "Grants combat advantage and can be the target of a coup de grace (a melee hit is a "
        "critical hit: F-ATK-8).",
        grants_ca=True,
    ),
    ConditionInfo(
        "unconscious",
        "Un",
        "Helpless, -5 to all defenses, falls prone, takes no actions and can't see.",
        grants_ca=True,
        no_actions=True,
        no_reactions=True,
        cant_move=True,
        cant_see=True,
    ),
    ConditionInfo(
        "prone",
        "Pr",
        "-2 to its attack rolls; grants combat advantage to adjacent attackers; +2 to all "
        "defenses against ranged attacks from non-adjacent attackers; must stand up (a move "
        "action) before it walks or runs.",
    ),
    ConditionInfo(
        "immobilized",
        "Im",
        "Can't walk, run or shift; forced movement still moves it.",
        cant_move=True,
    ),
    ConditionInfo(
        "restrained",
        "Re",
        "Immobilized, grants combat advantage, -2 to its attack rolls, and can't be pulled, "
        "pushed or slid.",
        grants_ca=True,
        cant_move=True,
    ),
    ConditionInfo(
        "slowed",
        "Sl",
        "Its speed is 2 (walking and running); shifting is unaffected.",
    ),
    ConditionInfo(
        "weakened",
        "We",
        "Its attacks deal half damage (ongoing damage it causes is not affected).",
    ),
    ConditionInfo(
        "marked",
        "Mk",
        "An addition (the specification has no mark; the usual 4e one): -2 to attack rolls "
        "for any attack that doesn't include the creature that marked it; a new mark "
        "replaces the old one.",
    ),
    ConditionInfo(
        "surprised",
        "Su",
        "Surprise round only: takes no actions at all (not even free, immediate or opportunity "
        "actions) and grants combat advantage (F-TRN-5).",
        grants_ca=True,
        no_actions=True,
        no_reactions=True,
    ),
    ConditionInfo(
        "invisible",
        "In",
        "Can't be seen: total concealment (-5) against it; combat advantage against enemies "
        "that can't see it; doesn't provoke opportunity attacks from them (F-MOD-11).",
    ),
    ConditionInfo(
        "insubstantial",
        "Is",
        "Takes half damage from every attack and from ongoing damage (F-DMG-5).",
    ),
    ConditionInfo(
        "flat_footed",
        "Ff",
        "4srd and d20srd: hasn't acted yet this encounter: no Dex (or Int) bonus to AC (S-1, D-4).",
    ),
)

BY_NAME: dict[str, ConditionInfo] = {c.name: c for c in CONDITIONS}
CONDITION_NAMES: frozenset[str] = frozenset(BY_NAME)
