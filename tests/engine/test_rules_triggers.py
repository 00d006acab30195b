"""Triggered powers: immediate interrupts and reactions that go off by themselves (X-ACT-1's
interrupt-before and react-after, one immediate action a round, F-TRN-5's surprised creatures
that take none), with every trigger of the closed set in a scenario
(docs/content.md, Triggered powers)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import EndTurn, Move, UsePower
from engine.decisions import TriggerQuestion
from engine.encounter import Encounter
from engine.events import ActionSpent, Attack, Damage, Heal, Moved, Triggered
from tests.support.helpers import Answers, Builder, events, mon

GRID = "..........\n..........\n..........\n"
JAB = {
    "id": "jab",
    "name": "Jab",
    "kind": "melee",
    "basic": True,
    "attack": {"bonus": 0, "vs": "ac"},
    "hit": {"damage": {"dice": "6"}},
}
SHOT = {
    "id": "shot",
    "name": "Shot",
    "kind": "ranged",
    "range": 10,
    "attack": {"bonus": 0, "vs": "ac"},
    "hit": {"damage": {"dice": "6"}},
}


def trig(pid: str, action: str, on: str, usage: str = "encounter", **over: Any) -> dict[str, Any]:
    """A triggered melee attack (3 damage) unless `over` says otherwise."""
    p: dict[str, Any] = {
        "id": pid,
        "name": pid.title(),
        "usage": usage,
        "action": action,
        "kind": "melee",
        "trigger": {"when": on},
        "attack": {"bonus": 0, "vs": "ac"},
        "hit": {"damage": {"dice": "3"}},
    }
    p.update(over)
    return p


DODGE = trig(
    "dodge",
    "immediate_interrupt",
    "hit",
    kind="personal",
    target="self",
    attack=None,
    hit=None,
    effect={"shift": 1},
)
DODGE["trigger"] = {"when": "hit", "melee_only": True}
RIPOSTE = trig("riposte", "immediate_reaction", "hit", usage="at-will")
BRACE = trig(
    "brace",
    "immediate_reaction",
    "enemy_enters",
    hit={
        "damage": {"dice": "3"},
        "effects": [{"duration": "end_of_next_turn", "conditions": ["immobilized"]}],
    },
)
PARTING = trig("parting", "immediate_interrupt", "enemy_leaves")
SPITE = trig("spite", "immediate_reaction", "damaged")
FURY = trig(
    "fury",
    "immediate_reaction",
    "self_bloodied",
    kind="personal",
    target="self",
    attack=None,
    hit=None,
    effect={
        "effects": [
            {
                "to": "self",
                "duration": "end_of_encounter",
                "modifiers": [{"stat": "attack", "value": 2}],
            }
        ]
    },
)
LAST = trig(
    "last-gasp",
    "immediate_interrupt",
    "self_dropped",
    kind="close",
    burst=1,
    targets=8,
)
RALLY = trig(
    "rally",
    "immediate_reaction",
    "ally_bloodied",
    kind="ranged",
    range=5,
    target="ally",
    attack=None,
    hit=None,
    effect={"heal": {"bonus": 5}},
)
RALLY["trigger"] = {"when": "ally_bloodied", "range": 5}
AVENGE = trig("avenge", "immediate_reaction", "ally_dropped", kind="ranged", range=10)
AVENGE["trigger"] = {"when": "ally_dropped", "range": 10}
VIGIL = trig("vigil", "immediate_reaction", "turn_start", "at-will", kind="ranged", range=10)
VIGIL["trigger"] = {"when": "turn_start", "creature": "a"}
CURSE = trig("curse", "immediate_interrupt", "turn_end", kind="ranged", range=10)
CURSE["trigger"] = {"when": "turn_end", "creature": "enemy"}
ALL = [JAB, SHOT, DODGE, RIPOSTE, BRACE, PARTING, SPITE, FURY, LAST, RALLY, AVENGE, VIGIL, CURSE]


def unit(cid: str, powers: list[str], hp: int = 40) -> dict[str, Any]:
    return {
        "id": cid,
        "name": cid.title(),
        "role": "soldier",
        "hp": hp,
        "speed": 6,
        "defenses": {"ac": 10, "fortitude": 10, "reflex": 10, "will": 10},
        "powers": ["jab", "shot", *powers],
    }


def fight(
    build: Builder,
    reactor: list[str],
    faces: list[int],
    *,
    a_pos: tuple[int, int] = (1, 1),
    d_pos: tuple[int, int] = (2, 1),
    d_hp: int = 40,
    more: list[dict[str, Any]] | None = None,
    extra_creatures: list[dict[str, Any]] | None = None,
    answers: Answers | None = None,
    **kw: Any,
) -> Encounter:
    """The attacker `a` (side party, acting first) and the defender `d` (side monsters) whose
    creature has the `reactor` powers; `faces` follow the two initiative rolls (and those of
    `more`, who roll 10)."""
    more = more or []
    deciders = (lambda _cid: answers) if answers is not None else None
    return build(
        GRID,
        [mon("a", a_pos, "attacker", side="party"), mon("d", d_pos, "defender"), *more],
        creatures=[unit("attacker", []), unit("defender", reactor, d_hp), *(extra_creatures or [])],
        powers=ALL,
        faces=[20, 1, *([10] * len(more)), *faces],
        deciders=deciders,
        **kw,
    )


def kinds(out: list[Any]) -> list[str]:
    return [lg.event.type for lg in out]


# --- X-ACT-1: an interrupt resolves before its trigger and can void it ------------------------
def test_X_ACT_1_interrupt_a_shift_when_hit_voids_the_attack_wrong_square(
    build: Builder,
) -> None:
    enc = fight(build, ["dodge"], [15])
    out = enc.apply(UsePower("jab", ("d",)))
    trig_ev = events(out, Triggered)
    assert [(t.id, t.power, t.trigger, t.by, t.interrupt, t.taken) for t in trig_ev] == [
        ("d", "dodge", "hit", "a", True, True)
    ]
    shift = events(out, Moved)
    assert shift and shift[0].id == "d" and shift[0].mode == "shift"
    atk = events(out, Attack)[0]
    assert atk.outcome == "miss" and atk.wrong_square, "the target is no longer where it was"
    assert not events(out, Damage)
    types = kinds(out)
    assert types.index("trigger") < types.index("move") < types.index("attack")
    assert "dodge" in enc.battle["d"].used_powers, "an encounter power is spent"


def test_X_ACT_1_interrupt_on_hit_not_set_off_by_a_ranged_attack_when_melee_only(
    build: Builder,
) -> None:
    enc = fight(build, ["dodge"], [15])
    out = enc.apply(UsePower("shot", ("d",)))
    assert not events(out, Triggered)
    assert events(out, Attack)[0].outcome == "hit"


def test_X_ACT_1_reaction_resolves_after_the_hit(build: Builder) -> None:
    enc = fight(build, ["riposte"], [15, 12])
    out = enc.apply(UsePower("jab", ("d",)))
    attacks = events(out, Attack)
    assert [(x.attacker, x.target) for x in attacks] == [("a", "d"), ("d", "a")]
    types = kinds(out)
    first_damage = types.index("damage")
    assert first_damage < types.index("trigger"), "the hit is dealt before the reaction"
    spent = [(s.id, s.kind, s.name) for s in events(out, ActionSpent)]
    assert ("d", "immediate", "riposte") in spent
    assert enc.battle["a"].hp == 40 - 3


def test_X_ACT_1_a_declined_trigger_is_logged_and_the_power_kept(build: Builder) -> None:
    class No(Answers):
        def answer(self, question: Any) -> Any:
            if isinstance(question, TriggerQuestion):
                self.asked.append(question)
                return False
            return super().answer(question)

    no = No()
    enc = fight(build, ["dodge"], [15], answers=no)
    out = enc.apply(UsePower("jab", ("d",)))
    assert [t.taken for t in events(out, Triggered)] == [False]
    assert events(out, Attack)[0].outcome == "hit"
    assert "dodge" not in enc.battle["d"].used_powers
    q = no.asked[0]
    assert isinstance(q, TriggerQuestion) and q.interrupt and q.by == "a"


def test_X_ACT_1_the_question_carries_the_odds(build: Builder) -> None:
    ans = Answers()
    enc = fight(build, ["riposte"], [15, 12], answers=ans)
    enc.apply(UsePower("jab", ("d",)))
    q = next(x for x in ans.asked if isinstance(x, TriggerQuestion))
    # +0 against AC 10: a natural 10 or better hits (55%); 3 damage, a crit deals 3 too
    assert q.target == "a" and q.hit == pytest.approx(0.55)
    assert q.expected_damage == pytest.approx(0.55 * 3)


def test_X_ACT_1_one_immediate_action_a_round(build: Builder) -> None:
    b = mon("b", (3, 2), "attacker", side="party")
    enc = fight(build, ["riposte"], [15, 12, 15], more=[b], d_pos=(2, 2), a_pos=(1, 2))
    out = enc.apply(UsePower("jab", ("d",)))
    assert [t.taken for t in events(out, Triggered)] == [True]
    enc.apply(EndTurn())  # a's turn ends; b (initiative 10) acts before d
    assert enc.current is not None and enc.current.id == "b"
    out = enc.apply(UsePower("jab", ("d",)))
    assert events(out, Attack)[0].outcome == "hit"
    assert not events(out, Triggered), "d has had its immediate action this round"


def test_F_TRN_5_no_triggered_action_while_surprised(build: Builder) -> None:
    enc = fight(build, ["riposte"], [15], surprise={"mode": "stated", "surprised": ["d"]})
    assert enc.battle.surprise_round
    out = enc.apply(UsePower("jab", ("d",)))
    assert events(out, Attack)[0].outcome == "hit"
    assert not events(out, Triggered)


# --- each trigger of the set --------------------------------------------------------------
def test_trigger_enemy_enters_reaction_stops_the_mover_in_the_square(build: Builder) -> None:
    enc = fight(build, ["brace"], [15], d_pos=(5, 1))
    out = enc.apply(Move(((1, 1), (2, 1), (3, 1), (4, 1), (4, 2)), "walk"))
    assert [(t.power, t.interrupt) for t in events(out, Triggered)] == [("brace", False)]
    assert events(out, Attack)[0].outcome == "hit"
    assert enc.battle["a"].pos == (4, 1), "immobilized in the square it entered"
    assert [m.path for m in events(out, Moved)] == [((1, 1), (2, 1), (3, 1), (4, 1))]


def test_trigger_enemy_leaves_interrupt_strikes_before_the_step(build: Builder) -> None:
    enc = fight(build, ["parting"], [15])
    out = enc.apply(Move(((1, 1), (0, 1)), "shift"))
    assert [(t.power, t.interrupt) for t in events(out, Triggered)] == [("parting", True)]
    types = kinds(out)
    assert types.index("trigger") < types.index("move"), "an interrupt comes before the step"
    assert events(out, Attack)[0].outcome == "hit"
    assert enc.battle["a"].pos == (0, 1), "the shift goes on"


def test_trigger_damaged_reaction(build: Builder) -> None:
    enc = fight(build, ["spite"], [15, 15])
    out = enc.apply(UsePower("jab", ("d",)))
    assert [(t.trigger, t.by) for t in events(out, Triggered)] == [("damaged", "a")]
    assert enc.battle["a"].hp == 37


def test_trigger_self_bloodied_reaction(build: Builder) -> None:
    enc = fight(build, ["fury"], [15], d_hp=12)
    out = enc.apply(UsePower("jab", ("d",)))
    assert [t.trigger for t in events(out, Triggered)] == ["self_bloodied"]
    assert enc.battle.modifier(enc.battle["d"], "attack") == 2


def test_trigger_self_dropped_interrupt_goes_off_as_it_falls(build: Builder) -> None:
    enc = fight(build, ["last-gasp"], [15, 15], d_hp=6)
    out = enc.apply(UsePower("jab", ("d",)))
    assert [t.trigger for t in events(out, Triggered)] == ["self_dropped"]
    attacks = events(out, Attack)
    assert [(x.attacker, x.target) for x in attacks] == [("a", "d"), ("d", "a")]
    types = kinds(out)
    assert types.index("trigger") < types.index("state"), "it acts before it falls"
    assert enc.battle["d"].state == "dead"
    assert enc.battle["a"].hp == 37


def test_trigger_ally_bloodied_reaction_heals_the_ally(build: Builder) -> None:
    healer = mon("h", (6, 1), "healer")
    enc = fight(
        build,
        [],
        [15],
        d_hp=12,
        more=[healer],
        extra_creatures=[unit("healer", ["rally"])],
    )
    out = enc.apply(UsePower("jab", ("d",)))
    assert [(t.id, t.trigger) for t in events(out, Triggered)] == [("h", "ally_bloodied")]
    heal = events(out, Heal)[0]
    assert (heal.target, heal.amount) == ("d", 5)
    assert enc.battle["d"].hp == 12 - 6 + 5


def test_trigger_ally_dropped_reaction_against_who_dropped_it(build: Builder) -> None:
    avenger = mon("v", (6, 1), "avenger")
    enc = fight(
        build,
        [],
        [15, 15],
        d_hp=6,
        more=[avenger],
        extra_creatures=[unit("avenger", ["avenge"])],
    )
    out = enc.apply(UsePower("jab", ("d",)))
    assert [(t.id, t.trigger, t.by) for t in events(out, Triggered)] == [("v", "ally_dropped", "a")]
    assert enc.battle["a"].hp == 37


def test_trigger_turn_start_of_a_named_creature(build: Builder) -> None:
    enc = fight(build, ["vigil"], [15, 15], d_pos=(6, 1))
    first = [(t.id, t.trigger, t.by) for t in events(enc, Triggered)]
    assert first == [("d", "turn_start", "a")], "a's first turn started it"
    enc.apply(EndTurn())  # a
    out = enc.apply(EndTurn())  # d; round 2 begins with a's turn: d's vigil goes off again
    assert [(t.id, t.trigger, t.by) for t in events(out, Triggered)] == [("d", "turn_start", "a")]
    assert enc.battle["a"].hp == 40 - 3 - 3


def test_trigger_turn_end_of_any_enemy_interrupt(build: Builder) -> None:
    enc = fight(build, ["curse"], [15], d_pos=(6, 1))
    out = enc.apply(EndTurn())
    trig_ev = events(out, Triggered)
    assert [(t.trigger, t.interrupt) for t in trig_ev] == [("turn_end", True)]
    types = kinds(out)
    assert types.index("trigger") < types.index("turn_end"), "before the turn ends"


def test_X_PWR_1_a_triggered_power_is_not_used_on_ones_turn(build: Builder) -> None:
    enc = fight(build, [], [], a_pos=(1, 1))
    enc.apply(EndTurn())
    assert enc.current is not None and enc.current.id == "d"
    enc2 = fight(build, ["riposte"], [])
    enc2.apply(EndTurn())
    refusal = enc2.refusal(UsePower("riposte", ("a",)))
    assert refusal is not None and "goes off by itself" in refusal.reason


# --- skirmish check: bad uses are errors at their file and line -----------------------------
@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        (
            "    action: immediate_reaction\n    trigger: {when: hitt}\n",
            "powers[1].trigger.when",
            "did you mean 'hit'?",
        ),
        (
            "    trigger: {when: hit}\n",
            "powers[1]",
            "`trigger` is only for immediate_interrupt or immediate_reaction powers, "
            "not a standard action",
        ),
        ("    action: immediate_reaction\n", "powers[1]", "needs a `trigger`"),
        (
            "    action: immediate_interrupt\n    trigger: {when: damaged}\n",
            "powers[1]",
            "make it an immediate_reaction",
        ),
        (
            "    action: immediate_reaction\n    trigger: {when: turn_start}\n",
            "powers[1].trigger",
            "needs `creature`",
        ),
    ],
    ids=[
        "unknown-trigger",
        "trigger-on-a-standard-power",
        "no-trigger",
        "interrupt-after",
        "whose-turn",
    ],
)
def test_check_bad_triggered_powers(tmp_path: Any, extra: str, field: str, message: str) -> None:
    from tests.support.content_errors import LIB, find, line_of, load_errors

    lib = LIB.replace("    name: Club\n", "    name: Club\n" + extra)
    errors = load_errors(tmp_path, lib=lib)
    needle = "trigger:" if "turn_start" in extra or "hitt" in extra else "id: club"
    line = line_of(lib, needle)
    error = find(errors, tmp_path / "lib.yaml", line, field)
    assert message in error.message


def test_skirmish_check_reports_an_unknown_trigger_in_one_line(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui.cli import main

    bad = trig("gasp", "immediate_reaction", "enemy_waves")
    lib = {"creatures": [unit("defender", ["gasp"])], "powers": [JAB, SHOT, bad]}
    import yaml

    path = tmp_path / "lib.yaml"
    path.write_text(yaml.safe_dump(lib, sort_keys=False))
    assert main(["check", str(path)]) != 0
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text
    line = next(x for x in text.splitlines() if "trigger.when" in x)
    assert line.startswith(f"{path}:") and "enemy_waves" in line and "must be one of" in line
