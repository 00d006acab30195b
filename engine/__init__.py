"""Skirmish's rules engine: pure, deterministic, and free of any user interface.

The app (`tui`), the AI and the headless simulator (`ai`) all play through it. Import the
pieces from their modules: `engine.encounter.Encounter`, `engine.actions`, `engine.content`.
"""
