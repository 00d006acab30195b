"""One attack roll's numbers: every modifier with its source, the defense, and the odds.

`setup` gathers what F-ATK-1/2 and F-MOD-1..12 add to the d20 (base attack bonus, combat
advantage, cover, concealment, conditions, effects) and the defense it is compared with. The
same setup serves the roll (`engine.powers`) and the expectations the AI and the UI show
(`engine.preview`), so what a player is told before attacking is what the engine then does.

`setup` is three parts, each a pure function of what it reads, so that a caller weighing many
squares (the AI) works out the first two once and only the third per square; the roll and
every preview compose the same parts (one copy of each rule):

- `attacker_part` (attacker, power, weapon): the base attack modifiers (F-ATK-2), threat
  range, kind, defense attacked, touch; the attacker's conditions and flags, its condition
  penalties (prone, restrained), who marks it, its effect attack modifiers (F-DUR-7).
  Reads the content, the effects on the attacker and its hit point state.
- `target_part` (attacker, target, power): the target's conditions and flags, whether it
  grants combat advantage to this attacker, whether it can't be seen at all (invisible, or
  a blinded attacker), its defense before the square's prone adjustment (F-DEF-6), the sides
  the attacker would flank it from (F-MOD-1: the allies' positions and flags) and the enemy
  squares that could give it cover against a ranged attack (F-MOD-6). Reads the effects on
  both, where the other creatures stand and their conditions.
- `square_part` (the two parts, where the attacker stands or would stand, the target's and
  the source's squares): concealment (F-MOD-7..11), combat advantage and flanking (F-MOD-1),
  cover (F-MOD-3..6), adjacency, the ruleset's situational modifiers (4srd range). Reads the
  map and the two parts only (plus the ruleset's `situational_modifiers`).
"""

from __future__ import annotations

from typing import NamedTuple

from engine.battle import Battle
from engine.content.checks import threat_low
from engine.content.schema import Power, Weapon
from engine.events import Mod
from engine.flanking import Side, flank_sides, flank_watch, flanks_from, side_of
from engine.grid import concealment, cover, distance, footprint
from engine.state import STANDING, Combatant

Square = tuple[int, int]


class AttackSetup(NamedTuple):
    """One attack roll's numbers (a named tuple: built on every roll and every preview)."""

    modifiers: tuple[Mod, ...]
    defense: int
    combat_advantage: bool
    flanking: bool
    cover: str
    concealment: str
    crit_low: int
    coup_de_grace: bool

    @property
    def bonus(self) -> int:
        total = 0
        for m in self.modifiers:
            total += m.value
        return total


class AttackerPart(NamedTuple):
    """What an attack takes from its attacker, power and weapon, wherever it stands and
    whoever it attacks (see the module docstring)."""

    kind: str
    vs: str
    touch: bool
    crit_low: int
    base: tuple[Mod, ...]
    """The base attack modifiers (F-ATK-2, the ruleset's)."""
    conds: frozenset[str]
    flags: frozenset[str]
    penalties: tuple[Mod, ...]
    """Prone and restrained attackers: -2 each."""
    markers: frozenset[str | None] | None
    """Who marks the attacker (None: not marked): -2 unless it attacks one of them."""
    effects: tuple[Mod, ...]
    """Effect modifiers to attack rolls, each counted once (F-DUR-7)."""
    can_react: bool
    """Standing and free to react: a flanker must be (F-MOD-1)."""


class TargetPart(NamedTuple):
    """What an attack takes from its target, given the attacker and power (see the module
    docstring)."""

    conds: frozenset[str]
    flags: frozenset[str]
    granted: bool
    """The target grants combat advantage to this attacker (conditions, a Bluff)."""
    hidden: bool
    """Nothing can be seen of it: invisible, or the attacker can't see (F-MOD-8, F-MOD-11)."""
    unseen_attacker: bool
    """The attacker is invisible to the target (F-MOD-11: combat advantage)."""
    defense: int
    """The defense with effects, flat-footed, touch and unconscious (F-DEF-6, D-3, D-4)."""
    flankable: bool
    """Flanking could give combat advantage (a melee or ranged attack by a creature free to
    react on a target that grants none anyway and can be seen): then it depends on the
    squares."""
    sides: frozenset[Side] | None
    """The sides the attacker would flank it from, when asked for (`target_part(sides=True)`:
    a caller weighing many squares); None: `square_part` asks `engine.flanking.flanking`."""
    blockers: frozenset[Square]
    """Enemy squares other than the target's: cover against a ranged attack (F-MOD-6)."""


class SquarePart(NamedTuple):
    """What an attack takes from where the two stand (see the module docstring). Equal
    square parts of one (attacker, power, target) give equal setups: the AI shares a
    preview between squares by it."""

    conceal: str
    adjacent: bool
    combat_advantage: bool
    flanking: bool
    cover: str
    """The cover level, "blocked" included."""
    situational: tuple[Mod, ...]


def can_see(battle: Battle, viewer: Combatant, target: Combatant, at: Square | None = None) -> bool:
    """F-MOD-8, F-MOD-11: blinded viewers and invisible targets aren't seen. `at`: as if the
    viewer stood there."""
    if battle.flag(viewer, "cant_see") or battle.has(target, "invisible"):
        return False
    v_sq = battle.squares(viewer) if at is None else footprint(at, viewer.size)
    return concealment(battle.map, v_sq, battle.squares(target)) != "total"


def attacker_part(
    battle: Battle, attacker: Combatant, power: Power, weapon: Weapon | None
) -> AttackerPart:
    """The attacker's part of `setup` (F-ATK-2, F-ATK-6, F-MOD-1, F-DUR-7). Reads the
    content, the ruleset, the effects on the attacker and its hit point state. Reads only.

    Kept per battle (`Battle.memo`), keyed by everything it reads: the objects of the
    creature, power and weapon (by identity), the attacker's conditions as `Battle` reads
    them (its flags follow from them), the version of the effects on it and its hit point
    state."""
    conds, flags = battle._conditions(attacker)
    aid = attacker.id
    version = battle.effects.target_version.get(aid, 0)
    key = ("attacker-part", aid, id(power), id(weapon), id(attacker.creature))
    hit = battle.memo.get(key)
    if (
        hit is not None
        and hit[0] == conds
        and hit[1] == version
        and hit[2] == attacker.state
        and hit[3] is power
        and hit[4] is weapon
        and hit[5] is attacker.creature
    ):
        part: AttackerPart = hit[6]
        return part
    part = _attacker_part(battle, attacker, power, weapon, (conds, flags))
    battle.memo[key] = (conds, version, attacker.state, power, weapon, attacker.creature, part)
    return part


def _attacker_part(
    battle: Battle,
    attacker: Combatant,
    power: Power,
    weapon: Weapon | None,
    read: tuple[frozenset[str], frozenset[str]],
) -> AttackerPart:
    """`attacker_part` unkept (`read`: the attacker's conditions and flags)."""
    spec = power.attack
    assert spec is not None
    conds, flags = read
    markers = None
    if "marked" in conds:
        aid = attacker.id
        markers = frozenset(
            e.source
            for e in battle.effects.values()
            if e.target == aid and "marked" in e.conditions
        )
    return AttackerPart(
        power.kind,
        spec.vs,
        spec.touch,
        threat_low(power, weapon),
        tuple(battle.ruleset.attack_modifiers(attacker, power, weapon)),
        conds,
        flags,
        tuple(Mod(name, -2) for name in _PENALISED if name in conds),
        markers,
        tuple(Mod(name, v) for name, v in battle.modifier_parts(attacker, "attack") if v),
        attacker.state in STANDING and "no_reactions" not in flags,
    )


_PENALISED = ("prone", "restrained")


def target_part(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    ap: AttackerPart,
    *,
    sides: bool = False,
    flank: frozenset[Side] | None = None,
) -> TargetPart:
    """The target's part of `setup` given the attacker's (`ap`): F-DEF-6, F-MOD-1, F-MOD-6,
    F-MOD-8, F-MOD-11. Reads the effects on the target, the ruleset's defenses, where every
    creature stands (flanking partners, cover blockers) and the partners' flags. Reads only.

    What depends on the two creatures alone (conditions, combat advantage granted, defense)
    is kept per battle, keyed by everything it reads: the target's conditions as `Battle`
    reads them, the version of the effects on it, its creature object, the attacker's
    conditions (its flags follow from them) and the defense attacked. Where the others
    stand (flanking partners, blockers) is worked out every time. `sides`: work out the
    sides the attacker would flank from now (for many squares), not per square; `flank`:
    those sides when the caller has them already (`engine.flanking.flank_sides` of the same
    two creatures in the same state: the AI asks it once per target, for every power)."""
    conds, flags = battle._conditions(target)
    tid = target.id
    version = battle.effects.target_version.get(tid, 0)
    key = ("target-part", attacker.id, tid, ap.vs, ap.touch)
    hit = battle.memo.get(key)
    if (
        hit is not None
        and hit[0] == conds
        and hit[1] == version
        and hit[2] == ap.conds
        and hit[3] is target.creature
    ):
        granted, hidden, unseen, defense = hit[4]
    else:
        granted = "grants_ca" in flags or battle.effect_flag(target, "grants_ca", attacker.id)
        hidden = "invisible" in conds or "cant_see" in ap.flags
        # F-MOD-11: an invisible attacker is never seen by the target (`can_see`: no at once)
        unseen = "invisible" in ap.conds
        defense = _defense_base(battle, target, ap.vs, ap.touch, conds)
        kept = (granted, hidden, unseen, defense)
        battle.memo[key] = (conds, version, ap.conds, target.creature, kept)
    kind = ap.kind
    flankable = kind in ("melee", "ranged") and ap.can_react and not (granted or unseen or hidden)
    if not (flankable and sides):
        flank = None
    elif flank is None:
        flank = flank_sides(battle, attacker, target)
    blockers: frozenset[Square] = frozenset()
    if kind == "ranged":
        blockers = battle.occupancy().enemy_squares(attacker.side, exclude=(tid,))
    return TargetPart(conds, flags, granted, hidden, unseen, defense, flankable, flank, blockers)


def square_part(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    power: Power,
    weapon: Weapon | None,
    parts: tuple[AttackerPart, TargetPart],
    at: Square,
    a_sq: tuple[Square, ...],
    src_sq: tuple[Square, ...],
) -> SquarePart:
    """Where the two stand: the attacker at `at` (top-left; `a_sq` its squares), the attack
    traced from `src_sq` (the attacker's squares, or a close or area attack's origin).
    F-MOD-1, F-MOD-3..11. Reads the map, the target's position and the two parts only (and
    the ruleset's situational modifiers)."""
    ap, tp = parts
    bmap = battle.map
    t_sq = battle.squares(target)
    conceal = "total" if tp.hidden else concealment(bmap, a_sq, t_sq)
    adj = distance(a_sq, t_sq) == 1
    ca, flank = _granted_ca(ap, tp, conceal, adj), False
    if ca is None:  # flanking decides
        if tp.sides is not None:
            flank = side_of(at, attacker.size, target.pos, target.size) in tp.sides
        else:
            flank = flanks_from(battle, attacker, target, at)  # adjacent, can react
        ca = flank
    if ap.kind == "ranged" and tp.blockers:
        # Only creatures inside the two groups' bounding box can cut a corner line.
        xs = [x for x, _ in src_sq] + [x for x, _ in t_sq]
        ys = [y for _, y in src_sq] + [y for _, y in t_sq]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        near = frozenset((x, y) for x, y in tp.blockers if x0 <= x <= x1 and y0 <= y <= y1)
        cov = cover(bmap, src_sq, t_sq, blockers=near)
    else:  # F-MOD-5/6: terrain only against melee, close and area attacks
        cov = cover(bmap, src_sq, t_sq, count_creatures=False)
    rs = battle.ruleset
    situational: tuple[Mod, ...] = ()
    if rs.situational:
        situational = tuple(
            rs.situational_modifiers(battle, attacker, target, power, weapon, a_sq, t_sq)
        )
    return SquarePart(conceal, adj, ca, flank, str(cov), situational)


def _granted_ca(ap: AttackerPart, tp: TargetPart, conceal: str, adj: bool) -> bool | None:
    """Combat advantage whatever the partners (F-MOD-1, F-MOD-11), or None when flanking
    decides it (adjacent, the target flankable)."""
    if conceal == "total":  # F-MOD-1: only against a target the attacker can see
        return False
    if tp.granted or tp.unseen_attacker or ("prone" in tp.conds and ap.kind == "melee" and adj):
        return True  # conditions, running, a Bluff, F-MOD-11
    if adj and tp.flankable:
        return None
    return False


def compose(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    parts: tuple[AttackerPart, TargetPart, SquarePart],
    all_targets: tuple[str, ...] = (),
    extra: tuple[Mod, ...] = (),
) -> AttackSetup:
    """The setup of the three parts, with the modifiers of the action in progress (d20srd
    iterative attacks) and `extra` (a preview's). Reads only."""
    ap, tp, sp = parts
    mods = [*ap.base, *sp.situational, *battle.action_modifiers.get(attacker.id, ()), *extra]
    if sp.combat_advantage:
        mods.append(_CA)
    cov = sp.cover
    if cov in _COVER_MODS:
        mods.append(_COVER_MODS[cov])
    kind = ap.kind
    if kind in ("melee", "ranged") and sp.conceal in _CONCEAL_MODS:  # F-MOD-9
        mods.append(_CONCEAL_MODS[sp.conceal])
    mods += ap.penalties
    if ap.markers is not None and not ap.markers.intersection(all_targets or (target.id,)):
        mods.append(_MARKED)
    mods += ap.effects
    defense = tp.defense
    if "prone" in tp.conds and kind == "ranged" and not sp.adjacent:
        defense += 2
    cdg = kind == "melee" and "helpless" in tp.conds and sp.adjacent
    cdg = cdg and battle.ruleset.coup_de_grace_crits  # F-ATK-8
    return AttackSetup(
        tuple(mods),
        defense,
        sp.combat_advantage,
        sp.flanking,
        cov if cov != "blocked" else "superior",
        sp.conceal,
        ap.crit_low,
        cdg,
    )


def setup(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    power: Power,
    weapon: Weapon | None,
    origin: tuple[Square, ...] | None = None,
    *,
    all_targets: tuple[str, ...] = (),
    at: Square | None = None,
    extra: tuple[Mod, ...] = (),
) -> AttackSetup:
    """`at`: as if the attacker stood there (top-left square); the AI scores "if I stood at X"
    with it. None: where it stands. `extra`: modifiers a preview asks about (a full attack's
    iterative penalty); the roll's come from the action in progress (`action_modifiers`).
    The three parts composed (module docstring). Reads only.

    From where the attacker stands (every roll), the setup is kept per battle for each
    (attacker, target, power, weapon), keyed by everything the three parts and `compose`
    read but the flank partners: both creatures' conditions (keyed by what `Battle` works
    them out from, `condition_inputs`: the versions of the effects on them, their hit point
    states, whether they have acted, surprise, their creature objects), where both stand and
    their sizes, a close or area attack's origin, the action's modifiers, `all_targets`,
    `extra` and, for a ranged attack (whose cover counts the other enemies), the occupancy.
    Whether a partner flanks is asked anew each time it could matter (adjacent, flankable):
    who stands where to flank is kept with the occupancy index it was found in, and whether
    they are standing and free to react is asked each time (`engine.flanking.flank_watch`)."""
    if at is not None:
        return _setup(battle, attacker, target, power, weapon, origin, all_targets, at, extra)
    versions = battle.effects.target_version
    aid, tid = attacker.id, target.id
    kind = power.kind
    check = (  # `condition_inputs` of both, inlined (on every roll)
        versions.get(aid, 0),
        attacker.state,
        attacker.acted,
        attacker.surprised,
        attacker.creature,
        versions.get(tid, 0),
        target.state,
        target.acted,
        target.surprised,
        target.creature,
        battle.surprise_round,
        attacker.pos,
        attacker.size,
        target.pos,
        target.size,
        origin if kind == "close" or kind == "area" else None,
        battle.action_modifiers.get(aid, ()),
        all_targets,
        extra,
        battle.occupancy() if kind == "ranged" else None,
    )
    key = ("setup", aid, tid, id(power), id(weapon))
    kept = battle.memo.get(key)
    if (
        kept is None
        or kept[0] != check
        or kept[1] is not attacker
        or kept[2] is not target
        or kept[3] is not power
        or kept[4] is not weapon
    ):
        s, parts = _setup_parts(battle, attacker, target, power, weapon, origin, all_targets, extra)
        flankable = _granted_ca(parts[0], parts[1], parts[2].conceal, parts[2].adjacent) is None
        by_flank: list[AttackSetup | None] = [None, None]
        by_flank[parts[2].flanking] = s
        entry = [check, attacker, target, power, weapon, flankable, by_flank, parts, None]
        battle.memo[key] = entry  # the last: the flank watch (`flank_watch`)
        return s
    if not kept[5]:
        found: AttackSetup | None = kept[6][False]
        assert found is not None
        return found
    flank, kept[8] = flank_watch(battle, attacker, target, kept[8])
    by_flank = kept[6]
    found = by_flank[flank]
    if found is None:  # the other flanking than the one first set up
        ap, tp, sp = kept[7]
        parts = (ap, tp, sp._replace(combat_advantage=flank, flanking=flank))
        found = by_flank[flank] = compose(battle, attacker, target, parts, all_targets, extra)
    return found


def condition_inputs(battle: Battle, c: Combatant) -> tuple[object, ...]:
    """Everything `Battle._conditions(c)` is worked out from (the version of the effects on
    `c`, its hit point state, whether it has acted, surprise, its creature object: the
    ruleset's flat-footed reads them), for a memo key: equal inputs, equal conditions and
    flags, without asking for them (tests/engine/test_attack_fast.py)."""
    return (
        battle.effects.target_version.get(c.id, 0),
        c.state,
        c.acted,
        c.surprised,
        battle.surprise_round,
        c.creature,
    )


def _setup(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    power: Power,
    weapon: Weapon | None,
    origin: tuple[Square, ...] | None,
    all_targets: tuple[str, ...],
    at: Square | None,
    extra: tuple[Mod, ...],
) -> AttackSetup:
    """`setup` worked out from the parts, nothing kept but the parts' own memos."""
    return _setup_parts(battle, attacker, target, power, weapon, origin, all_targets, extra, at)[0]


def _setup_parts(
    battle: Battle,
    attacker: Combatant,
    target: Combatant,
    power: Power,
    weapon: Weapon | None,
    origin: tuple[Square, ...] | None,
    all_targets: tuple[str, ...],
    extra: tuple[Mod, ...],
    at: Square | None = None,
) -> tuple[AttackSetup, tuple[AttackerPart, TargetPart, SquarePart]]:
    """`_setup` and the three parts it composed."""
    ap = attacker_part(battle, attacker, power, weapon)
    tp = target_part(battle, attacker, target, ap)
    if at is None:
        at, a_sq = attacker.pos, battle.squares(attacker)
    else:
        a_sq = footprint(at, attacker.size)
    src_sq = origin if origin is not None and ap.kind in ("close", "area") else a_sq
    sp = square_part(battle, attacker, target, power, weapon, (ap, tp), at, a_sq, src_sq)
    parts = (ap, tp, sp)
    return compose(battle, attacker, target, parts, all_targets, extra), parts


COVER_PENALTY = {"cover": -2, "superior": -5}
"""F-MOD-5/6."""
CONCEALMENT_PENALTY = {"concealment": -2, "total": -5}
"""F-MOD-9."""
# The modifiers `compose` adds, made once (a `Mod` is immutable).
_CA = Mod("combat_advantage", 2)
_MARKED = Mod("marked", -2)
_COVER_MODS = {k: Mod("cover", v) for k, v in COVER_PENALTY.items()}
_CONCEAL_MODS = {k: Mod("concealment", v) for k, v in CONCEALMENT_PENALTY.items()}


def _defense_base(
    battle: Battle, target: Combatant, vs: str, touch: bool, conds: frozenset[str]
) -> int:
    """The defense with effects, flat-footed, touch and unconscious (F-DEF-6, D-3, D-4):
    everything but a prone target's against ranged attacks, which depends on the squares."""
    value = battle.ruleset.defense(target, vs, flat_footed="flat_footed" in conds, touch=touch)
    value += battle.modifier(target, vs)
    if "unconscious" in conds:
        value -= 5
    return value


def defense_value(
    battle: Battle,
    target: Combatant,
    vs: str,
    attacker: Combatant | None,
    kind: str,
    attacker_squares: tuple[Square, ...] | None = None,
    *,
    touch: bool = False,
    conds: frozenset[str] | None = None,
) -> int:
    """The defense with every temporary change: effects, prone, unconscious (F-DEF-6).

    `attacker_squares`: where the attacker is taken to stand (default: where it stands).
    `touch`: a d20srd touch attack (D-3). `conds`: the target's conditions, when the caller
    has read them (`Battle._conditions`)."""
    if conds is None:
        conds = battle._conditions(target)[0]
    value = _defense_base(battle, target, vs, touch, conds)
    if "prone" in conds and kind == "ranged" and attacker is not None:
        a_sq = attacker_squares if attacker_squares is not None else battle.squares(attacker)
        if distance(a_sq, battle.squares(target)) != 1:
            value += 2
    return value
