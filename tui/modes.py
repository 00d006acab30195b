"""What the encounter screen is doing: browsing, moving, aiming a power, placing an area.

Each mode is a small value; the functions here read the encounter (the caller holds the
controller's lock, on a player's turn while no worker runs) and return what to draw: an
`Overlay` for the grid, a hint for the status line, and the preview text for the details
panel. They never change the encounter: the screen turns a confirmed mode into an action.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text

from engine.actions import FullAttack
from engine.content.schema import Power
from engine.encounter import Encounter
from engine.full_round import full_attack_previews, full_round_problem, not_in_ruleset
from engine.grid import distance, path_to, reachable
from engine.movement import budget, move_provocations, threatening
from engine.preview import AttackPreview
from tui.glyphs import Mark
from tui.widgets.grid import Overlay

Square = tuple[int, int]
MoveMode = str


@dataclass
class Browse:
    """The cursor roams; the details panel shows the creature under it."""


@dataclass
class Moving:
    mode: MoveMode
    legal: dict[Square, int]
    """End squares and their cost."""
    reach: dict[Square, tuple[int, Square | None]] = field(default_factory=dict)
    threat: dict[str, frozenset[Square]] = field(default_factory=dict)


@dataclass
class Targeting:
    power: Power
    targets: list[str]
    index: int = 0

    @property
    def target(self) -> str:
        return self.targets[self.index % len(self.targets)]


@dataclass
class Placing:
    """An area burst or a blast: the cursor (or Tab) picks the origin square."""

    power: Power
    origins: list[Square]
    index: int = 0


@dataclass
class FullAttacking(Targeting):
    """d20srd: every iterative attack of a full attack on one target (Tab cycles)."""


@dataclass
class Withdrawing(Moving):
    """4srd, d20srd: a double move whose first square left provokes nothing."""


Mode = Browse | Moving | Targeting | Placing


def start_move(enc: Encounter, mode: MoveMode) -> Moving | str:
    """The move mode for the current creature, or why it can't move that way."""
    c = enc.current
    if c is None:
        return "nobody's turn"
    if not enc.can_spend("move"):
        return "no move action left this turn"
    legal = enc.reachable(mode)
    if not legal:
        if enc.battle.has(c, "prone") and mode != "shift":
            return "prone: stand up first (g) or shift (s)"
        return f"nowhere to {mode}"
    b = enc.battle
    reach = reachable(b.map, c.pos, budget(b, c, mode), c.id, c.side, c.size, b.occupancy())
    threat = {} if mode == "shift" else threatening(b, c)
    return Moving(mode, legal, dict(reach), threat)


def move_path(m: Moving, goal: Square) -> list[Square] | None:
    if goal not in m.legal:
        return None
    try:
        return path_to(m.reach, goal)
    except KeyError:
        return None


def start_withdraw(enc: Encounter) -> Withdrawing | str:
    """The withdraw mode (double speed, S-15), or why it can't be used now."""
    c = enc.current
    if c is None:
        return "nobody's turn"
    if not enc.battle.ruleset.offers("withdraw"):
        return not_in_ruleset(enc.battle.ruleset.name, "withdraw", "withdraw").reason
    problem = full_round_problem(enc, c)
    if problem:
        return problem
    got = start_move(enc, "withdraw")
    if isinstance(got, str):
        return got
    return Withdrawing(got.mode, got.legal, got.reach, got.threat)


def start_full_attack(enc: Encounter) -> FullAttacking | str:
    """The full attack mode (d20srd, D-1): the first at-will melee power with a legal
    target, its targets nearest first; or why there is none."""
    b = enc.battle
    c = enc.current
    if c is None:
        return "nobody's turn"
    if not b.ruleset.offers("full_attack"):
        return not_in_ruleset(b.ruleset.name, "full_attack", "full attack").reason
    problem = full_round_problem(enc, c)
    if problem:
        return problem
    powers = sorted(
        (p for p in c.powers if p.kind in ("melee", "ranged")),
        key=lambda p: (p.kind != "melee", not p.basic),
    )
    for p in powers:
        targets = [t for t in enc.targets(p.id) if b[t].side != c.side]
        if targets and enc.validate(FullAttack(p.id, (targets[0],))) is None:
            aim = start_power(enc, p)
            if isinstance(aim, Targeting):
                ok = [t for t in aim.targets if t in targets]
                return FullAttacking(p, ok)
    return "no enemy in reach of a full attack"


def full_attack_text(enc: Encounter, m: FullAttacking) -> Text:
    """Each attack of the full attack: its hit chance and expected damage."""
    c = enc.current
    out = Text()
    if c is None:
        return out
    t = enc.battle[m.target]
    pvs = full_attack_previews(enc, m.power.id, t.id)
    out.append(f"{c.name}: full attack with {m.power.name} on {t.name}\n", style="bold")
    for i, pv in enumerate(pvs):
        penalty = enc.battle.ruleset.iterative_penalty(i)  # D-1, as the ruleset has it
        out.append(f"  attack {i + 1} ({penalty:+d}): ", style="bold")
        out.append(f"{pv.hit:.0%} to hit, ~{pv.expected_damage:.1f} dmg\n")
    total = sum(pv.expected_damage for pv in pvs)
    out.append(f"Total ~{total:.1f} damage; takes the standard and move actions.\n")
    return out


def full_attack_overlay(enc: Encounter, m: FullAttacking) -> tuple[Overlay, str]:
    overlay, _ = target_overlay(enc, m)
    pvs = full_attack_previews(enc, m.power.id, m.target)
    odds = "/".join(f"{pv.hit:.0%}" for pv in pvs)
    name = enc.battle[m.target].name
    hint = f"{odds} to hit: full attack -> {name} (Tab: {len(m.targets)} targets, Enter)"
    return overlay, hint


def move_overlay(enc: Encounter, m: Moving, cursor: Square) -> tuple[Overlay, str]:
    marks: dict[Square, Mark] = {sq: "reach" for sq in m.legal}
    path = move_path(m, cursor)
    verb = m.mode.capitalize()
    if path is None:
        return Overlay(marks), f"{verb}: pick a square ({len(m.legal)} reachable)"
    for sq in path[1:]:
        marks[sq] = "path"
    hint = f"{verb} to {cursor[0]},{cursor[1]}: cost {m.legal[cursor]}"
    c = enc.current
    if c is not None and m.threat:
        # the ruleset's own exemptions (S-15: a withdraw's first square), as the move has them
        provoked = move_provocations(enc.battle, c, path, m.mode, m.threat)
        who: list[str] = []
        for i, enemy in provoked:
            marks[path[i]] = "provoke"
            who.append(enc.battle[enemy].name)
        if who:
            hint += f", provokes {', '.join(who)}"
    return Overlay(marks), hint + (". Enter withdraws" if verb == "Withdraw" else ". Enter moves")


def threat_overlay(enc: Encounter) -> dict[Square, Mark]:
    c = enc.current
    if c is None:
        return {}
    out: dict[Square, Mark] = {}
    for squares in threatening(enc.battle, c).values():
        for sq in squares:
            out[sq] = "threat"
    return out


def start_power(enc: Encounter, power: Power) -> Targeting | Placing | str:
    """Aim `power`: the legal targets or origins, or why there are none."""
    if power.kind == "area" or (power.kind == "close" and power.blast is not None):
        origins = enc.area_origins(power.id)
        if not origins:
            return f"no square to place {power.name}"
        return Placing(power, origins)
    if power.kind == "close":  # a close burst has no choice to make: centred on the user
        return Placing(power, [])
    b = enc.battle
    me = b.squares(b[b.current]) if b.current else ()
    targets = sorted(
        enc.targets(power.id),
        key=lambda t: (distance(me, b.squares(b[t])), b.order.index(t) if t in b.order else 0),
    )
    if not targets:
        return f"no legal target for {power.name}"
    return Targeting(power, targets)


def power_reasons(enc: Encounter) -> dict[str, str | None]:
    """Each power of the current creature: why it can't be used now (no target too), or None."""
    out: dict[str, str | None] = {}
    for p, reason in enc.usable_powers():
        if reason is None:
            aim = start_power(enc, p)
            reason = aim if isinstance(aim, str) else None
        out[p.id] = reason
    return out


def area_of(
    enc: Encounter, p: Placing, cursor: Square
) -> tuple[frozenset[Square], list[str], Square | None]:
    origin = None if not p.origins else cursor
    if origin is not None and origin not in p.origins:
        return frozenset(), [], None
    squares, who = enc.area(p.power.id, origin)
    return squares, who, origin


def place_overlay(
    enc: Encounter, p: Placing, cursor: Square, unseen: frozenset[str] = frozenset()
) -> tuple[Overlay, str]:
    """`unseen`: creatures the player's side can't see, left out of the names (the area
    still hits them: F-MOD-12)."""
    marks: dict[Square, Mark] = {sq: "origin" for sq in p.origins}
    squares, who, origin = area_of(enc, p, cursor)
    who = [t for t in who if t not in unseen]
    if p.origins and origin is None:
        return Overlay(marks), f"{p.power.name}: move the cursor onto a marked origin (Tab)"
    for sq in squares:
        marks[sq] = "area"
    names = ", ".join(enc.battle[t].name for t in who) or "nobody"
    return Overlay(marks), f"{p.power.name} hits {names}. Enter to confirm"


def target_overlay(enc: Encounter, t: Targeting) -> tuple[Overlay, str]:
    marks: dict[Square, Mark] = {}
    b = enc.battle
    for tid in t.targets:
        for sq in b.squares(b[tid]):
            marks[sq] = "target"
    chosen = b[t.target]
    sel = frozenset(b.squares(chosen))
    pv = enc.preview(t.power.id, chosen.id)
    odds = f"{pv.hit:.0%} to hit, ~{pv.expected_damage:.1f} dmg: " if pv else ""
    if pv is not None and (pv.immune_damage or pv.immune_effects):
        odds = "immune: " + odds
    hint = f"{odds}{t.power.name} -> {chosen.name} (Tab: {len(t.targets)} targets, Enter)"
    return Overlay(marks, sel), hint


# --- preview text -----------------------------------------------------------------------
def _preview_lines(name: str, pv: AttackPreview | None, vs: str) -> Text:
    out = Text()
    out.append(name, style="bold")
    if pv is None:
        out.append(": no attack roll\n")
        return out
    s = pv.setup
    bonus = s.bonus
    out.append(f": {pv.hit:.0%} to hit", style="bold")
    out.append(f" (crit {pv.crit:.0%}), expected {pv.expected_damage:.1f} damage\n")
    out.append(f"  attack {bonus:+d} vs {vs} {s.defense}; damage {pv.damage or '-'}\n")
    if pv.immune_damage:
        out.append("  immune to this damage\n", style="bold")
    if pv.immune_effects:
        out.append(f"  immune to {pv.immune_effects}: no effects land\n", style="bold")
    mods = ", ".join(f"{m.source.replace('_', ' ')} {m.value:+d}" for m in s.modifiers)
    out.append(f"  {mods}\n")
    bits = [
        f"combat advantage: {'yes' if s.combat_advantage else 'no'}"
        + (" (flanking)" if s.flanking else ""),
        f"cover: {s.cover}",
        f"concealment: {s.concealment}",
    ]
    out.append("  " + "; ".join(bits) + "\n")
    return out


def preview_text(
    enc: Encounter, power: Power, targets: list[str], origin: Square | None = None
) -> Text:
    """The breakdown shown before confirming: per target, odds, damage and modifiers."""
    c = enc.current
    out = Text()
    if c is None:
        return out
    vs = (
        power.attack.vs.upper()
        if power.attack and power.attack.vs == "ac"
        else (power.attack.vs.capitalize() if power.attack else "")
    )
    out.append(f"{c.name}: {power.name} ({power.action}, {power.kind})\n", style="bold")
    if not targets:
        out.append("No creature in the area.\n")
    for tid in targets:
        t = enc.battle[tid]
        pv = enc.preview(power.id, tid, origin)
        if t.side == c.side:
            out.append("ALLY ", style="bold reverse")
        out.append_text(_preview_lines(t.name, pv, vs))
    if power.description:
        out.append(power.description + "\n", style="italic")
    return out


def start_power_by_id(enc: Encounter, power_id: str) -> Mode | str:
    c = enc.current
    power = c.power(power_id) if c else None
    if power is None:
        return "no such power"
    return start_power(enc, power)


def mode_overlay(
    enc: Encounter, mode: Mode, cursor: Square, hint: str, unseen: frozenset[str] = frozenset()
) -> tuple[Overlay, str, Text | None]:
    """What to draw for `mode`: the grid overlay, the status hint, the preview (or None).
    `unseen`: creatures a player's view must not name (`View.fog`)."""
    if isinstance(mode, Moving):
        overlay, hint = move_overlay(enc, mode, cursor)
        return overlay, hint, None
    if isinstance(mode, FullAttacking):
        overlay, hint = full_attack_overlay(enc, mode)
        return overlay, hint, full_attack_text(enc, mode)
    if isinstance(mode, Targeting):
        overlay, hint = target_overlay(enc, mode)
        return overlay, hint, preview_text(enc, mode.power, [mode.target])
    if isinstance(mode, Placing):
        overlay, hint = place_overlay(enc, mode, cursor, unseen)
        _, who, origin = area_of(enc, mode, cursor)
        seen = [t for t in who if t not in unseen]
        return overlay, hint, preview_text(enc, mode.power, seen, origin)
    return Overlay(), hint, None
