"""Issue 12 item 15, the panes: a player's initiative, log, status and details panes never name
a creature their side can't see (F-MOD-11, invisible); the GM's view names it, marked hidden.

Pilot at 80x24 on the duel fixture with an invisible monster (the Shade) added."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from engine.events import Attack
from tests.support.app import DUEL, fight, make_app, press, screen_text, settle, sync
from tui.app import SkirmishApp
from tui.fogview import UNSEEN, masked_names
from tui.logtext import Names
from tui.screens.dialogs import Confirm, DiceEntry
from tui.screens.encounter import EncounterScreen
from tui.widgets.details import DetailsPanel
from tui.widgets.grid import GridPane
from tui.widgets.panes import InitiativePane, LogPane, StatusLine

SHADE_NAME = "Vesper Shade"
WORD = "Vesper"
"""What any pane that names it shows, however short it cuts the name."""


def _shade_fight(tmp_path: Path) -> str:
    """The duel with an invisible goblin, the Shade, next to the heroes (it attacks)."""
    doc: dict[str, Any] = yaml.safe_load(Path(DUEL).read_text())
    shade = next(c for c in doc["creatures"] if c["id"] == "goblin").copy()
    shade.update(id="shade", name=SHADE_NAME, glyph="s", invisible=True)
    doc["creatures"].append(shade)
    doc["combatants"].append(
        {"id": "shade", "creature": "shade", "side": "monsters", "pos": [7, 1], "name": SHADE_NAME}
    )
    path = tmp_path / "shade.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return str(path)


def _initiative(f: EncounterScreen) -> str:
    pane = f.query_one(InitiativePane)
    return str(pane.render())


def _log(f: EncounterScreen) -> str:
    return "\n".join(strip.text for strip in f.query_one("#log", LogPane).lines)


def _details(f: EncounterScreen) -> str:
    shown = f.query_one(DetailsPanel)._last
    return shown[0] if shown else ""


async def _cursor_to(pilot: Any, f: EncounterScreen, target: tuple[int, int]) -> None:
    grid = f.query_one(GridPane)
    while grid.cursor != target:
        (cx, cy), (tx, ty) = grid.cursor, target
        await press(pilot, "l" if cx < tx else "h" if cx > tx else "j" if cy < ty else "k")


async def _end_turns(pilot: Any, app: SkirmishApp, f: EncounterScreen, shade_acts: int) -> None:
    """End the player's turns until the Shade has attacked `shade_acts` times (dialogs: the
    app rolls, confirms are accepted)."""
    for _ in range(12):
        attacks = [
            e
            for e in f.controller.enc.log
            if isinstance(e.event, Attack) and e.event.attacker == "shade"
        ]
        if len(attacks) >= shade_acts:
            return
        await press(pilot, "e")
        while isinstance(app.screen, DiceEntry | Confirm):
            await press(pilot, "ctrl+r" if isinstance(app.screen, DiceEntry) else "enter")
    raise AssertionError("the Shade never attacked:\n" + _log(f))


@sync
async def test_item15_F_MOD_11_a_player_panes_never_name_the_unseen(tmp_path: Path) -> None:
    app = make_app(source=_shade_fight(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        assert f.view.fog and f.view.creatures["shade"].hidden
        order = _initiative(f)
        assert WORD not in order and f"? {' ' * 13}unseen creature" in order
        rows = order.splitlines()
        unseen = next(r for r in rows if "unseen creature" in r)
        other = next(c.name for c in f.view.creatures.values() if c.id != "shade")
        named = next(r for r in rows if other in r)
        assert unseen.index("unseen") == named.index(other)  # aligned
        assert order.count("\n") + 1 == len(f.view.order)  # its place in the turn order is kept
        assert WORD not in screen_text(app)
        status = f.query_one(StatusLine)
        status.show(replace(f.view, current="shade"), "")  # the status line on its turn
        assert WORD not in status._plain and "? unseen creature" in status._plain
        await _cursor_to(pilot, f, f.view.creatures["shade"].pos)
        assert WORD not in _details(f) and "shade" not in _details(f)  # nothing there
        await _end_turns(pilot, app, f, 1)
        assert f.view.creatures["shade"].hidden
        log = _log(f)
        assert WORD not in log, log
        assert "An unseen creature" in log, log  # its attack is told, not by whom
        assert WORD not in _initiative(f) and WORD not in screen_text(app)
        # the saved log and the export keep the truth
        assert any(
            e.event.attacker == "shade" for e in f.controller.enc.log if isinstance(e.event, Attack)
        )


@sync
async def test_item15_F_MOD_11_the_gm_panes_name_the_unseen_marked(tmp_path: Path) -> None:
    app = make_app(source=_shade_fight(tmp_path), manual_dice=("monsters",))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        f = fight(app)
        while isinstance(app.screen, DiceEntry):
            await press(pilot, "ctrl+r")
        assert not f.view.fog and f.view.creatures["shade"].hidden
        row = next(r for r in _initiative(f).splitlines() if WORD in r)
        assert "UNSEEN" in row and "/" in row  # named, hit points told, marked hidden
        status = f.query_one(StatusLine)
        status.show(replace(f.view, current="shade"), "")
        assert WORD in status._plain
        await _cursor_to(pilot, f, f.view.creatures["shade"].pos)
        assert SHADE_NAME in _details(f) and "HIDDEN" in _details(f)
        await _end_turns(pilot, app, f, 1)
        assert SHADE_NAME in _log(f) and UNSEEN not in _log(f).lower()


def test_item15_masked_names_call_only_the_hidden_unseen() -> None:
    names = Names.of({"a": "Brom", "s": SHADE_NAME}, [("p", "Chill Touch", False)])
    masked = masked_names(names, frozenset({"s"}))
    assert masked.who("s") == UNSEEN and masked.who("a") == "Brom"
    assert masked.power("p") == "Chill Touch"
    assert names.who("s") == SHADE_NAME  # the original (the GM's, the export's) is untouched
    assert masked_names(names, frozenset()) is names
