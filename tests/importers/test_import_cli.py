"""`skirmish import FILE... [-o DIR]`: the report per creature, one line per problem, the
exit status, never a traceback (issue 18)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.importers import GOOD, SAMPLES
from tui.cli import main


def test_import_writes_one_library_per_file_and_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["import", *(str(SAMPLES / n) for n in GOOD), "-o", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        Path(n).stem + ".yaml" for n in GOOD
    )
    assert "Ogre Warhulk -> ogre-warhulk" in out
    assert "level 8 elite brute, 212 hp, AC 22, Fort 23, Ref 18, Will 19" in out
    assert "power Sweeping Club: recharge 5, standard, close blast 2, +9 vs reflex, 2d8+6" in out
    assert "warning: " in out and "Aura: Stench aura 1" in out
    assert "7 creature(s) imported from 6 file(s)" in out
    assert main(["check", *(str(p) for p in tmp_path.iterdir())]) == 0


def test_bad_files_give_one_line_each_and_status_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = SAMPLES / "bad"
    files = [str(bad / n) for n in ("not-xml.dnd4e", "no-defenses.txt", "one-good-one-bad.txt")]
    code = main(["import", *files, "-o", str(tmp_path), "--quiet"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert err.splitlines() == [
        f"error: {bad / 'not-xml.dnd4e'}:1: xml: not well-formed XML: syntax error",
        f"error: {bad / 'no-defenses.txt'}:1: defenses: no defenses (AC, Fortitude, Reflex, "
        "Will) in the stat block",
        f"error: {bad / 'one-good-one-bad.txt'}:15: hp: no number for hp in the source",
    ]
    assert "Traceback" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["one-good-one-bad.yaml"]


def test_a_missing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", str(tmp_path / "nope.dnd4e"), "-o", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.strip() == f"error: {tmp_path / 'nope.dnd4e'}:?: file: no such file"
