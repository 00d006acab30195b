"""The Heal check from the app (issue 16 item 2, the usual 4e first aid, an addition to S-10
documented in docs/content.md): H on the encounter screen shows the engine's odds (d20 +
heal vs DC 15), Enter stabilizes the dying ally; otherwise the engine's refusal, no dialog."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.actions import HealCheck
from tests.support.app import DUEL, fight, make_app, press, screen_text, settle, sync
from tui.screens.dialogs import Confirm
from tui.widgets.grid import GridPane

pytestmark = pytest.mark.timeout(120)


def heal_duel(tmp_path: Path, *, kara_hp: int, heal: int) -> str:
    """The duel with Brak (Heal `heal`) next to Kara (starting at `kara_hp`), the goblins far
    off in the other corner."""
    doc = yaml.safe_load(Path(DUEL).read_text())
    for cr in doc["creatures"]:
        if cr["id"] == "brak":
            cr["skills"] = {"heal": heal}
    where = {"kara": [1, 6], "brak": [2, 5], "gob-1": [8, 1], "gob-2": [8, 2]}
    for c in doc["combatants"]:
        c["pos"] = where[c["id"]]
        if c["id"] == "kara":
            c["hp"] = kara_hp
    path = tmp_path / "duel-heal.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return str(path)


async def to_braks_turn(pilot, app) -> None:  # type: ignore[no-untyped-def]
    for _ in range(10):
        f = fight(app)
        if f.view.current == "brak" and f.controller.player_turn_view(f.view):
            return
        await press(pilot, "e")
    raise AssertionError("never Brak's turn")


@sync
async def test_S_10_addition_heal_key_stabilizes_the_dying_ally_after_the_odds(
    tmp_path: Path,
) -> None:
    app = make_app(source=heal_duel(tmp_path, kara_hp=-3, heal=20), ruleset=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await to_braks_turn(pilot, app)
        f = fight(app)
        assert f.controller.enc.battle["kara"].state == "dying"
        await press(pilot, "H")  # the cursor is on Brak: the one dying ally next to him
        assert isinstance(app.screen, Confirm), f.hint
        shown = screen_text(app)
        assert "DC 15" in shown and "100% to stabilize Kara" in shown, shown
        await press(pilot, "enter")
        await settle(pilot)
        enc = f.controller.enc
        assert enc.battle["kara"].state == "stable"
        assert HealCheck("kara") in [r.action for r in enc.records]


@sync
async def test_S_10_addition_heal_key_refuses_with_the_engines_reason(tmp_path: Path) -> None:
    app = make_app(source=heal_duel(tmp_path, kara_hp=20, heal=0), ruleset=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await to_braks_turn(pilot, app)
        f = fight(app)
        await press(pilot, "H")
        assert not isinstance(app.screen, Confirm)
        assert "no dying ally is next to Brak" in f.hint
        f.query_one(GridPane).cursor = f.view.creatures["kara"].pos
        await press(pilot, "H")
        assert not isinstance(app.screen, Confirm)
        assert f.hint == "Can't: Kara is not dying"
        f.query_one(GridPane).cursor = f.view.creatures["gob-1"].pos
        await press(pilot, "H")
        assert not isinstance(app.screen, Confirm) and "Goblin 1 is not dying" in f.hint
        assert not any(isinstance(r.action, HealCheck) for r in f.controller.enc.records)
        assert f.controller.enc.battle["kara"].state != "stable"
