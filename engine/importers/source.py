"""Reading a source file as hostile bytes: a size limit, the encodings GMs' files come in,
clean text, and the line of any character.

Character Builder saves, Compendium pages and pasted stat blocks come with or without a
byte-order mark, with LF or CRLF, in UTF-8 or (older tools) Windows-1252. Everything that
reaches a content file passes through `clean`, which removes control characters and bounds
the length, so that no byte of the source can break the YAML or the screen.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from pathlib import Path

from engine.importers.report import ImportFailed, Problem

MAX_BYTES = 4_000_000
"""A real Character Builder save is about 400 KB, a stat block page a few KB."""
MAX_TEXT = 2000
"""The longest text (a power's note, a description) written into a content file."""
MAX_NAME = 60

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\ufeff]")
_SPACES = re.compile(r"\s+")


def read_source(path: str | Path) -> bytes:
    """The bytes of `path`, refusing what is not a readable file of a sensible size."""
    name = str(path)
    p = Path(path)
    try:
        if not p.is_file():
            raise ImportFailed([Problem(name, None, "file", "no such file")])
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise ImportFailed(
                [Problem(name, None, "file", f"{size} bytes is too big (at most {MAX_BYTES})")]
            )
        return p.read_bytes()
    except OSError as exc:
        raise ImportFailed([Problem(name, None, "file", exc.strerror or str(exc))]) from None


def decode(data: bytes, file: str) -> str:
    """Text from bytes: UTF-8 or UTF-16 by their byte-order mark, else UTF-8, else cp1252.

    Line ends become LF. The size limit is checked here too, for callers that pass bytes.
    """
    if len(data) > MAX_BYTES:
        raise ImportFailed(
            [Problem(file, None, "file", f"{len(data)} bytes is too big (at most {MAX_BYTES})")]
        )
    try:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            text = data.decode("utf-16")
        else:
            text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x00" in text:
        raise ImportFailed([Problem(file, None, "file", "binary data, not text")])
    return text


def clean(text: str, limit: int = MAX_TEXT) -> str:
    """One line of printable text: control characters dropped, runs of space made one."""
    text = unicodedata.normalize("NFC", text)
    text = _CONTROL.sub("", text)
    text = _SPACES.sub(" ", text).strip()
    if len(text) > limit:
        text = text[: limit - 3].rstrip() + "..."
    return text


class LineIndex:
    """The line (from 1) of a character offset in a text built from numbered pieces."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.lines: list[int] = []
        self.parts: list[str] = []
        self.length = 0

    def add(self, text: str, line: int) -> None:
        self.starts.append(self.length)
        self.lines.append(line)
        self.parts.append(text)
        self.length += len(text)

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def line(self, offset: int) -> int | None:
        if not self.starts:
            return None
        i = bisect.bisect_right(self.starts, offset) - 1
        return self.lines[max(i, 0)]
