"""Powers and defenses the AI tests share (a uniquely named module, imported by name)."""

from __future__ import annotations

BOLT = {
    "id": "bolt",
    "name": "Bolt",
    "kind": "ranged",
    "range": 10,
    "basic": True,
    "attack": {"bonus": 6, "vs": "ac"},
    "hit": {"damage": {"dice": "1d8", "bonus": 3}},
}
SLAM = {
    "id": "slam",
    "name": "Slam",
    "kind": "melee",
    "basic": True,
    "attack": {"bonus": 6, "vs": "ac"},
    "hit": {"damage": {"dice": "1d6", "bonus": 4}},
}
DEF = {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12}
