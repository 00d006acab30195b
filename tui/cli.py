"""The `skirmish` command line: the app, the headless tools (sim, check, list) and the save
commands (resume, replay, export: `tui.cli_saves`).

Headless commands never import Textual, so they start fast and run where no terminal is; and
nothing heavy is imported before the command is known (the engine's content loader pulls in
pydantic and networkx), so that the app's first frame comes quickly. Every failure a user can
cause (a bad file, a bad option) ends in a one-line message and a non-zero exit status, never
a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui import cli_compile, cli_import, cli_saves, compiled
from tui.cli_styles import add_style_option, style_texts, styles_by_side
from tui.progress import progress
from tui.safetext import cells, clean, pad
from tui.words import plural

if TYPE_CHECKING:
    from ai.sim import Job
    from ai.styles import StylePick
    from engine.content.errors import ContentErrors

EXAMPLES = """examples:
  skirmish                                  start screen, Enter plays the default fight
  skirmish play default --seed 7            straight into a fight
  skirmish play default --control party=ai  watch both sides play
  skirmish resume                           list unfinished fights (every fight is autosaved)
  skirmish resume --latest                  play on where the newest one stopped
  skirmish replay FIGHT.save.jsonl          step through a saved fight or a combat log
  skirmish export FIGHT.save.jsonl --format text -o fight.txt
                                            the fight's log as text (or jsonl)
  skirmish sim default --runs 300 --json    balance: 300 AI-vs-AI fights
  skirmish check maps/my-encounter.yaml     validate content
  skirmish import hero.dnd4e ogre.html -o maps/mine
                                            your characters and monsters as content
  skirmish list                             bundled encounters
  skirmish list --creatures default         its creatures: the ids --control takes, sides
  skirmish compile                          optional: a compiled engine, faster sims
  skirmish host default --seat kael=alice   host a table (players join over SSH)
  skirmish join --seat kael                 sit at the table (the seat app)
"""

SIDES_HELP = (
    "a side's name in the encounter, e.g. party or monsters (`skirmish list --creatures NAME`)"
)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("skirmish")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


class _VersionAction(argparse.Action):
    """`--version`: the installed version, looked up only when asked (`importlib.metadata`
    would cost about 20 ms at every start, the app's first frame included)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS) -> None:
        super().__init__(
            option_strings, dest, default=argparse.SUPPRESS, nargs=0, help="show the version"
        )

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(f"skirmish {_version()} ({compiled.describe()})")
        parser.exit()


def _import_content_errors() -> None:
    """Bind the module's `ContentErrors` (cmd_sim names it) only for the commands that load
    content anyway."""
    global ContentErrors
    from engine.content.errors import ContentErrors


def _content_errors(exc: BaseException) -> bool:
    """Is `exc` the content loader's ContentErrors? (Looked up only if the loader was ever
    imported: if it wasn't, nothing can have raised one, and importing it costs 0.25 s.)"""
    errors = sys.modules.get("engine.content.errors")
    return errors is not None and isinstance(exc, errors.ContentErrors)


def _policy_names() -> tuple[str, ...]:
    from ai.config import CONFIGS  # only when --policy is given: start-up imports nothing

    return ("naive", *CONFIGS, "rollout")  # as ai.driver.POLICIES


def _policy_arg(text: str) -> tuple[str, str]:
    side, sep, name = text.partition("=")
    names = _policy_names()
    if not sep or name not in names:
        raise argparse.ArgumentTypeError(f"expected SIDE=POLICY ({'|'.join(names)}), got {text!r}")
    return side, name


def _control_arg(text: str) -> tuple[str, str]:
    who, sep, ctl = text.partition("=")
    if not sep or ctl not in ("player", "ai"):
        raise argparse.ArgumentTypeError(f"expected ID=player|ai, got {text!r}")
    return who, ctl


def _dice_arg(text: str) -> list[int]:
    try:
        faces = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected faces like 20,3,11, got {text!r}") from None
    if not faces or any(f < 1 for f in faces):
        raise argparse.ArgumentTypeError("dice faces are whole numbers from 1 up")
    return faces


class Rulesets:
    """`--ruleset`'s choices: the ruleset registry, read only when a choice is checked or
    listed (a bare `skirmish` starts without loading the engine)."""

    def _names(self) -> tuple[str, ...]:
        from engine.rulesets import ruleset_names

        return ruleset_names()

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())


RULESET_HELP = "the rules: %(choices)s (default: the encounter's own)"
"""A metavar and a help text that lists the choices only when help is shown (argparse would
list them in `add_argument` otherwise, loading the engine)."""


def build_parser(command: str | None = "") -> argparse.ArgumentParser:
    """The whole command line. Given the first word about to be parsed (None: no words at
    all), the table's subcommands are left out when that word is another known command
    (nothing then shows their help or lists them)."""
    p = argparse.ArgumentParser(
        prog="skirmish",
        description="Tactical d20 encounters in the terminal, with an AI for the monsters.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action=_VersionAction)
    sub = p.add_subparsers(dest="command")

    play = sub.add_parser("play", help="play an encounter in the app")
    play.add_argument(
        "encounter",
        nargs="?",
        default="default",
        metavar="NAME|FILE",
        help="a bundled encounter's name (`skirmish list`) or a YAML file (default: default)",
    )
    play.add_argument(
        "--seed", type=int, default=None, help="the dice seed, to replay a fight (default: random)"
    )
    play.add_argument("--ruleset", choices=Rulesets(), metavar="RULESET", help=RULESET_HELP)
    play.add_argument(
        "--control",
        type=_control_arg,
        action="append",
        default=[],
        metavar="ID=player|ai",
        help="who plays a side or a creature (its id, any case; repeatable; "
        "`skirmish list --creatures NAME` shows ids and sides). Allied creatures that "
        "are not player characters are played by the AI unless given here",
    )
    play.add_argument(
        "--manual-dice",
        action="append",
        default=[],
        metavar="SIDE",
        help=f"this side rolls real dice and types them in (repeatable); SIDE is {SIDES_HELP}",
    )
    play.add_argument(
        "--pace",
        type=float,
        default=None,
        metavar="SECONDS",
        help="pause between AI actions (default 0.35)",
    )
    play.add_argument("--step", action="store_true", help="GM mode: each AI action waits for Space")
    add_style_option(play)

    sim = sub.add_parser("sim", help="play fights headless, AI on every side")
    sim.add_argument(
        "encounter", metavar="NAME|FILE", help="bundled name (default, mirror, ...) or a file"
    )
    sim.add_argument("--runs", type=int, default=100, help="how many fights (default: 100)")
    sim.add_argument(
        "--seed", type=int, default=1, help="the first fight's seed; run i uses SEED+i (default 1)"
    )
    sim.add_argument("--jobs", type=int, default=None, help="processes (default: all cores)")
    sim.add_argument(
        "--policy",
        type=_policy_arg,
        action="append",
        default=[],
        metavar="SIDE=POLICY",
        help="the AI that plays a side: naive, or a tactical configuration (tactical, the "
        "default; classic; exposure-x2; ...: docs/ai.md) (repeatable)",
    )
    sim.add_argument(
        "--swap-sides", action="store_true", help="odd runs swap which side each named policy plays"
    )
    add_style_option(sim)
    sim.add_argument("--ruleset", choices=Rulesets(), metavar="RULESET", help=RULESET_HELP)
    sim.add_argument(
        "--dice",
        type=_dice_arg,
        default=None,
        metavar="20,3,...",
        help="dice faces to use first (only with --runs 1)",
    )
    sim.add_argument(
        "--log-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="write each fight's combat log as JSON Lines here",
    )
    sim.add_argument("--json", action="store_true", help="machine-readable summary")

    check = sub.add_parser("check", help="validate content files (all bundled if none given)")
    check.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="content files (encounters or libraries); none: every bundled file",
    )

    lst = sub.add_parser("list", help="list the bundled encounters")
    lst.add_argument(
        "--creatures",
        metavar="NAME|FILE",
        default=None,
        help="list this encounter's creatures instead: id, name, side, who plays it",
    )
    cli_import.add_parser(sub)
    cli_saves.add_parsers(sub)
    cli_compile.add_parser(sub)
    if command is not None and command not in sub.choices:
        from tui.table import cli as table_cli  # light: argparse only until a command runs

        table_cli.add_parsers(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    compiled.activate()  # before anything imports the engine (tui.compiled)
    words = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(words[0] if words else None).parse_args(words)
    try:
        return _main(args)
    except BrokenPipeError:
        # The reader went away (`skirmish list | head -1`): end quietly, as `cat` would. Point
        # stdout at /dev/null so that the interpreter's last flush can't fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


def _main(args: argparse.Namespace) -> int:
    try:
        if args.command == "sim":
            _import_content_errors()
            return cmd_sim(args)
        if args.command == "check":
            return cmd_check(args.files)
        if args.command == "list":
            return cmd_list(args.creatures)
        if args.command in ("host", "join"):
            from tui.table import cli as table_cli

            return table_cli.run(args)
        if args.command == "import":
            return cli_import.cmd_import(args)
        if args.command == "compile":
            return cli_compile.cmd_compile(args)
        if getattr(args, "func", None) is not None:  # resume, replay, export
            return cli_saves.run(args)
        from tui.launch import launch

        return launch(args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        if _content_errors(exc):
            print(clean(str(exc), newlines=True), file=sys.stderr)
            return 1
        raise


def cmd_check(files: list[str]) -> int:
    from engine.content.bundled import bundled_files, check_files, notes_for

    targets = files or bundled_files()
    errors = check_files(targets)
    if not errors:
        for note in notes_for(targets):
            print(clean(note))
    for err in errors:
        print(clean(str(err), newlines=True))
    if errors:
        bad = len({e.file for e in errors})
        print(f"{plural(len(errors), 'error')} in {plural(bad, 'file')}", file=sys.stderr)
        return 1
    print(f"{plural(len(targets), 'file')} OK")
    return 0


def cmd_list(creatures: str | None = None) -> int:
    from engine.content.bundled import bundled_encounters

    if creatures is not None:
        return cmd_creatures(creatures)
    rows = bundled_encounters()
    width = max((cells(clean(r.name)) for r in rows), default=4)
    for r in rows:
        size = f"{r.width}x{r.height}"
        print(f"{pad(r.name, width)}  {size:>7}  {pad(r.ruleset, 6)}  {clean(r.description)}")
    return 0


def cmd_creatures(source: str) -> int:
    """`skirmish list --creatures NAME`: the ids `--control` takes, with name, side and who
    plays each by default."""
    from engine.content.loader import load_encounter

    try:
        loaded = load_encounter(source)
    except ValueError as exc:
        if _content_errors(exc):
            raise
        print(f"skirmish list: {exc}", file=sys.stderr)
        return 2
    rows = [
        (cd.id, cd.name or loaded.creatures[cd.creature].name, cd.side, loaded.control(cd))
        for cd in loaded.spec.combatants
    ]
    w_id = max(len("id"), *(len(r[0]) for r in rows))
    w_name = max(len("name"), *(len(r[1]) for r in rows))
    w_side = max(len("side"), *(len(r[2]) for r in rows))
    print(f"{'id':<{w_id}}  {'name':<{w_name}}  {'side':<{w_side}}  played by")
    for cid, name, side, ctl in rows:
        print(f"{cid:<{w_id}}  {name:<{w_name}}  {side:<{w_side}}  {ctl}")
    return 0


def cmd_sim(args: argparse.Namespace) -> int:
    """Play `--runs` fights headless (AI on every side) and print the summary. Ctrl-C stops
    the fights (no worker left behind), says so in one line and sums up those that finished
    (exit status 130)."""
    from ai.sim import Interrupted, default_jobs, run_many, summarize
    from engine.content.loader import load_encounter
    from engine.rulesets import get_ruleset

    if (problem := _sim_args_problem(args)) is not None:
        print(f"skirmish sim: {problem}", file=sys.stderr)
        return 2
    try:
        if args.ruleset:
            get_ruleset(args.ruleset)
        loaded = load_encounter(args.encounter, args.ruleset)  # fail early, before any process
    except ValueError as exc:
        if isinstance(exc, ContentErrors):
            raise
        print(clean(f"skirmish sim: {exc}", newlines=True), file=sys.stderr)
        return 2
    sides = list(dict.fromkeys(c.side for c in loaded.spec.combatants))
    named = dict(args.policy)
    styles, problem = styles_by_side(args.ai_style, sides)
    if problem is None:  # before the log folder is made: a bad option leaves no file
        problem = _sim_sides_problem(args, sides, named)
    if problem is not None:
        print(clean(f"skirmish sim: {problem}"), file=sys.stderr)  # one line, no file left
        return 2
    jobs = _sim_jobs(args, sides, named, styles)
    workers = args.jobs if args.jobs is not None else default_jobs()
    t0 = time.perf_counter()
    show = not args.json and sys.stderr.isatty() and args.runs >= 20
    stopped: Interrupted | None = None
    try:
        results = run_many(jobs, workers, progress(args.runs) if show else None)
    except OSError as exc:  # a log that can't be written (a full disk): one line
        print(f"skirmish sim: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except Interrupted as exc:  # Ctrl-C: the workers are gone; sum up what finished
        stopped, results = exc, exc.results
    if show:
        print(file=sys.stderr)
    if stopped is not None:
        print(f"skirmish sim: {stopped}", file=sys.stderr)
        if not results:
            return 130
    summary = summarize(
        results, sides, time.perf_counter() - t0, by_policy=args.swap_sides or bool(named)
    )
    summary["reproduce"] = reproduce_record(args, loaded.spec.ruleset, named, sides, styles)
    summary["reproduce"]["content_hash"] = loaded.content_hash
    if stopped is not None:
        summary["interrupted"] = True  # `runs` says how many of `reproduce.runs` finished
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(clean(format_summary(args.encounter, summary, sides), newlines=True))
    return 0 if stopped is None else 130


def _sim_args_problem(args: argparse.Namespace) -> str | None:
    """What's wrong with `skirmish sim`'s numbers, before anything is loaded (or None)."""
    if args.runs < 1:
        return "--runs must be at least 1"
    if args.jobs is not None and args.jobs < 1:
        return "--jobs must be at least 1"
    if args.dice and args.runs != 1:
        return "--dice replays one fight: use it with --runs 1"
    return None


def _sim_sides_problem(
    args: argparse.Namespace, sides: list[str], named: dict[str, str]
) -> str | None:
    """What doesn't fit the encounter's sides, or a `--log-dir` that can't hold logs."""
    from ai.sim import prepare_log_dir

    unknown = [s for s in named if s not in sides]
    if unknown:
        return f"no side {unknown[0]!r} in {args.encounter} (sides: {', '.join(sides)})"
    if args.swap_sides and len(sides) != 2:
        return "--swap-sides needs an encounter with two sides"
    if args.log_dir is not None:
        return prepare_log_dir(args.log_dir)
    return None


def _sim_jobs(
    args: argparse.Namespace,
    sides: list[str],
    named: dict[str, str],
    styles: dict[str, StylePick] | None = None,
) -> list[Job]:
    """One job per run: run i plays seed SEED + i, sides swapped on odd runs if asked (the
    `--ai-style` choices stay with their side)."""
    from ai.sim import Job

    jobs = []
    for i in range(args.runs):
        pol = {s: named.get(s, "tactical") for s in sides}
        if args.swap_sides and i % 2 == 1:
            a, b = sides
            pol = {a: pol[b], b: pol[a]}
        jobs.append(
            Job(
                args.encounter,
                i,
                args.seed + i,
                pol,
                args.ruleset,
                str(args.log_dir) if args.log_dir else None,
                tuple(args.dice) if args.dice else None,
                styles or None,
            )
        )
    return jobs


def reproduce_record(
    args: argparse.Namespace,
    ruleset: str,
    named: dict[str, str],
    sides: list[str],
    styles: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What a `--json` file needs to say to be rerun alone: the encounter, the ruleset in
    force, the first seed (run i uses seed + i), the runs and who played what, and the
    command line that does it again."""
    policies = {s: named.get(s, "tactical") for s in sides}
    cmd = ["skirmish", "sim", args.encounter, "--runs", str(args.runs), "--seed", str(args.seed)]
    cmd += ["--ruleset", ruleset]
    for side, pol in policies.items():
        cmd += ["--policy", f"{side}={pol}"]
    styled = style_texts(styles or {})
    for text in styled:
        cmd += ["--ai-style", text]
    if args.swap_sides:
        cmd.append("--swap-sides")
    if args.dice:
        cmd += ["--dice", ",".join(str(d) for d in args.dice)]
    return {
        "encounter": args.encounter,
        "ruleset": ruleset,
        "first_seed": args.seed,
        "runs": args.runs,
        "policies": policies,
        "swap_sides": bool(args.swap_sides),
        "ai_style": styled,
        "dice": list(args.dice) if args.dice else None,
        "command": " ".join(cmd),
    }


def format_summary(name: str, s: dict[str, Any], sides: list[str]) -> str:
    """The human summary: wins per side with a 95% interval, rounds, AI decision times, and
    per creature the damage dealt and taken and how often it dropped."""
    lines = [f"{name}: {plural(s['runs'], 'fight')} in {s['elapsed_s']:.1f} s"]
    for side in [*sides, "draw"]:
        lo, hi = s["win_ci95"][side]
        n = s["wins"][side]
        label, count = (
            ("draws", f"{n:>5}     ")
            if side == "draw"
            else (side, f"{n:>5} {'win ' if n == 1 else 'wins'}")
        )
        lines.append(
            f"  {label:<10} {count}  {100 * s['win_rate'][side]:5.1f}%"
            f"  (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
        )
    by_policy = s.get("wins_by_policy")
    if by_policy:
        runs = max(1, s["runs"])
        parts = [f"{pol} {n} ({100 * n / runs:.1f}%)" for pol, n in by_policy.items()]
        lines.append("  by policy: " + ", ".join(parts))
    lines.append(f"  rounds: mean {s['mean_rounds']:.1f}, sd {s['stdev_rounds']:.1f}")
    if s["decisions"]:
        d = s["decision_ms"]
        lines.append(
            f"  AI decisions: {s['decisions']}, p50 {d['p50']:.2f} ms, "
            f"p95 {d['p95']:.2f} ms, max {d['max']:.2f} ms"
        )
    lines.append(f"  {'creature':<16} {'dealt':>7} {'taken':>7} {'dropped':>8}")
    for cid, row in s["creatures"].items():
        lines.append(
            f"  {cid:<16} {row['damage_dealt']:7.1f} {row['damage_taken']:7.1f} "
            f"{100 * row['drop_rate']:7.0f}%"
        )
    if s["illegal_actions"]:
        lines.append(f"  WARNING: {plural(s['illegal_actions'], 'illegal action')} refused")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
