"""A one-round rollout player: the classic policy's best few options, each tried out.

A panel member of the league (`tests/benchmarks/bench_league.py`), not a default: it is slow.
At the first decision of a creature's turn the classic planner scores its options as usual;
when the runner-up is close to the best (`MARGIN`), the best `OPTIONS` distinct options are
each played out `ROLLOUTS` times on copies of the fight: the option is played, then every
creature plays the classic policy until the chosen creature's next turn begins (a full round
of the enemies' answers). A rollout ends scored as the hit points of my side's standing
creatures minus the enemies', plus `STANDING` per standing creature; the option with the best
average is played.

Copies are rebuilt from the fight's records (`Encounter.replay`), so the real encounter is
never touched; the dice of rollout r come from a seeded source derived from the fight's seed,
the turn and r (every option meets the same dice: common random numbers), so the policy is
deterministic for a given fight.
"""

from __future__ import annotations

from typing import Any

from ai.config import CLASSIC, AIConfig
from ai.plan import Option
from ai.planner import Planner
from ai.tactical import TacticalPolicy
from engine.actions import EndTurn, Impossible
from engine.decisions import Question
from engine.dice import SeededDice
from engine.encounter import Encounter
from engine.progress import fight_point
from engine.state import Combatant

OPTIONS = 3
"""Distinct options (by kind, end square, power and targets) rolled out per decision."""
ROLLOUTS = 2
"""Rollouts per option."""
MARGIN = 6.0
"""Options scored within this much of the best are worth a rollout."""
STANDING = 10.0
"""What a standing creature is worth in a rollout's score, on top of its hit points."""
MAX_ACTIONS = 400
"""A rollout's cap on actions (a round of a big fight is well below it)."""
PER_TURN = 24


class _Deciders:
    """The engine's questions in a rollout copy go to the policy of the asking side."""

    def __init__(self, policies: dict[str, TacticalPolicy], holder: list[Encounter]) -> None:
        self.policies = policies
        self.holder = holder

    def answer(self, question: Question[Any]) -> Any:
        enc = self.holder[0]
        side = enc.battle[question.who].side
        return self.policies[side].answer(enc, question)


def _key(o: Option) -> tuple[Any, ...]:
    return (o.kind, o.end, o.power.id if o.power else None, o.targets, o.origin, o.post)


def worth(enc: Encounter, side: str) -> float:
    """A rollout's end: my side's standing hit points minus the enemies'."""
    total = 0.0
    for c in enc.battle.combatants.values():
        if not c.standing:
            continue
        v = max(0, c.hp) + c.temp_hp + STANDING
        total += v if c.side == side else -v
    return total


def play_out(
    enc: Encounter,
    me: Combatant,
    option: Option,
    seed: int,
    policies: dict[str, TacticalPolicy],
) -> float:
    """One rollout of `option` for `me` on a copy of `enc` (see the module docstring), played
    by `policies` (classic, one per side; their memory follows each copy's records, so one
    set serves every rollout of a fight and keeps its distance maps warm)."""
    sides = {c.side for c in enc.battle.combatants.values()}
    for s in sides:
        policies.setdefault(s, TacticalPolicy(config=CLASSIC))
    holder: list[Encounter] = []
    deciders = _Deciders(policies, holder)
    copy = Encounter.replay(
        enc.loaded,
        enc.records,
        seed=enc.seed,
        ruleset=enc.ruleset_name,
        control={s: "ai" for s in sides},
        deciders=lambda _cid: deciders,
        live=SeededDice(seed),
    )
    holder.append(copy)
    b = copy.battle
    start = b.turn_counter
    pt = fight_point(copy)
    plan = policies[me.side]._compile(copy, b[me.id], option, (pt.fight, me.id, pt.turn))
    for step in plan.steps:
        cur = copy.current
        if copy.over or cur is None or cur.id != me.id or copy.validate(step) is not None:
            break
        copy.apply(step)
    count = 0
    turn, in_turn = b.turn_counter, 0
    while not copy.over and count < MAX_ACTIONS:
        cur = copy.current
        if cur is None or (cur.id == me.id and b.turn_counter != start):
            break
        if b.turn_counter != turn:
            turn, in_turn = b.turn_counter, 0
        in_turn += 1
        act = EndTurn() if in_turn > PER_TURN else policies[cur.side].next_action(copy).action
        try:
            copy.apply(act)
        except Impossible:
            copy.apply(EndTurn())
        count += 1
    return worth(copy, me.side)


class RolloutPlanner(Planner):
    """The classic planner, whose first decision of a turn is settled by rollouts."""

    def __init__(self, config: AIConfig) -> None:
        super().__init__(config)
        self._first = False
        self._players: dict[str, TacticalPolicy] = {}
        """The classic players of the rollouts, one per side, kept for the fight."""
        self.rollouts = 0
        """Rollouts played so far (for tests and tuning)."""

    def begin(self, enc: Encounter, c: Combatant) -> bool:
        self._first = super().begin(enc, c)
        return self._first

    def decide(
        self,
        enc: Encounter,
        c: Combatant,
        extra_standard: int = 0,
        moves_only: bool = False,
        extras: bool = True,
    ) -> Option:
        best = super().decide(enc, c, extra_standard, moves_only, extras)
        if not self._first or extra_standard or moves_only or not extras:
            return best
        self._first = False
        pool: list[Option] = []
        seen: set[tuple[Any, ...]] = set()
        for o in self.last_options:
            if o.score < best.score - MARGIN or len(pool) >= OPTIONS:
                break
            k = _key(o)
            if k not in seen:
                seen.add(k)
                pool.append(o)
        if len(pool) < 2:
            return best
        for o in pool:  # the minor actions the planner takes first come with every option
            o.extras = best.extras
        base = (enc.seed or 0) * 1_000_003 + enc.battle.turn_counter * 7919
        scored = []
        for i, o in enumerate(pool):
            runs = [play_out(enc, c, o, base + r, self._players) for r in range(ROLLOUTS)]
            self.rollouts += ROLLOUTS
            mean = sum(runs) / ROLLOUTS
            scored.append((mean, -i, o))
        pick = max(scored, key=lambda t: (t[0], t[1]))[2]
        if pick is not best:
            self.last_options = [pick, *(o for o in self.last_options if o is not pick)]
        return pick


class RolloutPolicy(TacticalPolicy):
    """The rollout player (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(config=CLASSIC)
        self.name = "rollout"
        self.planner = RolloutPlanner(self.config)
