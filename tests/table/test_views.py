"""What a seat may see, computed from what its creatures know (the engine's visibility)."""

from __future__ import annotations

import json

import pytest

from engine.content.loader import load_encounter
from engine.encounter import Encounter
from tests.support.table import AMBUSH
from tui.controller import Controller
from tui.options import GameOptions
from tui.table.host import seat_view_json
from tui.table.views import (
    engine_knowledge,
    eyes_of,
    seat_events,
    seat_view,
    view_from_json,
    view_json,
)
from tui.view import View


@pytest.fixture
def ctl() -> Controller:
    c = Controller(load_encounter(AMBUSH), GameOptions(seed=5))
    c.hist.start()
    return c


@pytest.fixture
def enc(ctl: Controller) -> Encounter:
    return ctl.enc


def picture(ctl: Controller) -> View:
    """The whole picture, as the host takes it (the GM's)."""
    return ctl.snapshot()


def test_f_mod_11_an_invisible_enemy_is_left_out_of_a_players_view(
    ctl: Controller, enc: Encounter
) -> None:
    seen = engine_knowledge(enc, eyes_of(enc, ["kara"], None))
    assert "shade-1" not in seen
    assert {"kara", "brak", "gob-1", "gob-2"} <= seen  # her side always; goblins in sight
    view = seat_view(picture(ctl), seen)
    assert "shade-1" not in view.creatures and "shade-1" not in view.order
    assert seat_view(picture(ctl), None).creatures.keys() >= {"shade-1"}  # the GM's


def test_f_mod_11_the_monsters_see_their_own_invisible_shade(enc: Encounter) -> None:
    seen = engine_knowledge(enc, eyes_of(enc, [], "monsters"))  # a spectator of the monsters
    assert "shade-1" in seen and "kara" in seen


def test_log_lines_naming_an_unseen_creature_are_not_sent(enc: Encounter) -> None:
    log = list(enc.log)
    mentions = [ev for ev in log if "shade-1" in json.dumps(ev.event.payload())]
    assert mentions, "the shade's initiative is in the log"
    kept = seat_events(log, frozenset({"shade-1"}))
    assert all("shade-1" not in json.dumps(ev.event.payload()) for ev in kept)
    assert all(ev.type != "encounter_start" for ev in kept)
    assert len(seat_events(log, frozenset())) == len(log)


def test_a_view_survives_the_wire(ctl: Controller) -> None:
    view = picture(ctl)
    data = json.loads(json.dumps(view_json(view)))
    assert view_from_json(data) == view
    with pytest.raises(ValueError):
        view_from_json({"round": 1})


def test_the_json_filter_matches_the_view_filter(ctl: Controller, enc: Encounter) -> None:
    view = picture(ctl)
    seen = engine_knowledge(enc, eyes_of(enc, ["brak"], None))
    by_json = view_from_json(json.loads(json.dumps(seat_view_json(view_json(view), seen))))
    assert by_json == seat_view(view, seen)
