"""F-TRN-1, F-TRN-4: the engine's one-action budget question (`can_spend_one`, asked on every
action's check) answers what the general budget (`can_spend`, the AI's) answers, over random
turns: every ruleset (4srd's surprise round has no minor action), any actions already spent,
action points, surprise, a dazed creature, and kinds a turn doesn't count."""

from __future__ import annotations

from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.content.loader import LoadedEncounter, load_encounter
from engine.encounter import Encounter
from engine.turn_budget import can_spend, can_spend_one
from tests.support.helpers import put_effect

KINDS = ("standard", "move", "minor", "free", "immediate", "opportunity", "no_action")


@lru_cache(maxsize=2)
def loaded() -> LoadedEncounter:
    return load_encounter("default")


@settings(max_examples=300, deadline=None)
@given(
    ruleset=st.sampled_from(["ffd20", "4srd", "d20srd"]),
    spent=st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)),
    missing=st.sets(st.sampled_from(["standard", "move", "minor"])),
    surprise=st.booleans(),
    dazed=st.booleans(),
    extra=st.integers(0, 2),
    kind=st.sampled_from(KINDS),
)
def test_F_TRN_1_can_spend_one_equals_can_spend(
    ruleset: str,
    spent: tuple[int, int, int],
    missing: set[str],
    surprise: bool,
    dazed: bool,
    extra: int,
    kind: str,
) -> None:
    enc = Encounter.create(loaded(), seed=1, ruleset=ruleset)
    enc.start()
    b = enc.battle
    c = enc.current
    assert c is not None
    b.spent = {
        k: n for k, n in zip(("standard", "move", "minor"), spent, strict=True) if k not in missing
    }
    b.surprise_round = surprise
    b.extra_standard = extra
    if dazed:
        put_effect(enc, c.id, conditions=("dazed",))
    assert can_spend_one(b, c, kind) is can_spend(b, c, (kind,))
