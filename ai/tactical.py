"""The tactical policy: plans each turn as the best (move, power, target) and plays it out.

At the start of a creature's turn it builds a `Context` (`ai.scoring`), finds every square it
can end on and the least provoking way there (`ai.routes.routes`, plus the shift), and
scores every candidate: an attack from a square (each power, each target or area origin), an
attack from where it stands followed by a move (hit and run), a move with no attack (toward
the enemy it wants), a second wind. The best becomes a list of engine actions fed one per
call; if the picture changes halfway (an opportunity attack knocked it prone, stopped its
move, or a target fell), it plans again from where it is. Every action is checked with
`Encounter.validate` before it is returned; a plan that the engine would refuse becomes
`EndTurn`. Every plan, re-plans included, carries a `decision` event that explains it
(`next_action`).

Monster roles weight the score (`ai.roles`); player characters played by the AI get a role
from their powers. Opportunity attacks are taken when they can do any harm.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from ai.config import AIConfig
from ai.distances import DistanceCache, graph_of
from ai.explain import (
    action_text,
    attacks_of,
    late_minor_text,
    post_text,
    provokers,
    recheck_flank,
    summary,
)
from ai.forced import forced_choice
from ai.memory import SideMemory
from ai.plan import Option, budget
from ai.planner import MAX_CANDIDATES, Planner
from ai.policy import Choice
from ai.provoking import act_provokes_now, oa_charge
from ai.roles import weights_for
from ai.scoring import Context
from ai.triggers import trigger_pays
from ai.utility import Utility, utilities
from engine.actions import (
    Action,
    EndTurn,
    FullAttack,
    Move,
    SecondWind,
    SpendActionPoint,
    StandUp,
    UsePower,
    Withdraw,
)
from engine.battle import Battle
from engine.decisions import (
    ForcedMoveQuestion,
    OpportunityQuestion,
    Question,
    TriggerQuestion,
)
from engine.effects import sustainable
from engine.encounter import Encounter
from engine.events import Decision
from engine.movement import move_provocations, threatening
from engine.preview import preview
from engine.progress import FightKey, fight_point
from engine.state import Combatant

Square = tuple[int, int]


@dataclass(slots=True)
class _Plan:
    key: tuple[FightKey, str, int]
    """(the fight, the creature, the turn: `engine.progress`), never the encounter object,
    which undo and resume rebuild."""
    steps: list[Action]
    at: list[Square | None]
    """Where the creature must stand before each step (None: anywhere)."""
    index: int = 0
    replan_after: bool = False
    moving: bool = False
    """A move with no attack: plan again for moves only once it is done."""
    searched: bool = True
    """Every attack from the end of its move was weighed (see `Option.searched`)."""
    point_checked: bool = False
    minor_checked: bool = False
    end: Square | None = None
    """Where the plan leaves the creature."""
    records: int = -1
    """Actions recorded when it returned its last action (`last`): the plan goes on only if
    that action, and nothing else, was applied since (an undo, another action or a refusal
    means the picture changed: plan again)."""
    last: Action | None = None
    provoked: tuple[str, ...] = ()
    """Whose opportunity attacks its decision counted on."""
    expect: dict[int, frozenset[str]] = field(default_factory=dict)
    """Step index -> whose opportunity attacks that later move provokes, as the engine saw
    it when the plan was made."""
    score: float = 0.0
    """Its option's score."""
    option: Option | None = None
    """The option it plays (for an explanation made again on the way)."""
    why: str = ""
    """Why it stopped following the plan, when `_follow` knows (for the re-plan's text)."""
    flank: str | None = None
    """The target its decision said it flanks: checked again before the attack, since what
    happened since (a minor action that made it invisible, say) may change the setup."""


class TacticalPolicy:
    """Plans a turn by utility (see the module docstring); reads the encounter only."""

    name = "tactical"

    def __init__(
        self, *, config: AIConfig | None = None, top_k: int | None = None, flee: bool | None = None
    ) -> None:
        """`config`: a named configuration (`ai.config`); `top_k` and `flee` override its
        fields (`flee`: monsters break off when badly hurt, see `ai.planner.Planner`)."""
        cfg = config or AIConfig()
        if top_k is not None:
            cfg = replace(cfg, top_k=top_k)
        if flee is not None:
            cfg = replace(cfg, flee=flee)
        self.config = cfg
        self.name = cfg.name
        self.planner = Planner(cfg)
        self._point_turn: tuple[FightKey, str, int] | None = None
        self._plan: _Plan | None = None
        self._why: tuple[str, str, float] | None = None
        """The explanation of an action that is no step of a plan (or whose plan's reasons
        changed), set by `_follow`: the summary, the action as a candidate, its score."""
        self.explain = True
        """Write the texts of a plan's `decision` event (its summary and runners-up). A
        caller that reads no event (`skirmish sim` without `--log-dir`: `ai.sim.play`'s
        `explain`) turns it off: the events then carry no text and no candidates, the
        decisions are the same (issue 14: the texts were about 2% of a fight)."""

    @property
    def memory(self) -> SideMemory:
        """The side's memory (`ai.memory.SideMemory`): distance maps, dangers, habits."""
        return self.planner.memory

    @property
    def dcache(self) -> DistanceCache:
        """The side's shared distance maps (`ai.distances.DistanceCache`)."""
        return self.planner.memory.dcache

    @property
    def last_options(self) -> list[Option]:
        """The scored options of the last plan, best first (for tests and tuning)."""
        return self.planner.last_options

    def prepare(self, enc: Encounter) -> None:
        """Derive the per-map lookups (the flattened movement graph) before the first
        decision, so that no decision pays for them. Optional: decisions do it lazily."""
        graph_of(enc.battle.map)

    # --- the engine's questions ----------------------------------------------------------
    def answer(self, enc: Encounter, question: Question[Any]) -> Any:
        """Opportunity attacks, triggered powers (`ai.triggers`) and forced moves (a shift
        of its own too) are weighed; other questions take their default (saves in the given
        order, back from a delay at once)."""
        b = enc.battle
        if isinstance(question, OpportunityQuestion):
            by, mover = b[question.who], b[question.mover]
            power = by.power(question.power)
            if power is None:
                return False
            pv = preview(b, by, mover, power)
            return pv is not None and pv.expected_damage + 2 * pv.hit > 0.2
        if isinstance(question, TriggerQuestion):
            return trigger_pays(b, question)
        if isinstance(question, ForcedMoveQuestion):
            return forced_choice(b, b[question.who], b[question.target], question.options)
        return question.default()

    # --- the turn ------------------------------------------------------------------------
    def next_action(self, enc: Encounter) -> Choice:
        """The creature's next action. Each time it plans (the turn's first action, and every
        re-plan: after standing up, after an action point, after a first move that found
        nothing to attack, after the picture changed) the action carries a `decision` event
        that explains the plan; so do the actions that are no step of a plan (a minor action
        left at the end, spending an action point). The steps of a plan that go as planned
        carry none: their plan's decision explains them (docs/ai.md, "Explanations")."""
        t0 = time.perf_counter()
        c = enc.current
        if c is None:
            return Choice(EndTurn())
        pt = fight_point(enc)
        key = (pt.fight, c.id, pt.turn)
        first = self.planner.begin(enc, c)
        plan = self._plan
        live = not first and plan is not None and self._went_on(enc, plan, key)
        self._why = None
        act = self._follow(enc, c, plan) if live and plan is not None else None
        option: Option | None = None
        refused = False
        again = "" if first else self._again(enc, c, plan if live else None)
        if act is None:
            moves_only = live and plan is not None and self._moves_only(c, plan)
            option = self.planner.decide(enc, c, moves_only=moves_only)
            if first:
                self.planner.note_first(enc, c, option)
            plan = self._plan = self._compile(enc, c, option, key)
            act = self._follow(enc, c, plan)
            if act is None:
                refused = bool(plan.steps)
                act = EndTurn()
                plan.index = len(plan.steps)
                plan.replan_after = False
                plan.point_checked = True
        assert plan is not None
        plan.records, plan.last = pt.records, act
        b = enc.battle
        quiet = option is not None and option.kind == "stay" and not option.extras
        if option is not None and not (quiet and self._spent(b, c, first)):
            if refused:
                text = (
                    f"{c.name} ends its turn: its plan ({action_text(b, option)}) is not possible"
                )
                return Choice(act, self._decision(b, c, option, t0, text))
            return Choice(act, self._decision(b, c, option, t0, again=again))
        why = self._read_why()
        if why is not None:  # an action that is no step of the plan
            text, line, score = why
            return Choice(act, self._decision(b, c, None, t0, text, cand=(line, score)))
        return Choice(act)

    def _read_why(self) -> tuple[str, str, float] | None:
        """`_why` as declared: read in `next_action`, mypy keeps it narrowed to the None set
        there across the calls that set it again, and code compiled by mypyc trusted that."""
        return self._why

    @staticmethod
    def _spent(b: Battle, c: Combatant, first: bool) -> bool:
        """A re-plan with no move or standard action left: ending the turn needs no reason."""
        if first:
            return False
        left = budget(b, c)
        return not (left.move or left.standard)

    def _again(self, enc: Encounter, c: Combatant, plan: _Plan | None) -> str:
        """Why the creature plans again in the middle of its turn, in a few words."""
        if plan is None:
            return "plans again: the fight changed"
        if plan.why:
            return plan.why
        last = plan.last
        if isinstance(last, StandUp):
            return "back on its feet"
        if isinstance(last, SpendActionPoint):
            return "with its action point"
        done = plan.index >= len(plan.steps)
        if done and plan.moving:
            return "after moving"
        if done:
            return "plans again"
        want = plan.at[plan.index]
        if want is not None and c.pos != want:
            return "plans again: its move was cut short"
        return "plans again: its plan no longer works"

    @staticmethod
    def _went_on(enc: Encounter, plan: _Plan, key: tuple[FightKey, str, int]) -> bool:
        """Was the plan's last action, and nothing else, applied since it was returned?"""
        recs = enc.records
        return plan.key == key and plan.records + 1 == len(recs) and recs[-1].action == plan.last

    @staticmethod
    def _moves_only(c: Combatant, plan: _Plan) -> bool:
        """A first move of two that went as planned: nothing to attack was found from its end
        square, so the second action can only be another move (or nothing)."""
        return plan.moving and plan.searched and plan.index == len(plan.steps) and c.pos == plan.end

    def _decision(
        self,
        b: Battle,
        c: Combatant,
        option: Option | None,
        t0: float,
        text: str | None = None,
        again: str = "",
        cand: tuple[str, float] | None = None,
    ) -> Decision:
        """The `decision` event of a plan (`option`): the choice and the runners-up; or, with
        no option, of one action outside any plan, explained by `text`, with `cand` (the
        action as a candidate, its score) as the one candidate. Its `ms` is the whole
        decision since `t0`, building these texts included (issue 14). Not `explain`: no
        text and no candidates (nobody reads them)."""
        if not self.explain:
            ms = (time.perf_counter() - t0) * 1000
            return Decision(c.id, self.name, "", (), round(ms, 3))
        cands = [] if cand is None else [{"action": cand[0], "score": round(cand[1], 2)}]
        seen: set[str] = set()
        for o in self.last_options if option is not None else []:
            line = action_text(b, o)
            if line in seen:
                continue
            seen.add(line)
            cands.append({"action": line, "score": round(o.score, 2)})
            if len(cands) >= MAX_CANDIDATES:
                break
        if text is None:
            assert option is not None
            text = summary(b, c, option, options=self.last_options, again=again)
        ms = (time.perf_counter() - t0) * 1000
        return Decision(c.id, self.name, text, tuple(cands), round(ms, 3))

    def _follow(self, enc: Encounter, c: Combatant, plan: _Plan) -> Action | None:
        """The plan's next action if it still makes sense and is legal, else None (plan
        again). At the end of the plan: an action point if it buys a good attack, else
        EndTurn."""
        while plan.index < len(plan.steps):
            step = plan.steps[plan.index]
            want = plan.at[plan.index]
            if want is not None and c.pos != want:
                return None
            if enc.validate(step) is not None:
                return None
            if plan.index > 0 and isinstance(step, Move) and self._unforeseen(enc, c, step, plan):
                return None
            plan.index += 1
            if plan.index > 1 and isinstance(step, UsePower):
                self._shot_provokes(enc.battle, c, step, plan)
            if plan.flank is not None and isinstance(step, UsePower | FullAttack):
                text = recheck_flank(enc.battle, c, step.power, plan.flank)
                if text is not None:
                    power = c.power(step.power)
                    name = power.name if power is not None else step.power
                    line = f"{name} -> {enc.battle[plan.flank].name}"
                    self._why = (text, line, plan.score)
            if isinstance(step, SpendActionPoint):
                plan.replan_after = True
            return step
        if plan.replan_after:
            return None
        if not plan.minor_checked:
            plan.minor_checked = True
            late = self._late_minor(enc, c)
            if late is not None:
                self._why = (
                    f"{c.name} {late_minor_text(enc.battle, c, late)}",
                    late.text,
                    late.value,
                )
                return late.action
        if not plan.point_checked:
            plan.point_checked = True
            point = self._action_point(enc, c)
            if point is not None:
                plan.replan_after = True
                line = action_text(enc.battle, point)
                text = f"{c.name} spends an action point: {line} is worth another action"
                self._why = (f"{text} (score {point.score:.1f})", line, point.score)
                return SpendActionPoint()
        return EndTurn()

    def _shot_provokes(self, b: Battle, c: Combatant, step: UsePower, plan: _Plan) -> None:
        """A ranged or area attack after a move that now provokes an enemy the plan did not
        count on (one that could not see it when it planned: fog): said before the shot."""
        new = sorted(set(provokers(b, c, step)) - set(plan.provoked), key=lambda i: b[i].name)
        if not new or plan.option is None:
            return
        names = " and ".join(b[i].name for i in new)
        o = replace(plan.option, extras=(), route=None, provoked=tuple(new))
        text = summary(b, c, o, again=f"{names} can see it now")
        self._why = (text, action_text(b, o), o.score)
        plan.provoked = plan.provoked + tuple(new)

    def _unforeseen(self, enc: Encounter, c: Combatant, step: Move, plan: _Plan) -> bool:
        """A move after the plan's first action, checked against the engine's opportunity
        attacks now. One it did not count on (an enemy that could not see it when it planned:
        fog, darkness): True, plan again knowing it (`plan.why` says why). One it counted on
        that can't come now (a minor action made it invisible): the move goes on, explained
        again without it (`_why`)."""
        b = enc.battle
        path = [(p[0], p[1]) for p in step.path]
        threats = threatening(b, c)
        now = {e for _, e in move_provocations(b, c, path, step.mode, threats)}
        new = sorted(now - set(plan.provoked), key=lambda i: b[i].name)
        if new:
            names = " and ".join(b[i].name for i in new)
            plan.why = f"plans again: {names} would now get an opportunity attack on its way"
            return True
        o = plan.option
        gone = sorted(plan.expect.get(plan.index, frozenset()) - now)
        if not gone or o is None:
            return False
        names = " and ".join(b[i].name for i in gone)
        again = f"{names} no longer gets an opportunity attack on its way"
        o = replace(o, extras=(), provoked=tuple(i for i in o.provoked if i not in gone))
        if o.post is not None and tuple(o.post.path) == tuple(path):
            text = f"{c.name} ({again}) {post_text(b, c, o).removeprefix('then ')}"
            if now:
                text += f", provoking {attacks_of(b, sorted(now, key=lambda i: b[i].name))}"
        else:
            text = summary(b, c, o, again=again)
        self._why = (text, action_text(b, o), o.score)
        plan.provoked = o.provoked
        return False

    def _late_minor(self, enc: Encounter, c: Combatant) -> Utility | None:
        """A minor action left at the end of the turn, for an attackless power or a sustain
        that the move made possible (an ally now in range of a heal, allies now adjacent)."""
        b = enc.battle
        if not budget(b, c).minor:
            return None
        if not sustainable(b, c) and not any(
            p.attack is None and p.effect is not None and p.action in ("minor", "free")
            for p in c.powers
        ):
            return None
        ctx = Context(enc, c, weights_for(c, config=self.config), self.planner.memory)
        for u in utilities(ctx):
            if u.kind in ("minor", "free") and enc.validate(u.action) is None:
                if self.config.calm:  # what it provokes is paid for, never deadly
                    charge, deadly = oa_charge(ctx, act_provokes_now(ctx, [u]))
                    if deadly or u.value - charge <= 0.1:
                        continue
                return u
        return None

    def _action_point(self, enc: Encounter, c: Combatant) -> Option | None:
        """The attack an action point would buy, if it is worth one (weighed once a turn)."""
        b = enc.battle
        if c.action_points <= 0 or c.action_point_used or b.surprise_round:
            return None
        if b.spent.get("standard", 0) < 1 + b.extra_standard:
            return None
        if enc.validate(SpendActionPoint()) is not None:
            return None
        key = (fight_point(enc).fight, c.id, b.turn_counter)
        if key == self._point_turn:  # weighed once a turn
            return None
        self._point_turn = key
        option = self.planner.decide(enc, c, extra_standard=1, extras=False)
        if option.kind == "attack" and option.score >= 5.0:
            return option
        return None

    def _compile(
        self, enc: Encounter, c: Combatant, o: Option, key: tuple[FightKey, str, int]
    ) -> _Plan:
        steps: list[Action] = []
        at: list[Square | None] = []
        pos = c.pos
        for u in o.extras:
            steps.append(u.action)
            at.append(None)
        if o.kind == "stand":
            steps.append(StandUp())
            at.append(pos)
        if o.kind == "withdraw" and o.route is not None:
            steps.append(Withdraw(o.route.path))
            at.append(pos)
            pos = o.route.end
        elif o.route is not None:
            steps.append(Move(o.route.path, o.route.mode))
            at.append(pos)
            pos = o.route.end
        if o.kind == "attack" and o.power is not None:
            steps.append(UsePower(o.power.id, o.targets, o.origin))
            at.append(pos)
        elif o.kind == "full_attack" and o.power is not None:
            steps.append(FullAttack(o.power.id, o.targets))
            at.append(pos)
        elif o.kind == "second_wind":
            steps.append(SecondWind())
            at.append(pos)
        elif o.kind == "utility" and o.action is not None:
            steps.append(o.action)
            at.append(pos)
        if o.post is not None:
            steps.append(Move(o.post.path, o.post.mode))
            at.append(pos)
        b = enc.battle
        threats = threatening(b, c) if o.provoked else {}
        expect = {
            i: frozenset(e for _, e in move_provocations(b, c, list(s.path), s.mode, threats))
            for i, s in enumerate(steps)
            if i > 0 and isinstance(s, Move) and threats
        }
        return _Plan(
            key,
            steps,
            at,
            replan_after=o.replan_after,
            moving=o.kind == "move",
            searched=o.searched,
            end=pos if o.post is None else o.post.end,
            provoked=o.provoked,
            expect=expect,
            score=o.score,
            option=o,
            flank=o.hits[0].target if o.kind == "attack" and o.hits and o.hits[0].flank else None,
        )
