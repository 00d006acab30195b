"""Where a crowd is dangerous (issue 15, target 2: `battle`): `read_bursts`.

`crowd` -0.1 (round 9, `tests/ai/test_crowd.py`) makes the allies around an end square add to
its exposure: the enemies' bursts and blasts catch a cluster. It held on every square, also
where no burst can fall: at `battle`'s fords, where the war band must close up to cross, far
from the Company's casters, it cost the monsters the fight. With `read_bursts` (`tactical`)
the crowd weight counts only on the squares where at least half of the enemies that can hurt
the creature there have an unspent (X-PWR-1) area or close attack that reaches it next round
(`ai.position.burst_far`); elsewhere allies share the blows (0.35, as in `classic` and
`tactical-r9`). `tactical-crowd` is `tactical` without it (round 9's default).
"""

from __future__ import annotations

from typing import Any

import pytest

from ai.config import CONFIGS
from ai.position import burst_far
from ai.roles import SHARE, weights_for
from engine.encounter import Encounter
from tests.support.helpers import AREA, BASIC_MELEE, BOLT, CLAW, FIGHTER, GOBLIN, mon, pc
from tests.support.scenarios import started, value_under


def _areas(enc: Encounter, cid: str) -> list[str]:
    c = enc.battle[cid]
    return [p.id for p in c.powers if p.attack is not None and p.kind in ("area", "close")]


def test_X_PWR_1_burst_far_counts_the_unspent_bursts_only() -> None:
    """Vessa's Fire Bloom (area burst 1 within 10) reaches her speed + 11 squares; with
    every area and close attack of hers spent, none reaches (-1). Nix has none at all."""
    enc = started("brawl")
    b = enc.battle
    vessa = b["vessa"]
    speed = b.speed(vessa)
    assert burst_far(vessa, speed) == speed + 11
    vessa.used_powers.update(_areas(enc, "vessa"))
    assert burst_far(vessa, speed) == -1
    assert _areas(enc, "nix") == []
    assert burst_far(b["nix"], b.speed(b["nix"])) == -1


def test_the_configurations() -> None:
    enc = started("brawl")
    c = next(iter(enc.battle.combatants.values()))
    assert weights_for(c, config=CONFIGS["tactical"]).bursts
    for name in ("tactical-crowd", "tactical-r9", "classic"):
        assert not weights_for(c, config=CONFIGS[name]).bursts, name
    assert weights_for(c, config=CONFIGS["tactical-crowd"]).crowd == -0.1
    assert weights_for(c, config=CONFIGS["classic"]).crowd == SHARE


def test_a_crowd_costs_more_only_where_a_burst_reaches() -> None:
    """A raider in the brawl: while the party's bursts are unspent, its square is worth what
    `tactical-crowd` makes of it (all of the party stand within a burst's reach); with every
    one of them spent, what `tactical-r9` makes of it (allies share the blows), and less
    crowded squares are no longer worth more for it."""
    enc = started("brawl")
    b = enc.battle
    raiders = [c for c in b.combatants.values() if c.side == "monsters"]
    seen = 0
    for c in raiders:
        tactical = value_under(enc, c.id, "tactical", c.pos)
        assert tactical == value_under(enc, c.id, "tactical-crowd", c.pos), c.id
        seen += tactical < value_under(enc, c.id, "tactical-r9", c.pos)
    assert seen  # some raider stands among allies within an enemy's reach
    for hero in b.combatants.values():
        if hero.side == "party":
            hero.used_powers.update(_areas(enc, hero.id))
    for c in raiders:
        assert value_under(enc, c.id, "tactical", c.pos) == value_under(
            enc, c.id, "tactical-r9", c.pos
        )


MAGE = {**GOBLIN, "id": "mage", "name": "Mage", "powers": ["claw", "fireball"]}
LANE = "\n".join(["." * 40] * 5)


@pytest.mark.parametrize(
    ("mage_x", "fighters", "crowd_counts"),
    [(14, 1, True), (38, 1, False), (14, 2, False)],
    ids=["mage-near", "mage-far", "mage-near-outnumbered"],
)
def test_a_crowd_draws_the_blows_where_most_that_can_hurt_it_have_a_burst(
    build: Any, mage_x: int, fighters: int, crowd_counts: bool
) -> None:
    """Three goblins in a clump, one of them next to a fighter; the party's mage has an
    at-will Fireball (area burst 2 within 10), speed 6: it can catch a square 18 squares
    off. With the mage 3 squares away and one fighter (half of those that can hurt the
    goblin have a burst for it) the clump's square is valued as `tactical-crowd` values it;
    with the mage 27 squares away (no burst reaches), or with a second fighter next to the
    goblin (one in three), as `tactical-r9` does: the fighters' blows are shared."""
    heroes = [pc("hero", (10, 2)), pc("hero-2", (10, 1))][:fighters]
    enc = build(
        LANE,
        [
            *heroes,
            mon("mage", (mage_x, 2), creature="mage", side="party"),
            mon("g1", (11, 2)),
            mon("g2", (11, 1)),
            mon("g3", (11, 3)),
        ],
        creatures=[FIGHTER, GOBLIN, MAGE],
        powers=[BASIC_MELEE, CLAW, BOLT, AREA],
    )
    b = enc.battle
    assert burst_far(b["mage"], b.speed(b["mage"])) == 18
    assert burst_far(b["hero"], b.speed(b["hero"])) == -1
    crowd = value_under(enc, "g1", "tactical-crowd", (11, 2))
    share = value_under(enc, "g1", "tactical-r9", (11, 2))
    assert crowd < share  # exposed, among allies: the two readings differ here
    assert value_under(enc, "g1", "tactical", (11, 2)) == (crowd if crowd_counts else share)
