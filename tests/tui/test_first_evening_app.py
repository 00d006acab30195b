"""Issue 12, items 1-19 in the app, each shown at 80x24 with Pilot: what a game master and a
new player trip over on a first evening. Each test fails on the code before its fix."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import OptionList

from engine.autosave import Autosaver
from engine.content.loader import load_encounter
from engine.events import Initiative, Moved
from tests.support.app import BASE, DUEL, fight, make_app, press, screen_text, settle, sync, until
from tests.support.fights import play
from tests.support.helpers import put_effect
from tui import modes
from tui.app import SkirmishApp
from tui.glyphs import MARKS, TERRAIN_LEGEND
from tui.screens.dialogs import Confirm, DiceEntry, ForcedMoveChoice
from tui.screens.encounter import EncounterScreen
from tui.screens.help import HelpScreen
from tui.screens.start import MAX_RESUMES, StartScreen
from tui.widgets.details import DetailsPanel
from tui.widgets.grid import GridPane
from tui.widgets.panes import LogPane

pytestmark = pytest.mark.timeout(120)


def _unfinished_saves(data_dir: Path, n: int) -> None:
    loaded = load_encounter("mirror")
    for seed in range(n):
        enc = play(loaded, seed + 1, player="naive", max_records=4)
        with Autosaver.create(enc, directory=data_dir / "saves"):
            pass


# --- item 1 ---------------------------------------------------------------------------------
@sync
async def test_item1_enter_on_the_start_screen_plays_default_with_saves_present(
    data_dir: Path,
) -> None:
    _unfinished_saves(data_dir, MAX_RESUMES)
    app = SkirmishApp(BASE, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "unfinished fight" in screen_text(app))
        assert isinstance(app.screen, StartScreen)
        ol = app.screen.query_one(OptionList)
        await pilot.pause()
        assert ol.highlighted is not None
        assert ol.get_option_at_index(ol.highlighted).id == "default"
        # The highlighted row is in sight at 80x24 (the screen text is only what is visible).
        await pilot.pause(0.1)
        rows = [row.strip(" ▊▎") for row in screen_text(app).splitlines()]
        assert any(row.startswith("default ") for row in rows)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), 20)
        screen = app.screen
        assert isinstance(screen, EncounterScreen)
        assert screen.controller.options.source == "default"


def duel_variant(tmp_path: Path, edit: Callable[[dict[str, Any]], None]) -> str:
    """The duel fixture with `edit` applied to its YAML document."""
    doc = yaml.safe_load(Path(DUEL).read_text())
    edit(doc)
    path = tmp_path / "variant.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return str(path)


def _rows(app: SkirmishApp) -> list[str]:
    return screen_text(app).splitlines()


def _log_text(f: EncounterScreen) -> str:
    return "\n".join(strip.text for strip in f.query_one("#log", LogPane).lines)


def _grid_rows(app: SkirmishApp) -> str:
    """The map's part of the screen (left of the right-hand panes)."""
    return "\n".join(row[:42] for row in _rows(app)[2:14])


# --- item 2 ---------------------------------------------------------------------------------
@sync
async def test_item2_dice_entry_refuses_signs_and_points_and_loses_no_key() -> None:
    app = make_app(manual_dice=("party",))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, DiceEntry)
        await press(pilot, "minus", "3", "enter")
        assert isinstance(app.screen, DiceEntry)
        assert "'-3' is not a face of a d20" in screen_text(app) and "1 to 20" in screen_text(app)
        await press(pilot, "1", "full_stop", "5", "enter")
        assert isinstance(app.screen, DiceEntry) and "'1.5' is not a face" in screen_text(app)
        await press(pilot, "1", "2", "enter")  # typed right after a refusal: both keys count
        assert "Brak: initiative" in screen_text(app)
        await press(pilot, "ctrl+r")
        await settle(pilot)
        kara = [
            e.event
            for e in fight(app).controller.enc.log
            if isinstance(e.event, Initiative) and e.event.id == "kara"
        ]
        assert kara[0].natural == 12


# --- item 3 ---------------------------------------------------------------------------------
def _with_ally(doc: dict[str, Any]) -> None:
    doc["combatants"].append(
        {"id": "ally", "creature": "goblin", "side": "party", "pos": [4, 6], "name": "Ally"}
    )


@sync
async def test_item3_allies_are_drawn_as_your_side_and_played_by_the_ai(tmp_path: Path) -> None:
    app = make_app(source=duel_variant(tmp_path, _with_ally))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        view = f.view
        ally, foe = view.creatures["ally"], view.creatures["gob-1"]
        assert ally.friendly and not foe.friendly
        assert ally.letter == "G" and foe.letter == "g"  # told apart without colour
        assert ally.control == "ai" and view.creatures["kara"].control == "player"
        assert "id kara" in screen_text(app)  # item 8: the id --control takes, in the details
        grid = _grid_rows(app)
        assert "G" in grid and "g" in grid
        await press(pilot, "question_mark")
        text = ""
        for _ in range(12):
            text += screen_text(app)
            await press(pilot, "pagedown")
        assert "your side: a player character or an ally (capital letter)" in text


# --- item 11 --------------------------------------------------------------------------------
@sync
async def test_item11_the_hint_with_the_odds_is_never_cut_off() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        await press(pilot, "a")
        assert "% to hit" in f.hint
        rows = _rows(app)
        assert f.hint in rows[1], rows[:2]  # the status line's second row holds it whole
        assert len(f.hint) <= 78


# --- item 12 --------------------------------------------------------------------------------
@sync
async def test_item12_initiative_columns_align_and_the_dead_drop_out() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        ctl = f.controller
        with ctl.lock:
            b = ctl.enc.battle
            put_effect(ctl.enc, "gob-1", conditions=("dazed", "prone"))
            put_effect(ctl.enc, "brak", conditions=("slowed",))
            b["gob-2"].hp, b["gob-2"].state = -7, "dead"
            b["kara"].temp_hp = 5
        f._show_view(ctl.snapshot())
        f._refresh_mode()
        await pilot.pause()
        rows = [r[42:] for r in _rows(app) if ("/" in r[42:] and "█" in r[42:]) or "░" in r[42:]]
        assert len(rows) == 3  # Kara, Brak, Goblin 1; the dead goblin dropped out
        assert len({r.index("/") for r in rows}) == 1 and len({r.index("█") for r in rows}) <= 1
        assert "-7" not in screen_text(app) and "Goblin 2" not in "".join(rows)
        assert "+5tmp" in next(r for r in rows if "Kara" in r)  # temporary hit points shown


# --- item 13 --------------------------------------------------------------------------------
@sync
async def test_item13_a_key_enlarges_the_log_and_pgup_pgdn_scroll_it() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        log = f.query_one("#log", LogPane)
        for i in range(60):
            log.note(f"line {i}")
        await pilot.pause()
        assert "PgUp/Dn" in _rows(app)[-1]  # the footer says how to scroll
        cursor = f.query_one(GridPane).cursor
        end = log.scroll_y
        await press(pilot, "pageup")
        assert log.scroll_y < end and f.query_one(GridPane).cursor == cursor
        await press(pilot, "pagedown")
        assert log.scroll_y > 0
        await press(pilot, "L")
        assert f.maximized is log
        assert sum("line " in r for r in _rows(app)) > 15  # nearly the whole screen
        await press(pilot, "L")
        assert f.maximized is None


# --- item 14 --------------------------------------------------------------------------------
@sync
async def test_item14_actions_left_change_as_soon_as_a_move_is_spent() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "[SMm]" in _rows(app)[0]
        await press(pilot, "m", "l", "enter")
        assert "[S-m]" in _rows(app)[0]
        await press(pilot, "question_mark")
        assert "[SMm] on the status line" in screen_text(app)


# --- item 15 --------------------------------------------------------------------------------
def _with_shade(doc: dict[str, Any]) -> None:
    shade = next(c for c in doc["creatures"] if c["id"] == "goblin").copy()
    shade.update(id="shade", name="Shade", glyph="s", invisible=True)
    doc["creatures"].append(shade)
    doc["combatants"].append(
        {"id": "shade", "creature": "shade", "side": "monsters", "pos": [7, 1], "name": "Shade"}
    )


@sync
async def test_item15_a_player_does_not_see_the_invisible_the_gm_sees_it_marked(
    tmp_path: Path,
) -> None:
    source = duel_variant(tmp_path, _with_shade)
    app = make_app(source=source)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        shade = f.view.creatures["shade"]
        assert shade.hidden and f.view.fog
        assert f.view.at(shade.pos) is None  # the cursor can't find it either
        x, y = shade.pos
        assert _rows(app)[3 + y][1 + 2 * x : 3 + 2 * x] == ". "  # the floor, not the shade
        shade_row = next(r[42:] for r in _rows(app) if "Shade" in r[42:])
        assert "?/?" in shade_row and "UNSEEN" in shade_row  # its hit points aren't told
        assert "shade" in f.controller.enc.targets("fira")  # the engine would allow it...
        await press(pilot, "a")
        assert isinstance(f.mode, modes.Targeting) and "shade" not in f.mode.targets  # ...not Tab
        await press(pilot, "escape", "p", "down", "enter")  # Flame Burst on the shade's square
        here = f.view.creatures["shade"]
        assert isinstance(f.mode, modes.Placing) and here.pos in f.mode.origins
        while f.query_one(GridPane).cursor != here.pos:
            cx, cy = f.query_one(GridPane).cursor
            tx, ty = here.pos
            await press(pilot, "l" if cx < tx else "h" if cx > tx else "j" if cy < ty else "k")
        assert "shade" in f.controller.enc.area("flame-burst", here.pos)[1]  # it is hit...
        shown = f.query_one(DetailsPanel)._last
        assert shown is not None and "Flame Burst" in shown[0]
        assert "Shade" not in f.hint and "Shade" not in shown[0]  # ...but not named
        await press(pilot, "escape", "e")
        moved = [
            e.event
            for e in f.controller.enc.log
            if isinstance(e.event, Moved) and e.event.id == "shade"
        ]
        assert moved  # the shade walked...
        assert "Shade walks" not in _log_text(f)  # ...and the log doesn't say where
        await press(pilot, "G")  # GM step mode: the GM's view, everything shown
        assert not f.view.fog and f.view.at(f.view.creatures["shade"].pos) is not None
    gm = make_app(source=source, manual_dice=("monsters",))
    async with gm.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(gm)
        while isinstance(gm.screen, DiceEntry):
            await press(pilot, "ctrl+r")
        assert not f.view.fog and f.view.creatures["shade"].hidden
        x, y = f.view.creatures["shade"].pos
        assert _rows(gm)[3 + y][1 + 2 * x : 3 + 2 * x] == "s?"  # where it is, marked hidden
        await press(pilot, "e")
        while isinstance(gm.screen, DiceEntry | Confirm):
            await press(pilot, "ctrl+r" if isinstance(gm.screen, DiceEntry) else "enter")
        assert "Shade walks" in _log_text(f)  # the GM is told everything


# --- item 16 --------------------------------------------------------------------------------
def test_item16_one_meaning_per_glyph() -> None:
    chars = [ch for ch, _, _ in MARKS.values()]
    assert len(chars) == len(set(chars)), MARKS  # path and area no longer share '*'
    assert not any(ch.isalnum() for ch in chars)  # no mark reads as a creature's letter
    assert {ch for ch, _ in TERRAIN_LEGEND}.isdisjoint({f". {c}"[-1] for c in chars})


@sync
async def test_item16_y_never_answers_a_dialog_and_space_never_pages_help() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "q")
        assert isinstance(app.screen, Confirm)
        await press(pilot, "y", "n")
        assert isinstance(app.screen, Confirm)  # only Enter or Escape answer it
        await press(pilot, "escape", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_scroll = app.screen.query_one("#help")
        await press(pilot, "space")
        assert help_scroll.scroll_y == 0
        await press(pilot, "pagedown")
        assert help_scroll.scroll_y > 0


# --- item 17 --------------------------------------------------------------------------------
def test_item17_counted_words() -> None:
    from tui.cli import format_summary

    summary = {
        "runs": 1,
        "elapsed_s": 0.1,
        "wins": {"party": 1, "monsters": 0, "draw": 0},
        "win_rate": {"party": 1.0, "monsters": 0.0, "draw": 0.0},
        "win_ci95": {s: (0.0, 1.0) for s in ("party", "monsters", "draw")},
        "mean_rounds": 1.0,
        "stdev_rounds": 0.0,
        "decisions": 0,
        "creatures": {},
        "illegal_actions": 0,
    }
    text = format_summary("duel", summary, ["party", "monsters"])
    assert "1 fight in" in text and " 1 win " in text and "draws" in text
    assert "1 fights" not in text and "draw      0 wins" not in text


@sync
async def test_item17_the_opportunity_prompt_names_the_power(tmp_path: Path) -> None:
    def edit(doc: dict[str, Any]) -> None:
        for c in doc["combatants"]:
            if c["id"] == "gob-2":
                c["pos"] = [4, 3]

    app = make_app(source=duel_variant(tmp_path, edit), control={"monsters": "player"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "e", "m", "l", "l", "enter")
        assert isinstance(app.screen, Confirm)
        assert "opportunity attack with Cleave?" in screen_text(app)  # its name, not its id
        await press(pilot, "escape")
        app.push_screen(ForcedMoveChoice("Where?", [((1, 1), (2, 1)), ((1, 1), (2, 1), (3, 1))]))
        await pilot.pause()
        text = screen_text(app)
        assert "(1 square)" in text and "(2 squares)" in text


# --- item 18 --------------------------------------------------------------------------------
@sync
async def test_item18_start_list_columns_line_up_and_dialogs_hide_the_fight_keys() -> None:
    app = SkirmishApp(BASE, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "creatures" in screen_text(app))
        rows = [r.strip(" ▊▎") for r in _rows(app) if "creatures" in r]
        assert len(rows) >= 3
        assert len({r.index("creatures") for r in rows}) == 1, rows
        assert len({r.index("ffd20") for r in rows if "ffd20" in r}) == 1, rows
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "q")
        footer = _rows(app)[-1]
        assert "Yes" in footer and "Move" not in footer and "End turn" not in footer


# --- item 19 --------------------------------------------------------------------------------
@sync
async def test_item19_a_cursor_key_repaints_two_squares_and_lays_nothing_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[str, bool, int]] = []
    real = Widget.refresh

    def spy(self: Widget, *regions: Any, **kw: Any) -> Any:
        calls.append((type(self).__name__, bool(kw.get("layout")), len(regions)))
        return real(self, *regions, **kw)

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "l", "h")  # the details panel has shown its tallest text
        monkeypatch.setattr(Widget, "refresh", spy)
        for key in ("l", "h", "l"):
            calls.clear()
            await press(pilot, key)
            assert not any(layout for _, layout, _ in calls), calls
            grid = [n for name, _, n in calls if name == "GridPane"]
            assert grid and all(n > 0 for n in grid), calls  # regions only, never the map


# --- issue 13: keys, help and palette from BINDINGS -----------------------------------------
@sync
async def test_keys_help_and_palette_come_from_the_bindings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tui.screens import encounter as encounter_module
    from tui.screens.encounter import FIGHT_BINDINGS

    extra = Binding("F", "verbose", "Brand new", show=False, tooltip="a key added in one place")
    monkeypatch.setattr(EncounterScreen, "BINDINGS", [*FIGHT_BINDINGS, extra])
    monkeypatch.setattr(encounter_module, "FIGHT_BINDINGS", [*FIGHT_BINDINGS, extra])
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(fight(app))]
        assert "Brand new" in titles and "Big log" in titles and "Cursor" not in titles
        await press(pilot, "question_mark")
        text = ""
        for _ in range(4):
            text += screen_text(app)
            await press(pilot, "pagedown")
        assert "a key added in one place" in text
        assert "enlarge the log" in text and "PgUp/Dn" in text
