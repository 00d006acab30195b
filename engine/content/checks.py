"""Cross-reference checks on creatures and powers that a single model cannot make.

Pydantic checks each definition alone; whether a creature's power exists, whether a weapon
power's weapon is in the creature's hands, and whether dice text parses need the other
definitions (and `engine.dice`). Every check here reports the file, line and field of the
definition at fault, through the `Origin` each definition carries from its YAML.
"""

from __future__ import annotations

from collections.abc import Container, Iterator, Mapping
from dataclasses import dataclass

from engine.content.errors import ContentError, Path_, did_you_mean
from engine.content.schema import Creature, Outcome, Power, Weapon
from engine.content.yamlsrc import YamlDoc
from engine.dice import DiceError, DiceExpr

# Stands in for a weapon's dice when only the syntax of "2[W]+3" is checked.
_ANY_WEAPON = DiceExpr.parse("1d8")


@dataclass(frozen=True)
class Origin:
    """Where a definition was written: its file and its path inside that file."""

    doc: YamlDoc
    path: Path_

    @property
    def file(self) -> str:
        return self.doc.file

    def line(self, sub: Path_ = ()) -> int | None:
        return self.doc.line((*self.path, *sub))

    def error(self, sub: Path_, message: str, *, at_key: bool = False) -> ContentError:
        return self.doc.error((*self.path, *sub), message, at_key=at_key)

    def where(self) -> str:
        line = self.line()
        return f"{self.file}:{'?' if line is None else line}"


def is_weapon_power(power: Power) -> bool:
    """Names a weapon, or carries the `weapon` keyword."""
    return power.weapon is not None or "weapon" in power.keywords


def weapon_for(creature: Creature, power: Power) -> Weapon | None:
    """The weapon `creature` uses for `power`, or None when the power uses no weapon.

    `weapon: <id>` picks that weapon. A power with only the `weapon` keyword uses the
    creature's first ranged (or thrown) weapon for a ranged power, its first melee (or
    thrown) weapon for any other power, and its first weapon when none suits. The one owner
    of the rule: `engine.state.Combatant.weapon_for` memoizes it for play.
    """
    weapons = creature.weapons
    if power.weapon is not None:
        return next((w for w in weapons if w.id == power.weapon), None)
    if "weapon" not in power.keywords or not weapons:
        return None
    wanted = ("ranged", "thrown") if power.kind == "ranged" else ("melee", "thrown")
    return next((w for w in weapons if w.kind in wanted), weapons[0])


def threat_low(power: Power, weapon: Weapon | None) -> int:
    """The lowest natural roll that threatens a critical hit (F-ATK-6, D-8): the power's own
    `crit_range`, else its weapon's, else 20."""
    return power.crit_range or (weapon.crit_range if weapon else 20)


def dice_fields(power: Power) -> Iterator[tuple[Path_, str, bool]]:
    """(path in the power, dice text, may use [W]) for every dice text of the power."""
    outcomes: list[tuple[str, Outcome | None]] = [
        ("hit", power.hit),
        ("miss", power.miss),
        ("effect", power.effect),
    ]
    for name, outcome in outcomes:
        if outcome is None:
            continue
        if outcome.damage is not None:
            yield (name, "damage", "dice"), outcome.damage.dice, True
        if outcome.heal is not None and outcome.heal.dice is not None:
            yield (name, "heal", "dice"), outcome.heal.dice, False


def _uses_weapon_dice(text: str) -> bool:
    return "[" in text


def check_power(power: Power, origin: Origin) -> list[ContentError]:
    """Dice text parses, and [W] appears only in damage of weapon powers."""
    errors: list[ContentError] = []
    for sub, text, weapon_ok in dice_fields(power):
        try:
            DiceExpr.parse(text, _ANY_WEAPON)
        except DiceError as exc:
            errors.append(origin.error(sub, str(exc)))
            continue
        if _uses_weapon_dice(text) and not (weapon_ok and is_weapon_power(power)):
            why = (
                "[W] is only allowed in weapon damage: give the power `weapon: <id>` or the "
                "`weapon` keyword"
                if weapon_ok
                else "[W] is only allowed in damage dice"
            )
            errors.append(origin.error(sub, why))
    return errors


def check_creature(
    creature: Creature,
    origin: Origin,
    powers: Mapping[str, tuple[Power, Origin]],
    broken_powers: Container[str],
) -> list[ContentError]:
    """Weapons parse and are unique; each named power exists and can be used as written."""
    errors: list[ContentError] = []
    seen: dict[str, int] = {}
    for i, weapon in enumerate(creature.weapons):
        if weapon.id in seen:
            errors.append(
                origin.error(
                    ("weapons", i, "id"),
                    f"duplicate weapon id {weapon.id!r} (first at weapons[{seen[weapon.id]}])",
                )
            )
        seen.setdefault(weapon.id, i)
        for name in ("dice", "crit_dice"):
            text = getattr(weapon, name)
            try:
                if text is not None:
                    DiceExpr.parse(text)
            except DiceError as exc:
                errors.append(origin.error(("weapons", i, name), str(exc)))
    listed: dict[str, int] = {}
    for i, power_id in enumerate(creature.powers):
        sub: Path_ = ("powers", i)
        if power_id in listed:
            errors.append(
                origin.error(
                    sub, f"power {power_id!r} is listed twice (powers[{listed[power_id]}])"
                )
            )
            continue
        listed[power_id] = i
        if power_id in broken_powers:
            continue  # its own errors are already reported
        found = powers.get(power_id)
        if found is None:
            hint = did_you_mean(power_id, powers)
            errors.append(origin.error(sub, f"unknown power {power_id!r}{hint}"))
            continue
        errors.extend(_check_use(creature, origin, sub, *found))
    return errors


def _check_use(
    creature: Creature, origin: Origin, sub: Path_, power: Power, power_origin: Origin
) -> list[ContentError]:
    """Can `creature` use `power`? Its weapon must be in hand for the power's [W] dice."""
    weapon = weapon_for(creature, power)
    if power.weapon is not None and weapon is None:
        have = ", ".join(w.id for w in creature.weapons) or "none"
        hint = did_you_mean(power.weapon, [w.id for w in creature.weapons])
        message = (
            f"power {power.id!r} needs weapon {power.weapon!r}{hint}, which {creature.id!r} "
            f"does not have (its weapons: {have})"
        )
        return [origin.error(sub, message)]
    errors: list[ContentError] = []
    for path, text, weapon_ok in dice_fields(power):
        if not (weapon_ok and _uses_weapon_dice(text) and is_weapon_power(power)):
            continue
        if weapon is None:
            message = (
                f"power {power.id!r} deals [W] damage but {creature.id!r} has no weapon "
                f"(add one under `weapons`)"
            )
            errors.append(origin.error(sub, message))
            break
        try:
            weapon_dice = DiceExpr.parse(weapon.dice)
        except DiceError:
            break  # reported at the weapon itself
        try:
            DiceExpr.parse(text, weapon_dice)
        except DiceError as exc:
            errors.append(power_origin.error(path, f"with {creature.id}'s {weapon.id}: {exc}"))
    return errors


def duplicate_error(kind: str, ident: str, origin: Origin, first: Origin) -> ContentError:
    return origin.error(
        ("id",), f"duplicate {kind} id {ident!r} (first defined at {first.where()})"
    )
