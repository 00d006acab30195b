"""The wire between a table's host and its seats: one JSON object per line, versioned,
size-limited and validated field by field before anything acts on it.

Every message carries `v` (the protocol version) and `t` (its type). A seat sends requests up
(`hello`, `act`, `aim`, `answer`, `undo`, ...); the host sends news down (`welcome`, `update`,
`ask`, `aimed`, `refused`, `error`, ...). A request never names who sends it (beyond the seat
asked for once in `hello`): the host knows that from the connection. A message that is too
long, not JSON, of an unknown type or with a field of the wrong type or size raises
`ProtocolError`, which the host turns into an `error` message; it never reaches the engine.
A well-formed request the host won't do (not your turn, not your creature, GM only) gets a
`refused` message with a stable `code`: refusals are data, not exceptions on the wire.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

VERSION = 1
MAX_UP = 16 * 1024
"""Longest request line a seat may send (bytes, newline included)."""
MAX_DOWN = 4 * 1024 * 1024
"""Longest line the host sends (a whole view of a big fight fits many times over)."""
MAX_LIST = 256
"""Longest list in a request (a move's path, a power's targets)."""
MAX_STR = 64
NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")

RefusalCode = Literal[
    "not-joined",
    "no-seat",
    "not-your-seat",
    "seat-taken",
    "not-your-turn",
    "not-your-creature",
    "gm-only",
    "busy",
    "no-question",
    "illegal",
    "bad-answer",
    "hidden",
    "over",
]


class ProtocolError(ValueError):
    """A message that breaks the wire format; `code` is stable, `reason` is one line."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


@dataclass(frozen=True)
class Request:
    """A validated request from a seat: its type and its fields (checked, plain JSON)."""

    t: str
    fields: dict[str, Any]
    id: int | None = None
    """Echoed in the answer, so a seat can match answers to requests."""

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


# --- field checks -------------------------------------------------------------------------
Check = Callable[[Any], bool]


def _is_int(v: Any, lo: int = -(2**31), hi: int = 2**31) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _name(v: Any) -> bool:
    return isinstance(v, str) and bool(NAME.match(v))


def _square(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(_is_int(x, -1000, 1000) for x in v)


def _squares(v: Any) -> bool:
    return isinstance(v, list) and len(v) <= MAX_LIST and all(_square(s) for s in v)


def _names(v: Any) -> bool:
    return isinstance(v, list) and len(v) <= MAX_LIST and all(_name(s) for s in v)


def _steps(v: Any) -> bool:
    return _is_int(v, 1, 100)


def _answer(v: Any) -> bool:
    """A yes/no, an option index, a die's face, a save order, or null (let the app roll)."""
    return v is None or isinstance(v, bool) or _is_int(v, 0, 10_000) or _names(v)


AIM_MODES = ("walk", "run", "shift", "power", "basic", "full_attack", "withdraw", "powers")

ACTION_FIELDS: dict[str, dict[str, Check]] = {
    "move": {"path": _squares, "mode": lambda v: v in ("walk", "run", "shift")},
    "power": {
        "power": _name,
        "targets": _names,
        "origin": lambda v: v is None or _square(v),
        "squares": _squares,
    },
    "second_wind": {},
    "stand_up": {},
    "sustain": {"effect": _name},
    "action_point": {},
    "delay": {},
    "ready": {"power": _name},
    "bluff": {"target": _name},
    "end_turn": {},
    "full_attack": {"power": _name, "targets": _names},
    "withdraw": {"path": _squares},
}
"""Each action a seat may send (`engine.actions`' JSON form) and its fields' checks."""


def _action(v: Any) -> bool:
    if not isinstance(v, dict) or not isinstance(v.get("action"), str):
        return False
    spec = ACTION_FIELDS.get(v["action"])
    if spec is None:
        return False
    return all(k == "action" or (k in spec and spec[k](x)) for k, x in v.items())


UP: dict[str, tuple[dict[str, Check], frozenset[str]]] = {
    "hello": ({"seat": _name}, frozenset({"seat"})),
    "act": ({"action": _action}, frozenset({"action"})),
    "aim": (
        {
            "mode": lambda v: v in AIM_MODES,
            "power": _name,
            "index": lambda v: _is_int(v, 0, MAX_LIST),
            "cursor": _square,
        },
        frozenset({"mode"}),
    ),
    "answer": ({"value": _answer}, frozenset({"value"})),
    "undo": ({"steps": _steps}, frozenset()),
    "redo": ({"steps": _steps}, frozenset()),
    "step": ({}, frozenset()),
    "step_mode": ({"on": lambda v: isinstance(v, bool)}, frozenset({"on"})),
    "control": (
        {"creature": _name, "to": lambda v: v in ("ai", "player")},
        frozenset({"creature", "to"}),
    ),
    "view": ({"seat": _name}, frozenset()),
    "export": ({}, frozenset()),
    "ping": ({}, frozenset()),
    "bye": ({}, frozenset()),
}
"""Each request type: its fields' checks and which of them are required."""


def decode_request(line: bytes) -> Request:
    """Check one line from a seat; raise ProtocolError if it breaks any rule."""
    if len(line) > MAX_UP:
        raise ProtocolError("too-long", f"a request is at most {MAX_UP} bytes")
    try:
        data = json.loads(line.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ProtocolError("not-json", "a request is one JSON object per line") from None
    if not isinstance(data, dict):
        raise ProtocolError("not-object", "a request is a JSON object")
    if data.get("v") != VERSION or isinstance(data.get("v"), bool):
        raise ProtocolError("version", f"this host speaks protocol version {VERSION}")
    t = data.get("t")
    if not isinstance(t, str) or t not in UP:
        raise ProtocolError("unknown-type", f"unknown request type {_short(t)}")
    checks, required = UP[t]
    rid = data.get("id")
    if rid is not None and not _is_int(rid, 0, 2**53):
        raise ProtocolError("bad-field", "id: expected a whole number")
    fields: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("v", "t", "id"):
            continue
        check = checks.get(key)
        if check is None:
            raise ProtocolError("bad-field", f"{t}: unknown field {_short(key)}")
        if not check(value):
            raise ProtocolError("bad-field", f"{t}.{key}: bad value {_short(value)}")
        fields[key] = value
    missing = sorted(required - fields.keys())
    if missing:
        raise ProtocolError("bad-field", f"{t}: missing field {missing[0]}")
    return Request(t, fields, rid)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= MAX_STR else text[: MAX_STR - 3] + "..."


def encode(t: str, **fields: Any) -> bytes:
    """One message line (either direction)."""
    out = {"v": VERSION, "t": t, **fields}
    return json.dumps(out, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n"


def request(t: str, **fields: Any) -> bytes:
    """A request line as a seat sends it (checked here too: a seat never sends a bad one)."""
    line = encode(t, **fields)
    decode_request(line)
    return line


def refused(code: RefusalCode, reason: str, rid: int | None = None) -> bytes:
    return encode("refused", code=code, reason=reason, id=rid)


def error(err: ProtocolError, rid: int | None = None) -> bytes:
    return encode("error", code=err.code, reason=err.reason, id=rid)


def decode_news(line: bytes) -> dict[str, Any]:
    """A line from the host, for a seat: a JSON object of a known version with a type, or
    ProtocolError (the seat shows it and carries on)."""
    if len(line) > MAX_DOWN:
        raise ProtocolError("too-long", "the host sent an over-long line")
    try:
        data = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ProtocolError("not-json", "the host sent a line that is not JSON") from None
    if not isinstance(data, dict) or data.get("v") != VERSION or not isinstance(data.get("t"), str):
        raise ProtocolError("version", f"the host does not speak protocol version {VERSION}")
    return data
