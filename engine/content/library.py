"""Reading one content file into definitions that know where they came from.

Both a library file (a bestiary, a party) and the inline `creatures`/`powers` of an
encounter turn into the same `Definitions`: models paired with their `Origin`. When a file
has validation errors the valid items are still kept ("salvaged"), so that the cross-file
checks can go on and the user sees every error of a load at once; ids of broken items are
remembered so that references to them are not reported a second time as unknown.
"""

from __future__ import annotations

from collections.abc import Container, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from engine.content.checks import Origin, check_creature, check_power, duplicate_error
from engine.content.errors import ContentError, ContentErrors, ErrorSink
from engine.content.limits import MAX_LOAD_BYTES
from engine.content.resources import Reader, SourceKey
from engine.content.schema import Creature, Library, Power
from engine.content.validation import validate
from engine.content.yamlsrc import YamlDoc, parse_yaml

M = TypeVar("M", bound=BaseModel)


@dataclass
class Definitions:
    """Creatures and powers of one file (or of an encounter's inline part)."""

    creatures: list[tuple[Creature, Origin]] = field(default_factory=list)
    powers: list[tuple[Power, Origin]] = field(default_factory=list)
    broken_creatures: set[str] = field(default_factory=set)
    broken_powers: set[str] = field(default_factory=set)


class AnyId:
    """Every id: stands in for the broken ids when an include could not be read at all."""

    def __contains__(self, item: object) -> bool:
        return True


@dataclass
class Tables:
    """Every definition of a load by id, with duplicate ids reported as they are added."""

    creatures: dict[str, tuple[Creature, Origin]] = field(default_factory=dict)
    powers: dict[str, tuple[Power, Origin]] = field(default_factory=dict)
    broken_creatures: set[str] = field(default_factory=set)
    broken_powers: set[str] = field(default_factory=set)
    incomplete: bool = False
    """An include was missing or unparsable: no reference can be called unknown."""

    def unjudged_creatures(self) -> Container[str]:
        """Ids whose references must not be reported as unknown (already reported)."""
        return AnyId() if self.incomplete else self.broken_creatures

    def unjudged_powers(self) -> Container[str]:
        return AnyId() if self.incomplete else self.broken_powers

    def add(self, defs: Definitions, sink: ErrorSink) -> None:
        self.broken_creatures |= defs.broken_creatures
        self.broken_powers |= defs.broken_powers
        for creature, origin in defs.creatures:
            first = self.creatures.get(creature.id)
            if first is not None:
                sink.add(duplicate_error("creature", creature.id, origin, first[1]))
            else:
                self.creatures[creature.id] = (creature, origin)
        for power, origin in defs.powers:
            seen = self.powers.get(power.id)
            if seen is not None:
                sink.add(duplicate_error("power", power.id, origin, seen[1]))
            else:
                self.powers[power.id] = (power, origin)


def read_doc(
    reader: Reader, src: SourceKey, sink: ErrorSink, sources: dict[str, str]
) -> YamlDoc | None:
    """Read and parse one file, recording its text in `sources`; None (and errors) if not."""
    try:
        text = reader.read(src)
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1
        sink.add(ContentError(src.key, line, "(file)", "not UTF-8 text"))
        return None
    except OSError as exc:
        sink.add(ContentError(src.key, None, "(file)", f"cannot read: {exc.strerror or exc}"))
        return None
    reader.bytes_left -= len(text)
    if reader.bytes_left < 0:
        message = f"this load reads more than {MAX_LOAD_BYTES // 1024} KB of content"
        sink.add(ContentError(src.key, 1, "(file)", message))
        return None
    sources[src.key] = text
    try:
        doc = parse_yaml(text, src.key, reader.values_left)
    except ContentErrors as exc:
        sink.extend(exc.errors)
        return None
    reader.values_left -= doc.size
    return doc


def salvage(model: type[M], items: Any) -> tuple[list[tuple[int, M]], set[str]]:
    """The items of a list that validate alone, and the ids of those that don't."""
    good: list[tuple[int, M]] = []
    broken: set[str] = set()
    if not isinstance(items, list):
        return good, broken
    for i, item in enumerate(items):
        try:
            good.append((i, model.model_validate(item)))
        except ValidationError:
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                broken.add(item["id"])
    return good, broken


def definitions(doc: YamlDoc, data: Any, valid: Library | None) -> Definitions:
    """The creatures and powers written in `data` (a mapping with those lists) in `doc`."""
    defs = Definitions()
    if valid is not None:
        creatures = list(enumerate(valid.creatures))
        powers = list(enumerate(valid.powers))
    else:
        raw = data if isinstance(data, dict) else {}
        creatures, defs.broken_creatures = salvage(Creature, raw.get("creatures"))
        powers, defs.broken_powers = salvage(Power, raw.get("powers"))
    defs.creatures = [(c, Origin(doc, ("creatures", i))) for i, c in creatures]
    defs.powers = [(p, Origin(doc, ("powers", i))) for i, p in powers]
    return defs


def check_definitions(
    defs: Definitions,
    powers: Mapping[str, tuple[Power, Origin]],
    broken_powers: Container[str],
) -> list[ContentError]:
    """Per-definition checks: dice of `defs.powers`, and creatures' powers against `powers`."""
    errors: list[ContentError] = []
    for power, origin in defs.powers:
        errors.extend(check_power(power, origin))
    for creature, origin in defs.creatures:
        errors.extend(check_creature(creature, origin, powers, broken_powers))
    return errors


def library_definitions(doc: YamlDoc, sink: ErrorSink) -> tuple[Definitions, Library | None]:
    """Validate a library file and check it on its own: its creatures use its own powers."""
    if not isinstance(doc.data, dict):
        sink.add(doc.error((), "a library file is a mapping with `creatures` and `powers`"))
        return Definitions(), None
    library, errors = validate(Library, doc.data, doc)
    sink.extend(errors)
    defs = definitions(doc, doc.data, library)
    local = Tables()
    local.add(defs, sink)
    sink.extend(check_definitions(defs, local.powers, local.broken_powers))
    return defs, library
