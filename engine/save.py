"""The save file: a fight's content and its action records, appended durably, read defensively.

The engine is event-sourced, so a save is the encounter's source plus `Encounter.records`
(each action with the die faces and answers it used). The format is JSON Lines, version 1:

    line 1   header  {"crc", "format": "skirmish-save", "version": 1, "encounter", "name",
                      "content_hash", "content_ruleset", "sources_zlib" (every content text
                      read: base64 of zlib of their JSON), "ruleset", "seed",
                      "control" (creature id -> player|ai), "created", "meta"}
    then     record  {"crc", "n", "action" (null for the start), "faces"?, "answers"?,
                      "typed"? (indices of the faces typed at the table), "decision"?,
                      "actor", "round"}
             undo    {"crc", "undo": K}      the records from n=K on were undone
             end     {"crc", "end": {"winner", "reason", "rounds"}}   the fight finished
             control {"crc", "control": {creature id: player|ai}}   who plays whom changed
                     (from here on; the last one read is in force, whatever was undone)

Every line begins `{"crc":"xxxxxxxx",` where xxxxxxxx is the CRC32 of the rest of the line as
written (with its `{` put back), so a damaged or hand-edited line is caught without trusting
any JSON re-serialisation. An append is one write of whole lines and an fsync before it
returns: a crash leaves at most a torn last line (no newline, or zero bytes from the
filesystem), which reading drops; everything before it is kept. Anything else wrong (a bad
line in the middle, a checksum mismatch on a complete line, records out of order) is refused
with one line naming the file and the line: a save that doesn't add up is never half-loaded.

Undo is recorded by appending an `undo` marker rather than rewriting the file, so that every
change to a save is an append (the same crash guarantee), the undone records stay on disk (a
redo survives a restart: reading rebuilds the redo stack) and a GM can still read what was
taken back.

Size: a 10-round fight must stay well under 100 KB, so the content texts are compressed (they
are for the program; `SaveHeader.sources` gives them back), empty lists are left out, a
decision's candidates are stored as [action, score] pairs, and what can be derived (a
record's one-line summary) is not stored.

Writing (`engine.savewriter.SaveWriter`) never replaces a file: a new save gets a fresh name
and is linked into place only if that name is free. Reading (here) checks every field of every
line (`engine.savecheck`) before the engine sees it.
"""

from __future__ import annotations

import base64
import functools
import json
import os
import re
import stat
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine import savecheck
from engine.actions import Action, Impossible
from engine.content.errors import ContentErrors, visible
from engine.content.loader import LoadedEncounter, load_encounter
from engine.decisions import Decider
from engine.dice import DiceError, DiceExhausted, DiceSource, InvalidFace
from engine.encounter import Encounter, Record
from engine.handlers import describe_action
from engine.rulesets import ruleset_names
from engine.savecheck import unpack as unpack  # the inverse of `pack`, bounded

FORMAT = "skirmish-save"
VERSION = 1
SUFFIX = ".save.jsonl"
MAX_BYTES = 64 * 1024 * 1024
"""A save this large is certainly something else (a 500-round fight is a few MB): refuse it
before reading more. Counted in bytes actually read, not the size the file system reports."""

_PREFIX = b'{"crc":"'
_LINE = re.compile(rb'\{"crc":"([0-9a-f]{8})",(.*)\Z', re.DOTALL)


class SaveError(Exception):
    """A save that can't be read or written; `str()` is one line: `path: what is wrong`."""

    def __init__(self, path: str | os.PathLike[str], what: str) -> None:
        # Escaped: a file name or a value from the file (a hostile content hash, a name)
        # must not reach a terminal raw through an error message.
        what = visible(what.replace("\n", " "))
        super().__init__(f"{visible(str(path))}: {what}")
        self.path = Path(path)
        self.what = what


# --- lines ----------------------------------------------------------------------------------
def encode_line(obj: dict[str, Any]) -> bytes:
    """One save line: `{"crc":"<crc32 of the rest>",` + the compact JSON of `obj` + newline."""
    body = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    if not body.startswith("{") or body == "{}":
        raise ValueError("a save line is a non-empty JSON object")
    raw = body.encode("utf-8")
    return b'{"crc":"%08x",' % zlib.crc32(raw) + raw[1:] + b"\n"


def decode_line(line: bytes) -> dict[str, Any]:
    """The object of one complete line (no newline); ValueError saying what is wrong."""
    m = _LINE.match(line)
    if m is None:
        raise ValueError("not a save record (no checksum)")
    body = b"{" + m.group(2)
    if zlib.crc32(body) != int(m.group(1), 16):
        raise ValueError("checksum mismatch (the line was edited or damaged)")
    obj = savecheck.loads(body)
    if not isinstance(obj, dict):
        raise ValueError("not a JSON object")
    return obj


def pack(data: Any) -> str:
    """JSON, zlib-compressed, in base64: for bulky data only the program reads."""
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return base64.b64encode(zlib.compress(blob.encode("utf-8"), 9)).decode("ascii")


# --- header ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SaveHeader:
    """Everything needed to rebuild the fight before its first record."""

    encounter: str
    """The source as given to `load_encounter` (bundled name or path); the key into sources."""
    name: str
    content_hash: str
    content_ruleset: str
    """The ruleset the content was loaded with (it is part of the content hash)."""
    sources: dict[str, str]
    ruleset: str
    seed: int | None
    control: dict[str, str]
    created: str
    meta: dict[str, Any] = field(default_factory=dict)
    """Free data for the app (policies, who rolls by hand); the engine ignores it."""
    version: int = VERSION

    @classmethod
    def of(cls, enc: Encounter, meta: dict[str, Any] | None = None) -> SaveHeader:
        loaded = enc.loaded
        return cls(
            encounter=loaded.source,
            name=loaded.spec.name,
            content_hash=loaded.content_hash,
            content_ruleset=loaded.spec.ruleset,
            sources=dict(loaded.sources),
            ruleset=enc.ruleset_name,
            seed=enc.seed,
            control={c.id: c.control for c in enc.battle.combatants.values()},
            created=datetime.now(UTC).isoformat(timespec="seconds"),
            meta=dict(meta or {}),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": self.version,
            "encounter": self.encounter,
            "name": self.name,
            "content_hash": self.content_hash,
            "content_ruleset": self.content_ruleset,
            "sources_zlib": pack(self.sources),
            "ruleset": self.ruleset,
            "seed": self.seed,
            "control": self.control,
            "created": self.created,
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SaveHeader:
        """Raise ValueError naming the first field that is missing or malformed (every field
        is checked: `engine.savecheck`)."""
        version = d.get("version", VERSION)
        if not savecheck.is_int(version, 1, VERSION):
            raise ValueError("header field 'version' is malformed")
        return cls(**savecheck.header_fields(d), version=version)

    def content(self) -> LoadedEncounter:
        """The encounter from the texts embedded in the save (never from disk: the content
        files may have changed or gone); ValueError if it isn't the content that was saved."""
        loaded = load_encounter(self.encounter, self.content_ruleset, texts=self.sources)
        if loaded.content_hash != self.content_hash:
            raise ValueError(
                f"the embedded encounter's content hash is {loaded.content_hash[:12]}, "
                f"the header says {self.content_hash[:12]} (edited, or a different loader)"
            )
        return loaded


# --- records --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SaveEntry:
    """One action record as stored: the engine's `Record` plus what a person or list reads."""

    n: int
    record: Record
    actor: str | None
    """Whose turn it was when the action was applied (None for the start)."""
    round: int
    """The round after the action."""
    line: int = 0
    """Its line in the file (1 = the header); 0 when not read from a file."""

    @property
    def summary(self) -> str:
        """One line for lists (creature ids, not names: the names are in the content)."""
        return describe(self.record.action, self.actor)


def record_json(entry: SaveEntry) -> dict[str, Any]:
    rec = entry.record
    out: dict[str, Any] = {
        "n": entry.n,
        "action": rec.action.to_json() if rec.action is not None else None,
        "actor": entry.actor,
        "round": entry.round,
    }
    if rec.faces:
        out["faces"] = list(rec.faces)
    if rec.answers:
        out["answers"] = list(rec.answers)
    if rec.typed:
        out["typed"] = list(rec.typed)
    if rec.decision is not None:
        d = rec.decision.payload()
        cands = d["candidates"]
        if all(isinstance(c, dict) and c.keys() == {"action", "score"} for c in cands):
            d["candidates"] = [[c["action"], c["score"]] for c in cands]
        out["decision"] = d
    return out


def undo_json(keep: int) -> dict[str, Any]:
    return {"undo": keep}


def end_json(winner: str | None, reason: str | None, rounds: int) -> dict[str, Any]:
    return {"end": {"winner": winner, "reason": reason, "rounds": rounds}}


def control_json(control: dict[str, str]) -> dict[str, Any]:
    return {"control": dict(control)}


def control_from_json(d: Any, known: dict[str, str]) -> dict[str, str]:
    """A `control` marker's changes; ValueError unless it maps known creatures to
    "player" or "ai"."""
    if not isinstance(d, dict):
        raise ValueError("'control' is not an object")
    for cid, who in d.items():
        if cid not in known:
            raise ValueError(f"'control' names {str(cid)[:40]!r}, not a creature of this fight")
        if who not in ("player", "ai"):
            raise ValueError(f"'control' of {cid!r} is {str(who)[:20]!r}, not player or ai")
    return dict(d)


def entry_from_json(d: dict[str, Any], line: int) -> SaveEntry:
    """Raise ValueError saying what is malformed (each field checked: `engine.savecheck`)."""
    n = d.get("n")
    if not isinstance(n, int) or not savecheck.is_int(n, 0, 10**9):
        raise ValueError("record number 'n' is missing or malformed")
    raw_action = d.get("action")
    action = None if raw_action is None else savecheck.action(raw_action)
    if (action is None) != (n == 0):
        raise ValueError("only record 0 (the start) has no action")
    faces = savecheck.faces(d.get("faces", []))
    answers = savecheck.short_list(d.get("answers", []), "'answers'")
    savecheck.free_form(answers, "'answers'")
    typed = d.get("typed", [])
    if not isinstance(typed, list) or not all(
        savecheck.is_int(i, 0, len(faces) - 1) for i in typed
    ):
        raise ValueError("'typed' is not a list of indices into 'faces'")
    dd = d.get("decision")
    decision = None if dd is None else savecheck.decision(dd)
    actor = d.get("actor")
    if actor is not None and not savecheck.is_id(actor):
        raise ValueError("'actor' is not a creature id")
    rnd = d.get("round", 0)
    if not savecheck.is_int(rnd, 0, 10**6):
        raise ValueError("'round' is not a round number")
    return SaveEntry(
        n=n,
        record=Record(action, faces, tuple(answers), decision, tuple(sorted(set(typed)))),
        actor=actor,
        round=rnd,
        line=line,
    )


def same_record(a: Record, b: Record) -> bool:
    """The same action with the same dice and answers: doing it again is a redo (the state
    after it is the same), so it keeps the rest of the redo stack; anything else drops it."""
    return a.action == b.action and a.faces == b.faces and list(a.answers) == list(b.answers)


def describe(action: Action | None, who: str | None) -> str:
    """A short line for lists and the replay viewer (the full story is in the event log)."""
    if action is None:
        return "the fight starts: surprise and initiative"
    return describe_action(action, who or "?")


# --- reading --------------------------------------------------------------------------------
@dataclass(frozen=True)
class SaveFile:
    """A save as read: the header, the records in force, and what reading had to drop."""

    path: Path
    header: SaveHeader
    entries: tuple[SaveEntry, ...]
    """The records in force (undone ones removed), n = 0, 1, 2, ..."""
    redo: tuple[SaveEntry, ...] = ()
    """Records undone and not replaced since: what a redo would bring back, in order."""
    finished: dict[str, Any] | None = None
    """The `end` marker's data when the fight finished (and nothing was undone since)."""
    torn: str | None = None
    """What was dropped from the end (a record cut short by a crash), if anything."""
    good_size: int = 0
    """Bytes up to the end of the last good line (a writer truncates a torn tail to this)."""
    updated: float = 0.0
    """The file's modification time."""
    control: dict[str, str] = field(default_factory=dict)
    """Who plays each creature now: the header's, with every `control` marker applied."""

    @property
    def records(self) -> list[Record]:
        return [e.record for e in self.entries]

    @functools.cached_property
    def content(self) -> LoadedEncounter:
        """The embedded encounter, loaded once (see `SaveHeader.content`)."""
        return self.header.content()

    @property
    def round(self) -> int:
        return self.entries[-1].round if self.entries else 0

    def encounter(
        self,
        *,
        upto: int | None = None,
        deciders: Callable[[str], Decider] | None = None,
        live: DiceSource | None = None,
    ) -> Encounter:
        """Rebuild the fight (its first `upto` records, default all) by replaying it.

        `live` supplies dice after the records (manual dice at the table); by default the
        seeded stream continues exactly where the saved fight's stood. A save whose records no
        longer replay (content or rules changed in a way the hash can't see) is a SaveError.
        """
        try:
            loaded = self.content
        except ContentErrors as exc:
            first = str(exc).splitlines()[0] if str(exc) else "content errors"
            raise SaveError(self.path, f"the embedded encounter doesn't load: {first}") from None
        except ValueError as exc:
            raise SaveError(self.path, str(exc)) from None
        records = self.records if upto is None else self.records[:upto]
        h = self.header
        self._check_against(loaded)
        try:
            return Encounter.replay(
                loaded,
                records,
                seed=h.seed,
                ruleset=h.ruleset,
                control=self.control or h.control,
                deciders=deciders,
                live=live,
            )
        except Exception as exc:  # the records drive the engine: any failure means "bad save"
            raise SaveError(self.path, replay_failure(exc)) from None

    def _check_against(self, loaded: LoadedEncounter) -> None:
        """The header's ruleset and control must fit the embedded encounter."""
        h = self.header
        if h.ruleset not in ruleset_names():
            raise SaveError(self.path, f"header field 'ruleset' is {h.ruleset[:20]!r}: unknown")
        ids = {c.id for c in loaded.spec.combatants}
        stray = next((cid for cid in h.control if cid not in ids), None)
        if stray is not None:
            raise SaveError(
                self.path, f"header field 'control' names {stray!r}, who is not in the fight"
            )


def replay_failure(exc: Exception) -> str:
    """Why the records don't replay, said about the file (not "tuple index out of range")."""
    if isinstance(exc, DiceExhausted):
        why = "the saved dice run out before the records do (a record was edited or lost)"
    elif isinstance(exc, DiceError | InvalidFace):
        why = "a saved die face doesn't fit the die it was rolled on"
    elif isinstance(exc, Impossible):
        why = f"a saved action isn't legal when it is replayed ({exc.reason})"
    else:
        why = f"with this Skirmish ({type(exc).__name__}: {exc})"
    return "the fight doesn't replay: " + visible(why.replace("\n", " "))[:300]


def _read_bytes(path: Path) -> tuple[bytes, float]:
    """The bytes of a regular file, at most MAX_BYTES of them, counted as read: a FIFO is
    refused before it can block, /dev/zero before it fills memory (its reported size is 0)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise SaveError(path, "no such file") from None
    except PermissionError:
        raise SaveError(path, "can't read it: permission denied") from None
    except IsADirectoryError:
        raise SaveError(path, "is a folder, not a save") from None
    except OSError as exc:
        raise SaveError(path, f"can't read it: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SaveError(path, f"is {_kind(st.st_mode)}, not a save file")
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise SaveError(path, f"can't read it: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise SaveError(
            path, f"is more than {MAX_BYTES // 2**20} MB: too large to be a Skirmish save"
        )
    return data, st.st_mtime


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _check_header(path: Path, first: bytes) -> SaveHeader:
    """The first line: a foreign file, a newer format and a damaged header each get their own
    message. The format and version are looked at before the checksum, so that a future
    format (which may frame its lines differently) is named as such."""
    m = _LINE.match(first)
    text = b"{" + m.group(2) if m else first
    try:
        obj = savecheck.loads(text)
    except ValueError:
        obj = None
    if not isinstance(obj, dict):
        what = "binary data" if b"\0" in first[:512] else "its first line is not a save header"
        if m is not None:
            raise SaveError(path, "line 1 (the save header) is damaged: not JSON")
        raise SaveError(path, f"not a Skirmish save ({what})")
    if obj.get("format") != FORMAT:
        if obj.get("type") == "encounter_start":
            raise SaveError(
                path, "not a Skirmish save: it is a combat log (`skirmish replay` shows those)"
            )
        raise SaveError(path, "not a Skirmish save (no skirmish-save header)")
    version = obj.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveError(
            path,
            f"unknown save format version {str(version)[:20]!r}; "
            f"this Skirmish reads format {VERSION}",
        )
    if version > VERSION:
        raise SaveError(
            path, f"made by a newer Skirmish (format {version}); this one reads format {VERSION}"
        )
    try:
        decode_line(first)
        return SaveHeader.from_json(obj)
    except ValueError as exc:
        raise SaveError(path, f"line 1 (the save header): {exc}") from None


def read_save(path: str | os.PathLike[str]) -> SaveFile:
    """Read and check a save; SaveError (one line: file and what is wrong) if it can't be used.

    A torn last line (cut short by a crash: no newline, or zero bytes) is dropped and reported
    in `torn`; every other defect refuses the whole file, which is left untouched. Nothing in
    the file can make this raise anything but SaveError (`engine.savecheck` checks every field).
    """
    path = Path(path)
    data, mtime = _read_bytes(path)
    pieces, torn = _split(path, data)
    header = _check_header(path, pieces[0])
    fold = _Fold(header.control)
    for i, raw in enumerate(pieces[1:], start=2):
        try:
            obj = decode_line(raw)
        except ValueError as exc:
            raise SaveError(path, f"line {i} is corrupted: {exc}") from None
        try:
            fold.add(obj, i)
        except ValueError as exc:
            raise SaveError(path, f"line {i}: {exc}") from None
    good_size = sum(len(p) + 1 for p in pieces)
    return SaveFile(
        path,
        header,
        tuple(fold.active),
        tuple(fold.redo),
        fold.finished,
        torn,
        good_size,
        mtime,
        fold.control,
    )


def _split(path: Path, data: bytes) -> tuple[list[bytes], str | None]:
    """The complete lines (at least the header) and what was dropped from the end, if any."""
    if not data:
        raise SaveError(path, "is empty (0 bytes): no save header")
    pieces = data.split(b"\n")
    tail = pieces.pop()  # after the last newline: b"" for a clean file, else a torn record
    if not pieces:
        if tail.startswith(_PREFIX):
            raise SaveError(path, "the save header is incomplete (stopped while being created)")
        _check_header(path, tail)  # names a foreign file; a whole header would have a newline
        raise SaveError(path, "not a Skirmish save (no complete line)")
    torn = None
    if tail.strip(b"\0"):
        torn = f"line {len(pieces) + 1} was cut short (a crash while saving) and was dropped"
    elif tail:
        torn = f"{len(tail)} zero bytes after line {len(pieces)} were dropped"
    # Zero-filled lines at the very end are what some filesystems leave after a power cut.
    while len(pieces) > 1 and pieces[-1] and not pieces[-1].strip(b"\0"):
        pieces.pop()
        torn = torn or f"zero bytes after line {len(pieces)} were dropped"
    return pieces, torn


class _Fold:
    """The records in force, the redo stack and the end marker, one line at a time."""

    def __init__(self, control: dict[str, str]) -> None:
        self.active: list[SaveEntry] = []
        self.redo: list[SaveEntry] = []
        self.finished: dict[str, Any] | None = None
        self.control = dict(control)

    def add(self, obj: dict[str, Any], line: int) -> None:
        """ValueError saying what is wrong with the line."""
        if "n" in obj:
            self.record(entry_from_json(obj, line))
        elif "undo" in obj:
            self.undo(obj["undo"])
        elif "control" in obj:
            self.control.update(control_from_json(obj["control"], self.control))
        elif "end" in obj:
            end = obj["end"]
            if not isinstance(end, dict) or savecheck.depth(end) > 2:
                raise ValueError("'end' is not an object")
            self.finished = end
        else:
            raise ValueError("unknown kind of record")

    def record(self, entry: SaveEntry) -> None:
        active, redo = self.active, self.redo
        if entry.n != len(active):
            raise ValueError(
                f"record n={entry.n} is out of order "
                f"(expected n={len(active)}: a line is missing or repeated)"
            )
        if redo and same_record(redo[0].record, entry.record):
            redo.pop(0)
        else:
            redo.clear()
        active.append(entry)
        self.finished = None

    def undo(self, keep: Any) -> None:
        if not savecheck.is_int(keep, 1, len(self.active) - 1):
            shown = keep if savecheck.is_int(keep, -(10**9), 10**9) else "?"
            raise ValueError(f"undo to {shown!r} but {len(self.active)} records are in force")
        self.redo[:0] = self.active[keep:]
        del self.active[keep:]
        self.finished = None


_MOVED = frozenset({"SaveWriter", "SaveFailed", "new_save_name", "slug"})


def __getattr__(name: str) -> Any:
    """`engine.save.SaveWriter` and friends live in `engine.savewriter` now (lazily: that
    module imports this one)."""
    if name in _MOVED:
        from engine import savewriter

        return getattr(savewriter, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
