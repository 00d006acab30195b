"""From parsed command-line arguments to a running app (`skirmish` and `skirmish play`).

Bad options (an unknown side for --manual-dice, an id that names nothing for --control) end in
one line on stderr and exit status 2, before the screen is taken over.
"""

from __future__ import annotations

import argparse
import random
import sys

from engine.content.loader import load_encounter
from tui.controller import GameOptions


def _fresh_seed() -> int:
    # A seed for a fight nobody asked to reproduce; shown in the log so it can be replayed.
    return random.SystemRandom().randrange(1, 1_000_000)


def options_from(args: argparse.Namespace) -> GameOptions:
    seed = getattr(args, "seed", None)
    pace = getattr(args, "pace", None)
    return GameOptions(
        source=getattr(args, "encounter", None) or "default",
        seed=seed if seed is not None else _fresh_seed(),
        ruleset=getattr(args, "ruleset", None),
        control=dict(getattr(args, "control", None) or []),
        manual_dice=tuple(getattr(args, "manual_dice", None) or ()),
        pace=float(pace) if pace is not None else 0.35,
        step=bool(getattr(args, "step", False)),
    )


def check_options(options: GameOptions, sides: set[str], ids: set[str]) -> str | None:
    """Why these options don't fit the encounter, or None."""
    for who in options.control:
        if who not in sides and who not in ids:
            return (
                f"--control {who}: no side or creature {who!r} (sides: {', '.join(sorted(sides))})"
            )
    for side in options.manual_dice:
        if side not in sides:
            return f"--manual-dice {side}: no side {side!r} (sides: {', '.join(sorted(sides))})"
    return None


def launch(args: argparse.Namespace) -> int:
    options = options_from(args)
    loaded = None
    if getattr(args, "command", None) == "play":
        loaded = load_encounter(options.source, options.ruleset)
        sides = {c.side for c in loaded.spec.combatants}
        ids = {c.id for c in loaded.spec.combatants}
        problem = check_options(options, sides, ids)
        if problem:
            print(f"skirmish play: {problem}", file=sys.stderr)
            return 2
    from tui.app import SkirmishApp

    app = SkirmishApp(options, loaded)
    result = app.run(mouse=False)
    return result if isinstance(result, int) else 0
