"""What a person rolling a physical die needs to know: the face needed, the bonus, the
defense and the odds of an attack; the dice and what is added to them for damage.

The manual dice prompt shows these (issue 12, item 20). The numbers come from the setup the
roll itself uses (`engine.attacks.AttackSetup`) and the ruleset that judges it, so the prompt
can't disagree with the outcome. `engine.battle.Battle.d20` calls a hint only when a person
is about to roll, so the simulator pays nothing for them.
"""

from __future__ import annotations

import copy

from engine.attacks import AttackSetup
from engine.battle import Battle
from engine.dice import DiceExpr
from engine.rulesets import Ruleset
from engine.state import Combatant

DEFENSE = {"ac": "AC", "fortitude": "Fortitude", "reflex": "Reflex", "will": "Will"}


def needed_face(ruleset: Ruleset, s: AttackSetup) -> int | None:
    """The lowest d20 face that hits (F-ATK-3..5, as the ruleset judges), or None."""
    for natural in range(1, 21):
        if ruleset.outcome(natural, natural + s.bonus, s.defense, s.crit_low) != "miss":
            return natural
    return None


def attack_hint(ruleset: Ruleset, s: AttackSetup, vs: str) -> str:
    """E.g. "needs 12+ (d20 +5 vs AC 17; 45%)"."""
    hit, _ = ruleset.odds(s)
    need = needed_face(ruleset, s)
    what = f"d20 {s.bonus:+d} vs {DEFENSE.get(vs, vs)} {s.defense}; {round(100 * hit)}%"
    if need is None:
        return f"can't hit ({what})"
    if need == 20:
        return f"needs a natural 20 ({what})"
    return f"needs {need}+ ({what})"


def damage_hint(expr: DiceExpr, notes: list[str]) -> str:
    """E.g. "dice 2d6, modifiers +4 (halved: weakened; resist 5)": the dice to throw, what
    the app adds to them, and what the target's defenses will do to the total."""
    dice = DiceExpr(expr.terms, 0)
    text = f"dice {dice}" if expr.terms else "no dice"
    text += f", modifiers {expr.constant:+d}"
    if notes:
        text += f" ({'; '.join(notes)})"
    return text


HALVED = {
    "half_on_miss": "half on a miss",
    "weakened": "halved: weakened",
    "insubstantial": "halved: insubstantial",
}


def halve_notes(halve: list[str]) -> list[str]:
    return [HALVED.get(h, h) for h in halve]


def resist_notes(target: Combatant, types: tuple[str, ...]) -> list[str]:
    """What the target's resistances and vulnerabilities will do to typed damage (F-DMG-3/4)."""
    cr = target.creature
    notes = []
    if types and all(cr.resist.get(t, 0) for t in types):
        notes.append(f"resist {min(cr.resist[t] for t in types)}")
    vuln = sum(cr.vulnerable.get(t, 0) for t in types)
    if vuln:
        notes.append(f"vulnerable {vuln}")
    return notes


def damage_moot(battle: Battle, target: Combatant, least: int) -> bool:
    """Can no face of a damage roll change what happens (issue 12, item 21)? True when even
    `least` (the lowest total after every adjustment: halving, resistance, temporary hit
    points) leaves the target dead as the ruleset counts hit points; more damage only
    confirms it, so a person need not roll (the app rolls it, and the log says so)."""
    probe = copy.copy(target)
    probe.hp = target.hp - max(0, least)
    return battle.ruleset.hp_state(probe) == "dead"
