"""`skirmish host` and `skirmish join`: start a table, or sit at one.

`host` loads the encounter (or, with `--resume`, the table's save), prints where the table
is and the `authorized_keys` lines to give each player a seat over SSH, and serves until
Ctrl+C or SIGTERM. `join` opens the seat app on a table's socket. Every failure a user can
cause ends in one line and a non-zero exit status.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import shutil
import signal
import sys
from pathlib import Path
from typing import Any

from tui.cli import RULESET_HELP, Rulesets
from tui.cli_styles import add_style_option
from tui.table.seats import GM, Seating, TableDir, TableError  # light: no engine


def add_parsers(sub: Any) -> None:
    host = sub.add_parser(
        "host",
        help="host a table: one fight, several seats (players over SSH, a GM)",
        description="Host a fight for several seats. Players join with `skirmish join`, "
        "normally through an SSH key's forced command (the lines to add are printed).",
    )
    host.add_argument("encounter", nargs="?", default=None, help="bundled name or a file")
    host.add_argument(
        "--seed", type=int, default=None, help="the dice seed, to replay a fight (default: random)"
    )
    host.add_argument("--ruleset", choices=Rulesets(), metavar="RULESET", help=RULESET_HELP)
    host.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="ID=USER",
        help="seat ID plays creature ID; USER is the OS user allowed to take it "
        "(default: your own, for SSH forced commands on your account). Repeatable",
    )
    host.add_argument("--table", type=Path, default=None, metavar="FILE", help="seats file (YAML)")
    host.add_argument("--gm", default=None, metavar="USER", help="OS user of the GM seat")
    host.add_argument("--group", default=None, help="OS group allowed to reach the socket")
    host.add_argument("--dir", type=Path, default=None, help="the table's directory")
    host.add_argument("--resume", action="store_true", help="bring back the table in --dir")
    host.add_argument(
        "--pace",
        type=float,
        default=0.35,
        metavar="SECONDS",
        help="pause after each AI action (default 0.35)",
    )
    host.add_argument("--step", action="store_true", help="each AI action waits for the GM")
    host.add_argument(
        "--manual-dice",
        action="append",
        default=[],
        metavar="SIDE",
        help="that side's dice are typed in by its seats (e.g. party); repeatable",
    )
    add_style_option(host)  # as on sim and play: kept in the table's save for --resume
    host.set_defaults(func=cmd_host)

    join = sub.add_parser("join", help="sit at a table (the seat app)")
    join.add_argument("table", nargs="?", type=Path, default=None, help="the table's directory")
    join.add_argument("--seat", required=True, metavar="ID", help="your seat (gm for the GM)")
    join.set_defaults(func=cmd_join)


class OptionError(TableError):
    """A command-line option that doesn't fit the encounter: one line, exit status 2 (as
    `sim` and `play` say it)."""


def run(args: argparse.Namespace) -> int:
    try:
        code: int = args.func(args)
        return code
    except OptionError as exc:
        print(f"skirmish {args.command}: {exc}", file=sys.stderr)
        return 2
    except (TableError, OSError) as exc:
        print(f"skirmish {args.command}: {exc}", file=sys.stderr)
        return 1


def _seating(args: argparse.Namespace) -> tuple[Seating, dict[str, Any]]:
    from tui.table.seats import gm_seat, load_table_file, parse_seat_option

    extra: dict[str, Any] = {}
    if args.table is not None:
        seating, extra = load_table_file(args.table)
    else:
        seating = Seating()
        seating.add(gm_seat(args.gm), "--gm")
    if args.group is not None:
        from tui.table.seats import gid_of

        seating.group = gid_of(args.group, "--group")
    for text in args.seat:
        seating.add(parse_seat_option(text))
    if len(seating.seats) < 2:
        raise TableError("give at least one player seat (--seat ID=USER or --table FILE)")
    return seating, extra


def _skirmish() -> str:
    here = Path(sys.argv[0])
    if here.name == "skirmish" and here.exists():
        return str(here.resolve())
    return shutil.which("skirmish") or "skirmish"


def authorized_keys_lines(tdir: TableDir, seating: Seating) -> list[str]:
    """One line per seat for ~/.ssh/authorized_keys of the seat's OS user."""
    out = []
    for s in seating.seats.values():
        cmd = f"{_skirmish()} join {shlex.quote(str(tdir.root))} --seat {s.id}"
        out.append(f'command="{cmd}",restrict,pty <{s.id}\'s public key>')
    return out


def cmd_host(args: argparse.Namespace) -> int:
    from engine.content.loader import load_encounter
    from tui.controller import Controller
    from tui.options import GameOptions
    from tui.table.host import Host
    from tui.table.seats import check_creatures

    tdir = TableDir(args.dir) if args.dir is not None else TableDir.default()
    if args.resume and args.ai_style:
        raise OptionError("--ai-style with --resume: the table keeps the styles it began with")
    Host.clear_stale(tdir.socket)  # before anything opens the save: one writer only
    if args.resume:
        from engine.save import SaveError

        save, seating, state = tdir.read_state()
        base = GameOptions(pace=args.pace, step=args.step)
        try:
            ctl = Controller.resumed(save, base=base)
        except SaveError as exc:
            raise TableError(str(exc).splitlines()[0]) from None
        extra: dict[str, Any] = {k: state[k] for k in ("encounter", "seed") if k in state}
    else:
        seating, extra = _seating(args)
        source = args.encounter or extra.get("encounter") or "default"
        seed = args.seed if args.seed is not None else int(extra.get("seed", 1))
        loaded = load_encounter(source, args.ruleset)
        control = {c: "player" for s in seating.seats.values() for c in s.creatures}
        styles = host_styles(args, list(dict.fromkeys(c.side for c in loaded.spec.combatants)))
        options = GameOptions(
            source=source,
            seed=seed,
            ruleset=args.ruleset,
            control=control,
            manual_dice=tuple(args.manual_dice),
            pace=args.pace,
            step=args.step,
            ai_style=styles,
        )
        ctl = Controller(loaded, options)
        extra = {"encounter": source, "seed": seed}
    origin = str(args.table) if args.table is not None else "--seat"
    check_creatures(seating, {c.id: c.side for c in ctl.enc.battle.combatants.values()}, origin)
    tdir.prepare(seating.group)
    ctl.save_dir = tdir.private
    host = Host(ctl, seating, tdir, on_save=lambda p: tdir.write_state(p, seating, extra))
    print(f"Table: {tdir.root} (socket {tdir.socket})")
    print("Seats: " + ", ".join(f"{s.id} ({s.role})" for s in seating.seats.values()))
    print("Add to each player's ~/.ssh/authorized_keys (their key in place of <...>):")
    for line in authorized_keys_lines(tdir, seating):
        print("  " + line)
    print(f"GM: skirmish join {shlex.quote(str(tdir.root))} --seat {GM}", flush=True)
    return asyncio.run(_serve(host))


def host_styles(args: argparse.Namespace, sides: list[str]) -> tuple[str, ...]:
    """`--ai-style` as each side's values (`tui.cli_styles`, the parser and the errors of
    `sim` and `play`), for the table's options: the autosave keeps them for --resume."""
    from tui.cli_styles import style_texts, styles_by_side

    styles, problem = styles_by_side(args.ai_style, sides)
    if problem is not None:
        raise OptionError(problem)
    return tuple(style_texts(styles))


async def _serve(host: Any) -> int:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await host.start()
    print("Serving; Ctrl+C ends the table (the fight stays saved).", flush=True)
    await stop.wait()
    await host.stop()
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    from tui.table.protocol import NAME
    from tui.table.seat_app import SeatApp
    from tui.terminal import guarded

    if not NAME.match(args.seat):
        raise TableError(f"--seat {args.seat!r}: not a seat id (letters, digits, _ . -)")
    tdir = TableDir(args.table) if args.table is not None else TableDir.default()
    if not tdir.socket.exists():
        raise TableError(f"{tdir.socket}: no table here (is the host running?)")
    os.environ.setdefault("TERM", "xterm-256color")
    app = SeatApp(tdir.socket, args.seat)
    with guarded(app):  # a dropped ssh (SIGHUP) or a kill gives the terminal back
        code = app.run()
    if app.problem:
        print(f"skirmish join: {app.problem}", file=sys.stderr)
        return 1
    return code or 0
