"""One handler per action type (issue 13): the encounter, the save format and the short
descriptions all dispatch through `engine.handlers`, so a new action is one handler module
(here: one class in the test) and nothing else."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from engine import actions as A
from engine.actions import Action, Impossible, action_from_json
from engine.encounter import Encounter
from engine.events import ActionSpent, Note
from engine.handlers import HANDLERS, Handler, describe_action, register
from engine.handlers.base import Naming, spend, spend_check
from engine.refusals import Refusal
from engine.save import describe
from engine.state import Combatant
from tests.support.actions import POWERS, UNIT
from tests.support.helpers import Builder, events, mon

GRID = "..........\n..........\n"

EVERY = [
    A.Move(((1, 1), (1, 0)), "walk"),
    A.UsePower("jab", ("b",)),
    A.UsePower("zap", origin=(3, 4), squares=((3, 4),)),
    A.SecondWind(),
    A.StandUp(),
    A.Sustain("e1"),
    A.SpendActionPoint(),
    A.Delay(),
    A.Ready("jab"),
    A.Bluff("b"),
    A.HealCheck("b"),
    A.EndTurn(),
    A.FullAttack("jab", ("b", "c")),
    A.Withdraw(((1, 1), (0, 1))),
    A.GmHp("b", "heal", 3),
    A.GmEffect("b", "save_ends", condition="dazed"),
    A.GmEffect("b", "end_of_encounter", ongoing=5, ongoing_type="fire", label="burning"),
    A.GmEndEffect("e1"),
    A.GmAdd("goblin", "monsters", (3, 4)),
    A.GmAdd("goblin", "monsters", (3, 4), "gob-9", 12),
    A.GmRemove("b"),
]


def test_every_action_type_has_exactly_one_handler() -> None:
    kinds = {type(a) for a in EVERY}
    assert {h.action for h in HANDLERS.values()} == kinds
    assert all(HANDLERS[a.name].action is type(a) for a in EVERY)


@pytest.mark.parametrize("act", EVERY, ids=[a.name for a in EVERY])
def test_old_saves_load_every_action_unchanged(act: Action) -> None:
    assert action_from_json(act.to_json()) == act


@pytest.mark.parametrize(
    "raw",
    [
        {"action": "fly"},
        {"action": 3},
        {"action": "move", "path": 5},
        {"action": "move"},
        {"action": "move", "path": [[1, 1], [1, "x"]]},
        {"action": "move", "path": [[1, 1], [1, 2, 3]]},
        {"action": "move", "path": [[1, 1], [True, 2]]},
        {"action": "move", "path": [[1, 1]], "mode": {"a": 1}},
        {"action": "power", "power": "jab", "targets": "b"},
        {"action": "power", "power": "jab", "targets": [1]},
        {"action": "power", "power": "jab", "origin": [1]},
        {"action": "power", "power": ["jab"]},
    ],
)
def test_a_foreign_action_record_is_a_one_line_value_error(raw: dict[str, Any]) -> None:
    with pytest.raises(ValueError) as info:
        action_from_json(raw)
    assert "\n" not in str(info.value)


def test_descriptions_come_from_the_handlers() -> None:
    class Names:
        def who(self, cid: str | None) -> str:
            return {"b": "Bugbear"}.get(cid or "", cid or "?")

        def power(self, pid: str | None) -> str:
            return (pid or "?").title()

    assert describe_action(A.UsePower("jab", ("b",)), "Ann", Names()) == "Ann: Jab on Bugbear"
    assert describe(A.UsePower("jab", ("b",)), "Ann") == "Ann: jab on b"
    assert describe(A.Move(((1, 1), (2, 1)), "run"), None) == "?: run to 2,1"
    assert describe(A.StandUp(), "Ann") == "Ann: stand up"


# --- a new action, registered by the test alone -------------------------------------------
@dataclass(frozen=True, slots=True)
class Shout(Action):
    """A minor action that logs a note: nothing but a handler makes it exist."""

    name: ClassVar[str] = "shout"
    words: str = "hey"


class ShoutHandler(Handler[Shout]):
    action = Shout

    def check(self, enc: Encounter, c: Combatant, act: Shout) -> str:
        if not act.words:
            raise Impossible("say something", Refusal.NEEDS_TARGET)
        spend_check(enc, "minor", "a shout")
        return act.words.upper()

    def perform(self, enc: Encounter, c: Combatant, act: Shout, plan: str) -> None:
        spend(enc, c, "minor", "shout")
        enc.battle.emit(Note(c.id, plan))

    def describe(self, act: Shout, who: str, names: Naming) -> str:
        return f"{who} shouts {act.words!r}"


@pytest.fixture
def shout() -> Iterator[None]:
    register(ShoutHandler)
    try:
        yield
    finally:
        del HANDLERS["shout"]


def test_F_TRN_1_a_new_action_needs_only_its_handler(build: Builder, shout: None) -> None:
    enc = build(
        GRID,
        [mon("a", (1, 1), "unit", side="party"), mon("b", (5, 1), "unit")],
        creatures=[UNIT],
        powers=POWERS,
        faces=[20, 10],
    )
    out = enc.apply(Shout("charge"))
    assert [(s.kind, s.name) for s in events(out, ActionSpent)] == [("minor", "shout")]
    assert [n.text for n in events(out, Note)] == ["CHARGE"]
    enc.apply(Shout("again"))  # F-TRN-1: the move and the standard may be spent as minors
    enc.apply(Shout("and again"))
    refusal = enc.refusal(Shout("once more"))
    assert refusal is not None and refusal.code is Refusal.NO_ACTION_LEFT
    empty = enc.refusal(Shout(""))
    assert empty is not None and empty.code is Refusal.NEEDS_TARGET
    assert action_from_json(Shout("charge").to_json()) == Shout("charge")
    assert describe(Shout("charge"), "Ann") == "Ann shouts 'charge'"
    again = Encounter.replay(enc.loaded, enc.records, seed=enc.seed)
    assert again.snapshot() == enc.snapshot()


def test_an_action_with_no_handler_is_refused(build: Builder) -> None:
    enc = build(
        GRID,
        [mon("a", (1, 1), "unit", side="party"), mon("b", (5, 1), "unit")],
        creatures=[UNIT],
        powers=POWERS,
        faces=[20, 10],
    )
    refusal = enc.refusal(Shout("hey"))
    assert refusal is not None and refusal.code is Refusal.UNKNOWN_ACTION
