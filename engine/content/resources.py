"""Where content text comes from: files on disk, the bundled `maps` package, or a saved copy.

Every file is known by a key: a file on disk by its normalised path, a bundled file by
`maps/<folder>/<name>.yaml` (its path inside the package). The same keys name the texts in
`LoadedEncounter.sources`, so a save that embeds those texts can be loaded again from the
embedded copy with exactly the same include resolution (`TextReader`).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from engine.content.limits import MAX_FILE_BYTES, MAX_LOAD_BYTES, MAX_VALUES

BUNDLED_PACKAGE = "maps"
BUNDLED_PREFIX = "maps/"
SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True, slots=True)
class SourceKey:
    """A content file: `key` names it in errors and in `sources`; `bundled` says where."""

    key: str
    bundled: bool


def bundled_root() -> Traversable:
    return resources.files(BUNDLED_PACKAGE)


def _bundled_node(rel: str) -> Traversable | None:
    node = bundled_root()
    for part in rel.split("/"):
        if not part or part in (".", ".."):
            return None
        node = node.joinpath(part)
    return node


def bundled_key(rel: str) -> str:
    return BUNDLED_PREFIX + rel


def bundled_walk() -> list[str]:
    """Every bundled `.yaml` file, as a path relative to the package, sorted."""
    out: list[str] = []

    def walk(node: Traversable, prefix: str) -> None:
        for child in node.iterdir():
            if child.is_dir() and not child.name.startswith(("_", ".")):
                walk(child, f"{prefix}{child.name}/")
            elif child.is_file() and child.name.endswith(SUFFIXES):
                out.append(prefix + child.name)

    walk(bundled_root(), "")
    return sorted(out)


class Reader:
    """Reads content by key from disk and the bundled package, for one load.

    It meters the load: `values_left` and `bytes_left` are what the rest of the load may still
    read (limits.MAX_VALUES, MAX_LOAD_BYTES), so that eight includes can't add up to eight
    times what one file may hold."""

    def __init__(self) -> None:
        self.values_left = MAX_VALUES
        self.bytes_left = MAX_LOAD_BYTES

    def exists(self, src: SourceKey) -> bool:
        if src.bundled:
            rel = src.key.removeprefix(BUNDLED_PREFIX)
            node = _bundled_node(rel)
            return node is not None and node.is_file()
        # Anything but a folder: reading then refuses a FIFO or a device with a reason.
        return os.path.exists(src.key) and not os.path.isdir(src.key)

    def read(self, src: SourceKey) -> str:
        """The text, or OSError / UnicodeDecodeError (the loader turns them into errors)."""
        if src.bundled:
            node = _bundled_node(src.key.removeprefix(BUNDLED_PREFIX))
            if node is None:
                raise FileNotFoundError(src.key)
            return node.read_text(encoding="utf-8")
        return read_text_file(src.key)


class TextReader(Reader):
    """Reads only from given texts (keyed as in `LoadedEncounter.sources`), e.g. a save."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        super().__init__()
        self.texts = dict(texts)

    def exists(self, src: SourceKey) -> bool:
        return src.key in self.texts

    def read(self, src: SourceKey) -> str:
        if src.key not in self.texts:
            raise FileNotFoundError(src.key)
        text = self.texts[src.key]
        if len(text) > MAX_FILE_BYTES:
            raise too_large(len(text))
        return text


def too_large(size: int) -> OSError:
    return OSError(
        errno.EFBIG,
        f"it is {size} bytes; a content file may be {MAX_FILE_BYTES // 1024} KB at most",
    )


def read_text_file(path: str, limit: int = MAX_FILE_BYTES) -> str:
    """A regular file's text, read at most `limit` bytes (not trusting the size the file
    system reports: /dev/zero says 0); OSError for anything else (a FIFO is refused at once
    instead of blocking, a folder or a device is not content), UnicodeDecodeError."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise too_large(os.path.getsize(path))
    return data.decode("utf-8")


def include_candidates(including: SourceKey, entry: str) -> list[SourceKey]:
    """Where an `include:` entry may live, in order of precedence.

    1. relative to the including file's folder (as written, then with `.yaml` added);
    2. a bundled library under the `maps` package (`bestiary/goblins`, `.yaml` optional).
    """
    names = [entry] if entry.endswith(SUFFIXES) else [entry, entry + ".yaml"]
    folder = os.path.dirname(including.key)
    out: list[SourceKey] = []
    for name in names:
        rel = os.path.normpath(os.path.join(folder, name)).replace(os.sep, "/")
        if including.bundled:
            # Inside the package a relative include must stay inside the package.
            if rel.startswith(BUNDLED_PREFIX):
                out.append(SourceKey(rel, True))
        else:
            out.append(SourceKey(rel, False))
    if not os.path.isabs(entry):
        for name in names:
            rel = os.path.normpath(name).replace(os.sep, "/")
            if not rel.startswith(".."):
                out.append(SourceKey(bundled_key(rel), True))
    return out


def bundled_libraries() -> list[str]:
    """Bundled library names usable in `include:` (`bestiary/goblins`), for did-you-mean."""
    return [rel.rsplit(".", 1)[0] for rel in bundled_walk() if not rel.startswith("encounters/")]
