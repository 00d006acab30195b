"""Table play in the engine (issue 12, items 20-22): the dice prompt says what is needed, a
damage roll no face can change is not asked for, and the log says who rolled each roll.

Clause ids: F-ATK-3 (the face needed to hit), F-DMG-1 (damage dice and modifiers)."""

from __future__ import annotations

import json
from pathlib import Path

from engine.actions import EndTurn, UsePower
from engine.content.loader import load_encounter
from engine.dice import SeededDice
from engine.encounter import Encounter
from engine.events import Attack, Damage, Initiative
from engine.save import SaveEntry, entry_from_json, record_json

DUEL = str(Path(__file__).parents[1] / "tui" / "fixtures" / "duel.yaml")


class Table:
    """The party rolls real dice (scripted faces here); the app rolls the monsters'."""

    reports_typed = True
    explains = True

    def __init__(self, faces: list[int]) -> None:
        self.faces = list(faces)
        self.asked: list[tuple[int, str]] = []
        self.seeded = SeededDice(3)
        self.last_typed = False

    def roll(self, sides: int, purpose: str = "", who: str | None = None) -> int:
        if who in ("kara", "brak"):
            self.asked.append((sides, purpose))
            self.last_typed = True
            return self.faces.pop(0)
        self.last_typed = False
        return self.seeded.roll(sides, purpose, who)


def karas_turn(faces: list[int]) -> tuple[Encounter, Table]:
    table = Table([10, 10, *faces])  # initiative: Kara, Brak
    enc = Encounter.create(load_encounter(DUEL), seed=3, dice=table)
    enc.start()
    while enc.current is not None and enc.current.id != "kara":
        enc.apply(EndTurn())
    assert enc.current is not None
    return enc, table


def test_F_ATK_3_attack_prompt_says_face_needed_bonus_defense_and_odds() -> None:
    enc, table = karas_turn([15, 3])
    pv = enc.preview("fira", "gob-1")
    assert pv is not None
    s = pv.setup
    need = s.defense - s.bonus
    table.asked.clear()
    enc.apply(UsePower("fira", ("gob-1",)))
    sides, purpose = table.asked[0]
    assert sides == 20
    assert purpose == (
        f"Kara: Fira vs Goblin 1's Reflex: needs {need}+ "
        f"(d20 {s.bonus:+d} vs Reflex {s.defense}; {round(100 * pv.hit)}%)"
    )


def test_F_DMG_1_damage_prompt_says_dice_and_modifiers() -> None:
    enc, table = karas_turn([15, 3])
    table.asked.clear()
    enc.apply(UsePower("fira", ("gob-1",)))
    sides, purpose = table.asked[1]
    assert sides == 6
    assert purpose == "Kara: Fira damage (1d6+4): dice 1d6, modifiers +4"


def test_seeded_fights_build_no_hints() -> None:
    enc = Encounter.create(load_encounter(DUEL), seed=3)
    enc.start()
    assert not enc.battle.dice.explains


def test_damage_that_no_face_can_change_is_not_asked_for() -> None:
    enc, table = karas_turn([15])
    enc.battle["gob-1"].hp = 5  # 1d6+4 drops it whatever the die shows
    table.asked.clear()
    enc.apply(UsePower("fira", ("gob-1",)))
    assert [sides for sides, _ in table.asked] == [20]  # the attack only
    dmg = [e for e in enc.log if isinstance(e.event, Damage)][-1]
    d = dmg.event
    assert isinstance(d, Damage) and d.target == "gob-1" and d.hp_after <= 0
    assert dmg.rolled_by == "app"


def test_damage_that_can_change_the_outcome_is_asked_for() -> None:
    enc, table = karas_turn([15, 1])
    enc.battle["gob-1"].hp = 6  # a 1 leaves it standing at 1 hp
    table.asked.clear()
    enc.apply(UsePower("fira", ("gob-1",)))
    assert [sides for sides, _ in table.asked] == [20, 6]
    dmg = [e for e in enc.log if isinstance(e.event, Damage)][-1]
    d = dmg.event
    assert isinstance(d, Damage) and d.hp_after == 1 and dmg.rolled_by == "table"


def test_log_says_who_rolled_each_roll_and_replay_keeps_it() -> None:
    enc, _ = karas_turn([15, 2])
    enc.apply(UsePower("fira", ("gob-1",)))
    by = {(type(e.event).__name__, getattr(e.event, "id", None)): e.rolled_by for e in enc.log}
    assert by[("Initiative", "kara")] == "table"
    assert by[("Initiative", "gob-1")] == "app"
    attack = next(e for e in enc.log if isinstance(e.event, Attack))
    assert attack.rolled_by == "table" and attack.to_json()["rolled_by"] == "table"
    assert all(e.rolled_by is None for e in enc.log if e.type in ("turn_start", "action"))
    # the records say which faces were typed; a replay (undo, resume) logs the same
    again = Encounter.replay(enc.loaded, enc.records, seed=3)
    assert [e.to_json() for e in again.log] == [e.to_json() for e in enc.log]


def test_typed_faces_survive_the_save_file() -> None:
    enc, _ = karas_turn([15, 2])
    rec = enc.records[0]
    assert rec.typed  # Kara's and Brak's initiative
    line = record_json(SaveEntry(n=0, record=rec, actor=None, round=0))
    back = entry_from_json(json.loads(json.dumps(line)), 2)
    assert back.record.typed == rec.typed and back.record.faces == rec.faces


def test_seeded_logs_carry_no_rolled_by() -> None:
    enc = Encounter.create(load_encounter(DUEL), seed=3)
    enc.start()
    assert all("rolled_by" not in e.to_json() for e in enc.log)
    assert any(isinstance(e.event, Initiative) for e in enc.log)


def test_text_log_says_which_rolls_were_typed() -> None:
    from tui.logtext import format_log, names_of_encounter

    enc, _ = karas_turn([15, 2])
    enc.apply(UsePower("fira", ("gob-1",)))
    text = "\n".join(format_log(enc.log, names_of_encounter(enc)))
    kara = next(ln for ln in text.splitlines() if "Kara initiative:" in ln)
    assert kara.endswith("(typed)")
    line = next(ln for ln in text.splitlines() if "Kara hits Goblin 1" in ln)
    assert line.count("(typed)") == 1  # the attack roll and the damage roll, both typed
    gob = next(ln for ln in text.splitlines() if "Goblin 1 initiative:" in ln)
    assert gob.endswith("(app rolled)")


def test_only_seeded_dice_leave_purposes_unwritten() -> None:
    """`RecordingDice.quiet` (issue 14): the attack path skips the purpose text only for the
    seeded source, which never reads it; a scripted source still names the roll it lacks."""
    from engine.dice import DiceExhausted, RecordingDice, ScriptedDice

    assert RecordingDice(SeededDice(1)).quiet
    assert not RecordingDice(ScriptedDice([1])).quiet
    assert not RecordingDice(Table([])).quiet
    enc, _ = karas_turn([])
    enc.battle.dice = RecordingDice(ScriptedDice([]))
    try:
        enc.apply(UsePower("fira", ("gob-1",)))
    except DiceExhausted as exc:
        assert "for Kara: Fira vs Goblin 1's Reflex" in str(exc)
    else:
        raise AssertionError("the scripted dice had no face left")
