"""Load an encounter (or a library) from YAML into checked, resolved, hashable content.

This is the one door between user-written files and the engine: after `load_encounter`
returns, every reference resolves, every dice text parses, every combatant stands on a legal
square, and the engine never has to handle bad content. Every problem found is reported at
once, each at its file, line and field (`ContentErrors`).

Includes: an encounter's `include:` entries name library files. Each entry is looked for
1. relative to the including file's folder (as written, then with `.yaml` added), then
2. as a bundled library under the `maps` package (`bestiary/goblins`, `.yaml` optional).
A file next to the encounter therefore wins over a bundled library of the same name.
Definitions never override each other: the same creature or power id defined twice (in
two includes, or in an include and inline) is an error.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.content.checks import Origin
from engine.content.errors import ContentError, ContentErrors, ErrorSink, did_you_mean
from engine.content.library import (
    Tables,
    check_definitions,
    definitions,
    library_definitions,
    read_doc,
    salvage,
)
from engine.content.placement import Placement, build_map, check_placement
from engine.content.resources import (
    SUFFIXES,
    Reader,
    SourceKey,
    TextReader,
    bundled_key,
    bundled_libraries,
    bundled_walk,
    include_candidates,
)
from engine.content.schema import (
    Combatant,
    Control,
    Creature,
    Encounter,
    Library,
    MapSpec,
    Power,
    Side,
    Surprise,
    check_ruleset,
)
from engine.content.styles import drop_unset_styles
from engine.content.validation import validate
from engine.content.yamlsrc import YamlDoc
from engine.grid import BattleMap


@dataclass(frozen=True)
class LoadedEncounter:
    """An encounter ready to run: its spec, everything it refers to, its map and its hash."""

    source: str
    """The bundled name or the path, as given to `load_encounter`."""
    path: Path | None
    """The file on disk, or None for a bundled encounter or one loaded from texts."""
    spec: Encounter
    creatures: dict[str, Creature]
    """Every creature the encounter can use: included files and inline."""
    powers: dict[str, Power]
    bmap: BattleMap
    content_hash: str
    """sha256 of the canonical JSON of spec + the creatures it places + their powers."""
    sources: dict[str, str]
    """Key (file path, or `maps/...` for bundled files) -> text of every file read."""
    root: str = ""
    """The key of the encounter file itself in `sources`."""

    def creature_of(self, combatant: Combatant) -> Creature:
        return self.creatures[combatant.creature]

    def control(self, combatant: Combatant) -> Control:
        """Who plays it: its own `control`, else its side's, else "ai" (implicit sides). On a
        side the player plays, only player characters default to the player: allied NPCs (a
        militia of 14) are the AI's unless the content or the command line says otherwise."""
        if combatant.control is not None:
            return combatant.control
        side = self.spec.sides.get(combatant.side)
        ctl = side.control if side is not None else "ai"
        if ctl == "player" and self.creatures[combatant.creature].kind != "pc":
            return "ai"
        return ctl


def encounter_key(source: str | Path) -> SourceKey:
    """A path (has a folder or a `.yaml` suffix, or is a Path) or a bundled encounter name."""
    text = str(source)
    if isinstance(source, Path) or "/" in text or os.sep in text or text.endswith(SUFFIXES):
        return SourceKey(os.path.normpath(text), bundled=False)
    return SourceKey(bundled_key(f"encounters/{text}.yaml"), bundled=True)


def load_encounter(
    source: str | Path, ruleset: str | None = None, *, texts: Mapping[str, str] | None = None
) -> LoadedEncounter:
    """Load, check and resolve an encounter; raise `ContentErrors` listing every problem.

    `texts` (a former `LoadedEncounter.sources`, e.g. from a save) makes every read come
    from those texts instead of the disk and the bundled package.
    """
    reader: Reader = Reader() if texts is None else TextReader(texts)
    src = encounter_key(source)
    if not reader.exists(src):
        raise ContentErrors([_not_found(str(source), src)])
    sink = ErrorSink()
    sources: dict[str, str] = {}
    doc = read_doc(reader, src, sink, sources)
    if doc is None:
        raise ContentErrors(sink.errors)
    spec, tables, bmap = _resolve(doc, src, reader, sink, sources)
    if ruleset is not None:
        try:
            check_ruleset(ruleset)
        except ValueError as exc:
            sink.add(ContentError(src.key, None, "ruleset", str(exc)))
    sink.raise_if_any()
    assert spec is not None and bmap is not None  # no errors means both were built
    if ruleset is not None:
        spec = spec.model_copy(update={"ruleset": ruleset})
    creatures = {k: c for k, (c, _) in tables.creatures.items()}
    powers = {k: p for k, (p, _) in tables.powers.items()}
    return LoadedEncounter(
        source=str(source),
        path=None if src.bundled or texts is not None else Path(source),
        spec=spec,
        creatures=creatures,
        powers=powers,
        bmap=bmap,
        content_hash=content_hash(spec, creatures, powers),
        sources=sources,
        root=src.key,
    )


def load_library(path: str | Path) -> Library:
    """Load and check one library file (its creatures may use only its own powers)."""
    src = SourceKey(os.path.normpath(str(path)), bundled=False)
    sink = ErrorSink()
    doc = read_doc(Reader(), src, sink, {})
    library = None
    if doc is not None:
        _, library = library_definitions(doc, sink)
    sink.raise_if_any()
    assert library is not None
    return library


def check_source(src: SourceKey, reader: Reader | None = None) -> list[ContentError]:
    """Every error in one file: an encounter (has `map` or `combatants`) or a library."""
    reader = reader or Reader()
    sink = ErrorSink()
    doc = read_doc(reader, src, sink, {})
    if doc is None:
        return sink.errors
    if isinstance(doc.data, dict) and ("map" in doc.data or "combatants" in doc.data):
        _resolve(doc, src, reader, sink, {})
    else:
        library_definitions(doc, sink)
    return ContentErrors(sink.errors).errors


def source_notes(src: SourceKey, reader: Reader | None = None) -> list[str]:
    """Notes (not errors) on one file's own creatures: the basic melee attack the engine
    derives for a creature whose powers have none (`engine.content.basics`)."""
    from engine.content.basics import derived_note
    from engine.content.errors import field_path

    reader = reader or Reader()
    sink = ErrorSink()
    doc = read_doc(reader, src, sink, {})
    if doc is None or not isinstance(doc.data, dict):
        return []
    if "map" in doc.data or "combatants" in doc.data:
        spec, tables, _ = _resolve(doc, src, reader, sink, {})
        defs = definitions(doc, doc.data, spec_library(spec))
        powers = {k: p for k, (p, _) in tables.powers.items()}
    else:
        defs, _ = library_definitions(doc, sink)
        powers = {p.id: p for p, _ in defs.powers}
    out = []
    for cr, origin in defs.creatures:
        note = derived_note(cr, powers)
        if note is not None:
            out.append(f"{origin.where()}: {field_path(origin.path)}: {note}")
    return out


def content_hash(
    spec: Encounter, creatures: Mapping[str, Creature], powers: Mapping[str, Power]
) -> str:
    """sha256 of the content a fight depends on; independent of files, paths and key order.

    `include` is left out on purpose: moving a library file doesn't change the fight, while
    the creatures and powers that the combatants use are hashed themselves.
    """
    used = sorted({c.creature for c in spec.combatants})
    power_ids = sorted({p for cid in used for p in creatures[cid].powers})
    payload = {
        "spec": drop_unset_styles(spec.model_dump(mode="json", exclude={"include"})),
        "creatures": {
            cid: drop_unset_styles(creatures[cid].model_dump(mode="json")) for cid in used
        },
        "powers": {pid: powers[pid].model_dump(mode="json") for pid in power_ids},
    }
    blob = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _not_found(source: str, src: SourceKey) -> ContentError:
    if not src.bundled:
        return ContentError(source, None, "(file)", "no such file")
    names = [
        rel.removeprefix("encounters/").rsplit(".", 1)[0]
        for rel in bundled_walk()
        if rel.startswith("encounters/")
    ]
    hint = did_you_mean(source, names)
    message = f"no bundled encounter {source!r}{hint}; bundled: {', '.join(names) or 'none'}"
    return ContentError(source, None, "encounter", message)


def _resolve(
    doc: YamlDoc, src: SourceKey, reader: Reader, sink: ErrorSink, sources: dict[str, str]
) -> tuple[Encounter | None, Tables, BattleMap | None]:
    """Validate the encounter, read its includes and run every cross-reference check."""
    data: dict[str, Any] = doc.data if isinstance(doc.data, dict) else {}
    if not isinstance(doc.data, dict):
        sink.add(doc.error((), "an encounter file is a mapping with `map` and `combatants`"))
    spec, errors = validate(Encounter, doc.data, doc)
    sink.extend(errors)
    tables = Tables()
    _includes(doc, src, spec, data, reader, sink, sources, tables)
    inline = definitions(doc, data, spec_library(spec))
    tables.add(inline, sink)
    sink.extend(check_definitions(inline, tables.powers, tables.unjudged_powers()))

    map_spec = spec.map if spec is not None else _one(MapSpec, data.get("map"))
    bmap = None
    if map_spec is not None:
        bmap, map_errors = build_map(map_spec, Origin(doc, ("map",)))
        sink.extend(map_errors)
    place = _placement(doc, spec, data)
    creatures = {k: c for k, (c, _) in tables.creatures.items()}
    sink.extend(check_placement(place, creatures, tables.unjudged_creatures(), bmap))
    return spec, tables, bmap


def spec_library(spec: Encounter | None) -> Library | None:
    """The inline definitions of a valid encounter, in library form."""
    return None if spec is None else Library(creatures=spec.creatures, powers=spec.powers)


def _includes(
    doc: YamlDoc,
    including: SourceKey,
    spec: Encounter | None,
    data: dict[str, Any],
    reader: Reader,
    sink: ErrorSink,
    sources: dict[str, str],
    tables: Tables,
) -> None:
    """Read every included library into `tables`, in order."""
    entries = spec.include if spec is not None else data.get("include", [])
    if not isinstance(entries, list):
        tables.incomplete = True
        return
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, str):
            tables.incomplete = True
            continue
        found = next((c for c in include_candidates(including, entry) if reader.exists(c)), None)
        if found is None:
            hint = did_you_mean(entry, bundled_libraries())
            sink.add(doc.error(("include", i), f"cannot find {entry!r}{hint}"))
            tables.incomplete = True
            continue
        if found.key in seen:
            sink.add(
                doc.error(
                    ("include", i), f"{entry!r} is already included (include[{seen[found.key]}])"
                )
            )
            continue
        seen[found.key] = i
        lib_doc = read_doc(reader, found, sink, sources)
        if lib_doc is None:
            tables.incomplete = True
        else:
            tables.add(library_definitions(lib_doc, sink)[0], sink)


def _one(model: type[MapSpec] | type[Surprise], value: Any) -> Any:
    good, _ = salvage(model, [value]) if value is not None else ([], set())
    return good[0][1] if good else None


def _placement(doc: YamlDoc, spec: Encounter | None, data: dict[str, Any]) -> Placement:
    if spec is not None:
        return Placement(
            Origin(doc, ()), list(enumerate(spec.combatants)), True, spec.sides, spec.surprise
        )
    combatants, _ = salvage(Combatant, data.get("combatants"))
    total = data.get("combatants")
    complete = isinstance(total, list) and len(combatants) == len(total)
    raw_sides = data.get("sides")
    sides: dict[str, Side] = {}
    if isinstance(raw_sides, dict):
        sides = {k: s for k, s in ((k, _one_side(v)) for k, v in raw_sides.items()) if s}
    return Placement(
        Origin(doc, ()), combatants, complete, sides, _one(Surprise, data.get("surprise"))
    )


def _one_side(value: Any) -> Side | None:
    good, _ = salvage(Side, [value if value is not None else {}])
    return good[0][1] if good else None
