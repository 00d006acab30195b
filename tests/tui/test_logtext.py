"""The one place that words events: attack and damage on one line, states joined, the rest
one line each; and a whole fight read back as text (what `skirmish export` prints)."""

from __future__ import annotations

import pytest

from engine import events as events_module
from engine.content.loader import load_encounter
from engine.events import (
    Attack,
    Damage,
    EffectEnd,
    EffectStart,
    Event,
    Logged,
    Mod,
    Moved,
    StateChange,
    TurnEnd,
)
from tests.support.app import DUEL
from tui.controller import Controller, GameOptions, Update
from tui.eventtext import RENDERERS, event_text, renders
from tui.logtext import LogFormatter, Names, format_log

NAMES = Names.of(
    {"gob": "Goblin Cutthroat", "kara": "Kara"}, [("stab", "Stab", True), ("fira", "Fira", False)]
)


def logged(*events: object) -> list[Logged]:
    return [Logged(i, 1, e) for i, e in enumerate(events)]  # type: ignore[arg-type]


def attack(outcome: str = "hit", power: str = "stab", **kw: object) -> Attack:
    base = dict(
        attacker="gob",
        target="kara",
        power=power,
        kind="melee",
        vs="ac",
        natural=12,
        modifiers=(Mod("attack_bonus", 5),),
        total=17,
        defense=16,
        outcome=outcome,
        wrong_square=False,
        opportunity=False,
        combat_advantage=False,
        cover="none",
        concealment="none",
    )
    base.update(kw)
    return Attack(**base)  # type: ignore[arg-type]


def damage(amount: int = 7, adjustments: tuple[Mod, ...] = (Mod("resist", -2),)) -> Damage:
    return Damage(
        "kara",
        "gob",
        "stab",
        "hit",
        "1d6+4",
        (5,),
        None,
        9,
        ("fire",),
        adjustments,
        amount,
        20,
        20 - amount,
    )


def test_attack_and_its_damage_are_one_line() -> None:
    lines = LogFormatter(NAMES).lines(logged(attack(), damage()))
    assert [ln.text for ln in lines] == [
        "Goblin Cutthroat hits Kara: 17 vs AC 16, 7 damage (resist 2)"
    ]
    assert lines[0].kind == "hit"


def test_a_miss_names_the_power_and_the_situation() -> None:
    ev = attack("miss", "fira", vs="reflex", combat_advantage=True, cover="cover")
    (line,) = LogFormatter(NAMES).lines(logged(ev))
    assert line.text == "Goblin Cutthroat misses Kara with Fira: 17 vs Ref 16 [CA, cover]"
    assert line.kind == "miss"


def test_a_state_change_joins_the_damage_that_caused_it() -> None:
    lines = LogFormatter(NAMES).lines(
        logged(attack(), damage(), StateChange("kara", "bloodied", 13))
    )
    assert lines[0].text.endswith("; Kara is bloodied")


def test_effects_are_named_at_their_end() -> None:
    start = EffectStart(
        "e1", "kara", "gob", "Hamstring", "end_of_next_turn", "gob", ({"condition": "slowed"},)
    )
    lines = LogFormatter(NAMES).lines(logged(start, EffectEnd("e1", "kara", "expired")))
    assert (
        lines[0].text == "Kara: Hamstring (slowed, until the end of Goblin Cutthroat's next turn)"
    )
    assert lines[1].text == "Kara: Hamstring ends"


def test_a_move_says_where_and_what_it_cost() -> None:
    (line,) = LogFormatter(NAMES).lines(logged(Moved("kara", "walk", ((1, 1), (2, 2)), 2)))
    assert line.text == "Kara walks to 2,2 (cost 2)"


def test_a_whole_fight_reads_as_text() -> None:
    news: list[object] = []
    ctl = Controller(
        load_encounter(DUEL),
        GameOptions(source=DUEL, seed=5, pace=0, control={"party": "ai"}, policy="naive"),
        news.append,
    )
    ctl.run_start()
    assert ctl.enc.over
    text = format_log(ctl.enc.log, ctl.names)
    assert text[0].startswith("[0] Test Yard: ffd20, seed 5")
    assert "The fight is over" in text[-1]
    assert sum(isinstance(n, Update) for n in news) > 3


def test_every_event_type_has_its_one_renderer() -> None:
    kinds = {
        cls
        for cls in vars(events_module).values()
        if isinstance(cls, type) and issubclass(cls, Event) and cls is not Event
    }
    assert kinds <= set(RENDERERS), sorted(c.__name__ for c in kinds - set(RENDERERS))
    with pytest.raises(ValueError, match="already has a renderer"):
        renders(Moved)(lambda w, ev, r: None)


def test_the_formatter_words_each_event_with_its_registered_function() -> None:
    fmt = LogFormatter(NAMES)
    ev = Moved("gob", "push", ((1, 1), (2, 1), (3, 1)), 0)
    assert (
        fmt.text(ev) == event_text(fmt, ev) == ("move", "Goblin Cutthroat is pushed to 3,1 (2 sq)")
    )
    assert fmt.text(TurnEnd("kara", False)) is None  # bookkeeping: no line
