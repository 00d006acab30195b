"""Issue 17, names that reach the terminal: every screen and dialog of the app drawn at 80x24
with hostile names (markup, escapes, OSC 8 links, C0/C1 controls, bidi overrides, zero-width
and wide characters, 200 characters). Nothing a terminal would obey is on the screen, no name
is read as markup (no crash on `[/]`, no bold from `[bold]`), and nothing overflows: each
dialog still shows its keys line, the status line still shows what is saved, the initiative
columns line up with emoji in the names.

The bytes the installed command writes to a real terminal are checked in
`test_e2e_hostile.py`; here the app runs under Pilot, so any screen and any name can be set up.
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest
from rich.cells import cell_len

from engine.content.loader import load_encounter
from engine.decisions import DelayReturnQuestion, ForcedMoveQuestion, OpportunityQuestion
from engine.dice import DiceRequest
from tests.support.app import (
    BASE,
    FIXTURES,
    fight,
    fight_to_the_end,
    press,
    screen_text,
    settle,
    sync,
)
from tests.support.hostile import LINK_MARKUP, LONG, MARKUP, NAMES
from tui.app import SkirmishApp
from tui.controller import Ask, Failed, Refused
from tui.logtext import Line
from tui.screens.asks import dialog_for
from tui.screens.dialogs import AskText, Confirm, DiceEntry, PowerPicker
from tui.screens.encounter import EngineNews
from tui.screens.end import EndScreen
from tui.screens.help import HelpScreen
from tui.screens.loading import LoadingScreen
from tui.screens.replay import ReplayScreen
from tui.screens.start import StartScreen
from tui.view import View
from tui.widgets.panes import LogPane, StatusLine, initiative_line

pytestmark = pytest.mark.timeout(120)
HOSTILE = str(FIXTURES / "hostile.yaml")


def obeyable(text: str) -> list[str]:
    """Characters on screen that a terminal would act on, or that hide or reorder text."""
    return [
        f"U+{ord(ch):04X}"
        for ch in text
        if (ord(ch) < 0x20 and ch != "\n")
        or 0x7F <= ord(ch) <= 0x9F
        or unicodedata.category(ch) in ("Cf", "Cs", "Zl", "Zp")
    ]


def hostile_app() -> SkirmishApp:
    options = replace(BASE, source=HOSTILE)
    return SkirmishApp(options, load_encounter(HOSTILE))


def check_screen(app: SkirmishApp, *must_show: str) -> str:
    text = screen_text(app)
    rows = text.splitlines()
    assert len(rows) == 24 and all(cell_len(r) <= 80 for r in rows)
    assert obeyable(text) == [], text
    for part in must_show:
        assert part in text, f"{part!r} not on screen:\n{text}"
    return text


def hostile_view(app: SkirmishApp) -> View:
    """The fight's view with every creature renamed to a hostile name (200 characters too)."""
    view = fight(app).view
    names = [*NAMES.values()]
    creatures = {
        cid: replace(c, name=names[i % len(names)] if i else LONG)
        for i, (cid, c) in enumerate(view.creatures.items())
    }
    return replace(view, creatures=creatures)


@sync
async def test_hostile_names_encounter_screen_panes_and_status_line() -> None:
    app = hostile_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = check_screen(app, "Your turn", "saved ")
        assert "[bold]Kara[/]" in text  # markup in a name is text
        status = text.splitlines()[0]
        assert "saved " in status and "[SMm]" in status
        # names the content format refuses (they still come in through combat logs)
        screen = fight(app)
        screen._show_view(hostile_view(app))
        screen._refresh_mode()
        log = screen.query_one(LogPane)
        log.add([Line(0, 1, "info", f"{n} hits") for n in NAMES.values()])
        log.note(NAMES["osc8"])
        log.error(NAMES["escapes"])
        await pilot.pause()
        text = check_screen(app, "saved ")
        assert "␛[2J␛]0;pwned␇" in text  # shown, as pictures: not obeyed, not hidden
        # refusals and engine errors quote names: their notifications are not markup either
        screen.on_engine_news(EngineNews(Refused(f"{LINK_MARKUP} is out of reach {MARKUP}")))
        screen.on_engine_news(EngineNews(Failed(f"{MARKUP} {NAMES['escapes']}\ntraceback")))
        await pilot.pause(0.2)
        check_screen(app, f"Can't: {LINK_MARKUP[:20]}")  # cut by cells, not dropped
        toasts = {n.title: n for n in app._notifications}
        assert not toasts["Not allowed"].markup and not toasts["Engine error"].markup
        assert "␛[2J" in toasts["Engine error"].message


@sync
async def test_hostile_names_every_dialog_fits_80x24() -> None:
    app = hostile_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        view = hostile_view(app)
        ids = list(view.creatures)
        a, b = ids[0], ids[2]
        dialogs = [
            dialog_for(Ask(OpportunityQuestion(a, b, (3, 4), LINK_MARKUP), view)),
            dialog_for(Ask(DelayReturnQuestion(a, b), view)),
            dialog_for(Ask(ForcedMoveQuestion(a, b, "push", (((1, 1), (2, 2)),)), view)),
            DiceEntry(DiceRequest(20, f"{LONG} attacks {NAMES['escapes']}", a)),
            PowerPicker(view.creatures[a], {}),
            PowerPicker(replace(view.creatures[a], name=MARKUP), {}),
            Confirm(f"Use {LINK_MARKUP}?", f"{NAMES['osc8']} {MARKUP}\n{LONG}", "Use it", "Back"),
            AskText(f"Export {NAMES['rtl']}", f"{NAMES['c1']} FILE:", NAMES["zero-width"]),
        ]
        keys = ["[Esc]", "[Esc]", "[Esc] the first", "[Ctrl+R]", "[Esc] cancel"]
        keys += ["[Esc] cancel", "[Esc] Back", "[Esc] cancel"]  # y/n no longer answer (item 16)
        for dialog, key in zip(dialogs, keys, strict=True):
            await app.push_screen(dialog)
            await pilot.pause()
            text = check_screen(app, key)
            title_row = next(r for r in text.splitlines() if "╔" in r)
            assert title_row.count("╗") == 1, title_row
            app.pop_screen()
            await pilot.pause()


@sync
async def test_hostile_names_help_end_loading_and_start_screens() -> None:
    app = hostile_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        view = hostile_view(app)
        over = replace(view, over=True, winner=NAMES["escapes"], end_reason=MARKUP)
        for screen, shows in (
            (HelpScreen(), "Keys"),
            (EndScreen(over, app.options), "Winner: ␛[2J"),
            (LoadingScreen(f"Resuming {MARKUP}{NAMES['escapes']}{LONG}.save.jsonl"), "Resuming"),
        ):
            await app.push_screen(screen)
            await pilot.pause()
            check_screen(app, shows)
            app.pop_screen()
            await pilot.pause()


@pytest.mark.slow  # a whole fight by keys
@sync
async def test_hostile_names_whole_fight_then_replay_of_its_save(data_dir: Path) -> None:
    app = hostile_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await fight_to_the_end(pilot, app, 80)
        assert isinstance(app.screen, EndScreen)
        check_screen(app, "Winner")
    save = next((data_dir / "saves").glob("*.save.jsonl"))
    replay = SkirmishApp(BASE, replay=save)
    async with replay.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            await pilot.pause(0.02)
            if isinstance(replay.screen, ReplayScreen):
                break
        assert isinstance(replay.screen, ReplayScreen)
        for key in ("n", "n", "n", "tab", "end", "question_mark"):
            await pilot.press(key)
            await pilot.pause()
            check_screen(replay)


@sync
async def test_hostile_names_start_screen_lists_the_unfinished_save(data_dir: Path) -> None:
    app = hostile_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "e")
    start = SkirmishApp(BASE)
    async with start.run_test(size=(80, 24)) as pilot:
        for _ in range(300):
            await pilot.pause(0.02)
            if isinstance(start.screen, StartScreen) and "Resume" in screen_text(start):
                break
        check_screen(start, "Resume", "hostile")


def test_hostile_names_initiative_columns_line_up_with_emoji_and_long_names() -> None:
    """Emoji and CJK take two cells: the hit points column stays in one place."""
    loaded = load_encounter(HOSTILE)
    from tui.controller import Controller

    view = Controller(loaded, replace(BASE, source=HOSTILE)).snapshot()
    columns = set()
    for i, c in enumerate(view.creatures.values()):
        for name in (c.name, LONG, NAMES["wide"], NAMES["zero-width"], "龍" * 30):
            line = initiative_line(replace(c, name=name), i == 0, 40)
            assert cell_len(line.plain) <= 40
            assert obeyable(line.plain) == []
            columns.add(cell_len(line.plain.split(f"{c.hp:>3}/")[0]))
    assert len(columns) == 1, columns


@sync
async def test_hostile_names_status_line_keeps_saved_count_with_a_long_name() -> None:
    """The status line was cut to "R1 K" by a long name: the name is ellipsised instead."""
    app = hostile_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        view = hostile_view(app)
        cur = view.current
        assert cur is not None
        creatures = {**view.creatures, cur: replace(view.creatures[cur], name=LONG)}
        app.screen.query_one(StatusLine).show(replace(view, creatures=creatures), "Hint", 12)
        await pilot.pause()
        top, hint = check_screen(app).splitlines()[:2]  # the hint has its own line (issue 12)
        assert "LLLL…" in top and "saved 12" in top and "Hint" in hint, top


def test_hostile_names_grid_letters_are_one_printable_cell() -> None:
    """A creature's grid letter comes from its glyph or name: an ESC, a bidi override or a
    wide character there would reach the terminal raw or push the map out of line."""
    from tui.glyphs import token_letters

    creatures = [(key, name, i % 2 == 0) for i, (key, name) in enumerate(NAMES.items())]
    creatures += [("sharp-s", "ß", True), ("dragon", "🐉", False), ("kara", "Kara", True)]
    for letter, _number in token_letters(creatures).values():
        assert len(letter) == 1 and letter.isprintable() and cell_len(letter) == 1
    assert token_letters([("kara", "Kara", True)])["kara"] == ("K", "")


def test_hostile_names_export_text_lines_are_clean() -> None:
    """`skirmish export --format text` and the log pane share `tui.logtext`: with names from
    a combat log (escapes, controls, bidi), every line is clean."""
    from tests.support.fights import play
    from tui.logtext import format_log, names_of_encounter

    enc = play(load_encounter(HOSTILE), 3, control={"party": "ai", "monsters": "ai"})
    names = names_of_encounter(enc)
    hostile = list(NAMES.values())
    for i, cid in enumerate(names.creatures):
        names.creatures[cid] = hostile[i % len(hostile)]
    for pid in names.powers:
        names.powers[pid] = NAMES["osc8"]
    lines = format_log(enc.log, names)
    assert len(lines) > 10
    for line in lines:
        assert obeyable(line) == [], line
    assert any("␛[2J␛]0;pwned␇" in line for line in lines)
