"""A file layer that forgets what was not fsynced, fills up, and crashes on cue: for testing
that a save survives a power cut and a full disk.

A process killed by a signal loses nothing the kernel already has, so killing the writer can't
tell whether it fsyncs at all. `FaultOS` stands in for the `os` module of the code under test
(`monkeypatch.setattr(engine.savewriter, "os", FaultOS(...))`) and models the disk:

- every file's *durable* content is what it held at its last fsync (or at the start);
  a directory's durable entries are those present at its last fsync (or at the start);
- `power_cut(folder)` puts the folder back to its durable state: names never made durable
  vanish, every file is cut back to its last fsynced bytes (a write never fsynced is lost);
- `crash_at=k` raises `Crash` (a BaseException: no `except OSError` can swallow it) at the
  k-th write, fsync, ftruncate, link or unlink, after a random part of a write went through;
- `full_after=n` makes writes fail with ENOSPC once n more bytes were written, after writing
  what fits (the short write that left `{"crc":"c` at byte 4096), until `free()`.
"""

from __future__ import annotations

import errno
import os
import random
import stat
from pathlib import Path
from typing import Any


class Crash(BaseException):
    """The simulated moment the power went out."""


class FaultOS:
    """See the module docstring. Unknown attributes are the real `os` module's."""

    def __init__(
        self,
        folder: Path,
        *,
        crash_at: int | None = None,
        full_after: int | None = None,
        rng: random.Random | None = None,
        fail_truncate: bool = False,
    ) -> None:
        self.folder = folder
        self.crash_at = crash_at
        self.full_after = full_after
        self.fail_truncate = fail_truncate
        self.rng = rng or random.Random(0)
        self.calls = 0
        self.fsyncs = 0
        self.paths: dict[int, str] = {}
        self.durable: dict[int, bytes] = {}
        """inode -> content at its last fsync."""
        self.entries: dict[str, int] = {}
        """name in `folder` -> inode, as of the folder's last fsync."""
        self._snapshot_all()

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    # --- the model ------------------------------------------------------------------------
    def _snapshot_all(self) -> None:
        self.entries = {}
        for p in self.folder.iterdir():
            st = p.lstat()
            self.entries[p.name] = st.st_ino
            if stat.S_ISREG(st.st_mode):
                self.durable[st.st_ino] = p.read_bytes()

    def _tick(self) -> None:
        self.calls += 1
        if self.crash_at is not None and self.calls >= self.crash_at:
            raise Crash(f"power cut at call {self.calls}")

    def power_cut(self) -> None:
        """The folder as the disk holds it after the power came back."""
        for p in list(self.folder.iterdir()):
            st = p.lstat()
            if self.entries.get(p.name) != st.st_ino:
                if p.is_dir():
                    continue
                p.unlink()
            elif stat.S_ISREG(st.st_mode):
                p.write_bytes(self.durable.get(st.st_ino, b""))

    def free(self) -> None:
        self.full_after = None
        self.fail_truncate = False

    # --- os functions the writer uses ------------------------------------------------------
    def open(self, path: Any, flags: int, mode: int = 0o777, **kw: Any) -> int:
        fd = os.open(path, flags, mode, **kw)
        self.paths[fd] = str(path)
        return fd

    def write(self, fd: int, data: Any) -> int:
        data = bytes(data)
        if self.crash_at is not None and self.calls + 1 >= self.crash_at:
            os.write(fd, data[: self.rng.randrange(len(data) + 1)])
        self._tick()
        if self.full_after is not None:
            room = self.full_after
            if room <= 0:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            data = data[:room]
            self.full_after -= len(data)
        return os.write(fd, data)

    def fsync(self, fd: int) -> None:
        self._tick()
        os.fsync(fd)
        self.fsyncs += 1
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            self.entries = {p.name: p.lstat().st_ino for p in self.folder.iterdir()}
        else:
            with open(f"/proc/self/fd/{fd}", "rb") as handle:
                self.durable[st.st_ino] = handle.read()

    def ftruncate(self, fd: int, size: int) -> None:
        self._tick()
        if self.fail_truncate:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        os.ftruncate(fd, size)

    def link(self, src: Any, dst: Any, **kw: Any) -> None:
        self._tick()
        os.link(src, dst, **kw)

    def unlink(self, path: Any, **kw: Any) -> None:
        self._tick()
        os.unlink(path, **kw)
