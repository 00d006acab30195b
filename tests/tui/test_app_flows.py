"""Pilot tests of the encounter app at 80x24: a whole fight by key presses, and each flow a
player uses (move with a path preview, a power with target cycling and the odds shown, an area
placement, an opportunity attack prompt, table-mode dice entry, undo, help, quitting)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.events import Initiative
from tests.support.app import (
    DUEL,
    fight,
    fight_to_the_end,
    make_app,
    press,
    screen_text,
    settle,
    sync,
    until,
)
from tui import modes
from tui.screens.dialogs import Confirm, DiceEntry, PowerPicker
from tui.screens.end import EndScreen
from tui.screens.help import HelpScreen
from tui.widgets.grid import GridPane

pytestmark = pytest.mark.timeout(120)


def variant(tmp_path: Path, **positions: tuple[int, int]) -> str:
    """The duel fixture with some combatants placed elsewhere."""
    doc = yaml.safe_load(Path(DUEL).read_text())
    for c in doc["combatants"]:
        if c["id"] in positions:
            c["pos"] = list(positions[c["id"]])
    path = tmp_path / "duel.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return str(path)


def cursor(app) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    return app.screen.query_one(GridPane).cursor


@pytest.mark.slow  # a whole fight by keys
@sync
async def test_whole_fight_to_the_end_by_keys() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await fight_to_the_end(pilot, app, 300)
        assert isinstance(app.screen, EndScreen)
        text = screen_text(app)
        assert "Winner: party" in text
        assert "dealt" in text and "drops" in text
        await press(pilot, "q")
    assert app.return_code == 0


@sync
async def test_move_shows_path_and_cost_then_walks() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        assert f.view.current == "kara" and cursor(app) == (2, 5)
        await press(pilot, "m")
        assert isinstance(f.mode, modes.Moving)
        await press(pilot, "k", "k", "l")  # up, up, right: to 3,3? no: Brak stands there
        await press(pilot, "u")  # up-right diagonal to 4,2 (difficult terrain)
        assert cursor(app) == (4, 2)
        grid = app.screen.query_one(GridPane)
        marks = grid.overlay.marks
        assert marks[(4, 2)] == "path" and "reach" in marks.values()
        text = screen_text(app)
        assert "Walk to 4,2: cost" in text
        await press(pilot, "enter")
        assert f.view.creatures["kara"].pos == (4, 2)
        assert "Kara walks" in screen_text(app)


@sync
async def test_power_targets_cycle_with_hit_chance_shown() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        await press(pilot, "p")
        assert isinstance(app.screen, PowerPicker)
        assert "Fira" in screen_text(app) and "ranged 10" in screen_text(app)
        await press(pilot, "enter")  # Fira, the first usable power
        mode = f.mode
        assert isinstance(mode, modes.Targeting) and sorted(mode.targets) == ["gob-1", "gob-2"]
        first = mode.target
        assert "to hit" in screen_text(app)
        await press(pilot, "tab")
        assert mode.target != first
        assert cursor(app) == f.view.creatures[mode.target].pos
        await press(pilot, "shift+tab")
        assert mode.target == first
        await press(pilot, "enter")
        assert isinstance(app.screen, Confirm)
        text = screen_text(app)
        assert "% to hit" in text and "expected" in text and "combat advantage" in text
        await press(pilot, "enter")
        assert "Kara hits" in screen_text(app) or "Kara misses" in screen_text(app)


@sync
async def test_area_power_is_placed_with_the_cursor() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        await press(pilot, "p", "down", "enter")  # Flame Burst
        mode = f.mode
        assert isinstance(mode, modes.Placing) and mode.power.id == "flame-burst"
        goblin = f.view.creatures["gob-2"].pos
        while cursor(app) != goblin:
            x, y = cursor(app)
            key = "l" if x < goblin[0] else "h" if x > goblin[0] else "j" if y < goblin[1] else "k"
            await press(pilot, key)
        marks = app.screen.query_one(GridPane).overlay.marks
        assert marks[goblin] == "area"
        assert "Flame Burst hits Goblin 2" in screen_text(app)
        await press(pilot, "enter")
        assert isinstance(app.screen, Confirm)
        await press(pilot, "enter")
        log = [e.event for e in f.controller.enc.log]
        assert any(getattr(e, "power", None) == "flame-burst" for e in log)


@sync
async def test_opportunity_attack_prompt(tmp_path: Path) -> None:
    source = variant(tmp_path, **{"gob-2": (4, 3)})  # next to Brak at 3,3
    app = make_app(source=source, control={"monsters": "player"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        await press(pilot, "e")  # Kara ends her turn; Goblin 2 is next
        assert f.view.current == "gob-2"
        await press(pilot, "m", "l", "l")  # walk away from Brak
        assert "provokes Brak" in screen_text(app)
        assert "provoke" in app.screen.query_one(GridPane).overlay.marks.values()
        await press(pilot, "enter")
        assert isinstance(app.screen, Confirm)
        assert "opportunity attack" in screen_text(app)
        await press(pilot, "enter")
        assert "Brak" in screen_text(app) and "(opportunity)" in screen_text(app)


@sync
async def test_manual_dice_accept_only_valid_faces() -> None:
    app = make_app(manual_dice=("party",))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, DiceEntry)
        assert "Kara: initiative: roll 1d20" in screen_text(app)
        await press(pilot, "2", "5", "enter")
        assert isinstance(app.screen, DiceEntry)
        assert "not a face of a d20" in screen_text(app)
        await press(pilot, "1", "2", "enter")
        assert isinstance(app.screen, DiceEntry)  # now Brak's initiative
        assert "Brak: initiative" in screen_text(app)
        await press(pilot, "ctrl+r")  # let the app roll this one
        await settle(pilot)
        f = fight(app)
        kara = [
            e.event
            for e in f.controller.enc.log
            if isinstance(e.event, Initiative) and e.event.id == "kara"
        ]
        assert kara[0].natural == 12


@sync
async def test_undo_takes_back_the_last_move() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        await press(pilot, "m", "l", "l", "enter")
        assert f.view.creatures["kara"].pos == (4, 5)
        records = len(f.controller.enc.records)
        await press(pilot, "z")
        assert f.view.creatures["kara"].pos == (2, 5)
        assert len(f.controller.enc.records) == records - 1
        assert "Kara walks" not in screen_text(app)
        await press(pilot, "z")  # nothing left to undo: the fight's start stays
        assert "nothing to undo" in screen_text(app)


@sync
async def test_help_lists_keys_conditions_and_legend() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "Keys" in screen_text(app)
        seen = screen_text(app)
        for _ in range(12):
            await press(pilot, "pagedown")
            seen += screen_text(app)
        assert "Dz" in seen and "dazed" in seen
        assert "difficult terrain" in seen and "bloodied" in seen
        await press(pilot, "escape")
        assert not isinstance(app.screen, HelpScreen)


@sync
async def test_quit_asks_first_during_a_fight() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "q")
        assert isinstance(app.screen, Confirm)
        await press(pilot, "escape")
        assert not isinstance(app.screen, Confirm)
        await press(pilot, "q", "enter")
    assert app.return_code == 0


@sync
async def test_start_screen_enter_plays_the_default() -> None:
    from engine.content.loader import load_encounter
    from tests.support.app import BASE
    from tui.app import SkirmishApp
    from tui.screens.encounter import EncounterScreen
    from tui.screens.start import StartScreen

    app = SkirmishApp(BASE, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        # The list is read after the first frame (the title shows at once): wait for it.
        await until(pilot, lambda: "default" in screen_text(app))
        assert "ffd20" in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen))
        screen = app.screen
        assert isinstance(screen, EncounterScreen)
        assert screen.loaded.spec.name == load_encounter("default").spec.name
        screen.controller.close()


@sync
async def test_gm_step_mode_and_taking_over_a_monster() -> None:
    app = make_app(step=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        await pilot.press("e")  # Kara ends; Goblin 2 (AI) waits for the GM's key
        await until(pilot, lambda: "GM step" in screen_text(app))
        assert f.view.current == "gob-2"
        seen = len(f.controller.enc.log)
        await pilot.pause(0.3)  # the one timed wait: that nothing happens without the key
        assert len(f.controller.enc.log) == seen
        await pilot.press("space")
        await until(pilot, lambda: len(f.controller.enc.log) > seen)
        f.controller.step_mode = False
        f.controller.step()
        await settle(pilot)
        # Take over Goblin 1 from the AI: the cursor goes to it, c toggles control.
        gob = f.view.creatures["gob-1"]
        f.query_one(GridPane).cursor = gob.pos
        await press(pilot, "c")
        assert f.controller.control["gob-1"] == "player"
        assert "now played by you" in screen_text(app)
