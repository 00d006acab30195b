"""Styles (issue 15 target 4): the dying spared unless ruthless, fleeing only with the flee
style, caution scaling the weights; each from the content (combatant, creature, side) and from
the command line's choices (`AIConfig.style`), in the order `ai.styles.resolve` documents."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ai.config import AIConfig
from ai.styles import CAUTION_SCALE, Caution, Style, StylePick, cautious, resolve
from ai.tactical import TacticalPolicy
from engine.actions import UsePower
from engine.encounter import Encounter
from engine.grid import distance
from tests.ai.test_ai_scenarios import CREATURES, POWERS
from tests.support.helpers import mon, pc
from tests.support.scenarios import OPEN_9x7, play_turn, until_turn

RUTHLESS = AIConfig(style=StylePick(ruthless=True))


def dying_next_to_standing(build: Any, **extra: Any) -> Encounter:
    """The brute at (4,3) between Brom (standing, in heavy armour: hard to hit) at (3,3) and
    Wren (dying) at (5,3)."""
    placed_ai = extra.pop("brute_ai", None)
    brute = mon("brute", (4, 3), creature="brute")
    if placed_ai is not None:
        brute["ai"] = placed_ai
    wall = {
        **CREATURES[0],
        "id": "wall",
        "name": "Brom",
        "armor": {"name": "Plate", "weight": "heavy", "bonus": 12},
        "typed_bonuses": [{"stat": "ac", "type": "deflection", "value": 10}],
    }
    own = extra.pop("creatures", [])
    mine = {c["id"] for c in own}
    creatures = [*(c for c in CREATURES if c["id"] not in mine), wall, *own]
    enc = build(
        OPEN_9x7,
        [
            pc("brom", (3, 3), creature="wall"),
            {**pc("wren", (5, 3)), "name": "Wren", "hp": -3},
            brute,
        ],
        creatures=creatures,
        powers=POWERS,
        seed=3,
        **extra,
    )
    until_turn(enc, "brute")
    return enc


def attacked(actions: list[Any]) -> list[str]:
    return [t for a in actions if isinstance(a, UsePower) for t in a.targets]


def brute_turn(enc: Encounter, cfg: AIConfig) -> tuple[list[str], str]:
    """Who the brute attacks this turn, and its explanation."""
    actions, decisions = play_turn(enc, TacticalPolicy(config=cfg))
    return attacked(actions), decisions[0].summary


def test_spares_the_dying_while_a_standing_enemy_is_free(build: Any) -> None:
    # Wren is the easy hit (75%, 7.5 expected), Brom the hard one (5%): ruthless takes Wren.
    targets, text = brute_turn(dying_next_to_standing(build), AIConfig())
    assert targets == ["brom"]
    assert "spares the dying Wren: Brom is standing" in text


def test_ruthless_attacks_the_dying(build: Any) -> None:
    targets, text = brute_turn(dying_next_to_standing(build), RUTHLESS)
    assert targets == ["wren"]
    assert "spares" not in text


def test_classic_is_ruthless_as_the_policy_was() -> None:
    from ai.config import CONFIGS

    assert CONFIGS["classic"].ruthless and not CONFIGS["tactical"].ruthless
    assert CONFIGS["exposure-x2"].ruthless and CONFIGS["exposure-x3"].ruthless


def brute_with(ai: dict[str, Any]) -> dict[str, Any]:
    return {**CREATURES[-1], "ai": ai}


@pytest.mark.parametrize(
    ("extra", "cfg", "expect"),
    [
        # the content, at each level
        ({"combatant": {"ruthless": True}}, AIConfig(), "wren"),
        ({"creature": {"ruthless": True}}, AIConfig(), "wren"),
        ({"side": {"ruthless": True}}, AIConfig(), "wren"),
        # a placed creature over its creature, a creature over its side
        ({"creature": {"ruthless": True}, "combatant": {"ruthless": False}}, AIConfig(), "brom"),
        ({"side": {"ruthless": True}, "creature": {"ruthless": False}}, AIConfig(), "brom"),
        # a level that says nothing else leaves the field to the next one
        ({"side": {"ruthless": True}, "creature": {"caution": "bold"}}, AIConfig(), "wren"),
        # the command line over all of the content, both ways
        ({"combatant": {"ruthless": True}}, AIConfig(style=StylePick(ruthless=False)), "brom"),
        ({"creature": {"ruthless": False}}, RUTHLESS, "wren"),
        # the content over the configuration's default
        ({"creature": {"ruthless": False}}, AIConfig(ruthless=True), "brom"),
    ],
    ids=[
        "combatant",
        "creature",
        "side",
        "combatant-over-creature",
        "creature-over-side",
        "field-by-field",
        "cli-merciful-over-content",
        "cli-ruthless-over-content",
        "content-over-config",
    ],
)
def test_where_the_ruthless_style_comes_from(
    build: Any, extra: dict[str, Any], cfg: AIConfig, expect: str
) -> None:
    enc = dying_next_to_standing(build, **content(extra))
    targets, _ = brute_turn(enc, cfg)
    assert targets == [expect]


def content(levels: dict[str, Any]) -> dict[str, Any]:
    """The encounter parts that put `ai` fields on the brute's combatant, creature, side."""
    out: dict[str, Any] = {}
    if "creature" in levels:
        out["creatures"] = [brute_with(levels["creature"])]
    if "side" in levels:
        out["sides"] = {"party": {"control": "player"}, "monsters": {"ai": levels["side"]}}
    if "combatant" in levels:
        out["brute_ai"] = levels["combatant"]
    return out


def test_the_dying_are_finished_only_when_nothing_standing_is_in_reach(build: Any) -> None:
    # Brom stands 16 squares away: no attack on a standing enemy this turn, so the attack
    # on Wren stays among the options (and the spared list is empty).
    enc = build(
        "\n".join(["...................."] * 7),
        [
            pc("brom", (19, 3)),
            {**pc("wren", (5, 3)), "name": "Wren", "hp": -3},
            mon("brute", (4, 3), creature="brute"),
        ],
        creatures=CREATURES,
        powers=POWERS,
        seed=3,
    )
    until_turn(enc, "brute")
    pol = TacticalPolicy()
    c = enc.current
    assert c is not None
    pol.planner.decide(enc, c)
    kinds = {(o.kind, o.targets) for o in pol.last_options}
    assert ("attack", ("wren",)) in kinds
    assert not any(o.kind == "attack" and "brom" in o.targets for o in pol.last_options)


def badly_hurt_brute(build: Any, ai: dict[str, Any] | None = None) -> Encounter:
    creatures = [brute_with(ai)] if ai is not None else []
    enc = build(
        OPEN_9x7,
        [pc("hero", (3, 3)), mon("brute", (4, 3), creature="brute")],
        creatures=[*(c for c in CREATURES if not creatures or c["id"] != "brute"), *creatures],
        powers=POWERS,
        seed=3,
    )
    until_turn(enc, "brute")
    brute = enc.battle["brute"]
    brute.hp, brute.state = 6, "bloodied"  # test setup: a fifth of its hit points left
    return enc


def fled(enc: Encounter, cfg: AIConfig) -> bool:
    actions, decisions = play_turn(enc, TacticalPolicy(config=cfg))
    b = enc.battle
    if any(isinstance(a, UsePower) for a in actions):
        return False
    assert "badly hurt" in decisions[0].summary
    return distance(b.squares(b["brute"]), b.squares(b["hero"])) > 1


@pytest.mark.parametrize(
    ("ai", "cfg", "expect"),
    [
        (None, AIConfig(), False),
        ({"flee": True}, AIConfig(), True),
        (None, AIConfig(style=StylePick(flee=True)), True),
        ({"flee": True}, AIConfig(style=StylePick(flee=False)), False),
        ({"flee": False}, AIConfig(flee=True), False),
    ],
    ids=["default", "content", "cli", "cli-stand-fast-over-content", "content-over-config"],
)
def test_a_badly_hurt_monster_flees_only_with_the_flee_style(
    build: Any, ai: dict[str, Any] | None, cfg: AIConfig, expect: bool
) -> None:
    assert fled(badly_hurt_brute(build, ai), cfg) is expect


def test_caution_scales_exposure_and_opportunity_attack_weights() -> None:
    from ai.roles import ROLE_WEIGHTS

    w = ROLE_WEIGHTS["skirmisher"]
    cases: list[tuple[Caution, float]] = [("bold", 0.5), ("normal", 1.0), ("cautious", 2.0)]
    for caution, k in cases:
        got = cautious(w, Style(caution=caution))
        assert (got.exposure, got.oa) == pytest.approx((w.exposure * k, w.oa * k))
        assert replace(got, exposure=w.exposure, oa=w.oa) == w  # nothing else changes


def test_the_planner_weighs_with_the_creatures_caution(build: Any) -> None:
    enc = dying_next_to_standing(build, **content({"creature": {"caution": "cautious"}}))
    c = enc.current
    assert c is not None
    seen: list[Any] = []
    pol = TacticalPolicy()
    original = pol.planner._options

    def spy(turn: Any, *args: Any) -> Any:
        seen.append(turn.ctx.f.w)
        return original(turn, *args)

    pol.planner._options = spy  # type: ignore[method-assign,assignment]
    pol.planner.decide(enc, c)
    from ai.roles import weights_for

    base = weights_for(c, config=pol.config)
    assert (seen[0].exposure, seen[0].oa) == pytest.approx((2 * base.exposure, 2 * base.oa))
    assert resolve(enc, c, AIConfig(style=StylePick(caution="bold"))).caution == "bold"


def test_the_cautions_match_the_content_format() -> None:
    from engine.content.styles import CAUTIONS

    assert set(CAUTIONS) == set(CAUTION_SCALE)


def test_a_cautious_skirmisher_keeps_further_off_than_a_bold_one(build: Any) -> None:
    # Two fighters 10 squares off: the bold skirmisher (half the weight on the blows it
    # could take next round) walks up to them; the cautious one (twice) keeps further off.
    gaps = {}
    for caution in ("bold", "normal", "cautious"):
        enc = build(
            "\n".join(["..............."] * 7),
            [pc("hero", (2, 3)), pc("hero2", (2, 5)), mon("m", (12, 3), creature="skirmisher")],
            creatures=CREATURES,
            powers=POWERS,
            seed=3,
        )
        until_turn(enc, "m")
        # Without patience (issue 15), which would hold all three at the edge of reach alike.
        cfg = AIConfig(style=StylePick(caution=caution), patience=0.0)
        play_turn(enc, TacticalPolicy(config=cfg))
        b = enc.battle
        gaps[caution] = min(distance(b.squares(b["m"]), b.squares(b[h])) for h in ("hero", "hero2"))
    assert gaps["bold"] <= gaps["normal"] <= gaps["cautious"]
    assert gaps["bold"] < gaps["cautious"]
