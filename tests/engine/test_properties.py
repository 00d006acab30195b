"""Properties of whole fights (Hypothesis): hit point bookkeeping, every fight ends, the same
seed gives the same log, a log's dice faces reproduce it exactly, two creatures never share a
square, and check_log.py finds nothing. Fights are the bundled default encounter played by the
naive policy on random seeds, and small random skirmishes on random maps."""

from __future__ import annotations

import importlib.util
import json
import sys
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.sim import play
from engine.content.loader import LoadedEncounter, load_encounter
from engine.decisions import AutoDecider
from engine.dice import ScriptedDice
from engine.encounter import Encounter
from engine.grid import footprint
from tests.support.helpers import FIGHTER, GOBLIN, NAIVE, untimed, write_encounter

SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
SEEDS = st.integers(min_value=0, max_value=199)
"""A few hundred seeds: the properties share their (cached) fights, which keeps the module
fast; the random skirmishes below bring the variety of maps and line-ups."""
ALL_AI = {"party": "ai", "monsters": "ai"}
"""As `ai.sim.play` creates its fights: every side under AI control."""
CHECK_LOG = Path(__file__).resolve().parents[2].parent / "shared/conformance/check_log.py"


@lru_cache(maxsize=1)
def default() -> LoadedEncounter:
    return load_encounter("default")


@lru_cache(maxsize=256)
def fight(seed: int) -> Encounter:
    """One naive fight of the default encounter (cached: several properties read it)."""
    enc, _ = play(default(), seed, NAIVE)
    return enc


def lines(enc: Encounter) -> list[dict[str, Any]]:
    """The log as JSON, less a decision's `ms` (a clock reading: the naive policy writes
    decisions too)."""
    return [untimed(json.loads(json.dumps(lg.to_json()))) for lg in enc.log]


def expected_state(rec: dict[str, Any], hp: int, failures: int) -> str:
    """S-10 for characters, X-HP-1 for monsters (ffd20)."""
    bloodied = rec["max_hp"] // 2
    if not rec["pc"]:
        return "dead" if hp <= 0 else ("bloodied" if hp <= bloodied else "healthy")
    if hp <= -bloodied or failures >= 3:
        return "dead"
    if hp < 0:
        return "dying"
    if hp == 0:
        return "unconscious"
    return "bloodied" if hp <= bloodied else "healthy"


def check_hp(log: list[dict[str, Any]]) -> None:
    who = {c["id"]: c for c in log[0]["combatants"]}
    hp = {cid: c["hp"] for cid, c in who.items()}
    state = dict.fromkeys(who, "healthy")
    failures = dict.fromkeys(who, 0)
    owed: dict[str, str] = {}  # a state change the log must report next for that creature
    for rec in log:
        t = rec["type"]
        if t == "damage":
            assert rec["amount"] == max(
                0, rec["rolled"] + sum(a["value"] for a in rec["adjustments"])
            )
            assert rec["hp_before"] == hp[rec["target"]]
            assert rec["hp_after"] == rec["hp_before"] - rec["amount"]
        if t == "heal":
            assert rec["hp_before"] == hp[rec["target"]]
            assert rec["hp_after"] == min(
                who[rec["target"]]["max_hp"], max(0, rec["hp_before"]) + rec["amount"]
            )
            # failed death saves stay after healing (S-10 counts three; no clause resets them
            # within an encounter: engine/hp.py)
        if t == "death_save" and rec["result"] == "fail":
            failures[rec["id"]] += 1
        if t in ("damage", "heal", "death_save"):
            cid: str = rec["target"] if "target" in rec else rec["id"]
            if t != "death_save":
                hp[cid] = rec["hp_after"]
            want = expected_state(who[cid], hp[cid], failures[cid])
            if want != state[cid]:
                owed[cid] = want
        if t == "state":
            cid = rec["id"]
            assert rec["hp"] == hp[cid]
            assert owed.pop(cid, None) == rec["state"], f"unexpected state line {rec}"
            state[cid] = rec["state"]
        if t in ("turn_start", "action", "attack", "encounter_end"):
            assert not owed, f"state changes not logged: {owed}"


@pytest.mark.slow  # whole fights over many seeds
@SETTINGS
@given(seed=SEEDS)
def test_property_hp_bookkeeping_and_states_follow_hp(seed: int) -> None:
    check_hp(lines(fight(seed)))


@pytest.mark.slow  # whole fights over many seeds
@SETTINGS
@given(seed=SEEDS)
def test_property_every_fight_ends(seed: int) -> None:
    enc = fight(seed)
    log = lines(enc)
    assert enc.over and log[-1]["type"] == "encounter_end"
    assert [r["type"] for r in log].count("encounter_end") == 1
    end = log[-1]
    if end["reason"] == "defeat":
        standing = {c.side for c in enc.battle.combatants.values() if c.standing}
        assert standing == ({end["winner"]} if end["winner"] else set())


@pytest.mark.slow  # whole fights over many seeds
@SETTINGS
@given(seed=SEEDS)
def test_property_same_seed_same_log(seed: int) -> None:
    again, _ = play(default(), seed, NAIVE)
    assert lines(again) == lines(fight(seed))


@pytest.mark.slow  # whole fights over many seeds
@SETTINGS
@given(seed=SEEDS)
def test_property_replaying_the_records_reproduces_the_fight(seed: int) -> None:
    enc = fight(seed)
    replayed = Encounter.replay(default(), enc.records, seed=seed, control=ALL_AI)
    assert lines(replayed) == lines(enc)
    assert replayed.snapshot() == enc.snapshot()


@pytest.mark.slow  # whole fights over many seeds
@SETTINGS
@given(seed=SEEDS)
def test_property_the_dice_faces_alone_reproduce_the_log(seed: int) -> None:
    """No seed, no recorded answers: the faces, in order, through a plain scripted source
    (which fails on a roll too many), with the same deterministic answers as the original."""
    enc = fight(seed)
    faces = [f for r in enc.records for f in r.faces]
    dice = ScriptedDice(faces)
    again = Encounter.create(
        default(), seed=seed, dice=dice, deciders=lambda _cid: AutoDecider(), control=ALL_AI
    )
    again.start()
    for rec in enc.records[1:]:
        assert rec.action is not None
        again.apply(rec.action, rec.decision)
    assert dice.remaining == 0
    assert lines(again) == lines(enc)


def check_squares(log: list[dict[str, Any]]) -> None:
    """Rebuild where everyone stands from the log alone; between actions no two living
    creatures overlap. (Inside a move a creature may pass through an ally's square, and an
    opportunity attack can interrupt it there; it must not stop there.)"""
    pos = {c["id"]: tuple(c["pos"]) for c in log[0]["combatants"]}
    size = {c["id"]: c["size"] for c in log[0]["combatants"]}
    dead: set[str] = set()
    for rec in log:
        if rec["type"] == "move":
            pos[rec["id"]] = tuple(rec["path"][-1])
        elif rec["type"] == "state" and rec["state"] == "dead":
            dead.add(rec["id"])
        at_rest = rec["type"] in ("turn_end", "encounter_end") or (
            rec["type"] == "action" and rec["kind"] in ("standard", "move", "minor", "free")
        )
        if at_rest:
            taken = [
                sq for cid, p in pos.items() if cid not in dead for sq in footprint(p, size[cid])
            ]
            assert len(taken) == len(set(taken)), f"two creatures share a square at {rec}"


@SETTINGS
@given(seed=SEEDS)
def test_property_two_creatures_never_share_a_square(seed: int) -> None:
    check_squares(lines(fight(seed)))


# --- small random skirmishes -------------------------------------------------------------------
@st.composite
def skirmishes(draw: st.DrawFn) -> tuple[str, list[dict[str, Any]], int]:
    """A random 8x6 map (walls, difficult ground, a pit or two) with 1-3 fighters against 1-4
    goblins on random floor squares."""
    w, h = 8, 6
    cells = [[draw(st.sampled_from(".......~#^")) for _ in range(w)] for _ in range(h)]
    floor = [(x, y) for y in range(h) for x in range(w) if cells[y][x] in ".~"]
    n_pc = draw(st.integers(1, 3))
    n_mon = draw(st.integers(1, 4))
    if len(floor) < n_pc + n_mon:
        cells = [["."] * w for _ in range(h)]
        floor = [(x, y) for y in range(h) for x in range(w)]
    spots = draw(
        st.lists(st.sampled_from(floor), min_size=n_pc + n_mon, max_size=n_pc + n_mon, unique=True)
    )
    combatants = [
        {"id": f"pc{i}", "creature": "fighter", "side": "party", "pos": list(sq)}
        for i, sq in enumerate(spots[:n_pc])
    ]
    combatants += [
        {"id": f"gob{i}", "creature": "goblin", "side": "monsters", "pos": list(sq)}
        for i, sq in enumerate(spots[n_pc:])
    ]
    grid = "\n".join("".join(r) for r in cells) + "\n"
    return grid, combatants, draw(st.integers(min_value=0, max_value=2**20))


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=skirmishes())
def test_property_random_skirmishes_end_cleanly(
    tmp_path: Path, case: tuple[str, list[dict[str, Any]], int]
) -> None:
    grid, combatants, seed = case
    path = write_encounter(tmp_path, grid, combatants, creatures=[FIGHTER, GOBLIN], round_limit=30)
    loaded = load_encounter(path)
    enc, _ = play(loaded, seed, NAIVE)
    log = lines(enc)
    assert enc.over and log[-1]["type"] == "encounter_end"
    check_hp(log)
    check_squares(log)
    replayed = Encounter.replay(loaded, enc.records, seed=seed, control=ALL_AI)
    assert lines(replayed) == log
    conformance = load_check_log()
    checker = conformance.Checker("random")
    checker.run(log)
    assert checker.findings == []


# --- check_log.py -----------------------------------------------------------------------------
def load_check_log() -> ModuleType:
    if not CHECK_LOG.is_file():
        pytest.skip(f"the conformance checker is not at {CHECK_LOG} (../shared is missing)")
    if "check_log" in sys.modules:
        return sys.modules["check_log"]
    spec = importlib.util.spec_from_file_location("check_log", CHECK_LOG)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["check_log"] = mod  # its dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


@SETTINGS
@given(seed=SEEDS)
def test_property_logs_pass_check_log(seed: int) -> None:
    conformance = load_check_log()
    checker = conformance.Checker(f"seed {seed}")
    checker.run(lines(fight(seed)))
    assert checker.findings == []
