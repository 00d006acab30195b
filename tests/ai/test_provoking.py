"""Needless opportunity attacks (issue 15, target 5): the planner takes the same turn provoking
fewer wherever the creature can reach one (`ai.provoking.calmer`), and counts what its own
minor actions provoke (`ai.minor`, `ai.provoking.oa_charge`).

The audit's definitions are `tests/soak/soak_provoke.py`'s (`_needless`, `_needless_move`);
these scenarios hold the planner to them on one decision each."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ai import planner as planner_mod
from ai.config import AIConfig
from ai.plan import Option
from engine.content.loader import load_encounter
from engine.dice import ScriptedDice, SeededDice
from engine.encounter import Encounter
from tests.support.helpers import load_script

Square = tuple[int, int]
SOAK = load_script("soak/soak_provoke.py")


def chasm(pos: dict[str, Square]) -> Encounter:
    """The `chasm` map with only these creatures, where they are; the first acts first."""
    loaded = load_encounter("chasm")
    by = {c.id: c for c in loaded.spec.combatants}
    cs = [by[k].model_copy(update={"pos": list(v)}) for k, v in pos.items()]
    loaded = replace(loaded, spec=loaded.spec.model_copy(update={"combatants": cs}))
    enc = Encounter.create(loaded, dice=ScriptedDice([20, *[1] * (len(cs) - 1)], SeededDice(1)))
    enc.start()
    assert enc.battle.current == next(iter(pos))
    return enc


def decide(enc: Encounter) -> tuple[Option, Any]:
    pl = planner_mod.Planner(AIConfig())
    c = enc.current
    assert c is not None
    return pl.decide(enc, c), pl.last_turn


# The Shriek Harpy's needless provocation the audit found (chasm seed 84, round 7: it walked
# to sing Luring Song from a square whose route provoked Seren, where another square caught
# the same creatures provoking no one): the close burst is tried from a few squares only.
SEED_84 = {"harpy": (5, 8), "seren": (6, 7), "nix": (3, 5), "kael": (7, 10)}


def test_S_14_chasm_seed_84_the_harpy_sings_without_provoking_seren() -> None:
    o, turn = decide(chasm(SEED_84))
    assert o.kind == "attack" and o.power is not None and o.power.name == "Luring Song"
    assert "seren" in {h.target for h in o.hits}
    assert o.provoked == (), f"provokes {o.provoked} from {o.end}"
    assert SOAK._needless(turn, o) is None


def test_S_14_chasm_seed_84_without_the_calmer_pass_it_provoked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The scenario still shows the bug the pass fixes: the best option as generated provokes
    Seren, and the audit calls it needless."""
    monkeypatch.setattr(
        planner_mod.Planner, "_calmer", staticmethod(lambda turn, options, fleeing: options[0])
    )
    o, turn = decide(chasm(SEED_84))
    assert o.provoked == ("seren",)
    assert SOAK._needless(turn, o) is not None


def test_S_14_a_minor_action_that_provokes_a_deadly_attack_is_not_taken() -> None:
    """A ranged minor action used next to an enemy provokes it (S-14): the planner charges
    what that opportunity attack costs, and takes none the creature can't expect to survive."""
    from ai.memory import SideMemory
    from ai.minor import minor_actions
    from ai.plan import budget
    from ai.provoking import act_provokes_now, oa_charge
    from ai.roles import weights_for
    from ai.scoring import Context
    from ai.utility import Utility
    from engine.actions import UsePower

    enc = chasm({"harpy": (5, 8), "seren": (6, 8), "kael": (9, 12)})
    b = enc.battle
    harpy = b["harpy"]
    ctx = Context(enc, harpy, weights_for(harpy), SideMemory())
    song = next(p for p in harpy.powers if p.kind == "close")
    ranged = song.model_copy(
        update={"id": "song-minor", "kind": "ranged", "range": 10, "action": "minor"}
    )
    harpy.powers = (*harpy.powers, ranged)
    u = Utility(UsePower(ranged.id, ("seren",)), "minor", 30.0, "Luring Song on Seren")
    assert act_provokes_now(ctx, [u]) == ("seren",)
    cost, deadly = oa_charge(ctx, ("seren",))
    assert cost > 0 and not deadly
    assert minor_actions(ctx, [u], budget(b, harpy), 0)[0] == (u,), "worth it at full health"
    harpy.hp = 1
    ctx = Context(enc, harpy, weights_for(harpy), SideMemory())
    assert oa_charge(ctx, ("seren",))[1], "1 hit point: Seren's opportunity attack is deadly"
    assert minor_actions(ctx, [u], budget(b, harpy), 0)[0] == ()
