"""The bundled `brawl` (issue 14): everyone starts within reach of an enemy, so the naive
policy attacks from the first turn and the fight measures the rules core, not the approach."""

from __future__ import annotations

from ai.sim import play
from engine.content.loader import load_encounter
from engine.encounter import Encounter
from engine.grid import distance


def test_brawl_starts_with_every_creature_in_reach_of_an_enemy() -> None:
    enc = Encounter.create(load_encounter("brawl"), seed=1)
    b = enc.battle
    assert len(b.combatants) == 13
    for c in b.combatants.values():
        near = min(distance(b.squares(c), b.squares(e)) for e in b.enemies_of(c))
        assert near <= max(1, c.reach), c.id


def test_brawl_naive_fight_ends_with_attacks_from_the_first_round() -> None:
    loaded = load_encounter("brawl")
    enc, result = play(loaded, 3, {"party": "naive", "monsters": "naive"})
    assert result.winner in ("party", "monsters")
    assert not result.illegal
    first_round_attacks = [
        ev
        for ev in enc.log
        if ev.to_json().get("type") == "attack" and ev.to_json().get("round") == 1
    ]
    assert first_round_attacks
