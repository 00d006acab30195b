"""Shared test helpers (`from tests.support.helpers import ...`): build small encounters from
Python data (written as YAML files, so they go through the real loader) and drive them.

Rules tests script every die (`build(..., faces=[...])`): the first faces are the initiative
rolls, one per combatant in the order listed, so a test decides who acts first. `events`
picks the typed events of one kind out of what `Encounter.apply` returned, so assertions read
the same objects the UI and the log are made from.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from engine.actions import UsePower
from engine.decisions import AutoDecider, Question
from engine.encounter import Encounter
from engine.events import Attack, Event, Logged

BASIC_MELEE = {
    "id": "basic-melee",
    "name": "Basic Melee",
    "kind": "melee",
    "basic": True,
    "keywords": ["weapon"],
    "attack": {"ability": "str", "vs": "ac"},
    "hit": {"damage": {"dice": "1[W]", "ability": "str"}},
}
CLAW = {
    "id": "claw",
    "name": "Claw",
    "kind": "melee",
    "basic": True,
    "attack": {"bonus": 6, "vs": "ac"},
    "hit": {"damage": {"dice": "1d6", "bonus": 3}},
}
BOLT = {
    "id": "bolt",
    "name": "Bolt",
    "kind": "ranged",
    "range": 10,
    "basic": True,
    "attack": {"bonus": 5, "vs": "reflex"},
    "hit": {"damage": {"dice": "1d8", "bonus": 2}},
}
FIGHTER = {
    "id": "fighter",
    "name": "Fighter",
    "kind": "pc",
    "level": 2,
    "hp": 30,
    "abilities": {"str": 16, "con": 14, "dex": 12, "int": 10, "wis": 10, "cha": 8},
    "armor": {"name": "Chain", "weight": "heavy", "bonus": 6},
    "shield": {"name": "Heavy shield", "bonus": 2},
    "weapons": [{"id": "sword", "name": "Longsword", "dice": "1d8", "proficiency": 3}],
    "powers": ["basic-melee"],
    "healing_surges": 9,
}
GOBLIN = {
    "id": "goblin",
    "name": "Goblin",
    "role": "skirmisher",
    "level": 1,
    "hp": 20,
    "defenses": {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12},
    "initiative": 3,
    "speed": 6,
    "powers": ["claw", "bolt"],
}

# Attack-rule fixtures: a striker whose powers add nothing to the d20 (the total is the
# natural plus situational modifiers) and a dummy with known defenses.
OPEN = "......\n......\n......\n"
OPEN_9X7 = "\n".join(["........."] * 7)
"""An open 9x7 map (the AI's state and ruleset scenarios)."""
STRIKE: dict[str, Any] = {
    "id": "strike",
    "name": "Strike",
    "kind": "melee",
    "keywords": ["weapon"],
    "basic": True,
    "attack": {"ability": "str", "vs": "ac"},
    "hit": {"damage": {"dice": "1[W]", "ability": "str"}},
}
"""A basic weapon attack named Strike (str vs AC, 1[W] + str)."""


def untimed(ev: dict[str, Any]) -> dict[str, Any]:
    """A log event without its timing (a decision's `ms`, the one field that differs between
    two runs of the same fight): what the differential fixtures digest."""
    return {k: v for k, v in ev.items() if k != "ms"}


def poke(vs: str, **over: Any) -> dict[str, Any]:
    """A monster power with no bonus at all: the total is the natural plus modifiers."""
    p: dict[str, Any] = {
        "id": f"poke-{vs}",
        "name": f"Poke {vs}",
        "kind": "melee",
        "attack": {"bonus": 0, "vs": vs},
        "hit": {"damage": {"dice": "1d4"}},
    }
    p.update(over)
    return p


POKES = [poke(d) for d in ("ac", "fortitude", "reflex", "will")]
ZAP = {
    "id": "zap",
    "name": "Zap",
    "kind": "ranged",
    "range": 10,
    "attack": {"bonus": 0, "vs": "ac"},
    "hit": {"damage": {"dice": "1d4"}},
}
LONG = {
    "id": "long",
    "name": "Long Poke",
    "kind": "melee",
    "reach": 2,
    "attack": {"bonus": 0, "vs": "ac"},
    "hit": {"damage": {"dice": "1d4"}},
}
KEEN = poke("ac", id="keen", name="Keen", crit_range=19)
STRIKER: dict[str, Any] = {
    "id": "striker",
    "name": "Striker",
    "role": "soldier",
    "level": 1,
    "hp": 40,
    "defenses": {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12},
    "powers": ["poke-ac", "poke-fortitude", "poke-reflex", "poke-will", "zap", "long", "keen"],
}


def dummy(**over: Any) -> dict[str, Any]:
    """A monster with 100 hit points and no powers; `ac=...` and the like set a defense, other
    keys a creature field (`invisible=True`)."""
    d = {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12}
    out: dict[str, Any] = {
        "id": "dummy",
        "name": "Dummy",
        "role": "brute",
        "level": 1,
        "hp": 100,
        "powers": [],
    }
    for k, v in over.items():
        (d if k in d else out)[k] = v
    out["defenses"] = d
    return out


def duel(
    build: Builder,
    faces: list[int],
    *,
    target: dict[str, Any] | None = None,
    striker_pos: tuple[int, int] = (1, 1),
    target_pos: tuple[int, int] = (2, 1),
    grid: str = OPEN,
    more: tuple[dict[str, Any], ...] = (),
    **kw: Any,
) -> Encounter:
    """The striker `s` (party, acting first) next to a dummy `t` (monsters); `faces` follow
    the initiative rolls. `more` adds combatants (fighters, goblins) who roll initiative 10,
    so they act between the two."""
    return build(
        grid,
        [mon("s", striker_pos, "striker", side="party"), mon("t", target_pos, "dummy"), *more],
        creatures=[STRIKER, target or dummy(), FIGHTER, GOBLIN],
        powers=[*POKES, ZAP, LONG, KEEN, BASIC_MELEE, CLAW, BOLT],
        faces=[20, 1, *([10] * len(more)), *faces],
        **kw,
    )


AREA = {
    "id": "fireball",
    "name": "Fireball",
    "kind": "area",
    "range": 10,
    "burst": 2,
    "target": "creature",
    "targets": 9,
    "attack": {"bonus": 0, "vs": "reflex"},
    "hit": {"damage": {"dice": "1d6"}},
}
CLOSE = {
    "id": "sweep",
    "name": "Sweep",
    "kind": "close",
    "burst": 1,
    "target": "enemy",
    "targets": 8,
    "attack": {"bonus": 0, "vs": "ac"},
    "hit": {"damage": {"dice": "1d6"}},
}


def attack_on(enc: Encounter, power: str, target: str = "t", **kw: Any) -> Attack:
    """Apply `power` and return the (non-opportunity) attack on `target`."""
    out = enc.apply(UsePower(power, (target,) if "origin" not in kw else (), **kw))
    return next(a for a in events(out, Attack) if a.target == target and not a.opportunity)


def area_duel(
    build: Builder,
    grid: str,
    s_pos: tuple[int, int],
    t_pos: tuple[int, int],
    *,
    target: dict[str, Any] | None = None,
    more: tuple[dict[str, Any], ...] = (),
) -> Encounter:
    """Like `duel`, the striker also knowing a burst 2 area power and a close burst 1."""
    striker = dict(STRIKER, powers=[*STRIKER["powers"], "fireball", "sweep"])
    return build(
        grid,
        [mon("s", s_pos, "striker", side="party"), mon("t", t_pos, "dummy"), *more],
        creatures=[striker, target or dummy(), FIGHTER, GOBLIN],
        powers=[*POKES, ZAP, LONG, KEEN, AREA, CLOSE, BASIC_MELEE, CLAW, BOLT],
        faces=[20, 1, *([10] * len(more)), 10, 1, 1, 1],
    )


def write_encounter(
    tmp_path: Path,
    grid: str,
    combatants: list[dict[str, Any]],
    *,
    creatures: list[dict[str, Any]] | None = None,
    powers: list[dict[str, Any]] | None = None,
    legend: dict[str, Any] | None = None,
    **extra: Any,
) -> Path:
    doc: dict[str, Any] = {
        "name": "test",
        "description": "a test fight",
        "map": {"name": "test map", "grid": grid.strip("\n") + "\n"},
        "creatures": copy.deepcopy(creatures if creatures is not None else [FIGHTER, GOBLIN]),
        "powers": copy.deepcopy(powers if powers is not None else [BASIC_MELEE, CLAW, BOLT]),
        "sides": {"party": {"control": "player"}, "monsters": {"control": "ai"}},
        "combatants": combatants,
    }
    if legend:
        doc["map"]["legend"] = legend
    doc.update(extra)
    path = tmp_path / "test.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


Builder = Callable[..., Encounter]


def pc(
    cid: str, pos: tuple[int, int], creature: str = "fighter", side: str = "party", **kw: Any
) -> dict[str, Any]:
    return {"id": cid, "creature": creature, "side": side, "pos": list(pos), **kw}


def mon(
    cid: str, pos: tuple[int, int], creature: str = "goblin", side: str = "monsters", **kw: Any
) -> dict[str, Any]:
    return {"id": cid, "creature": creature, "side": side, "pos": list(pos), **kw}


def events(logged: list[Logged] | Encounter, kind: type[Event] | None = None) -> list[Any]:
    """The events (of class `kind`, if given) in `logged`: an `apply` result or a whole log."""
    items = logged.log if isinstance(logged, Encounter) else logged
    return [lg.event for lg in items if kind is None or isinstance(lg.event, kind)]


class Answers:
    """A decider whose answers the test sets per question type; the rest as `AutoDecider`.

    `Answers(opportunity=False)` declines every opportunity attack; `asked` keeps what was
    asked, so a test can check that a question was (or was not) put."""

    def __init__(
        self,
        *,
        opportunity: bool = True,
        delay_return: bool = True,
        save_order: Callable[[tuple[str, ...]], list[str]] | None = None,
        forced: int = 0,
    ) -> None:
        self.opportunity = opportunity
        self.delay_return = delay_return
        self.save_order = save_order
        self.forced = forced
        self.asked: list[Question] = []
        self._auto = AutoDecider()

    def answer(self, question: Question) -> Any:
        from engine.decisions import (
            DelayReturnQuestion,
            ForcedMoveQuestion,
            OpportunityQuestion,
            SaveOrderQuestion,
        )

        self.asked.append(question)
        if isinstance(question, OpportunityQuestion):
            return self.opportunity
        if isinstance(question, DelayReturnQuestion):
            return self.delay_return
        if isinstance(question, SaveOrderQuestion) and self.save_order is not None:
            return self.save_order(question.effects)
        if isinstance(question, ForcedMoveQuestion):
            return min(self.forced, len(question.options) - 1)
        return self._auto.answer(question)


def put_effect(
    enc: Encounter,
    target: str,
    *,
    source: str | None = None,
    duration: str = "save_ends",
    conditions: tuple[str, ...] = (),
    modifiers: tuple[tuple[str, int], ...] = (),
    ongoing: tuple[int, str | None] | None = None,
    name: str | None = None,
) -> str:
    """Put an effect on `target` as a power would (through `engine.effects.add_effect`)."""
    from engine.content.schema import EffectSpec
    from engine.effects import add_effect

    b = enc.battle
    spec = EffectSpec.model_validate(
        {
            "name": name,
            "duration": duration,
            "conditions": list(conditions),
            "modifiers": [{"stat": s, "value": v} for s, v in modifiers],
            "ongoing": None if ongoing is None else {"amount": ongoing[0], "type": ongoing[1]},
        }
    )
    eff = add_effect(b, spec, b[target], b[source] if source else None, name or "test effect")
    assert eff is not None
    return eff.id


def mods(attack: Any) -> dict[str, int]:
    """An attack event's modifiers summed by source."""
    out: dict[str, int] = {}
    for m in attack.modifiers:
        out[m.source] = out.get(m.source, 0) + m.value
    return out


NAIVE = {"party": "naive", "monsters": "naive"}
"""Both sides of the default encounter played by the naive baseline: the rules tests need
whole fights, not good ones, and the naive policy is fast and changes little."""


# --- the AI tests' powers and defenses ---
BOLT_VS_AC = {
    # the AI tests' bolt: +6 vs AC, 1d8+3 (BOLT above is the rules tests': +5 vs Reflex)
    "id": "bolt",
    "name": "Bolt",
    "kind": "ranged",
    "range": 10,
    "basic": True,
    "attack": {"bonus": 6, "vs": "ac"},
    "hit": {"damage": {"dice": "1d8", "bonus": 3}},
}
SLAM = {
    "id": "slam",
    "name": "Slam",
    "kind": "melee",
    "basic": True,
    "attack": {"bonus": 6, "vs": "ac"},
    "hit": {"damage": {"dice": "1d6", "bonus": 4}},
}
DEF = {"ac": 15, "fortitude": 13, "reflex": 14, "will": 12}


def load_script(relative: str) -> Any:
    """A script under tests/ (a soak run or a benchmark), loaded as a module by its path, so a
    test can call its entry point with small counts without `tests/soak` on `sys.path`."""
    import importlib.util
    import sys

    path = Path(__file__).resolve().parents[1] / relative
    name = path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
