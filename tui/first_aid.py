"""The Heal check from the app (issue 16 item 2): which dying creature the H key means, and
the engine's odds or refusal for it. Reads the encounter (the caller holds the controller's
lock); never changes it: the screen asks to confirm, then submits the `HealCheck`."""

from __future__ import annotations

from engine.actions import HealCheck
from engine.encounter import Encounter
from engine.handlers.first_aid import HEAL_DC, heal_check_odds, heal_check_refusal
from tui.safetext import name


def heal_check_plan(enc: Encounter, cursor_id: str | None) -> tuple[HealCheck, str] | str:
    """The Heal check on the creature under the cursor (or, with the cursor on nobody else,
    on the one dying ally next to the current creature) and its odds text; or why not (the
    engine's reason)."""
    c = enc.current
    if c is None:
        return "Can't: nobody is acting"
    b = enc.battle
    if cursor_id is not None and cursor_id != c.id:
        target = cursor_id
    else:
        dying = [
            o.id
            for o in b.combatants.values()
            if o.side == c.side and o.id != c.id and heal_check_refusal(b, c, o.id) is None
        ]
        if len(dying) != 1:
            many = "more than one dying ally is" if dying else "no dying ally is"
            return f"Can't: {many} next to {name(c.name)}: put the cursor on a dying creature"
        target = dying[0]
    act = HealCheck(target)
    refusal = enc.refusal(act)
    if refusal is not None:
        return f"Can't: {refusal.reason}"
    skill = c.creature.skills.heal
    odds = heal_check_odds(c)
    text = (
        f"d20 {skill:+d} (Heal) vs DC {HEAL_DC}: {odds:.0%} to stabilize "
        f"{name(b[target].name)} (a standard action)"
    )
    return act, text
