"""The combat log's contract (../shared/log-schema.md): every line carries its type's fields
with the names and kinds the schema gives, in the order things happened. Checked on whole
fights of the bundled default encounter and on events that fights rarely produce."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ai.sim import play
from engine.actions import EndTurn, Move, UsePower
from engine.encounter import Encounter
from tests.support.helpers import NAIVE, Builder, dummy, events, mon, put_effect

# log-schema.md, field by field: type -> {field: accepted Python types}
SQUARE = list
REQUIRED: dict[str, dict[str, tuple[type, ...]]] = {
    "encounter_start": {
        "schema": (int,),
        "encounter": (str,),
        "content_hash": (str,),
        "ruleset": (str,),
        "seed": (int, type(None)),
        "map": (dict,),
        "combatants": (list,),
    },
    "initiative": {"id": (str,), "natural": (int,), "modifier": (int,), "total": (int,)},
    "initiative_order": {"order": (list,)},
    "round_start": {},
    "turn_start": {"id": (str,)},
    "turn_end": {"id": (str,)},
    "action": {"id": (str,), "kind": (str,), "name": (str,)},
    "move": {"id": (str,), "mode": (str,), "path": (list,), "cost": (int,)},
    "provoke": {"mover": (str,), "by": (str,), "at": (list,), "taken": (bool,)},
    "attack": {
        "attacker": (str,),
        "target": (str,),
        "power": (str,),
        "kind": (str,),
        "vs": (str,),
        "natural": (int,),
        "modifiers": (list,),
        "total": (int,),
        "defense": (int, type(None)),
        "outcome": (str,),
        "wrong_square": (bool,),
        "opportunity": (bool,),
        "combat_advantage": (bool,),
        "cover": (str,),
        "concealment": (str,),
    },
    "damage": {
        "target": (str,),
        "source": (str, type(None)),
        "power": (str, type(None)),
        "cause": (str,),
        "dice": (str,),
        "rolls": (list,),
        "crit_extra": (dict, type(None)),
        "rolled": (int,),
        "types": (list,),
        "adjustments": (list,),
        "amount": (int,),
        "hp_before": (int,),
        "hp_after": (int,),
    },
    "heal": {
        "target": (str,),
        "source": (str, type(None)),
        "amount": (int,),
        "hp_before": (int,),
        "hp_after": (int,),
    },
    "effect_start": {
        "effect": (str,),
        "target": (str,),
        "source": (str, type(None)),
        "name": (str,),
        "duration": (str,),
        "owner": (str, type(None)),
        "parts": (list,),
    },
    "effect_end": {"effect": (str,), "target": (str,), "reason": (str,)},
    "save": {
        "id": (str,),
        "effect": (str,),
        "when": (str,),
        "natural": (int,),
        "modifiers": (list,),
        "total": (int,),
        "success": (bool,),
    },
    "death_save": {
        "id": (str,),
        "natural": (int,),
        "total": (int,),
        "result": (str,),
        "failures": (int,),
    },
    "state": {"id": (str,), "state": (str,), "hp": (int,)},
    "decision": {
        "id": (str,),
        "policy": (str,),
        "summary": (str,),
        "candidates": (list,),
        "ms": (int, float),
    },
    "encounter_end": {"winner": (str, type(None)), "rounds": (int,), "reason": (str,)},
}
CLOSED: dict[tuple[str, str], set[Any]] = {
    ("action", "kind"): {
        "standard",
        "move",
        "minor",
        "free",
        "immediate",
        "opportunity",
        "full_round",
    },
    ("move", "mode"): {
        "walk",
        "shift",
        "run",
        "withdraw",
        "fall",
        "push",
        "pull",
        "slide",
        "teleport",
    },
    ("attack", "kind"): {"melee", "ranged", "close", "area"},
    ("attack", "vs"): {"ac", "fortitude", "reflex", "will"},
    ("attack", "outcome"): {"hit", "miss", "crit"},
    ("attack", "cover"): {"none", "cover", "superior"},
    ("attack", "concealment"): {"none", "concealment", "total"},
    ("damage", "cause"): {"hit", "crit", "miss", "ongoing", "effect", "fall"},
    ("effect_start", "duration"): {
        "save_ends",
        "start_of_next_turn",
        "end_of_next_turn",
        "end_of_encounter",
        "sustain_standard",
        "sustain_move",
        "sustain_minor",
        "instant",
    },
    ("save", "when"): {"end_of_turn", "immediate", "granted"},
    ("death_save", "result"): {"fail", "success", "recover"},
    ("state", "state"): {"healthy", "bloodied", "unconscious", "dying", "stable", "dead"},
    ("encounter_end", "reason"): {"defeat", "round_limit", "fled", "surrender", "stopped"},
}
COMBATANT = (
    "id",
    "name",
    "side",
    "pc",
    "control",
    "level",
    "max_hp",
    "hp",
    "speed",
    "pos",
    "size",
    "reach",
    "defenses",
    "surprised",
)


def check_record(rec: dict[str, Any]) -> list[str]:
    """Every schema finding in one JSON record (empty: it conforms)."""
    bad = []
    base: tuple[tuple[str, tuple[type, ...]], ...] = (
        ("seq", (int,)),
        ("type", (str,)),
        ("round", (int,)),
    )
    for f, kinds in base:
        if not isinstance(rec.get(f), kinds):
            bad.append(f"{rec.get('type')}: {f}={rec.get(f)!r}")
    spec = REQUIRED.get(rec["type"])
    if spec is None:
        return bad  # extra event types are allowed ("add fields freely")
    for f, kinds in spec.items():
        if f not in rec:
            bad.append(f"{rec['type']} lacks {f}")
        elif not isinstance(rec[f], kinds) or (
            isinstance(rec[f], bool) and bool not in kinds and int in kinds
        ):
            bad.append(f"{rec['type']}.{f} is {rec[f]!r}")
    for (typ, f), allowed in CLOSED.items():
        if rec["type"] == typ and rec.get(f) not in allowed:
            bad.append(f"{typ}.{f}={rec.get(f)!r} is not one of the schema's values")
    for sq in [rec["at"]] if rec["type"] == "provoke" else rec.get("path", []):
        if not (isinstance(sq, list) and len(sq) == 2 and all(isinstance(v, int) for v in sq)):
            bad.append(f"{rec['type']}: square {sq!r} is not [x, y]")
    return bad


def check_log(records: list[dict[str, Any]]) -> list[str]:
    bad = [b for rec in records for b in check_record(rec)]
    if [r["seq"] for r in records] != list(range(len(records))):
        bad.append("seq is not 0, 1, 2, ...")
    if records[0]["type"] != "encounter_start" or records[-1]["type"] != "encounter_end":
        bad.append("a log starts with encounter_start and ends with encounter_end")
    start = records[0]
    for c in start["combatants"]:
        missing = [f for f in COMBATANT if f not in c]
        if missing or set(c["defenses"]) < {"ac", "fortitude", "reflex", "will"}:
            bad.append(f"combatant {c.get('id')} lacks {missing}")
    if set(start["map"]) < {"name", "width", "height", "terrain"}:
        bad.append(f"map has {sorted(start['map'])}")
    rounds = [r["round"] for r in records]
    if rounds != sorted(rounds):
        bad.append("rounds go backwards")
    return bad


def records(enc: Encounter) -> list[dict[str, Any]]:
    """The log as the JSON Lines file holds it (through json, as a reader sees it)."""
    return [json.loads(json.dumps(lg.to_json())) for lg in enc.log]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_log_schema_whole_default_fights(default_loaded: Any, seed: int) -> None:
    enc, _ = play(default_loaded, seed, NAIVE)
    recs = records(enc)
    assert check_log(recs) == []
    types = {r["type"] for r in recs}
    assert {
        "encounter_start",
        "initiative",
        "initiative_order",
        "round_start",
        "turn_start",
        "turn_end",
        "action",
        "move",
        "attack",
        "damage",
        "state",
        "encounter_end",
    } <= types


def test_log_schema_attack_totals_and_damage_balance(default_loaded: Any) -> None:
    enc, _ = play(default_loaded, 7, NAIVE)
    for r in records(enc):
        if r["type"] == "attack":
            assert r["total"] == r["natural"] + sum(m["value"] for m in r["modifiers"])
            assert r["modifiers"][0]["source"] == "attack_bonus"
        if r["type"] == "damage":
            assert r["amount"] == max(0, r["rolled"] + sum(a["value"] for a in r["adjustments"]))
            assert r["hp_after"] == r["hp_before"] - r["amount"]


MANY = [
    {
        "id": "strike",
        "name": "Strike",
        "kind": "melee",
        "basic": True,
        "attack": {"bonus": 30, "vs": "ac"},
        "hit": {"damage": {"dice": "1d4"}},
    },
    {
        "id": "burn",
        "name": "Burn",
        "kind": "melee",
        "attack": {"bonus": 30, "vs": "ac"},
        "hit": {
            "damage": {"dice": "2", "types": ["fire"]},
            "effects": [
                {
                    "duration": "save_ends",
                    "ongoing": {"amount": 3, "type": "fire"},
                    "conditions": ["slowed"],
                    "modifiers": [{"stat": "will", "value": -2}],
                }
            ],
            "forced": {"kind": "push", "distance": 1},
        },
    },
    {
        "id": "mend",
        "name": "Mend",
        "action": "minor",
        "kind": "personal",
        "target": "self",
        "effect": {"heal": {"bonus": 3, "temp_hp": 2}},
    },
]


def test_log_schema_rare_events(build: Builder) -> None:
    unit = dict(dummy(), id="unit", powers=["strike", "burn", "mend"], initiative=0)
    enc = build(
        "......\n......\n......\n",
        [mon("a", (1, 1), "unit", side="party"), mon("b", (2, 1), "unit")],
        creatures=[unit],
        powers=MANY,
        faces=[20, 1, 10, 10, 3, 10, 20],
        round_limit=2,
    )
    enc.apply(UsePower("burn", ("b",)))  # pushed to (3, 0)
    enc.apply(Move(((1, 1), (2, 1)), "walk"))
    enc.apply(EndTurn())
    enc.apply(Move(((3, 0), (4, 0)), "walk"))  # out of a's reach: a's opportunity attack
    enc.apply(UsePower("mend", ()))
    put_effect(enc, "a", source="b", duration="sustain_minor", conditions=("dazed",))
    while not enc.over:
        enc.apply(EndTurn())
    recs = records(enc)
    assert check_log(recs) == []
    types = {r["type"] for r in recs}
    assert {"effect_start", "effect_end", "save", "heal", "move", "provoke"} <= types
    start = next(r for r in recs if r["type"] == "effect_start" and r["name"] == "Burn")
    assert {"ongoing": 3, "type": "fire"} in start["parts"]
    assert {"condition": "slowed"} in start["parts"]
    assert {"modifier": "will", "value": -2} in start["parts"]
    assert recs[-1] == {
        **recs[-1],
        "type": "encounter_end",
        "winner": None,
        "reason": "round_limit",
        "rounds": 2,
    }


def test_log_schema_encounter_start_describes_the_fight(default_loaded: Any) -> None:
    enc, _ = play(default_loaded, 1, NAIVE)
    start = records(enc)[0]
    assert start["schema"] == 2 and start["ruleset"] == "ffd20" and start["seed"] == 1
    assert start["encounter"] and len(start["content_hash"]) >= 16
    m = start["map"]
    assert m["width"] > 0 and m["height"] > 0
    for kind, squares in m["terrain"].items():
        assert isinstance(kind, str) and all(len(sq) == 2 for sq in squares)
    ids = [c["id"] for c in start["combatants"]]
    assert len(ids) == len(set(ids))
    for c in start["combatants"]:
        assert isinstance(c["pc"], bool) and c["control"] in ("ai", "player")
        assert c["hp"] == c["max_hp"] and c["size"] in (1, 2)


def test_log_events_are_typed_and_frozen(default_loaded: Any) -> None:
    import dataclasses

    enc, _ = play(default_loaded, 2, NAIVE)
    for ev in events(enc):
        assert dataclasses.is_dataclass(ev)
        fields = dataclasses.fields(ev)
        if fields:
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(ev, fields[0].name, None)
