"""Battle-grid geometry: terrain, distance, movement, sight, cover, areas, forced movement.

This package is the engine's only source of truth about space. The rest of the engine, the AI
and the UI import everything from here (`from engine.grid import BattleMap, cover, ...`) and
never from the submodules, which are free to move things around.

Conventions: a square is (x, y), x right, y down, (0, 0) top-left; distance is Chebyshev; a
creature's position is its top-left square and `size` its squares per side; creatures are
passed into queries as an `Occupancy` (or a sequence of `Occupant`), never stored on the map.
"""

from __future__ import annotations

from engine.grid.areas import blast_origins, blast_squares, burst_squares, close_burst_squares
from engine.grid.battlemap import BattleMap
from engine.grid.forced import ForcedKind, forced_path_ok, forced_steps
from engine.grid.geometry import (
    STEPS,
    adjacent,
    chebyshev,
    distance,
    footprint,
    in_range,
    squares_within,
)
from engine.grid.lines import corners, crossed_squares, segment_crosses
from engine.grid.movement import (
    ReachMap,
    adjacency,
    cheapest_path,
    distance_map,
    end_squares,
    endable,
    entry_costs,
    path_to,
    reachable,
    step_neighbours,
)
from engine.grid.occupancy import Occupancy, OccupancyLike, Occupant, as_occupancy
from engine.grid.paths import MoveMode, PathCheck, validate_path
from engine.grid.sight import (
    AttackKind,
    ConcealmentLevel,
    CoverLevel,
    attack_concealment,
    attack_cover,
    can_see,
    concealment,
    cover,
    line_of_effect,
    line_of_sight,
    reach_cover,
    terrain_cover_level,
    terrain_lines,
)
from engine.grid.terrain import DEFAULT_LEGEND, Cell, MapError, Obscured, Square, Terrain
from engine.grid.threat import provocations, threatened_squares

__all__ = [
    "DEFAULT_LEGEND",
    "STEPS",
    "AttackKind",
    "BattleMap",
    "Cell",
    "ConcealmentLevel",
    "CoverLevel",
    "ForcedKind",
    "MapError",
    "MoveMode",
    "Obscured",
    "Occupancy",
    "OccupancyLike",
    "Occupant",
    "PathCheck",
    "ReachMap",
    "Square",
    "Terrain",
    "adjacency",
    "adjacent",
    "as_occupancy",
    "attack_concealment",
    "attack_cover",
    "blast_origins",
    "blast_squares",
    "burst_squares",
    "can_see",
    "cheapest_path",
    "chebyshev",
    "close_burst_squares",
    "concealment",
    "corners",
    "cover",
    "crossed_squares",
    "distance",
    "distance_map",
    "end_squares",
    "endable",
    "entry_costs",
    "footprint",
    "forced_path_ok",
    "forced_steps",
    "in_range",
    "line_of_effect",
    "line_of_sight",
    "path_to",
    "provocations",
    "reach_cover",
    "reachable",
    "segment_crosses",
    "squares_within",
    "step_neighbours",
    "terrain_cover_level",
    "terrain_lines",
    "threatened_squares",
    "validate_path",
]
