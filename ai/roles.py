"""How much each monster role cares about each part of the tactical score.

The tactical policy scores a plan (where to end the move, which power, which target) as a sum
of terms in one unit, hit points: damage expected to deal, hit points of the targets it could
drop, conditions, minus damage expected to take from opportunity attacks and, at the end
square, from the enemies that can reach it next round. A role is a set of weights on those
terms (brute: damage; soldier: stay engaged, guard allies, hold chokepoints; skirmisher: flank
and avoid opportunity attacks; artillery: clear shots, never end next to an enemy;
controller: areas and conditions; lurker: concealment). Player characters played by the AI
get a role from their powers.

`weights_for` starts from the role and, with `AIConfig.read_powers`, corrects the weights by
what the creature's powers do (`ai.profile`): a "controller" or "artillery" with no ranged or
area attack fights in melee; a creature whose ranged attacks outclass its melee keeps its
range whatever its tag; a melee creature with a close burst or blast seeks enemies around it,
one with reach 2 or more strikes from beyond their reach instead of standing next to them; a
"controller" with no control power weighs conditions as anyone; and by the damage it can deal
from where it stands (`Profile.standoff`, its ranged and area share): a creature that must
walk up to hurt anyone joins a fight its side has joined instead of hanging back (`join`).
`AIConfig.patience` scales the role's `patience`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ai.config import AIConfig
from ai.profile import Profile, profile_of
from engine.content.schema import Power
from engine.state import Combatant

SHARE = 0.35
"""The role table's `Weights.crowd`: allies near the end square share the enemies' blows. Also
what `tactical`'s crowd weight gives way to where fewer than half of the enemies that can hurt
the creature there have a burst or blast that reaches it (`Weights.bursts`)."""


@dataclass(frozen=True, slots=True)
class Weights:
    damage: float = 1.0
    """Per expected hit point dealt (capped at the target's hit points)."""
    kill: float = 1.0
    """Per hit point of the value of dropping a target, times the chance to drop it."""
    condition: float = 1.0
    """Conditions and ongoing damage a hit imposes."""
    flank: float = 1.0
    """Combat advantage set up for allies next to the same enemy."""
    oa: float = 1.0
    """Per expected hit point taken from opportunity attacks on the way."""
    exposure: float = 0.35
    """Per expected hit point the enemies that can reach the end square could deal next round."""
    engaged: float = 0.0
    """Per enemy adjacent at the end of the turn (+: soldiers hold the line; -: artillery)."""
    guard: float = 0.0
    """Per enemy adjacent at the end that also threatens an ally (soldiers protect)."""
    concealment: float = 0.0
    """Ending in an obscured square (lurkers)."""
    hold: float = 0.0
    """Ending in a chokepoint (a doorway, a bridge) with enemies near (soldiers)."""
    ally_hit: float = 1.5
    """Per expected hit point an area attack deals to allies."""
    approach: float = 0.6
    """Per square of walking distance to the chosen enemy, when not attacking this turn."""
    keep_range: bool = False
    """Prefers to attack from range and to stay out of reach (artillery and ranged PCs)."""
    patience: float = 0.0
    """On a turn with no attack: per expected hit point of the melee attacks that enemies could
    walk up and make on it before it acts again (they strike first). 0 in the role table;
    `AIConfig.patience` sets it (`ai.moving`)."""
    initiative: bool = False
    """Leave out of the exposure the enemies that can't act before it acts again (surprised
    ones after it in the surprise round: `ai.initiative`); `AIConfig.read_initiative`."""
    patient_turns: int = 3
    """Idle turns in a row that wear `patience` down to nothing (`AIConfig.patient_turns`)."""
    join: float = 0.0
    """On a turn with no attack once the fight is joined (an ally in an enemy's reach): the
    approach is at least `1 + join` times as bold (`ai.moving.approach_terms`), as if it had
    been idle `2 * join` turns. 0 in the role table; `corrected` sets it from the share of
    its damage that needs it to walk up (`JOIN`)."""
    shooters: bool = False
    """Patience leaves out the enemies that strike from afar (`ai.moving.melee_part`);
    `AIConfig.read_shooters`."""
    crowd: float = SHARE
    """Per ally within 2 squares of the end square (up to 3): the exposure is divided by
    `1 + crowd * allies` (`ai.position.square_value`). Positive: allies share the enemies'
    blows; negative: a crowd draws them (the enemies' bursts catch it); `AIConfig.crowd`."""
    bursts: bool = False
    """`crowd` applies where at least half of the enemies that can hurt me on the end square
    have an unspent burst or blast that reaches it (`ai.position.burst_far`); elsewhere allies
    share the blows (`SHARE`); `AIConfig.read_bursts`."""
    body: bool = False
    """The exposure reads what reaches my body (`AIConfig.read_body`, `ai.position.body_share`)."""
    comers: bool = False
    """Patience leaves out the enemies that kept their distance on their last turn while my
    side was hurt (`ai.comers`); `AIConfig.read_comers`."""


ROLE_WEIGHTS: dict[str, Weights] = {
    "brute": Weights(damage=1.2, exposure=0.2, oa=0.8, engaged=0.5),
    "soldier": Weights(exposure=0.2, engaged=1.5, guard=1.0, hold=1.0),
    "skirmisher": Weights(flank=1.6, oa=1.4, exposure=0.4),
    "artillery": Weights(exposure=0.9, oa=1.5, engaged=-6.0, approach=0.4, keep_range=True),
    "controller": Weights(
        condition=1.5, exposure=0.7, oa=1.3, engaged=-3.0, approach=0.4, keep_range=True
    ),
    "lurker": Weights(exposure=0.6, oa=1.3, concealment=2.0),
}


def _attack_powers(c: Combatant) -> list[Power]:
    return [p for p in c.powers if p.attack is not None]


def role_of(c: Combatant) -> str:
    """The monster's role, or for a player character one guessed from its attack powers:
    mostly ranged or area attacks make a controller (areas) or artillery, else a soldier."""
    if c.creature.role is not None and not c.pc:
        return c.creature.role
    powers = _attack_powers(c)
    far = [p for p in powers if p.kind in ("ranged", "area")]
    near = [p for p in powers if p.kind == "melee"]
    if len(far) > len(near):
        return "controller" if any(p.kind == "area" for p in far) else "artillery"
    if c.creature.role is not None:
        return c.creature.role
    return "soldier"


ROLE_PATIENCE: dict[str, float] = {
    "brute": 1.0,
    "soldier": 1.0,
    "skirmisher": 1.0,
    "lurker": 1.0,
    "artillery": 0.5,
    "controller": 0.5,
}
"""How much each role minds giving away the first strike (`Weights.patience`), at
`AIConfig.patience` 1: those that keep their range mind it less (they are rarely where a
melee enemy can walk up to them, and their shots must be taken from somewhere)."""

AREA_ENGAGED = 0.5
"""Added to `engaged` for a melee creature with a close burst or blast (`corrected`)."""
REACH_FLANK = 0.5
"""`flank` kept by a melee creature with reach 2 or more, which strikes without standing
next to its target (`corrected`)."""

JOIN = 1.0
"""`Weights.join` of a creature whose damage is all dealt up close (`corrected`, times the
share of its damage it can't deal from where it stands: `Profile.standoff`). In `ambush` the
monsters out of reach held back in the bracken while those that had reached the road fought
alone (tactical monsters 24 wins of 100 against classic's 25; 28 with it)."""

MELEE_FALLBACK = Weights(flank=1.2, oa=1.2, exposure=0.4, engaged=0.5)
"""A keep-range role (artillery, controller) with no ranged or area attack fights in melee."""


def weights_for(
    c: Combatant, exposure_scale: float = 1.0, *, config: AIConfig | None = None
) -> Weights:
    """The creature's weights; `config` (`ai.config.AIConfig`; default: none of its
    corrections) scales its exposure and patience and reads its powers; `exposure_scale`
    multiplies the exposure weight when no `config` is given."""
    key = (id(c.creature), tuple(p.id for p in c.powers), exposure_scale, config)
    hit = _WEIGHTS.get(key)
    if hit is not None and hit[0] is c.creature:
        return hit[1]
    w = _weights(c, exposure_scale, config)
    if len(_WEIGHTS) > 4096:
        _WEIGHTS.clear()
    _WEIGHTS[key] = (c.creature, w)
    return w


_WEIGHTS: dict[tuple[int, tuple[str, ...], float, AIConfig | None], tuple[object, Weights]] = {}
"""`weights_for`, memoized by creature (kept to tell a reused id apart), powers and config:
a decision asks for them every time and they never change for a creature."""


def _weights(c: Combatant, exposure_scale: float, config: AIConfig | None) -> Weights:
    role = role_of(c)
    w = ROLE_WEIGHTS[role]
    if config is not None:
        exposure_scale = config.exposure_scale
        if config.read_powers:
            w = corrected(w, profile_of(c))
        if config.read_initiative:
            w = replace(w, initiative=True)
        if config.read_shooters:
            w = replace(w, shooters=True)
        if config.read_comers:
            w = replace(w, comers=True)
        if config.read_body:
            w = replace(w, body=True)
        if config.read_bursts and config.crowd != SHARE:
            # (with the crowd weight at SHARE, where the bursts reach changes nothing: no
            # enemy's burst reach is worked out, and `near_foes` prunes as before)
            w = replace(w, bursts=True)
        if config.crowd != w.crowd:
            w = replace(w, crowd=config.crowd)
        if config.patience:
            w = replace(
                w,
                patience=ROLE_PATIENCE.get(role, 1.0) * config.patience,
                patient_turns=config.patient_turns,
            )
    if exposure_scale != 1.0:
        w = replace(w, exposure=w.exposure * exposure_scale)
    if c.creature.minion:  # minions are cheap: they trade themselves for damage
        w = replace(w, oa=w.oa * 0.5, exposure=w.exposure * 0.3, patience=w.patience * 0.3)
    return w


def corrected(w: Weights, prof: Profile) -> Weights:
    """The role's weights corrected by what the creature's powers do (`ai.profile`)."""
    if w.keep_range and prof.melee_only:
        # No attack to keep a range for: it can hurt only what it reaches.
        w = replace(MELEE_FALLBACK, condition=w.condition, kill=w.kill, damage=w.damage, oa=w.oa)
    elif not w.keep_range and prof.shooter:
        # Its bow outclasses its blade: stand off and shoot, whatever its tag says.
        w = replace(w, keep_range=True, engaged=min(w.engaged, -2.0), approach=0.4)
    if not w.keep_range:
        if prof.burst:
            # Its close burst or blast catches whoever stands around it: each enemy it
            # ends next to is one more target for its next turn.
            w = replace(w, engaged=w.engaged + AREA_ENGAGED)
        elif prof.reach >= 2:
            # It strikes from two squares: standing next to an enemy (with a reach of one)
            # only hands that enemy its blows, and a flank needs it adjacent.
            w = replace(w, engaged=min(w.engaged, 0.0), guard=0.0, flank=w.flank * REACH_FLANK)
    if w.condition > 1.0 and not prof.controls:
        w = replace(w, condition=1.0)
    if not w.keep_range:
        # The damage it can deal from where it stands: none of its blows lands while it
        # hangs back out of reach, so once its side is fighting it joins in.
        w = replace(w, join=JOIN * (1.0 - prof.standoff))
    return w
