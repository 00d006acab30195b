"""The app's first frame comes before the AI (issue 14): when the monsters win initiative, the
AI (its import, its policies, its first decisions) waits until the screen has drawn the fight,
so it doesn't share the interpreter with the first paint. Without a screen (the table host,
tests) nothing waits."""

from __future__ import annotations

import threading
import time

from engine.content.loader import load_encounter
from tests.support.app import make_app, settle, sync, until
from tui.controller import Controller, GameOptions, News, Update

# Seed 1 of `default`: the monsters win initiative, so the AI acts before anyone can.
AI_FIRST = GameOptions(source="default", seed=1, pace=0.0, policy="naive")


def monsters_acted(ctl: Controller) -> bool:
    side = {c.id: c.side for c in ctl.enc.battle.combatants.values()}
    return any(
        lg.type == "action" and side.get(lg.to_json().get("id", "")) == "monsters"
        for lg in ctl.enc.log
    )


def test_the_ai_waits_until_the_fight_is_shown() -> None:
    news: list[News] = []
    published = threading.Event()

    def notify(n: News) -> None:
        news.append(n)
        if isinstance(n, Update):
            published.set()

    ctl = Controller(load_encounter("default"), AI_FIRST, notify)
    first = ctl.enc  # before the start
    assert first is not None
    ctl.shown.clear()  # what the fight's screen does before it starts the fight
    worker = threading.Thread(target=ctl.run_start)
    worker.start()
    try:
        assert published.wait(30)
        turn = ctl.enc.battle.turn_counter
        current = ctl.enc.current
        assert current is not None and current.side == "monsters"
        time.sleep(0.3)  # pace 0: without the wait the AI would be playing by now
        assert ctl._policies == {} and ctl.enc.battle.turn_counter == turn
        assert not monsters_acted(ctl)
        ctl.shown.set()  # the screen has drawn it
        worker.join(60)
        assert not worker.is_alive()
        assert monsters_acted(ctl)
        now = ctl.enc.current
        assert now is not None and now.control == "player"  # the AI played up to a person
    finally:
        ctl.close()
        worker.join(5)


def test_without_a_screen_nothing_waits() -> None:
    ctl = Controller(load_encounter("default"), AI_FIRST)
    ctl.run_start()  # returns at the first person's turn
    try:
        assert monsters_acted(ctl)
        now = ctl.enc.current
        assert now is not None and now.control == "player"
    finally:
        ctl.close()


@sync
async def test_the_app_draws_the_fight_then_the_ai_plays() -> None:
    app = make_app(source="default", seed=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, lambda: app.screen.__class__.__name__ == "EncounterScreen")
        ctl = app.screen.controller  # type: ignore[attr-defined]
        await until(pilot, ctl.shown.is_set, limit=30)
        await settle(pilot, limit=60)
        assert monsters_acted(ctl)
        now = ctl.enc.current
        assert now is not None and now.control == "player"
