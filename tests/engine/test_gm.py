"""The GM's tools (issue 12, item 23): hit points, effects, reinforcements, removal.

Each is an action: applied, logged (a `gm` event, then the ordinary events it causes),
undone, saved and replayed exactly, and refused with a reason where the rules forbid it.
Clause ids: X-HP-3 (temporary hit points, healing from 0), F-DUR-1 (durations), F-TRN-2
(initiative order), F-TRN-6 (a fight ends when a side has fled)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import autosave
from engine.actions import (
    EndTurn,
    GmAdd,
    GmEffect,
    GmEndEffect,
    GmHp,
    GmRemove,
    Impossible,
    action_from_json,
)
from engine.content.loader import load_encounter
from engine.encounter import Encounter
from engine.events import Damage, EffectStart, Gm, Heal, TempHp
from engine.gm import log_json
from engine.history import History

DUEL = str(Path(__file__).parents[1] / "tui" / "fixtures" / "duel.yaml")
CHECK_LOG = next(
    (
        p
        for p in (
            Path(__file__).resolve().parents[3] / "shared" / "conformance" / "check_log.py",
            Path("/work/shared/conformance/check_log.py"),
        )
        if p.exists()
    ),
    None,
)


def fight(seed: int = 3) -> Encounter:
    enc = Encounter.create(load_encounter(DUEL), seed=seed)
    enc.start()
    return enc


def refused(enc: Encounter, action: object) -> str:
    before = len(enc.log), len(enc.records), dict(enc.battle.combatants)
    with pytest.raises(Impossible) as exc:
        enc.apply(action)  # type: ignore[arg-type]
    assert (len(enc.log), len(enc.records), dict(enc.battle.combatants)) == before
    return exc.value.reason


def last(enc: Encounter, cls: type) -> object:
    return next(e.event for e in reversed(enc.log) if isinstance(e.event, cls))


# --- hit points --------------------------------------------------------------------------
def test_gm_damage_is_logged_as_damage_and_spends_no_action() -> None:
    enc = fight()
    cur = enc.current
    assert cur is not None
    spent = dict(enc.battle.spent)
    enc.apply(GmHp("gob-1", "damage", 4))
    gm = last(enc, Gm)
    assert isinstance(gm, Gm) and gm.tool == "hp" and gm.target == "gob-1"
    d = last(enc, Damage)
    assert isinstance(d, Damage) and d.cause == "gm" and d.amount == 4 and d.hp_after == 2
    assert enc.battle["gob-1"].hp == 2 and enc.battle.spent == spent and enc.current is cur


def test_X_HP_3_gm_temporary_hp_soak_gm_damage_first() -> None:
    enc = fight()
    enc.apply(GmHp("brak", "temp", 5))
    assert isinstance(last(enc, TempHp), TempHp) and enc.battle["brak"].temp_hp == 5
    enc.apply(GmHp("brak", "damage", 7))
    assert enc.battle["brak"].hp == 30 and enc.battle["brak"].temp_hp == 0


def test_X_HP_3_gm_healing_never_goes_above_maximum() -> None:
    enc = fight()
    enc.apply(GmHp("kara", "damage", 10))
    enc.apply(GmHp("kara", "heal", 50))
    h = last(enc, Heal)
    assert isinstance(h, Heal) and h.hp_after == 26 == enc.battle["kara"].hp


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (GmHp("kara", "heal", -3), "1 or more"),
        (GmHp("kara", "heal", 0), "1 or more"),
        (GmHp("kara", "damage", True), "whole number"),  # a bool is no number
        (GmHp("kara", "heal", 5), "full hit points"),
        (GmHp("kara", "drain", 5), "not one of"),
        (GmHp("nobody", "damage", 5), "no creature 'nobody'"),
    ],
)
def test_gm_hp_refusals(action: GmHp, why: str) -> None:
    assert why in refused(fight(), action)


def test_gm_damage_can_kill_and_the_dead_cant_be_healed() -> None:
    enc = fight()
    enc.apply(GmHp("gob-1", "damage", 20))
    assert enc.battle["gob-1"].state == "dead"
    assert "is dead" in refused(enc, GmHp("gob-1", "heal", 3))


# --- effects -----------------------------------------------------------------------------
def test_F_DUR_1_gm_condition_with_a_duration_starts_and_ends_by_hand() -> None:
    enc = fight()
    enc.apply(GmEffect("gob-1", "save_ends", condition="dazed"))
    start = last(enc, EffectStart)
    assert isinstance(start, EffectStart) and start.duration == "save_ends"
    assert "dazed" in enc.battle.conditions(enc.battle["gob-1"])
    enc.apply(GmEndEffect(start.effect))
    assert "dazed" not in enc.battle.conditions(enc.battle["gob-1"])
    assert "no active effect" in refused(enc, GmEndEffect(start.effect))


def test_gm_effect_ongoing_damage_and_modifier() -> None:
    enc = fight()
    enc.apply(GmEffect("brak", "end_of_encounter", ongoing=3, ongoing_type="fire"))
    enc.apply(GmEffect("brak", "end_of_next_turn", stat="ac", value=2, label="shield of faith"))
    start = last(enc, EffectStart)
    assert isinstance(start, EffectStart) and start.name == "shield of faith"


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (GmEffect("kara", condition="sleepy"), "unknown condition 'sleepy'"),
        (GmEffect("kara", duration="forever", condition="dazed"), "duration 'forever'"),
        (GmEffect("kara"), "needs conditions"),
        (GmEffect("kara", stat="luck", value=2), "modifiers"),
        (GmEffect("kara", stat="ac", value=40), "modifiers"),
    ],
)
def test_gm_effect_refusals(action: GmEffect, why: str) -> None:
    assert why in refused(fight(), action)


# --- reinforcements ----------------------------------------------------------------------
def test_F_TRN_2_gm_adds_a_creature_with_an_entered_initiative_in_order() -> None:
    enc = fight()
    b = enc.battle
    cur = b.current
    enc.apply(
        GmAdd("goblin", "monsters", (8, 6), initiative=3)
    )  # the lowest a d20 +2 gives: acts last
    assert "goblin-1" in b.combatants and b["goblin-1"].name == "Goblin"
    assert b.order[-1] == "goblin-1" and b.current == cur
    gm = next(e.event for e in enc.log if isinstance(e.event, Gm))
    assert gm.tool == "add" and gm.combatant is not None and gm.combatant["pos"] == [8, 6]


def test_gm_added_creature_rolls_initiative_and_takes_its_turn() -> None:
    enc = fight()
    enc.apply(GmAdd("goblin", "monsters", (8, 1), id="gob-3"))
    for _ in range(12):
        if enc.current is not None and enc.current.id == "gob-3":
            break
        enc.apply(EndTurn())
    assert enc.current is not None and enc.current.id == "gob-3"


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (GmAdd("goblin", "monsters", (0, 0)), "0,0 is wall"),
        (GmAdd("goblin", "monsters", (2, 5)), "taken by Kara"),
        (GmAdd("goblin", "monsters", (40, 2)), "off the 10x8 map"),
        (GmAdd("dragon", "monsters", (8, 6)), "no creature 'dragon'"),
        (GmAdd("goblin", "pirates", (8, 6)), "no side 'pirates'"),
        (GmAdd("goblin", "monsters", (8, 6), id="kara"), "already in this fight"),
        (GmAdd("goblin", "monsters", (8, 6), id="Bad Id!"), "lower-case"),
        (GmAdd("goblin", "monsters", (8, 6), initiative=40), "out of reach"),
    ],
)
def test_gm_add_refusals(action: GmAdd, why: str) -> None:
    assert why in refused(fight(), action)


# --- removal -----------------------------------------------------------------------------
def test_F_TRN_6_removing_the_last_enemy_ends_the_fight_as_fled() -> None:
    enc = fight()
    enc.apply(GmHp("gob-1", "damage", 20))
    other = "gob-2"
    if enc.current is not None and enc.current.id == other:
        enc.apply(EndTurn())
    enc.apply(GmRemove(other))
    assert other not in enc.battle.combatants and other not in enc.battle.order
    assert enc.over and enc.battle.winner == "party" and enc.battle.end_reason == "fled"


def test_gm_remove_refuses_the_creature_whose_turn_it_is() -> None:
    enc = fight()
    assert enc.current is not None
    assert "end it first" in refused(enc, GmRemove(enc.current.id))
    assert "no creature" in refused(enc, GmRemove("nobody"))


# --- undo, save, replay, the log ---------------------------------------------------------
def every_tool(apply: object) -> None:
    do = apply  # History.apply or Encounter.apply
    do(GmHp("brak", "damage", 5))  # type: ignore[operator]
    do(GmHp("brak", "heal", 2))  # type: ignore[operator]
    do(GmHp("brak", "temp", 4))  # type: ignore[operator]
    do(GmEffect("gob-1", "save_ends", condition="slowed"))  # type: ignore[operator]
    do(GmAdd("goblin", "monsters", (8, 6), id="gob-3", initiative=10))  # type: ignore[operator]
    do(GmRemove("gob-2"))  # type: ignore[operator]


def test_gm_actions_undo_one_at_a_time_and_redo_the_same() -> None:
    enc = fight()
    if enc.current is not None and enc.current.id == "gob-2":
        enc.apply(EndTurn())
    hist = History(enc)
    snap0 = hist.enc.snapshot()
    every_tool(hist.apply)
    after = hist.enc.snapshot()
    assert hist.undo(1) == 1 and "gob-2" in hist.enc.battle.combatants
    assert hist.redo(1) == 1 and hist.enc.snapshot() == after
    while hist.enc.records[-1].action is not None and hist.undo(1):
        pass
    assert hist.enc.snapshot() == snap0


def test_gm_actions_save_and_resume_exactly(tmp_path: Path) -> None:
    enc = fight()
    if enc.current is not None and enc.current.id == "gob-2":
        enc.apply(EndTurn())
    hist = autosave.begin(Encounter.create(load_encounter(DUEL), seed=3), directory=tmp_path)
    hist.start()
    if hist.enc.current is not None and hist.enc.current.id == "gob-2":
        hist.apply(EndTurn())
    every_tool(hist.apply)
    path = hist.saver.path  # type: ignore[union-attr]
    hist.saver.close()  # type: ignore[union-attr]
    again = autosave.resume(path)
    assert [e.to_json() for e in again.enc.log] == [e.to_json() for e in hist.enc.log]


def test_gm_actions_from_json_are_checked_not_trusted() -> None:
    a = action_from_json(
        {"action": "gm_add", "creature": "goblin", "side": "monsters", "pos": [8, 6]}
    )
    assert a == GmAdd("goblin", "monsters", (8, 6))
    with pytest.raises(ValueError):
        action_from_json({"action": "gm_add", "creature": "goblin", "side": "x", "pos": 7})
    bad = action_from_json({"action": "gm_hp", "target": "kara", "change": "heal", "amount": "9"})
    assert "whole number" in refused(fight(), bad)


def test_gm_log_passes_check_log(tmp_path: Path) -> None:
    enc = fight()
    if enc.current is not None and enc.current.id == "gob-2":
        enc.apply(EndTurn())
    every_tool(enc.apply)
    enc.apply(GmHp("gob-3", "damage", 3))  # the added creature is known to the checker
    for cid in ("gob-1", "gob-3"):
        if enc.over:
            break
        if enc.current is not None and enc.current.id == cid:
            enc.apply(EndTurn())
        enc.apply(GmHp(cid, "damage", 30))
    assert enc.over
    if CHECK_LOG is None:
        pytest.skip("../shared/conformance/check_log.py is not beside this checkout")
    lines = log_json(enc.log)
    joined = [c for c in lines[0]["combatants"] if c.get("joined") is not None]
    assert [c["id"] for c in joined] == ["gob-3"]
    import json

    out = tmp_path / "gm.jsonl"
    out.write_text("".join(json.dumps(ln) + "\n" for ln in lines))
    run = subprocess.run(
        [sys.executable, str(CHECK_LOG), str(out)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr
