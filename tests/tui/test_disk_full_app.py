"""Issue 17, a full disk mid-fight, in the app: when the save can't be written the fight
pauses (the status line and the log say it can't save, not "it is not your turn"), retries,
and goes on by itself once the disk has room; every record before the failure stays readable
and nothing the screen showed is missing from the save.

The disk is filled by a fault-injecting write (`engine.savewriter._write_all` writes half the
bytes, then fails with ENOSPC) that can be switched on and off."""

from __future__ import annotations

import errno
import os
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from engine import savewriter
from engine.content.loader import load_encounter
from engine.save import read_save
from tests.support.app import BASE, fight, make_app, press, screen_text, settle, sync
from tui import controller as controller_module
from tui.controller import Controller, Idle, News, Paused, Update

pytestmark = pytest.mark.timeout(120)


class FullDisk:
    """Switchable: while `full`, a write puts half its bytes on disk, then fails (ENOSPC)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        self.failures = 0
        real = savewriter._write_all

        def write_all(fd: int, data: bytes) -> None:
            if not self.full:
                return real(fd, data)
            self.failures += 1
            os.write(fd, data[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(savewriter, "_write_all", write_all)
        monkeypatch.setattr(controller_module, "RETRY_FIRST_S", 0.05)
        monkeypatch.setattr(controller_module, "RETRY_MAX_S", 0.1)


def test_disk_full_ai_fight_pauses_then_goes_on_and_save_is_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    disk = FullDisk(monkeypatch)
    options = replace(BASE, control={"party": "ai"})
    news: list[News] = []
    ctl = Controller(load_encounter(options.source), options)

    def notify(n: News) -> None:
        news.append(n)
        if isinstance(n, Update) and len([x for x in news if isinstance(x, Update)]) == 3:
            disk.full = True  # the disk fills after the third update

    def free_later() -> None:
        while disk.failures < 4:
            threading.Event().wait(0.01)
        disk.full = False

    ctl.notify = notify
    helper = threading.Thread(target=free_later, daemon=True)
    helper.start()
    worker = threading.Thread(target=ctl.run_start)
    worker.start()
    worker.join(60)
    ctl.close()
    assert not worker.is_alive()
    paused = [n for n in news if isinstance(n, Paused)]
    assert paused and "No space left on device" in paused[0].reason
    assert disk.failures >= 4
    updates = [n for n in news if isinstance(n, Update)]
    first_paused = news.index(paused[0])
    assert any(news.index(u) > first_paused for u in updates), "the fight never went on"
    last = [n for n in news if isinstance(n, Idle)][-1]
    assert last.view.over
    save = read_save(ctl.save_path)  # type: ignore[arg-type]
    assert not save.torn  # the torn half-lines were cut back
    assert len(save.records) == ctl.saved == len(ctl.enc.records)
    assert save.finished is not None


def test_disk_full_paused_status_not_your_turn_then_resumes(
    monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    disk = FullDisk(monkeypatch)

    @sync
    async def run() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = fight(app)
            assert screen.controller.player_turn_view(screen.view)
            saved = screen.saved
            disk.full = True
            await pilot.press("e")  # end the turn: its record can't be written
            for _ in range(200):
                await pilot.pause(0.02)
                if screen.controller.paused is not None:
                    break
            assert screen.controller.paused is not None
            await pilot.pause(0.1)
            await pilot.press("m")  # a key while paused says why nothing happens
            await pilot.pause(0.1)
            text = screen_text(app)
            top = "\n".join(text.splitlines()[:2])  # the status line's two rows (issue 12)
            assert "PAUSED: can't save" in top, top
            assert "not your turn" not in text
            assert "Paused: can't save the fight" in text
            assert screen.saved == saved  # nothing new shown as saved
            disk.full = False
            for _ in range(300):
                await pilot.pause(0.02)
                if screen.controller.paused is None and not screen.controller.busy:
                    break
            await settle(pilot)
            from tui.widgets.panes import LogPane

            # the log pane's lines, not the screen: AI decisions (the naive policy's too) may
            # have scrolled the note out of the 80x24 view by now
            logged = [strip.text for strip in screen.query_one(LogPane).lines]
            assert any("Saved again" in line for line in logged)
            assert screen.saved is not None and saved is not None and screen.saved > saved
            path = screen.controller.save_path
            assert path is not None
            assert len(read_save(path).records) == screen.saved
            await press(pilot, "q", "enter")

    run()
