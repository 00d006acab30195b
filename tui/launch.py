"""From parsed command-line arguments to a running app: `skirmish`, `skirmish play`, and the
entry points of the save commands (`launch_save` for `skirmish resume`, `launch_replay` for
`skirmish replay`).

Bad options (an unknown side for --manual-dice, an id that names nothing for --control) end in
one line on stderr and exit status 2, before the screen is taken over. Nothing heavy is
imported for a bare `skirmish`: the start screen draws first and loads the content list in a
worker.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from tui.cli_styles import parse_texts, style_texts, styles_by_side
from tui.options import DEFAULT_PACE, GameOptions
from tui.safetext import clean

if TYPE_CHECKING:
    from ai.styles import StylePick
    from tui.app import SkirmishApp


def _fresh_seed() -> int:
    # A seed for a fight nobody asked to reproduce; shown in the log so it can be replayed.
    return random.SystemRandom().randrange(1, 1_000_000)


def options_from(args: argparse.Namespace) -> GameOptions:
    seed = getattr(args, "seed", None)
    pace = getattr(args, "pace", None)
    control, _ = control_pairs(list(getattr(args, "control", None) or []))
    return GameOptions(
        source=getattr(args, "encounter", None) or "default",
        seed=seed if seed is not None else _fresh_seed(),
        ruleset=getattr(args, "ruleset", None),
        control=control,
        manual_dice=tuple(getattr(args, "manual_dice", None) or ()),
        pace=float(pace) if pace is not None else DEFAULT_PACE,
        step=bool(getattr(args, "step", False)),
        ai_style=tuple(_style_text(side, pick) for side, pick in getattr(args, "ai_style", [])),
    )


def _style_text(side: str | None, pick: StylePick) -> str:
    words = ",".join(pick.words())
    return f"{side}={words}" if side is not None else words


def control_pairs(pairs: list[tuple[str, str]]) -> tuple[dict[str, str], str | None]:
    """`--control` options as a dict, or why they contradict each other (the same side or
    creature given to the player and to the AI: which one was meant can't be guessed)."""
    out: dict[str, str] = {}
    for who, ctl in pairs:
        key = who.casefold()
        before = next((k for k in out if k.casefold() == key), None)
        if before is not None and out[before] != ctl:
            return out, f"--control {who}: given both {before}={out[before]} and {who}={ctl}"
        out[before or who] = ctl
    return out, None


def resolve_options(
    options: GameOptions, sides: list[str], ids: list[str]
) -> tuple[GameOptions, str | None]:
    """The options with every side and creature named as the encounter spells it (ids and
    sides are matched case-insensitively), or why they don't fit the encounter."""
    known = {name.casefold(): name for name in [*sides, *ids]}
    listing = f"sides: {', '.join(sides)}; creatures: {', '.join(ids)}"
    control: dict[str, str] = {}
    for who, ctl in options.control.items():
        name = known.get(who.casefold())
        if name is None:
            return options, f"--control {who}: no side or creature {who!r} ({listing})"
        control[name] = ctl
    by_side = {s.casefold(): s for s in sides}
    manual: list[str] = []
    for side in options.manual_dice:
        name = by_side.get(side.casefold())
        if name is None:
            return options, f"--manual-dice {side}: no side {side!r} (sides: {', '.join(sides)})"
        manual.append(name)
    picks = parse_texts(options.ai_style)
    styles, problem = styles_by_side(picks, sides)
    if problem:
        return options, problem
    return replace(
        options, control=control, manual_dice=tuple(manual), ai_style=tuple(style_texts(styles))
    ), None


def check_options(options: GameOptions, sides: set[str], ids: set[str]) -> str | None:
    """Why these options don't fit the encounter, or None."""
    return resolve_options(options, sorted(sides), sorted(ids))[1]


def _run(app: SkirmishApp) -> int:
    """Run the app; its exit status. A crash (Textual's `return_code` 1) or a signal (128 +
    its number, `tui.terminal`) is never reported as 0."""
    from tui.terminal import guarded

    with guarded(app):
        result = app.run(mouse=False)
    code = app.return_code
    if code:
        return code
    return result if isinstance(result, int) else 0


def _quiet_start() -> None:
    """No cyclic garbage collection until the fight's first frame is drawn (the fight screen
    turns it back on just after, `EncounterScreen._first_frame_drawn`; `_run` does if the app
    ends first).

    Start-up builds a few hundred thousand objects that live as long as the process (modules,
    classes, dataclasses, pydantic's schemas, Textual's styles): the collector's ~190 passes
    over them cost about 90 ms of CPU before the first frame (issue 14, target 6). Its first
    pass afterwards, off the first frame's path (about 50 ms), frees the cycles start-up left."""
    gc.disable()


def launch(args: argparse.Namespace) -> int:
    _, problem = control_pairs(list(getattr(args, "control", None) or []))
    if problem:
        print(f"skirmish play: {problem}", file=sys.stderr)
        return 2
    options = options_from(args)
    if getattr(args, "command", None) != "play":
        from tui.app import SkirmishApp

        return _run(SkirmishApp(options, None))
    _quiet_start()
    try:
        from engine.content.loader import load_encounter

        loaded = load_encounter(options.source, options.ruleset)
        sides = list(dict.fromkeys(c.side for c in loaded.spec.combatants))
        ids = [c.id for c in loaded.spec.combatants]
        options, problem = resolve_options(options, sides, ids)
        if problem:
            print(clean(f"skirmish play: {problem}"), file=sys.stderr)
            return 2
        from tui.app import SkirmishApp

        return _run(SkirmishApp(options, loaded))
    finally:
        gc.enable()  # the fight screen's first frame turns it on; this, whatever else happens


def launch_save(path: str | os.PathLike[str]) -> int:
    """`skirmish resume`: open a saved fight where it stopped and play on (the same save
    keeps growing). The caller has checked the save."""
    from tui.app import SkirmishApp

    return _run(SkirmishApp(GameOptions(), resume=Path(path)))


def launch_replay(path: str | os.PathLike[str]) -> int:
    """`skirmish replay`: step through a save or a JSON Lines combat log, read-only."""
    from tui.app import SkirmishApp

    return _run(SkirmishApp(GameOptions(), replay=Path(path)))
