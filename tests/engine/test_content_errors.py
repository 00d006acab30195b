"""Every kind of bad content is reported at its file, line and field, with a useful message."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from engine.content import ContentErrors, load_encounter
from tests.support.content_errors import ENC, LIB, find, line_of, load_errors, write


def test_yaml_syntax_error(tmp_path: Path) -> None:
    enc = ENC.replace("name: test", "name: [test")
    errors = load_errors(tmp_path, enc=enc)
    assert len(errors) == 1
    error = errors[0]
    assert error.file == str(tmp_path / "enc.yaml")
    assert error.field == "yaml"
    assert error.line is not None and error.line >= 1
    assert "YAML syntax error" in error.message


def test_yaml_syntax_error_bad_indent_line(tmp_path: Path) -> None:
    enc = ENC.replace("  name: Test", "  name: Test\n bad: indent")
    errors = load_errors(tmp_path, enc=enc)
    assert errors[0].line == line_of(enc, " bad: indent")
    assert errors[0].field == "yaml"


def test_duplicate_key_names_both_lines(tmp_path: Path) -> None:
    lib = LIB.replace("    hp: 30\n", "    hp: 30\n    speed: 6\n    hp: 31\n")
    errors = load_errors(tmp_path, lib=lib)
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "hp: 31"), "creatures[1].hp")
    assert f"duplicate key 'hp' (first at line {line_of(lib, 'hp: 30')})" in error.message


def test_unknown_key_did_you_mean(tmp_path: Path) -> None:
    lib = LIB.replace("    hp: 30\n", "    hp: 30\n    spede: 6\n")
    errors = load_errors(tmp_path, lib=lib)
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "spede"), "creatures[1].spede")
    assert error.message == "unknown key 'spede' (did you mean 'speed'?)"


def test_unknown_key_in_nested_model(tmp_path: Path) -> None:
    lib = LIB.replace("damage: {dice: 1d8+3}", "damage: {dice: 1d8+3, bonsu: 2}")
    errors = load_errors(tmp_path, lib=lib)
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "bonsu"), "powers[1].hit.damage.bonsu")
    assert error.message == "unknown key 'bonsu' (did you mean 'bonus'?)"


def test_wrong_type(tmp_path: Path) -> None:
    lib = LIB.replace("    hp: 30\n", "    hp: six\n")
    errors = load_errors(tmp_path, lib=lib)
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "hp: six"), "creatures[1].hp")
    assert error.message == "expected an integer, got 'six'"


def test_missing_required_field(tmp_path: Path) -> None:
    lib = LIB.replace("    name: Orc\n", "")
    errors = load_errors(tmp_path, lib=lib)
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "id: orc"), "creatures[1].name")
    assert error.message == "required field missing"


def test_out_of_range_negative_speed(tmp_path: Path) -> None:
    lib = LIB.replace("    hp: 30\n", "    hp: 30\n    speed: -2\n")
    errors = load_errors(tmp_path, lib=lib)
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "speed: -2"), "creatures[1].speed")
    assert error.message == "must be >= 0 (got -2)"


def test_literal_did_you_mean(tmp_path: Path) -> None:
    lib = LIB.replace("    name: Club\n", "    name: Club\n    kind: mele\n")
    errors = load_errors(tmp_path, lib=lib)
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "kind: mele"), "powers[1].kind")
    assert error.message == (
        "must be one of: melee, ranged, close, area, personal (got 'mele'; did you mean 'melee'?)"
    )


def test_model_rule_reported_at_the_model(tmp_path: Path) -> None:
    lib = LIB.replace("    defenses: {ac: 15, fortitude: 14, reflex: 12, will: 12}\n", "")
    errors = load_errors(tmp_path, lib=lib)
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "id: orc"), "creatures[1]")
    assert "a monster needs `defenses`" in error.message


def test_unknown_condition_points_at_the_item(tmp_path: Path) -> None:
    lib = LIB.replace(
        "      damage: {dice: 1d8+3}\n",
        "      damage: {dice: 1d8+3}\n      effects:\n        - duration: save_ends\n"
        "          conditions:\n            - dazed\n            - slowd\n",
    )
    errors = load_errors(tmp_path, lib=lib)
    field = "powers[1].hit.effects[0].conditions[1]"
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "- slowd"), field)
    assert error.message == "unknown condition 'slowd' (did you mean 'slowed'?)"


def test_bad_id_pattern(tmp_path: Path) -> None:
    enc = ENC.replace("{id: o1,", "{id: Orc One,")
    errors = load_errors(tmp_path, enc=enc)
    error = find(errors, tmp_path / "enc.yaml", line_of(enc, "Orc One"), "combatants[1].id")
    assert "must be an id" in error.message and "'Orc One'" in error.message


def test_unknown_creature_reference(tmp_path: Path) -> None:
    enc = ENC.replace("creature: orc,", "creature: orcc,")
    errors = load_errors(tmp_path, enc=enc)
    error = find(errors, tmp_path / "enc.yaml", line_of(enc, "orcc"), "combatants[1].creature")
    assert error.message == "unknown creature 'orcc' (did you mean 'orc'?)"


def test_unknown_power_reference(tmp_path: Path) -> None:
    lib = LIB.replace("powers: [club]", "powers: [clubb]")
    errors = load_errors(tmp_path, lib=lib)
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "[clubb]"), "creatures[1].powers[0]")
    assert error.message == "unknown power 'clubb' (did you mean 'club'?)"


def test_missing_weapon_reference(tmp_path: Path) -> None:
    lib = LIB.replace("    keywords: [weapon]\n", "    keywords: [weapon]\n    weapon: axe\n")
    errors = load_errors(tmp_path, lib=lib)
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "[slash]"), "creatures[0].powers[0]")
    assert "needs weapon 'axe'" in error.message and "sword" in error.message


def test_weapon_dice_without_a_weapon(tmp_path: Path) -> None:
    lib = LIB.replace("      - {id: sword, name: sword, dice: 1d8, proficiency: 3}\n", "")
    lib = lib.replace("    weapons:\n", "")
    errors = load_errors(tmp_path, lib=lib)
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "[slash]"), "creatures[0].powers[0]")
    assert "[W]" in error.message and "has no weapon" in error.message


def test_weapon_dice_in_a_non_weapon_power(tmp_path: Path) -> None:
    lib = LIB.replace("damage: {dice: 1d8+3}", 'damage: {dice: "2[W]+3"}')
    errors = load_errors(tmp_path, lib=lib)
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "2[W]+3"), "powers[1].hit.damage.dice")
    assert "only allowed in weapon damage" in error.message


def test_bad_dice_text(tmp_path: Path) -> None:
    lib = LIB.replace("damage: {dice: 1d8+3}", "damage: {dice: 1d8+x}")
    errors = load_errors(tmp_path, lib=lib)
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "1d8+x"), "powers[1].hit.damage.dice")
    assert "bad dice expression '1d8+x'" in error.message


def test_bad_weapon_dice(tmp_path: Path) -> None:
    lib = LIB.replace("dice: 1d8, proficiency: 3", "dice: 1q8, proficiency: 3")
    errors = load_errors(tmp_path, lib=lib)
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "1q8"), "creatures[0].weapons[0].dice")
    assert "bad dice expression" in error.message


def test_duplicate_creature_id_in_one_file(tmp_path: Path) -> None:
    lib = LIB.replace("  - id: orc\n", "  - id: hero\n")
    errors = load_errors(tmp_path, lib=lib)
    error = find(errors, tmp_path / "lib.yaml", line_of(lib, "id: hero", 2), "creatures[1].id")
    first = f"{tmp_path / 'lib.yaml'}:{line_of(lib, 'id: hero')}"
    assert error.message == f"duplicate creature id 'hero' (first defined at {first})"


def test_duplicate_power_id_across_files(tmp_path: Path) -> None:
    enc = ENC + "powers:\n  - id: club\n    name: Club 2\n    effect:\n      heal: {dice: 1d4}\n"
    errors = load_errors(tmp_path, enc=enc)
    error = find(errors, tmp_path / "enc.yaml", line_of(enc, "id: club"), "powers[0].id")
    assert "duplicate power id 'club'" in error.message and "lib.yaml:" in error.message


def test_duplicate_combatant_id(tmp_path: Path) -> None:
    enc = ENC.replace("{id: o1,", "{id: h1,")
    errors = load_errors(tmp_path, enc=enc)
    error = find(errors, tmp_path / "enc.yaml", line_of(enc, "creature: orc"), "combatants[1].id")
    assert f"duplicate combatant id 'h1' (first at line {line_of(enc, 'creature: hero')})" in (
        error.message
    )


def test_bad_map_symbol_maps_to_the_file_line(tmp_path: Path) -> None:
    enc = ENC.replace("    #..#..#\n", "    #..X..#\n")
    errors = load_errors(tmp_path, enc=enc)
    error = find(errors, tmp_path / "enc.yaml", line_of(enc, "#..X..#"), "map.grid")
    assert "unknown map symbol 'X'" in error.message and "row 3, column 4" in error.message


def test_ragged_map_row(tmp_path: Path) -> None:
    enc = ENC.replace("    #.....#\n    #######", "    #......#\n    #######")
    errors = load_errors(tmp_path, enc=enc)
    find(errors, tmp_path / "enc.yaml", line_of(enc, "#......#"), "map.grid")


def test_custom_legend_symbol_is_accepted(tmp_path: Path) -> None:
    enc = ENC.replace("    #..#..#\n", "    #..T..#\n").replace(
        "sides:", "  legend:\n    T: {terrain: obstacle, description: table}\nsides:"
    )
    write(tmp_path, {"lib.yaml": LIB, "enc.yaml": enc})
    loaded = load_encounter(tmp_path / "enc.yaml")
    assert loaded.bmap.blocks_movement((3, 2))


@pytest.mark.parametrize(
    ("pos", "fragment"),
    [
        ("[7, 3]", "off the 7x5 map"),
        ("[0, 2]", "on a wall square [0, 2]"),
        ("[3, 2]", "on a wall square [3, 2]"),
        ("[1, 1]", "overlaps combatant 'h1'"),
    ],
    ids=["off-map", "in-outer-wall", "in-inner-wall", "overlap"],
)
def test_bad_position(tmp_path: Path, pos: str, fragment: str) -> None:
    enc = ENC.replace("pos: [5, 3]", f"pos: {pos}")
    errors = load_errors(tmp_path, enc=enc)
    error = find(errors, tmp_path / "enc.yaml", line_of(enc, "creature: orc"), "combatants[1].pos")
    assert fragment in error.message


def test_large_creature_footprint_overlaps_a_wall(tmp_path: Path) -> None:
    lib = LIB.replace("    hp: 30\n", "    hp: 30\n    size: large\n")
    enc = ENC.replace("pos: [5, 3]", "pos: [4, 2]")  # (4,2),(5,2),(4,3),(5,3): clear
    write(tmp_path, {"lib.yaml": lib, "enc.yaml": enc})
    load_encounter(tmp_path / "enc.yaml")
    enc = ENC.replace("pos: [5, 3]", "pos: [2, 2]")  # covers the pillar at (3, 2)
    errors = load_errors(tmp_path, lib=lib, enc=enc)
    error = find(errors, tmp_path / "enc.yaml", line_of(enc, "creature: orc"), "combatants[1].pos")
    assert "2x2 footprint" in error.message and "[3, 2]" in error.message


def test_side_not_declared(tmp_path: Path) -> None:
    enc = ENC.replace("side: foes", "side: fose")
    errors = load_errors(tmp_path, enc=enc)
    error = find(errors, tmp_path / "enc.yaml", line_of(enc, "fose"), "combatants[1].side")
    assert error.message == "side 'fose' is not in `sides` (did you mean 'foes'?)"


def test_implicit_sides_are_ai(tmp_path: Path) -> None:
    enc = ENC.replace("sides:\n  heroes: {control: player}\n  foes: {}\n", "")
    write(tmp_path, {"lib.yaml": LIB, "enc.yaml": enc})
    loaded = load_encounter(tmp_path / "enc.yaml")
    assert [loaded.control(c) for c in loaded.spec.combatants] == ["ai", "ai"]


def test_needs_two_sides(tmp_path: Path) -> None:
    enc = ENC.replace("side: foes", "side: heroes")
    errors = load_errors(tmp_path, enc=enc)
    error = find(errors, tmp_path / "enc.yaml", line_of(enc, "combatants:"), "combatants")
    assert "at least two sides" in error.message


def test_surprise_names_unknown_id(tmp_path: Path) -> None:
    enc = ENC + "surprise:\n  surprised: [heroes, o2]\n"
    errors = load_errors(tmp_path, enc=enc)
    field = "surprise.surprised[1]"
    error = find(errors, tmp_path / "enc.yaml", line_of(enc, "[heroes, o2]"), field)
    assert "'o2' is neither a combatant nor a side" in error.message


def test_include_not_found(tmp_path: Path) -> None:
    enc = ENC.replace("include: [lib.yaml]", "include: [lib.yaml, bestiary/goblin]")
    errors = load_errors(tmp_path, enc=enc)
    error = find(errors, tmp_path / "enc.yaml", line_of(enc, "include:"), "include[1]")
    assert error.message == "cannot find 'bestiary/goblin' (did you mean 'bestiary/goblins'?)"


def test_bad_ruleset_override(tmp_path: Path) -> None:
    write(tmp_path, {"lib.yaml": LIB, "enc.yaml": ENC})
    with pytest.raises(ContentErrors) as info:
        load_encounter(tmp_path / "enc.yaml", ruleset="4sdr")
    assert str(info.value) == (
        f"{tmp_path / 'enc.yaml'}: ruleset: must be one of: ffd20, 4srd, d20srd "
        "(got '4sdr'; did you mean '4srd'?)"
    )


def test_unknown_bundled_encounter() -> None:
    with pytest.raises(ContentErrors) as info:
        load_encounter("defualt")
    assert str(info.value).startswith("defualt: encounter: no bundled encounter 'defualt'")
    assert "did you mean 'default'?" in str(info.value)


def test_all_errors_at_once_one_line_each(tmp_path: Path) -> None:
    lib = LIB.replace("    hp: 30\n", "    hp: six\n    spede: 6\n").replace("[clubb]", "[club]")
    lib = lib.replace("damage: {dice: 1d8+3}", "damage: {dice: 1d8+x}")
    enc = ENC.replace("creature: hero,", "creature: heroo,").replace("#..#..#", "#..X..#")
    errors = load_errors(tmp_path, lib=lib, enc=enc)
    with pytest.raises(ContentErrors) as info:
        load_encounter(tmp_path / "enc.yaml")
    text = str(info.value)
    assert len(errors) == 5
    assert text.count("\n") == 4
    assert "Traceback" not in text
    for line, error in zip(text.splitlines(), info.value.errors, strict=True):
        assert line == f"{error.file}:{error.line}: {error.field}: {error.message}"
        assert error.file.endswith(".yaml") and error.line and error.field and error.message


def test_unreadable_include_does_not_make_every_reference_unknown(tmp_path: Path) -> None:
    lib = LIB.replace("damage: {dice: 1d8+3}", "damage: {dice: 1d8+3")
    errors = load_errors(tmp_path, lib=lib)
    assert [e.field for e in errors] == ["yaml"]
    assert errors[0].file == str(tmp_path / "lib.yaml")


def test_broken_creature_is_not_also_unknown(tmp_path: Path) -> None:
    lib = LIB.replace("    hp: 30\n", "    hp: six\n")
    errors = load_errors(tmp_path, lib=lib)
    assert len(errors) == 1
    assert errors[0].field == "creatures[1].hp"


def test_top_level_must_be_a_mapping(tmp_path: Path) -> None:
    errors = load_errors(tmp_path, enc="- just\n- a list\n")
    assert errors[0].file == str(tmp_path / "enc.yaml")
    assert errors[0].line == 1
    assert errors[0].field == "(file)"


def test_number_where_dice_text_is_expected(tmp_path: Path) -> None:
    lib = LIB.replace("damage: {dice: 1d8+3}", "damage: {dice: 6}")
    errors = load_errors(tmp_path, lib=lib)
    error = find(
        errors, tmp_path / "lib.yaml", line_of(lib, "dice: 6"), "powers[1].hit.damage.dice"
    )
    assert error.message == 'expected a string, got 6 (write it in quotes: "6")'


def test_errors_survive_pickling(tmp_path: Path) -> None:
    errors = load_errors(tmp_path, enc=ENC.replace("creature: orc,", "creature: orcc,"))
    original = ContentErrors(errors)
    copy = pickle.loads(pickle.dumps(original))
    assert str(copy) == str(original)
    assert copy.errors == original.errors


def test_several_errors_in_a_broken_encounter_are_all_found(tmp_path: Path) -> None:
    # The encounter fails validation (round_limit), yet its other parts are still checked.
    enc = ENC.replace("name: test", "name: test\nround_limit: 0")
    enc = enc.replace("creature: orc,", "creature: orcc,").replace("#..#..#", "#..Y..#")
    errors = load_errors(tmp_path, enc=enc)
    file = tmp_path / "enc.yaml"
    find(errors, file, line_of(enc, "round_limit"), "round_limit")
    find(errors, file, line_of(enc, "#..Y..#"), "map.grid")
    find(errors, file, line_of(enc, "orcc"), "combatants[1].creature")
    assert len(errors) == 3
