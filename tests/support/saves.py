"""Saves without fsync for the tests that don't test durability.

Every write of a save goes through `engine.savewriter.fsync`. A test run makes thousands of saves
(every app test autosaves its fight, the save properties write hundreds) and fsync is most
of their time on a busy disk, so `tests/conftest.py` swaps it for a no-op in every test
except those marked `durable`: the tests of the real writer's crash guarantees.
"""

from __future__ import annotations

import pytest

from engine import savewriter


def skip_fsync(fd: int) -> None:
    """What the tests' saves do instead of fsync: nothing (the data still reaches the file,
    only not the disk before the call returns)."""


def use_fast_saves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(savewriter, "fsync", skip_fsync)
