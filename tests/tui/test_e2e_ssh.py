"""End to end over SSH: a real OpenSSH server on a loopback port (started here, with throwaway
host and user keys in a temp dir), `ssh -tt` into the installed `skirmish` from an 80x24 tmux
window, one player turn by keystrokes, and a clean quit (exit status 0 back through ssh).

Needs Debian's `openssh-server` (for /usr/sbin/sshd), `openssh-client` and `tmux`.
Textual draws on stderr, which ssh -tt carries on the pty; OpenSSH does not forward COLORTERM,
so the app sees only TERM (the remote command sets xterm-256color).
"""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.e2e import FIXTURE, Tmux, play_one_turn, skirmish_command, wait_file
from tests.support.ssh import client, free_port, keygen

SSHD = "/usr/sbin/sshd"
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.timeout(120),
    pytest.mark.skipif(
        not os.path.exists(SSHD), reason="needs sshd: apt-get install openssh-server"
    ),
    pytest.mark.skipif(
        shutil.which("ssh") is None or shutil.which("ssh-keygen") is None,
        reason="needs ssh and ssh-keygen: apt-get install openssh-client",
    ),
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux: apt-get install tmux"),
]


@pytest.fixture
def sshd(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """A private sshd on 127.0.0.1:PORT that lets this user in with a fresh key."""
    d = tmp_path / "ssh"
    d.mkdir(mode=0o700)
    keygen(d / "host_key")
    keygen(d / "user_key")
    (d / "authorized_keys").write_text((d / "user_key.pub").read_text())
    os.chmod(d / "authorized_keys", 0o600)
    port = free_port()
    config = d / "sshd_config"
    config.write_text(
        "\n".join(
            [
                f"Port {port}",
                "ListenAddress 127.0.0.1",
                f"HostKey {d / 'host_key'}",
                f"PidFile {d / 'sshd.pid'}",
                f"AuthorizedKeysFile {d / 'authorized_keys'}",
                "StrictModes no",
                "PubkeyAuthentication yes",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "UsePAM no",
                "PermitRootLogin prohibit-password",
                "PrintMotd no",
                "LogLevel ERROR",
            ]
        )
        + "\n"
    )
    if os.geteuid() == 0:
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # privilege separation dir
    proc = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config)], stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(f"sshd did not start: {err}")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield port, d / "user_key"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_play_a_turn_over_ssh(tmp_path: Path, sshd: tuple[int, Path]) -> None:
    port, key = sshd
    status = tmp_path / "status"
    remote = (
        f"cd {shlex.quote(os.getcwd())} && TERM=xterm-256color "
        f"SKIRMISH_DATA_DIR={shlex.quote(str(tmp_path / 'data'))} "
        f"{shlex.quote(skirmish_command())} play {shlex.quote(FIXTURE)} --seed 5 "
        "--pace 0.05"
    )
    ssh = [*client(port, key), remote]
    cmd = f"{shlex.join(ssh)}; echo $? > {shlex.quote(str(status))}"
    tmux = Tmux(80, 24)
    try:
        tmux.start(cmd)
        first = tmux.wait_for("Initiative", timeout=30)
        assert "Test Yard" in first
        screen = play_one_turn(tmux)
        assert "Goblin" in screen
        tmux.keys("q")
        tmux.wait_for("Leave this fight")
        tmux.keys("Enter")
        assert wait_file(status) == "0", tmux.screen()
    finally:
        tmux.close()
