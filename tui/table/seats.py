"""Who sits at a table and where its files are.

A seat has an id (what `skirmish join --seat ID` names), the creatures it plays, the OS users
allowed to take it, and a role: `player`, `spectator` (a side's eyes, no hands) or `gm`. The
host checks the OS user at the other end of the socket (SO_PEERCRED) against the seat on
`hello`; with OpenSSH, the seat id comes from the key's forced command, which the player
can't change. Seats come from `--seat ID=USER` options or from a table file (YAML):

    gm: alice             # optional: the OS user of the GM seat (default: the host's)
    group: skirmish       # optional: OS group whose members may reach the socket
    seats:
      kael: bob           # seat kael plays creature kael; OS user bob
      nix: {user: carol, creatures: [nix, tam]}
      watch: {user: dave, side: party}   # a spectator of the party's side

Files (`TableDir`): DIR/table.sock (0600, or 0660 with a group), DIR/private/ (0700): the
table's state (`table.json`: the save and the seats, for `--resume`) and the fight's save.
"""

from __future__ import annotations

import grp
import json
import os
import pwd
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from tui.table.protocol import NAME

Role = Literal["player", "spectator", "gm"]
GM = "gm"


class TableError(ValueError):
    """A bad seat, table file or table directory: one line, naming file:line: field."""


@dataclass(frozen=True)
class Seat:
    id: str
    role: Role
    users: frozenset[int]
    """OS user ids allowed to take this seat."""
    creatures: tuple[str, ...] = ()
    side: str | None = None
    """A spectator's side (whose eyes it looks through)."""
    user_names: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "role": self.role,
            "users": sorted(self.users),
            "creatures": list(self.creatures),
            "side": self.side,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Seat:
        return cls(
            str(d["id"]),
            d["role"],
            frozenset(int(u) for u in d["users"]),
            tuple(str(c) for c in d["creatures"]),
            d.get("side"),
        )


@dataclass
class Seating:
    seats: dict[str, Seat] = field(default_factory=dict)
    group: int | None = None
    """The OS group that may reach the socket (None: the host's user only)."""

    def add(self, seat: Seat, where: str = "--seat") -> None:
        if seat.id in self.seats:
            raise TableError(f"{where}: seat {seat.id!r} is given twice")
        taken = {c: s.id for s in self.seats.values() for c in s.creatures}
        for c in seat.creatures:
            if c in taken:
                raise TableError(f"{where}: creature {c!r} is in seats {taken[c]} and {seat.id}")
        self.seats[seat.id] = seat

    def owner(self, creature: str) -> Seat | None:
        for s in self.seats.values():
            if creature in s.creatures:
                return s
        return None


def uid_of(user: str, where: str) -> int:
    if user.isdigit():
        return int(user)
    try:
        return pwd.getpwnam(user).pw_uid
    except KeyError:
        raise TableError(f"{where}: no OS user {user!r} on this machine") from None


def gid_of(group: str, where: str) -> int:
    try:
        return grp.getgrnam(group).gr_gid
    except KeyError:
        raise TableError(f"{where}: no OS group {group!r} on this machine") from None


def _check_id(text: str, where: str) -> str:
    if not NAME.match(text) or text == GM:
        raise TableError(f"{where}: {text!r} is not a seat id (letters, digits, _ . -)")
    return text


def parse_seat_option(text: str) -> Seat:
    """`--seat ID=USER` (or `--seat ID`: the host's own user, for forced commands on the
    host's account): seat ID plays creature ID."""
    ident, sep, user = text.partition("=")
    where = f"--seat {text}"
    _check_id(ident, where)
    uid = uid_of(user, where) if sep else os.geteuid()
    return Seat(ident, "player", frozenset({uid}), (ident,), None, (user or "",))


def gm_seat(user: str | None) -> Seat:
    uid = uid_of(user, "--gm") if user else os.geteuid()
    return Seat(GM, "gm", frozenset({uid}))


def load_table_file(path: Path) -> tuple[Seating, dict[str, Any]]:
    """The seats and the other settings (`gm`, `encounter`, `seed`) of a table file."""
    from engine.content.errors import ContentErrors
    from engine.content.yamlsrc import parse_yaml

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TableError(f"{path}: can't read it: {exc}") from None
    try:
        doc = parse_yaml(text, str(path))
    except ContentErrors as exc:
        raise TableError(str(exc).splitlines()[0]) from None

    def where(*p: str | int) -> str:
        return f"{path}:{doc.line(p) or '?'}: {'.'.join(str(x) for x in p) or '(file)'}"

    data = doc.data
    if not isinstance(data, dict):
        raise TableError(f"{where()}: expected a mapping with `seats:`")
    unknown = set(data) - {"gm", "group", "seats", "encounter", "seed"}
    if unknown:
        raise TableError(f"{where(sorted(unknown)[0])}: unknown field")
    seating = Seating()
    if data.get("group") is not None:
        seating.group = gid_of(str(data["group"]), where("group"))
    seating.add(gm_seat(str(data["gm"]) if data.get("gm") else None), where("gm"))
    seats = data.get("seats")
    if not isinstance(seats, dict) or not seats:
        raise TableError(f"{where('seats')}: expected a mapping of seat id to user")
    for sid, spec in seats.items():
        here = where("seats", sid)
        seating.add(_seat_from_file(str(sid), spec, lambda *p, s=sid: where("seats", s, *p)), here)
    if data.get("seed") is not None and not isinstance(data["seed"], int):
        raise TableError(f"{where('seed')}: expected a whole number")
    return seating, {k: data[k] for k in ("encounter", "seed") if data.get(k) is not None}


def _seat_from_file(sid: str, spec: Any, where: Any) -> Seat:
    _check_id(sid, where())
    if isinstance(spec, str | int) and not isinstance(spec, bool):
        return Seat(sid, "player", frozenset({uid_of(str(spec), where())}), (sid,))
    if not isinstance(spec, dict):
        raise TableError(f"{where()}: expected a user name or a mapping")
    unknown = set(spec) - {"user", "creatures", "side"}
    if unknown:
        raise TableError(f"{where(sorted(unknown)[0])}: unknown field")
    if not isinstance(spec.get("user"), str | int):
        raise TableError(f"{where('user')}: expected an OS user name")
    uid = uid_of(str(spec["user"]), where("user"))
    if spec.get("side") is not None:
        if "creatures" in spec:
            raise TableError(f"{where('side')}: a spectator (side) plays no creatures")
        return Seat(sid, "spectator", frozenset({uid}), (), str(spec["side"]))
    creatures = spec.get("creatures", [sid])
    if not isinstance(creatures, list) or not all(isinstance(c, str) for c in creatures):
        raise TableError(f"{where('creatures')}: expected a list of creature ids")
    return Seat(sid, "player", frozenset({uid}), tuple(creatures))


def check_creatures(seating: Seating, known: dict[str, str], origin: str = "--seat") -> None:
    """Every seat's creatures exist in the fight and are on a side that exists; `origin`
    (the table file, or --seat) starts the error line."""
    sides = set(known.values())
    for s in seating.seats.values():
        for c in s.creatures:
            if c not in known:
                raise TableError(
                    f"{origin}: seat {s.id}: no creature {c!r} in this fight "
                    f"({', '.join(sorted(known))})"
                )
        if s.side is not None and s.side not in sides:
            raise TableError(f"{origin}: seat {s.id}: no side {s.side!r} in this fight")


# --- the table's directory ----------------------------------------------------------------
@dataclass(frozen=True)
class TableDir:
    root: Path

    @classmethod
    def default(cls) -> TableDir:
        from engine.autosave import data_dir

        return cls(data_dir() / "table")

    @property
    def socket(self) -> Path:
        return self.root / "table.sock"

    @property
    def private(self) -> Path:
        return self.root / "private"

    @property
    def state(self) -> Path:
        return self.private / "table.json"

    def prepare(self, group: int | None) -> None:
        """Create the directories with their modes (0700, or 0710 for a group: its members
        may reach the socket by name but not list the directory)."""
        self.root.mkdir(parents=True, exist_ok=True)
        self.private.mkdir(mode=0o700, exist_ok=True)
        os.chmod(self.private, 0o700)
        if group is None:
            os.chmod(self.root, 0o700)
        else:
            os.chown(self.root, -1, group)
            os.chmod(self.root, 0o710)

    def write_state(self, save: Path, seating: Seating, extra: dict[str, Any]) -> None:
        data = {
            "save": str(save),
            "group": seating.group,
            "seats": [s.to_json() for s in seating.seats.values()],
            **extra,
        }
        tmp = self.state.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.state)

    def read_state(self) -> tuple[Path, Seating, dict[str, Any]]:
        try:
            data = json.loads(self.state.read_text(encoding="utf-8"))
            seating = Seating(group=data.get("group"))
            for s in data["seats"]:
                seating.add(Seat.from_json(s), str(self.state))
            return Path(data["save"]), seating, data
        except FileNotFoundError:
            raise TableError(f"{self.state}: no table to resume here (start one first)") from None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise TableError(f"{self.state}: not a table state file: {exc}") from None
