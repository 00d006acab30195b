"""A read never writes (issue 13): `Encounter.preview` (and the full attack's previews, and
the other questions the AI and the app ask between actions) leave the battle exactly as they
found it, over random states of real fights in every ruleset."""

from __future__ import annotations

from dataclasses import fields
from functools import lru_cache
from typing import Any
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from ai.sim import play
from engine import preview
from engine.content.loader import LoadedEncounter, load_encounter
from engine.encounter import Encounter
from engine.full_round import full_attack_previews
from tests.support.helpers import NAIVE

CACHES = {"memo", "_cond_cache", "_occupancy", "_occupancy_plain"}
"""Battle attributes that only memoize pure functions of the state: allowed to fill (and
so are a combatant's `*memo` fields)."""
OBJECTS = {"map", "ruleset", "dice", "_decider_for", "combatants", "effects", "log"}
"""Compared through their contents below."""


@lru_cache(maxsize=1)
def default() -> LoadedEncounter:
    return load_encounter("default")


@lru_cache(maxsize=64)
def fight(seed: int, ruleset: str) -> Encounter:
    enc, _ = play(default(), seed, NAIVE, ruleset=ruleset)
    return enc


def own_fields(enc: Encounter) -> Any:
    """The battle's own fields (the turn, the budget, the action in progress), the effects'
    version and how much was logged and rolled: cheap enough to take inside every preview."""
    b = enc.battle
    own = {k: repr(v) for k, v in vars(b).items() if k not in CACHES | OBJECTS}
    return own, b.effects.version, len(b.log), len(b.dice.faces)


def fingerprint(enc: Encounter) -> Any:
    """Everything a read could change: the battle's own fields, every combatant's and every
    effect's fields, the log, and the dice drawn but not yet recorded."""
    b = enc.battle
    creatures = [
        [repr(getattr(c, f.name)) for f in fields(c) if not f.name.endswith("memo")]
        for c in b.combatants.values()
    ]
    effects = [(k, repr(e)) for k, e in b.effects.items()]
    return (
        own_fields(enc),
        creatures,
        effects,
        [lg.to_json() for lg in b.log],
        list(b.dice.faces),
        enc.snapshot(),
    )


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2),  # 9 fights, cut anywhere: the states vary with `cut`
    ruleset=st.sampled_from(["ffd20", "4srd", "d20srd"]),
    cut=st.floats(0, 1),
)
def test_property_preview_reads_only(seed: int, ruleset: str, cut: float) -> None:
    whole = fight(seed, ruleset)
    records = whole.records[: max(1, int(len(whole.records) * cut))]
    enc = Encounter.replay(default(), records, seed=whole.seed, ruleset=ruleset)
    c = enc.current
    if c is None:
        return
    before = fingerprint(enc)
    light = own_fields(enc)
    during: list[Any] = []
    real_odds = preview.outcome_odds

    def odds_spy(*args: Any, **kw: Any) -> Any:  # inside a preview: nothing written, even
        during.append(own_fields(enc))  # for a moment (another thread may be reading)
        return real_odds(*args, **kw)

    with patch.object(preview, "outcome_odds", odds_spy):
        for p in c.powers:
            if p.attack is None:
                continue
            for t in enc.battle.combatants.values():
                if t.alive:
                    enc.preview(p.id, t.id)
                    full_attack_previews(enc, p.id, t.id)
            enc.usable_powers()
            enc.targets(p.id)
            enc.area_origins(p.id)
    for mode in ("walk", "run", "shift"):
        enc.reachable(mode)
    assert fingerprint(enc) == before
    assert all(f == light for f in during)
