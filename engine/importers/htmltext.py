"""A Compendium monster page as numbered text: what `statblock` reads, from HTML.

The page is read with the standard library's `html.parser` (no network, no scripts run, no
entities beyond HTML's own), into pieces of text that keep the source line each came from.
Block tags end a line; the power icons (`<img>`) become the letters a stat block pasted
from a PDF shows (m basic melee, M melee, r basic ranged, R ranged, C close, A area) and the
keyword separator becomes a diamond, so that one reader serves both sources.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCK = {
    "p", "div", "h1", "h2", "h3", "h4", "tr", "li", "ul", "table", "blockquote", "br", "hr",
    "section", "article", "td", "th", "body", "html",
}  # fmt: skip
_SKIP = {"script", "style", "head", "title", "noscript", "template"}
_ICONS = [
    (re.compile(r"melee\s*basic|basic\s*melee|\bS1\b", re.I), "m"),
    (re.compile(r"ranged\s*basic|basic\s*ranged|\bS3\b", re.I), "r"),
    (re.compile(r"melee|\bS2\b", re.I), "M"),
    (re.compile(r"ranged|\bS4\b", re.I), "R"),
    (re.compile(r"close|\bZ1a?\b", re.I), "C"),
    (re.compile(r"area|\bZ2a?\b", re.I), "A"),
    (re.compile(r"\bx\b|diamond|separator", re.I), "✦"),
]
MAX_PIECES = 200_000


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[tuple[int, str]] = []
        self.skip = 0

    def _break(self) -> None:
        if self.pieces and self.pieces[-1][1] != "\n":
            self.pieces.append((self.getpos()[0], "\n"))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if len(self.pieces) > MAX_PIECES:
            return
        if tag in _SKIP:
            self.skip += 1
        elif tag in _BLOCK:
            self._break()
        elif tag == "img" and not self.skip:
            a = dict(attrs)
            hint = f"{a.get('alt') or ''} {(a.get('src') or '').rsplit('/', 1)[-1]}"
            hint = hint.replace(".gif", " ").replace(".png", " ").replace("_", " ")
            for pattern, letter in _ICONS:
                if pattern.search(hint):
                    self.pieces.append((self.getpos()[0], f" {letter} "))
                    break

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag in _BLOCK:
            self._break()

    def handle_data(self, data: str) -> None:
        if self.skip or len(self.pieces) > MAX_PIECES:
            return
        line = self.getpos()[0]
        for i, part in enumerate(data.split("\n")):
            if part:
                self.pieces.append((line + i, part.replace("\xa0", " ")))
            elif i:
                self.pieces.append((line + i, " "))


def html_pieces(text: str) -> list[tuple[int, str]]:
    """(line, text) pieces of the page's visible text; "\\n" pieces end a block."""
    reader = _Reader()
    reader.feed(text)
    reader.close()
    reader._break()
    return reader.pieces


def looks_like_html(text: str) -> bool:
    head = text[:4000].lower()
    return "<html" in head or "<h1" in head or "<p" in head or "<div" in head or "<body" in head
