"""Arenas: the root entities tasks put walkers and props into.

Every arena is a `composer.Entity` with `ground_geoms` and `terrain_height(physics,
xy_points)`. Corridors, mazes, parkour courses and obstacle fields lay out a new episode by
writing model fields in `initialize_episode` (no recompilation); see
docs/locomotion_arenas.md.
"""

from composer_tasks.arenas.bowl import Bowl
from composer_tasks.arenas.corridors import Corridor
from composer_tasks.arenas.corridors import EmptyCorridor
from composer_tasks.arenas.corridors import GapsCorridor
from composer_tasks.arenas.corridors import WallsCorridor
from composer_tasks.arenas.floor import Floor

# dm_control's name of the floor's module (`arenas.floors.Floor`).
from composer_tasks.arenas import floor as floors  # noqa: E402, I001
from composer_tasks.arenas.labmaze_textures import FloorTextures
from composer_tasks.arenas.labmaze_textures import SkyBox
from composer_tasks.arenas.labmaze_textures import WallTextures
from composer_tasks.arenas.mazes import MazeWithTargets
from composer_tasks.arenas.mazes import RandomMazeWithTargets
from composer_tasks.arenas.obstacles import ObstacleField
from composer_tasks.arenas.parkour import Course
from composer_tasks.arenas.parkour import CrouchPlatforms
from composer_tasks.arenas.parkour import Gaps
from composer_tasks.arenas.parkour import Hurdles
from composer_tasks.arenas.parkour import JumpPlatforms
from composer_tasks.arenas.parkour import Obstacle
from composer_tasks.arenas.parkour import ParkourCourse
from composer_tasks.arenas.parkour import SeeSaws
from composer_tasks.arenas.parkour import Segment
from composer_tasks.arenas.parkour import SlalomWalls
from composer_tasks.arenas.parkour import Terrain
from composer_tasks.arenas.padded_room import PaddedRoom

__all__ = [
    "Bowl",
    "Corridor",
    "Course",
    "CrouchPlatforms",
    "EmptyCorridor",
    "Floor",
    "FloorTextures",
    "Gaps",
    "GapsCorridor",
    "Hurdles",
    "JumpPlatforms",
    "MazeWithTargets",
    "Obstacle",
    "ObstacleField",
    "PaddedRoom",
    "ParkourCourse",
    "RandomMazeWithTargets",
    "SeeSaws",
    "Segment",
    "SkyBox",
    "SlalomWalls",
    "Terrain",
    "WallTextures",
    "WallsCorridor",
]
