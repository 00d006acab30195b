"""The GM's tools in the app at 80x24 (issue 12, items 20 and 23): the menu (T) and each
tool's dialog, the command palette's entries, and the dice prompt that says what is needed."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.actions import EndTurn, GmAdd, GmRemove
from engine.content.loader import load_encounter
from engine.events import Gm, TurnStart
from tests.support.app import BASE, fight, make_app, press, screen_text, settle, sync
from tui.controller import Controller, Failed
from tui.screens.dialogs import Confirm, DiceEntry
from tui.screens.gm import EffectPicker, GmForm, GmMenu
from tui.widgets.grid import GridPane


async def _type(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    for ch in text:
        await pilot.press(ch)
    await settle(pilot)


async def _tool(pilot, index: int) -> None:  # type: ignore[no-untyped-def]
    await press(pilot, "T")
    assert isinstance(pilot.app.screen, GmMenu)
    await press(pilot, *(["down"] * index), "enter")


def _gm_events(app) -> list[Gm]:  # type: ignore[no-untyped-def]
    return [e.event for e in fight(app).controller.enc.log if isinstance(e.event, Gm)]


@sync
async def test_gm_hp_dialog_damages_and_shows_a_refusal_in_place() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        cur = f.view.current
        assert cur is not None
        hp = f.view.creatures[cur].hp
        await _tool(pilot, 0)
        assert isinstance(app.screen, GmForm)
        await _type(pilot, "x")  # the amount first; the change stays "damage"
        await press(pilot, "enter")
        assert isinstance(app.screen, GmForm) and "whole number" in screen_text(app)
        await press(pilot, "backspace")
        await _type(pilot, "4")
        await press(pilot, "enter")
        await settle(pilot)
        assert not isinstance(app.screen, GmForm), screen_text(app)
        assert f.view.creatures[cur].hp == hp - 4
        assert "takes 4 hit points" in screen_text(app)
        await _tool(pilot, 0)
        await _type(pilot, "9")
        await press(pilot, "tab")
        await _type(pilot, "heal")  # typing replaces the default
        await press(pilot, "enter")
        await settle(pilot)
        assert f.view.creatures[cur].hp == hp  # never above the maximum
        # healing a creature at full hit points: the engine refuses, the form says why
        await _tool(pilot, 0)
        await _type(pilot, "5")
        await press(pilot, "tab")
        await _type(pilot, "h")
        await press(pilot, "enter")
        assert isinstance(app.screen, GmForm) and "full hit points" in screen_text(app)
        await press(pilot, "escape")
        assert [g.tool for g in _gm_events(app)] == ["hp", "hp"]


@sync
async def test_gm_effect_dialog_adds_and_the_picker_ends_it() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        cur = f.view.current
        assert cur is not None
        await _tool(pilot, 1)
        assert isinstance(app.screen, GmForm)
        await _type(pilot, "sleepy")
        await press(pilot, "enter")
        assert isinstance(app.screen, GmForm) and "unknown condition" in screen_text(app)
        for _ in range(6):
            await pilot.press("backspace")
        await _type(pilot, "dazed")
        await press(pilot, "enter")
        assert not isinstance(app.screen, GmForm)
        assert "dazed" in f.view.creatures[cur].conditions
        await _tool(pilot, 2)
        assert isinstance(app.screen, EffectPicker)
        await press(pilot, "enter")
        assert "dazed" not in f.view.creatures[cur].conditions
        assert [g.tool for g in _gm_events(app)] == ["effect", "end_effect"]


@sync
async def test_gm_add_dialog_places_reinforcements_and_refuses_a_wall() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        grid = app.screen.query_one(GridPane)
        grid.cursor = (0, 0)  # a wall
        await _tool(pilot, 3)
        assert isinstance(app.screen, GmForm)
        await press(pilot, "enter")
        assert isinstance(app.screen, GmForm) and "0,0 is wall" in screen_text(app)
        await press(pilot, "escape")
        grid.cursor = (8, 6)
        await _tool(pilot, 3)
        await press(pilot, "enter")
        await settle(pilot)
        new = [c for c in f.view.creatures.values() if c.id.startswith("goblin-")]
        assert len(new) == 1 and new[0].pos == (8, 6) and new[0].side == "monsters"
        assert [g.tool for g in _gm_events(app)] == ["add"]


@sync
async def test_gm_remove_dialog_asks_then_removes() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        target = next(c for c in f.view.creatures.values() if c.side == "monsters")
        app.screen.query_one(GridPane).cursor = target.pos
        await _tool(pilot, 4)
        assert isinstance(app.screen, Confirm) and "remove" in screen_text(app).lower()
        await press(pilot, "enter")
        await settle(pilot)
        assert target.id not in f.view.creatures
        assert "leaves the fight" in screen_text(app)
        await press(pilot, "z")  # undo brings it back
        assert target.id in f.view.creatures


@sync
async def test_gm_tools_are_in_the_command_palette() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "ctrl+p")
        await _type(pilot, "GM tools")
        await press(pilot, "enter")
        await settle(pilot)
        assert isinstance(app.screen, GmMenu)
        await press(pilot, "enter")
        assert isinstance(app.screen, GmForm)
        assert "hit points" in screen_text(app)


@sync
async def test_dice_prompt_says_the_face_needed() -> None:
    app = make_app(manual_dice=("party",))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for _ in range(20):  # initiative for Kara and Brak
            if not isinstance(app.screen, DiceEntry):
                break
            await _type(pilot, "10")
            await press(pilot, "enter")
        f = fight(app)
        for _ in range(10):
            if f.controller.player_turn_view(f.view):
                break
            await settle(pilot)
        await press(pilot, "a")  # the basic attack at the nearest target
        await press(pilot, "enter")
        if not isinstance(app.screen, DiceEntry):
            await press(pilot, "enter")
        assert isinstance(app.screen, DiceEntry)
        text = screen_text(app)
        assert "needs" in text and "vs" in text and "%" in text


def test_ai_plays_a_reinforcement_after_the_gm_adds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Controller level: the AI drives a creature the GM added, and one it removed is gone
    from its reckoning (no engine error either way)."""
    monkeypatch.setenv("SKIRMISH_DATA_DIR", str(tmp_path))
    news: list[object] = []
    ctl = Controller(load_encounter(BASE.source), BASE, news.append)
    try:
        ctl.run_start()
        ctl.run_gm(GmAdd("goblin", "monsters", (8, 6), "gob-3"))
        if ctl.enc.current is not None and ctl.enc.current.id != "gob-2":
            ctl.run_gm(GmRemove("gob-2"))
        for _ in range(6):
            ctl.run_action(EndTurn())
            if any(isinstance(e.event, TurnStart) and e.event.id == "gob-3" for e in ctl.enc.log):
                break
        assert not [n for n in news if isinstance(n, Failed)]
        assert any(isinstance(e.event, TurnStart) and e.event.id == "gob-3" for e in ctl.enc.log)
        assert ctl.control["gob-3"] == "ai" and ctl.names.who("gob-3") == "Goblin"
    finally:
        ctl.close()
