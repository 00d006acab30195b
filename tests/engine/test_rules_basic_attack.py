"""Issue 16 item 4: every creature has a basic melee attack. The seed (file 000): "Each
character has a number of attacks to choose from, including a basic attack." A creature whose
content lists none gets one from its melee weapon (1[W] + Str vs AC), or unarmed (1d4 + Str);
`skirmish check` says so as a note."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.actions import Move, UsePower
from engine.content.basics import DERIVED_ID
from engine.events import Attack, Damage, Provoke
from tests.support.helpers import (
    BASIC_MELEE,
    BOLT,
    CLAW,
    FIGHTER,
    GOBLIN,
    ZAP,
    Builder,
    events,
    mon,
    pc,
    write_encounter,
)
from tui.cli import main

WIZARD = dict(FIGHTER, id="wizard", name="Wizard", powers=["zap"])
BRAWLER = dict(WIZARD, id="brawler", name="Brawler", weapons=[])
GRID = "......\n......\n......\n"


def _fight(build: Builder, who: str, faces: list[int]) -> Any:
    return build(
        GRID,
        [pc("w", (1, 1), who), mon("g", (2, 1))],
        creatures=[FIGHTER, GOBLIN, WIZARD, BRAWLER],
        powers=[BASIC_MELEE, CLAW, BOLT, ZAP],
        faces=faces,
    )


def test_seed_000_basic_attack_derived_from_the_melee_weapon(build: Builder) -> None:
    enc = _fight(build, "wizard", [20, 1, 20, 5])
    power = enc.battle["w"].power(DERIVED_ID)
    assert power is not None and power.basic and power.kind == "melee"
    assert power.weapon == "sword" and "Longsword" in power.name
    out = enc.apply(UsePower(DERIVED_ID, ("g",)))
    assert events(out, Attack)[0].outcome == "crit"
    dmg = events(out, Damage)[0]
    assert dmg.dice.startswith("1d8") and dmg.cause == "crit"


def test_seed_000_basic_attack_unarmed_is_1d4_plus_str(build: Builder) -> None:
    enc = _fight(build, "brawler", [20, 1, 15, 3])
    power = enc.battle["w"].power(DERIVED_ID)
    assert power is not None and power.weapon is None and "unarmed" in power.name
    out = enc.apply(UsePower(DERIVED_ID, ("g",)))
    dmg = events(out, Damage)
    assert dmg and dmg[0].dice == "1d4+3" and dmg[0].rolled == 3 + 3


def test_seed_000_no_derived_attack_when_the_content_lists_one(build: Builder) -> None:
    enc = _fight(build, "fighter", [20, 1])
    assert enc.battle["w"].power(DERIVED_ID) is None
    assert enc.battle["w"].basic_melee() is not None


def test_S_14_a_creature_with_a_derived_basic_attack_takes_opportunity_attacks(
    build: Builder,
) -> None:
    # the goblin acts first and walks away from the wizard, who threatens it now
    enc = _fight(build, "wizard", [1, 20, 10, 5])
    out = enc.apply(Move(((2, 1), (3, 1), (4, 1)), "walk"))
    assert [(p.by, p.taken) for p in events(out, Provoke)] == [("w", True)]
    atk = events(out, Attack)[0]
    assert atk.attacker == "w" and atk.power == DERIVED_ID and atk.opportunity


def test_check_notes_the_derived_basic_attack(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_encounter(
        tmp_path,
        GRID,
        [pc("w", (1, 1), "wizard"), mon("g", (2, 1))],
        creatures=[FIGHTER, GOBLIN, WIZARD],
        powers=[BASIC_MELEE, CLAW, BOLT, ZAP],
    )
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "creatures[2]: note: lists no basic melee attack" in out
    assert "Basic Attack (Longsword)" in out and "1 file OK" in out
    assert "creatures[0]" not in out
