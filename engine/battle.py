"""The state of one fight and the plumbing every rule needs: events, dice, questions, geometry.

`Battle` holds the combatants, the initiative order, the round and turn, the active effects,
the dice source and the log. Rules modules (`engine.hp`, `engine.effects`, `engine.attacks`,
`engine.powers`, `engine.movement`, `engine.turns`) are functions over a `Battle`; the public
façade is `engine.encounter.Encounter`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import fields
from operator import is_
from typing import Any, TypeVar

from engine.conditions import BY_NAME, ConditionInfo
from engine.decisions import AutoDecider, Decider, Question, check_answer
from engine.dice import DiceExpr, DiceSource, RecordingDice, Roll, roll
from engine.events import ROLL_EVENTS, Event, Logged
from engine.grid import BattleMap, Occupancy, Occupant, footprint
from engine.rulesets import Ruleset
from engine.state import STANDING, ActiveEffect, Combatant

Square = tuple[int, int]
T = TypeVar("T")


FLAGS = tuple(f.name for f in fields(ConditionInfo) if f.default is False)
"""The condition flags (`grants_ca`, `no_actions`, ...) that `Battle.flag` answers."""
FLAGS_OF = {n: frozenset(f for f in FLAGS if getattr(info, f)) for n, info in BY_NAME.items()}
"""Each condition's flags."""


class EffectTable(dict[str, ActiveEffect]):
    """The active effects by id. `version` changes with every change to the table, and
    `target_version[cid]` with every change to the effects on creature `cid` (both only ever
    grow), so what is derived from the effects on a creature (its conditions) can be cached
    without going stale, and without going stale when another creature's effects change."""

    def __init__(self) -> None:
        super().__init__()
        self.version = 0
        self.target_version: dict[str, int] = {}

    def _touch(self, key: str) -> None:
        """The effect `key`, if there is one, is about to change: its target's version moves."""
        old = dict.get(self, key)
        if old is not None:
            tv = self.target_version
            tv[old.target] = tv.get(old.target, 0) + 1

    def _touch_target(self, target: str) -> None:
        tv = self.target_version
        tv[target] = tv.get(target, 0) + 1

    def __setitem__(self, key: str, value: ActiveEffect) -> None:
        self.version += 1
        self._touch(key)
        self._touch_target(value.target)
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        self.version += 1
        self._touch(key)
        super().__delitem__(key)

    def pop(self, key: str, *default: Any) -> Any:
        self.version += 1
        self._touch(key)
        return super().pop(key, *default)

    def popitem(self) -> tuple[str, ActiveEffect]:
        self.version += 1
        key, value = super().popitem()
        self._touch_target(value.target)
        return key, value

    def clear(self) -> None:
        self.version += 1
        for value in self.values():
            self._touch_target(value.target)
        super().clear()

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value  # each through __setitem__ (versions move)
        self.version += 1

    def setdefault(self, key: str, default: Any = None) -> Any:
        self.version += 1
        if key not in self:
            self[key] = default
        return self[key]


class Roster(dict[str, Combatant]):
    """The creatures in the fight by id. `version` grows whenever one joins (a reinforcement
    arrives, the GM adds one) or leaves (the GM removes it), so what is derived from who is in
    the fight (`engine.triggers`' index of triggered powers) is keyed on it."""

    version = 0  # (also on the class: unpickling sets the items before the attributes)

    def __init__(self, combatants: list[Combatant]) -> None:
        super().__init__((c.id, c) for c in combatants)
        self.version = 0

    def __setitem__(self, key: str, value: Combatant) -> None:
        self.version += 1
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        self.version += 1
        super().__delitem__(key)

    def pop(self, key: str, *default: Any) -> Any:
        self.version += 1
        return super().pop(key, *default)

    def popitem(self) -> tuple[str, Combatant]:
        self.version += 1
        return super().popitem()

    def clear(self) -> None:
        self.version += 1
        super().clear()

    def update(self, *args: Any, **kwargs: Any) -> None:
        self.version += 1
        super().update(*args, **kwargs)

    def setdefault(self, key: str, default: Any = None) -> Any:
        self.version += 1
        return super().setdefault(key, default)


class Battle:
    def __init__(
        self,
        bmap: BattleMap,
        combatants: list[Combatant],
        ruleset: Ruleset,
        dice: DiceSource,
        decider_for: Callable[[str], Decider] | None = None,
        round_limit: int = 50,
    ) -> None:
        self.map = bmap
        self.combatants = Roster(combatants)
        self.ruleset = ruleset
        for c in combatants:
            if c.rules is None:
                c.rules = ruleset.new_state(c)
        self.dice = RecordingDice(dice)
        self._decider_for = decider_for or (lambda _cid: AutoDecider())
        self.round_limit = round_limit
        self.log: list[Logged] = []
        self.order: list[str] = []
        self.turn_index = 0
        self.round = 0
        self.turn_counter = 0
        """Counts every turn started in the fight (X-OA-1 limits opportunity attacks by it)."""
        self.current: str | None = None
        self.effects = EffectTable()
        self._cond_cache: dict[
            str, tuple[int, str, bool, bool, bool, tuple[frozenset[str], frozenset[str]]]
        ] = {}
        """`_conditions` by creature: (its effects' version, hit point state, surprised, the
        surprise round, acted, the answer)."""
        self.effect_seq = 0
        self.surprise_round = False
        self.waiting: dict[str, tuple[int, Combatant]] = {}
        """Reinforcements not yet arrived: id -> (the round it arrives, its state)."""
        self.over = False
        self.winner: str | None = None
        self.end_reason: str | None = None
        self.answers: list[Any] = []
        """Answers given to questions while applying the current action (kept for replay)."""
        self.scripted_answers: list[Any] | None = None
        self.spent: dict[str, int] = {}
        self.extra_standard = 0
        self.moved_this_turn = False
        self._occupancy: Occupancy | None = None
        self._occupancy_was: Occupancy | None = None
        """The last occupancy `moved` forgot: a rebuild reuses the entries still true."""
        self._occupancy_plain = False
        """`_occupancy_was` came from `Occupancy.of` (no walker shared a square then): when
        every entry is still true it is the index itself."""
        self._pending: list[Event] = []
        self.passing: str | None = None
        """The creature in the middle of its own move, while other things happen (see
        `occupancy`)."""
        self.memo: dict[Any, Any] = {}
        """Results of pure functions of frozen content, for the hot paths (keys name them)."""
        self.end_pair: tuple[Combatant, Combatant] | None = None
        """Two creatures of different sides that were standing when `engine.turns.check_end`
        last looked: while both stand and are in the fight, the fight goes on (F-TRN-6)."""
        self.fled_sides: set[str] = set()
        """Sides a creature left while still standing (the GM removed it: `engine.gm`); a
        fight they lose ends with reason "fled" (F-TRN-6: fleeing ends an encounter)."""
        self.action_modifiers: dict[str, tuple[Any, ...]] = {}
        """Attack modifiers (`Mod`s) the action in progress gives one creature's every attack
        roll: a d20srd full attack's -5 for each further attack (D-1)."""

    # --- events -------------------------------------------------------------------
    def emit(self, event: Event) -> None:
        log, dice = self.log, self.dice
        by = dice.origin() if dice.pending and event.type in ROLL_EVENTS else None
        log.append(Logged(len(log), self.round, event, by))

    def events_since(self, mark: int) -> list[Logged]:
        return self.log[mark:]

    # --- dice ----------------------------------------------------------------------
    def d20(self, purpose: str, who: str | None, hint: Callable[[], str] | None = None) -> int:
        """`hint`: what the roll needs, for a person rolling it (computed only then)."""
        if hint is not None and self.dice.explains:
            purpose = f"{purpose}: {hint()}"
        return self.dice.roll(20, purpose, who)

    def roll(
        self,
        expr: DiceExpr,
        purpose: str,
        who: str | None,
        maximize: bool = False,
        hint: Callable[[], str] | None = None,
    ) -> Roll:
        if hint is not None and self.dice.explains and not maximize:
            purpose = f"{purpose}: {hint()}"
        return roll(expr, self.dice, purpose, who, maximize)

    # --- questions -----------------------------------------------------------------
    def ask(self, question: Question[T]) -> T:
        """Ask the controller of `question.who`; a replay takes the recorded answer instead.
        The question checks the answer (InvalidAnswer, a ValueError, names what is wrong)."""
        if self.scripted_answers is not None:
            if not self.scripted_answers:
                raise ValueError("the replay has no recorded answer for " + repr(question))
            answer = check_answer(question, self.scripted_answers.pop(0))
        else:
            answer = check_answer(question, self._decider_for(question.who).answer(question))
        self.answers.append(answer)
        return answer

    # --- creatures -----------------------------------------------------------------
    def __getitem__(self, cid: str) -> Combatant:
        return self.combatants[cid]

    def living(self) -> Iterator[Combatant]:
        return (c for c in self.combatants.values() if c.state != "dead")

    def sides(self) -> list[str]:
        seen: dict[str, None] = {}
        for c in self.combatants.values():
            seen.setdefault(c.side, None)
        return list(seen)

    def enemies_of(self, c: Combatant) -> Iterator[Combatant]:
        side = c.side
        return (o for o in self.combatants.values() if o.state != "dead" and o.side != side)

    def allies_of(self, c: Combatant) -> Iterator[Combatant]:
        side, cid = c.side, c.id
        return (
            o
            for o in self.combatants.values()
            if o.state != "dead" and o.side == side and o.id != cid
        )

    def squares(self, c: Combatant) -> tuple[Square, ...]:
        if c.size == 1:  # the common case, on every attack and move: no footprint to build
            return (c.pos,)
        return footprint(c.pos, c.size)

    def occupancy(self) -> Occupancy:
        """Who stands where (the dead leave no body that blocks: they are moved aside).

        A walker may pass through an ally's square, and an opportunity attack or a readied
        action can interrupt it there (`passing` names it meanwhile): then the square is the
        ally's, and the walker is indexed by id alone."""
        if self._occupancy is None:
            old = self._occupancy_was
            was = old.by_id if old is not None else {}
            living = []
            same = self._occupancy_plain  # every entry as it was, so far
            for c in self.living():
                o = was.get(c.id)  # most creatures stood still since: their entry is as it was
                if o is None or o.pos != c.pos or o.size != c.size or o.side != c.side:
                    o = Occupant(c.id, c.side, c.pos, c.size)
                    same = False
                living.append(o)
            if same and old is not None and _same_entries(living, was):
                # Nobody moved, came or went since (`moved` is also called after a triggered
                # power, or twice for one move): the very same index, so what is kept with
                # it (`engine.flanking.flank_watch`) holds on.
                self._occupancy = old
                return old
            try:
                self._occupancy = Occupancy.of(living)
                self._occupancy_plain = True
            except ValueError:
                if self.passing is None:
                    raise  # two creatures in one square outside a move is a bug to see
                by_square: dict[Square, str] = {}
                for o in sorted(living, key=lambda o: o.id == self.passing):
                    for sq in o.squares:
                        by_square.setdefault(sq, o.id)
                self._occupancy = Occupancy(by_square, {o.id: o for o in living})
                self._occupancy_plain = False
        return self._occupancy

    def moved(self) -> None:
        """Forget cached occupancy after a creature moved, died or appeared."""
        if self._occupancy is not None:
            self._occupancy_was = self._occupancy
        self._occupancy = None

    # --- conditions ----------------------------------------------------------------
    def _conditions(self, c: Combatant) -> tuple[frozenset[str], frozenset[str]]:
        """(conditions, condition flags) of `c`, cached. Every attack asks a dozen times; the
        answer depends only on the effects on `c` (whose table counts their changes), the hit
        point state, surprise and whether it has acted, which the cache entry keeps beside it.
        (Compared by identity where that is cheaper: a different but equal value only costs
        working the answer out again.)"""
        hit = self._cond_cache.get(c.id)
        if (
            hit is not None
            and hit[1] is c.state
            and hit[4] is c.acted
            and hit[2] is c.surprised
            and hit[3] is self.surprise_round
            and hit[0] == self.effects.target_version.get(c.id, 0)
        ):
            return hit[5]
        return self._work_out_conditions(c)

    def _work_out_conditions(self, c: Combatant) -> tuple[frozenset[str], frozenset[str]]:
        """`_conditions` afresh, kept in the cache."""
        out: set[str] = set()
        cid = c.id
        for e in self.effects.values():
            if e.target == cid:
                out.update(e.conditions)
        if c.state in ("unconscious", "dying", "stable"):
            out.update(("unconscious", "helpless", "prone"))
        if c.surprised and self.surprise_round:
            out.add("surprised")
        if c.creature.invisible:
            out.add("invisible")
        if c.creature.insubstantial:
            out.add("insubstantial")
        if self.ruleset.is_flat_footed(c):
            out.add("flat_footed")
        if "unconscious" in out:
            out.update(("helpless", "prone"))
        if "restrained" in out:
            out.add("immobilized")
        if out:
            conds = frozenset(out)
            pair = (conds, frozenset().union(*(FLAGS_OF.get(n, ()) for n in conds)))
        else:
            pair = NO_CONDITIONS  # most creatures, most of the time
        version = self.effects.target_version.get(cid, 0)
        self._cond_cache[c.id] = (
            version,
            c.state,
            c.surprised,
            self.surprise_round,
            c.acted,
            pair,
        )
        return pair

    def conditions(self, c: Combatant) -> set[str]:
        """Every condition on `c`: from effects, from its hit point state, from surprise."""
        return set(self._conditions(c)[0])

    def has(self, c: Combatant, condition: str) -> bool:
        return condition in self._conditions(c)[0]

    def flag(self, c: Combatant, flag: str) -> bool:
        """True if any condition on `c` sets `flag` (grants_ca, no_actions, cant_move, ...)."""
        return flag in self._conditions(c)[1]

    def modifier(self, c: Combatant, stat: str) -> int:
        """The sum of effect modifiers to `stat` on `c` (F-DEF-6 temporary changes).

        F-DUR-7: the same modifier from several effects counts once; it lasts while any of
        them does, which is "the one with the most time remaining applies"."""
        return sum(v for _, v in self.modifier_parts(c, stat))

    def modifier_parts(self, c: Combatant, stat: str) -> list[tuple[str, int]]:
        """The effect modifiers to `stat` on `c` as (effect name, value), each counted once
        (F-DUR-7: the first effect that carries it names it)."""
        out: list[tuple[str, int]] = []
        seen: set[tuple[str, int]] = set()
        for e in self.effects.values():
            if e.target == c.id:
                for part in e.modifiers:
                    s, v = part
                    if (s == stat or (s == "defenses" and stat in DEFENSE_NAMES)) and (
                        part not in seen
                    ):
                        seen.add(part)
                        out.append((e.name, v))
        return out

    def effect_flag(self, c: Combatant, stat: str, attacker: str | None = None) -> bool:
        """Does an effect on `c` carry `stat`? For "grants_ca" that includes combat advantage
        granted to one creature only (`grants_ca_to_source`: a Bluff, F-MOD-13) when that
        creature is `attacker` (the question needs to know who asks)."""
        for e in self.effects.values():
            if e.target != c.id:
                continue
            for s, _ in e.modifiers:
                if s == stat:
                    return True
                if (
                    stat == "grants_ca"
                    and s == GRANTS_CA_TO_SOURCE
                    and e.source is not None
                    and e.source == attacker
                ):
                    return True
        return False

    def can_act(self, c: Combatant) -> bool:
        return c.state in STANDING and "no_actions" not in self._conditions(c)[1]

    def can_react(self, c: Combatant) -> bool:
        """Immediate and opportunity actions (F-TRN-5: not while surprised)."""
        return c.state in STANDING and "no_reactions" not in self._conditions(c)[1]

    def speed(self, c: Combatant) -> int:
        base = self.ruleset.base_speed(c) + self.modifier(c, "speed")
        if self.has(c, "slowed"):
            base = min(base, 2)
        return max(0, base)

    def snapshot(self) -> dict[str, Any]:
        """Everything that defines the state, as plain data (replay and undo compare these)."""
        return {
            "round": self.round,
            "current": self.current,
            "order": list(self.order),
            "turn_index": self.turn_index,
            "over": self.over,
            "winner": self.winner,
            "combatants": [c.snapshot() for c in self.combatants.values()],
            "effects": sorted(
                (e.id, e.target, e.name, e.duration, e.parts()) for e in self.effects.values()
            ),
            "spent": dict(self.spent),
            "log_length": len(self.log),
        }


def _same_entries(living: list[Occupant], was: dict[str, Occupant] | Any) -> bool:
    """Are `living` the very entries of `was`, in its order?"""
    return len(living) == len(was) and all(map(is_, living, was.values()))


NO_CONDITIONS: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
DEFENSE_NAMES = frozenset({"ac", "fortitude", "reflex", "will"})
GRANTS_CA_TO_SOURCE = "grants_ca_to_source"
"""An effect part: its target grants combat advantage to the effect's source only."""
