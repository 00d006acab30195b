"""How a fight in the app runs (`GameOptions`), and how those options travel in a save.

Kept apart from the controller so that the command line and the start screen can build options
without importing the engine, the AI or Textual: `skirmish` shows its first frame before any
of them is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

DEFAULT_PACE = 0.35


@dataclass(frozen=True)
class GameOptions:
    """How to run one fight (from the command line or the start screen)."""

    source: str = "default"
    seed: int = 1
    ruleset: str | None = None
    control: dict[str, str] = field(default_factory=dict)
    manual_dice: tuple[str, ...] = ()
    """Sides whose dice a person rolls and types in."""
    pace: float = DEFAULT_PACE
    """Seconds between two AI actions, so that a person can follow them."""
    step: bool = False
    """GM mode: every AI action waits for a key."""
    policy: str = "tactical"
    ai_style: tuple[str, ...] = ()
    """`--ai-style` values (`tui.cli_styles`), each side named as the encounter spells it."""

    def meta(self) -> dict[str, Any]:
        """What a save keeps of these options beyond the engine's own header (the source,
        seed, ruleset and who plays whom are in the header already)."""
        return {
            "app": {
                "manual_dice": list(self.manual_dice),
                "pace": self.pace,
                "step": self.step,
                "policy": self.policy,
                "ai_style": list(self.ai_style),
            }
        }


def options_from_save(
    source: str,
    seed: int | None,
    ruleset: str,
    control: dict[str, str],
    meta: dict[str, Any],
    base: GameOptions | None = None,
) -> GameOptions:
    """The options a saved fight was played with (a save's header fields and `meta`); what
    the save doesn't say comes from `base`."""
    base = base or GameOptions()
    app = meta.get("app") if isinstance(meta.get("app"), dict) else {}
    assert isinstance(app, dict)
    manual = app.get("manual_dice", list(base.manual_dice))
    pace = app.get("pace", base.pace)
    policy = app.get("policy", base.policy)
    return replace(
        base,
        source=source,
        seed=seed if seed is not None else base.seed,
        ruleset=ruleset,
        control=dict(control),
        manual_dice=tuple(str(s) for s in manual) if isinstance(manual, list) else (),
        pace=float(pace) if isinstance(pace, int | float) and pace >= 0 else base.pace,
        step=bool(app.get("step", base.step)),
        policy=policy if policy in ("tactical", "naive") else base.policy,
        ai_style=_styles(app.get("ai_style"), base.ai_style),
    )


MAX_SAVED_STYLES = 16
"""`--ai-style` values a save may carry (a hand-edited save could hold millions)."""


def _styles(value: Any, default: tuple[str, ...]) -> tuple[str, ...]:
    """A save's `ai_style`: strings that parse as `--ai-style` values; anything else in it is
    dropped (a save is user input), and no list at all means `default`."""
    if not isinstance(value, list):
        return default
    from tui.cli_styles import parse_texts

    texts = [v for v in value[:MAX_SAVED_STYLES] if isinstance(v, str)]
    return tuple(t for t in texts if parse_texts([t]))
