"""Content fuzzer: mutated copies of the bundled YAML files through the checker, the loader and
a short simulated fight, looking for crashes, hangs and memory blow-ups (issue 17, "Content").

Each case is (bundled file, seed): the mutation is rebuilt from the seed in the worker, so a
failure is reproducible (`--case FILE SEED` runs one case here and prints what happened).
Mutations: raw bytes and control characters, deleted and repeated spans and lines, broken
indentation, hostile scalars (bad explicit tags, huge numbers, escapes, bidi overrides, long
names, ruinous dice), billion-laughs aliases, recursive merges, deep nesting, enlarged maps,
multiplied combatants, creatures stripped of their powers. A case passes when the file is
accepted, or refused with `file:line: field: message` errors that are printable one-liners.

    python tests/soak/fuzz_content.py --cases 10000      (prints the report; exit 1 on failures)
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.soak.fuzzlib import fuzz

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"

HOSTILE = [
    "!!float y",
    "!!bool maybe",
    "!!int x",
    "!!timestamp 2001-13-45",
    "!!binary x",
    "!!python/object/apply:os.system ['true']",
    "~",
    "[]",
    "{}",
    "-1",
    "99999999999999999999999999",
    "1e309",
    ".nan",
    '"\\e[2J\\e]0;pwned\\a"',
    '"\\u202eevil"',
    '"zero\\u200bwidth"',
    '"[bold]Gob[/]"',
    "'" + "A" * 300 + "'",
    "&a [1, 2]",
    "*nowhere",
    "+".join(["200d1000"] * 6),
    "200d1000",
    "1d1000+1d1000+1d1000+1d1000+1d1000+1d1000+1d1000",
    "[" * 300 + "]" * 300,
    "&x {<<: *x}",
    '"' + "x" * 5000 + '"',
    "0",
    "true",
    "=",
]
UNICODE = ["\u202e", "\u200b", "\U0001f600", "\ufeff", "\u0085", "\u2028", "é", "\x9b", "\x1b"]


def _insert_byte(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text) + 1)
    c = rng.choice(["\x00", "\x1b", "\x7f", "\x9b", "\t", "\r", "\x07", "\x08", "\x0c", *UNICODE])
    return text[:i] + c + text[i:]


def _delete_span(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + text[i + rng.randint(1, 40) :]


def _lines(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    how = rng.randrange(4)
    if how == 0:
        lines.insert(i, lines[j])
    elif how == 1:
        lines[i], lines[j] = lines[j], lines[i]
    elif how == 2:
        del lines[i]
    else:
        lines[i] = " " * rng.randint(0, 7) + lines[i].lstrip()
    return "\n".join(lines)


def _hostile_value(text: str, rng: random.Random) -> str:
    spots = [m.end() for m in re.finditer(r": ", text)]
    if not spots:
        return text
    i = rng.choice(spots)
    end = text.find("\n", i)
    end = len(text) if end < 0 else end
    if rng.random() < 0.5:  # inside a flow mapping, replace only up to the next , or }
        stop = min((p for p in (text.find(",", i), text.find("}", i)) if 0 <= p < end), default=end)
        end = stop
    return text[:i] + rng.choice(HOSTILE) + text[end:]


def _laughs(text: str, rng: random.Random) -> str:
    lines = ["lol0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    for k in range(1, rng.randint(3, 9)):
        lines.append(f"lol{k}: &l{k} [" + ", ".join([f"*l{k - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n" + text


def _deep(text: str, rng: random.Random) -> str:
    n = rng.choice([50, 200, 1000, 5000])
    if rng.random() < 0.5:
        return "deep: " + "[" * n + "]" * n + "\n" + text
    return text + "\n" + "".join("  " * k + f"k{k}:\n" for k in range(n // 10))


def _big_map(text: str, rng: random.Random) -> str:
    m = re.search(r"grid: \|\n((?:[ ]+\S.*\n)+)", text)
    if m is None:
        return text
    rows = m.group(1).split("\n")[:-1]
    k = rng.choice([2, 5, 20, 60])
    indent = re.match(r"\s*", rows[0]).group(0)  # type: ignore[union-attr]
    wide = [indent + r.strip() * (k if rng.random() < 0.5 else 1) for r in rows]
    grid = "\n".join(wide * (k if rng.random() < 0.7 else 1)) + "\n"
    return text[: m.start(1)] + grid + text[m.end(1) :]


def _many_combatants(text: str, rng: random.Random) -> str:
    m = re.search(r"\ncombatants:\n((?:  - .*\n)+)", text)
    if m is None:
        return text
    k = rng.choice([5, 50, 400])
    return text[: m.end()] + m.group(1) * k + text[m.end() :]


def _no_powers(text: str, rng: random.Random) -> str:
    return re.sub(r"powers: \[[^\]]*\]", "powers: []", text)


def _ruinous_dice(text: str, rng: random.Random) -> str:
    return re.sub(r"\b\d*d(4|6|8|10|12|20)\b", lambda _m: rng.choice(HOSTILE[20:23]), text)


def _truncate(text: str, rng: random.Random) -> str:
    return text[: rng.randrange(len(text) + 1)]


def _blank(text: str, rng: random.Random) -> str:
    return rng.choice(["", "~\n", "# nothing\n", "\n\n", "---\n...\n", "a: 1\n---\nb: 2\n"])


MUTATORS = [
    (_insert_byte, 10),
    (_delete_span, 6),
    (_lines, 10),
    (_hostile_value, 20),
    (_laughs, 2),
    (_deep, 2),
    (_big_map, 3),
    (_many_combatants, 2),
    (_no_powers, 2),
    (_ruinous_dice, 3),
    (_truncate, 2),
    (_blank, 1),
]


def mutate(text: str, rng: random.Random) -> str:
    funcs = [f for f, _ in MUTATORS]
    weights = [w for _, w in MUTATORS]
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        text = rng.choices(funcs, weights)[0](text, rng)
    return text


def files() -> list[str]:
    return sorted(str(p.relative_to(MAPS)) for p in MAPS.rglob("*.yaml"))


def _bad_error(e: object) -> str | None:
    from engine.content.errors import ContentError

    assert isinstance(e, ContentError)
    shown = str(e)
    if "\n" in shown or not shown.isprintable():
        return f"error text not one printable line: {shown[:80]!r}"
    if ":?:" in shown:
        return "error without a line (file:?:)"
    if e.line is None and e.field != "(file)":
        return f"error without a line: {shown[:80]}"
    return None


def run(case: tuple[str, int, bool]) -> str | None:
    """One case; None when the loader behaved (see the module docstring)."""
    from engine.content import ContentErrors, load_encounter
    from engine.content.bundled import check_files

    rel, seed, simulate = case
    text = mutate((MAPS / rel).read_text(encoding="utf-8"), random.Random(seed))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / Path(rel).name
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        for e in check_files([path]):
            if (bad := _bad_error(e)) is not None:
                return bad
        if not rel.startswith("encounters/"):
            return None
        try:
            loaded = load_encounter(path)
        except ContentErrors as exc:
            return next((b for e in exc.errors if (b := _bad_error(e)) is not None), None)
        if simulate:
            short_fight(loaded, seed)
    return None


def short_fight(loaded, seed: int, actions: int = 40) -> None:  # type: ignore[no-untyped-def]
    """A few AI turns of the accepted encounter (the tactical AI's odds, movement graph)."""
    from ai.sim import make_policy, prewarm
    from engine.actions import EndTurn, Impossible
    from engine.encounter import Encounter

    prewarm(loaded)
    sides = list(dict.fromkeys(c.side for c in loaded.spec.combatants))
    enc = Encounter.create(loaded, seed=seed, control={s: "ai" for s in sides})
    policy = make_policy("tactical" if seed % 2 else "naive")
    enc.start()
    for _ in range(actions):
        c = enc.current
        if enc.over or c is None:
            return
        choice = policy.next_action(enc)
        try:
            enc.apply(choice.action, choice.decision)
        except Impossible:
            enc.apply(EndTurn())


def cases(count: int, seed: int, sim_every: int = 33) -> list[tuple[str, int, bool]]:
    names = files()
    rng = random.Random(seed)
    return [(rng.choice(names), rng.randrange(2**31), i % sim_every == 0) for i in range(count)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=None, help="start no case after this")
    parser.add_argument("--case", nargs=2, metavar=("FILE", "SEED"), help="run one case here")
    args = parser.parse_args(argv)
    if args.case:
        print(run((args.case[0], int(args.case[1]), True)) or "ok")
        return 0
    report = fuzz(
        run,
        cases(args.cases, args.seed),
        workers=args.workers,
        progress=True,
        budget_s=None if args.minutes is None else args.minutes * 60,
    )
    print(report.line("fuzz_content"))
    for line in report.details():
        print(line)
    return 0 if not report.crashes and not report.hangs and not report.memory else 1


if __name__ == "__main__":
    sys.exit(main())
