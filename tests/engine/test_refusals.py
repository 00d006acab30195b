"""Typed refusals: every `Impossible` carries one code of the closed set `Refusal`, so the AI
and the app branch on the code, never on the text (issue 13). One case per kind of refusal
the turn engine gives, named by the clause that makes it illegal where there is one."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import (
    Action,
    Bluff,
    Delay,
    EndTurn,
    FullAttack,
    Impossible,
    Move,
    Ready,
    SecondWind,
    SpendActionPoint,
    StandUp,
    Sustain,
    UsePower,
    Withdraw,
)
from engine.encounter import Encounter
from engine.refusals import Refusal
from tests.support.actions import POWERS, UNIT
from tests.support.helpers import Builder, mon

# a at (1,1) and b at (2,1) are adjacent; c at (5,1) stands behind the wall x=3, y=0..3
GRID = "...#......\n...#......\n...#......\n...#......\n..........\n..........\n"


def fight(build: Builder, **kw: Any) -> Encounter:
    return build(
        GRID,
        [
            mon("a", (1, 1), "unit", side="party"),
            mon("b", (2, 1), "unit"),
            mon("c", (5, 1), "unit"),
        ],
        creatures=[UNIT],
        powers=POWERS,
        faces=[20, 15, 10, 2, 2, 2, 2],
        **kw,
    )


LONG_WAY = ((1, 1), (1, 2), (1, 3), (1, 4), (2, 5), (3, 5), (4, 5), (5, 5))  # 7 > speed 6

CASES: list[tuple[str, Action, Refusal]] = [
    ("unknown-power", UsePower("nope", ("b",)), Refusal.UNKNOWN_POWER),
    ("X-PWR-1-immediate", UsePower("parry", ("b",)), Refusal.WRONG_POWER),
    ("F-ATK-needs-target", UsePower("jab", ()), Refusal.NEEDS_TARGET),
    ("too-many-targets", UsePower("jab", ("b", "c")), Refusal.TOO_MANY_TARGETS),
    ("bad-target", UsePower("jab", ("zz",)), Refusal.BAD_TARGET),
    ("F-MOD-4-out-of-reach", UsePower("jab", ("c",)), Refusal.OUT_OF_RANGE),
    ("F-MOD-4-line-of-effect", UsePower("zap", ("c",)), Refusal.NO_LINE_OF_EFFECT),
    ("bad-move-mode", Move(((1, 1), (1, 0)), "fly"), Refusal.BAD_MOVE_MODE),
    ("path-not-from-mover", Move(((0, 0), (1, 0))), Refusal.BAD_PATH),
    ("path-not-adjacent", Move(((1, 1), (1, 3))), Refusal.BAD_PATH),
    ("path-into-wall", Move(((1, 1), (2, 0), (3, 1))), Refusal.BLOCKED),
    ("path-through-enemy", Move(((1, 1), (2, 1))), Refusal.OCCUPIED),
    ("S-11-too-far", Move(LONG_WAY), Refusal.TOO_FAR),
    ("stand-up-not-prone", StandUp(), Refusal.NOTHING_TO_DO),
    ("sustain-nothing", Sustain("nothing"), Refusal.NOTHING_TO_DO),
    ("no-second-wind", SecondWind(), Refusal.NO_RESOURCE),
    ("bluff-not-adjacent", Bluff("c"), Refusal.OUT_OF_RANGE),
    ("bluff-unknown-creature", Bluff("zz"), Refusal.BAD_TARGET),
    ("ready-an-immediate", Ready("parry"), Refusal.WRONG_POWER),
    ("D-1-no-full-attack-in-ffd20", FullAttack("jab", ("b",)), Refusal.NOT_IN_RULESET),
    ("S-15-no-withdraw-in-ffd20", Withdraw(((1, 1), (1, 0))), Refusal.NOT_IN_RULESET),
]


@pytest.mark.parametrize(("action", "code"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_refusal_has_its_code(build: Builder, action: Action, code: Refusal) -> None:
    enc = fight(build)
    before = enc.snapshot()
    refusal = enc.refusal(action)
    assert refusal is not None and refusal.code is code, refusal
    assert enc.validate(action) == refusal.reason
    with pytest.raises(Impossible) as info:
        enc.apply(action)
    assert info.value.code is code
    assert enc.snapshot() == before, "a refused action changes nothing"


def test_F_TRN_1_no_action_left_is_a_code_in_power_refusals(build: Builder) -> None:
    enc = fight(build)
    enc.apply(UsePower("jab", ("b",)))
    refusals = dict((p.id, r) for p, r in enc.power_refusals())
    jab = refusals["jab"]
    assert jab is not None and jab.code is Refusal.NO_ACTION_LEFT
    assert dict((p.id, r) for p, r in enc.usable_powers())["jab"] == jab.reason
    second = enc.refusal(UsePower("jab", ("b",)))
    assert second is not None and second.code is Refusal.NO_ACTION_LEFT


def test_X_PWR_1_a_spent_power_is_power_spent(build: Builder) -> None:
    enc = fight(build)
    enc.apply(UsePower("burst", ("b",)))
    enc.apply(EndTurn())
    enc.apply(EndTurn())
    enc.apply(EndTurn())
    refusal = enc.refusal(UsePower("burst", ("b",)))
    assert refusal is not None and refusal.code is Refusal.POWER_SPENT


def test_X_ACT_1_delay_after_acting_is_already_acted(build: Builder) -> None:
    enc = fight(build)
    enc.apply(UsePower("jab", ("b",)))
    refusal = enc.refusal(Delay())
    assert refusal is not None and refusal.code is Refusal.ALREADY_ACTED


def test_X_ACT_2_no_action_point_to_spend_is_no_resource(build: Builder) -> None:
    enc = fight(build)
    first = enc.refusal(SpendActionPoint())
    assert first is not None and first.code is Refusal.NO_RESOURCE  # monsters have none


def test_the_encounter_itself_refuses_with_codes(build: Builder) -> None:
    enc = fight(build, start=False)
    refusal = enc.refusal(EndTurn())
    assert refusal is not None and refusal.code is Refusal.NOT_STARTED
    enc.start()
    with pytest.raises(Impossible) as info:
        enc.start()
    assert info.value.code is Refusal.ALREADY_STARTED


def test_refusal_codes_are_a_closed_set_of_readable_strings() -> None:
    assert all(code.value == code.name.lower() for code in Refusal)
    assert Refusal("no_action_left") is Refusal.NO_ACTION_LEFT
