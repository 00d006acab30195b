"""A real `skirmish host` and hand-written seats: who may do what, what each seat sees,
dropping and re-joining, and the small CI runs of the fuzz and SIGKILL soaks."""

from __future__ import annotations

import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.helpers import load_script
from tests.support.table import AMBUSH, HostProc, RawSeat, play_until_turn, wait_save

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def host(tmp_path: Path) -> Iterator[HostProc]:
    args = [AMBUSH, "--seed", "5", "--pace", "0", "--seat", "kara", "--seat", "brak"]
    h = HostProc(tmp_path / "table", tmp_path / "data", args)
    wait_save(h.root)
    try:
        yield h
    finally:
        err = h.stop()
    assert "Traceback" not in err, err  # a clean stop, whatever the seats did


def joined(h: HostProc, seat: str) -> RawSeat:
    s = RawSeat(h.socket)
    got = s.hello(seat)
    assert got["t"] == "welcome", got
    return s


def test_files_are_private_to_the_host(host: HostProc) -> None:
    assert stat.S_IMODE(host.root.stat().st_mode) == 0o700
    assert stat.S_IMODE(host.socket.stat().st_mode) == 0o600
    assert stat.S_IMODE((host.root / "private").stat().st_mode) == 0o700
    assert stat.S_IMODE(host.save().stat().st_mode) == 0o600
    assert host.save().parent == host.root / "private"


def test_host_prints_the_authorized_keys_lines(host: HostProc) -> None:
    for seat in ("kara", "brak", "gm"):
        assert f'join {host.root} --seat {seat}",restrict,pty <{seat}' in host.out


def test_a_player_acts_on_their_turn_and_only_then(host: HostProc) -> None:
    kara, brak = joined(host, "kara"), joined(host, "brak")
    view = play_until_turn(kara, {"kara"})
    assert view["current"] == "kara"
    brak.drain()
    before = host.save_digest()
    for attempt in (
        {"action": "end_turn"},
        {"action": "power", "power": "cleave", "targets": ["gob-1"]},
    ):
        brak.send("act", action=attempt)
        got = brak.until("refused")
        assert got["code"] == "not-your-creature" and "kara" in got["reason"]
    brak.send("aim", mode="basic")
    assert brak.until("refused")["code"] == "not-your-creature"
    for gm_only in ("undo", "redo", "step"):
        brak.send(gm_only)
        assert brak.until("refused")["code"] == "gm-only"
    brak.send("control", creature="kara", to="ai")
    assert brak.until("refused")["code"] == "gm-only"
    brak.send("hello", seat="gm")
    assert brak.until("refused")["code"] == "seat-taken"
    assert host.save_digest() == before

    kara.send("aim", mode="basic")
    aimed = kara.until("aimed")
    assert aimed["action"]["action"] == "power" and "to hit" in aimed["hint"]
    kara.send("act", action=aimed["action"])
    update = kara.until("update")
    assert any("Kara" in line[3] for line in update["lines"])
    assert host.save_digest() != before
    assert update["saved"] >= 2


def test_an_illegal_action_is_refused_by_the_engine(host: HostProc) -> None:
    kara = joined(host, "kara")
    play_until_turn(kara, {"kara"})
    before = host.save_digest()
    kara.send("act", action={"action": "move", "path": [[2, 5], [9, 9]], "mode": "walk"})
    got = kara.until("refused")
    assert got["code"] == "illegal"
    assert host.save_digest() == before


def test_f_mod_11_players_do_not_see_the_invisible_shade_the_gm_does(host: HostProc) -> None:
    kara, gm = joined(host, "kara"), joined(host, "gm")
    kv = play_until_turn(kara, {"kara"})
    gv = play_until_turn(gm, {"kara"})
    assert "shade-1" in gv["creatures"] and "shade-1" in gv["order"]
    assert gv["fog"] is False  # the GM's picture shows the shade, marked hidden to the party
    assert gv["creatures"]["shade-1"]["sight"] == "hidden"
    assert kv["fog"] is True
    assert "shade-1" not in kv["creatures"] and "shade-1" not in kv["order"]
    assert {"gob-1", "gob-2", "kara", "brak"} <= set(kv["creatures"])
    kara.send("view", seat="gm")
    assert kara.until("refused")["code"] == "hidden"
    kara.send("view")
    again = kara.until("update")
    assert "shade-1" not in again["view"]["creatures"]
    assert not any("Shade" in line[3] for line in again["lines"])


def test_gm_acts_for_anyone_undoes_and_hands_a_creature_to_the_ai(host: HostProc) -> None:
    gm = joined(host, "gm")
    play_until_turn(gm, {"kara"})
    gm.send("act", action={"action": "end_turn"})  # the GM may act for any hero
    play_until_turn(gm, {"brak"})
    saved = host.save_digest()
    gm.send("undo")
    got = gm.until("update")
    assert got["reset"] is True and got["view"]["current"] == "kara"
    gm.until("idle")
    assert host.save_digest() != saved  # the undo is in the save too
    gm.send("control", creature="kara", to="ai")
    view = play_until_turn(gm, {"brak"})
    assert view["creatures"]["kara"]["control"] == "ai"
    assert view["current"] == "brak"


def test_a_dropped_seat_rejoins_where_the_fight_is(host: HostProc) -> None:
    kara, gm = joined(host, "kara"), joined(host, "gm")
    play_until_turn(kara, {"kara"})
    kara.close()  # the player's ssh dies
    gm.drain()
    gm.send("act", action={"action": "end_turn"})  # the GM plays on for her
    view = play_until_turn(gm, {"kara", "brak"})
    back = joined(host, "kara")
    got = back.until("update")
    assert got["reset"] is True
    assert got["view"]["round"] == view["round"]
    assert got["view"]["current"] == view["current"]
    assert any("initiative" in line[3] for line in got["lines"])
    # a second join of the same seat takes it over; the first is told and let go
    again = joined(host, "kara")
    assert back.until("bye")["reason"]
    again.send("ping")
    assert again.until("pong")


def test_fuzz_small_no_crash_no_change(tmp_path: Path) -> None:
    fuzz = load_script("soak/soak_table_fuzz.py").fuzz

    got = fuzz(500, seed=3, work=tmp_path)
    assert got["host_crashes"] == 0
    assert got["internal_errors"] == 0
    assert got["state_changes"] == 0
    assert got["replies"].get("error:not-json", 0) > 0
    assert got["replies"].get("refused:gm-only", 0) + got["replies"].get("refused:not-joined", 0)


def test_sigkill_small_loses_no_confirmed_action(tmp_path: Path) -> None:
    soak = load_script("soak/soak_table_kill.py").soak

    got = soak(2, seed=4, work=tmp_path)
    assert got["kills"] == 2 and got["resumes"] == 2
    assert got["confirmed"] >= 2
    assert got["lost"] == 0
    assert " 0 failed" in got["log_check"] or "no fight finished" in got["log_check"], got


def test_aiming_never_names_the_unseen_shade(host: HostProc) -> None:
    kara, gm = joined(host, "kara"), joined(host, "gm")
    play_until_turn(kara, {"kara"})
    play_until_turn(gm, {"kara"})
    counts = {}
    for who, seat in (("kara", kara), ("gm", gm)):
        seat.send("aim", mode="power", power="fira")
        aimed = seat.until("aimed")
        counts[who] = aimed["count"]
        for i in range(aimed["count"]):
            seat.send("aim", mode="power", power="fira", index=i)
            hint = seat.until("aimed")["hint"]
            if who == "kara":
                assert "Shade" not in hint
    assert counts["gm"] == counts["kara"] + 1  # the GM's list has the shade in it
    kara.send("aim", mode="power", power="flame-burst", cursor=[8, 6])
    got = kara.until("aimed")
    assert "Shade" not in got["hint"] and "Shade" not in (got["preview"] or "")
    gm.send("aim", mode="power", power="flame-burst", cursor=[8, 6])
    assert "Shade" in gm.until("aimed")["hint"]  # the same burst, as the GM sees it


def test_manual_dice_are_asked_of_the_creatures_seat_only(tmp_path: Path) -> None:
    args = [AMBUSH, "--seed", "5", "--pace", "0", "--seat", "kara", "--seat", "brak"]
    h = HostProc(tmp_path / "table", tmp_path / "data", [*args, "--manual-dice", "party"])
    try:
        wait_save(h.root)
        kara, brak = joined(h, "kara"), joined(h, "brak")
        first = kara.until("ask")  # initiative: the party's dice are rolled at the table
        assert first["question"]["who"] == "kara" and first["question"]["sides"] == 20
        kara.send("answer", value=20)
        assert brak.until("ask")["question"]["who"] == "brak"
        brak.send("answer", value=1)
        play_until_turn(kara, {"kara"})
        brak.drain()
        kara.send("aim", mode="basic")
        kara.send("act", action=kara.until("aimed")["action"])
        ask = kara.until("ask")
        assert ask["kind"] == "DiceRequest" and ask["question"]["who"] == "kara"
        assert ask["question"]["sides"] == 20
        assert not [m for m in brak.drain() if m["t"] == "ask"]  # not Brak's question
        brak.send("answer", value=20)
        assert brak.until("refused")["code"] == "not-your-creature"
        kara.send("answer", value=21)
        assert kara.until("refused")["code"] == "bad-answer"
        kara.send("answer", value=20)
        lines = [ln[3] for m in kara.drain(0.5) if m["t"] == "update" for ln in m["lines"]]
        assert any("Kara CRITS" in ln or "Kara hits" in ln for ln in lines), lines
    finally:
        h.kill()


def test_a_spectator_sees_its_side_and_acts_for_nobody(tmp_path: Path) -> None:
    seats = tmp_path / "seats.yaml"
    seats.write_text("seats:\n  kara: root\n  brak: root\n  watch: {user: root, side: party}\n")
    h = HostProc(
        tmp_path / "table", tmp_path / "data", [AMBUSH, "--pace", "0", "--table", str(seats)]
    )
    try:
        wait_save(h.root)
        watch = joined(h, "watch")
        view = watch.until("update")["view"]
        assert {"kara", "brak"} <= set(view["creatures"]) and "shade-1" not in view["creatures"]
        watch.send("act", action={"action": "end_turn"})
        assert watch.until("refused")["code"] == "not-your-creature"
    finally:
        h.kill()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("seats: []\n", "seats: expected a mapping"),
        ("seats:\n  kara: nosuchuser\n", "no OS user 'nosuchuser'"),
        ("seats:\n  kara: root\n  kara2: {user: root, creatures: [kara]}\n", "is in seats"),
        ("seats:\n  kara: {user: root, colour: red}\n", "unknown field"),
        ("seats:\n  zed: root\n", "no creature 'zed'"),
        ("seats: {kara: root\n", "seats"),
    ],
)
def test_a_bad_table_file_is_one_line_naming_where(tmp_path: Path, text: str, message: str) -> None:
    import subprocess

    from tests.support.table import skirmish_command

    seats = tmp_path / "seats.yaml"
    seats.write_text(text)
    got = subprocess.run(
        [skirmish_command(), "host", AMBUSH, "--table", str(seats), "--dir", str(tmp_path / "t")],
        capture_output=True,
        text=True,
        timeout=30,
        env={**__import__("os").environ, "SKIRMISH_DATA_DIR": str(tmp_path / "d")},
    )
    assert got.returncode == 1
    assert "Traceback" not in got.stderr
    assert len(got.stderr.strip().splitlines()) == 1, got.stderr
    assert message in got.stderr
    assert str(seats) in got.stderr


def test_an_opportunity_attack_is_asked_of_the_players_seat(host: HostProc) -> None:
    kara, brak, gm = joined(host, "kara"), joined(host, "brak"), joined(host, "gm")
    play_until_turn(gm, {"kara"})
    for cid in ("gob-1", "gob-2", "shade-1"):  # the GM plays the monsters by hand
        gm.send("control", creature=cid, to="player")
    kara.drain()
    kara.send("act", action={"action": "end_turn"})
    while play_until_turn(gm, {"shade-1", "gob-2", "gob-1"})["current"] != "gob-1":
        gm.send("act", action={"action": "end_turn"})  # the shade and Goblin 2 wait
    brak.drain()
    kara.drain()
    # Goblin 1 steps next to Brak and away again: Brak's player decides on the attack
    path = [[6, 2], [5, 2], [4, 2], [4, 1]]
    gm.send("act", action={"action": "move", "path": path, "mode": "walk"})
    ask = brak.until("ask")
    assert ask["kind"] == "OpportunityQuestion"
    assert ask["question"]["who"] == "brak" and ask["question"]["mover"] == "gob-1"
    assert not [m for m in kara.drain(0.3) if m["t"] == "ask"]
    kara.send("answer", value=True)
    assert kara.until("refused")["code"] == "not-your-creature"
    gm.send("control", creature="brak", to="ai")  # while the engine waits: not now
    assert gm.until("refused")["reason"] == "answer the question first"
    brak.send("answer", value="yes")
    assert brak.until("error")["code"] == "bad-field"
    brak.send("answer", value=True)
    lines = [ln[3] for m in brak.drain(0.5) if m["t"] == "update" for ln in m["lines"]]
    assert any(ln.startswith("Brak hits") or ln.startswith("Brak misses") for ln in lines), lines


def test_the_gm_exports_the_log_a_player_cannot(host: HostProc) -> None:
    kara, gm = joined(host, "kara"), joined(host, "gm")
    play_until_turn(gm, {"kara"})
    kara.send("export")
    assert kara.until("refused")["code"] == "gm-only"
    gm.send("export")
    got = gm.until("exported")
    assert got["events"] > 0
    assert Path(got["jsonl"]).parent == host.root / "private"
    assert Path(got["jsonl"]).read_text().count("\n") == got["events"]


def test_resume_of_a_broken_table_is_one_line(tmp_path: Path) -> None:
    import os
    import subprocess

    from tests.support.table import skirmish_command

    env = {**os.environ, "SKIRMISH_DATA_DIR": str(tmp_path / "d")}
    table = tmp_path / "t"

    def resume() -> subprocess.CompletedProcess[str]:
        cmd = [skirmish_command(), "host", "--resume", "--dir", str(table)]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=30, env=env)

    got = resume()  # nothing there yet
    assert got.returncode == 1 and "no table to resume" in got.stderr
    (table / "private").mkdir(parents=True)
    (table / "private" / "table.json").write_text("{not json")
    got = resume()
    assert got.returncode == 1 and "not a table state file" in got.stderr
    save = table / "private" / "x.save.jsonl"
    save.write_text("garbage\n")
    state: dict[str, object] = {"save": str(save), "group": None, "seats": []}
    (table / "private" / "table.json").write_text(__import__("json").dumps(state))
    got = resume()
    assert got.returncode == 1 and str(save) in got.stderr
    for out in (got,):
        assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_a_seat_that_aims_too_fast_is_slowed_down(host: HostProc) -> None:
    kara = joined(host, "kara")
    play_until_turn(kara, {"kara"})
    for _ in range(60):
        kara.send("aim", mode="walk", cursor=[3, 5])
    got = [m for m in kara.drain(0.5) if m["t"] in ("aimed", "refused")]
    assert sum(m["t"] == "aimed" for m in got) <= 40
    assert any(m.get("reason") == "too many aims: slow down" for m in got)
    kara.send("act", action={"action": "end_turn"})  # acting is not limited
    assert kara.until("update")["view"]["current"] != "kara"
