"""Who plays whom has one home, the encounter (`Combatant.control`): the controller reads it
there, undo and redo rebuild with it, the save notes each change (a `control` line) so a
resumed fight keeps it, and undo keeps the AI's policies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ai.policy import Choice
from engine.actions import EndTurn, Move
from engine.content.loader import load_encounter
from engine.save import SaveError, encode_line, read_save
from tests.support.app import DUEL
from tui.controller import Controller, GameOptions, Update


def controller(**changes: object) -> Controller:
    options = GameOptions(source=DUEL, seed=5, pace=0.0, policy="naive", **changes)  # type: ignore[arg-type]
    ctl = Controller(load_encounter(DUEL), options)
    ctl.run_start()
    return ctl


def test_control_is_read_from_the_encounter_and_kept_by_undo() -> None:
    ctl = controller()
    cur = ctl.enc.current
    assert cur is not None and cur.control == "player"
    foe = next(c.id for c in ctl.enc.battle.combatants.values() if c.side == "monsters")
    assert ctl.toggle_control(foe) == "player"
    assert ctl.control[foe] == ctl.enc.battle[foe].control == "player"
    ctl.run_action(EndTurn())
    ctl.run_undo()
    assert ctl.enc.battle[foe].control == "player" and ctl.control[foe] == "player"
    assert ctl.snapshot().creatures[foe].control == "player"
    ctl.close()


def test_a_change_of_control_survives_a_resume() -> None:
    ctl = controller()
    foe = next(c.id for c in ctl.enc.battle.combatants.values() if c.side == "monsters")
    ctl.toggle_control(foe)
    path = ctl.save_path
    assert path is not None
    ctl.close()
    save = read_save(path)
    assert save.control[foe] == "player" and save.header.control[foe] == "ai"
    again = Controller.resumed(path)
    assert again.enc.battle[foe].control == "player" and again.control[foe] == "player"
    again.run_start()
    assert again.toggle_control(foe) == "ai"
    again.close()
    assert read_save(path).control[foe] == "ai"


@pytest.mark.parametrize(
    ("marker", "why"),
    [
        ({"control": {"nobody": "ai"}}, "not a creature of this fight"),
        ({"control": {"kara": "robot"}}, "not player or ai"),
        ({"control": ["kara"]}, "'control' is not an object"),
    ],
)
def test_a_bad_control_line_is_refused_in_one_line(marker: object, why: str) -> None:
    ctl = controller()
    path = ctl.save_path
    assert path is not None
    ctl.close()
    with Path(path).open("ab") as handle:
        handle.write(encode_line(marker))  # type: ignore[arg-type]
    with pytest.raises(SaveError, match=why) as err:
        read_save(path)
    assert "\n" not in str(err.value) and ":" in str(err.value)


def test_undo_keeps_the_ai_policies() -> None:
    ctl = controller(control={"party": "ai", "monsters": "ai"})
    pols = dict(ctl._policies)
    assert pols
    ctl.run_undo()
    ctl.run_autoplay()
    assert all(ctl._policies[side] is p for side, p in pols.items())
    ctl.close()


class Refused:
    """A policy whose every action the engine refuses (and that never ends its turn)."""

    name = "refused"

    def __init__(self) -> None:
        self.asked = 0

    def next_action(self, enc: Any) -> Choice:
        self.asked += 1
        return Choice(Move(((-1, -1), (-2, -2))))

    def answer(self, enc: Any, question: Any) -> Any:
        return False


def test_the_app_plays_the_ai_through_the_one_turn_driver() -> None:
    news: list[object] = []
    options = GameOptions(source=DUEL, seed=5, pace=0.0, policy="naive")
    ctl = Controller(load_encounter(DUEL), options, news.append)
    stub = ctl._policies["monsters"] = Refused()
    ctl.run_start()
    while (cur := ctl.enc.current) is not None and cur.control == "player":
        ctl.run_action(EndTurn())  # the heroes pass: every AI turn is a refused action
        if stub.asked >= 2:
            break
    assert stub.asked >= 2  # one refused action per goblin turn, each ending that turn
    assert ctl.enc.current is not None and ctl.enc.current.control == "player"
    assert sum(isinstance(n, Update) for n in news) >= 4  # one publication per action
    ctl.close()
