"""`skirmish play --ai-style` reaches the app's policies, and a resumed fight keeps it (the
options travel in the save's `meta`, `tui.options`)."""

from __future__ import annotations

from ai.styles import StylePick
from ai.tactical import TacticalPolicy
from engine.content.loader import load_encounter
from tests.support.app import DUEL
from tui.controller import Controller, GameOptions


def test_the_app_plays_each_side_with_its_styles_and_resumes_with_them() -> None:
    options = GameOptions(
        source=DUEL, seed=5, pace=0.0, ai_style=("monsters=ruthless,cautious", "flee")
    )
    ctl = Controller(load_encounter(DUEL), options)
    ctl.run_start()
    policy = ctl._policy("monsters")
    assert isinstance(policy, TacticalPolicy)
    want = StylePick(ruthless=True, flee=True, caution="cautious")
    assert policy.config.style == want
    path = ctl.save_path
    assert path is not None
    ctl.close()
    again = Controller.resumed(path)
    try:
        assert again.options.ai_style == options.ai_style
        resumed = again._policy("monsters")
        assert isinstance(resumed, TacticalPolicy) and resumed.config.style == want
    finally:
        again.close()
