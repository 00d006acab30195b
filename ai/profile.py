"""What a creature's powers actually let it do, read from `Combatant.powers`.

A role tag says how a monster is meant to fight; its powers say how it can. `profile_of`
reads the attack powers: how far it reaches in melee, how far its ranged and area attacks go,
whether it has areas (and how big its close bursts and blasts are), whether any attack
controls (a condition, ongoing damage, a push), and the mean damage it deals up close and
from afar. `ai.roles.weights_for` starts from the
role's weights and corrects them by this profile, so that a melee-only "controller" (keep-d20's
Keep Shadow, whose one attack is a touch) fights as the melee creature it is instead of
keeping a range it has no attack for.

The damage means are the dice's own (`NdS+B`: N(S+1)/2+B; a weapon die counts as a d8): a
rough figure that compares a creature's own attacks with each other, never with anyone else's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.content.schema import Power
from engine.state import Combatant

_DICE = re.compile(r"(\d*)\s*(?:d(\d+)|\[W\])", re.IGNORECASE)
WEAPON_DIE = 8
"""The sides a weapon die (`1[W]`) counts as when the weapon is not known here."""


@dataclass(frozen=True, slots=True)
class Profile:
    reach: int
    """Its melee reach (squares)."""
    melee: float
    """Mean damage of its best at-will (or recharge) melee or close attack."""
    far: float
    """Mean damage of its best at-will (or recharge) ranged or area attack."""
    far_range: int
    """The longest range of its ranged and area attacks (0: none)."""
    areas: bool
    """It has an area or close attack that can catch several creatures."""
    burst: int
    """The size of its largest close burst or blast (0: none): the enemies around it are
    what such an attack catches."""
    controls: bool
    """Some attack imposes a condition, ongoing damage or forced movement on a hit."""

    @property
    def melee_only(self) -> bool:
        """No ranged or area attack at all: it can only hurt what it can reach."""
        return self.far_range == 0

    @property
    def standoff(self) -> float:
        """The share of its damage it can deal from where it stands, out of the enemies'
        reach (its ranged and area attacks: their mean over the sum of both means; 0 when
        it only hurts what it walks up to, or deals no damage by its dice at all)."""
        both = self.melee + self.far
        return self.far / both if both > 0 else 0.0

    @property
    def shooter(self) -> bool:
        """Its ranged attacks do clearly more than its melee ones (the basic melee every
        creature gets counts for little)."""
        return self.far_range > 1 and self.far > 1.2 * self.melee


def mean_damage(p: Power) -> float:
    """The mean of the power's hit damage by its dice and bonus (0: no damage)."""
    spec = p.hit.damage if p.hit is not None else None
    if spec is None:
        return 0.0
    rolled = 0.0
    for count, sides in _DICE.findall(str(spec.dice)):
        n = int(count) if count else 1
        s = int(sides) if sides else WEAPON_DIE
        rolled += n * (s + 1) / 2
    return rolled * spec.multiplier + float(spec.bonus)


def _controls(p: Power) -> bool:
    hit = p.hit
    return hit is not None and (bool(hit.effects) or hit.forced is not None)


_kept: dict[int, tuple[tuple[Power, ...], int, Profile]] = {}
"""`profile_of`'s answers by the identity of the creature's powers (the tuple, held here so
that its id is not reused) and its reach: all a profile reads (the content is frozen)."""


def profile_of(c: Combatant) -> Profile:
    """The creature's `Profile` from its attack powers (daily and encounter powers count for
    what it can do, but not for the damage it can keep dealing). Kept by what it reads
    (issue 14: every decision reads its own, and an outshot side every creature's, each a
    regular expression per power; tests/ai/test_comers_fast.py holds kept to fresh)."""
    powers, reach = c.powers, c.reach
    kept = _kept.get(id(powers))
    if kept is not None and kept[0] is powers and kept[1] == reach:
        return kept[2]
    out = read_profile(powers, reach)
    if type(powers) is not tuple:  # a list could change in place: not kept
        return out
    if len(_kept) >= 1024:
        _kept.clear()
    _kept[id(powers)] = (powers, reach, out)
    return out


def read_profile(powers: tuple[Power, ...], reach: int) -> Profile:
    """The `Profile` of a creature with these powers and this melee reach."""
    melee = far = 0.0
    far_range = burst = 0
    areas = controls = False
    for p in powers:
        if p.attack is None:
            continue
        controls = controls or _controls(p)
        steady = p.usage in ("at-will", "recharge")
        dmg = mean_damage(p) if steady else 0.0
        if p.kind in ("melee", "close"):
            melee = max(melee, dmg)
            size = (p.burst or p.blast or 0) if p.kind == "close" else 0
            areas = areas or size > 0
            burst = max(burst, size)
        else:
            far = max(far, dmg)
            far_range = max(far_range, p.range or 0)
            areas = areas or p.kind == "area"
    return Profile(max(1, reach), melee, far, far_range, areas, burst, controls)
