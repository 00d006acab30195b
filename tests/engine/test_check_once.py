"""An action is checked once: the plan of an action `validate` accepted is reused by `apply`
as long as nothing has happened since (the AI validates what it picks, then the driver
applies it); anything that happens in between makes `apply` check again."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import EndTurn, Impossible, Move
from engine.encounter import Encounter


def counting(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    calls: list[Any] = []
    real = Encounter._check_now

    def check_now(self: Encounter, action: Any) -> Any:
        calls.append(action)
        return real(self, action)

    monkeypatch.setattr(Encounter, "_check_now", check_now)
    return calls


def first_step(enc: Encounter) -> Move:
    c = enc.current
    assert c is not None
    sq = min(enc.reachable("walk"), key=lambda s: abs(s[0] - c.pos[0]) + abs(s[1] - c.pos[1]))
    return Move((c.pos, sq))


def test_validate_then_apply_checks_once(default_loaded: Any, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    enc = Encounter.create(default_loaded, seed=2)
    enc.start()
    calls = counting(monkeypatch)
    move = first_step(enc)
    assert enc.validate(move) is None and enc.validate(move) is None
    enc.apply(move)
    assert calls == [move]


def test_anything_in_between_makes_apply_check_again(default_loaded: Any, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    enc = Encounter.create(default_loaded, seed=2)
    enc.start()
    calls = counting(monkeypatch)
    move = first_step(enc)
    assert enc.validate(move) is None
    enc.apply(EndTurn())  # the turn passes: the old plan must not be reused
    with pytest.raises(Impossible):
        enc.apply(move)
    assert calls == [move, EndTurn(), move]
