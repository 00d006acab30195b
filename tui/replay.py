"""What the replay viewer steps through: a fight as a list of stops, each with the picture of
the fight after it and the events so far.

Two sources. A save is exact: its records are replayed one by one (the dice they used, the
answers given) and a `View` is taken after each. A JSON Lines combat log (`skirmish sim
--log-dir`, an export) holds events, not actions, so it can't be replayed; the fight is
followed from the events instead (positions from moves, hit points from damage and healing,
states, conditions from effects), with the map and the combatants from its `encounter_start`
line. Either way the viewer is read-only: nothing here can change a fight.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from pathlib import Path
from typing import Any

from engine import events as E
from engine.actions import Action
from engine.encounter import Encounter
from engine.grid import BattleMap, Cell, Obscured, Terrain
from engine.handlers import describe_action
from engine.history import control_of
from engine.logfile import check_start, first_event, read_log_lines
from engine.replay import Replay
from engine.save import SaveError, read_save, replay_failure
from engine.savecheck import loads
from tui.glyphs import friendly_sides, token_letters
from tui.logtext import Names, names_of_encounter
from tui.view import CreatureView, EffectView, View, take

Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Stop:
    """One step of a replay: the fight just after one action (or the start)."""

    label: str
    """What happened, in a few words ("Kara: walk to 4,5")."""
    round: int
    events: int
    """How many events of the log have happened by then."""


@dataclass
class Timeline:
    """A fight to step through: `stops[k]` and `view(k)` are the fight after stop k."""

    title: str
    source: Path
    bmap: BattleMap
    names: Names
    events: list[E.Logged]
    stops: list[Stop]
    _view: Callable[[int], View]
    exact: bool = True
    """Rebuilt from a save's records (False: followed from a log's events)."""

    def view(self, k: int) -> View:
        return self._view(k)

    def stop_of_round(self, rnd: int) -> int | None:
        """The first stop in round `rnd` (None if the fight never got there)."""
        return next((i for i, s in enumerate(self.stops) if s.round >= rnd), None)


def load_timeline(path: str | Path) -> Timeline:
    """A save or a combat log; SaveError (one line) if it is neither or is damaged."""
    path = Path(path)
    try:
        save = read_save(path)
    except SaveError as exc:
        if not exc.what.startswith("not a Skirmish save"):
            raise
        return log_timeline(path)
    enc = save.encounter()
    try:
        return save_timeline(enc, path)
    except Exception as exc:  # the viewer replays with the recorded dice only: say why not
        raise SaveError(path, replay_failure(exc)) from None


# --- saves: exact ---------------------------------------------------------------------------
def describe(action: Action | None, actor: str | None, names: Names) -> str:
    """An action in a few words, with the names a person knows (its handler's `describe`)."""
    if action is None:
        return "the fight starts"
    return describe_action(action, names.who(actor), names)


def save_timeline(enc: Encounter, source: Path) -> Timeline:
    """Step through `enc`'s records (the engine's one replay loop), a view taken after each."""
    control = control_of(enc)
    replay = Replay(
        enc.loaded,
        enc.records,
        seed=enc.seed,
        control=control,
        ruleset=enc.ruleset_name,
        exact=True,
    )
    names = names_of_encounter(enc)
    stops: list[Stop] = []
    views: list[View] = []
    before = 0  # the round each record was taken in: an end of turn that starts round 4
    for step in replay:  # was taken in round 3 (the start: the round it begins)
        b = step.enc.battle
        taken_in = b.round if step.record.action is None else before
        stops.append(Stop(describe(step.record.action, step.actor, names), taken_in, len(b.log)))
        views.append(take(step.enc))
        before = b.round
    log = list(replay.enc.log)
    return Timeline(
        enc.loaded.source, source, enc.loaded.bmap, names, log, stops, views.__getitem__
    )


# --- combat logs: followed from the events ------------------------------------------------
EVENT_TYPES: dict[str, type[E.Event]] = {
    cls.type: cls
    for cls in vars(E).values()
    if isinstance(cls, type) and issubclass(cls, E.Event) and cls is not E.Event
}


def _convert(value: Any, hint: Any) -> Any:
    """A JSON value as the event dataclass holds it (tuples, Mods, squares)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is E.Mod and isinstance(value, dict):
        return E.Mod(str(value["source"]), int(value["value"]))
    if origin is tuple and isinstance(value, list):
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(v, args[0]) for v in value)
        return tuple(_convert(v, a) for v, a in zip(value, args, strict=False))
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        for a in args:
            if a is not type(None):
                return _convert(value, a)
    return value


def logged_from_json(d: dict[str, Any]) -> E.Logged:
    """One log line back into the event the engine wrote (KeyError/ValueError/TypeError if
    it is not one; fields beyond those the engine knows are left out)."""
    cls = EVENT_TYPES[d["type"]]
    hints = typing.get_type_hints(cls)
    kwargs = {}
    for f in fields(cls):
        if f.name in d:
            kwargs[f.name] = _convert(d[f.name], hints[f.name])
        elif f.default is MISSING and f.default_factory is MISSING:
            raise KeyError(f.name)
    by = d.get("rolled_by")
    by = by if by in ("table", "app", "mixed") else None
    return E.Logged(int(d["seq"]), int(d["round"]), cls(**kwargs), by)


TERRAIN_CELL: dict[str, dict[str, Any]] = {
    "wall": {"terrain": Terrain.WALL},
    "pillar": {"terrain": Terrain.PILLAR},
    "obstacle": {"terrain": Terrain.OBSTACLE},
    "pit": {"terrain": Terrain.PIT, "depth": 10},
    "difficult": {"difficult": True},
    "lightly_obscured": {"obscured": Obscured.LIGHT},
    "heavily_obscured": {"obscured": Obscured.HEAVY},
    "totally_obscured": {"obscured": Obscured.TOTAL},
}


def map_from_log(m: dict[str, Any]) -> BattleMap:
    width, height = int(m["width"]), int(m["height"])
    cells: dict[Square, dict[str, Any]] = {}
    for kind, squares in (m.get("terrain") or {}).items():
        for x, y in squares:
            cells.setdefault((x, y), {}).update(TERRAIN_CELL.get(kind, {}))
    grid = [Cell(**cells.get((x, y), {})) for y in range(height) for x in range(width)]
    return BattleMap(width, height, grid, str(m.get("name", "")))


@dataclass
class _Creature:
    info: dict[str, Any]
    pos: Square
    hp: int
    temp_hp: int = 0
    state: str = "healthy"
    delayed: bool = False


class LogFollower:
    """The fight as its events tell it, one event at a time."""

    def __init__(self, start: E.EncounterStart) -> None:
        # Schema 2 logs say the state each creature starts in (a fight that starts mid-way);
        # a version-1 log's creatures all start unhurt.
        self.creatures = {
            c["id"]: _Creature(
                c,
                (int(c["pos"][0]), int(c["pos"][1])),
                int(c["hp"]),
                int(c.get("temp_hp", 0)),
                str(c.get("state", "healthy")),
            )
            for c in start.combatants
        }
        # Schema 2: reinforcements are off the map until their `arrive` line.
        self.waiting = {
            cid: self.creatures.pop(cid)
            for cid, c in list(self.creatures.items())
            if c.info.get("arrives_round") is not None
        }
        friends = friendly_sides(
            [(str(c.get("side", "")), bool(c.get("pc"))) for c in start.combatants]
        )
        self.friends = friends
        self.letters = token_letters(
            [
                (c["id"], c.get("name", c["id"]), str(c.get("side", "")) in friends)
                for c in start.combatants
            ]
        )
        self.effects: dict[str, E.EffectStart] = {}
        self.round = 0
        self.current: str | None = None
        self.order: tuple[str, ...] = tuple(self.creatures)
        self.end: E.EncounterEnd | None = None

    def feed(self, item: E.Logged) -> None:
        ev = item.event
        self.round = item.round
        c = self.creatures.get(getattr(ev, "id", None) or getattr(ev, "target", None) or "")
        if isinstance(ev, E.Arrive) and ev.id in self.waiting:
            self.creatures[ev.id] = self.waiting.pop(ev.id)
        if isinstance(ev, E.InitiativeOrder):
            self.order = ev.order
        elif isinstance(ev, E.TurnStart) and c is not None:
            self.current = ev.id
            c.delayed = False
        elif isinstance(ev, E.TurnEnd) and c is not None:
            c.delayed = ev.delayed
            self.current = None
        elif isinstance(ev, E.Moved) and c is not None and ev.path:
            c.pos = (int(ev.path[-1][0]), int(ev.path[-1][1]))
        elif isinstance(ev, E.Damage) and c is not None:
            c.hp, c.temp_hp = ev.hp_after, ev.temp_hp_after
        elif isinstance(ev, E.Heal) and c is not None:
            c.hp = ev.hp_after
        elif isinstance(ev, E.TempHp) and c is not None:
            c.temp_hp = ev.temp_hp
        elif isinstance(ev, E.StateChange) and c is not None:
            c.state, c.hp = ev.state, ev.hp
        elif isinstance(ev, E.EffectStart):
            self.effects[ev.effect] = ev
        elif isinstance(ev, E.EffectEnd):
            self.effects.pop(ev.effect, None)
        elif isinstance(ev, E.EncounterEnd):
            self.end = ev
            self.current = None

    def view(self) -> View:
        out: dict[str, CreatureView] = {}
        for cid, c in self.creatures.items():
            info = c.info
            mine = [e for e in self.effects.values() if e.target == cid]
            conds = sorted({str(p["condition"]) for e in mine for p in e.parts if "condition" in p})
            defs = info.get("defenses") or {}
            letter, number = self.letters[cid]
            out[cid] = CreatureView(
                id=cid,
                name=str(info.get("name", cid)),
                side=str(info.get("side", "")),
                pc=bool(info.get("pc")),
                letter=letter,
                number=number,
                pos=c.pos,
                size=int(info.get("size", 1)),
                hp=c.hp,
                max_hp=int(info.get("max_hp", c.hp)),
                temp_hp=c.temp_hp,
                state=c.state,
                conditions=tuple(conds) if c.state != "dead" else (),
                effects=tuple(EffectView(e.name, "", e.duration.replace("_", " ")) for e in mine),
                defenses=tuple(  # type: ignore[arg-type]
                    int(defs.get(d, 0)) for d in ("ac", "fortitude", "reflex", "will")
                ),
                speed=int(info.get("speed", 0)),
                surges=0,
                action_points=0,
                second_wind_used=False,
                delayed=c.delayed,
                control=str(info.get("control", "ai")),
                powers=(),
                role=str(info.get("role") or ("hero" if info.get("pc") else "monster")),
                level=int(info.get("level", 1)),
                death_failures=0,
                friendly=str(info.get("side", "")) in self.friends,
            )
        end = self.end
        return View(
            round=self.round,
            current=self.current,
            order=self.order,
            creatures=out,
            over=end is not None,
            winner=end.winner if end else None,
            end_reason=end.reason if end else None,
            surprise=self.round == 0,
        )


def _starts_step(prev: E.Event | None, ev: E.Event) -> bool:
    """Does `ev` begin a new action? (An AI's decision comes just before its action; an
    opportunity attack or an immediate reaction belongs to the action that provoked it.)"""
    if isinstance(prev, E.Decision):
        return False
    if isinstance(ev, E.Decision):
        return True
    if isinstance(ev, E.ActionSpent):
        return ev.kind not in ("opportunity", "immediate")
    return isinstance(ev, E.TurnEnd)


def _log_label(chunk: list[E.Logged], names: Names, fmt: Any) -> str:
    """A step of a log in a few words, like a save's (`describe`)."""
    for item in chunk:
        ev = item.event
        if isinstance(ev, E.ActionSpent) and ev.kind not in ("opportunity", "immediate"):
            who = names.who(ev.id)
            for later in chunk:
                mv = later.event
                if isinstance(mv, E.Moved) and mv.id == ev.id and mv.path:
                    x, y = mv.path[-1]
                    return f"{who}: {mv.mode} to {x},{y}"
            return f"{who}: {names.power(ev.name).replace('_', ' ')}"
        if isinstance(ev, E.TurnEnd):
            return f"{names.who(ev.id)}: {'delays' if ev.delayed else 'ends the turn'}"
    lines = fmt.lines(chunk)
    return lines[0].text if lines else chunk[0].type


def log_timeline(path: Path) -> Timeline:
    """SaveError naming the file and line if it isn't a combat log."""
    items: list[E.Logged] = []
    lines = read_log_lines(path)  # bounded, regular files only (engine.logfile)
    first_event(path, lines)
    for n, raw in enumerate(lines, start=1):
        try:
            d = loads(raw)
            if n == 1:
                check_start(d)
            items.append(logged_from_json(d))
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            why = str(exc) if n == 1 else repr(exc)
            raise SaveError(path, f"line {n} is not a combat log event ({why[:200]})") from None
    if not items or not isinstance(items[0].event, E.EncounterStart):
        raise SaveError(path, "not a combat log (its first line is not an encounter_start)")
    start = items[0].event
    try:
        bmap = map_from_log(start.map)
        follower = LogFollower(start)
    except (KeyError, ValueError, TypeError) as exc:
        raise SaveError(path, f"line 1: the encounter_start is incomplete ({exc!r})") from None
    names = Names.of({c["id"]: str(c.get("name", c["id"])) for c in start.combatants}, ())
    cuts = [0]
    prev: E.Event | None = None
    for i, item in enumerate(items):
        if i and _starts_step(prev, item.event) and i > cuts[-1]:
            cuts.append(i)
        prev = item.event
    cuts.append(len(items))
    from tui.logtext import LogFormatter

    fmt = LogFormatter(names, explain=False)
    stops: list[Stop] = []
    views: list[View] = []
    for k in range(len(cuts) - 1):
        chunk = items[cuts[k] : cuts[k + 1]]
        for item in chunk:
            follower.feed(item)
        label = describe(None, None, names) if k == 0 else _log_label(chunk, names, fmt)
        taken_in = follower.round if k == 0 else chunk[0].round  # the round it happened in
        stops.append(Stop(label, taken_in, cuts[k + 1]))
        views.append(follower.view())
    title = str(start.encounter or start.map.get("name"))
    return Timeline(title, path, bmap, names, items, stops, views.__getitem__, exact=False)
