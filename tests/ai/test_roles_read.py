"""Reading the creature (issue 15, target 3): the damage it can deal from where it stands,
and holding its position only when holding wins on expected value, saying so.

- `ai.profile.Profile.standoff` is the share of a creature's damage it deals from where it
  stands (ranged and area attacks); `ai.roles.corrected` turns what is left, the damage that
  needs it to walk up, into `Weights.join`: once its side is fighting (an ally in an enemy's
  reach) a turn with no attack walks toward the fight at least `1 + join` times as boldly
  (`ai.moving.approach_terms`), instead of hanging back while its allies fight alone.
- A melee creature with an attack it could make this turn (walk and strike, provoking no
  one) holds its position only if holding scores more, and its explanation says that holding
  won on expected value and over which attack (`ai.moving.hold_note`), never "out of reach".
"""

from __future__ import annotations

from typing import Any

import pytest

import ai.roles as roles
from ai.config import CLASSIC, CONFIGS
from ai.planner import Planner
from ai.profile import profile_of
from ai.roles import JOIN, weights_for
from ai.tactical import TacticalPolicy
from engine.actions import UsePower
from engine.content.loader import load_encounter
from engine.encounter import Encounter
from tests.support.helpers import BASIC_MELEE, BOLT_VS_AC, CLAW, FIGHTER, mon, pc
from tests.support.scenarios import monster, play_turn, until_turn

TACTICAL = CONFIGS["tactical"]
LANE = "\n".join(["..........."] * 5)
SCRATCH = {
    "id": "scratch",
    "name": "Scratch",
    "kind": "melee",
    "basic": True,
    "attack": {"bonus": 2, "vs": "ac"},
    "hit": {"damage": {"dice": "1d4"}},
}
GUARDS = [(8, 1), (8, 3), (9, 2), (9, 1), (9, 3)]
"""Fighters around Tam (8, 2): the squares from which the sneak can reach anyone are next to
two of them or more."""


def _guarded(build: Any, role: str, guards: int) -> Encounter:
    """A sneak with a feeble scratch, seven squares (its speed) from Tam and the guards:
    every attack it can make this turn ends next to them; where it stands, none of them can
    walk up and strike it."""
    creatures = [FIGHTER, monster("sneak", role, ["scratch"], speed=7)]
    party = [pc(f"g{i}", sq, name=f"Guard {i}") for i, sq in enumerate(GUARDS[:guards])]
    enc = build(
        LANE,
        [mon("m", (0, 2), creature="sneak"), pc("t", (8, 2), name="Tam"), *party],
        creatures=creatures,
        powers=[BASIC_MELEE, SCRATCH],
    )
    until_turn(enc, "m")
    return enc


def _scores(enc: Encounter) -> tuple[float, float]:
    """(holding's score, the best attack's score) as the planner weighs them."""
    pl = Planner(TACTICAL)
    c = enc.current
    assert c is not None
    pl.decide(enc, c)
    stay = max(o.score for o in pl.last_options if o.kind == "stay")
    attack = max(o.score for o in pl.last_options if o.kind in ("attack", "full_attack"))
    return stay, attack


def test_issue_15_target_3_holding_with_an_attack_in_reach_wins_on_expected_value_and_says_so(
    build: Any,
) -> None:
    """Five guards: the scratch (20% to hit, 0.6 expected) would end the sneak next to
    several of them. Holding scores more, so it holds, and says why, naming the attack."""
    enc = _guarded(build, "skirmisher", 5)
    stay, attack = _scores(enc)
    assert stay > attack
    actions, decisions = play_turn(enc, TacticalPolicy(config=TACTICAL))
    assert not any(isinstance(a, UsePower) for a in actions)
    text = decisions[0].summary
    assert "holds its position" in text and "holding wins on expected value" in text, text
    assert "Scratch on Guard" in text, text
    assert "out of reach" not in text


def test_issue_15_target_3_a_melee_creature_takes_the_attack_holding_does_not_beat(
    build: Any,
) -> None:
    """Three guards and a brute (it minds its exposure less): the attack outscores holding,
    and it walks up and attacks."""
    enc = _guarded(build, "brute", 3)
    stay, attack = _scores(enc)
    assert attack > stay
    actions, decisions = play_turn(enc, TacticalPolicy(config=TACTICAL))
    used = [a for a in actions if isinstance(a, UsePower)]
    assert used and used[0].power == "scratch", decisions[0].summary


@pytest.mark.parametrize("role", ["brute", "soldier", "skirmisher", "lurker", "controller"])
@pytest.mark.parametrize("guards", [2, 3, 5])
def test_issue_15_target_3_never_holds_with_an_attack_in_reach_unless_it_wins_and_says_so(
    build: Any, role: str, guards: int
) -> None:
    """Every melee role, more or fewer guards: either it attacks, or holding scored more
    than its best attack and the explanation says so."""
    enc = _guarded(build, role, guards)
    stay, attack = _scores(enc)
    actions, decisions = play_turn(enc, TacticalPolicy(config=TACTICAL))
    if any(isinstance(a, UsePower) for a in actions):
        return
    text = decisions[0].summary
    assert stay >= attack, text
    assert "holding wins on expected value" in text and "out of reach" not in text, text


# --- the damage it can deal from where it stands --------------------------------------------
def test_issue_15_target_3_join_comes_from_the_damage_it_cant_deal_from_where_it_stands(
    build: Any,
) -> None:
    """Melee only (keep-d20's Keep Shadow, a "controller" by its tag): all its damage needs
    it to walk up: the full `JOIN`. A shooter deals it from where it stands: none. A brute
    with a bolt about as good as its claw: the claw's share. `classic` reads no powers: none."""
    shadow = Encounter.create(load_encounter("keep-d20"), seed=1).battle["shadow"]
    assert profile_of(shadow).standoff == 0.0
    assert weights_for(shadow, config=TACTICAL).join == JOIN
    assert weights_for(shadow, config=CLASSIC).join == 0.0
    creatures = [
        FIGHTER,
        monster("sniper", "brute", ["bolt"]),
        monster("mixed", "brute", ["claw", "bolt"]),
    ]
    enc = build(
        "........\n........\n........",
        [
            pc("hero", (0, 0)),
            mon("s", (7, 0), creature="sniper"),
            mon("x", (7, 2), creature="mixed"),
        ],
        creatures=creatures,
        powers=[BASIC_MELEE, BOLT_VS_AC, CLAW],
    )
    sniper, mixed = enc.battle["s"], enc.battle["x"]
    assert profile_of(sniper).standoff > 0.5
    assert weights_for(sniper, config=TACTICAL).join == 0.0  # it keeps its range
    prof = profile_of(mixed)
    assert (prof.melee, prof.far) == (6.5, 7.5)  # 1d6+3 (claw) and 1d8+3 (bolt)
    assert not prof.shooter and prof.standoff == pytest.approx(7.5 / 14)
    assert weights_for(mixed, config=TACTICAL).join == pytest.approx(6.5 / 14 * JOIN)


FIELD = "\n".join(["................"] * 5)


def _joined(build: Any, x: int = 2) -> Encounter:
    """A skirmisher at (x, 2), out of reach of everyone while its ally already stands by Hal
    (Hal, Ivo and Jo 11-13 squares off)."""
    creatures = [
        FIGHTER,
        monster("sk", "skirmisher", ["claw"]),
        monster("ally", "soldier", ["claw"], initiative=0),
    ]
    enc = build(
        FIELD,
        [
            mon("k", (x, 2), creature="sk"),
            mon("a", (13, 2), creature="ally"),
            pc("h1", (14, 2), name="Hal"),
            pc("h2", (14, 3), name="Ivo"),
            pc("h3", (15, 1), name="Jo"),
        ],
        creatures=creatures,
        powers=[BASIC_MELEE, CLAW],
    )
    until_turn(enc, "k")
    return enc


def test_issue_15_target_3_a_melee_creature_joins_the_fight_its_side_has_joined(
    build: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its ally is fighting Hal; it can't reach anyone this turn. Read as what it is (all its
    damage up close) it double-moves to the fight; with `JOIN` 0 it held where it stood."""
    enc = _joined(build)
    play_turn(enc, TacticalPolicy(config=TACTICAL))
    assert enc.battle["k"].pos[0] >= 12
    monkeypatch.setattr(roles, "JOIN", 0.0)
    monkeypatch.setattr(roles, "_WEIGHTS", {})
    enc = _joined(build)
    _, decisions = play_turn(enc, TacticalPolicy(config=TACTICAL))
    assert enc.battle["k"].pos == (2, 2), decisions[0].summary
