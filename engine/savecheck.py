"""Checks on every field of a save before the engine sees it: types, ranges, sizes, depth.

A save is user-supplied bytes: copied between machines, hand-edited, cut short by a full
disk, or made by someone who wants to crash the program that opens it. The checksum only
proves a line wasn't damaged by accident; anyone can write a new one. So each value read from
a save is checked here against what the writer could have written (a square is two small
integers, a target is a short id, a record has at most so many faces), and a value that
doesn't fit is a `ValueError` that says which field is wrong, in words a person can act on.
The engine then never meets a `"path": 5` or a decision candidate `[[1]]`.
"""

from __future__ import annotations

import base64
import json
import math
import types
import typing
import zlib
from dataclasses import fields
from typing import Any

from engine.actions import Action, action_from_json
from engine.dice import MAX_SIDES
from engine.events import Decision

MAX_ID = 64
"""Characters of an id (a creature, a power, an effect) in a record."""
MAX_COORD = 10_000
"""Largest square coordinate (maps are at most 100 squares a side; the slack is harmless)."""
MAX_ITEMS = 256
"""Items in one list of a record (a path's squares, targets, faces, answers, candidates)."""
MAX_FACES = 50_000
"""Dice one record may hold (ten targets of 200d1000, four times over for a critical)."""
MAX_DEPTH = 6
"""Nesting of the free-form parts (answers, decision candidates, the app's `meta`)."""
MAX_SOURCES = 4 * 1024 * 1024
"""Bytes the embedded content may unpack to (a zlib bomb stops here, not at 2 GB)."""
CONTROLS = ("player", "ai")


def loads(raw: bytes | str) -> Any:
    """JSON, or ValueError: also for what the json module raises on hostile input besides
    JSONDecodeError (RecursionError for 100,000 `[`, ValueError for a 5,000-digit number)."""
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("not JSON (nested too deeply)") from None
    except UnicodeDecodeError:
        raise ValueError("not JSON (not UTF-8 text)") from None
    except ValueError as exc:  # JSONDecodeError, or a number too long to convert
        raise ValueError(f"not JSON ({str(exc)[:80]})") from None


def _no_constant(name: str) -> Any:
    # Python's json reads NaN and Infinity, which no writer here produces and which would
    # make, say, the app's pace an endless wait.
    raise ValueError(f"{name} is not a number a save holds")


def unpack(text: str) -> Any:
    """What `engine.save.pack` made: base64 of zlib of JSON, unpacked to at most MAX_SOURCES
    bytes; ValueError if it is damaged or larger."""
    try:
        blob = base64.b64decode(text, validate=True)
        inflate = zlib.decompressobj()
        data = inflate.decompress(blob, MAX_SOURCES)
        if inflate.unconsumed_tail:
            raise ValueError(f"unpacks to more than {MAX_SOURCES // 2**20} MB")
        if not inflate.eof:
            raise ValueError("it is cut short")
    except (ValueError, zlib.error) as exc:
        raise ValueError(f"packed data is damaged ({exc})") from None
    return loads(data)


def depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply `value` nests (a scalar is 0), counting at most to `limit` + 1."""
    if isinstance(value, dict):
        items = list(value.values())
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        return 0
    if limit < 0:
        return 1
    return 1 + max((depth(v, limit - 1) for v in items), default=0)


def is_int(value: Any, lo: int, hi: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def is_id(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_ID and value.isprintable()


def short_list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{what} is not a list")
    if len(value) > MAX_ITEMS:
        raise ValueError(f"{what} has {len(value)} items; a save holds at most {MAX_ITEMS}")
    return value


def free_form(value: Any, what: str) -> Any:
    """A value only passed along (answers, candidates, meta): bounded in depth."""
    if depth(value) > MAX_DEPTH:
        raise ValueError(f"{what} is nested too deeply")
    return value


# --- actions --------------------------------------------------------------------------------
def _fits(value: Any, hint: Any) -> bool:
    """Does the JSON `value` fit the action field annotated `hint` (as `Action.to_json`
    writes it: tuples as lists)?"""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is str:
        return is_id(value)
    if hint is int:
        return is_int(value, -MAX_COORD, MAX_COORD)
    if hint is bool:
        return isinstance(value, bool)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, a) for a in args)
    if hint is type(None):
        return value is None
    if origin is tuple:
        if not isinstance(value, list) or len(value) > MAX_ITEMS:
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(v, args[0]) for v in value)
        pairs = zip(value, args, strict=False)
        return len(value) == len(args) and all(_fits(v, a) for v, a in pairs)
    return False


def square_ok(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(is_int(v, -MAX_COORD, MAX_COORD) for v in value)
    )


def action(data: Any) -> Action:
    """The action of a record, each field checked against the action's own annotations."""
    if not isinstance(data, dict):
        raise ValueError("'action' is not an object")
    if len(data) > 16:
        raise ValueError("'action' has too many fields")
    try:
        act = action_from_json(data)
    except (ValueError, TypeError, KeyError, IndexError):
        kind = data.get("action")
        shown = f"a {kind} action" if is_id(kind) else "no action"
        raise ValueError(f"'action' is malformed ({shown} this Skirmish can't read)") from None
    hints = typing.get_type_hints(type(act))
    names = {f.name for f in fields(act)}
    stray = next((k for k in data if k != "action" and k not in names), None)
    if stray is not None:  # the writer never adds what the action doesn't have
        raise ValueError(f"the {act.name} action has no field {str(stray)[:MAX_ID]!r}")
    for f in fields(act):
        if f.name in data and not _fits(data[f.name], hints[f.name]):
            raise ValueError(f"the {act.name} action's {f.name!r} is malformed")
    for name in ("path", "squares"):
        if name in data and not all(square_ok(sq) for sq in data[name]):
            raise ValueError(f"the {act.name} action's {name!r} has a square off any map")
    origin = data.get("origin")
    if origin is not None and not square_ok(origin):
        raise ValueError(f"the {act.name} action's 'origin' is off any map")
    return act


# --- records --------------------------------------------------------------------------------
def faces(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(is_int(f, 1, MAX_SIDES) for f in value):
        raise ValueError(f"'faces' is not a list of die faces (1..{MAX_SIDES})")
    if len(value) > MAX_FACES:
        raise ValueError(f"'faces' holds {len(value)} dice; one action rolls at most {MAX_FACES}")
    return tuple(value)


def decision(value: Any) -> Decision:
    """A stored AI decision: id, policy, summary, candidates as [action, score] pairs, ms."""
    if not isinstance(value, dict):
        raise ValueError("'decision' is not an object")
    texts = [value.get(k) for k in ("id", "policy", "summary")]
    if not all(isinstance(t, str) and len(t) <= 1000 for t in texts):
        raise ValueError("'decision' is missing its id, policy or summary")
    ident, policy, summary = (str(t) for t in texts)
    ms = value.get("ms")
    if not isinstance(ms, int | float) or isinstance(ms, bool) or not math.isfinite(ms):
        raise ValueError("'decision' has no time ('ms')")
    cands: list[dict[str, Any]] = []
    for c in short_list(value.get("candidates"), "'decision' candidates"):
        if isinstance(c, list) and len(c) == 2:
            c = {"action": c[0], "score": c[1]}
        if not isinstance(c, dict) or "action" not in c or "score" not in c:
            raise ValueError("a 'decision' candidate is not an [action, score] pair")
        cands.append(free_form(c, "a 'decision' candidate"))
    return Decision(ident, policy, summary, tuple(cands), float(ms))


# --- header ---------------------------------------------------------------------------------
_HEADER_TEXT = ("encounter", "name", "content_hash", "content_ruleset", "ruleset", "created")


def header_fields(d: dict[str, Any]) -> dict[str, Any]:
    """The fields of a header object, checked; ValueError naming the first bad one."""
    out: dict[str, Any] = {}
    for key in _HEADER_TEXT:
        value = d.get(key)
        if not isinstance(value, str) or len(value) > 4096:
            raise ValueError(f"header field {key!r} is missing or malformed")
        out[key] = value
    seed = d.get("seed")
    if "seed" not in d or not (seed is None or is_int(seed, -(2**63), 2**63 - 1)):
        raise ValueError("header field 'seed' is missing or malformed")
    out["seed"] = seed
    out["control"] = control(d.get("control"))
    meta = d.get("meta", {})
    out["meta"] = free_form(meta, "header field 'meta'") if isinstance(meta, dict) else {}
    out["sources"] = sources(d)
    return out


def control(value: Any) -> dict[str, str]:
    """Creature id -> "player" or "ai" (a `control: bogus` would leave a creature nobody plays)."""
    if not isinstance(value, dict) or len(value) > MAX_ITEMS:
        raise ValueError("header field 'control' is missing or malformed")
    for cid, who in value.items():
        if not is_id(cid) or who not in CONTROLS:
            raise ValueError(
                f"header field 'control' says {str(cid)[:MAX_ID]!r} is played by {str(who)[:20]!r}"
                f" (must be {' or '.join(CONTROLS)})"
            )
    return dict(value)


def sources(d: dict[str, Any]) -> dict[str, str]:
    raw = d.get("sources")
    if raw is None and isinstance(d.get("sources_zlib"), str):
        raw = unpack(d["sources_zlib"])
    if not isinstance(raw, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in raw.items()
    ):
        raise ValueError("header field 'sources_zlib' is missing or malformed")
    return raw
