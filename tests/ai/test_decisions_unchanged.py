"""The AI's speed work must not change what it decides (issue 14): a fresh recording of the
fixed fights of `tests/ai/decision_fixtures.py` equals the one stored from the commit the work
began at, event for event (decision texts, candidates and scores, every action and path)."""

from __future__ import annotations

import json

import pytest

from tests.ai.decision_fixtures import STORE, fights, record

STORED: dict[str, list[str]] = json.loads(STORE.read_text())


def test_the_stored_recording_covers_every_fight() -> None:
    assert sorted(STORED) == sorted(label for label, _, _ in fights())
    assert all(len(chunks) >= 2 for chunks in STORED.values())


@pytest.mark.slow
@pytest.mark.parametrize("group", ["default", "mirror", "chasm", "fog", "battle", "keep", "x"])
def test_decisions_and_actions_stay_identical(group: str) -> None:
    labels = [
        label
        for label, source, _ in fights()
        if (source.startswith(group) if group != "x" else "x" in source)
    ]
    now = record(labels)
    for label in labels:
        want, got = STORED[label], now[label]
        same = next((i for i, (a, b) in enumerate(zip(want, got, strict=False)) if a != b), None)
        first = min(len(want), len(got)) if same is None else same
        assert want == got, (
            f"{label}: the fight differs from event {64 * first} on"
            f" ({len(got)} chunks now, {len(want)} recorded)"
        )
