"""Styles: how the AI plays a creature, as a game master chooses it (issue 15).

Three choices, each a field of `Style`:

- `ruthless`: attacks the dying (0 hit points or below, making death saves) even while a
  standing enemy is free to attack. Off by default: the AI then drops every attack whose only
  enemy targets are down when some attack on a standing enemy exists this turn, and says so
  ("spares the dying Wren: Brom is standing") when the spared attack would have won.
- `flee`: monsters (not minions, not player characters) break off at a quarter of their hit
  points and come back at three quarters (`ai.planner.Planner`). Off by default.
- `caution`: `bold`, `normal` or `cautious`: multiplies the role's `exposure` weight (the
  blows enemies can deal at the end square next round) and its `oa` weight (opportunity
  attacks provoked on the way) by 0.5, 1 or 2 (`CAUTION_SCALE`).

Where a creature's style comes from, first found wins, field by field: the command line for
its side (`--ai-style SIDE=...`), the command line for every side (`--ai-style ...`), the
content's `ai` field on the placed combatant, on its creature, on its side, and last the
policy's configuration (`ai.config.AIConfig`). `resolve` does that; `parse_style` reads one
`--ai-style` value. Nothing here imports the engine or pydantic: the command line checks its
options with it before anything heavy loads.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from ai.config import AIConfig
    from ai.plan import Option
    from ai.roles import Weights
    from engine.battle import Battle
    from engine.encounter import Encounter
    from engine.state import Combatant

Caution = Literal["bold", "normal", "cautious"]
CAUTION_SCALE: dict[str, float] = {"bold": 0.5, "normal": 1.0, "cautious": 2.0}
"""What `caution` multiplies the `exposure` and `oa` weights by (`ai.roles.Weights`)."""

WORDS: dict[str, tuple[str, Any]] = {
    "ruthless": ("ruthless", True),
    "merciful": ("ruthless", False),
    "flee": ("flee", True),
    "stand-fast": ("flee", False),
    "bold": ("caution", "bold"),
    "normal": ("caution", "normal"),
    "cautious": ("caution", "cautious"),
}
"""The words of `--ai-style` and the field each sets (`merciful`, `stand-fast`: the defaults,
to undo a content file's choice)."""
ATTACKS = ("attack", "full_attack")
"""The option kinds that attack (`ai.plan.Option.kind`)."""
MAX_STYLE_ARG = 200
"""Characters of one `--ai-style` value (a side name is at most 40)."""


@dataclass(frozen=True, slots=True)
class Style:
    """A creature's effective style."""

    ruthless: bool = False
    flee: bool = False
    caution: Caution = "normal"


@dataclass(frozen=True, slots=True)
class StylePick:
    """Some of a style's fields, chosen at one level (None: not chosen there)."""

    ruthless: bool | None = None
    flee: bool | None = None
    caution: Caution | None = None

    def over(self, below: Any) -> StylePick:
        """These choices, and `below`'s (a `StylePick` or a content `AIStyle`) where these
        have none."""
        if below is None:
            return self
        got = {f.name: getattr(self, f.name) for f in fields(self)}
        return StylePick(**{k: v if v is not None else getattr(below, k) for k, v in got.items()})

    def words(self) -> list[str]:
        """The `--ai-style` words that choose the same (for a command line that does it
        again)."""
        out = []
        for word, (name, value) in WORDS.items():
            if getattr(self, name) == value and value is not None:
                out.append(word)
        return out


def parse_style(text: str) -> tuple[str | None, StylePick]:
    """One `--ai-style` value: `WORD[,WORD...]` for every AI side, or `SIDE=WORD[,WORD...]`
    for one; ValueError with a one-line reason for anything else (two words that contradict
    each other included)."""
    if len(text) > MAX_STYLE_ARG:
        raise ValueError(f"too long ({len(text)} characters; at most {MAX_STYLE_ARG})")
    side, sep, rest = text.rpartition("=")
    side = side.strip() if sep else ""
    if sep and not side:
        raise ValueError(f"expected SIDE=STYLE, got {text!r}")
    chosen: dict[str, Any] = {}
    words = [w.strip().lower() for w in rest.split(",")]
    for word in words:
        if word not in WORDS:
            known = ", ".join(WORDS)
            raise ValueError(f"unknown style {word!r} (one of: {known}; or SIDE=STYLE)")
        name, value = WORDS[word]
        if chosen.get(name, value) != value:
            raise ValueError(f"{text!r} chooses {name} twice, differently")
        chosen[name] = value
    return (side or None), StylePick(**chosen)


def combine(picks: list[tuple[str | None, StylePick]]) -> dict[str | None, StylePick]:
    """Every `--ai-style` option by side (None: every side); a later option wins over an
    earlier one for the same side and field."""
    out: dict[str | None, StylePick] = {}
    for side, pick in picks:
        out[side] = pick.over(out.get(side))
    return out


def resolve(enc: Encounter, c: Combatant, config: AIConfig) -> Style:
    """`c`'s effective style (see the module docstring for the order)."""
    spec = enc.loaded.spec
    placed = next((cd for cd in spec.combatants if cd.id == c.id), None)
    side = spec.sides.get(c.side)
    pick = config.style
    for level in (
        placed.ai if placed is not None else None,
        c.creature.ai,
        side.ai if side is not None else None,
    ):
        pick = pick.over(level)
    return Style(
        ruthless=pick.ruthless if pick.ruthless is not None else config.ruthless,
        flee=pick.flee if pick.flee is not None else config.flee,
        caution=pick.caution if pick.caution is not None else config.caution,
    )


def cautious(w: Weights, style: Style) -> Weights:
    """The role's weights with `style.caution` applied to `exposure` and `oa`."""
    k = CAUTION_SCALE[style.caution]
    if k == 1.0:
        return w
    return replace(w, exposure=w.exposure * k, oa=w.oa * k)


def spare_dying(b: Battle, options: list[Option]) -> tuple[list[Option], str]:
    """The options without the attacks whose only enemy targets are down (dying, unconscious)
    when some attack on a standing enemy is among them; and, when a spared attack scored
    higher than every option kept, the short reason to say ("spares the dying Wren: Brom is
    standing"). With no attack on a standing enemy, everything is kept: the dying are
    finished off only when nothing standing is in reach."""
    kept: list[Option] = []
    spared: list[Option] = []
    on_standing: Option | None = None
    for o in options:
        foes = [h.target for h in o.hits if not h.ally] if o.kind in ATTACKS else []
        if foes and not any(b[t].standing for t in foes):
            spared.append(o)
            continue
        if foes and (on_standing is None or o.score > on_standing.score):
            on_standing = o
        kept.append(o)
    if on_standing is None or not spared:
        return options, ""
    best_spared = max(spared, key=lambda o: o.score)
    if best_spared.score <= max(o.score for o in kept):
        return kept, ""
    down = next(h.target for h in best_spared.hits if not h.ally)
    up = next(h.target for h in on_standing.hits if not h.ally and b[h.target].standing)
    return kept, f"spares the dying {b[down].name}: {b[up].name} is standing"
