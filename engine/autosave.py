"""Autosave: every fight in progress is saved as it goes, where `skirmish resume` finds it.

Saves live in `platformdirs.user_data_dir("skirmish")/saves` (`$SKIRMISH_DATA_DIR/saves` when
that is set: tests, portable installs). An `Autosaver` keeps one save in step with an
encounter: after each apply, `sync(enc)` appends the new records durably (so a crash loses
nothing the screen showed), writes an undo marker if records were taken back, and an end
marker when the fight is over.

The app's entry points are `begin` (a new fight) and `resume` (a saved one); both return an
`engine.history.History` wired to its saver:

    hist = autosave.begin(Encounter.create(loaded, seed=7, deciders=ask), deciders=ask)
    hist.start(); hist.apply(action); hist.undo(); hist.redo()
    hist = autosave.resume(path, deciders=ask)      # continues the same save

When the save can't be written (a full disk), `hist.apply` (start, undo, redo) raises
`SaveFailed` after the action is applied in memory: the save still holds every record up to
the one before, whole (the writer cut the torn line off). The fight must pause there, since
a record the screen shows must be durable. `status(hist)` says where things stand, and
`retry(hist)` writes what is missing; once it returns a status with `ok`, play goes on:

    try:
        hist.apply(action)
    except autosave.SaveFailed as exc:      # show "paused: can't save (exc.what)"
        while not autosave.retry(hist).ok:  # e.g. once a second, from a timer
            ...
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import platformdirs

from engine.decisions import Decider
from engine.dice import DiceSource
from engine.encounter import Encounter, Record
from engine.history import History, control_of, trace
from engine.save import (
    SUFFIX,
    SaveEntry,
    SaveError,
    SaveFile,
    SaveHeader,
    control_json,
    end_json,
    read_save,
    record_json,
    undo_json,
)
from engine.savewriter import SaveFailed, SaveWriter

__all__ = ["SaveError", "SaveFailed", "SaveStatus", "begin", "resume", "retry", "status"]

ENV_DATA_DIR = "SKIRMISH_DATA_DIR"


def data_dir() -> Path:
    env = os.environ.get(ENV_DATA_DIR)
    return Path(env) if env else Path(platformdirs.user_data_dir("skirmish"))


def saves_dir() -> Path:
    return data_dir() / "saves"


@dataclass(frozen=True, slots=True)
class SaveInfo:
    """One save as a list shows it (read without replaying the fight)."""

    path: Path
    encounter: str
    """The encounter's name as `skirmish play` takes it back (a bundled name or a file)."""
    round: int
    updated: datetime
    finished: bool
    records: int = 0
    error: str | None = None
    """Why the save can't be opened (then the other fields are best effort)."""


def info(save: SaveFile) -> SaveInfo:
    return SaveInfo(
        save.path,
        save.header.encounter,
        save.round,
        datetime.fromtimestamp(save.updated),
        save.finished is not None,
        len(save.entries),
    )


def list_saves(directory: str | os.PathLike[str] | None = None) -> list[SaveInfo]:
    """Every save in the folder, newest first; one that can't be read carries its `error`."""
    folder = Path(directory) if directory is not None else saves_dir()
    try:
        paths = [
            p for p in folder.iterdir() if p.name.endswith(SUFFIX) and not p.name.startswith(".")
        ]
    except OSError:
        return []
    out: list[SaveInfo] = []
    for p in paths:
        try:
            out.append(info(read_save(p)))
        except Exception as exc:  # one bad file never hides the others: list it, with why
            why = str(exc) if isinstance(exc, SaveError) else f"{p}: can't be read ({exc!r})"
            try:
                mtime = p.lstat().st_mtime
            except OSError:
                mtime = 0.0
            out.append(SaveInfo(p, p.name, 0, datetime.fromtimestamp(mtime), False, error=why))
    out.sort(key=lambda s: (s.updated, s.path.name), reverse=True)
    return out


def list_unfinished(directory: str | os.PathLike[str] | None = None) -> list[SaveInfo]:
    """Fights in progress that can be resumed, newest first."""
    return [s for s in list_saves(directory) if not s.finished and s.error is None]


@dataclass(frozen=True, slots=True)
class SaveStatus:
    """Where an autosave stands: everything durable (`ok`), or paused by a failed write."""

    ok: bool
    written: int
    """Records the save holds, all durable."""
    pending: int
    """Records applied in memory but not in the save yet (the fight waits for them)."""
    error: str | None = None
    """The last write's failure, one line (`path: can't write the save: No space left...`)."""


class Autosaver:
    """Keeps one save in step with an encounter; see the module docstring."""

    def __init__(
        self,
        writer: SaveWriter,
        written: Sequence[Record] = (),
        finished: bool = False,
        next_actor: str | None = None,
        control: dict[str, str] | None = None,
    ) -> None:
        self.writer = writer
        self._control = dict(control) if control is not None else None
        """Who plays whom as the save has it (None: as the encounter has it now)."""
        self._written = list(written)
        self._finished = finished
        self._next_actor = next_actor
        """Whose turn it was after the last sync: the actor of the next record."""
        self.failure: SaveFailed | None = None
        """The last sync's failure, until a sync succeeds."""
        self._pending = 0

    @property
    def path(self) -> Path:
        return self.writer.path

    @property
    def written(self) -> int:
        """How many records the save holds (all durable)."""
        return len(self._written)

    @classmethod
    def create(
        cls,
        enc: Encounter,
        *,
        directory: str | os.PathLike[str] | None = None,
        path: str | os.PathLike[str] | None = None,
        meta: dict[str, Any] | None = None,
    ) -> Autosaver:
        """A new save for `enc` (at `path`, which must not exist, or with a fresh name in
        `directory`, default the autosave folder), holding the records it has so far."""
        header = SaveHeader.of(enc, meta)
        if path is not None:
            writer = SaveWriter.create(path, header)
        else:
            writer = SaveWriter.create_in(
                directory if directory is not None else saves_dir(), header
            )
        saver = cls(writer)
        try:
            saver.sync(enc)
        except BaseException:
            writer.close()
            raise
        return saver

    def status(self) -> SaveStatus:
        error = str(self.failure) if self.failure is not None else None
        return SaveStatus(self.failure is None, self.written, self._pending, error)

    @classmethod
    def resume(cls, save: SaveFile, enc: Encounter, writer: SaveWriter | None = None) -> Autosaver:
        """Continue `save` (as read), `enc` being the encounter rebuilt from it; `writer`
        when the save was read under its lock (`SaveWriter.open_existing`)."""
        nxt = enc.current.id if enc.current is not None else None
        writer = writer if writer is not None else SaveWriter.append_to(save)
        saver = cls(writer, save.records, save.finished is not None, nxt, save.control)
        if enc.over and save.finished is None:  # stopped before the end marker was written
            saver.sync(enc)
        return saver

    def sync(self, enc: Encounter, actors: Sequence[str | None] | None = None) -> int:
        """Make the save hold exactly `enc.records`, durably; return how many it holds.

        `actors` (whose turn each record was, as a History keeps them) is optional: without
        it the saver remembers whose turn came after the last sync, which is right when it
        syncs after every apply; otherwise it replays the records to find out."""
        recs = enc.records
        done = self._written
        common = len(done)
        if not (
            len(recs) >= common
            and (common == 0 or recs[common - 1] is done[-1] or recs[common - 1] == done[-1])
        ):
            common = next(
                (
                    i
                    for i, (a, b) in enumerate(zip(recs, done, strict=False))
                    if a is not b and a != b
                ),
                min(len(recs), len(done)),
            )
        undid = common < len(done)
        lines: list[dict[str, Any]] = []
        if undid:
            lines.append(undo_json(common))
            finished = False
        else:
            finished = self._finished
        if len(recs) > common:
            if len(recs) - common == 1 and (actors is not None or not undid):
                actor = (
                    actors[common] if actors is not None else self._next_actor if common else None
                )
                steps = [(actor, enc.battle.round)]
            else:  # several records at once (a redo), or records replaced: ask a replay
                steps = [(s.actor, s.round) for s in trace(enc)[common:]]
            lines += [
                record_json(SaveEntry(n, rec, actor, rnd))
                for n, (rec, (actor, rnd)) in enumerate(
                    zip(recs[common:], steps, strict=True), start=common
                )
            ]
        control = control_of(enc)
        if self._control is not None and control != self._control:
            # creatures the GM added (engine.gm) come back with their records: only who
            # plays the fight's own creatures is a control change
            changed = {k: v for k, v in control.items() if k in self._control}
            if changed != self._control:
                lines.append(control_json(changed))
            control = {**self._control, **changed}
        if enc.over and not finished:
            lines.append(end_json(enc.battle.winner, enc.battle.end_reason, enc.battle.round))
            finished = True
        try:
            self.writer.append(lines)  # one write, one fsync: a crash leaves a prefix of it
        except SaveFailed as exc:
            self.failure, self._pending = exc, max(1, len(recs) - common)
            raise
        self.failure, self._pending = None, 0
        self._control = control
        del done[common:]
        done.extend(recs[common:])
        self._finished = finished
        self._next_actor = enc.current.id if enc.current is not None else None
        return len(done)

    def close(self) -> None:
        self.writer.close()

    def __enter__(self) -> Autosaver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def begin(
    enc: Encounter,
    *,
    deciders: Callable[[str], Decider] | None = None,
    live: DiceSource | None = None,
    directory: str | os.PathLike[str] | None = None,
    path: str | os.PathLike[str] | None = None,
    meta: dict[str, Any] | None = None,
) -> History:
    """Autosave a new fight (started or not) and wrap it in a History that keeps the save."""
    saver = Autosaver.create(enc, directory=directory, path=path, meta=meta)
    return History(enc, deciders=deciders, live=live, saver=saver)


def resume(
    path: str | os.PathLike[str],
    *,
    deciders: Callable[[str], Decider] | None = None,
    live: DiceSource | None = None,
) -> History:
    """Open a save and continue it: the fight rebuilt by replay, its redo stack, and further
    actions appended to the same file. SaveError (one line) if it can't be used."""
    writer, save = SaveWriter.open_existing(path)  # locked before it is read
    try:
        enc = save.encounter(deciders=deciders, live=live)
        saver = Autosaver.resume(save, enc, writer)
    except BaseException:
        writer.close()
        raise
    actors = [e.actor for e in save.entries]
    return History(
        enc,
        deciders=deciders,
        live=live,
        saver=saver,
        actors=actors,
        redo=[(e.record, e.actor) for e in save.redo],
    )


def status(hist: History) -> SaveStatus | None:
    """The autosave status of `hist` (None when it isn't autosaved)."""
    saver = hist.saver
    return saver.status() if isinstance(saver, Autosaver) else None


def retry(hist: History) -> SaveStatus:
    """Write what a failed sync left out; the status after (still `ok=False` if it failed
    again: try later). Safe to call when nothing is pending."""
    saver = hist.saver
    if not isinstance(saver, Autosaver):
        return SaveStatus(True, 0, 0)
    with contextlib.suppress(SaveFailed):
        saver.sync(hist.enc, hist.actors)
    return saver.status()
