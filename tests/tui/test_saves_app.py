"""Fights in the app are never lost: autosave as the fight goes, the resume offer at start,
undo and redo with the same dice, the replay viewer, and export from the app.

Every test saves under a temporary SKIRMISH_DATA_DIR (tests/tui/conftest.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine.actions import EndTurn
from engine.autosave import Autosaver, list_unfinished
from engine.content.loader import load_encounter
from engine.encounter import Encounter
from engine.events import Attack
from engine.save import read_save
from tests.support.app import BASE, fight, make_app, press, screen_text, settle, sync, until
from tests.support.fights import AI_ONLY, play
from tui.app import SkirmishApp
from tui.controller import Ask, Controller
from tui.replay import load_timeline
from tui.screens.dialogs import AskText, Confirm
from tui.screens.encounter import EncounterScreen
from tui.screens.replay import ReplayScreen
from tui.screens.start import StartScreen
from tui.widgets.panes import LogPane

pytestmark = pytest.mark.timeout(120)


def attacks_by(enc: Encounter, who: str) -> list[Attack]:
    return [e.event for e in enc.log if isinstance(e.event, Attack) and e.event.attacker == who]


# --- autosave -------------------------------------------------------------------------------
@sync
async def test_every_action_is_saved_before_the_screen_shows_it() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        ctl = fight(app).controller
        path = ctl.save_path
        assert path is not None and path.exists()
        assert path.parent.name == "saves" and path.name.startswith("duel_")
        sizes = [path.stat().st_size]
        assert len(read_save(path).records) == 1  # the start
        assert "saved 1" in screen_text(app)
        for keys in (("m", "l", "l", "enter"), ("a", "enter", "enter")):
            await press(pilot, *keys)
            save = read_save(path)
            sizes.append(path.stat().st_size)
            shown = fight(app).saved
            assert shown == len(save.records) == len(ctl.enc.records)
            assert f"saved {shown}" in screen_text(app)
            assert [r.action for r in save.records] == [r.action for r in ctl.enc.records]
        assert sizes[0] < sizes[1] < sizes[2]
        await press(pilot, "e")  # the goblins play their turns: each record saved too
        save = read_save(path)
        assert len(save.records) == len(ctl.enc.records) > 3
        assert save.finished is None
        assert list_unfinished()[0].path == path


@sync
async def test_the_end_of_the_fight_marks_the_save_finished() -> None:
    app = make_app(control={"party": "ai"})  # both sides AI: the fight plays itself out
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, limit=60)
        path = fight(app).controller.save_path
        assert path is not None
        save = read_save(path)
        assert save.finished is not None and save.finished["winner"] in ("party", "monsters")
        assert list_unfinished() == []


# --- resume ---------------------------------------------------------------------------------
@sync
async def test_start_screen_offers_to_resume_and_resuming_restores_the_fight() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "m", "l", "l", "enter", "a", "enter", "enter", "e")
        ctl = fight(app).controller
        before = ctl.enc.snapshot()
        records = list(ctl.enc.records)
        path = ctl.save_path
        await press(pilot, "q", "enter")  # quit mid-fight
    assert path is not None and read_save(path).finished is None

    again = SkirmishApp(BASE, None)
    async with again.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "unfinished fight" in screen_text(again))
        assert isinstance(again.screen, StartScreen)
        text = screen_text(again)
        assert "duel" in text and f"round {before['round']}" in text and "today" in text
        assert "r resumes the newest" in text
        await pilot.press("r")
        await until(pilot, lambda: isinstance(again.screen, EncounterScreen))
        await settle(pilot)
        f = fight(again)
        assert f.controller.save_path == path
        assert f.controller.enc.snapshot() == before  # the same state, to the last die
        assert f.controller.enc.records == records
        assert f"Resumed at record {len(records)}, round" in screen_text(again)
        await press(pilot, "m", "h", "enter")  # play on: the same save keeps growing
        assert len(read_save(path).records) == len(records) + 1


@sync
async def test_launch_save_opens_a_saved_fight_where_it_stopped() -> None:
    loaded = load_encounter(BASE.source)
    enc = play(loaded, 4, player="naive", control=AI_ONLY, max_records=12)
    with Autosaver.create(enc, meta=replace(BASE, pace=0.0).meta()) as saver:
        path = saver.path
    app = SkirmishApp(BASE, resume=path)  # what tui.launch.launch_save runs
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: any(isinstance(x, EncounterScreen) for x in app.screen_stack))
        f = fight(app)
        assert f.controller.resumed_from == path
        assert f.controller.enc.records[:12] == enc.records[:12]
        await settle(pilot, limit=60)  # all AI: it plays on to the end, saving as it goes
        assert read_save(path).finished is not None


@sync
async def test_resuming_a_bad_save_ends_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.save.jsonl"
    bad.write_text("hello\n")
    app = SkirmishApp(BASE, resume=bad)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(1.0)
    assert app.return_code == 1
    assert bad.read_text() == "hello\n"


# --- undo and redo --------------------------------------------------------------------------
@sync
async def test_undo_then_redo_an_attack_gets_the_same_dice() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        ctl = fight(app).controller
        await press(pilot, "a", "enter", "enter")  # Kara: Fira on the nearest goblin
        first = attacks_by(ctl.enc, "kara")
        assert len(first) == 1
        after = ctl.enc.snapshot()
        await press(pilot, "z")
        assert attacks_by(ctl.enc, "kara") == []
        assert "Kara hits" not in screen_text(app) and "Kara misses" not in screen_text(app)
        await press(pilot, "Z")  # redo
        assert attacks_by(ctl.enc, "kara") == first
        assert ctl.enc.snapshot() == after
        await press(pilot, "ctrl+z", "a", "enter", "enter")  # undo, then the same attack again
        again = attacks_by(ctl.enc, "kara")
        assert [a.natural for a in again] == [a.natural for a in first]
        assert ctl.enc.snapshot() == after
        # the save saw all of it: undo markers, and the state it rebuilds is the screen's
        assert read_save(ctl.save_path).encounter().snapshot() == after  # type: ignore[arg-type]


@sync
async def test_undo_takes_back_the_ai_turns_whole_and_any_number_of_steps() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        ctl = fight(app).controller
        start = ctl.enc.snapshot()
        await press(pilot, "m", "l", "enter", "e")  # Kara moves and ends; goblins play
        for _ in range(4):  # Kara threatens (issue 16: a basic attack): take each opportunity
            if not isinstance(app.screen, Confirm):
                break
            await press(pilot, "enter")
        assert len(ctl.enc.records) > 3
        await press(pilot, "z")  # back to Kara's turn before she ended it
        assert ctl.enc.current is not None and ctl.enc.current.id == "kara"
        assert len(ctl.enc.records) == 2
        await press(pilot, "z")
        assert ctl.enc.snapshot() == start
        await press(pilot, "ctrl+y", "ctrl+y")  # both back, with the goblins' same dice
        assert len(ctl.enc.records) > 3
        await press(pilot, "Z")
        assert "nothing to redo" in screen_text(app)


def test_table_mode_undo_never_rerolls_the_apps_dice() -> None:
    """The party's dice are typed in; the goblins' come from the seeded stream. Taking back
    the end of Brak's turn (and the goblins' turns after it) and ending it again gives the
    goblins the same dice (before `Encounter.replay` took `fresh`/`advance`, the seeded part
    started over at each rebuild)."""
    typed = iter([14, 9, 17, 12, 6, 11, 15, 3, 8, 19, 2, 10] * 20)
    holder: list[Controller] = []

    def notify(news: object) -> None:
        if isinstance(news, Ask):
            holder[0].reply(next(typed))

    options = replace(BASE, manual_dice=("party",))
    ctl = Controller(load_encounter(BASE.source), options, notify)
    holder.append(ctl)
    ctl.run_start()
    assert ctl.enc.current is not None and ctl.enc.current.id == "kara"
    ctl.run_action(EndTurn())  # Kara; then Brak ends his turn and both goblins play
    assert ctl.enc.current is not None and ctl.enc.current.id == "brak"
    cut = len(ctl.enc.records)
    ctl.run_action(EndTurn())

    def after_cut() -> list[tuple[str | None, tuple[int, ...]]]:
        recs = zip(ctl.enc.records, ctl.hist.actors, strict=True)
        return [(who, r.faces) for r, who in list(recs)[cut:] if who in ("gob-1", "gob-2")]

    goblins = after_cut()
    assert any(faces for _, faces in goblins)  # the goblins rolled after Kara's turn
    ctl.run_undo()
    assert ctl.enc.current is not None and ctl.enc.current.id == "brak"
    assert len(ctl.enc.records) == cut
    ctl.run_action(EndTurn())
    assert after_cut() == goblins
    ctl.close()


# --- replay ---------------------------------------------------------------------------------
def saved_fight(seed: int = 3) -> tuple[Path, Encounter]:
    enc = play(load_encounter("default"), seed, player="naive")
    with Autosaver.create(enc) as saver:
        return saver.path, enc


@sync
async def test_replay_viewer_steps_and_jumps_read_only() -> None:
    path, enc = saved_fight()
    app = SkirmishApp(BASE, replay=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), 20)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        tl = screen.timeline
        assert len(tl.stops) == len(enc.records)
        assert "REPLAY 0/" in screen_text(app)
        log = screen.query_one(LogPane)
        lines0 = len(log.lines)

        def state(k: int) -> dict[str, tuple[tuple[int, int], int]]:
            replayed = read_save(path).encounter(upto=k + 1)
            return {c.id: (c.pos, c.hp) for c in replayed.battle.combatants.values()}

        def shown() -> dict[str, tuple[tuple[int, int], int]]:
            v = tl.view(screen.index)
            return {c.id: (c.pos, c.hp) for c in v.creatures.values()}

        await press(pilot, "n", "right", "n")
        assert screen.index == 3 and shown() == state(3)
        assert len(log.lines) > lines0
        assert tl.stops[3].label in screen_text(app)
        await press(pilot, "p", "left")
        assert screen.index == 1 and shown() == state(1)
        await press(pilot, "r")
        assert isinstance(app.screen, AskText)
        await press(pilot, "3", "enter")
        assert screen.index == tl.stop_of_round(3)
        assert tl.stops[screen.index].round == 3 and tl.stops[screen.index - 1].round == 2
        assert shown() == state(screen.index)
        assert "R3" in screen_text(app)
        here = screen.index
        for key in ("a", "m", "e", "z", "Z", "x", "enter", "space"):  # no key acts
            await press(pilot, key)
            assert app.screen is screen and screen.index == here
        assert read_save(path).records == enc.records
        await press(pilot, "end")
        assert screen.index == len(tl.stops) - 1 and " won" in screen_text(app)
        await press(pilot, "q")
    assert app.return_code == 0


@sync
async def test_replay_viewer_reads_a_combat_log(tmp_path: Path) -> None:
    _, enc = saved_fight(5)
    log = tmp_path / "fight.jsonl"
    log.write_text("".join(json.dumps(e.to_json()) + "\n" for e in enc.log))
    tl = load_timeline(log)
    assert not tl.exact and tl.stops[-1].events == len(enc.log)
    final = tl.view(len(tl.stops) - 1)
    assert {c.id: (c.pos, c.hp, c.state) for c in final.creatures.values()} == {
        c.id: (c.pos, c.hp, c.state) for c in enc.battle.combatants.values()
    }
    app = SkirmishApp(BASE, replay=log)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), 20)
        await pilot.pause()
        await press(pilot, "end")
        assert " won" in screen_text(app)  # "monsters won", not "monsters wins"
        await press(pilot, "home", "n")
        assert "REPLAY 1/" in screen_text(app)


# --- export ---------------------------------------------------------------------------------
@sync
async def test_export_from_the_app_next_to_the_save_or_where_asked(tmp_path: Path) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        ctl = fight(app).controller
        await press(pilot, "a", "enter", "enter", "x")
        assert isinstance(app.screen, AskText)
        await press(pilot, "enter")  # the default: next to the save
        await until(pilot, lambda: "Exported" in screen_text(app))
        save = ctl.save_path
        assert save is not None
        stem = save.with_name(save.name.removesuffix(".save.jsonl") + ".log")
        jsonl, text = stem.with_name(stem.name + ".jsonl"), stem.with_name(stem.name + ".txt")
        rows = [json.loads(x) for x in jsonl.read_text().splitlines()]
        assert rows == [json.loads(json.dumps(e.to_json())) for e in ctl.enc.log]
        assert "Kara" in text.read_text() and text.read_text().startswith("[0] Test Yard")
        await press(pilot, "x")
        screen = app.screen
        assert isinstance(screen, AskText)
        screen.query_one("#text").value = str(tmp_path / "mine.jsonl")  # type: ignore[attr-defined]
        await press(pilot, "enter")
        await until(pilot, lambda: (tmp_path / "mine.txt").exists())
        assert (tmp_path / "mine.jsonl").read_text() == jsonl.read_text()
        assert "mine.jsonl" in screen_text(app)
