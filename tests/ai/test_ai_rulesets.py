"""The tactical AI with the full-round actions of the other rulesets (issue 8): the d20srd
full attack (D-1) and the 4srd/d20srd withdraw (S-15), `ai.full_round`."""

from __future__ import annotations

from typing import Any

from ai.tactical import TacticalPolicy
from engine.actions import Action, EndTurn, FullAttack, Move, UsePower, Withdraw
from engine.encounter import Encounter
from engine.events import Provoke
from tests.support.helpers import (
    BASIC_MELEE,
    BOLT_VS_AC,
    DEF,
    FIGHTER,
    OPEN_9X7,
    SLAM,
    STRIKE,
    mon,
    pc,
)


def warrior(cid: str, bab: int) -> dict[str, Any]:
    return {
        "id": cid,
        "name": cid.title(),
        "role": "soldier",
        "level": 6,
        "hp": 60,
        "bab": bab,
        "speed": 6,
        "abilities": {"str": 16, "con": 12, "dex": 12},
        "weapons": [{"id": "longsword", "name": "longsword", "dice": "1d8", "crit_range": 19}],
        "powers": ["strike"],
    }


def monster(cid: str, role: str, powers: list[str], hp: int = 60) -> dict[str, Any]:
    return {
        "id": cid,
        "name": cid.title(),
        "role": role,
        "level": 1,
        "hp": hp,
        "defenses": DEF,
        "speed": 6,
        "initiative": 2,
        "powers": powers,
    }


CREATURES = [
    FIGHTER,
    warrior("veteran", 6),
    warrior("novice", 1),
    monster("post", "brute", ["slam"]),
    monster("archer", "artillery", ["bolt"]),
]


def setup(build: Any, combatants: list[dict[str, Any]], ruleset: str, seed: int = 3) -> Encounter:
    return build(
        OPEN_9X7,
        combatants,
        creatures=CREATURES,
        powers=[BASIC_MELEE, STRIKE, BOLT_VS_AC, SLAM],
        seed=seed,
        ruleset=ruleset,
    )


def play_turn(enc: Encounter, cid: str, policy: TacticalPolicy) -> list[Action]:
    for _ in range(50):
        assert enc.current is not None
        if enc.current.id == cid:
            break
        enc.apply(EndTurn())
    c = enc.current
    assert c is not None and c.id == cid
    mark = enc.battle.turn_counter
    actions: list[Action] = []
    for _ in range(12):
        if enc.over or enc.battle.turn_counter != mark:
            break
        choice = policy.next_action(enc)
        assert enc.validate(choice.action) is None
        actions.append(choice.action)
        enc.apply(choice.action, choice.decision)
    return actions


def test_a_d20srd_fighter_with_bab_6_next_to_an_enemy_full_attacks(build: Any) -> None:
    enc = setup(
        build,
        [mon("vet", (3, 3), creature="veteran", side="party"), mon("t", (4, 3), "post")],
        "d20srd",
    )
    policy = TacticalPolicy()
    actions = play_turn(enc, "vet", policy)
    assert actions[0] == FullAttack("strike", ("t",))
    assert policy.last_options[0].kind == "full_attack"
    assert len(policy.last_options[0].hits) == 2
    h0, h1 = policy.last_options[0].hits
    assert h1.hit < h0.hit, "the second attack at -5"


def test_one_attack_only_means_no_full_attack(build: Any) -> None:
    enc = setup(
        build,
        [mon("nov", (3, 3), creature="novice", side="party"), mon("t", (4, 3), "post")],
        "d20srd",
    )
    actions = play_turn(enc, "nov", TacticalPolicy())
    assert not any(isinstance(a, FullAttack) for a in actions)
    assert any(isinstance(a, UsePower) for a in actions)


def test_no_full_attack_in_4srd(build: Any) -> None:
    enc = setup(
        build,
        [mon("vet", (3, 3), creature="veteran", side="party"), mon("t", (4, 3), "post")],
        "4srd",
    )
    actions = play_turn(enc, "vet", TacticalPolicy())
    assert not any(isinstance(a, FullAttack) for a in actions)


def test_a_fleeing_archer_next_to_an_enemy_withdraws_in_4srd(build: Any) -> None:
    enc = setup(build, [pc("hero", (4, 3)), mon("arc", (5, 3), "archer")], "4srd")
    enc.battle["arc"].hp = 10
    actions = play_turn(enc, "arc", TacticalPolicy(flee=True))
    assert isinstance(actions[0], Withdraw), actions
    assert not any(isinstance(lg.event, Provoke) for lg in enc.log)
    assert enc.battle["arc"].pos != (5, 3)


def test_without_withdraw_the_fleeing_archer_walks_away_provoking(build: Any) -> None:
    enc = setup(build, [pc("hero", (4, 3)), mon("arc", (5, 3), "archer")], "ffd20")
    enc.battle["arc"].hp = 10
    actions = play_turn(enc, "arc", TacticalPolicy(flee=True))
    assert not any(isinstance(a, Withdraw) for a in actions)
    assert any(isinstance(a, Move) for a in actions)
