"""The one writer of a save: whole lines appended durably, under a lock, surviving a full disk.

What it promises (and `tests/engine/test_save_durability.py` checks under a file layer that
forgets whatever was not fsynced):

- When `append` returns, its lines are on disk: one write of whole lines, then fsync. A new
  save's header is fsynced in a temporary file before it is linked into place, and the folder
  is fsynced after, so a save either doesn't exist or has a whole header.
- When `append` fails (a full disk: a short write leaves `{"crc":"c` at byte 4096), the file is
  cut back to the end of its last good line before the error is raised (`SaveFailed`), so the
  next append can't join a torn line and every line written before stays readable. If even
  the cut fails, nothing more is written until it succeeds.
- One writer per save: an exclusive lock (flock), taken *before* the save is read
  (`open_existing`), so a second Skirmish can neither write nor cut back records it didn't read.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from engine.save import SUFFIX, SaveError, SaveFile, SaveHeader, encode_line, read_save

try:  # advisory locks: one writer per save (absent on Windows, where O_EXCL still holds)
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]


class SaveFailed(SaveError):
    """A write to the save failed (disk full, I/O error); the file was left at its last good
    line (`written_bytes`), and a later append retries what is missing."""


def fsync(fd: int) -> None:
    """Make what was written to `fd` durable: every write of a save goes through here (tests
    that don't test durability swap it for a no-op: see tests/support/saves.py)."""
    os.fsync(fd)


def _fsync_dir(directory: Path) -> None:
    """Make a new directory entry durable (a no-op where directories can't be opened)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def slug(text: str) -> str:
    """A file-name-safe form of an encounter's name."""
    base = Path(text).name.removesuffix(".yaml").removesuffix(".yml") or "fight"
    return re.sub(r"[^A-Za-z0-9_-]+", "-", base).strip("-")[:40] or "fight"


def new_save_name(encounter: str, now: datetime | None = None) -> str:
    """`<encounter>_<YYYY-mm-dd_HH-MM-SS>_<random>.save.jsonl`: findable by a person, and the
    random part keeps two fights started in the same second apart."""
    stamp = (now or datetime.now()).strftime("%Y-%m-%d_%H-%M-%S")
    return f"{slug(encounter)}_{stamp}_{secrets.token_hex(3)}{SUFFIX}"


def _lock(fd: int, path: Path) -> None:
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SaveError(path, "is open in another Skirmish") from None


class SaveWriter:
    """The one writer of a save; see the module docstring."""

    def __init__(self, path: Path, fd: int, size: int) -> None:
        self.path = path
        self._fd: int | None = fd
        self._size = size
        """Bytes of whole, durable lines: where the file is cut back to after a failure."""
        self._torn = False
        """A failed append may have left bytes after `_size` that are not cut off yet."""

    @property
    def written_bytes(self) -> int:
        return self._size

    # construction
    @classmethod
    def create(cls, path: str | os.PathLike[str], header: SaveHeader) -> SaveWriter:
        """A new save at `path`, which must not exist (SaveError if it does: nothing is ever
        overwritten). The header is written to a temporary file and linked into place, so a
        save either doesn't exist or has a whole header."""
        path = Path(path)
        data = encode_line(header.to_json())
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as exc:
            raise SaveError(path, f"can't create the save: {exc.strerror or exc}") from None
        try:
            _write_all(fd, data)
            fsync(fd)
        except OSError as exc:
            os.close(fd)
            os.unlink(tmp)
            raise SaveFailed(path, f"can't write the save: {exc.strerror or exc}") from None
        os.close(fd)
        try:
            os.link(tmp, path)  # atomic, and fails if the name is taken
        except FileExistsError:
            os.unlink(tmp)
            raise SaveError(path, "already exists: a save is never overwritten") from None
        except OSError:  # no hard links here: O_EXCL still guarantees no overwrite
            os.unlink(tmp)
            cls._create_in_place(path, data)
        else:
            os.unlink(tmp)
        _fsync_dir(path.parent)
        return cls._open(path, len(data))

    @staticmethod
    def _create_in_place(path: Path, data: bytes) -> None:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            raise SaveError(path, "already exists: a save is never overwritten") from None
        except OSError as exc:
            raise SaveError(path, f"can't create the save: {exc.strerror or exc}") from None
        try:
            _write_all(fd, data)
            fsync(fd)
        except OSError as exc:
            os.close(fd)
            os.unlink(path)
            raise SaveFailed(path, f"can't write the save: {exc.strerror or exc}") from None
        os.close(fd)

    @classmethod
    def create_in(cls, directory: str | os.PathLike[str], header: SaveHeader) -> SaveWriter:
        """A new save with a fresh name in `directory` (created if needed)."""
        folder = Path(directory)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SaveError(
                folder, f"can't create the save folder: {exc.strerror or exc}"
            ) from None
        for _ in range(20):
            try:
                return cls.create(folder / new_save_name(header.encounter), header)
            except SaveError as exc:
                if "already exists" not in exc.what:
                    raise
        raise SaveError(folder, "can't find a free save name")  # pragma: no cover

    @classmethod
    def open_existing(cls, path: str | os.PathLike[str]) -> tuple[SaveWriter, SaveFile]:
        """Lock the save, then read it: what is read is what this writer continues from, and
        no other Skirmish can append between the two. A torn tail is cut off."""
        path = Path(path)
        fd = cls._open_fd(path)
        try:
            _lock(fd, path)
            save = read_save(path)
            cls._cut_tail(fd, path, save.good_size)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, save.good_size), save

    @classmethod
    def append_to(cls, save: SaveFile) -> SaveWriter:
        """Continue `save` (as read before this call). Once locked, the file is read again: if
        another Skirmish appended in between, SaveError (open it again) and nothing is cut;
        only a torn tail is cut off, so the next line doesn't join it."""
        fd = cls._open_fd(save.path)
        try:
            _lock(fd, save.path)
            size = os.fstat(fd).st_size
            if size != save.good_size:
                now = read_save(save.path)
                if len(now.entries) + len(now.redo) != len(save.entries) + len(save.redo) or (
                    now.good_size != save.good_size
                ):
                    raise SaveError(save.path, "changed since it was read: open it again")
            cls._cut_tail(fd, save.path, save.good_size)
        except BaseException:
            os.close(fd)
            raise
        return cls(save.path, fd, save.good_size)

    @classmethod
    def _open(cls, path: Path, good_size: int) -> SaveWriter:
        fd = cls._open_fd(path)
        try:
            _lock(fd, path)
            cls._cut_tail(fd, path, good_size)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, good_size)

    @staticmethod
    def _open_fd(path: Path) -> int:
        try:
            return os.open(path, os.O_RDWR | os.O_APPEND)
        except OSError as exc:
            raise SaveError(path, f"can't open it for writing: {exc.strerror or exc}") from None

    @staticmethod
    def _cut_tail(fd: int, path: Path, good_size: int) -> None:
        size = os.fstat(fd).st_size
        if size < good_size:
            raise SaveError(path, "changed since it was read (it is shorter now)")
        if size > good_size:
            try:
                os.ftruncate(fd, good_size)
                fsync(fd)
            except OSError as exc:
                raise SaveError(path, f"can't repair it: {exc.strerror or exc}") from None

    # appending
    def append(self, objs: Iterable[dict[str, Any]]) -> None:
        """Write the lines (`record_json`, `undo_json`, `end_json`) in one write, then fsync:
        when this returns they survive a crash. SaveFailed if they could not be written: the
        file is then cut back to its last good line (see the module docstring)."""
        fd = self._fd
        if fd is None:
            raise SaveError(self.path, "the save was closed")
        data = b"".join(encode_line(o) for o in objs)
        if not data:
            return
        self._repair(fd)
        try:
            self._torn = True
            _write_all(fd, data)
            fsync(fd)
        except OSError as exc:
            why = f"can't write the save: {exc.strerror or exc}"
            with contextlib.suppress(SaveFailed):
                self._repair(fd)
            raise SaveFailed(self.path, why) from None
        self._torn = False
        self._size += len(data)

    def _repair(self, fd: int) -> None:
        """Cut off what a failed append left after the last good line (SaveFailed if not)."""
        if not self._torn:
            return
        try:
            os.ftruncate(fd, self._size)
            fsync(fd)
        except OSError as exc:
            raise SaveFailed(
                self.path, f"can't repair the save after a failed write: {exc.strerror or exc}"
            ) from None
        self._torn = False

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)  # closing releases the lock
            self._fd = None
