"""Identity can't be forged: two throwaway OS users, a host run by a third (the GM), and a
hand-written client running as each user (a forked child that drops to that user).

Bob's client tries to take Alice's seat and the GM's, to act for Alice's creature, to undo,
to step the AI, to hand creatures over, to read another seat's view and the host's files:
each attempt is refused with a clear code, and the save is byte for byte unchanged. A third
user outside the table's group can't even reach the socket. Alice, on her turn, acts.

Needs root (to create the users and group with useradd/groupadd); skipped otherwise.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.table import AMBUSH, HostProc, RawSeat, play_until_turn, wait_save

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(
        os.geteuid() != 0 or shutil.which("useradd") is None or shutil.which("groupadd") is None,
        reason="needs root and useradd/groupadd to create two throwaway OS users",
    ),
]


def _run(*cmd: str) -> None:
    subprocess.run(cmd, check=True, capture_output=True)


@pytest.fixture
def users() -> Iterator[dict[str, int]]:
    """alice and bob in the table's group, carol outside it; deleted afterwards."""
    tag = f"{os.getpid() % 100000}"
    names = {
        "group": f"skt{tag}g",
        "alice": f"skt{tag}a",
        "bob": f"skt{tag}b",
        "carol": f"skt{tag}c",
    }
    _run("groupadd", names["group"])
    made: list[str] = []
    try:
        for who in ("alice", "bob", "carol"):
            extra = ["-G", names["group"]] if who != "carol" else []
            _run("useradd", "-M", "-N", "-s", "/usr/sbin/nologin", *extra, names[who])
            made.append(names[who])
        import grp
        import pwd

        ids = {who: pwd.getpwnam(names[who]).pw_uid for who in ("alice", "bob", "carol")}
        ids["gid"] = grp.getgrnam(names["group"]).gr_gid
        yield {**ids, "names": names}  # type: ignore[dict-item]
    finally:
        for name in made:
            subprocess.run(["userdel", name], capture_output=True)
        subprocess.run(["groupdel", names["group"]], capture_output=True)


def as_user(uid: int, gid: int, groups: list[int], body: Callable[[], dict[str, Any]]) -> Any:
    """Run `body` in a forked child that has become OS user `uid`; its result (JSON)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop root for good, then play the hand-written client
        os.close(r)
        try:
            os.setgroups(groups)
            os.setgid(gid)
            os.setuid(uid)
            out = body()
        except BaseException as exc:
            out = {"crash": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()}
        os.write(w, json.dumps(out).encode())
        os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 65536):
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    return json.loads(data)


@pytest.fixture
def table(users: dict[str, Any]) -> Iterator[HostProc]:
    top = Path(tempfile.mkdtemp(prefix="skirmish-identity-"))
    os.chmod(top, 0o711)  # others may pass through to the table's directory, not list it
    names = users["names"]
    args = [AMBUSH, "--seed", "5", "--pace", "0", "--group", names["group"]]
    args += ["--seat", f"kara={names['alice']}", "--seat", f"brak={names['bob']}"]
    host = HostProc(top / "table", top / "data", args)
    wait_save(host.root)
    try:
        yield host
    finally:
        host.kill()
        shutil.rmtree(top, ignore_errors=True)


def bob_tries_everything(sock: Path, root: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    s = RawSeat(sock)
    out["hello kara"] = s.hello("kara").get("code")
    s.close()
    s = RawSeat(sock)
    out["hello gm"] = s.hello("gm").get("code")
    s.close()
    s = RawSeat(sock)
    out["hello brak"] = s.hello("brak")["t"]
    view = play_until_turn(s, {"kara"})
    out["sees"] = sorted(view["creatures"])
    attempts: dict[str, tuple[str, dict[str, Any]]] = {
        "act for kara": ("act", {"action": {"action": "end_turn"}}),
        "attack as kara": (
            "act",
            {"action": {"action": "power", "power": "fira", "targets": ["gob-1"]}},
        ),
        "aim as kara": ("aim", {"mode": "basic"}),
        "undo": ("undo", {}),
        "redo": ("redo", {}),
        "step": ("step", {}),
        "step mode": ("step_mode", {"on": True}),
        "take kara": ("control", {"creature": "kara", "to": "player"}),
        "kara to ai": ("control", {"creature": "kara", "to": "ai"}),
        "read kara's view": ("view", {"seat": "kara"}),
        "read gm's view": ("view", {"seat": "gm"}),
        "answer": ("answer", {"value": True}),
        "hello again as gm": ("hello", {"seat": "gm"}),
    }
    for name, (t, fields) in attempts.items():
        s.send(t, **fields)
        got = s.until("refused", "error")
        out[name] = [got["code"], got["reason"]]
    for what, path in (("list table dir", root), ("list private", root / "private")):
        try:
            os.listdir(path)
            out[what] = "allowed"
        except PermissionError:
            out[what] = "denied"
    saves = [p for p in (root / "private").glob("*")] if out["list private"] == "allowed" else []
    out["saves seen"] = len(saves)
    s.close()
    return out


def test_one_player_cannot_act_undo_claim_gm_or_peek(
    table: HostProc, users: dict[str, Any]
) -> None:
    gid = users["gid"]
    before = table.save_digest()
    got = as_user(users["bob"], gid, [gid], lambda: bob_tries_everything(table.socket, table.root))
    assert "crash" not in got, got
    assert got["hello kara"] == "not-your-seat"
    assert got["hello gm"] == "not-your-seat"
    assert got["hello brak"] == "welcome"
    assert "shade-1" not in got["sees"] and "brak" in got["sees"]
    for name in ("act for kara", "attack as kara", "aim as kara"):
        assert got[name][0] == "not-your-creature", name
    for name in ("undo", "redo", "step", "step mode", "take kara", "kara to ai"):
        assert got[name][0] == "gm-only", name
    assert got["read kara's view"][0] == "hidden"
    assert got["read gm's view"][0] == "hidden"
    assert got["answer"][0] == "no-question"
    assert got["hello again as gm"][0] == "seat-taken"
    assert got["list table dir"] == "denied" and got["list private"] == "denied"
    assert table.save_digest() == before, "a refused attempt changed the fight"


def test_outsiders_cannot_reach_the_socket(table: HostProc, users: dict[str, Any]) -> None:
    def connect() -> dict[str, Any]:
        try:
            RawSeat(table.socket)
        except PermissionError:
            return {"connect": "denied"}
        return {"connect": "allowed"}

    carol = users["carol"]
    assert as_user(carol, carol, [], connect) == {"connect": "denied"}
    assert oct(table.socket.stat().st_mode & 0o777) == "0o660"
    assert oct(table.root.stat().st_mode & 0o777) == "0o710"


def test_the_right_player_acts_on_her_turn(table: HostProc, users: dict[str, Any]) -> None:
    gid = users["gid"]

    def alice() -> dict[str, Any]:
        s = RawSeat(table.socket)
        welcome = s.hello("kara")
        play_until_turn(s, {"kara"})
        s.send("act", action={"action": "end_turn"})
        got = s.until("update", "refused")
        return {
            "welcome": welcome["t"],
            "after": got["t"],
            "current": got.get("view", {}).get("current"),
        }

    before = table.save_digest()
    got = as_user(users["alice"], gid, [gid], alice)
    assert got["welcome"] == "welcome" and got["after"] == "update", got
    assert got["current"] != "kara"
    assert table.save_digest() != before
