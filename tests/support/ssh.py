"""A private OpenSSH server on a loopback port whose keys each carry a forced command: the
way a GM gives each player a seat (`command="skirmish join DIR --seat ID",restrict,pty KEY`).

Built the same way as the app's SSH end-to-end test (tests/tui/test_e2e_ssh.py: throwaway
host and user keys in a temp dir, its own sshd_config, `sshd -D -e`), with one user key per
seat. Used by the table's SSH end-to-end test and by tests/benchmarks/bench_table.py; `Pane`
is a tmux window for the end-to-end test.
"""

from __future__ import annotations

import getpass
import os
import shlex
import shutil
import socket
import subprocess
import time
import uuid
from pathlib import Path

SSHD = "/usr/sbin/sshd"


def have_ssh() -> str | None:
    """Why an SSH test can't run here, or None."""
    if not os.path.exists(SSHD):
        return "needs sshd: apt-get install openssh-server"
    if shutil.which("ssh") is None or shutil.which("ssh-keygen") is None:
        return "needs ssh and ssh-keygen: apt-get install openssh-client"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def keygen(path: Path) -> None:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)


def client(port: int, key: Path) -> list[str]:
    """`ssh -tt` to this user on 127.0.0.1:port with `key` alone, asking nothing (no known
    hosts, no agent, no password prompts)."""
    return [
        "ssh",
        "-tt",
        "-p",
        str(port),
        "-i",
        str(key),
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "LogLevel=ERROR",
        "-o",
        "BatchMode=yes",
        f"{getpass.getuser()}@127.0.0.1",
    ]


class Sshd:
    """sshd on 127.0.0.1:port; `forced[name]` is the command key `name` is forced to run."""

    def __init__(self, root: Path, forced: dict[str, str]) -> None:
        self.dir = root / "ssh"
        self.dir.mkdir(mode=0o700, parents=True)
        keygen(self.dir / "host_key")
        lines = []
        for name, command in forced.items():
            keygen(self.dir / f"key_{name}")
            pub = (self.dir / f"key_{name}.pub").read_text().strip()
            quoted = command.replace("\\", "\\\\").replace('"', '\\"')
            lines.append(f'command="{quoted}",restrict,pty {pub}')
        keys = self.dir / "authorized_keys"
        keys.write_text("\n".join(lines) + "\n")
        os.chmod(keys, 0o600)
        self.port = free_port()
        config = self.dir / "sshd_config"
        config.write_text(
            "\n".join(
                [
                    f"Port {self.port}",
                    "ListenAddress 127.0.0.1",
                    f"HostKey {self.dir / 'host_key'}",
                    f"PidFile {self.dir / 'sshd.pid'}",
                    f"AuthorizedKeysFile {keys}",
                    "StrictModes no",
                    "PubkeyAuthentication yes",
                    "PasswordAuthentication no",
                    "KbdInteractiveAuthentication no",
                    "UsePAM no",
                    "PermitRootLogin prohibit-password",
                    "PrintMotd no",
                    "LogLevel ERROR",
                    "MaxStartups 50",
                ]
            )
            + "\n"
        )
        if os.geteuid() == 0:
            os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
        self.proc = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config)], stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"sshd did not start: {err}")
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("sshd never listened")

    def ssh(self, name: str) -> list[str]:
        """The ssh command line a player runs (the forced command picks the seat)."""
        return client(self.port, self.dir / f"key_{name}")

    def ssh_line(self, name: str) -> str:
        return shlex.join(self.ssh(name))

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stderr is not None:
            self.proc.stderr.close()


def join_command(skirmish: str, table: Path, seat: str, data: Path) -> str:
    """The forced command for a seat's key."""
    return (
        f"TERM=xterm-256color SKIRMISH_DATA_DIR={shlex.quote(str(data))} "
        f"{shlex.quote(skirmish)} join {shlex.quote(str(table))} --seat {seat}"
    )


class Pane:
    """One 80x24 tmux window on a tmux server of its own (keys in, the screen out), as the
    app's end-to-end helper does; here so that the table's tests depend only on this folder."""

    def __init__(self, command: str, width: int = 80, height: int = 24) -> None:
        self.socket = f"skirmish-table-{uuid.uuid4().hex[:8]}"
        self._tmux(
            "-f", os.devnull, "new-session", "-d", "-x", str(width), "-y", str(height),
            "-s", "e2e", "sh", "-c", command,
        )  # fmt: skip
        self._tmux("set-option", "-t", "e2e", "remain-on-exit", "on", check=False)

    def _tmux(self, *args: str, check: bool = True) -> str:
        out = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=check,
            timeout=20,
        )  # fmt: skip
        return out.stdout

    def keys(self, *keys: str) -> None:
        for key in keys:
            self._tmux("send-keys", "-t", "e2e", key)
            time.sleep(0.15)

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "e2e", check=False)

    def pid(self) -> int:
        """The pid of the window's first process."""
        return int(self._tmux("list-panes", "-t", "e2e", "-F", "#{pane_pid}").split()[0])

    def wait_for(self, *texts: str, timeout: float = 20.0) -> str:
        """The screen, once any of `texts` is on it."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if any(t in screen for t in texts):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{texts!r} never appeared; the screen was:\n{screen}")

    def close(self) -> None:
        self._tmux("kill-server", check=False)
