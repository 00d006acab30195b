"""What reaches the body (issue 15, target 2: `fog` against the tactical party): `read_body`.

The exposure of an end square is the enemies' expected blows there (`Context.danger`: on my
side at its bare defenses, a seen and solid target). The fog's Mist Wraith is insubstantial
(F-DMG-5: half damage from every attack) and its Fen Shade invisible (F-MOD-11: no enemy sees
it; F-MOD-8: -5 to hit it). `tactical` (`read_body`) counts half of the blows on each, so
they walk in where `tactical-r8` (round 8's default) held them back: over seeds 1-1000
against the tactical party its monsters win `fog` 375 times where `tactical-r8` ones won 330
and `classic` ones 367 (docs/ai.md, "Asymmetric play", "Round 9").
"""

from __future__ import annotations

import pytest

from ai.position import UNSEEN_SHARE, body_share, prepare_foes, square_value
from ai.sim import play
from engine.content import load_encounter
from engine.events import Decision
from tests.support.scenarios import context_under, started


@pytest.mark.parametrize(
    ("cid", "share"), [("wraith", 0.5), ("shade", UNSEEN_SHARE), ("ghoul", 1.0)]
)
def test_the_blows_counted_are_what_reaches_the_body(cid: str, share: float) -> None:
    """Every enemy's melee and ranged blows in the exposure: times half on the insubstantial
    Wraith and on the invisible Shade, as they were on the Bog Ghoul (neither)."""
    enc = started("fog")
    assert body_share(enc.battle[cid]) == share
    new = prepare_foes(context_under(enc, cid, "tactical"))
    old = prepare_foes(context_under(enc, cid, "tactical-r8"))
    assert [f[0].id for f in new] == [f[0].id for f in old]
    for a, b in zip(new, old, strict=True):
        assert a[6] == pytest.approx(share * b[6]) and a[7] == pytest.approx(share * b[7])


def test_a_square_in_the_party_s_reach_costs_the_shade_less() -> None:
    """Next to Kael the Shade's square is worth more with `read_body` (`tactical-r9`) than
    without (`tactical-r8`): its exposure halved; the Ghoul's is worth the same."""
    enc = started("fog")
    kx, ky = enc.battle["kael"].pos
    sq = (kx + 1, ky)
    for cid, changed in (("shade", True), ("wraith", True), ("ghoul", False)):
        new = square_value(context_under(enc, cid, "tactical-r9"), sq)  # (`crowd` as in r8)
        old = square_value(context_under(enc, cid, "tactical-r8"), sq)
        assert (new > old) if changed else (new == old), cid


def _shade_round(seed: int, monsters: str, rnd: int, party: str = "tactical-r9") -> str:
    """The Fen Shade's first decision of round `rnd` in `fog` (the party `tactical-r9`: the
    tactical party as `read_body` was measured, before `crowd` -0.1)."""
    enc, _ = play(load_encounter("fog"), seed, {"party": party, "monsters": monsters})
    said = [
        lg.event.summary
        for lg in enc.log
        if isinstance(lg.event, Decision) and lg.event.id == "shade" and lg.round == rnd
    ]
    return said[0]


def test_the_shade_walks_in_where_round_8_held_it_back() -> None:
    """`fog`, seed 3, round 2 (read from the bench's fights): round 8's Shade holds out of the
    party's reach with nothing to attack; `tactical` walks toward Kael (the enemies' blows on
    it halved, the walk outscores holding)."""
    assert _shade_round(3, "tactical-r8", 2).startswith("Fen Shade holds its position")
    assert _shade_round(3, "tactical-r9", 2).startswith("Fen Shade walks 6 squares toward Kael")
    # today's `tactical` on both sides (`crowd`, `read_bursts`: the party stands elsewhere)
    # walks in too; the party within its walk, it strikes Nix on the way in
    assert _shade_round(3, "tactical", 2, party="tactical").startswith(
        "Fen Shade walks 4 squares to reach Nix Harrow; Drowning Grasp on Nix Harrow"
    )
