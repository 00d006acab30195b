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

Saves never replace a file: a new save gets a fresh name and is linked into place only if
that name is free.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import json
import os
import re
import secrets
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.actions import Action, EndTurn, Move, UsePower, action_from_json
from engine.content.errors import ContentErrors
from engine.content.loader import LoadedEncounter, load_encounter
from engine.decisions import Decider
from engine.dice import DiceSource
from engine.encounter import Encounter, Record
from engine.events import Decision

try:  # advisory locks: one writer per save (absent on Windows, where O_EXCL still holds)
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

FORMAT = "skirmish-save"
VERSION = 1
SUFFIX = ".save.jsonl"
MAX_BYTES = 256 * 1024 * 1024
"""A save this large is certainly something else; refuse before reading it into memory."""

_PREFIX = b'{"crc":"'
_LINE = re.compile(rb'\{"crc":"([0-9a-f]{8})",(.*)\Z', re.DOTALL)


class SaveError(Exception):
    """A save that can't be read or written; `str()` is one line: `path: what is wrong`."""

    def __init__(self, path: str | os.PathLike[str], what: str) -> None:
        super().__init__(f"{path}: {what}")
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
    try:
        obj = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise ValueError("not a JSON object")
    return obj


def pack(data: Any) -> str:
    """JSON, zlib-compressed, in base64: for bulky data only the program reads."""
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return base64.b64encode(zlib.compress(blob.encode("utf-8"), 9)).decode("ascii")


def unpack(text: str) -> Any:
    """ValueError if `text` is not what `pack` makes."""
    try:
        return json.loads(zlib.decompress(base64.b64decode(text, validate=True)))
    except (ValueError, zlib.error) as exc:
        raise ValueError(f"packed data is damaged ({exc})") from None


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
        """Raise ValueError naming the first field that is missing or of the wrong type."""
        want: dict[str, type | tuple[type, ...]] = {
            "encounter": str,
            "name": str,
            "content_hash": str,
            "content_ruleset": str,
            "ruleset": str,
            "seed": (int, type(None)),
            "control": dict,
            "created": str,
        }
        for key, kind in want.items():
            if not isinstance(d.get(key), kind) or isinstance(d.get(key), bool):
                raise ValueError(f"header field {key!r} is missing or malformed")
        sources = d.get("sources")
        if sources is None and isinstance(d.get("sources_zlib"), str):
            sources = unpack(d["sources_zlib"])
        if not isinstance(sources, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in sources.items()
        ):
            raise ValueError("header field 'sources_zlib' is missing or malformed")
        meta = d.get("meta", {})
        return cls(
            encounter=d["encounter"],
            name=d["name"],
            content_hash=d["content_hash"],
            content_ruleset=d["content_ruleset"],
            sources=sources,
            ruleset=d["ruleset"],
            seed=d["seed"],
            control=d["control"],
            created=d["created"],
            meta=meta if isinstance(meta, dict) else {},
            version=d["version"],
        )

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


def entry_from_json(d: dict[str, Any], line: int) -> SaveEntry:
    """Raise ValueError saying what is malformed."""
    n = d.get("n")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError("record number 'n' is missing or malformed")
    raw_action = d.get("action")
    action: Action | None = None
    if raw_action is not None:
        if not isinstance(raw_action, dict):
            raise ValueError("'action' is not an object")
        action = action_from_json(raw_action)
    if (action is None) != (n == 0):
        raise ValueError("only record 0 (the start) has no action")
    faces = d.get("faces", [])
    if not isinstance(faces, list) or not all(
        isinstance(f, int) and not isinstance(f, bool) and f >= 1 for f in faces
    ):
        raise ValueError("'faces' is not a list of die faces")
    answers = d.get("answers", [])
    if not isinstance(answers, list):
        raise ValueError("'answers' is not a list")
    typed = d.get("typed", [])
    if not isinstance(typed, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(faces) for i in typed
    ):
        raise ValueError("'typed' is not a list of indices into 'faces'")
    decision = None
    dd = d.get("decision")
    if dd is not None:
        try:
            cands = tuple(
                {"action": c[0], "score": c[1]} if isinstance(c, list) else c
                for c in dd["candidates"]
            )
            decision = Decision(
                str(dd["id"]), str(dd["policy"]), str(dd["summary"]), cands, float(dd["ms"])
            )
        except (KeyError, TypeError, ValueError):
            raise ValueError("'decision' is malformed") from None
    actor = d.get("actor")
    rnd = d.get("round", 0)
    return SaveEntry(
        n=n,
        record=Record(action, tuple(faces), tuple(answers), decision, tuple(sorted(set(typed)))),
        actor=actor if isinstance(actor, str) else None,
        round=rnd if isinstance(rnd, int) else 0,
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
    name = who or "?"
    if isinstance(action, Move):
        x, y = action.path[-1]
        return f"{name}: {action.mode} to {x},{y}"
    if isinstance(action, UsePower):
        text = f"{name}: {action.power}"
        if action.targets:
            text += " on " + ", ".join(action.targets)
        if action.origin is not None:
            text += f" at {action.origin[0]},{action.origin[1]}"
        return text
    if isinstance(action, EndTurn):
        return f"{name}: ends the turn"
    return f"{name}: {action.name.replace('_', ' ')}"


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
        try:
            return Encounter.replay(
                loaded,
                records,
                seed=h.seed,
                ruleset=h.ruleset,
                control=h.control,
                deciders=deciders,
                live=live,
            )
        except Exception as exc:  # the records drive the engine: any failure means "bad save"
            raise SaveError(
                self.path,
                f"the fight doesn't replay with this Skirmish "
                f"({type(exc).__name__}: {exc})".replace("\n", " "),
            ) from None


def _read_bytes(path: Path) -> tuple[bytes, float]:
    try:
        st = path.stat()
        if st.st_size > MAX_BYTES:
            raise SaveError(path, f"is {st.st_size // 2**20} MB: too large to be a Skirmish save")
        with path.open("rb") as handle:
            return handle.read(), st.st_mtime
    except FileNotFoundError:
        raise SaveError(path, "no such file") from None
    except PermissionError:
        raise SaveError(path, "can't read it: permission denied") from None
    except IsADirectoryError:
        raise SaveError(path, "is a folder, not a save") from None
    except OSError as exc:
        raise SaveError(path, f"can't read it: {exc.strerror or exc}") from None


def _check_header(path: Path, first: bytes) -> SaveHeader:
    """The first line: a foreign file, a newer format and a damaged header each get their own
    message. The format and version are looked at before the checksum, so that a future
    format (which may frame its lines differently) is named as such."""
    m = _LINE.match(first)
    text = b"{" + m.group(2) if m else first
    try:
        obj = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
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
            path, f"unknown save format version {version!r}; this Skirmish reads format {VERSION}"
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
    in `torn`; every other defect refuses the whole file, which is left untouched.
    """
    path = Path(path)
    data, mtime = _read_bytes(path)
    if not data:
        raise SaveError(path, "is empty (0 bytes): no save header")
    pieces = data.split(b"\n")
    tail = pieces.pop()  # after the last newline: b"" for a clean file, else a torn record
    if not pieces:
        if tail.startswith(_PREFIX):
            raise SaveError(path, "the save header is incomplete (stopped while being created)")
        _check_header(path, tail)  # names a foreign file; a whole header would have a newline
        raise SaveError(path, "not a Skirmish save (no complete line)")
    header = _check_header(path, pieces[0])
    torn = None
    if tail.strip(b"\0"):
        torn = f"line {len(pieces) + 1} was cut short (a crash while saving) and was dropped"
    elif tail:
        torn = f"{len(tail)} zero bytes after line {len(pieces)} were dropped"
    # Zero-filled lines at the very end are what some filesystems leave after a power cut.
    while len(pieces) > 1 and pieces[-1] and not pieces[-1].strip(b"\0"):
        pieces.pop()
        torn = torn or f"zero bytes after line {len(pieces)} were dropped"
    good_size = sum(len(p) + 1 for p in pieces)

    active: list[SaveEntry] = []
    redo: list[SaveEntry] = []
    finished: dict[str, Any] | None = None
    for i, raw in enumerate(pieces[1:], start=2):
        try:
            obj = decode_line(raw)
        except ValueError as exc:
            raise SaveError(path, f"line {i} is corrupted: {exc}") from None
        try:
            if "n" in obj:
                entry = entry_from_json(obj, i)
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
                finished = None
            elif "undo" in obj:
                keep = obj["undo"]
                if (
                    not isinstance(keep, int)
                    or isinstance(keep, bool)
                    or not (1 <= keep < len(active))
                ):
                    raise ValueError(f"undo to {keep!r} but {len(active)} records are in force")
                redo[:0] = active[keep:]
                del active[keep:]
                finished = None
            elif "end" in obj:
                end = obj["end"]
                if not isinstance(end, dict):
                    raise ValueError("'end' is not an object")
                finished = end
            else:
                raise ValueError("unknown kind of record")
        except ValueError as exc:
            raise SaveError(path, f"line {i}: {exc}") from None
    return SaveFile(path, header, tuple(active), tuple(redo), finished, torn, good_size, mtime)


# --- writing --------------------------------------------------------------------------------
def _fsync_dir(directory: Path) -> None:
    """Make a new directory entry durable (a no-op where directories can't be opened)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def slug(text: str) -> str:
    """A file-name-safe form of an encounter's name."""
    base = Path(text).name.removesuffix(".yaml").removesuffix(".yml") or "fight"
    return re.sub(r"[^A-Za-z0-9_-]+", "-", base).strip("-")[:40] or "fight"


def new_save_name(encounter: str, now: datetime | None = None) -> str:
    """`<encounter>_<YYYY-mm-dd_HH-MM-SS>_<random>.save.jsonl`: findable by a person, and the
    random part keeps two fights started in the same second apart."""
    stamp = (now or datetime.now()).strftime("%Y-%m-%d_%H-%M-%S")
    return f"{slug(encounter)}_{stamp}_{secrets.token_hex(3)}{SUFFIX}"


class SaveWriter:
    """The one writer of a save: appends whole lines durably, under an exclusive lock."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    # construction
    @classmethod
    def create(cls, path: str | os.PathLike[str], header: SaveHeader) -> SaveWriter:
        """A new save at `path`, which must not exist (SaveError if it does: nothing is ever
        overwritten). The header is written to a temporary file and linked into place, so a
        save either doesn't exist or has a whole header."""
        path = Path(path)
        data = encode_line(header.to_json())
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as exc:
            raise SaveError(path, f"can't create the save: {exc.strerror or exc}") from None
        try:
            _write_all(fd, data)
            os.fsync(fd)
        except OSError as exc:
            os.close(fd)
            os.unlink(tmp)
            raise SaveError(path, f"can't write the save: {exc.strerror or exc}") from None
        os.close(fd)
        try:
            os.link(tmp, path)  # atomic, and fails if the name is taken
        except FileExistsError:
            os.unlink(tmp)
            raise SaveError(path, "already exists: a save is never overwritten") from None
        except OSError:  # no hard links here: O_EXCL still guarantees no overwrite
            os.unlink(tmp)
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                raise SaveError(path, "already exists: a save is never overwritten") from None
            _write_all(fd, data)
            os.fsync(fd)
            os.close(fd)
        else:
            os.unlink(tmp)
        _fsync_dir(path.parent)
        return cls._open(path, len(data))

    @classmethod
    def create_in(cls, directory: str | os.PathLike[str], header: SaveHeader) -> SaveWriter:
        """A new save with a fresh name in `directory` (created if needed)."""
        folder = Path(directory)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SaveError(
                folder, f"can't create the save folder: {exc.strerror or exc}"
            ) from None
        for _ in range(20):
            try:
                return cls.create(folder / new_save_name(header.encounter), header)
            except SaveError as exc:
                if "already exists" not in exc.what:
                    raise
        raise SaveError(folder, "can't find a free save name")  # pragma: no cover

    @classmethod
    def append_to(cls, save: SaveFile) -> SaveWriter:
        """Continue `save` (as just read): a torn tail is cut off before the first append, so
        the next line doesn't join it. SaveError if another Skirmish has the save open."""
        return cls._open(save.path, save.good_size)

    @classmethod
    def _open(cls, path: Path, good_size: int) -> SaveWriter:
        try:
            fd = os.open(path, os.O_RDWR | os.O_APPEND)
        except OSError as exc:
            raise SaveError(path, f"can't open it for writing: {exc.strerror or exc}") from None
        try:
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise SaveError(path, "is open in another Skirmish") from None
            size = os.fstat(fd).st_size
            if size < good_size:
                raise SaveError(path, "changed since it was read (it is shorter now)")
            if size > good_size:
                os.ftruncate(fd, good_size)
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd)

    # appending
    def append(self, objs: Iterable[dict[str, Any]]) -> None:
        """Write the lines (`record_json`, `undo_json`, `end_json`) in one write, then fsync:
        when this returns they survive a crash, and a crash before leaves at most a torn
        last line."""
        if self._fd is None:
            raise SaveError(self.path, "the save was closed")
        data = b"".join(encode_line(o) for o in objs)
        if not data:
            return
        try:
            _write_all(self._fd, data)
            os.fsync(self._fd)
        except OSError as exc:
            raise SaveError(self.path, f"can't write the save: {exc.strerror or exc}") from None

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)  # closing releases the lock
            self._fd = None
