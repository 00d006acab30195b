"""Durations (F-DUR-1..7) and saving throws (F-SAV-1..4): when each kind of effect ends,
sustaining, overlapping effects, the order of saves, one save per effect, aftereffects."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import EndTurn, Sustain, UsePower
from engine.encounter import Encounter
from engine.events import Attack, Damage, EffectEnd, EffectStart, Save, TurnEnd, TurnStart
from tests.support.helpers import Answers, Builder, dummy, events, mon, put_effect

GRID = "......\n......\n......\n"


def hex_power(pid: str, duration: str, **effect: Any) -> dict[str, Any]:
    """A sure hit (+20) that puts one effect with `duration` on the target."""
    eff = {"name": pid, "duration": duration, **effect}
    if not any(k in effect for k in ("conditions", "modifiers", "ongoing")):
        eff["modifiers"] = [{"stat": "ac", "value": -2}]
    return {
        "id": pid,
        "name": pid,
        "kind": "melee",
        "attack": {"bonus": 20, "vs": "ac"},
        "hit": {"effects": [eff]},
    }


POWERS = [
    {
        "id": "strike",
        "name": "Strike",
        "kind": "melee",
        "attack": {"bonus": 20, "vs": "ac"},
        "hit": {"damage": {"dice": "1d4"}},
    },
    hex_power("sont", "start_of_next_turn"),
    hex_power("eont", "end_of_next_turn"),
    hex_power("eoe", "end_of_encounter"),
    hex_power("se", "save_ends"),
    hex_power("sus", "sustain_minor"),
    hex_power("sus-std", "sustain_standard"),
    hex_power(
        "venom",
        "save_ends",
        ongoing={"amount": 5, "type": "poison"},
        modifiers=[{"stat": "will", "value": -2}],
    ),
    hex_power(
        "sleep",
        "save_ends",
        conditions=["slowed"],
        aftereffect={"duration": "save_ends", "conditions": ["weakened"]},
    ),
    hex_power("other-ac", "end_of_encounter", modifiers=[{"stat": "ac", "value": -2}]),
]
HEXER: dict[str, Any] = {
    "id": "hexer",
    "name": "Hexer",
    "role": "controller",
    "level": 1,
    "hp": 40,
    "defenses": {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12},
    "powers": [p["id"] for p in POWERS],
}


def fight(build: Builder, faces: list[int], **kw: Any) -> Encounter:
    """The hexer `h` (acting first) next to the dummy `t`; faces after initiative."""
    return build(
        GRID,
        [mon("h", (1, 1), "hexer", side="party"), mon("t", (2, 1), "dummy")],
        creatures=[HEXER, dummy()],
        powers=POWERS,
        faces=[20, 1, *faces],
        **kw,
    )


def cast(enc: Encounter, power: str) -> str:
    out = enc.apply(UsePower(power, ("t",)))
    started = events(out, EffectStart)
    assert len(started) == 1
    return str(started[0].effect)


def ended(enc: Encounter, eid: str) -> EffectEnd | None:
    return next((e for e in events(enc, EffectEnd) if e.effect == eid), None)


def where_ended(enc: Encounter, eid: str) -> tuple[str, str]:
    """(the event just before the effect_end, its creature) to place the end in the turn."""
    log = enc.log
    i = next(
        i for i, lg in enumerate(log) if isinstance(lg.event, EffectEnd) and lg.event.effect == eid
    )
    prev = log[i - 1].event
    return prev.type, getattr(prev, "id", "")


def turn_ended_with(enc: Encounter, eid: str) -> str:
    """Whose turn_end comes first after the effect ended (it ended as that turn ended)."""
    log = enc.log
    i = next(
        i for i, lg in enumerate(log) if isinstance(lg.event, EffectEnd) and lg.event.effect == eid
    )
    nxt = next(lg.event for lg in log[i:] if isinstance(lg.event, TurnEnd | TurnStart))
    assert isinstance(nxt, TurnEnd), "it ended inside a turn, before its end"
    return str(nxt.id)


# --- F-DUR-1..5 -------------------------------------------------------------------------------
def test_F_DUR_1_unless_noted_an_effect_is_instantaneous(build: Builder) -> None:
    enc = fight(build, [10, 3])
    out = enc.apply(UsePower("strike", ("t",)))
    assert events(out, Damage) and not events(out, EffectStart)
    assert enc.battle.effects == {}


def test_F_DUR_2_until_the_start_of_the_creators_next_turn(build: Builder) -> None:
    enc = fight(build, [10])
    eid = cast(enc, "sont")
    enc.apply(EndTurn())
    assert eid in enc.battle.effects, "lasts through the target's turn"
    enc.apply(EndTurn())  # the hexer's next turn starts
    end = ended(enc, eid)
    assert end is not None and end.reason == "expired"
    assert where_ended(enc, eid) == ("turn_start", "h")


def test_F_DUR_3_until_the_end_of_the_creators_next_turn(build: Builder) -> None:
    enc = fight(build, [10])
    eid = cast(enc, "eont")
    enc.apply(EndTurn())
    assert eid in enc.battle.effects, "not at the end of the turn it was made in"
    enc.apply(EndTurn())  # the dummy's turn ends; the hexer's next turn starts
    assert eid in enc.battle.effects, "still there during the creator's next turn"
    enc.apply(EndTurn())
    end = ended(enc, eid)
    assert end is not None and end.reason == "expired"
    assert turn_ended_with(enc, eid) == "h", "ends as the creator's next turn ends"


def test_F_DUR_4_until_the_end_of_the_encounter(build: Builder) -> None:
    enc = fight(build, [10, 4])
    # the hexer's own ward: the dummy's death ends the fight, not the hexer
    eid = put_effect(enc, "h", source="h", duration="end_of_encounter", modifiers=(("ac", 2),))
    for _ in range(6):
        enc.apply(EndTurn())
    assert eid in enc.battle.effects
    enc.battle["t"].hp = 1
    enc.apply(UsePower("strike", ("t",)))
    assert enc.over
    end = ended(enc, eid)
    assert end is not None and end.reason == "encounter_end"


def test_F_DUR_4_until_the_end_of_the_encounter_lasts_at_most_5_minutes(build: Builder) -> None:
    enc = fight(build, [10], round_limit=60)
    eid = cast(enc, "eoe")
    while enc.battle.round < 51:
        enc.apply(EndTurn())
        assert (eid in enc.battle.effects) is (enc.battle.round <= 50)
    end = ended(enc, eid)
    assert end is not None and end.reason == "expired"


@pytest.mark.parametrize(
    ("natural", "ends"), [pytest.param(10, True, id="save"), pytest.param(9, False, id="fail")]
)
def test_F_DUR_5_save_ends_at_the_targets_end_of_turn(
    build: Builder, natural: int, ends: bool
) -> None:
    enc = fight(build, [10, natural])
    eid = cast(enc, "se")
    assert not events(enc.apply(EndTurn()), Save), "no save at the end of the hexer's turn"
    out = enc.apply(EndTurn())
    save = events(out, Save)[0]
    assert (save.id, save.effect, save.when, save.success) == ("t", eid, "end_of_turn", ends)
    assert (eid in enc.battle.effects) is not ends
    if ends:
        assert ended(enc, eid) is not None and ended(enc, eid).reason == "save"  # type: ignore[union-attr]


# --- F-DUR-6 ----------------------------------------------------------------------------------
def test_F_DUR_6_sustain_from_the_next_turn_once_per_turn_with_the_named_action(
    build: Builder,
) -> None:
    enc = fight(build, [10])
    eid = cast(enc, "sus")
    reason = enc.validate(Sustain(eid))
    assert reason is not None, "not in the turn it was created"
    enc.apply(EndTurn())
    assert eid in enc.battle.effects, "needs no sustaining in its first turn"
    enc.apply(EndTurn())  # the dummy
    out = enc.apply(Sustain(eid))
    spent = [e for e in events(out) if e.type == "action"]
    assert [(a.kind, a.name) for a in spent] == [("minor", "sustain")]
    assert enc.validate(Sustain(eid)) is not None, "once per turn"
    enc.apply(EndTurn())
    assert eid in enc.battle.effects
    enc.apply(EndTurn())  # the dummy
    enc.apply(EndTurn())  # the hexer does not sustain it
    end = ended(enc, eid)
    assert end is not None and end.reason == "not_sustained"
    assert turn_ended_with(enc, eid) == "h"


def test_F_DUR_6_sustaining_needs_the_action_left(build: Builder) -> None:
    enc = fight(build, [10, 10])
    eid = cast(enc, "sus-std")
    enc.apply(EndTurn())
    enc.apply(EndTurn())
    enc.apply(UsePower("strike", ("t",)))  # the standard action is gone
    reason = enc.validate(Sustain(eid))
    assert reason is not None and "standard" in reason


def test_F_DUR_6_a_sustained_effect_lasts_at_most_5_minutes(build: Builder) -> None:
    enc = fight(build, [10], round_limit=60)
    eid = cast(enc, "sus")
    enc.apply(EndTurn())
    while eid in enc.battle.effects and enc.battle.round < 55:
        if enc.current is not None and enc.current.id == "h":
            if enc.validate(Sustain(eid)) is None:
                enc.apply(Sustain(eid))
            else:
                break
        enc.apply(EndTurn())
    assert eid not in enc.battle.effects
    assert 50 <= enc.battle.round <= 51, "50 rounds after it was made, not before"
    end = ended(enc, eid)
    assert end is not None and end.reason in ("expired", "not_sustained")


def test_F_DUR_6_a_creator_that_drops_can_no_longer_sustain(build: Builder) -> None:
    enc = fight(build, [10])
    eid = cast(enc, "sus")
    from engine.hp import update_state

    enc.battle["h"].hp = 0
    update_state(enc.battle, enc.battle["h"])
    assert eid not in enc.battle.effects


# --- F-DUR-7 ----------------------------------------------------------------------------------
def test_F_DUR_7_the_same_effect_from_two_powers_applies_once_and_lasts_the_longest(
    build: Builder,
) -> None:
    enc = fight(build, [10, 10, 10, 10])
    b = enc.battle
    short = cast(enc, "eont")  # ac -2 until the end of the hexer's next turn
    enc.apply(EndTurn())
    enc.apply(EndTurn())
    assert b.modifier(b["t"], "ac") == -2
    long = cast(enc, "other-ac")  # the same -2 until the end of the encounter
    assert b.modifier(b["t"], "ac") == -2, "the same effect doesn't stack"
    enc.apply(EndTurn())
    assert short not in b.effects and long in b.effects
    assert b.modifier(b["t"], "ac") == -2, "the one with the most time remaining applies"


ATTACK_HEX = hex_power("curse", "end_of_encounter", modifiers=[{"stat": "attack", "value": -2}])
ATTACK_HEX2 = hex_power("curse2", "end_of_next_turn", modifiers=[{"stat": "attack", "value": -2}])


def test_F_DUR_7_the_same_attack_penalty_from_two_powers_counts_once(build: Builder) -> None:
    powers = [*POWERS, ATTACK_HEX, ATTACK_HEX2]
    hexer = dict(HEXER, powers=[*HEXER["powers"], "curse", "curse2"])
    target = dummy(powers=["strike"])
    enc = build(
        GRID,
        [mon("h", (1, 1), "hexer", side="party"), mon("t", (2, 1), "dummy")],
        creatures=[hexer, target],
        powers=powers,
        faces=[20, 1, 10, 10],
    )
    enc.apply(UsePower("curse", ("t",)))
    enc.battle.spent["standard"] = 0  # a second power this turn, for the test
    enc.apply(UsePower("curse2", ("t",)))
    enc.apply(EndTurn())
    atk = events(enc.apply(UsePower("strike", ("h",))), Attack)[0]
    assert sum(m.value for m in atk.modifiers if m.source != "attack_bonus") == -2
    assert [m.source for m in atk.modifiers if m.value == -2] == ["curse"], "named once"
    pv = enc.preview("strike", "h")
    assert pv is not None and pv.setup.bonus == atk.total - atk.natural, "the preview agrees"


# --- F-SAV-1..4 -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("natural", "bonus", "success"),
    [
        pytest.param(9, 0, False, id="9-fails"),
        pytest.param(10, 0, True, id="10-succeeds"),
        pytest.param(1, 0, False, id="1-fails"),
        pytest.param(20, 0, True, id="20-succeeds"),
        pytest.param(8, 2, True, id="a-power-bonus-adds"),
        pytest.param(11, -2, False, id="a-penalty-subtracts"),
    ],
)
def test_F_SAV_1_a_saving_throw_is_a_d20_10_or_higher_succeeds(
    build: Builder, natural: int, bonus: int, success: bool
) -> None:
    enc = fight(build, [10, natural])
    cast(enc, "se")
    if bonus:
        put_effect(enc, "t", source="t", duration="end_of_encounter", modifiers=(("saves", bonus),))
    enc.apply(EndTurn())
    save = events(enc.apply(EndTurn()), Save)[0]
    assert save.natural == natural and save.total == natural + bonus
    assert [m.value for m in save.modifiers] == ([bonus] if bonus else [])
    assert save.success is success


def test_F_SAV_2_one_save_per_effect_in_the_order_the_creature_chooses(build: Builder) -> None:
    def reverse(ids: tuple[str, ...]) -> list[str]:
        return list(reversed(ids))

    ans = Answers(save_order=reverse)
    enc = fight(build, [10, 10, 15, 3], deciders=lambda _cid: ans)
    first = cast(enc, "se")
    enc.battle.spent["standard"] = 0  # a second power this turn, for the test
    second = cast(enc, "sleep")
    enc.apply(EndTurn())
    saves = events(enc.apply(EndTurn()), Save)
    assert [s.effect for s in saves] == [second, first]
    assert [(s.natural, s.success) for s in saves] == [(15, True), (3, False)]
    asked = [q for q in ans.asked if type(q).__name__ == "SaveOrderQuestion"]
    assert len(asked) == 1 and asked[0].who == "t"


def test_F_SAV_3_one_effect_with_several_parts_takes_one_save(build: Builder) -> None:
    enc = fight(build, [10, 12])
    eid = cast(enc, "venom")
    start = events(enc, EffectStart)[0]
    assert {"ongoing": 5, "type": "poison"} in start.parts
    assert {"modifier": "will", "value": -2} in start.parts
    enc.apply(EndTurn())
    saves = events(enc.apply(EndTurn()), Save)
    assert len(saves) == 1 and saves[0].success
    assert eid not in enc.battle.effects
    assert enc.battle.modifier(enc.battle["t"], "will") == 0


def test_F_SAV_4_aftereffects_start_after_all_saves_and_get_no_save_that_turn(
    build: Builder,
) -> None:
    enc = fight(build, [10, 15, 15, 2])
    # an effect the dummy put on itself comes first: the aftereffect's source is still the
    # hexer, whose effect it follows
    other = put_effect(enc, "t", source="t", conditions=("dazed",))
    sleep = cast(enc, "sleep")
    enc.apply(EndTurn())
    out = enc.apply(EndTurn())
    kinds = [
        (type(e).__name__, getattr(e, "effect", None))
        for e in events(out)
        if isinstance(e, Save | EffectStart | EffectEnd | TurnEnd)
    ]
    after = next(e for e in events(out, EffectStart))
    assert after.parts == ({"condition": "weakened"},) and after.source == "h"
    assert kinds == [
        ("Save", other),
        ("EffectEnd", other),
        ("Save", sleep),
        ("EffectEnd", sleep),
        ("EffectStart", after.effect),
        ("TurnEnd", None),
    ]
    assert not [s for s in events(out, Save) if s.effect == after.effect]
    enc.apply(EndTurn())  # the hexer
    saves = events(enc.apply(EndTurn()), Save)
    assert [s.effect for s in saves] == [after.effect], "saved against the next turn"


def test_F_DUR_3_an_effect_ends_where_its_dead_creators_next_turn_would_end(
    build: Builder,
) -> None:
    enc = build(
        GRID,
        [
            mon("h", (1, 1), "hexer", side="party"),
            mon("t", (2, 1), "dummy"),
            mon("u", (4, 1), "dummy", side="party"),
        ],
        creatures=[HEXER, dummy()],
        powers=POWERS,
        faces=[20, 1, 10, 10],
    )
    eid = cast(enc, "eont")
    enc.apply(EndTurn())  # now u's turn
    from engine.hp import update_state

    enc.battle["h"].hp = 0
    update_state(enc.battle, enc.battle["h"])  # the hexer dies
    enc.apply(EndTurn())  # u ends; t's turn
    assert eid in enc.battle.effects
    enc.apply(EndTurn())  # t ends; the dead hexer's place comes round, then u's turn
    end = ended(enc, eid)
    assert end is not None and end.reason == "expired"


RALLY = {
    "id": "rally",
    "name": "Rally",
    "action": "minor",
    "kind": "close",
    "burst": 5,
    "target": "ally_or_self",
    "targets": 1,
    "effect": {"grant_save": True},
}


@pytest.mark.parametrize(
    ("natural", "saved"),
    [pytest.param(12, True, id="saves-now"), pytest.param(4, False, id="fails")],
)
def test_F_SAV_1_a_power_may_grant_a_saving_throw_now(
    build: Builder, natural: int, saved: bool
) -> None:
    hexer = dict(HEXER, powers=[*HEXER["powers"], "rally"])
    enc = build(
        GRID,
        [mon("h", (1, 1), "hexer", side="party"), mon("t", (2, 1), "dummy")],
        creatures=[hexer, dummy()],
        powers=[*POWERS, RALLY],
        faces=[20, 1, natural],
    )
    # the hexer is slowed, with an aftereffect (weakened): the rally lets it save on its turn
    sleep = next(p for p in POWERS if p["id"] == "sleep")["hit"]["effects"][0]
    from engine.content.schema import EffectSpec
    from engine.effects import add_effect

    b = enc.battle
    eff = add_effect(b, EffectSpec.model_validate(sleep), b["h"], b["t"], "sleep")
    assert eff is not None
    out = enc.apply(UsePower("rally", ("h",)))
    save = events(out, Save)[0]
    assert (save.id, save.effect, save.when, save.success) == ("h", eff.id, "granted", saved)
    after = [e for e in events(out, EffectStart) if {"condition": "weakened"} in e.parts]
    assert len(after) == (1 if saved else 0)
    assert (eff.id in b.effects) is not saved
