"""`--ai-style` of `skirmish play` and `skirmish sim`: how the AI plays, as the GM chooses.

A value is `WORD[,WORD...]` for every AI side or `SIDE=WORD[,WORD...]` for one side (the
words: `ai.styles.WORDS`); the option is repeatable, a later one wins for the same side and
field, and a side's own choice wins over the every-side one. The command line is the GM's
choice for this run, so it wins over the content's `ai` fields (docs/content.md, "Styles").
Parsing needs nothing heavy (`ai.styles` imports no engine), so a bad value is an argparse
error before any content loads.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ai.styles import StylePick

STYLE_HELP = (
    "how the AI plays (repeatable): ruthless (attacks the dying while a standing enemy is "
    "free), merciful (doesn't: the default), flee (monsters break off when badly hurt), "
    "stand-fast (don't: the default), bold, normal or cautious (halves, keeps or doubles the "
    "weight of blows it could take); for every AI side, or SIDE=WORD[,WORD...] for one. "
    "Wins over the content's `ai` fields (docs/content.md, Styles)"
)


def style_arg(text: str) -> tuple[str | None, StylePick]:
    """argparse type of `--ai-style`: (side or None, the choices)."""
    from ai.styles import parse_style

    try:
        return parse_style(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_style_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ai-style",
        type=style_arg,
        action="append",
        default=[],
        metavar="[SIDE=]STYLE",
        help=STYLE_HELP,
    )


def styles_by_side(
    picks: list[tuple[str | None, StylePick]], sides: list[str]
) -> tuple[dict[str, StylePick], str | None]:
    """Each side's command-line choices (sides matched in any case), or why they don't fit
    the encounter (a side it doesn't have)."""
    from ai.styles import StylePick, combine

    known = {s.casefold(): s for s in sides}
    named: list[tuple[str | None, StylePick]] = []
    for side, pick in picks:
        if side is None:
            named.append((None, pick))
            continue
        name = known.get(side.casefold())
        if name is None:
            return {}, f"--ai-style {side}=...: no side {side!r} (sides: {', '.join(sides)})"
        named.append((name, pick))
    table = combine(named)
    every = table.get(None, StylePick())
    out = {s: table.get(s, StylePick()).over(every) for s in sides}
    return {s: p for s, p in out.items() if p != StylePick()}, None


def style_texts(by_side: dict[str, StylePick]) -> list[str]:
    """`by_side` as `--ai-style` values: for a command line that runs it again, and for a
    save (`tui.options.GameOptions.ai_style`)."""
    return [f"{side}={','.join(pick.words())}" for side, pick in by_side.items()]


def parse_texts(texts: tuple[str, ...] | list[str]) -> list[tuple[str | None, StylePick]]:
    """`--ai-style` values kept as text (options, a save) parsed again; a value that doesn't
    parse (a save edited by hand) is left out."""
    from ai.styles import parse_style

    out = []
    for text in texts:
        try:
            out.append(parse_style(text))
        except ValueError:
            continue
    return out


def style_for(texts: tuple[str, ...], side: str) -> StylePick | None:
    """The choices of `texts` (`--ai-style` values, as `GameOptions.ai_style` keeps them) for
    one side; None when they choose nothing for it."""
    picks = [(s, p) for s, p in parse_texts(texts) if s is None or s.casefold() == side.casefold()]
    return styles_by_side(picks, [side])[0].get(side)
