"""Counted words for what the app and the command line print: "1 round", "3 rounds", never
"1 rounds" or "round(s)". One place, so every message agrees."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """`n` and the word for that many: plural(1, "fight") is "1 fight", plural(0, "fight")
    is "0 fights"; `many` for irregular plurals."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
