"""A controller that answers nonsense in the middle of an action (issue 15, brief item 4): the
action is refused with the question's reason (`Refusal.BAD_ANSWER`) and the fight is exactly
as before it, the dice included (`engine.rollback`); an honest answer then plays as if the
bad one had never been given."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import EndTurn, Impossible, Move, UsePower
from engine.decisions import (
    AutoDecider,
    ForcedMoveQuestion,
    OpportunityQuestion,
    Question,
)
from engine.encounter import Encounter
from engine.events import Attack, Moved
from engine.refusals import Refusal
from tests.support.helpers import Builder, dummy, events, poke
from tests.support.movement import fight as move_fight
from tests.support.movement import mon


class Hostile:
    """Answers the first question of type `kind` with `bad`, and honestly from then on."""

    def __init__(self, kind: type[Question[Any]], bad: object) -> None:
        self.kind = kind
        self.bad = bad
        self.lied = False

    def answer(self, question: Question[Any]) -> Any:
        if isinstance(question, self.kind) and not self.lied:
            self.lied = True
            return self.bad
        return AutoDecider().answer(question)


def _state(enc: Encounter) -> tuple[Any, ...]:
    b = enc.battle
    return (
        enc.snapshot(),
        [(lg.seq, lg.event) for lg in enc.log],
        list(enc.records),
        b.current,
        b.round,
        dict(b.spent),
        b.moved_this_turn,
    )


def _refused(enc: Encounter, action: Any, needle: str) -> None:
    before = _state(enc)
    with pytest.raises(Impossible) as info:
        enc.apply(action)
    assert info.value.code is Refusal.BAD_ANSWER
    assert needle in info.value.reason and "\n" not in info.value.reason
    assert _state(enc) == before, "a refused answer changed the fight"


OA_BAD = [
    pytest.param("maybe", "expected yes/no", id="X-OA-1-a-word"),
    pytest.param(1, "expected yes/no", id="X-OA-1-a-number"),
    pytest.param(None, "expected yes/no", id="X-OA-1-none"),
]


@pytest.mark.parametrize(("bad", "needle"), OA_BAD)
def test_X_OA_1_a_bad_opportunity_answer_mid_move_changes_nothing(
    build: Builder, bad: object, needle: str
) -> None:
    """The mover has left the square (the opportunity is asked on the way): nothing of the
    move may stay."""
    liar = Hostile(OpportunityQuestion, bad)
    units = [mon("m", (1, 1), side="party"), mon("e", (2, 1))]
    enc = move_fight(build, units, [], deciders=lambda _c: liar)
    honest = move_fight(build, units, [], deciders=lambda _c: AutoDecider())
    walk = Move(((1, 1), (0, 1), (0, 2)))
    _refused(enc, walk, needle)
    assert enc.battle["m"].pos == (1, 1)
    got = enc.apply(walk)  # now answered honestly: the same dice as a fight never lied to
    want = honest.apply(walk)
    assert [lg.event for lg in got] == [lg.event for lg in want]
    assert enc.snapshot() == honest.snapshot()


def test_X_OA_1_the_refusal_ends_the_ai_turn_through_the_driver(build: Builder) -> None:
    """A refused action is reported like any other refusal (`ai.driver`): the turn goes on
    from the unchanged fight, and an end of turn still works."""
    liar = Hostile(OpportunityQuestion, "maybe")
    enc = move_fight(
        build, [mon("m", (1, 1), side="party"), mon("e", (2, 1))], [], deciders=lambda _c: liar
    )
    _refused(enc, Move(((1, 1), (0, 1))), "expected yes/no")
    enc.apply(EndTurn())
    assert enc.battle.current == "e"


FORCED_POWERS = [
    {
        "id": "shove",
        "name": "Shove",
        "kind": "melee",
        "attack": {"bonus": 30, "vs": "ac"},
        "hit": {"damage": {"dice": "1d6"}, "forced": {"kind": "push", "distance": 2}},
    },
    poke(
        "ac",
        id="jab",
        name="Jab",
        basic=True,
        attack={"bonus": 5, "vs": "ac"},
        hit={"damage": {"dice": "1d6"}},
    ),
]
UNIT = dummy(
    id="unit", name="Unit", role="controller", hp=30, initiative=0, powers=["shove", "jab"]
)
OPEN = "........\n........\n........\n........\n........\n"


@pytest.mark.parametrize(
    ("bad", "needle"),
    [
        pytest.param(99, "out of range", id="F-DMG-11-no-such-square"),
        pytest.param(-1, "out of range", id="F-DMG-11-negative"),
        pytest.param("left", "out of range", id="F-DMG-11-not-an-index"),
        pytest.param(True, "out of range", id="F-DMG-11-a-bool"),
    ],
)
def test_F_DMG_11_a_bad_push_answer_after_the_hit_changes_nothing(
    build: Builder, bad: object, needle: str
) -> None:
    """The attack has rolled and dealt its damage when the attacker's controller is asked
    where the push ends: the damage and the roll go too."""

    def make(decider: Any) -> Encounter:
        return build(
            OPEN,
            [
                {"id": "a", "creature": "unit", "side": "party", "pos": [1, 2]},
                {"id": "t", "creature": "unit", "side": "monsters", "pos": [2, 2]},
            ],
            creatures=[UNIT],
            powers=FORCED_POWERS,
            faces=[20, 1, 10, 4],
            deciders=lambda _c: decider,
        )

    liar = Hostile(ForcedMoveQuestion, bad)
    enc = make(liar)
    honest = make(AutoDecider())
    shove = UsePower("shove", ("t",))
    _refused(enc, shove, needle)
    assert enc.battle["t"].hp == 30 and enc.battle["t"].pos == (2, 2)
    assert not events(enc, Attack) and not [m for m in events(enc, Moved) if m.id == "t"]
    got = enc.apply(shove)
    assert [lg.event for lg in got] == [lg.event for lg in honest.apply(shove)]
    assert enc.battle["t"].hp == honest.battle["t"].hp < 30


def test_a_saved_bad_answer_is_still_the_replays_error(build: Builder) -> None:
    """A replay's answers are the save's: a bad one is the save's fault (the loader names the
    save), not a refusal to roll back."""
    from engine.decisions import InvalidAnswer

    enc = move_fight(build, [mon("m", (1, 1), side="party"), mon("e", (2, 1))], [2, 2])
    enc.apply(Move(((1, 1), (0, 1))))
    rec = enc.records[-1]
    tampered = [*enc.records[:-1], type(rec)(rec.action, rec.faces, ("yes",), rec.decision)]
    with pytest.raises(InvalidAnswer):
        Encounter.replay(enc.loaded, tampered, seed=enc.seed)


def test_a_typed_die_that_is_no_face_of_its_die_mid_attack_changes_nothing(
    build: Builder,
) -> None:
    """Manual dice (physical dice typed in): a 9 typed for a d6 after the attack roll was
    read refuses the attack; the faces read before it stand for the retry."""
    from engine.dice import DiceRequest, ManualDice

    typed = iter([20, 19, 15, 9, 4])
    asked: list[int] = []

    def ask(request: DiceRequest) -> int:
        asked.append(request.sides)
        return next(typed)

    units = [mon("m", (1, 1), side="party"), mon("e", (2, 1))]
    loaded = move_fight(build, units, [], start=False).loaded
    enc = Encounter.create(loaded, seed=1, dice=ManualDice(ask))
    enc.start()
    jab = UsePower("jab", ("e",))
    _refused(enc, jab, "d6")
    assert enc.battle["e"].hp == 30
    enc.apply(jab)
    assert asked == [20, 20, 20, 6, 6], "the d20 typed before the bad face is not asked again"
    assert enc.battle["e"].hp == 26
