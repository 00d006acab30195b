"""The save commands of `skirmish`: resume, replay and export.

`add_parsers(subparsers)` adds them to the main parser; each sets `func`, so the caller runs
`args.func(args)` (or `run(args)`). A save is checked headlessly before the app is started, so
a bad file gets its one-line error without Textual ever loading; `export` never needs the app.
Every failure a user can cause ends in one line on stderr and exit status 1, never a traceback.

The engine is imported inside the commands, not here: `skirmish` builds its parser with these
commands on every start, and the app's start screen must not wait for the content loader.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.safetext import clean

if TYPE_CHECKING:
    from engine.autosave import SaveInfo
    from engine.encounter import Encounter
    from engine.save import SaveFile

# --- parsers ---------------------------------------------------------------------------------


def add_parsers(subparsers: Any) -> None:
    """Add `resume`, `replay` and `export` to an argparse subparsers object."""
    resume = subparsers.add_parser(
        "resume",
        help="list unfinished fights, or open one",
        description="Without FILE: list the unfinished fights (newest first). With a save file, "
        "or a number from that list, open it in the app and play on.",
    )
    resume.add_argument(
        "file", nargs="?", metavar="FILE|N", help="a save file, or the number of a listed fight"
    )
    resume.add_argument("--latest", action="store_true", help="open the newest unfinished fight")
    resume.set_defaults(func=cmd_resume)
    resume.epilog = (
        "examples:\n  skirmish resume              list the unfinished fights\n"
        "  skirmish resume 2            open the second one\n"
        "  skirmish resume --latest     open the newest\n"
        "  skirmish resume FILE         open a save file"
    )
    resume.formatter_class = argparse.RawDescriptionHelpFormatter

    replay = subparsers.add_parser(
        "replay", help="step through a saved fight or a combat log (read-only)"
    )
    replay.add_argument("file", metavar="FILE", help="a save, or a JSON Lines combat log")
    replay.set_defaults(func=cmd_replay)
    replay.epilog = "keys: n/p or right/left step, r jumps to a round, q quits"

    export = subparsers.add_parser(
        "export", help="write a saved fight's combat log as JSON Lines or text"
    )
    export.add_argument("save", metavar="SAVE", help="a save file (`skirmish resume` lists them)")
    export.add_argument(
        "--format",
        choices=["jsonl", "text"],
        default="jsonl",
        help="JSON Lines (the combat log contract) or the log as the app shows it",
    )
    export.add_argument(
        "-o", "--output", metavar="FILE", default=None, help="write here instead of standard output"
    )
    export.add_argument(
        "--force",
        action="store_true",
        help="replace FILE if it exists (only ever a regular file; its permissions are kept)",
    )
    export.set_defaults(func=cmd_export)


def run(args: argparse.Namespace) -> int:
    func: Callable[[argparse.Namespace], int] = args.func
    return func(args)


def _fail(command: str, message: str) -> int:
    print(clean(f"skirmish {command}: {message}", newlines=True), file=sys.stderr)
    return 1


def app_entry(name: str) -> Callable[[Path], int | None]:
    """`tui.launch.<name>`, imported only now (it loads Textual); ImportError if missing."""
    module = importlib.import_module("tui.launch")
    entry = getattr(module, name, None)
    if entry is None:
        raise ImportError(f"tui.launch has no {name}()")
    return entry


# --- resume ----------------------------------------------------------------------------------
def when(dt: datetime, now: datetime | None = None) -> str:
    """A time a person reads at a glance: `today 14:32`, `yesterday 09:10`, `2025-03-01 20:15`."""
    now = now or datetime.now()
    days = (now.date() - dt.date()).days
    if days == 0:
        return f"today {dt:%H:%M}"
    if days == 1:
        return f"yesterday {dt:%H:%M}"
    return f"{dt:%Y-%m-%d %H:%M}"


def format_listing(saves: Sequence[SaveInfo], broken: Sequence[SaveInfo] = ()) -> str:
    from engine.autosave import saves_dir

    if not saves:
        lines = [f"No unfinished fights in {saves_dir()}."]
    else:
        width = max(len(s.encounter) for s in saves)
        lines = ["Unfinished fights, newest first:"]
        for i, s in enumerate(saves, start=1):
            lines.append(
                f"  {i:>2}. {visible(s.encounter):<{width}}  round {s.round:<3} "
                f"{when(s.updated):<16}  {visible(str(s.path))}"
            )
        lines.append("Open one with `skirmish resume N` (or a FILE, or --latest).")
    if broken:
        lines.append(f"{len(broken)} {'save' if len(broken) == 1 else 'saves'} could not be read:")
        lines.extend(f"  {visible(b.error or '')}" for b in broken)
    return clean("\n".join(lines), newlines=True)  # names and file names are data


def _first_that_replays(paths: Sequence[Path]) -> SaveFile | str:
    """The first save in `paths` that reads and replays, saying on stderr which were skipped;
    else why the last one didn't."""
    from engine.save import SaveError, read_save

    why = "no unfinished fight opens"
    for path in paths:
        try:
            save = read_save(path)
            save.encounter()
            return save
        except SaveError as exc:
            why = visible(str(exc))
            print(f"skipping {why}", file=sys.stderr)
    return why


def visible(text: str) -> str:
    """Control characters (a file name can hold ESC) shown as escapes, never sent raw."""
    from engine.content.errors import visible as shown

    return shown(text)


def cmd_resume(args: argparse.Namespace) -> int:
    from engine.autosave import list_saves
    from engine.save import SaveError, read_save

    save: SaveFile

    target: str | None = args.file
    if target is None or (target.isdigit() and not os.path.exists(target)):
        everything = list_saves()
        saves = [s for s in everything if s.error is None and not s.finished]
        if target is None and not args.latest:
            print(format_listing(saves, [s for s in everything if s.error is not None]))
            return 0
        if not saves:
            return _fail(
                "resume", "there is no unfinished fight to resume (`skirmish play` starts one)"
            )
        index = 1 if target is None else int(target)
        if not 1 <= index <= len(saves):
            return _fail(
                "resume",
                f"no unfinished fight number {index} ({len(saves)} listed by `skirmish resume`)",
            )
        if target is None:  # --latest: the newest that opens; a broken one never blocks
            found = _first_that_replays([s.path for s in saves])
            if isinstance(found, str):
                return _fail("resume", found)
            save = found
        else:
            target = str(saves[index - 1].path)
    if target is not None:
        try:
            save = read_save(target)
            save.encounter()  # replay now, so a bad save fails here in one line, not in the app
        except SaveError as exc:
            return _fail("resume", visible(str(exc)))
    if save.finished is not None:
        print(
            f"{save.path}: this fight is over ({save.finished.get('reason')}); "
            "`skirmish replay` steps through it",
            file=sys.stderr,
        )
    if save.torn:
        print(clean(f"{save.path}: {save.torn}"), file=sys.stderr)
    try:
        launch_save = app_entry("launch_save")
    except ImportError as exc:
        return _fail(
            "resume",
            f"the app can't start here ({exc}); the save is fine: {save.path} (round {save.round})",
        )
    return int(launch_save(save.path) or 0)


# --- replay ----------------------------------------------------------------------------------
def check_log(path: Path) -> int:
    """Check that `path` is a JSON Lines combat log (its events count), else SaveError: read
    bounded from a regular file, its map and combatants within content limits."""
    from engine.logfile import check_start, first_event, read_log_lines
    from engine.save import SaveError

    lines = read_log_lines(path)
    start = first_event(path, lines)
    try:
        check_start(start)
    except ValueError as exc:
        raise SaveError(path, f"line 1: {exc}") from None
    return len(lines)


def cmd_replay(args: argparse.Namespace) -> int:
    from engine.save import SaveError, read_save

    path = Path(args.file)
    try:
        try:
            save = read_save(path)
        except SaveError as exc:
            if not exc.what.startswith("not a Skirmish save"):
                raise
            check_log(path)
        else:
            save.encounter()
    except SaveError as exc:
        return _fail("replay", str(exc))
    try:
        launch_replay = app_entry("launch_replay")
    except ImportError as exc:
        return _fail(
            "replay",
            f"the app can't start here ({exc}); "
            f"`skirmish export {path} --format text` prints the fight",
        )
    return int(launch_replay(path) or 0)


# --- export ----------------------------------------------------------------------------------
def jsonl_lines(enc: Encounter) -> list[str]:
    """The combat log of ../shared/log-schema.md, one JSON object per line (creatures the GM
    added are listed at encounter_start too: `engine.gm.log_json`)."""
    from engine.gm import log_json

    return [json.dumps(d, ensure_ascii=False) for d in log_json(enc.log)]


def text_lines(enc: Encounter) -> list[str]:
    """The readable log: the one renderer's lines (`tui.logtext`, as the log pane shows)."""
    from tui.logtext import format_log, names_of_encounter

    return format_log(enc.log, names_of_encounter(enc))


def is_save(path: Path) -> bool:
    """Does `path` hold a Skirmish save (by its first bytes)? An export never replaces one."""
    try:
        with path.open("rb") as handle:
            return handle.read(8) == b'{"crc":"'
    except OSError:
        return False


def write_atomic(path: Path, lines: Iterable[str], mode: int | None = None) -> None:
    """Write a whole file or nothing (a temp file renamed over it), with permission bits
    `mode` (those of the file it replaces), else what a new file gets under the umask."""
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            for line in lines:
                handle.write(line + "\n")
            handle.flush()
            os.fchmod(handle.fileno(), mode if mode is not None else _new_file_mode())
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _new_file_mode() -> int:
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def output_problem(out: Path, save: SaveFile, force: bool) -> str | None:
    """Why `export -o out` must not write there (None: it may). Only a regular file is ever
    replaced, and only with --force; never a save, a link, a device or a folder."""
    try:
        st = out.lstat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{out}: can't check it: {exc.strerror or exc}"
    if stat.S_ISDIR(st.st_mode):
        return f"{out}: is a folder"
    if stat.S_ISLNK(st.st_mode):
        return f"{out}: is a symbolic link; refusing to replace it (write to its target)"
    if not stat.S_ISREG(st.st_mode):
        return f"{out}: is not a regular file (a device, a pipe or a socket); refusing it"
    if is_save(out) or out.resolve() == save.path.resolve():
        return f"{out}: is a Skirmish save; refusing to overwrite it"
    if not force:
        return f"{out}: already exists; use --force to replace it"
    return None


def export(save: SaveFile, fmt: str) -> list[str]:
    enc = save.encounter()
    return jsonl_lines(enc) if fmt == "jsonl" else text_lines(enc)


def cmd_export(args: argparse.Namespace) -> int:
    from engine.save import SaveError, read_save

    try:
        save = read_save(args.save)
        lines = export(save, args.format)
    except SaveError as exc:
        return _fail("export", str(exc))
    if save.torn:
        print(clean(f"{save.path}: {save.torn}"), file=sys.stderr)
    if args.output is None:
        sys.stdout.write("".join(line + "\n" for line in lines))
        return 0
    out = Path(args.output)
    problem = output_problem(out, save, bool(getattr(args, "force", False)))
    if problem is not None:
        return _fail("export", problem)
    mode = stat.S_IMODE(out.stat().st_mode) if out.exists() else None
    try:
        write_atomic(out, lines, mode)
    except OSError as exc:
        return _fail("export", f"{out}: can't write it: {exc.strerror or exc}")
    print(clean(f"{len(lines)} lines written to {out}"), file=sys.stderr)
    return 0


# --- standalone -------------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    """These commands alone (`python -m tui.cli_saves ...`), until the lead wires them in."""
    parser = argparse.ArgumentParser(prog="skirmish")
    add_parsers(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    try:
        return run(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
