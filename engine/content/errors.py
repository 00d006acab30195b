"""Content errors that name the file, the line and the field, and nothing else.

Content is written by people in a text editor, so every problem must point at the place to
fix it, in the `file:line: field: message` shape editors and terminals already recognise.
The loader collects every error it can find before it stops (`ContentErrors`), so a user
fixes a file in one pass instead of one error per run.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

PathKey = str | int
Path_ = tuple[PathKey, ...]
_MAX_FIELD = 120


def visible(text: str) -> str:
    """`text` with every unprintable character (controls, C1, bidi overrides) written as an
    escape, so an error message can't move the cursor or retitle the terminal it is shown in."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def field_path(path: Sequence[PathKey]) -> str:
    """`("creatures", 2, "powers", 0)` -> `creatures[2].powers[0]`; odd dict keys quoted."""
    out = ""
    for key in path:
        if isinstance(key, int):
            out += f"[{key}]"
        elif key.isidentifier() or _is_plain_id(key):
            out += f".{key}" if out else key
        else:
            out += f"[{key!r}]"
    return out


def _is_plain_id(key: str) -> bool:
    # Content ids are like "goblin-cutter": readable as a dotted path segment.
    return bool(key) and key[0].isalpha() and all(c.isalnum() or c in "_-" for c in key)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`" (did you mean 'speed'?)"` when a close choice exists, else the empty string."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


class ContentError(Exception):
    """One problem in one content file, at one line and field."""

    def __init__(self, file: str, line: int | None, field: str, message: str) -> None:
        self.file = visible(file)
        self.line = line
        self.field = visible(field if len(field) <= _MAX_FIELD else "..." + field[-_MAX_FIELD:])
        self.message = visible(message)
        super().__init__(str(self))

    def __str__(self) -> str:
        # No line for what isn't in a file (a --ruleset argument, a missing bundled name):
        # never the `file:?:` a person can't act on.
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.field}: {self.message}"

    def __reduce__(self) -> tuple[type[ContentError], tuple[str, int | None, str, str]]:
        # Exceptions pickle their `args`; these are rebuilt from their fields (worker processes).
        return (ContentError, (self.file, self.line, self.field, self.message))

    def __repr__(self) -> str:
        return f"ContentError({self.file!r}, {self.line!r}, {self.field!r}, {self.message!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ContentError):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[str, int, str, str]:
        return (self.file, -1 if self.line is None else self.line, self.field, self.message)


class ContentErrors(Exception):
    """Every problem found in one load, sorted by file and line; its text is one per line."""

    def __init__(self, errors: Iterable[ContentError]) -> None:
        unique = list(dict.fromkeys(errors))
        self.errors: list[ContentError] = sorted(unique, key=lambda e: e._key()[:2])
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)

    def __len__(self) -> int:
        return len(self.errors)

    def __reduce__(self) -> tuple[type[ContentErrors], tuple[list[ContentError]]]:
        return (ContentErrors, (self.errors,))


class ErrorSink:
    """Collects errors for one load; `raise_if_any` ends the load once nothing more is found."""

    def __init__(self) -> None:
        self.errors: list[ContentError] = []

    def add(self, error: ContentError) -> None:
        self.errors.append(error)

    def extend(self, errors: Iterable[ContentError]) -> None:
        self.errors.extend(errors)

    def __bool__(self) -> bool:
        return bool(self.errors)

    def raise_if_any(self) -> None:
        if self.errors:
            raise ContentErrors(self.errors)
