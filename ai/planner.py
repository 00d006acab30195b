"""Turn planning for the tactical policy: every candidate turn generated, scored, the best chosen.

`Planner.decide` builds the decision's `Context` (`ai.scoring`: facts, caches, the scorer),
takes the minor actions worth taking first (`ai.minor`), works out the rest of the turn
(`ai.turn.Turn`: what is left of it, where the creature can go) and asks each candidate
generator for its options:

- attacks from a square, or from where it stands followed by a move (`ai.attack_plans`);
- the d20srd full attack and the 4srd/d20srd withdraw (`ai.full_round`);
- moves with no attack, toward the enemy it wants or away when fleeing, and staying put
  (`ai.moving`);
- powers with no attack roll as the standard action (`ai.utility`), and a second wind;
- prone with one action (dazed): standing up, weighed against the rest (`stand_option`).

Provoking turns pay a tie-breaker, and those the creature can't expect to survive are set
aside unless a kill or a rescue pays for them, counting what the minor actions taken first
provoke; a chosen turn that provokes is swapped for the same turn provoking fewer where any
square the creature can reach gives one (`ai.provoking`).

The best option (by score) is the turn; the policy (`ai.tactical`) turns it into engine
actions. What the planner remembers between decisions is the side's `SideMemory`, keyed by
where the fight stands (`engine.progress`), so undo and resume can't mislead it.
"""

from __future__ import annotations

from typing import Literal

from ai.attack_plans import MAX_CANDIDATES, attack_plans, attack_powers
from ai.comers import sighting
from ai.config import TOP_K, AIConfig
from ai.first_aid import first_aid_options
from ai.full_round import full_attack_options, withdraw_options
from ai.memory import SideMemory
from ai.minor import minor_actions, second_wind_value
from ai.moving import CAP, approach_terms, hold_note, moving_options, second_move
from ai.plan import Budget, Option, budget
from ai.provoking import act_provokes_now, calmer, deadly, reckon_two_moves, settle
from ai.roles import weights_for
from ai.routes import threat_near
from ai.scoring import Context
from ai.styles import Style, cautious, resolve, spare_dying
from ai.turn import Habits, Turn
from ai.utility import Utility, heals_out_of_reach, utilities
from engine.encounter import Encounter
from engine.grid import Terrain
from engine.state import Combatant

__all__ = ["MAX_CANDIDATES", "TOP_K", "Planner"]

Square = tuple[int, int]
Stand = Literal["first", "weigh", "no"]
STAND_WORTH = 1.0
"""What standing up is worth beyond staying put with nothing done (no -2 to its attacks next
turn, no move action spent on it then), before the combat advantage it denies."""


def stand_option(turn: Turn, options: list[Option]) -> Option:
    """Standing up as the turn's only action: worth staying put, plus `STAND_WORTH`, plus a
    tenth of the melee damage of the enemies next to it (the +2 for combat advantage that
    prone grants them)."""
    ctx = turn.ctx
    f = ctx.f
    stay = max((o.score for o in options if o.kind == "stay"), default=turn.value(turn.s0))
    near = f.threat_mask.get(turn.s0, 0)
    ca = sum(ctx.danger(f.b[e]).melee for e in f.threat_ids if near & f.threat_bit[e])
    return Option("stand", stay + STAND_WORTH + 0.1 * ca, turn.s0, replan_after=True)


class Planner:
    """Generates and scores the candidate turns of one side's creatures (see the module
    docstring); keeps the side's memory."""

    def __init__(self, config: AIConfig | None = None) -> None:
        """`config`: the configuration and the command line's styles (`ai.styles`); with the
        `flee` style, monsters (not minions, not player characters) break off when down to a
        quarter of their hit points and come back at three quarters (Brogue's rule, whose gap
        keeps them from flip-flopping)."""
        self.config = config or AIConfig()
        self.top_k = self.config.top_k
        self.flee = self.config.flee
        self.memory = SideMemory()
        self.last_options: list[Option] = []
        """The scored options of the last plan, best first (for tests and tuning)."""
        self.last_turn: Turn | None = None
        """The `Turn` the last plan was made from (for the audits: `tests/soak`)."""

    def begin(self, enc: Encounter, c: Combatant) -> bool:
        """Note a decision of `c` now; True if it is the first of its turn."""
        first = self.memory.begin(enc, c.id, c.pos)
        if first and self.config.read_comers:
            self.memory.note(c.id, enc.battle.turn_counter, "seen", sighting(enc.battle, c))
        return first

    def note_first(self, enc: Encounter, c: Combatant, option: Option) -> None:
        """What the first decision of `c`'s turn did: turns in a row with nothing attacked
        make it bolder (`ai.moving`): two sides that each wait out of the other's reach would
        otherwise never meet."""
        acted = option.kind in ("attack", "full_attack", "utility")
        self.memory.note(c.id, enc.battle.turn_counter, "acted", acted)

    # --- deciding ------------------------------------------------------------------------
    def decide(
        self,
        enc: Encounter,
        c: Combatant,
        extra_standard: int = 0,
        moves_only: bool = False,
        extras: bool = True,
    ) -> Option:
        """The best turn for `c` from here. `extra_standard`: as if an action point were
        spent; `moves_only`: the first move of two found nothing to attack; `extras`: weigh
        the minor actions (sustains, attackless powers) that come before the rest."""
        self.memory.sync(enc)
        style = self.style(enc, c)
        weights = cautious(weights_for(c, config=self.config), style)
        ctx = Context(enc, c, weights, self.memory)
        bud = budget(ctx.f.b, c, extra_standard)
        pre, bud, utils = self._before(ctx, bud, extra_standard, extras)
        stuck = ctx.f.b.flag(c, "cant_move")
        stand = self._stands(ctx, bud, extra_standard)
        if stand == "first":
            o = Option("stand", 0.0, c.pos, replan_after=True, extras=pre)
            self.last_options = [o]
            self.last_turn = None
            return o
        turn = Turn.of(ctx, bud, Habits.of(self.memory, c.id, enc.battle.turn_counter), stuck)
        fleeing = self._is_fleeing(enc, c, style)
        options = self._options(turn, utils, moves_only, fleeing)
        if stand == "weigh":
            options.append(stand_option(turn, options))
        early = act_provokes_now(ctx, pre) if self.config.calm else ()
        settle(turn, options, early)  # needless and deadly opportunity attacks (`ai.provoking`)
        note = ""
        if not style.ruthless:
            options, note = spare_dying(enc.battle, options)
        options.sort(key=lambda o: -o.score)
        self.last_options = options
        self.last_turn = turn
        best = self._calmer(turn, options, fleeing) if self.config.calm else options[0]
        best.extras = pre
        best.style_note = note
        if best.kind == "move" and best.route is not None and bud.two_moves and not fleeing:
            self._second_move(turn, best)
        if best.kind == "stay" and self.config.read_powers:
            hold_note(ctx.f.b, best, options)
        if best.kind in ("move", "stay") and best.goal is not None:
            self.memory.note(c.id, enc.battle.turn_counter, "goal", best.goal)
        return best

    def _second_move(self, turn: Turn, best: Option) -> None:
        """Plan the second move of a double move now (`ai.moving.second_move`); with `calm`,
        not one whose opportunity attacks, with the first move's, the creature can't expect
        to survive (it plans again from the first move's end instead)."""
        before = (best.post, best.provoked, best.replan_after)
        f = turn.ctx.f
        if self.config.calm and threat_near(f.threat_mask, best.end, turn.speed):
            # What the second leg provokes of enemies farther off counts. With no threatened
            # square within its reach it provokes no one: the far enemies' figures would
            # change no route, cost or `deadly` (the first leg can't reach their reach),
            # so their estimates are not worked out (`tests/ai/test_side_turn_fast.py`).
            reckon_two_moves(turn.ctx)
        second_move(turn, best, self.config.calm)
        if self.config.calm and best.post is not None and deadly(turn, best):
            best.post, best.provoked, best.replan_after = before

    @staticmethod
    def _calmer(turn: Turn, options: list[Option], fleeing: bool) -> Option:
        """The best option, or the same turn provoking fewer (`ai.provoking.calmer`)."""
        best = options[0]
        if not best.provoked:
            return best
        approach = None
        if best.kind == "move" and not fleeing:
            approach = approach_terms(turn, turn.moves, CAP, exact=True)[1]
        elif best.kind == "move":
            ctx = turn.ctx
            approach = {
                sq: 0.8 * ctx.nearest_gap(sq) + 0.5 * turn.value(sq)
                for sq in [turn.s0, *turn.moves]
            }
        alt = calmer(turn, best, approach)
        if alt is None:
            return best
        options[0] = alt
        return alt

    def _before(
        self, ctx: Context, bud: Budget, extra_standard: int, extras: bool
    ) -> tuple[tuple[Utility, ...], Budget, list[Utility]]:
        """The minor actions taken first, the budget left after them, and the attackless
        standard actions still to weigh; and the heals out of reach (`Caches.support`)."""
        utils = utilities(ctx) if extras else []
        pre: tuple[Utility, ...] = ()
        if utils:
            pre, bud = minor_actions(ctx, utils, bud, extra_standard, self.config.calm)
            healed = frozenset(i for u in pre for i in u.healed)
            if healed:  # what the minor actions heal is not there to heal again
                utils = [u for u in utilities(ctx, healed) if u.kind == "standard"]
        me = ctx.f.me
        if extras and bud.minor and any(p.attack is None for p in me.powers):
            ctx.c.support = heals_out_of_reach(ctx)
        return pre, bud, utils

    @staticmethod
    def _stands(ctx: Context, bud: Budget, extra_standard: int) -> Stand:
        """Prone, with a move action left and not at the bottom of a pit: "first" if standing
        up (a move action; immobilized creatures may, as it moves no square) still leaves an
        action to use (F-TRN-1: it stands, then plans the rest); "weigh" if it would spend the
        turn's only action (dazed, a surprise round), where attacking or shifting from the
        ground is weighed against it (`stand_option`); else "no"."""
        f = ctx.f
        if not f.b.has(f.me, "prone") or not bud.move:
            return "no"
        if f.bmap.cell(f.me.pos).terrain == Terrain.PIT:
            return "no"
        after = budget(f.b, f.me, extra_standard, ("move",))
        return "first" if after.standard or after.move else "weigh"

    def _options(
        self, turn: Turn, utils: list[Utility], moves_only: bool, fleeing: bool
    ) -> list[Option]:
        """Every candidate turn, from every generator."""
        ctx = turn.ctx
        enc = ctx.f.enc
        powers = [] if moves_only else attack_powers(enc, turn.bud.standard)
        options, top = attack_plans(turn, powers, self.top_k)
        if not moves_only:  # d20srd: every iterative attack, from where it stands
            options.extend(full_attack_options(turn, powers))
        if fleeing:
            for o in options:
                o.score -= 0.6 * (o.hits[0].value if o.hits else 0.0) + 3.0
        moving = self._moving(turn, options, fleeing)
        if any(p.kind != "melee" for p in powers):
            tried = set(top)
            for o in moving:
                o.searched = o.end in tried
        options.extend(moving)
        if any(o.kind == "move" and o.provoked for o in moving) or (
            fleeing and turn.threatened_at_start
        ):  # 4srd, d20srd: a double move that leaves its first square unprovoked
            if self.config.calm:
                reckon_two_moves(ctx)
            options.extend(withdraw_options(turn, fleeing))
        stay = next(o for o in moving if o.kind == "stay")
        for u in utils:
            if u.kind == "standard" and turn.bud.standard and enc.validate(u.action) is None:
                who = act_provokes_now(ctx, [u]) if self.config.calm else ()
                options.append(
                    Option(
                        "utility",
                        u.value + stay.score,
                        turn.s0,
                        action=u.action,
                        note=u.text,
                        provoked=who,
                    )
                )
        options.extend(first_aid_options(enc, ctx.f.me, turn.bud, stay.score))
        sw = second_wind_value(ctx.f.me, turn.bud)
        if sw > 0:
            options.append(Option("second_wind", sw + turn.value(turn.s0), turn.s0))
        return options

    @staticmethod
    def _moving(turn: Turn, attacks: list[Option], fleeing: bool) -> list[Option]:
        """The moves with no attack; ranked by walking distance (exactly) when there is
        nothing worth attacking, else by the cheap straight-line ranking."""
        moving = moving_options(turn, turn.moves, turn.route_cost, fleeing, exact=not attacks)
        best_attack = max((o.score for o in attacks), default=None)
        if best_attack is not None and not fleeing and moving[0].score > best_attack:
            # Nothing worth attacking after all: rank the moves by walking distance.
            moving = moving_options(turn, turn.moves, turn.route_cost, fleeing, exact=True)
        return moving

    def style(self, enc: Encounter, c: Combatant) -> Style:
        """`c`'s effective style (`ai.styles.resolve`): the command line's, the content's,
        the configuration's."""
        return resolve(enc, c, self.config)

    def _is_fleeing(self, enc: Encounter, c: Combatant, style: Style) -> bool:
        """Breaking off (the `flee` style): from a quarter of its hit points until three
        quarters."""
        if not style.flee or c.pc or c.creature.minion:
            return False
        fleeing = self.memory.fleeing(c.id)
        if c.hp <= c.max_hp // 4:
            fleeing = True
        elif c.hp >= (3 * c.max_hp) // 4:
            fleeing = False
        self.memory.note(c.id, enc.battle.turn_counter, "fleeing", fleeing)
        return fleeing
