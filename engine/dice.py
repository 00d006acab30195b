"""Dice expressions and the sources that supply die faces.

Every random number in Skirmish passes through here, so that one seam decides
whether a fight is reproducible (seeded), scripted (tests, replays), or rolled
at the table by a person (manual). The rules engine only ever asks a
`DiceSource` for a face, and keeps the faces each action used, which is what
makes a replay exact.

Expressions are parsed once and cached: the engine resolves tens of thousands
of attacks a second and must not re-read "2d6+3" each time.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import accumulate
from random import Random
from typing import Protocol

from engine.events import quick_constructor

# Limits on what text may ask for. They exist to catch typos ("2d600" for
# "2d6+00") and to keep `distribution()` tractable, not to model any game rule.
MAX_COUNT = 200
MAX_SIDES = 1000
EXACT_WORK = 20_000
"""Table cells the exact odds may add up (about 10 ms); beyond it `prob_at_least` uses the
normal approximation, so that valid but huge dice (`200d1000+200d1000+...`, 53 characters)
cost microseconds instead of minutes and gigabytes. Every bundled power is far below it."""
_DIGITS = "0123456789"
_SPACE = " \t"


class DiceError(ValueError):
    """A dice expression (or a scripted face) that cannot be used."""


class DiceExhausted(ValueError):
    """A scripted source ran out of faces and had nothing to fall back on."""


class InvalidFace(ValueError):
    """A person (via the UI) supplied a face the die does not have."""


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """`count` dice of `sides` sides, added (sign +1) or subtracted (sign -1)."""

    count: int
    sides: int
    sign: int = 1

    def __post_init__(self) -> None:
        # Structural checks only; the text limits live in the parser, so that
        # times() may legitimately build e.g. 4 x 60d6 for a huge critical.
        if self.count < 1 or self.sides < 2 or self.sign not in (1, -1):
            raise ValueError(
                f"impossible dice term {self.count}d{self.sides} sign {self.sign}: "
                "needs count >= 1, sides >= 2 and sign +1 or -1"
            )

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A sum of dice terms plus a constant, e.g. 1d8+1d6-1."""

    terms: tuple[DiceTerm, ...]
    constant: int = 0

    @classmethod
    def parse(cls, text: str, weapon: DiceExpr | None = None) -> DiceExpr:
        """Read `text`; `n[W]` means n times `weapon`'s dice (its constant is not used)."""
        return _parse_cached(text, weapon)

    def __str__(self) -> str:
        text = "".join(f"{'+' if t.sign > 0 else '-'}{t}" for t in self.terms)
        if self.constant or not text:
            text += f"{self.constant:+d}"
        return text.removeprefix("+")

    def max(self) -> int:
        return self.constant + sum(t.count * (t.sides if t.sign > 0 else -1) for t in self.terms)

    def min(self) -> int:
        return self.constant + sum(t.count * (1 if t.sign > 0 else -t.sides) for t in self.terms)

    def mean(self) -> float:
        # Summed apart from the constant: compiled by mypyc (tests/benchmarks/bench_compiled.py),
        # `int + sum(floats)` is typed int and fails at run time.
        spread = sum(t.sign * t.count * (t.sides + 1) / 2 for t in self.terms)
        return self.constant + spread

    def distribution(self) -> dict[int, float]:
        """Exact probability of each possible total; the values sum to 1. DiceError if the
        table is beyond `EXACT_WORK` (`prob_at_least` still answers, approximately)."""
        norm = self.normalized()
        if not norm.exact_odds:
            raise DiceError(f"{self} has too many outcomes for an exact table")
        low, probs, _ = _table(norm)
        return {low + i: p for i, p in enumerate(probs)}

    @property
    def exact_odds(self) -> bool:
        """Does `prob_at_least` compute exact odds (else the normal approximation)?"""
        return _work(self.normalized()) <= EXACT_WORK

    def prob_at_least(self, n: int) -> float:
        """P(total >= n): exact within `EXACT_WORK`, else the normal approximation (with a
        continuity correction; exactly 1 at or below the minimum and 0 above the maximum)."""
        norm = self.normalized()
        if _work(norm) > EXACT_WORK:
            return _approx_at_least(norm, n)
        low, _, at_least = _table(norm)
        index = n - low
        if index <= 0:
            return 1.0
        return at_least[index] if index < len(at_least) else 0.0

    def normalized(self) -> DiceExpr:
        """Like terms merged (2d6+1d6 -> 3d6), first appearance first; 2d6-1d6 stays."""
        counts: dict[tuple[int, int], int] = {}
        for t in self.terms:
            key = (t.sides, t.sign)
            counts[key] = counts.get(key, 0) + t.count
        if len(counts) == len(self.terms):
            return self
        merged = tuple(DiceTerm(c, sides, sign) for (sides, sign), c in counts.items())
        return DiceExpr(merged, self.constant)

    def plus(self, other: DiceExpr) -> DiceExpr:
        return DiceExpr(self.terms + other.terms, self.constant + other.constant)

    def with_constant(self, k: int) -> DiceExpr:
        return DiceExpr(self.terms, self.constant + k)

    def times(self, n: int) -> DiceExpr:
        """Dice multiplied by `n`, constant kept once (d20srd critical multipliers)."""
        if n < 1:
            raise ValueError(f"can only multiply dice by a positive count, got {n}")
        dice = tuple(DiceTerm(t.count * n, t.sides, t.sign) for t in self.terms)
        return DiceExpr(dice, self.constant)

    def dice_count(self) -> int:
        return sum(t.count for t in self.terms)

    @property
    def has_dice(self) -> bool:
        return bool(self.terms)


# Made on every damage expression and its constant: a quick __init__ (engine.events).
# Not a class decorator: mypyc compiles a decorated class as a plain Python class.
quick_constructor(DiceExpr)


class _Parser:
    """Hand-written scanner: a regex alone cannot say *where* the text went wrong."""

    __slots__ = ("pos", "s", "terms", "text", "weapon")

    def __init__(self, text: str, weapon: DiceExpr | None) -> None:
        self.text, self.weapon, self.pos = text, weapon, 0
        self.s = text + "\0"  # a sentinel, so peeking past the end needs no bounds check
        self.terms: list[DiceTerm] = []

    def fail(self, why: str, pos: int | None = None) -> DiceError:
        column = (self.pos if pos is None else pos) + 1
        return DiceError(f"bad dice expression {self.text!r}: {why} at column {column}")

    def skip(self, chars: str) -> str:
        start = self.pos
        while self.s[self.pos] in chars:
            self.pos += 1
        return self.s[start : self.pos]

    def number(self) -> int | None:
        start, digits = self.pos, self.skip(_DIGITS)
        if len(digits) > 7:
            raise self.fail("number is too long", start)
        return int(digits) if digits else None

    def parse(self) -> DiceExpr:
        constant = 0
        self.skip(_SPACE)
        # One leading sign is allowed: str() writes "-1d6+2".
        op = self.s[self.pos] if self.s[self.pos] in "+-" else ""
        while True:
            if op:
                self.pos += 1
                self.skip(_SPACE)
            constant += self.term(-1 if op == "-" else 1, op)
            self.skip(_SPACE)
            if self.pos == len(self.text):
                return DiceExpr(tuple(self.terms), constant)
            op = self.s[self.pos]
            if op not in "+-":
                raise self.fail(f"expected '+' or '-' but found {op!r}")

    def term(self, sign: int, after: str) -> int:
        """Read one term: dice go to self.terms, a constant is returned."""
        start, count = self.pos, self.number()
        c = self.s[self.pos].lower()
        n = 1 if count is None else count
        if c == "d":
            self.pos += 1
            sides = self.number()
            if sides is None:
                raise self.fail("expected a number of sides after 'd'")
            if not 2 <= sides <= MAX_SIDES:
                raise self.fail(f"a die needs 2..{MAX_SIDES} sides, got {sides}", start)
            if not 1 <= n <= MAX_COUNT:
                raise self.fail(f"dice count must be 1..{MAX_COUNT}, got {n}", start)
            self.terms.append(DiceTerm(n, sides, sign))
        elif c == "[":
            self.pos += 1
            if self.s[self.pos].lower() != "w":
                raise self.fail("expected 'W' after '['")
            self.pos += 1
            if self.s[self.pos] != "]":
                raise self.fail("expected ']' to close '[W'")
            self.pos += 1
            weapon = self.weapon
            if weapon is None or not weapon.has_dice:
                whose = "no weapon was given" if weapon is None else f"weapon {weapon} has none"
                raise self.fail(f"[W] needs a weapon's dice but {whose}", start)
            for t in weapon.terms:
                if not 1 <= t.count * n <= MAX_COUNT:
                    raise self.fail(f"{n}[W] of {weapon} needs 1..{MAX_COUNT} dice per term", start)
                self.terms.append(DiceTerm(t.count * n, t.sides, t.sign * sign))
        elif count is not None:
            return sign * count
        else:
            where = f"after {after!r}" if after else "like 2d6, d8, 3 or 2[W]"
            found = "the text ended" if self.pos == len(self.text) else f"found {c!r}"
            raise self.fail(f"expected a dice term {where} but {found}")
        return 0


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str, weapon: DiceExpr | None) -> DiceExpr:
    return _Parser(text, weapon).parse()


@functools.lru_cache(maxsize=1024)
def _work(expr: DiceExpr) -> int:
    """The table cells `_table` would compute: it adds one die at a time to a growing table."""
    size, work = 1, 0
    for t in expr.terms:
        for _ in range(t.count):
            size += t.sides - 1
            work += size
            if work > EXACT_WORK:
                return work
    return work


def _approx_at_least(expr: DiceExpr, n: int) -> float:
    if n <= expr.min():
        return 1.0
    if n > expr.max():
        return 0.0
    var = sum(t.count * (t.sides * t.sides - 1) / 12 for t in expr.terms)
    z = (n - 0.5 - expr.mean()) / math.sqrt(2 * var)
    return min(1.0, max(0.0, 0.5 * math.erfc(z)))


@functools.lru_cache(maxsize=1024)
def _table(expr: DiceExpr) -> tuple[int, tuple[float, ...], tuple[float, ...]]:
    """(lowest total, P(total = low+i), P(total >= low+i)) for a normalized expr."""
    # Count outcomes with exact integers and divide once at the end, so the
    # probabilities carry no accumulated float error.
    low = expr.constant
    ways = [1]
    outcomes = 1
    for t in expr.terms:
        for _ in range(t.count):
            # Adding one die is a sliding-window sum of width `sides`; prefix
            # sums make each die linear in the size of the table.
            low += 1 if t.sign > 0 else -t.sides
            outcomes *= t.sides
            prefix = [0, *accumulate(ways)]
            size = len(ways) + t.sides - 1
            ways = [
                prefix[min(k + 1, len(ways))] - prefix[max(0, k - t.sides + 1)] for k in range(size)
            ]
    at_least = tuple(w / outcomes for w in accumulate(reversed(ways)))[::-1]
    return low, tuple(w / outcomes for w in ways), at_least


@dataclass(frozen=True, slots=True)
class DiceRequest:
    """What a manual source shows a person when it needs a physical die rolled: a question
    whose answer is a face (`check` refuses anything else, as `Question.check` does)."""

    sides: int
    purpose: str
    who: str | None

    def check(self, answer: object) -> int:
        """`answer` as a face of this die; InvalidFace (a ValueError, one line) if it isn't."""
        if type(answer) is not int or not 1 <= answer <= self.sides:
            wanted = f" for {self.purpose}" if self.purpose else ""
            raise InvalidFace(
                f"{answer!r} is not a face of a d{self.sides} (1..{self.sides}){wanted}"
            )
        return answer


class DiceSource(Protocol):
    def roll(self, sides: int, purpose: str = "", who: str | None = None) -> int: ...


class SeededDice:
    """Deterministic faces from a private `random.Random`; the default source."""

    __slots__ = ("_getrandbits", "_randrange", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        # Random() seeds from abs(n), so 5 and -5 would replay the same fight;
        # a zigzag map keeps every int seed distinct.
        rng = Random(seed * 2 if seed >= 0 else -seed * 2 - 1)
        self._randrange = rng.randrange
        self._getrandbits = rng.getrandbits

    def roll(self, sides: int, purpose: str = "", who: str | None = None) -> int:
        # `randrange(sides) + 1` with its two Python frames inlined (every die of every
        # attack): `Random._randbelow_with_getrandbits`, the same draws from the same
        # stream (tests/engine/test_dice.py compares them over many seeds and sides).
        if sides < 1:
            return self._randrange(sides) + 1  # (raises, as randrange does)
        k = sides.bit_length()
        r = self._getrandbits(k)
        while r >= sides:
            r = self._getrandbits(k)
        return r + 1

    def __repr__(self) -> str:
        return f"SeededDice({self.seed})"


class ScriptedDice:
    """Faces given up front, used in order (tests, replays of recorded faces)."""

    __slots__ = ("_faces", "_fallback", "_next")

    def __init__(self, faces: Iterable[int], fallback: DiceSource | None = None) -> None:
        self._faces, self._fallback, self._next = list(faces), fallback, 0

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._next

    def roll(self, sides: int, purpose: str = "", who: str | None = None) -> int:
        i = self._next
        if i >= len(self._faces):
            if self._fallback is not None:
                return self._fallback.roll(sides, purpose, who)
            why = f"no face left for a d{sides}" + (f" for {purpose}" if purpose else "")
            raise DiceExhausted(f"scripted dice ran out after {len(self._faces)} faces: {why}")
        face = self._faces[i]
        if not 1 <= face <= sides:
            # A bad script is a bug to fix, not a roll to skip: leave the face unconsumed.
            raise DiceError(f"scripted face #{i} is {face}, which a d{sides} cannot roll")
        self._next = i + 1
        return face


class ManualDice:
    """Asks a person (through the UI) for each face: table play with real dice."""

    __slots__ = ("_ask",)

    def __init__(self, ask: Callable[[DiceRequest], int]) -> None:
        self._ask = ask

    def roll(self, sides: int, purpose: str = "", who: str | None = None) -> int:
        request = DiceRequest(sides, purpose, who)
        # The UI validates before answering; this is the last guard before a
        # typo becomes a 37 on a d20.
        return request.check(self._ask(request))


class RecordingDice:
    """Passes rolls through to another source and remembers the faces.

    `faces`/`log` hold only what was rolled since the last take(), so a long soak stays small.

    Table play: a source that can tell a typed face from one the app rolled says so with
    `reports_typed = True` and sets `last_typed` after each roll (a bool). Then `typed` holds
    the indices (in `faces`) of the faces a person typed, and `pending` the origin of each
    face not yet read by an event (`engine.battle.Battle.emit` attaches it to the event that
    reads the roll). A source that offers `explains = True` wants each roll's purpose to say
    what is needed (`Battle.d20`'s hint): a person is about to roll."""

    __slots__ = (
        "_bits",
        "_inner",
        "_reports",
        "explains",
        "faces",
        "log",
        "pending",
        "quiet",
        "typed",
        "typed_taken",
    )

    def __init__(self, inner: DiceSource) -> None:
        self._inner = inner
        self._reports = bool(getattr(inner, "reports_typed", False))
        self.explains = bool(getattr(inner, "explains", False))
        self.quiet = type(inner) is SeededDice
        """Nobody reads a roll's purpose (the seeded source draws without it): the hot paths
        (`engine.powers`) leave it unwritten. Scripted dice name it when they run out, a
        person reads it."""
        self._bits = inner._getrandbits if type(inner) is SeededDice else None
        """The seeded source's bit draw: its `roll` is done here, one frame fewer a die."""
        self.faces: list[int] = []
        self.log: list[tuple[int, int]] = []
        self.typed: list[int] = []
        self.typed_taken: tuple[int, ...] = ()
        self.pending: list[bool] = []

    def roll(self, sides: int, purpose: str = "", who: str | None = None) -> int:
        bits = self._bits
        if bits is not None and sides >= 1:  # `SeededDice.roll`, inlined: the same draws
            k = sides.bit_length()
            r = bits(k)
            while r >= sides:
                r = bits(k)
            face = r + 1
        else:
            face = self._inner.roll(sides, purpose, who)
        self.faces.append(face)
        self.log.append((sides, face))
        if self._reports:
            typed = bool(getattr(self._inner, "last_typed", False))
            if typed:
                self.typed.append(len(self.faces) - 1)
            self.pending.append(typed)
        return face

    def take(self) -> list[int]:
        """The faces since the last take (`typed_taken`: which of them were typed)."""
        taken, self.faces, self.log = self.faces, [], []
        self.typed_taken, self.typed = tuple(self.typed), []
        return taken

    def origin(self) -> str | None:
        """Who rolled the faces no event has read yet ("table", "app" or "mixed"; None when
        the source doesn't tell), and forget them."""
        pending = self.pending
        if not pending:
            return None
        out = "table" if all(pending) else "app" if not any(pending) else "mixed"
        pending.clear()
        return out


_Routes = Mapping[str, DiceSource] | Callable[[str], DiceSource | None]


class RoutedDice:
    """Sends each roll to its roller's source (table mode: one side rolls real dice)."""

    __slots__ = ("_default", "_lookup")

    def __init__(self, default: DiceSource, by_who: _Routes) -> None:
        self._default = default
        # A mapping is looked up live (not copied), so creatures may change hands mid-fight.
        self._lookup = by_who.get if isinstance(by_who, Mapping) else by_who

    def roll(self, sides: int, purpose: str = "", who: str | None = None) -> int:
        source = self._lookup(who) if who is not None else None
        if source is None:
            source = self._default
        return source.roll(sides, purpose, who)


@dataclass(frozen=True, slots=True)
class Roll:
    """One rolled expression; `faces` lets the engine store and replay it."""

    expr: DiceExpr
    faces: tuple[int, ...]  # in term order; subtracted terms' faces appear as rolled
    total: int


# One per damage roll: a quick __init__ (engine.events). Not a class decorator: mypyc
# compiles a decorated class as a plain Python class.
quick_constructor(Roll)


def roll(
    expr: DiceExpr,
    source: DiceSource,
    purpose: str = "",
    who: str | None = None,
    maximize: bool = False,
) -> Roll:
    """Roll `expr`; `maximize` rolls nothing and takes the maximum (ffd20 criticals)."""
    if maximize:
        return Roll(expr, (), expr.max())
    total, faces = draw(expr, source, purpose, who)
    return Roll(expr, faces, total)


def draw(
    expr: DiceExpr, source: DiceSource, purpose: str = "", who: str | None = None
) -> tuple[int, tuple[int, ...]]:
    """The faces of `expr` drawn from `source`, term by term in order, and their total with
    the constant: `roll` without the `Roll` (the plain strike, `engine.strike`)."""
    faces: list[int] = []
    total = expr.constant
    take = source.roll
    for t in expr.terms:
        subtotal = 0
        for _ in range(t.count):
            face = take(t.sides, purpose, who)
            faces.append(face)
            subtotal += face
        total += subtotal if t.sign > 0 else -subtotal
    return total, tuple(faces)


def d20(source: DiceSource, purpose: str = "", who: str | None = None) -> int:
    return source.roll(20, purpose, who)
