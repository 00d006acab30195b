"""What allies near an end square do to its exposure (issue 15, target 2: `brawl`): `crowd`.

`ai.position.square_value` divides the end square's exposure by `1 + crowd * allies` (allies
within 2 squares, up to 3). `classic` and round 9's `tactical-r9` have 0.35 (allies share the
enemies' blows); `tactical` has -0.1: a crowd draws the enemies' blows, as the party's bursts
and blasts catch a cluster of raiders. Against its own party its monsters beat `classic` ones
on all eight encounters played, where `tactical-r9` lost `brawl` (docs/ai.md, "Round 9").
"""

from __future__ import annotations

import pytest

from ai.config import CONFIGS
from ai.roles import weights_for
from tests.support.scenarios import started, value_under


@pytest.mark.parametrize(("config", "crowd"), [("tactical", -0.1), ("tactical-r9", 0.35)])
def test_the_configuration_sets_the_weight(config: str, crowd: float) -> None:
    enc = started("brawl")
    for c in enc.battle.combatants.values():
        assert weights_for(c, config=CONFIGS[config]).crowd == crowd
    assert (
        weights_for(next(iter(enc.battle.combatants.values())), config=CONFIGS["classic"]).crowd
        == 0.35
    )


def test_a_crowded_square_costs_more_under_tactical() -> None:
    """Where a raider stands in the brawl (enemies in reach, allies around), its square is
    worth less under `tactical` than under `tactical-r9` (the same exposure divided by
    0.9-0.7 instead of 1.35-2.05); the roles' other terms are the same."""
    enc = started("brawl")
    b = enc.battle
    seen = 0
    for c in b.combatants.values():
        if c.side != "monsters":
            continue
        sq = c.pos
        crowd = value_under(enc, c.id, "tactical", sq)
        share = value_under(enc, c.id, "tactical-r9", sq)
        assert crowd <= share, c.id
        seen += crowd < share
    assert seen  # some raider stands among allies within an enemy's reach
