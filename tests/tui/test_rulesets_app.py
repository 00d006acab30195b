"""`skirmish play ENCOUNTER --ruleset 4srd` and `--ruleset d20srd` play through in the app:
the command line is parsed as the real command parses it, the app starts straight into the
fight, the party is played by key presses (basic attack when something is in reach, else end
the turn; every dialog answered with Enter) while the AI plays the monsters, until the end
screen. The same engine, AI and app serve every ruleset (issue 8)."""

from __future__ import annotations

import pytest

from engine.content.loader import load_encounter
from tests.support.app import fight, fight_to_the_end, press, screen_text, settle, sync
from tui.app import SkirmishApp
from tui.cli import build_parser
from tui.launch import options_from
from tui.screens.end import EndScreen

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]  # whole fights by keys: minutes


def play_app(encounter: str, ruleset: str, seed: int) -> SkirmishApp:
    args = build_parser().parse_args(
        ["play", encounter, "--ruleset", ruleset, "--seed", str(seed), "--pace", "0"]
    )
    options = options_from(args)
    assert options.ruleset == ruleset
    return SkirmishApp(options, load_encounter(options.source, options.ruleset))


async def play_through(app: SkirmishApp, ruleset: str) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        assert f.controller.enc.battle.ruleset.name == ruleset
        await fight_to_the_end(pilot, app, 2000)
        assert isinstance(app.screen, EndScreen), "the fight did not end"
        assert "Winner" in screen_text(app) or "round limit" in screen_text(app)
        enc = fight(app).controller.enc
        assert enc.over and enc.battle.ruleset.name == ruleset
        log = [lg.to_json() for lg in enc.log]
        assert log[0]["ruleset"] == ruleset
        if ruleset == "d20srd":
            assert any("confirm" in ev for ev in log if ev["type"] == "attack")
        await press(pilot, "q")
    assert app.return_code == 0


@sync
async def test_play_crossroads_with_ruleset_4srd_through_to_the_end() -> None:
    await play_through(play_app("crossroads-4srd", "4srd", 3), "4srd")


@sync
async def test_play_keep_with_ruleset_d20srd_through_to_the_end() -> None:
    await play_through(play_app("keep-d20", "d20srd", 3), "d20srd")
