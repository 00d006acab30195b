"""Hostile content (issue 17, "Content"): every finding of the content fuzzer, refused with one
`file:line: field: message`, never a traceback, a hang or a raw control character.

Each test is named after the finding it pins. The limits themselves live in
`engine.content.limits` and are documented in docs/content.md.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from engine.content import ContentError, ContentErrors, load_encounter, load_library
from engine.content.bundled import check_files
from engine.content.limits import (
    MAX_COMBATANTS,
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_MAP_SIDE,
    MAX_NAME,
    MAX_VALUES,
)
from engine.dice import EXACT_WORK, DiceExpr
from tests.support.content_errors import ENC, LIB, line_of, load_errors


def check_one(
    tmp_path: Path, text: str, name: str = "x.yaml", whole_file: bool = False
) -> list[ContentError]:
    """The errors of one file; each names a line (`whole_file`: or none, when the file as a
    whole could not be read) and prints nothing unprintable."""
    target = tmp_path / name
    target.write_text(text, encoding="utf-8")
    errors = check_files([target])
    assert errors, "expected the file to be refused"
    for e in errors:
        shown = str(e)
        assert ":?:" not in shown
        assert shown.isprintable(), f"unprintable character in {shown!r}"
        assert (whole_file and e.line is None) or (e.line is not None and e.line >= 1)
    return errors


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x7f", "\x9b", "\x07"])
def test_raw_control_character_is_an_error_at_its_line(tmp_path: Path, char: str) -> None:
    errors = check_one(tmp_path, f"creatures: []\npowers: []\nname: a{char}b\n")
    assert errors[0].line == 3
    assert f"U+{ord(char):04X}" in errors[0].message


@pytest.mark.parametrize(
    "value",
    [
        "!!float y",
        "!!bool maybe",
        "!!int x",
        "!!timestamp 2001-13-45",
        "!!binary x",
        "!!timestamp 2001-13-45, cuts",  # found by the fuzzer: AttributeError in PyYAML
    ],
)
def test_explicit_tag_with_bad_value(tmp_path: Path, value: str) -> None:
    errors = check_one(tmp_path, f"creatures: []\npowers:\n  - id: {value}\n")
    assert errors[0].line == 3
    assert "cannot read this value" in errors[0].message


def test_deep_flow_nesting_is_refused_not_a_recursion_error(tmp_path: Path) -> None:
    errors = check_one(tmp_path, "a: " + "[" * 1000 + "]" * 1000 + "\n")
    assert f"nested more than {MAX_DEPTH} levels" in errors[0].message


def test_deep_block_nesting_is_refused(tmp_path: Path) -> None:
    text = "".join("  " * i + f"k{i}:\n" for i in range(400))
    errors = check_one(tmp_path, text)
    assert errors[0].line == MAX_DEPTH
    assert len(errors[0].field) < 200


def test_recursive_merge_is_refused(tmp_path: Path) -> None:
    errors = check_one(tmp_path, "a: &a {b: 1, <<: *a}\n")
    assert any("merge" in e.message for e in errors)


def test_billion_laughs_is_refused_quickly(tmp_path: Path) -> None:
    lines = ["a: &a [x,x,x,x,x,x,x,x,x,x]"]
    for i in range(1, 10):
        prev, cur = chr(96 + i), chr(97 + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 10) + "]")
    start = time.perf_counter()
    errors = check_one(tmp_path, "\n".join(lines) + "\n")
    assert time.process_time() >= 0 and time.perf_counter() - start < 5
    assert f"a load may read {MAX_VALUES}" in errors[0].message


def test_values_of_includes_count_together(tmp_path: Path) -> None:
    # Each library alone is under the limit; together they are over it.
    per = MAX_VALUES // 3
    big = "creatures: []\npowers: []\nextra: [" + ",".join(["1"] * per) + "]\n"
    for i in range(4):
        (tmp_path / f"l{i}.yaml").write_text(big, encoding="utf-8")
    enc = ENC.replace("include: [lib.yaml]", "include: [lib.yaml, l0, l1, l2, l3]")
    errors = load_errors(tmp_path, enc=enc)
    assert any("a load may read" in e.message for e in errors)


def test_file_too_large_is_refused_without_parsing(tmp_path: Path) -> None:
    errors = check_one(tmp_path, "# " + "x" * MAX_FILE_BYTES + "\n", whole_file=True)
    assert "a content file may be" in errors[0].message


def test_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    start = time.perf_counter()
    errors = check_files([fifo])
    assert time.perf_counter() - start < 2
    assert "not a regular file" in errors[0].message
    with pytest.raises(ContentErrors, match="not a regular file"):
        load_encounter(fifo)


def test_device_is_refused() -> None:
    errors = check_files(["/dev/zero"])
    assert "not a regular file" in errors[0].message


@pytest.mark.parametrize("text", ["", "# only a comment\n", "~\n", "\n\n"])
def test_empty_comment_only_or_null_file_names_line_1(tmp_path: Path, text: str) -> None:
    errors = check_one(tmp_path, text)
    assert errors[0].line == 1


def test_error_never_prints_a_raw_escape_from_a_legend_key(tmp_path: Path) -> None:
    legend = '  legend:\n    "\\e": {terrain: wall}\n'
    enc = ENC.replace("    #######\nsides", "    #######\n" + legend + "sides")
    assert "legend" in enc
    errors = load_errors(tmp_path, enc=enc)
    assert all(str(e).isprintable() for e in errors)
    assert any("\\x1b" in str(e) or "U+001B" in str(e) for e in errors)


def test_map_too_large_is_refused_before_it_is_built(tmp_path: Path) -> None:
    side = MAX_MAP_SIDE + 1
    grid = "".join("    " + "." * side + "\n" for _ in range(side))
    enc = ENC.replace("    #######\n    #.....#\n    #..#..#\n    #.....#\n    #######\n", grid)
    start = time.perf_counter()
    errors = load_errors(tmp_path, enc=enc)
    assert time.perf_counter() - start < 2
    error = next(e for e in errors if e.field == "map.grid")
    assert f"at most {MAX_MAP_SIDE}" in error.message
    assert error.line == line_of(enc, "." * side, nth=MAX_MAP_SIDE + 1)


def test_too_many_combatants(tmp_path: Path) -> None:
    rows = "".join(f"  - {{id: o{i}, creature: orc, side: foes, pos: [1, 1]}}\n" for i in range(70))
    enc = ENC + rows
    errors = load_errors(tmp_path, enc=enc)
    assert any(
        e.field == "combatants" and f"at most {MAX_COMBATANTS} items" in e.message for e in errors
    )


def test_name_too_long(tmp_path: Path) -> None:
    lib = LIB.replace("name: Orc", "name: " + "O" * (MAX_NAME + 1))
    errors = load_errors(tmp_path, lib=lib)
    assert any(
        e.field == "creatures[1].name" and f"at most {MAX_NAME} characters" in e.message
        for e in errors
    )


@pytest.mark.parametrize("char", ["\x1b", "\u202e", "\u200b", "\x07"])
def test_name_with_control_or_invisible_character(tmp_path: Path, char: str) -> None:
    escaped = {"\x1b": "\\e", "\u202e": "\\u202e", "\u200b": "\\u200b", "\x07": "\\a"}[char]
    lib = LIB.replace("name: Orc", f'name: "O{escaped}rc"')
    errors = load_errors(tmp_path, lib=lib)
    error = next(e for e in errors if e.field == "creatures[1].name")
    assert f"U+{ord(char):04X}" in error.message
    assert str(error).isprintable()


def test_ruinous_dice_are_fast_for_the_ai_odds() -> None:
    text = "+".join(["200d1000"] * 6)
    assert len(text) < 60
    expr = DiceExpr.parse(text)
    start = time.perf_counter()
    for n in range(0, 1_200_000, 10_000):
        p = expr.prob_at_least(n)
        assert 0.0 <= p <= 1.0
    assert time.perf_counter() - start < 1
    assert not expr.exact_odds


def test_approximate_odds_are_close_where_exact_ones_stop() -> None:
    # The largest 1dN-sum still exact, against the approximation at every total.
    from engine.dice import _approx_at_least, _table

    expr = DiceExpr.parse("40d20")
    assert expr.exact_odds
    low, _, at_least = _table(expr)
    worst = max(abs(_approx_at_least(expr, low + i) - p) for i, p in enumerate(at_least))
    assert worst < 0.002
    assert EXACT_WORK >= 15_000


def test_creature_without_powers_simulates(tmp_path: Path) -> None:
    from ai.sim import Job, run_many

    lib = LIB.replace("    powers: [club]\n", "").replace("    powers: [slash]\n", "")
    (tmp_path / "lib.yaml").write_text(lib, encoding="utf-8")
    (tmp_path / "enc.yaml").write_text(ENC.replace("control: player", "control: ai"))
    loaded = load_encounter(tmp_path / "enc.yaml")
    assert all(not c.powers for c in loaded.creatures.values())
    jobs = [
        Job(str(tmp_path / "enc.yaml"), i, i, {"heroes": "naive", "foes": "naive"}, None, None)
        for i in range(10)
    ]
    results = run_many(jobs, 1)
    assert len(results) == 10


def test_library_loader_refuses_the_same_way(tmp_path: Path) -> None:
    (tmp_path / "l.yaml").write_text("creatures: [\x1b]\n", encoding="utf-8")
    with pytest.raises(ContentErrors) as info:
        load_library(tmp_path / "l.yaml")
    assert str(info.value).isprintable()


def test_docs_list_the_limits_the_code_has() -> None:
    from engine.content.docs import LIMITS_END, LIMITS_START, limits_markdown

    text = (Path(__file__).resolve().parents[2] / "docs" / "content.md").read_text()
    start = text.index(LIMITS_START) + len(LIMITS_START)
    assert text[start : text.index(LIMITS_END)] == "\n" + limits_markdown()
