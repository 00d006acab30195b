"""The state of one fight and the plumbing every rule needs: events, dice, questions, geometry.

`Battle` holds the combatants, the initiative order, the round and turn, the active effects,
the dice source and the log. Rules modules (`engine.hp`, `engine.effects`, `engine.attacks`,
`engine.powers`, `engine.movement`, `engine.turns`) are functions over a `Battle`; the public
façade is `engine.encounter.Encounter`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine.conditions import BY_NAME
from engine.decisions import AutoDecider, Decider, Question, check_answer
from engine.dice import DiceExpr, DiceSource, RecordingDice, Roll, roll
from engine.events import Event, Logged
from engine.grid import BattleMap, Occupancy, Occupant, footprint
from engine.rulesets import Ruleset
from engine.state import ActiveEffect, Combatant

Square = tuple[int, int]


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
        self.combatants: dict[str, Combatant] = {c.id: c for c in combatants}
        self.ruleset = ruleset
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
        self.effects: dict[str, ActiveEffect] = {}
        self.effect_seq = 0
        self.surprise_round = False
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
        self._pending: list[Event] = []

    # --- events -------------------------------------------------------------------
    def emit(self, event: Event) -> None:
        self.log.append(Logged(len(self.log), self.round, event))

    def events_since(self, mark: int) -> list[Logged]:
        return self.log[mark:]

    # --- dice ----------------------------------------------------------------------
    def d20(self, purpose: str, who: str | None) -> int:
        return self.dice.roll(20, purpose, who)

    def roll(self, expr: DiceExpr, purpose: str, who: str | None, maximize: bool = False) -> Roll:
        return roll(expr, self.dice, purpose, who, maximize)

    # --- questions -----------------------------------------------------------------
    def ask(self, question: Question) -> Any:
        """Ask the controller of `question.who`; a replay takes the recorded answer instead."""
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
        return (o for o in self.living() if o.side != c.side)

    def allies_of(self, c: Combatant) -> Iterator[Combatant]:
        return (o for o in self.living() if o.side == c.side and o.id != c.id)

    def squares(self, c: Combatant) -> tuple[Square, ...]:
        return footprint(c.pos, c.size)

    def occupancy(self) -> Occupancy:
        """Who stands where (the dead leave no body that blocks: they are moved aside)."""
        if self._occupancy is None:
            self._occupancy = Occupancy.of(
                Occupant(c.id, c.side, c.pos, c.size) for c in self.living()
            )
        return self._occupancy

    def moved(self) -> None:
        """Forget cached occupancy after a creature moved, died or appeared."""
        self._occupancy = None

    # --- conditions ----------------------------------------------------------------
    def conditions(self, c: Combatant) -> set[str]:
        """Every condition on `c`: from effects, from its hit point state, from surprise."""
        out: set[str] = set()
        for e in self.effects.values():
            if e.target == c.id:
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
        return out

    def has(self, c: Combatant, condition: str) -> bool:
        return condition in self.conditions(c)

    def flag(self, c: Combatant, flag: str) -> bool:
        """True if any condition on `c` sets `flag` (grants_ca, no_actions, cant_move, ...)."""
        return any(getattr(BY_NAME[n], flag) for n in self.conditions(c) if n in BY_NAME)

    def modifier(self, c: Combatant, stat: str) -> int:
        """The sum of effect modifiers to `stat` on `c` (F-DEF-6 temporary changes)."""
        total = 0
        for e in self.effects.values():
            if e.target == c.id:
                for s, v in e.modifiers:
                    if s == stat or (s == "defenses" and stat in DEFENSE_NAMES):
                        total += v
        return total

    def effect_flag(self, c: Combatant, stat: str) -> bool:
        return any(
            s == stat for e in self.effects.values() if e.target == c.id for s, _ in e.modifiers
        )

    def can_act(self, c: Combatant) -> bool:
        return c.standing and not self.flag(c, "no_actions")

    def can_react(self, c: Combatant) -> bool:
        """Immediate and opportunity actions (F-TRN-5: not while surprised)."""
        return c.standing and not self.flag(c, "no_reactions")

    def speed(self, c: Combatant) -> int:
        base = c.creature.speed + self.modifier(c, "speed")
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


DEFENSE_NAMES = frozenset({"ac", "fortitude", "reflex", "will"})
