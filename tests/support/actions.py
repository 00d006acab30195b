"""The action rules tests' powers of every usage (at-will, encounter, daily, recharge, an
immediate reaction, a ranged one) and a unit that knows them all (tests/engine/
test_rules_actions.py, and the handler and refusal tests that reuse them)."""

from __future__ import annotations

from typing import Any


def power(pid: str, usage: str = "at-will", **over: Any) -> dict[str, Any]:
    p = {
        "id": pid,
        "name": pid.title(),
        "usage": usage,
        "kind": "melee",
        "attack": {"bonus": 5, "vs": "ac"},
        "hit": {"damage": {"dice": "1d6"}},
    }
    p.update(over)
    return p


POWERS = [
    power("jab", basic=True),
    power("burst", "encounter"),
    power("finale", "daily"),
    power("breath", "recharge", recharge=5),
    power("parry", action="immediate"),
    power("zap", kind="ranged", range=5),
]
UNIT = {
    "id": "unit",
    "name": "Unit",
    "role": "soldier",
    "level": 1,
    "hp": 60,
    "defenses": {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12},
    "initiative": 0,
    "speed": 6,
    "powers": [p["id"] for p in POWERS],
}
