"""The headless commands (`skirmish sim`, `check`, `list`): called in-process through
`tui.cli.main` and as the installed `skirmish` command; logs checked with check_log.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tui.cli import main

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = Path(sys.executable).parent / "skirmish"
CHECK_LOG = ROOT.parent / "shared/conformance/check_log.py"


def run_skirmish(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    if not SKIRMISH.exists():
        pytest.skip(f"the skirmish command is not installed next to {sys.executable}")
    return subprocess.run(
        [str(SKIRMISH), *args], cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )


def check_logs(paths: list[Path]) -> subprocess.CompletedProcess[str]:
    if not CHECK_LOG.is_file():
        pytest.skip(f"the conformance checker is not at {CHECK_LOG} (../shared is missing)")
    return subprocess.run(
        [sys.executable, str(CHECK_LOG), *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


# --- list and check -------------------------------------------------------------------------
def test_list_shows_the_bundled_encounters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    rows = capsys.readouterr().out.splitlines()
    names = [r.split()[0] for r in rows]
    assert "default" in names and len(names) == len(set(names))
    default = next(r for r in rows if r.startswith("default "))
    assert "ffd20" in default and "x" in default.split()[1]


def test_check_passes_every_bundled_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 0
    assert capsys.readouterr().out.strip().endswith("files OK")


def test_check_reports_file_line_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: bad\nmap:\n  name: m\n  grid: |\n    ...\n"
        "combatants:\n  - {id: a, creature: nobody, side: x, pos: [0, 0]}\n"
        "  - {id: b, creature: nobody, side: y, pos: [1, 0], speeed: 3}\n"
    )
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr()
    lines = [ln for ln in out.out.splitlines() if ln.strip()]
    assert lines and all(ln.startswith(f"{bad}:") for ln in lines)
    assert any("speeed" in ln for ln in lines)
    assert "Traceback" not in out.out + out.err


# --- sim --------------------------------------------------------------------------------------
def test_sim_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(
        [
            "sim",
            "default",
            "--runs",
            "2",
            "--seed",
            "3",
            "--jobs",
            "1",
            "--json",
            "--policy",
            "party=naive",
            "--policy",
            "monsters=naive",
        ]
    )
    assert rc == 0
    s = json.loads(capsys.readouterr().out)
    assert s["runs"] == 2 and sum(s["wins"].values()) == 2
    assert set(s["wins"]) == {"party", "monsters", "draw"}
    assert s["illegal_actions"] == 0


def test_sim_writes_one_log_per_run_and_run_i_reproduces_alone(tmp_path: Path) -> None:
    many, one = tmp_path / "many", tmp_path / "one"
    naive = ["--policy", "party=naive", "--policy", "monsters=naive"]
    assert (
        main(
            [
                "sim",
                "default",
                "--runs",
                "3",
                "--seed",
                "10",
                "--jobs",
                "1",
                "--log-dir",
                str(many),
                *naive,
            ]
        )
        == 0
    )
    names = sorted(p.name for p in many.iterdir())
    assert names == ["run-0000-seed-10.jsonl", "run-0001-seed-11.jsonl", "run-0002-seed-12.jsonl"]
    assert (
        main(
            [
                "sim",
                "default",
                "--runs",
                "1",
                "--seed",
                "12",
                "--jobs",
                "1",
                "--log-dir",
                str(one),
                *naive,
            ]
        )
        == 0
    )
    alone = (one / "run-0000-seed-12.jsonl").read_text()

    def untimed_lines(text: str) -> list[dict[str, object]]:  # a decision's `ms` is a clock
        return [{k: v for k, v in json.loads(x).items() if k != "ms"} for x in text.splitlines()]

    assert untimed_lines(alone) == untimed_lines((many / "run-0002-seed-12.jsonl").read_text())
    first = json.loads(alone.splitlines()[0])
    assert first["type"] == "encounter_start" and first["seed"] == 12


def test_sim_with_scripted_dice_starts_with_those_faces(tmp_path: Path) -> None:
    naive = ["--policy", "party=naive", "--policy", "monsters=naive"]
    assert (
        main(
            [
                "sim",
                "default",
                "--runs",
                "1",
                "--seed",
                "1",
                "--jobs",
                "1",
                "--dice",
                "20,19,18",
                "--log-dir",
                str(tmp_path),
                *naive,
            ]
        )
        == 0
    )
    log = [json.loads(x) for x in next(tmp_path.iterdir()).read_text().splitlines()]
    inits = [r["natural"] for r in log if r["type"] == "initiative"][:3]
    assert inits == [20, 19, 18]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        pytest.param(["--runs", "0"], "--runs", id="runs-at-least-1"),
        pytest.param(["--runs", "2", "--dice", "3,4"], "--dice", id="dice-only-with-one-run"),
        pytest.param(["--policy", "nobody=naive"], "no side", id="unknown-side"),
    ],
)
def test_sim_refuses_bad_options_with_a_message(
    capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    assert main(["sim", "default", *args]) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_sim_unknown_encounter_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "no-such-fight", "--runs", "1"]) == 1
    err = capsys.readouterr().err
    assert "no-such-fight" in err and "Traceback" not in err


# --- the installed command --------------------------------------------------------------------
def test_installed_command_help() -> None:
    out = run_skirmish("--help")
    assert out.returncode == 0 and "sim" in out.stdout and "check" in out.stdout


@pytest.mark.slow
def test_installed_sim_logs_pass_check_log(tmp_path: Path) -> None:
    """`skirmish sim default --runs 20 --seed 1 --jobs 1 --log-dir tmp`, then check_log.py
    on its logs (tests/soak/soak_conformance.py runs the full 200)."""
    out = run_skirmish(
        "sim",
        "default",
        "--runs",
        "20",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--log-dir",
        "tmp",
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert "20 fights" in out.stdout
    logs = sorted((tmp_path / "tmp").glob("run-*-seed-*.jsonl"))
    assert len(logs) == 20
    checked = check_logs(logs)
    assert checked.returncode == 0, checked.stdout[-3000:]
    assert checked.stdout.strip().splitlines()[-1] == "20 passed, 0 failed"


def test_installed_check_and_list() -> None:
    assert run_skirmish("check").returncode == 0
    out = run_skirmish("list")
    assert out.returncode == 0 and "default" in out.stdout
    bad = run_skirmish("sim", "no-such-fight")
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
