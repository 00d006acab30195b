"""The full-round actions in the app (issue 8): f for the d20srd full attack (Tab picks the
target, the preview shows each iterative attack's odds, Enter confirms) and W for the
4srd/d20srd withdraw (double speed, Enter withdraws along the shown path); neither offered in
a ruleset without it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.actions import FullAttack, Withdraw
from engine.events import ActionSpent
from tests.support.app import DUEL, fight, make_app, press, screen_text, settle, sync
from tui import modes
from tui.app import SkirmishApp
from tui.widgets.grid import GridPane

pytestmark = pytest.mark.timeout(120)


def d20_duel(tmp_path: Path, ruleset: str = "d20srd") -> str:
    """The duel fixture under `ruleset`: Brak (base attack +6) with both goblins (tough ones)
    next to him, Kara further off."""
    doc = yaml.safe_load(Path(DUEL).read_text())
    doc["ruleset"] = ruleset
    for cr in doc["creatures"]:
        if cr["id"] == "brak":
            cr["bab"] = 6
        if cr["id"] == "goblin":
            cr["hp"] = 200
    where = {"brak": [3, 3], "gob-1": [4, 3], "gob-2": [4, 4], "kara": [1, 6]}
    for c in doc["combatants"]:
        c["pos"] = where[c["id"]]
    path = tmp_path / "duel-d20.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return str(path)


def spent(app: SkirmishApp) -> list[tuple[str, str, str]]:
    enc = fight(app).controller.enc
    return [
        (lg.event.id, lg.event.kind, lg.event.name)
        for lg in enc.log
        if isinstance(lg.event, ActionSpent) and lg.event.kind == "full_round"
    ]


@sync
async def test_full_attack_and_withdraw_by_keys_in_d20srd(tmp_path: Path) -> None:
    app = make_app(source=d20_duel(tmp_path), ruleset=None)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(fight(app))]
        assert "Full attack" in titles and "Withdraw" in titles
        assert "Full attack" in screen_text(app), "the footer offers it"
        attacked = withdrew = False
        for _ in range(20):
            f = fight(app)
            assert f.controller.player_turn_view(f.view)
            who = f.view.current
            if who == "brak" and not attacked:
                await press(pilot, "f")
                mode = f.mode
                assert isinstance(mode, modes.FullAttacking)
                assert set(mode.targets) == {"gob-1", "gob-2"}
                first = mode.target
                await press(pilot, "tab")
                assert isinstance(f.mode, modes.FullAttacking) and f.mode.target != first
                assert "full attack ->" in f.hint and f.hint.count("%") == 2
                assert "attack 2 (-5)" in screen_text(app)
                target = f.mode.target
                await press(pilot, "enter")  # the confirm dialog
                await press(pilot, "enter")
                assert ("brak", "full_round", "cleave") in spent(app)
                records = [r.action for r in f.controller.enc.records]
                assert FullAttack("cleave", (target,)) in records
                attacked = True
            elif who == "kara" and not withdrew:
                await press(pilot, "W")
                mode = f.mode
                assert isinstance(mode, modes.Withdrawing)
                far = max(mode.legal, key=lambda sq: (mode.legal[sq], sq))
                cur = f.controller.enc.current
                assert cur is not None
                assert mode.legal[far] > f.controller.enc.battle.speed(cur)
                f.query_one(GridPane).cursor = far
                f._refresh_mode()
                assert "Enter withdraws" in f.hint
                await press(pilot, "enter")
                assert ("kara", "full_round", "withdraw") in spent(app)
                assert any(isinstance(r.action, Withdraw) for r in f.controller.enc.records)
                assert f.controller.enc.battle["kara"].pos == far
                withdrew = True
            else:
                await press(pilot, "e")
            await settle(pilot)
            if attacked and withdrew:
                break
        assert attacked and withdrew


@sync
async def test_no_full_round_keys_in_ffd20(tmp_path: Path) -> None:
    app = make_app(source=d20_duel(tmp_path, "ffd20"), ruleset=None)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        f = fight(app)
        assert "Full attack" not in screen_text(app)
        titles = [c.title for c in app.get_system_commands(f)]
        assert "Full attack" not in titles and "Withdraw" not in titles
        assert f.check_action("full_attack", ()) is False
        await press(pilot, "f")
        assert isinstance(f.mode, modes.Browse)
        assert "no full attack (d20srd) in ffd20" in f.hint
        await press(pilot, "W")
        assert isinstance(f.mode, modes.Browse)
        assert "no withdraw (4srd, d20srd) in ffd20" in f.hint
        assert spent(app) == []
