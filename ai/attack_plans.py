"""Candidate turns with an attack: a power on its targets from where the creature stands, or
after a move, or from where it stands followed by a move away (hit and run).

`ai.candidates` lists the ways to use each power (square, scored targets, area origin);
here each is scored as a turn: the targets' worth times the chance to survive the
opportunity attacks on the way (and those the attack itself provokes), minus what they cost,
minus what spending the power costs, plus the worth of the end square. Every way is scored
cheaply; `Option`s are built for the best few only.
"""

from __future__ import annotations

from typing import NamedTuple

from ai.candidates import attack_options
from ai.plan import Option
from ai.routes import Route
from ai.scoring import Hit
from ai.squares import act_provokes, best_post, far_squares
from ai.turn import Turn
from engine.content.schema import Power
from engine.encounter import Encounter
from engine.refusals import Refusal

Square = tuple[int, int]
MAX_CANDIDATES = 5
"""Options kept per kind of turn (and candidates logged with a decision)."""


class Scored(NamedTuple):
    """One way to attack, scored as a turn (before an `Option` is built for it)."""

    score: float
    order: int
    power: Power
    at: Square
    hits: list[Hit]
    origin: Square | None
    run: bool
    """Move away after attacking from where it stands (hit and run)."""


def attack_powers(enc: Encounter, standard_left: bool) -> list[Power]:
    """The creature's standard-action attack powers it may use now, or with the standard
    action an action point would give (`standard_left`: the planner's budget says so)."""
    return [
        p
        for p, refusal in enc.power_refusals()
        if p.attack is not None
        and p.action == "standard"
        and (refusal is None or (refusal.code is Refusal.NO_ACTION_LEFT and standard_left))
    ]


def attack_squares(turn: Turn) -> dict[Square, Route | None]:
    """The squares it can attack from: where it stands (no route) and every move's end."""
    out: dict[Square, Route | None] = {}
    if turn.bud.standard:
        out[turn.s0] = None
    if turn.bud.move_then_standard:
        out.update(turn.moves)
    return out


def hit_and_run(turn: Turn, powers: list[Power]) -> tuple[Route, float] | None:
    """Where to move after attacking from where it stands, for the roles that don't stand
    and fight (brutes and soldiers do), when an enemy could reach it next round."""
    ctx = turn.ctx
    if not powers or ctx.f.w.engaged > 0 or not turn.bud.standard_then_move or not turn.moves:
        return None
    if not ctx.reachable_by_enemies(turn.s0):
        return None
    return best_post(ctx, turn.moves, turn.route_cost)


def attack_plans(turn: Turn, powers: list[Power], top_k: int) -> tuple[list[Option], list[Square]]:
    """The best attack turns (at most 2 x `MAX_CANDIDATES`), and the squares ranged and area
    attacks were tried from (`ai.squares.far_squares`)."""
    attack_sq = attack_squares(turn)
    top = far_squares(turn.ctx, powers, attack_sq, turn.route_cost, turn.moves, top_k)
    post = _Post(turn, powers)
    scored = _score_all(turn, powers, attack_sq, top, post)
    scored.sort(key=lambda x: (-x.score, x.order))
    options = [_option(turn, s, attack_sq, post.get()) for s in scored[: MAX_CANDIDATES * 2]]
    return options, top


class _Post:
    """`hit_and_run`'s post, looked for only when a candidate attacks from where the
    creature stands (issue 14: a turn with no such candidate never reads it; the search
    reads the decision's facts and caches only, so when it runs changes nothing)."""

    def __init__(self, turn: Turn, powers: list[Power]) -> None:
        self.turn = turn
        self.powers = powers
        self.done = False
        self.post: tuple[Route, float] | None = None

    def get(self) -> tuple[Route, float] | None:
        if not self.done:
            self.done = True
            self.post = hit_and_run(self.turn, self.powers)
        return self.post


def _score_all(
    turn: Turn,
    powers: list[Power],
    attack_sq: dict[Square, Route | None],
    top: list[Square],
    lazy: _Post,
) -> list[Scored]:
    ctx = turn.ctx
    f = ctx.f
    targets = [*f.enemies, *f.downed]
    out: list[Scored] = []
    for p in powers:
        provokes_act = p.kind in ("ranged", "area")
        at_will = p.usage == "at-will"
        for sq, hits, origin in attack_options(ctx, p, targets, attack_sq, top):
            via = attack_sq[sq]
            cost, surv, _ = turn.route_cost[sq]
            if provokes_act:
                act_cost, act_surv, _ = act_provokes(ctx, sq, via)
                cost += act_cost
                surv *= act_surv
            worth = hits[0].value if len(hits) == 1 else sum(h.value for h in hits)
            spend = 0.0 if at_will else ctx.spend_cost(p, worth, [f.b[h.target] for h in hits])
            here = turn.value(sq)
            score = worth * surv - cost - spend + here
            post = lazy.get() if via is None else None
            run = post is not None and post[1] > here + 0.5
            if run and post is not None:
                score += post[1] - here
            out.append(Scored(score, len(out), p, sq, hits, origin, run))
    return out


def _option(
    turn: Turn, s: Scored, attack_sq: dict[Square, Route | None], post: tuple[Route, float] | None
) -> Option:
    via = attack_sq[s.at]
    provoked = turn.route_cost[s.at][2]
    act_who: tuple[str, ...] = ()
    if s.power.kind in ("ranged", "area"):
        act_who = act_provokes(turn.ctx, s.at, via)[2]
    after = post[0] if s.run and post is not None else None
    if after is not None:
        provoked = provoked + turn.route_cost[after.end][2]
    return Option(
        "attack",
        s.score,
        s.at if after is None else after.end,
        via,
        s.power,
        named_targets(s.power, s.hits),
        s.origin,
        tuple(s.hits),
        after,
        provoked + act_who,
        turn.avoided(via),
    )


def named_targets(p: Power, hits: list[Hit]) -> tuple[str, ...]:
    """The `targets` of the action: the creature(s) of a single-target power; for an area,
    none (everyone caught) unless it caught as many as the power may affect, when the ones
    chosen are named (the engine asks for a choice when the area holds more)."""
    if not p.is_area:
        return tuple(h.target for h in hits)
    return tuple(h.target for h in hits) if len(hits) >= p.targets else ()
