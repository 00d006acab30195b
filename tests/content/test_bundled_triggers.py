"""The bundled creatures' triggered powers (immediate interrupts and reactions, X-ACT-1) and
effects that grant combat advantage (F-MOD-1), each in a scenario with the bundled content:
four monsters (the duelist's Slip Aside, the captain's Hold the Line, the bog ghoul's Death
Burst, the bone sentinel's Sentinel's Challenge) and two heroes (Kael's No Escape, Seren's
Mercy of Dawn); Nix's Trick Step and the hexer's Binding Curse for combat advantage."""

from __future__ import annotations

from typing import Any

from engine.actions import Move, UsePower
from engine.encounter import Encounter
from engine.events import Attack, EffectStart, Heal, Moved, TempHp, Triggered
from engine.preview import preview
from tests.support.helpers import Builder, events, mon

GRID = "............\n............\n............\n............\n"
INCLUDES = ["bestiary/marauders", "bestiary/mistfen", "party/lanterns"]


def scene(build: Builder, cast: list[dict[str, Any]], faces: list[int]) -> Encounter:
    """The bundled creatures in `cast` (the first acts first: initiative rolls 20, 9, 2),
    `faces` after the initiative rolls; the seeded dice go on after them."""
    inits = [20, 9, 2][: len(cast)]
    return build(
        GRID, cast, creatures=[], powers=[], include=INCLUDES, faces=[*inits, *faces], seed=3
    )


def near_bloodied(enc: Encounter, cid: str) -> None:
    """Set `cid` one hit point above bloodied (the scenario starts from there)."""
    c = enc.battle[cid]
    c.hp = c.bloodied_value + 1


def test_X_ACT_1_duelist_slip_aside_interrupt_voids_kaels_hit(build: Builder) -> None:
    enc = scene(
        build,
        [mon("kael", (1, 1), "kael", side="party"), mon("duel", (2, 1), "raider-duelist")],
        [19],
    )
    out = enc.apply(UsePower("riven-edge", ("duel",)))
    assert [(t.id, t.power, t.interrupt) for t in events(out, Triggered)] == [
        ("duel", "slip-aside", True)
    ]
    atk = events(out, Attack)[0]
    assert atk.outcome == "miss" and atk.wrong_square
    assert enc.battle["duel"].pos != (2, 1) and enc.battle["duel"].hp == 40


def test_X_ACT_1_captain_hold_the_line_reacts_to_a_bloodied_ally(build: Builder) -> None:
    enc = scene(
        build,
        [
            mon("kael", (1, 1), "kael", side="party"),
            mon("thug", (2, 1), "raider-thug"),
            mon("cap", (5, 1), "raider-captain"),
        ],
        [19, 10],
    )
    near_bloodied(enc, "thug")
    out = enc.apply(UsePower("riven-edge", ("thug",)))
    assert [(t.id, t.trigger) for t in events(out, Triggered)] == [("cap", "ally_bloodied")]
    assert [(e.target, e.amount) for e in events(out, TempHp)] == [("thug", 8)]
    assert enc.battle.modifier(enc.battle["thug"], "ac") == 2


def test_X_ACT_1_bog_ghoul_death_burst_goes_off_as_it_falls(build: Builder) -> None:
    enc = scene(
        build,
        [mon("kael", (1, 1), "kael", side="party"), mon("ghoul", (2, 1), "bog-ghoul")],
        [19, 10, 19],
    )
    enc.battle["ghoul"].hp = 1
    out = enc.apply(UsePower("riven-edge", ("ghoul",)))
    assert [(t.id, t.trigger) for t in events(out, Triggered)] == [("ghoul", "self_dropped")]
    burst = [a for a in events(out, Attack) if a.attacker == "ghoul"]
    assert [(a.target, a.vs, a.outcome) for a in burst] == [("kael", "fortitude", "hit")]
    assert enc.battle["ghoul"].state == "dead"
    assert enc.battle["kael"].hp < enc.battle["kael"].max_hp


def test_X_ACT_1_sentinels_challenge_marks_who_steps_up(build: Builder) -> None:
    enc = scene(
        build,
        [mon("kael", (1, 1), "kael", side="party"), mon("sent", (5, 1), "bone-sentinel")],
        [19],
    )
    out = enc.apply(Move(((1, 1), (2, 1), (3, 1), (4, 1)), "walk"))
    assert [(t.id, t.trigger, t.interrupt) for t in events(out, Triggered)] == [
        ("sent", "enemy_enters", False)
    ]
    marks = [e for e in events(out, EffectStart) if e.target == "kael"]
    assert marks and {"condition": "marked"} in marks[0].parts
    assert enc.battle.has(enc.battle["kael"], "marked")


def test_X_ACT_1_kael_no_escape_interrupts_an_enemy_leaving(build: Builder) -> None:
    enc = scene(
        build,
        [mon("thug", (2, 1), "raider-thug"), mon("kael", (1, 1), "kael", side="party")],
        [19],
    )
    # the thug acts first and walks away from Kael
    out = enc.apply(Move(((2, 1), (3, 1), (4, 1)), "walk"))
    trig = events(out, Triggered)
    assert [(t.id, t.power, t.interrupt) for t in trig] == [("kael", "no-escape", True)]
    assert enc.battle["thug"].pos == (2, 1), "immobilized before it could leave"
    assert not [m for m in events(out, Moved) if m.id == "thug" and m.path[-1] != (2, 1)]


def test_X_ACT_1_seren_mercy_of_dawn_heals_a_bloodied_ally(build: Builder) -> None:
    enc = scene(
        build,
        [
            mon("thug", (2, 1), "raider-thug"),
            mon("kael", (1, 1), "kael", side="party"),
            mon("seren", (1, 3), "seren", side="party"),
        ],
        [19, 10],
    )
    near_bloodied(enc, "kael")
    out = enc.apply(UsePower("thug-axe", ("kael",)))
    assert [(t.id, t.trigger) for t in events(out, Triggered)] == [("seren", "ally_bloodied")]
    heal = events(out, Heal)[0]
    assert heal.target == "kael" and heal.source == "seren"


# --- item 6: a power's target grants combat advantage (F-MOD-1) -----------------------------
def test_F_MOD_1_trick_step_target_grants_combat_advantage_to_nix_only(build: Builder) -> None:
    enc = scene(
        build,
        [
            mon("nix", (1, 1), "nix", side="party"),
            mon("thug", (2, 1), "raider-thug"),
            mon("kael", (9, 3), "kael", side="party"),
        ],
        [19, 1],
    )
    out = enc.apply(UsePower("trick-step", ("thug",)))
    start = next(e for e in events(out, EffectStart) if e.name == "wrong-footed")
    assert {"modifier": "grants_ca_to_source", "value": 2} in start.parts
    b = enc.battle
    thug, nix, kael = b["thug"], b["nix"], b["kael"]
    for_nix = preview(b, nix, thug, nix.powers[0])
    for_kael = preview(b, kael, thug, kael.powers[0])
    assert for_nix is not None and for_nix.setup.combat_advantage
    assert for_kael is not None and not for_kael.setup.combat_advantage, "only to Nix"


def test_F_MOD_1_binding_curse_exposes_every_target_to_every_attacker(build: Builder) -> None:
    enc = scene(
        build,
        [
            mon("hex", (8, 1), "raider-hexer"),
            mon("kael", (1, 1), "kael", side="party"),
            mon("thug", (5, 3), "raider-thug"),
        ],
        [19, 1, 1, 1],
    )
    out = enc.apply(UsePower("binding-curse", (), origin=(1, 1)))
    exposed = [e for e in events(out, EffectStart) if e.name == "exposed"]
    assert exposed and {"modifier": "grants_ca", "value": 1} in exposed[0].parts
    thug = enc.battle["thug"]
    pv = preview(enc.battle, thug, enc.battle["kael"], thug.powers[0])
    assert pv is not None and pv.setup.combat_advantage, "the thug has combat advantage too"
