"""Issue 16 item 2: stabilizing the dying, an addition to the specification (S-10 names only
death saving throws). The usual 4e rule: a Heal check (standard action, adjacent, DC 15)
makes a dying creature stable: no more death saves; a stable creature that takes damage is
dying again. Healing does not reset failed death saves (no clause says it does)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import EndTurn, HealCheck, Impossible, UsePower, action_from_json
from engine.encounter import Encounter
from engine.events import Check, DeathSave, StateChange
from engine.refusals import Refusal
from tests.engine.test_rules_hp import BRUTE, GRID, HERO, POWERS, hit
from tests.support.helpers import Builder, dummy, events, mon, pc

MEDIC = dict(HERO, id="medic", name="Medic", skills={"heal": 5})


def fight(build: Builder, faces: list[int], medic_pos: tuple[int, int] = (3, 1)) -> Encounter:
    """The brute `b` acts first and drops the fighter `f` to -1 (dying); the fighter's turn
    passes with a death save (the first face); then the medic `c` (Heal +5) acts."""
    enc = build(
        GRID,
        [mon("b", (1, 1), "brute"), pc("f", (2, 1)), pc("c", medic_pos, "medic")],
        creatures=[BRUTE, HERO, MEDIC, dummy()],
        powers=POWERS,
        faces=[20, 2, 1, 10, *faces],  # initiative, the brute's attack roll
    )
    hit(enc, 31)
    enc.apply(EndTurn())
    assert enc.current is not None and enc.current.id == "c"
    return enc


def test_S_10_addition_heal_check_dc_15_stabilizes_the_dying(build: Builder) -> None:
    enc = fight(build, [12, 10])  # death save 12 (success), Heal 10 + 5 = 15
    out = enc.apply(HealCheck("f"))
    checks = events(out, Check)
    assert [(k.id, k.skill, k.total, k.against, k.success) for k in checks] == [
        ("c", "heal", 15, 15, True)
    ]
    assert [(s.id, s.state, s.hp) for s in events(out, StateChange)] == [("f", "stable", -1)]
    assert enc.battle["f"].state == "stable"


def test_S_10_addition_a_stable_creature_makes_no_death_saves(build: Builder) -> None:
    enc = fight(build, [12, 10])
    enc.apply(HealCheck("f"))
    before = len(events(enc, DeathSave))
    for _ in range(6):  # two more rounds pass
        enc.apply(EndTurn())
    assert len(events(enc, DeathSave)) == before
    assert enc.battle["f"].state == "stable"


def test_S_10_addition_heal_check_below_15_leaves_it_dying(build: Builder) -> None:
    enc = fight(build, [12, 9])
    out = enc.apply(HealCheck("f"))
    assert [k.success for k in events(out, Check)] == [False]
    assert events(out, StateChange) == [] and enc.battle["f"].state == "dying"


def test_S_10_addition_a_stable_creature_that_takes_damage_is_dying_again(
    build: Builder,
) -> None:
    enc = fight(build, [12, 10, 10, 12])  # ..., the brute's attack roll, a death save
    enc.apply(HealCheck("f"))
    enc.apply(EndTurn())  # the medic; round 2: the brute
    assert enc.current is not None and enc.current.id == "b"
    out = hit(enc, 1)
    assert [(s.state, s.hp) for s in events(out, StateChange)] == [("dying", -2)]
    enc.apply(EndTurn())  # the fighter's turn: a death save again
    assert events(enc, DeathSave)[-1].id == "f"


@pytest.mark.parametrize(
    ("target", "pos", "code"),
    [
        pytest.param("b", (3, 1), Refusal.BAD_TARGET, id="not-dying"),
        pytest.param("f", (4, 2), Refusal.OUT_OF_RANGE, id="not-adjacent"),
        pytest.param("nobody", (3, 1), Refusal.BAD_TARGET, id="unknown"),
    ],
)
def test_S_10_addition_heal_check_refusals(
    build: Builder, target: str, pos: tuple[int, int], code: Refusal
) -> None:
    enc = fight(build, [12], medic_pos=pos)
    with pytest.raises(Impossible) as err:
        enc.apply(HealCheck(target))
    assert err.value.code is code
    assert enc.battle["f"].state == "dying"


def test_F_TRN_1_heal_check_needs_the_standard_action(build: Builder) -> None:
    enc = fight(build, [12, 10])
    enc.battle.spent["standard"] = 1
    with pytest.raises(Impossible) as err:
        enc.apply(HealCheck("f"))
    assert err.value.code is Refusal.NO_ACTION_LEFT


def test_S_10_healing_does_not_reset_failed_death_saves(build: Builder) -> None:
    enc = fight(build, [5])  # the death save fails: one failure
    assert enc.battle["f"].death_failures == 1
    enc.apply(UsePower("heal-flat", ("f",)))  # 0 + 10 = 10 hp
    f = enc.battle["f"]
    assert f.hp == 10 and f.state == "bloodied" and f.death_failures == 1


def test_heal_check_saves_and_replays_as_json() -> None:
    data: dict[str, Any] = HealCheck("f").to_json()
    assert data == {"action": "heal_check", "target": "f"}
    assert action_from_json(data) == HealCheck("f")
