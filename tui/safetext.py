"""User-supplied text made safe to show on a terminal: the one place that does it.

Names, descriptions, map and effect names, file names and error messages that quote them come
from files anyone can write (content, saves, combat logs). Shown as they are, they can take
over the terminal (an ESC sequence clears the screen or retitles the window, OSC 8 plants a
link), hide what they say (bidi overrides, zero-width characters), crash the app (invalid
Rich/Textual markup such as `[/]`) or break the layout (200 characters, wide CJK and emoji).
So every such string passes through here on its way to a screen or to standard output:

- `clean` makes control characters visible (C0 as the Control Pictures, DEL as ␡) and turns
  C1 controls, bidi controls, zero-width and other format characters, line separators and
  lone surrogates into U+FFFD, so that nothing reaches the terminal that it would obey;
- `fit` and `pad` measure by display cells (`rich.cells`), not by code points, and ellipsise;
- `plain` gives a Rich `Text`, which Textual never parses as markup (where an API takes a
  string, such as a notification, the caller passes `markup=False`).

No Textual import, and Rich only when measuring or building a `Text` (importing it costs tens
of milliseconds): the headless commands (`export --format text`, `resume`, `list`) use `clean`.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.text import Text

ELLIPSIS = "…"
REPLACEMENT = "\ufffd"
NAME_CELLS = 24
"""How wide a name may be inside a sentence (a dialog title, the status line)."""
MAX_COMBINING = 2
"""Combining marks kept on one base character (more stack into unreadable "zalgo")."""

_C0_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)}
_C0_PICTURES[0x7F] = "\u2421"  # ␡
_INVISIBLE_CATEGORIES = {"Cf", "Cs", "Zl", "Zp"}
"""Format characters (bidi controls, zero-width characters, soft hyphen...), surrogates and
line/paragraph separators: shown as U+FFFD."""
_DROPPED = {0xFE0E, 0xFE0F}
"""Variation selectors: terminals disagree on the width they give the emoji before them."""


def _safe_char(ch: str, newlines: bool) -> str:
    code = ord(ch)
    if code < 0x20 or code == 0x7F:
        if newlines and ch == "\n":
            return ch
        if newlines and ch == "\t":
            return " "
        return _C0_PICTURES[code]
    if 0x80 <= code <= 0x9F:
        return REPLACEMENT
    if code < 0x300:
        return ch  # fast path: printable Latin-1 (soft hyphen U+00AD is handled below)
    if code in _DROPPED:
        return ""
    if unicodedata.category(ch) in _INVISIBLE_CATEGORIES:
        return REPLACEMENT
    return ch


def clean(text: object, *, newlines: bool = False) -> str:
    """`text` as a string a terminal shows and never obeys (see the module docstring).

    With `newlines`, line breaks are kept and tabs become spaces (multi-line text such as an
    error report); otherwise they are made visible, for text meant to be one line."""
    s = text if isinstance(text, str) else str(text)
    if s.isascii() and s.isprintable():
        return s  # the common case, untouched
    out: list[str] = []
    marks = 0
    for ch in s:
        if ch == "\xad":
            out.append(REPLACEMENT)
            marks = 0
            continue
        if unicodedata.combining(ch):
            marks += 1
            if marks > MAX_COMBINING:
                continue
        else:
            marks = 0
        out.append(_safe_char(ch, newlines))
    return "".join(out)


def cells(text: str) -> int:
    """Display width of (clean) `text` in terminal cells."""
    if text.isascii():
        return len(text)
    from rich.cells import cell_len

    return cell_len(text)


def fit(text: object, width: int) -> str:
    """Clean `text`, cut to at most `width` cells with a trailing `…` if it was longer."""
    s = clean(text)
    if width <= 0:
        return ""
    if s.isascii():  # printable ASCII once clean: one cell a character
        return s if len(s) <= width else s[: width - 1] + ELLIPSIS
    from rich.cells import cell_len, get_character_cell_size

    if cell_len(s) <= width:
        return s
    room = width - 1
    used = 0
    out: list[str] = []
    for ch in s:
        w = get_character_cell_size(ch)
        if used + w > room:
            break
        out.append(ch)
        used += w
    return "".join(out) + ELLIPSIS


def fit_words(text: object, width: int) -> str:
    """Clean `text`, cut at a word boundary to at most `width` cells with a trailing `…` if it
    was longer (a cut mid-word only when the first words alone are longer than half of it)."""
    s = clean(text)
    if width <= 0:
        return ""
    if cells(s) <= width:
        return s
    cut = fit(s, width)[:-1]  # the longest prefix that leaves room for the ellipsis
    if len(cut) < len(s) and not s[len(cut)].isspace():
        space = cut.rfind(" ")
        if space >= width // 2:
            cut = cut[:space]
    return cut.rstrip(" ,;:-") + ELLIPSIS


def pad(text: object, width: int) -> str:
    """`fit` to `width` cells, then padded with spaces to exactly `width` cells (columns)."""
    s = fit(text, width)
    return s + " " * max(0, width - cells(s))


def name(text: object, width: int = NAME_CELLS) -> str:
    """A name to put in a sentence: clean, at most `width` cells."""
    return fit(text, width)


def plain(text: object, style: str = "", *, newlines: bool = False) -> Text:
    """A Rich `Text` of the cleaned text: Textual shows it as it is, never as markup."""
    from rich.text import Text

    return Text(clean(text, newlines=newlines), style=style)


def first_line(message: object) -> str:
    """The first line of an error message, cleaned (a one-line report of what is wrong)."""
    s = str(message)
    return clean(s.splitlines()[0] if s.strip() else s)
