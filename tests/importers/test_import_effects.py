# ruff: noqa: E501  (tables of expected values read best one case per line)
"""The usual effect phrases become rules; everything else stays a note (issue 18).

One case per phrase, named with the rule clause the resulting content plays (durations
F-DUR-2..5, ongoing damage F-DMG-6, half damage on a miss F-DMG-10, forced movement
F-DMG-11). A sentence with any part that is not such a phrase is kept whole as a note.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.importers.effects import parse_damage, read_aftereffect, read_outcome
from engine.importers.model import Damage
from tests.support.importers import powers, report

OWNER = "Mire Hag"
RULES: list[tuple[str, str, dict[str, Any]]] = [
    ("prone-knocked", "The target is knocked prone.",
     {"effects": [{"duration": "end_of_encounter", "conditions": ["prone"]}]}),
    ("prone-falls", "The target falls prone.",
     {"effects": [{"duration": "end_of_encounter", "conditions": ["prone"]}]}),
    ("prone-you-knock", "You knock the target prone.",
     {"effects": [{"duration": "end_of_encounter", "conditions": ["prone"]}]}),
    ("F-DUR-5-dazed-save-ends", "The target is dazed (save ends).",
     {"effects": [{"duration": "save_ends", "conditions": ["dazed"]}]}),
    ("F-DUR-3-slowed-end-of-your-next-turn", "The target is slowed until the end of your next turn.",
     {"effects": [{"duration": "end_of_next_turn", "conditions": ["slowed"]}]}),
    ("F-DUR-3-immobilized-end-of-the-hags-next-turn",
     "The target is immobilized until the end of the hag's next turn.",
     {"effects": [{"duration": "end_of_next_turn", "conditions": ["immobilized"]}]}),
    ("F-DUR-2-weakened-start-of-your-next-turn",
     "The target is weakened until the start of your next turn.",
     {"effects": [{"duration": "start_of_next_turn", "conditions": ["weakened"]}]}),
    ("F-DUR-4-blinded-end-of-encounter", "The target is blinded until the end of the encounter.",
     {"effects": [{"duration": "end_of_encounter", "conditions": ["blinded"]}]}),
    ("F-DUR-5-two-conditions-save-ends-both", "The target is slowed and weakened (save ends both).",
     {"effects": [{"duration": "save_ends", "conditions": ["slowed", "weakened"]}]}),
    ("F-DMG-6-ongoing-typed", "The target takes ongoing 5 fire damage (save ends).",
     {"effects": [{"duration": "save_ends", "ongoing": {"amount": 5, "type": "fire"}}]}),
    ("F-DMG-6-ongoing-untyped", "Ongoing 10 damage (save ends).",
     {"effects": [{"duration": "save_ends", "ongoing": {"amount": 10}}]}),
    ("F-DMG-6-ongoing-and-dazed", "Ongoing 5 poison damage and dazed (save ends both).",
     {"effects": [{"duration": "save_ends", "conditions": ["dazed"],
                   "ongoing": {"amount": 5, "type": "poison"}}]}),
    ("F-DMG-11-push", "You push the target 2 squares.", {"forced": {"kind": "push", "distance": 2}}),
    ("F-DMG-11-pull-up-to", "The hag pulls the target up to 3 squares.",
     {"forced": {"kind": "pull", "distance": 3}}),
    ("F-DMG-11-slide", "You can slide the target 1 square.", {"forced": {"kind": "slide", "distance": 1}}),
    ("F-DMG-11-push-short", "Push 1.", {"forced": {"kind": "push", "distance": 1}}),
    ("F-DMG-11-passive-push-and-dazed", "The target is pushed 2 squares and dazed (save ends).",
     {"forced": {"kind": "push", "distance": 2},
      "effects": [{"duration": "save_ends", "conditions": ["dazed"]}]}),
    ("F-DMG-10-half-damage", "Half damage.", {"half_damage": True}),
    ("F-DUR-3-you-mark-the-target", "You mark the target until the end of your next turn.",
     {"effects": [{"duration": "end_of_next_turn", "conditions": ["marked"]}]}),
    ("F-DUR-5-marked-save-ends", "The target is marked (save ends).",
     {"effects": [{"duration": "save_ends", "conditions": ["marked"]}]}),
    ("damage-then-prone", "1d8 + 4 damage, and the target is knocked prone.",
     {"damage": Damage("1d8", 4, []),
      "effects": [{"duration": "end_of_encounter", "conditions": ["prone"]}]}),
    ("damage-typed-two-types", "2d6 + 3 cold and lightning damage.",
     {"damage": Damage("2d6", 3, ["cold", "lightning"])}),
]  # fmt: skip

NOTES: list[tuple[str, str]] = [
    ("qualified-push", "You push the target 1 square if it is smaller than you."),
    ("no-duration", "The target is dazed."),
    ("targets-own-turn", "The target is slowed until the end of the target's next turn."),
    ("unknown-condition", "The target is dominated (save ends)."),
    ("choice-of-conditions", "The target is dazed or slowed (save ends)."),
    ("shift-too-far", "You shift 8 squares."),
    ("teleport", "The hag teleports 5 squares."),
    ("forced-too-far", "You push the target 9 squares."),
    ("regeneration", "You gain regeneration 5 while you are bloodied."),
]


@pytest.mark.parametrize(("text", "expected"), [r[1:] for r in RULES], ids=[r[0] for r in RULES])
def test_usual_phrases_become_rules(text: str, expected: dict[str, Any]) -> None:
    out = read_outcome(text, OWNER, label="Hit")
    assert out.notes == []
    assert out.damage == expected.get("damage")
    assert out.effects == expected.get("effects", [])
    assert out.forced == expected.get("forced")
    assert out.half_damage == expected.get("half_damage", False)


@pytest.mark.parametrize("text", [n[1] for n in NOTES], ids=[n[0] for n in NOTES])
def test_other_sentences_stay_notes_and_no_rule_is_guessed(text: str) -> None:
    out = read_outcome(text, OWNER, label="Effect")
    assert out.empty()
    assert out.notes == [f"Effect: {text}"]


def test_a_hit_keeps_its_damage_and_the_rest_of_its_sentence_as_a_note() -> None:
    out = read_outcome("1d10 + 5 damage, or 2d10 + 5 damage while bloodied.", OWNER, label="Hit")
    assert out.damage == Damage("1d10", 5, [])
    assert out.effects == [] and out.forced is None
    assert out.notes == ["Hit: 1d10 + 5 damage, or 2d10 + 5 damage while bloodied."]


def test_shift_becomes_the_users_shift() -> None:
    """ "You shift N squares" is the content's `shift: N` (the user shifts, F-TRN-1's shift)."""
    for text in ("You shift 3 squares.", "The goblin shifts 1 square."):
        out = read_outcome(text, OWNER, label="Effect")
        assert out.notes == [] and out.unplayable == []
        assert out.shift == int(text.split(" shift")[1].split()[-2])


def test_a_shift_beyond_six_squares_stays_a_note() -> None:
    out = read_outcome("You shift 8 squares.", OWNER, label="Effect")
    assert out.shift is None and out.unplayable == ["shift 8"]
    assert out.notes == ["Effect: You shift 8 squares."]


def test_aftereffect_follows_a_save_ends_effect() -> None:
    assert read_aftereffect("The target is slowed (save ends).", OWNER) == {
        "duration": "save_ends",
        "conditions": ["slowed"],
    }
    assert read_aftereffect("The target is slowed. It can't shift.", OWNER) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [("2d10+9", Damage("2d10", 9)), ("1d8 + 4", Damage("1d8", 4)), ("5", Damage("5")),
     ("1d10+1d6+5", Damage("1d10+1d6", 5)), ("", None), ("2d", None), ("1d8-1d4", None),
     ("99d999", None)],
)  # fmt: skip
def test_damage_text(text: str, expected: Damage | None) -> None:
    assert parse_damage(text) == expected


def test_samples_effects_in_place() -> None:
    """The samples' effects, read in place (F-DUR-3, F-DUR-5, F-DMG-6, F-DMG-10, F-DMG-11)."""
    hag = powers("fen-raiders.txt", "mire-hag")
    assert hag["Clawed Hand"]["hit"]["forced"] == {"kind": "slide", "distance": 1}
    assert hag["Bog Bolt"]["hit"]["effects"] == [
        {"duration": "end_of_next_turn", "conditions": ["immobilized"]}
    ]
    assert hag["Choking Mire"]["hit"]["effects"] == [
        {"duration": "save_ends", "ongoing": {"amount": 5, "type": "necrotic"}}
    ]
    assert hag["Choking Mire"]["miss"] == {"half_damage": True}
    wail = hag["Wail of the Drowned"]["hit"]
    assert wail["forced"] == {"kind": "push", "distance": 2}
    assert wail["effects"] == [
        {
            "duration": "save_ends",
            "conditions": ["dazed"],
            "aftereffect": {"duration": "save_ends", "conditions": ["slowed"]},
        }
    ]
    ogre = powers("ogre-warhulk.html", "ogre-warhulk")
    assert ogre["Sweeping Club"]["hit"]["forced"] == {"kind": "push", "distance": 2}
    assert ogre["Sweeping Club"]["hit"]["effects"] == [
        {"duration": "end_of_encounter", "conditions": ["prone"]}
    ]
    wizard = powers("ilvaris-wizard.dnd4e", "ilvaris-of-the-silver-tower")
    assert wizard["Chill Strike"]["miss"] == {
        "half_damage": True,
        "effects": [{"duration": "end_of_next_turn", "conditions": ["slowed"]}],
    }
    assert wizard["Acid Arrow"]["miss"]["effects"] == [
        {"duration": "save_ends", "ongoing": {"amount": 2, "type": "acid"}}
    ]


def test_prose_auras_and_triggers_are_notes_and_warnings() -> None:
    ogre_warnings = report("ogre-warhulk.html", "ogre-warhulk")
    assert any("Aura: Stench aura 1; living enemies" in w for w in ogre_warnings)
    assert not any("Saving throws" in w for w in ogre_warnings), "imported as save_bonus"
    rampage = powers("ogre-warhulk.html", "ogre-warhulk")["Bloodied Rampage"]
    assert "Trigger: when first bloodied" in rampage["description"]
    assert "shifts 2 squares and makes a greatclub attack" in rampage["description"]
    fighter = powers("brunhilde-fighter.dnd4e", "brunhilde-eisenfaust")
    assert "an enemy adjacent to you takes damage" in fighter["Cleave"]["description"]
    assert "forced" not in fighter["Come and Get It"]["hit"]  # "but only if ..." is prose
    assert "You pull the target up to 2 squares" in fighter["Come and Get It"]["description"]
    wizard_warnings = report("ilvaris-wizard.dnd4e", "ilvaris-of-the-silver-tower")
    assert any("becomes unconscious" in w for w in wizard_warnings)
    # every note on a power is also a warning in the report, with the power's line
    for name, cid in [("fen-raiders.txt", "mire-hag"), ("marsh-wyrm.txt", "marsh-wyrm")]:
        warnings = report(name, cid)
        for power in powers(name, cid).values():
            for sentence in ("Trigger:", "Effect:", "Hit:"):
                if sentence in power.get("description", ""):
                    assert any(power["name"] in w and sentence in w for w in warnings)


def test_damage_in_words_without_computed_numbers_stays_a_note() -> None:
    """A power card whose Damage element is empty: "2d6 + Intelligence modifier" has no number
    Skirmish could use, so the sentence is a note and no damage is made up."""
    out = read_outcome("2d6 + Intelligence modifier fire damage.", OWNER, label="Hit")
    assert out.damage is None and out.notes == ["Hit: 2d6 + Intelligence modifier fire damage."]


def test_a_miss_with_its_own_damage_keeps_it() -> None:
    from engine.importers.mapping import map_power
    from engine.importers.model import SrcPower
    from engine.importers.report import CreatureReport

    p = SrcPower("Sting", 3, attack_bonus=6, vs="ac", hit="1d6 + 2 damage.", miss="3 damage.")
    d = map_power(p, "x-sting", OWNER, CreatureReport(OWNER, "x", "f", 1))
    assert d["hit"] == {"damage": {"dice": "1d6", "bonus": 2}}
    assert d["miss"] == {"damage": {"dice": "3"}}
    assert "description" not in d
