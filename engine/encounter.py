"""The engine's public face: build a fight from loaded content, ask what is legal, apply actions.

    enc = Encounter.create(load_encounter("default"), seed=7)
    enc.start()
    while not enc.over:
        events = enc.apply(some_policy(enc))   # or raises Impossible(reason): nothing changed

Every action is recorded with the dice faces and answers it used (`records`), which is all a
save needs: `Encounter.replay(...)` rebuilds the same state from them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import turn_budget
from engine.actions import Action, Impossible
from engine.battle import Battle
from engine.content.basics import with_basic_melee
from engine.content.loader import LoadedEncounter
from engine.content.schema import Power
from engine.decisions import Decider, InvalidAnswer
from engine.dice import DiceSource, InvalidFace, SeededDice
from engine.events import Decision, Logged, Mod, quick_constructor
from engine.grid import blast_origins, distance, end_squares, line_of_effect, reachable
from engine.handlers import HANDLERS, handler_for
from engine.handlers.base import power_of
from engine.movement import budget
from engine.powers import area_squares, in_area, usable_refusal
from engine.powers import targets_for as _targets_for
from engine.preview import AttackPreview, preview
from engine.refusals import Refusal
from engine.rollback import restore
from engine.rulesets import get_ruleset
from engine.state import Combatant
from engine.turns import (
    begin,
    check_end,
    decide_surprise,
    end_turn,
    roll_initiative,
    start_effects,
    start_event,
)

Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Record:
    """One applied action with the dice faces and answers it used (replays it exactly)."""

    action: Action | None
    """None for the start of the encounter (surprise and initiative rolls)."""
    faces: tuple[int, ...]
    answers: tuple[Any, ...]
    decision: Decision | None = None
    typed: tuple[int, ...] = ()
    """Table play: the indices in `faces` of the faces a person typed in (the rest the app
    rolled); kept so that a replayed log still says which were which."""


# One per action: a quick __init__ (engine.events). Not a class decorator: mypyc
# compiles a decorated class as a plain Python class.
quick_constructor(Record)


class Encounter:
    def __init__(
        self, loaded: LoadedEncounter, battle: Battle, seed: int | None, ruleset: str
    ) -> None:
        self.loaded = loaded
        self.battle = battle
        self.seed = seed
        self.ruleset_name = ruleset
        self.records: list[Record] = []
        self.gm_removed: dict[str, Combatant] = {}
        """Creatures the GM took out of the fight (`engine.gm`): their ids stay taken."""
        self.started = False
        self._checked: tuple[tuple[int, int, int, str | None], Action, Any] | None = None
        """(state stamp, action, plan) of the last action found legal (see `_check`)."""

    # --- construction ---------------------------------------------------------------
    @classmethod
    def create(
        cls,
        loaded: LoadedEncounter,
        *,
        seed: int | None = 0,
        dice: DiceSource | None = None,
        deciders: Callable[[str], Decider] | None = None,
        control: dict[str, str] | None = None,
        ruleset: str | None = None,
    ) -> Encounter:
        """`control` maps a side or a creature id to "player" or "ai" (command line wins)."""
        spec = loaded.spec
        rs_name = ruleset or spec.ruleset
        rs = get_ruleset(rs_name)
        control = control or {}
        combatants = []
        waiting: dict[str, tuple[int, Combatant]] = {}
        for cd in spec.combatants:
            cr = loaded.creatures[cd.creature]
            ctl = control.get(cd.id) or control.get(cd.side) or loaded.control(cd)
            powers = with_basic_melee(cr, tuple(loaded.powers[p] for p in cr.powers))
            pc = cr.kind == "pc"
            points = cr.action_points if cr.action_points is not None else int(pc)
            c = Combatant(
                id=cd.id,
                name=cd.name or cr.name,
                side=cd.side,
                creature=cr,
                powers=powers,
                control=ctl,
                pos=(cd.pos[0], cd.pos[1]),
                max_hp=cr.hp,
                hp=cr.hp if cd.hp is None else cd.hp,
                surges=cr.healing_surges - cd.surges_spent,
                action_points=points if cd.action_points is None else cd.action_points,
                surprised=bool(cd.surprised),
                temp_hp=cd.temp_hp,
                death_failures=cd.death_failures,
                used_powers=set(cd.powers_spent),
                second_wind_used=cd.second_wind_used,
                action_point_used=cd.action_point_used,
            )
            c.state = rs.hp_state(c)  # a fight that starts mid-way (issue 16 item 7)
            if cd.arrives_round is not None:
                waiting[c.id] = (cd.arrives_round, c)
            else:
                combatants.append(c)
        source = dice if dice is not None else SeededDice(seed if seed is not None else 0)
        battle = Battle(loaded.bmap, combatants, rs, source, deciders, spec.round_limit)
        battle.waiting = waiting
        return cls(loaded, battle, seed, rs_name)

    def start(self, decision: Decision | None = None) -> list[Logged]:
        """Log the start, decide surprise, roll initiative and begin the first turn."""
        if self.started:
            raise Impossible("the encounter has already started", Refusal.ALREADY_STARTED)
        b = self.battle
        mark = len(b.log)
        b.answers = []
        spec = self.loaded.spec
        checks = decide_surprise(b, spec.surprise)  # the first line records it as decided
        b.emit(
            start_event(
                b, spec, self.loaded.source, self.loaded.content_hash, self.ruleset_name, self.seed
            )
        )
        for check in checks:
            b.emit(check)
        start_effects(b, spec)
        roll_initiative(b)
        begin(b)
        self.started = True
        faces = tuple(b.dice.take())
        self.records.append(Record(None, faces, tuple(b.answers), None, b.dice.typed_taken))
        return b.log[mark:]

    # --- state ------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.battle.over

    @property
    def current(self) -> Combatant | None:
        cid = self.battle.current
        return self.battle.combatants[cid] if cid else None

    @property
    def log(self) -> list[Logged]:
        return self.battle.log

    def snapshot(self) -> dict[str, Any]:
        return self.battle.snapshot()

    # --- what is legal ------------------------------------------------------------------
    def can_spend(self, kind: str) -> bool:
        """F-TRN-1/4 and dazed: is an action of `kind` still available this turn?"""
        c = self.current
        return c is not None and turn_budget.can_spend_one(self.battle, c, kind)

    def power_refusals(self) -> list[tuple[Power, Impossible | None]]:
        """Each power of the current creature with the refusal (`code`, `reason`) that
        using it now would meet before targeting, or None."""
        c = self.current
        if c is None:
            return []
        out = []
        for p in c.powers:
            refusal = usable_refusal(self.battle, c, p)
            if (
                refusal is None
                and p.action in ("standard", "move", "minor")
                and not self.can_spend(p.action)
            ):
                refusal = Impossible(f"no {p.action} action left", Refusal.NO_ACTION_LEFT)
            out.append((p, refusal))
        return out

    def usable_powers(self) -> list[tuple[Power, str | None]]:
        """Each power of the current creature with the reason it can't be used now, if any."""
        return [(p, r.reason if r else None) for p, r in self.power_refusals()]

    def targets(self, power_id: str) -> list[str]:
        c = self._need_current()
        return _targets_for(self.battle, c, power_of(c, power_id))

    def area_origins(self, power_id: str) -> list[Square]:
        """Legal origin squares of a blast or an area burst (empty for other powers)."""
        c = self._need_current()
        p = power_of(c, power_id)
        b = self.battle
        if p.kind == "close" and p.blast is not None:
            return blast_origins(b.map, c.pos, c.size, p.blast)
        if p.kind == "area" and p.range is not None:
            mine = b.squares(c)
            return [
                sq
                for sq in b.map.squares()
                if distance(mine, (sq,)) <= p.range
                and not b.map.blocks_sight(sq)
                and line_of_effect(b.map, mine, (sq,))
            ]
        return []

    def area(self, power_id: str, origin: Square | None) -> tuple[frozenset[Square], list[str]]:
        """The squares and the creatures an area or close power would affect from `origin`."""
        c = self._need_current()
        p = power_of(c, power_id)
        squares = area_squares(self.battle, c, p, origin)
        return squares, in_area(self.battle, c, p, squares)

    def preview(
        self,
        power_id: str,
        target_id: str,
        origin: Square | None = None,
        extra: tuple[Mod, ...] = (),
    ) -> AttackPreview | None:
        """The odds and expected damage of the current creature's `power_id` on `target_id`,
        as the roll would see them (`extra`: further attack modifiers). Reads only."""
        c = self._need_current()
        p = power_of(c, power_id)
        org = (origin,) if origin is not None and p.kind == "area" else None
        return preview(self.battle, c, self.battle[target_id], p, org, extra=extra)

    def reachable(self, mode: str = "walk") -> dict[Square, int]:
        """End squares the current creature may move to with `mode`, and their cost."""
        c = self._need_current()
        b = self.battle
        if b.flag(c, "cant_move") or (mode != "shift" and b.has(c, "prone")):
            return {}
        occ = b.occupancy()
        rmap = reachable(b.map, c.pos, budget(b, c, mode), c.id, c.side, c.size, occ)
        return {sq: rmap[sq][0] for sq in end_squares(rmap, c.id, occ, c.size) if sq != c.pos}

    def refusal(self, action: Action) -> Impossible | None:
        """The refusal (`code`, `reason`) `action` would meet now, or None (changes nothing)."""
        try:
            self._check(action)
        except Impossible as exc:
            return exc
        return None

    def validate(self, action: Action) -> str | None:
        """Why `action` is illegal now, or None (nothing changes either way)."""
        refusal = self.refusal(action)
        return refusal.reason if refusal is not None else None

    # --- doing ------------------------------------------------------------------------
    def apply(self, action: Action, decision: Decision | None = None) -> list[Logged]:
        """Apply `action` for the current creature; Impossible (nothing changed) if illegal."""
        plan = self._check(action)
        b = self.battle
        mark = len(b.log)
        b.answers = []
        if decision is not None:
            b.emit(decision)
        actor = b.current
        assert actor is not None  # `_check` found a creature whose turn it is
        c = b.combatants[actor]
        try:
            HANDLERS[action.name].perform(self, c, action, plan)  # `_check` found its handler
        except (InvalidAnswer, InvalidFace) as exc:
            if b.scripted_answers is not None:
                raise  # a replay: the records are at fault, and the caller says whose
            restore(self)  # `engine.rollback`: as if the action had never been tried
            raise Impossible(f"refused: {exc}", Refusal.BAD_ANSWER) from None
        if not b.over and not check_end(b) and b.current == actor and not b.can_act(c):
            end_turn(b, c)  # it dropped or was stunned mid-turn: its turn is over
        dice = b.dice
        faces = tuple(dice.take())
        self.records.append(Record(action, faces, tuple(b.answers), decision, dice.typed_taken))
        return b.log[mark:]

    def _need_current(self) -> Combatant:
        c = self.current
        if c is None:
            raise Impossible(
                "the encounter is over" if self.over else "no creature's turn", Refusal.NO_TURN
            )
        return c

    def _check(self, action: Action) -> Any:
        """The plan for `action` if it is legal now (Impossible if not). The last accepted
        action's plan is kept until anything happens, so that an action the AI validated
        is not checked again when it is applied (one check per action)."""
        b = self.battle
        stamp = (len(b.log), len(self.records), b.turn_counter, b.current)
        memo = self._checked
        if memo is not None and memo[0] == stamp and (memo[1] is action or memo[1] == action):
            return memo[2]
        plan = self._check_now(action)
        self._checked = (stamp, action, plan)
        return plan

    def _check_now(self, action: Action) -> Any:
        if not self.started:
            raise Impossible("the encounter has not started", Refusal.NOT_STARTED)
        cid = self.battle.current
        c = self.battle.combatants[cid] if cid else self._need_current()
        h = HANDLERS.get(action.name)
        if h is None or not isinstance(action, h.action):
            h = handler_for(action)  # (the refusal)
        return h.check(self, c, action)

    # --- replay -------------------------------------------------------------------------
    @classmethod
    def replay(
        cls,
        loaded: LoadedEncounter,
        records: Sequence[Record],
        *,
        seed: int | None,
        ruleset: str | None = None,
        control: dict[str, str] | None = None,
        deciders: Callable[[str], Decider] | None = None,
        live: DiceSource | None = None,
    ) -> Encounter:
        """Rebuild a fight from its records: each action gets exactly the faces and answers
        it had. New actions afterwards roll from `live` (default: the seeded source, advanced
        past the replayed rolls so that redoing an undone action gives the same dice).

        A `live` source that mixes typed-in and seeded dice (table mode) may offer `fresh()`
        (a copy with its seeded part back at the start: `live` itself is reused by every
        rebuild) and `advance(sides, purpose, who)` (roll the seeded part if that roll is
        seeded): the replay then advances the seeded part alongside the recorded faces, so an
        undo in table mode never re-rolls the dice the app rolls."""
        from engine.replay import Replay  # the one replay loop builds on this module

        return Replay(
            loaded,
            records,
            seed=seed,
            ruleset=ruleset,
            control=control,
            deciders=deciders,
            live=live,
        ).run()


class ReplayDice:
    """Recorded faces first, then a live source. With `advance_live`, the live (seeded) source
    rolls alongside the recorded faces, so that after the replay it stands exactly where the
    original fight's stream stood (undo, then redo the same action: the same dice)."""

    def __init__(
        self,
        faces: Sequence[int],
        live: DiceSource,
        *,
        advance_live: bool,
        typed: set[int] | frozenset[int] = frozenset(),
    ) -> None:
        self._faces = list(faces)
        self._i = 0
        self._live = live
        self._typed = typed
        self.reports_typed = bool(typed) or bool(getattr(live, "reports_typed", False))
        """Table play: which faces were typed is known (the records', then the live's)."""
        self.explains = bool(getattr(live, "explains", False))
        self.last_typed = False
        skip = live.roll if advance_live else getattr(live, "advance", None)
        self._advance: Callable[[int, str, str | None], object] | None = skip

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._i

    def roll(self, sides: int, purpose: str = "", who: str | None = None) -> int:
        if self._i < len(self._faces):
            face = self._faces[self._i]
            self._i += 1
            if self._advance is not None:
                self._advance(sides, purpose, who)
            if not 1 <= face <= sides:
                raise ValueError(f"recorded face {face} is not a d{sides} face ({purpose})")
            self.last_typed = self._i - 1 in self._typed
            return face
        face = self._live.roll(sides, purpose, who)
        self.last_typed = bool(getattr(self._live, "last_typed", False))
        return face
