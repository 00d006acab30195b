"""The dialog that asks a player about a triggered power (an immediate interrupt or reaction,
X-ACT-1): it says what happened and shows the engine's odds, fits 80x24, answers with the
keyboard, and a hostile creature name stays text; the log line of a `trigger` event."""

from __future__ import annotations

from dataclasses import replace

from engine.content.loader import load_encounter
from engine.decisions import TriggerQuestion
from engine.events import Logged, Triggered
from tests.support.app import BASE, fight, screen_text, settle, sync
from tests.support.hostile import LINK_MARKUP
from tui.app import SkirmishApp
from tui.controller import Ask
from tui.logtext import Names, format_log
from tui.screens.asks import dialog_for


@sync
async def test_X_ACT_1_trigger_dialog_shows_the_odds_and_answers_by_key() -> None:
    app = SkirmishApp(replace(BASE, source="default"), load_encounter("default"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        view = fight(app).view
        ids = list(view.creatures)
        a, b = ids[0], ids[1]
        creatures = dict(view.creatures)
        creatures[b] = replace(creatures[b], name=LINK_MARKUP)
        view = replace(view, creatures=creatures)
        q = TriggerQuestion(a, "no-escape", "enemy_leaves", b, b, True, 0.65, 7.15)
        answers: list[bool | None] = []
        await app.push_screen(dialog_for(Ask(q, view)), answers.append)
        await pilot.pause()
        text = screen_text(app)
        rows = text.splitlines()
        assert len(rows) == 24
        assert "immediate interrupt" in text
        assert "65% to hit, about 7.2 damage" in text
        assert "before it resolves" in text and "One immediate action a round" in text
        assert LINK_MARKUP[:12] in text, "a hostile name is shown as text"
        await pilot.press("escape")
        await pilot.pause()
        assert answers == [False]


def test_X_ACT_1_the_log_says_who_used_what_and_why() -> None:
    names = Names.of({"kael": "Kael", "thug": "Thug"}, [("no-escape", "No Escape", False)])
    taken = Logged(5, 1, Triggered("kael", "no-escape", "enemy_leaves", "thug", True, True))
    passed = Logged(6, 1, Triggered("kael", "no-escape", "hit", "thug", False, False))
    lines = format_log([taken, passed], names)
    assert any(
        "Kael uses No Escape (immediate interrupt: enemy leaves by Thug)" in x for x in lines
    )
    assert any("Kael does not use No Escape (immediate reaction: hit by Thug)" in x for x in lines)
