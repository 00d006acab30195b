"""The `ai` field of the content format: how the AI plays a creature, a placed creature or a side.

A game master's choices, not rules: whether the monsters attack the dying while a standing
enemy is free (`ruthless`), whether they break off when badly hurt (`flee`), how much they fear
the blows they could take (`caution`). Every field is optional: an unset one falls back to the
next level (combatant, then creature, then side, then the AI's default); `ai.styles` resolves
them and docs/content.md ("Styles") describes them for authors. Kept apart from
`engine.content.schema` so that the schema stays one file of one size.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

Caution = Literal["bold", "normal", "cautious"]
CAUTIONS: tuple[Caution, ...] = ("bold", "normal", "cautious")


class AIStyle(BaseModel):
    """`ai: {ruthless: true, flee: true, caution: cautious}`; unknown keys are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    ruthless: bool | None = None
    """Attacks the dying (0 hit points or below) even while a standing enemy is free."""
    flee: bool | None = None
    """Breaks off at a quarter of its hit points, comes back at three quarters (monsters)."""
    caution: Caution | None = None
    """`bold` halves, `cautious` doubles the weight of blows it could take (docs/ai.md)."""


def drop_unset_styles(dump: Any) -> Any:
    """A model dump without its `ai: None` entries, so that content with no style hashes as it
    did before styles existed (`engine.content.loader.content_hash`: old saves resume)."""
    if isinstance(dump, dict):
        return {k: drop_unset_styles(v) for k, v in dump.items() if not (k == "ai" and v is None)}
    if isinstance(dump, list):
        return [drop_unset_styles(v) for v in dump]
    return dump
