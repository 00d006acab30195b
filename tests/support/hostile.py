"""Hostile names for the terminal tests (issue 17): markup, terminal escapes, an OSC 8 link,
200 characters, bidi overrides, zero-width and wide characters, and what may come out of them.

`FORBIDDEN` lists the byte patterns that must never reach a terminal from content; the tests
that run the app in a pseudo-terminal look for them in everything it wrote."""

from __future__ import annotations

import re

MARKUP = "[/]"
LINK_MARKUP = "[link=file:///etc/passwd]x[/link]"
BOLD_MARKUP = "[bold]Gob[/]"
ESCAPES = "\x1b[2J\x1b]0;pwned\x07"
OSC8 = "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\"
LONG = "L" * 190 + "ongname!!!"
RTL = "Gob\u202elin\u202c"
ZERO_WIDTH = "Zer\u200bo\u200d\ufeffw"
WIDE = "龍🐉剣士😀"
C1 = "c1\x9b2J\x85"
CONTROLS = "nul\x00bel\x07bs\x08del\x7f"

NAMES = {
    "markup": MARKUP,
    "link-markup": LINK_MARKUP,
    "bold-markup": BOLD_MARKUP,
    "escapes": ESCAPES,
    "osc8": OSC8,
    "long": LONG,
    "rtl": RTL,
    "zero-width": ZERO_WIDTH,
    "wide": WIDE,
    "c1": C1,
    "controls": CONTROLS,
}

ALLOWED_CSI = {
    "m",
    "H",
    "h",
    "l",
    "u",
    "A",
    "B",
    "C",
    "D",
    "G",
    "K",
    "X",
    "n",
    "c",
    "t",
    "q",
    "p",
    "$p",
}
"""Final bytes of the control sequences the app itself writes (SGR, cursor moves, modes,
keyboard protocol and terminal queries); clearing the screen (J) is not one of them."""
ALLOWED_OSC = {"22"}
"""Operating system commands the app itself writes (22: the mouse pointer's shape)."""
CSI = re.compile(r"\x1b\[([0-9;?<>=]*)([ -/]*[@-~])")
OSC = re.compile(r"\x1b\](\d*);")
RAW = re.compile(
    "[\x00\x08\x7f\x80-\x9f\udc80-\udcff\u202a-\u202e\u2066-\u2069\u200b-\u200d\ufeff\u061c]"
)
"""Characters that must never reach the terminal: NUL, BS, DEL, C1 controls (as UTF-8 or as
raw bytes), bidi controls and zero-width characters."""


def forbidden_in(data: bytes) -> list[str]:
    """What in `data` (all a program wrote to its terminal) could only come from hostile
    content: a control sequence the app never writes, a title or link (OSC 0/2/8), raw
    control, bidi or zero-width characters. Each with some context, for an assertion."""
    text = data.decode("utf-8", "surrogateescape")
    found = []

    def note(what: str, start: int, end: int) -> None:
        found.append(f"{what} at {start}: {text[max(0, start - 40) : end + 40]!r}")

    for m in CSI.finditer(text):
        if m.group(2).lstrip(" -/") not in ALLOWED_CSI and m.group(2) not in ALLOWED_CSI:
            note(f"CSI {m.group(0)!r}", m.start(), m.end())
    for m in OSC.finditer(text):
        if m.group(1) not in ALLOWED_OSC:
            note(f"OSC {m.group(1)}", m.start(), m.end())
    for m in RAW.finditer(text):
        note(f"raw {m.group(0)!r}", m.start(), m.end())
    if "pwned\x07" in text:
        note("BEL after hostile text", text.index("pwned\x07"), text.index("pwned\x07") + 6)
    bel = [m.start() for m in re.finditer("\x07", text)]
    for at in bel:  # BEL only ends the app's own OSC sequences
        if not re.search(r"\x1b\](22);[^\x07\x1b]*$", text[max(0, at - 200) : at]):
            note("raw BEL", at, at + 1)
    return found
