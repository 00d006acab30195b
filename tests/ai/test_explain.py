"""The AI's explanations (issue 15, target 7): every plan and re-plan has a `decision` event,
and what it says is true of what then happens: names, not squares; one possessive rule; what
a control power does on a hit; why it holds; a re-plan says why it planned again.

The audit over whole fights is tests/ai/test_explain_audit.py (tests/soak/soak_explain.py).
"""

from __future__ import annotations

import re
from typing import Any

from ai.explain import possessive, summary
from ai.plan import Option
from ai.tactical import TacticalPolicy
from engine.actions import Move, StandUp, UsePower
from engine.events import Attack
from tests.support.helpers import BASIC_MELEE, CLAW, FIGHTER, SLAM, mon, pc, put_effect
from tests.support.scenarios import OPEN_9x7, monster, play_turn, until_turn

CHILL = {
    "id": "chill",
    "name": "Chilling Touch",
    "kind": "melee",
    "attack": {"bonus": 6, "vs": "fortitude"},
    "hit": {"effects": [{"duration": "save_ends", "conditions": ["slowed"]}]},
}
CREATURES = [
    FIGHTER,
    monster("brute", "brute", ["slam"]),
    monster("soldier", "soldier", ["claw"]),
    monster("shade", "controller", ["chill"]),
]
POWERS = [BASIC_MELEE, CLAW, SLAM, CHILL]
SQUARE = re.compile(r"\(?\d+,\d+\)?")


def setup(build: Any, combatants: list[dict[str, Any]], seed: int = 3) -> Any:
    return build(OPEN_9x7, combatants, creatures=CREATURES, powers=POWERS, seed=seed)


def test_possessive_is_one_rule_for_every_name() -> None:
    assert possessive("Brom") == "Brom's"
    assert possessive("Guards") == "Guards's"


def test_two_enemies_avoided_are_named_each_with_the_possessive(build: Any) -> None:
    enc = setup(
        build,
        [
            pc("hero", (3, 3), name="Hero"),
            pc("guards", (3, 4), name="Guards"),
            mon("soldier", (2, 3), creature="soldier"),
        ],
    )
    b = enc.battle
    me = b["soldier"]
    o = Option("attack", 1.0, me.pos, avoided=("hero", "guards"))
    text = summary(b, me, o)
    assert "Hero's and Guards's opportunity attacks" in text
    assert "' " not in text.replace("'s ", "")


def test_avoiding_never_names_an_enemy_the_plan_provokes(build: Any) -> None:
    enc = setup(
        build, [pc("hero", (3, 3), name="Hero"), mon("soldier", (2, 3), creature="soldier")]
    )
    b = enc.battle
    me = b["soldier"]
    o = Option("attack", 1.0, me.pos, avoided=("hero",), provoked=("hero",))
    text = summary(b, me, o)
    assert "avoiding" not in text
    assert "provoking Hero's opportunity attack" in text


def test_a_control_power_names_its_effect_and_odds_not_zero_expected(build: Any) -> None:
    enc = setup(build, [pc("hero", (3, 3), name="Hero"), mon("shade", (4, 3), creature="shade")])
    until_turn(enc, "shade")
    actions, decisions = play_turn(enc, TacticalPolicy())
    assert any(isinstance(a, UsePower) and a.power == "chill" for a in actions)
    text = decisions[0].summary
    assert re.search(r"Chilling Touch on Hero: \d+% to hit; on a hit slowed \(save ends\)", text)
    assert "0.0 expected" not in text


def test_summaries_name_creatures_not_squares(build: Any) -> None:
    # A walk toward the enemy and then on (a double move), and an attack from afar.
    enc = setup(build, [pc("hero", (0, 0), name="Hero"), mon("brute", (8, 6), creature="brute")])
    until_turn(enc, "brute")
    actions, decisions = play_turn(enc, TacticalPolicy())
    assert actions and decisions  # it walks up, or holds (patience): either way, said in names
    for d in decisions:
        assert not SQUARE.search(d.summary), d.summary
        assert "Hero" in d.summary


def test_a_prone_creature_explains_standing_up_and_then_its_attack(build: Any) -> None:
    enc = setup(build, [pc("hero", (3, 3), name="Hero"), mon("brute", (4, 3), creature="brute")])
    until_turn(enc, "brute")
    put_effect(enc, "brute", conditions=("prone",), duration="end_of_encounter")
    actions, decisions = play_turn(enc, TacticalPolicy())
    assert isinstance(actions[0], StandUp)
    assert any(isinstance(a, UsePower) for a in actions)
    # One decision for standing up, one for what it does once up: each true of its action.
    assert len(decisions) == 2
    assert "stands up" in decisions[0].summary and "Slam" not in decisions[0].summary
    assert decisions[1].summary.startswith("Brute (back on its feet)")
    assert "Slam on Hero" in decisions[1].summary


def _flank_setup(build: Any) -> Any:
    enc = setup(
        build,
        [
            pc("hero", (3, 3), name="Hero"),
            mon("ally", (2, 3), creature="soldier", name="Ally"),
            mon("brute", (7, 3), creature="brute"),
        ],
    )
    until_turn(enc, "brute")
    return enc


def test_a_flank_said_is_a_flank_rolled_and_names_the_partner(build: Any) -> None:
    enc = _flank_setup(build)
    actions, decisions = play_turn(enc, TacticalPolicy())
    assert [type(a) for a in actions[:2]] == [Move, UsePower]
    assert len(decisions) == 1
    assert "walks 3 squares to flank Hero with Ally (+2); Slam on Hero" in decisions[0].summary
    rolled = [lg.event for lg in enc.log if isinstance(lg.event, Attack)]
    assert rolled[-1].flanking


def test_a_flank_gone_before_the_attack_gets_a_new_explanation(build: Any) -> None:
    # After the move, something makes the brute invisible: the engine now names combat
    # advantage from being unseen, not flanking (F-MOD-11). The attack is explained anew.
    enc = _flank_setup(build)
    policy = TacticalPolicy()
    first = policy.next_action(enc)
    assert isinstance(first.action, Move) and first.decision is not None
    assert "to flank Hero" in first.decision.summary
    enc.apply(first.action, first.decision)
    put_effect(enc, "brute", conditions=("invisible",), duration="end_of_encounter")
    second = policy.next_action(enc)
    assert isinstance(second.action, UsePower) and second.decision is not None
    assert "(combat advantage without the flank)" in second.decision.summary
    assert "Slam on Hero" in second.decision.summary
    enc.apply(second.action, second.decision)
    rolled = [lg.event for lg in enc.log if isinstance(lg.event, Attack)]
    assert rolled[-1].combat_advantage and not rolled[-1].flanking


def test_holding_with_an_attack_in_reach_says_what_the_attack_scored(build: Any) -> None:
    enc = setup(build, [pc("hero", (3, 3), name="Hero"), mon("shade", (7, 3), creature="shade")])
    b = enc.battle
    me = b["shade"]
    attack = Option("attack", -3.0, (4, 3), power=me.power("chill"), targets=("hero",))
    stay = Option("stay", -1.0, me.pos, goal="hero")
    text = summary(b, me, stay, options=[stay, attack])
    assert "holds its position" in text
    assert "out of reach" not in text
    assert "holding scores -1.0, more than its best attack, Chilling Touch on Hero" in text
    text = summary(b, me, stay, options=[stay])
    assert "(Hero is out of reach)" in text


def test_the_log_pane_names_the_creature_once() -> None:
    from engine.events import Decision
    from tui.logtext import LogFormatter, Names

    fmt = LogFormatter(Names({"g": "Goblin"}))
    new = Decision("g", "tactical", "Goblin walks 2 squares toward Brom", (), 1.0)
    old = Decision("g", "tactical", "walks 2 squares toward Brom", (), 1.0)
    assert event_text_of(fmt, new) == "AI: Goblin walks 2 squares toward Brom"
    assert event_text_of(fmt, old) == "AI Goblin: walks 2 squares toward Brom"


def event_text_of(fmt: Any, ev: Any) -> str:
    from tui.eventtext import event_text

    text = event_text(fmt, ev)
    assert text is not None and text[0] == "ai"
    return str(text[1])
