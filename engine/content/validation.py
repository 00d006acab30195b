"""Pydantic validation errors rewritten for people, at the YAML line they came from.

Pydantic's own messages ("Input should be a valid integer, unable to parse string as an
integer") are written for programmers and carry a `loc` tuple, not a line. Content authors
need "expected an integer, got 'six'" next to the line to edit, and a did-you-mean for the
typos that are by far the most common mistake.
"""

from __future__ import annotations

import re
import types
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from engine.conditions import CONDITION_NAMES
from engine.content.errors import ContentError, Path_, did_you_mean
from engine.content.schema import ID_PATTERN
from engine.content.yamlsrc import YamlDoc

M = TypeVar("M", bound=BaseModel)

_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")
_UNKNOWN_CONDITION = re.compile(r"unknown condition '([^']*)'")

_EXPECTED = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "a string",
    "list_type": "a list",
    "tuple_type": "a list",
    "set_type": "a list",
    "dict_type": "a mapping (key: value)",
    "model_type": "a mapping (key: value)",
    "model_attributes_type": "a mapping (key: value)",
}
_COMPARE = {
    "greater_than_equal": (">=", "ge"),
    "less_than_equal": ("<=", "le"),
    "greater_than": (">", "gt"),
    "less_than": ("<", "lt"),
}


def validate(
    model: type[M], data: Any, doc: YamlDoc, base: Path_ = ()
) -> tuple[M | None, list[ContentError]]:
    """`model` built from `data` (found at `base` in `doc`), or None and the errors."""
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, [humanize(err, model, doc, base) for err in exc.errors()]


def humanize(err: ErrorDetails, model: type[BaseModel], doc: YamlDoc, base: Path_) -> ContentError:
    """One pydantic error as a ContentError at the right line, with a readable message."""
    loc: Path_ = tuple(err["loc"])
    at_key = False
    if loc and loc[-1] == "[key]":
        # A dict key failed (e.g. `resist: {Fire: 5}`): point at the key itself.
        loc, at_key = loc[:-1], True
    kind = err["type"]
    value = err.get("input")
    ctx: dict[str, Any] = dict(err.get("ctx") or {})
    if kind == "extra_forbidden" and loc:
        owner = _model_at(model, loc[:-1])
        names = list(owner.model_fields) if owner is not None else []
        message = f"unknown key {loc[-1]!r}{did_you_mean(str(loc[-1]), names)}"
        return doc.error((*base, *loc), message, at_key=True)
    message = _message(kind, value, ctx, err["msg"])
    found = _UNKNOWN_CONDITION.search(message)
    if found and isinstance(value, list) and found.group(1) in value:
        # The validator sees the whole list; point at the offending item instead.
        loc = (*loc, value.index(found.group(1)))
        message += did_you_mean(found.group(1), sorted(CONDITION_NAMES))
    if at_key:
        message = f"bad key: {message}"
    return doc.error((*base, *loc), message, at_key=at_key)


def _message(kind: str, value: Any, ctx: dict[str, Any], raw: str) -> str:
    if kind == "missing":
        return "required field missing"
    if kind == "string_type" and isinstance(value, int | float) and not isinstance(value, bool):
        # YAML reads `dice: 6` as a number; dice text and names must be strings.
        return f'expected a string, got {show(value)} (write it in quotes: "{value}")'
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, got {show(value)}"
    if kind in _COMPARE:
        symbol, name = _COMPARE[kind]
        return f"must be {symbol} {ctx.get(name)} (got {show(value)})"
    if kind == "literal_error":
        options = _QUOTED.findall(str(ctx.get("expected", "")))
        hint = did_you_mean(value, options) if isinstance(value, str) else ""
        hint = hint.replace(" (did", "; did").rstrip(")")
        return f"must be one of: {', '.join(options)} (got {show(value)}{hint})"
    if kind == "string_pattern_mismatch":
        if ctx.get("pattern") == ID_PATTERN:
            return (
                "must be an id: lowercase letters, digits, '-' or '_', starting with a "
                f"letter (got {show(value)})"
            )
        return f"must match {ctx.get('pattern')} (got {show(value)})"
    if kind == "string_too_short":
        if ctx.get("min_length") == 1:
            return "must not be empty"
        return f"must be at least {ctx.get('min_length')} characters (got {show(value)})"
    if kind == "string_too_long":
        return f"must be at most {ctx.get('max_length')} characters (got {show(value)})"
    if kind == "too_short":
        return f"needs at least {ctx.get('min_length')} items (got {ctx.get('actual_length')})"
    if kind == "too_long":
        return f"takes at most {ctx.get('max_length')} items (got {ctx.get('actual_length')})"
    if kind in ("value_error", "assertion_error"):
        return raw.removeprefix("Value error, ").removeprefix("Assertion failed, ")
    return f"{raw[:1].lower()}{raw[1:]} (got {show(value)})"


def show(value: Any) -> str:
    """A short YAML-flavoured rendering of a bad value, for messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return repr(text)
    return str(value)


def _model_at(model: type[BaseModel], loc: Path_) -> type[BaseModel] | None:
    """The model class found by following `loc` through field annotations."""
    tp: Any = model
    for key in loc:
        tp = _unwrap(tp)
        origin = get_origin(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            field = tp.model_fields.get(key) if isinstance(key, str) else None
            if field is None:
                return None
            tp = field.annotation
        elif origin in (list, tuple) and get_args(tp):
            tp = get_args(tp)[0]
        elif origin is dict and get_args(tp):
            tp = get_args(tp)[1]
        else:
            return None
    tp = _unwrap(tp)
    return tp if isinstance(tp, type) and issubclass(tp, BaseModel) else None


def _unwrap(tp: Any) -> Any:
    """Strip `Annotated[...]` and `X | None` down to X."""
    while True:
        origin = get_origin(tp)
        if origin is Annotated:
            tp = get_args(tp)[0]
        elif origin is Union or origin is types.UnionType:
            members = [a for a in get_args(tp) if a is not type(None)]
            if len(members) != 1:
                return tp
            tp = members[0]
        else:
            return tp
