"""Mazes from `labmaze` (the DeepMind Lab maze generator) with spawn cells and targets.

A new maze every episode, without recompiling: the walls are a fixed pool of
boxes (`pools.BoxPool`, one box per horizontal run of wall cells, enough for
the densest maze of the grid's size), the reward spheres a fixed pool of
non-colliding spheres. `initialize_episode` draws a maze with a seed from the
episode's `random_state` (so the same seed gives the same mazes) and writes it
into the model.

Frames and units: the maze is centred at the world origin, the floor at z = 0;
grid row 0 is the +y edge and column 0 the -x edge; a cell is `xy_scale`
metres square; all positions are world-frame metres.
"""

from collections.abc import Mapping
from typing import Any

import labmaze
import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer
from composer_tasks.arenas import pools
from composer_tasks.arenas import style
from composer_tasks.physics import Physics

_WALL_TOKEN = "*"
# Wall looks: (rgb1, rgb2) of a chequered builtin texture; one is picked per episode.
_WALL_STYLES = (
    ((0.55, 0.35, 0.25), (0.45, 0.28, 0.2)),
    ((0.6, 0.6, 0.62), (0.5, 0.5, 0.52)),
    ((0.3, 0.45, 0.3), (0.25, 0.38, 0.25)),
    ((0.7, 0.62, 0.45), (0.6, 0.52, 0.38)),
)
_TARGET_RGBA = (0.9, 0.2, 0.2, 1.0)
# Targets are visual only; their own geom group keeps them out of terrain raycasts.
TARGET_GEOM_GROUP = 2


class RandomMazeWithTargets(composer.Arena):
    """A random labmaze maze with textured walls, spawn cells and reward spheres.

    Args:
      x_cells, y_cells: grid size in cells (odd, as labmaze requires).
      xy_scale: side of a cell, metres.
      z_height: wall height, metres.
      max_rooms, room_min_size, room_max_size, max_variations, simplify,
        extra_connection_probability: labmaze's `RandomMaze` parameters.
      spawns_per_room: spawn cells per room (at least 1).
      targets_per_room: reward spheres per room.
      target_radius: sphere radius, metres.
      target_height: height of the sphere centres above the floor, metres.
      name: the arena's name.
    """

    def _build(
        self,
        x_cells: int = 11,
        y_cells: int = 11,
        xy_scale: float = 2.0,
        z_height: float = 2.0,
        max_rooms: int = 4,
        room_min_size: int = 3,
        room_max_size: int = 5,
        spawns_per_room: int = 1,
        targets_per_room: int = 1,
        max_variations: int = 26,
        simplify: bool = True,
        extra_connection_probability: float = 0.0,
        target_radius: float = 0.3,
        target_height: float = 0.5,
        name: str = "maze",
    ) -> None:
        for label, value in (
            ("xy_scale", xy_scale),
            ("z_height", z_height),
            ("target_radius", target_radius),
        ):
            if not value > 0:
                raise ValueError(f"{label} must be positive metres, got {value!r}")
        if not isinstance(spawns_per_room, (int, np.integer)) or spawns_per_room < 1:
            raise ValueError(f"spawns_per_room must be an int >= 1, got {spawns_per_room!r}")
        if not isinstance(targets_per_room, (int, np.integer)) or targets_per_room < 0:
            raise ValueError(f"targets_per_room must be an int >= 0, got {targets_per_room!r}")
        self._maze_kwargs: dict[str, Any] = dict(
            height=y_cells,
            width=x_cells,
            max_rooms=max_rooms,
            room_min_size=room_min_size,
            room_max_size=room_max_size,
            max_variations=max_variations,
            simplify=simplify,
            extra_connection_probability=extra_connection_probability,
            spawns_per_room=spawns_per_room,
            objects_per_room=targets_per_room,
        )
        # Builds one maze now so that labmaze checks the parameters at construction.
        labmaze.RandomMaze(random_seed=0, **self._maze_kwargs)
        self._x_cells, self._y_cells = int(x_cells), int(y_cells)
        self._xy_scale = float(xy_scale)
        self._z_height = float(z_height)
        self._target_radius = float(target_radius)
        self._target_height = float(target_height)

        spec = mujoco.MjSpec()
        spec.modelname = name
        half_x = self._x_cells * self._xy_scale / 2
        half_y = self._y_cells * self._xy_scale / 2
        style.add_sky_and_light(spec, light_height_m=max(half_x, half_y))
        style.add_checker_material(
            spec,
            "maze_floor",
            rgb1=[0.2, 0.3, 0.4],
            rgb2=[0.1, 0.2, 0.3],
            texrepeat=[1.0 / self._xy_scale] * 2,
            mark_rgb=[0.8, 0.8, 0.8],
            reflectance=0.1,
        )
        self._wall_material_names = []
        for index, (rgb1, rgb2) in enumerate(_WALL_STYLES):
            material_name = f"maze_wall_{index}"
            style.add_checker_material(
                spec,
                material_name,
                rgb1=rgb1,
                rgb2=rgb2,
                texrepeat=[2.0, 2.0],
                mark_rgb=[0.15, 0.15, 0.15],
            )
            self._wall_material_names.append(material_name)
        self._floor = spec.worldbody.add_geom(
            name="floor",
            type=mujoco.mjtGeom.mjGEOM_PLANE,
            size=[half_x, half_y, 0.25],
            material="maze_floor",
        )
        # One box per horizontal run of wall cells: a row of n cells has at most
        # ceil(n / 2) runs, which bounds the pool for any maze of this grid.
        capacity = self._y_cells * ((self._x_cells + 1) // 2)
        self._walls = pools.BoxPool(
            spec.worldbody,
            "wall",
            capacity,
            rgba=(1, 1, 1, 1),
            material=self._wall_material_names[0],
        )
        max_targets = max_rooms * targets_per_room
        self._target_bodies, self._target_geoms = [], []
        for index in range(max_targets):
            body = spec.worldbody.add_body(
                name=f"target_{index}", pos=[0.0, 0.0, pools.PARKING_Z_M]
            )
            self._target_geoms.append(
                body.add_geom(
                    name=f"target_{index}_geom",
                    type=mujoco.mjtGeom.mjGEOM_SPHERE,
                    size=[self._target_radius, 0, 0],
                    rgba=list(_TARGET_RGBA),
                    group=TARGET_GEOM_GROUP,
                    contype=0,
                    conaffinity=0,
                )
            )
            self._target_bodies.append(body)
        self._spec = spec
        self._maze = None
        self._maze_seed = None
        self._pending = False
        self._collected = np.zeros(0, dtype=bool)
        self._ids = None

    # Layout.

    def regenerate(self, random_state: np.random.RandomState) -> labmaze.RandomMaze:
        """Draws the next episode's maze (written into the model by `initialize_episode`).

        Returns the `labmaze.RandomMaze`.
        """
        seed = int(random_state.randint(2**31 - 1))
        self._maze_seed = seed
        self._maze = labmaze.RandomMaze(random_seed=seed, **self._maze_kwargs)
        self._wall_style = int(random_state.randint(len(_WALL_STYLES)))
        layer = np.asarray(self._maze.entity_layer)
        rows, cols = np.nonzero(layer == self._maze.spawn_token)
        self._spawn_positions = np.column_stack(
            [self.grid_to_world(rows, cols), np.zeros(len(rows))]
        )
        rows, cols = np.nonzero(layer == self._maze.object_token)
        self._target_positions = np.column_stack(
            [self.grid_to_world(rows, cols), np.full(len(rows), self._target_height)]
        )
        self._wall_layout = self._wall_boxes(layer == _WALL_TOKEN)
        self._pending = True
        return self._maze

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Writes this episode's maze (drawing one unless a task called `regenerate`)."""
        if not self._pending:
            self.regenerate(random_state)
        self._pending = False
        centers, half_sizes = self._wall_layout
        model = physics.model
        body_ids, geom_ids, material_ids = self._model_ids(physics)
        self._walls.write(
            physics,
            centers,
            half_sizes,
            material_ids=np.full(len(centers), material_ids[self._wall_style]),
        )
        targets = self.target_positions
        count = len(targets)
        if count > len(body_ids):
            raise ValueError(
                f"the maze has {count} targets but the arena holds {len(body_ids)}; "
                "labmaze placed more objects than max_rooms * targets_per_room"
            )
        model.body_pos[body_ids[:count]] = targets
        model.geom_rgba[geom_ids[:count]] = _TARGET_RGBA
        model.body_pos[body_ids[count:]] = (0.0, 0.0, pools.PARKING_Z_M)
        model.geom_rgba[geom_ids[count:], 3] = 0.0
        self._collected = np.zeros(count, dtype=bool)

    # Snapshots (composer.Environment.snapshot): the layout lives in Python too.

    def snapshot_state(self) -> dict[str, Any] | None:
        """The maze's Python state: its labmaze seed, wall style, spawn and target
        positions, wall boxes and which targets were collected (picklable)."""
        if self._maze is None:
            return None
        return dict(
            maze_seed=self._maze_seed,
            wall_style=self._wall_style,
            pending=self._pending,
            spawn_positions=self._spawn_positions.copy(),
            target_positions=self._target_positions.copy(),
            wall_layout=tuple(array.copy() for array in self._wall_layout),
            collected=self._collected.copy(),
        )

    def restore_state(self, state: Mapping[str, Any] | None) -> None:
        """Returns the maze to a `snapshot_state()` of a maze built alike."""
        if state is None:
            self._maze = self._maze_seed = None
            self._pending = False
            self._collected = np.zeros(0, dtype=bool)
            return
        self._maze_seed = state["maze_seed"]
        self._maze = labmaze.RandomMaze(random_seed=self._maze_seed, **self._maze_kwargs)
        self._wall_style = state["wall_style"]
        self._pending = state["pending"]
        self._spawn_positions = state["spawn_positions"].copy()
        self._target_positions = state["target_positions"].copy()
        self._wall_layout = tuple(array.copy() for array in state["wall_layout"])
        self._collected = state["collected"].copy()

    def _model_ids(self, physics: Physics) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(target body ids, target geom ids, wall material ids) in the compiled model."""
        model = physics.model
        if self._ids is None or self._ids[0] is not model:
            if self._target_bodies:
                body_ids = np.asarray(physics.bind(self._target_bodies).id, dtype=np.intp)
                geom_ids = np.asarray(physics.bind(self._target_geoms).id, dtype=np.intp)
            else:
                body_ids = geom_ids = np.zeros(0, dtype=np.intp)
            prefix = self.prefix
            material_ids = np.array(
                [
                    mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_MATERIAL, prefix + name)
                    for name in self._wall_material_names
                ]
            )
            self._ids = (model, body_ids, geom_ids, material_ids)
        return self._ids[1:]

    def _wall_boxes(self, walls: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(centers, half_sizes) (k, 3) of one box per horizontal run of wall cells."""
        padded = np.pad(walls.astype(np.int8), ((0, 0), (1, 1)))
        steps = np.diff(padded, axis=1)
        rows, starts = np.nonzero(steps == 1)
        _, stops = np.nonzero(steps == -1)
        first = self.grid_to_world(rows, starts)
        last = self.grid_to_world(rows, stops - 1)
        count = len(rows)
        centers = np.column_stack(
            [(first[:, 0] + last[:, 0]) / 2, first[:, 1], np.full(count, self._z_height / 2)]
        )
        half_sizes = np.column_stack(
            [
                (stops - starts) * self._xy_scale / 2,
                np.full(count, self._xy_scale / 2),
                np.full(count, self._z_height / 2),
            ]
        )
        return centers, half_sizes

    # Geometry of the grid.

    def grid_to_world(self, rows: ArrayLike, cols: ArrayLike) -> np.ndarray:
        """World (x, y) (n, 2) of the centres of cells (`rows`, `cols`), metres."""
        rows = np.asarray(rows, dtype=np.float64)
        cols = np.asarray(cols, dtype=np.float64)
        x = (cols - (self._x_cells - 1) / 2) * self._xy_scale
        y = ((self._y_cells - 1) / 2 - rows) * self._xy_scale
        return np.column_stack([x, y])

    def world_to_grid(self, xy: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """(rows, cols) of the cells holding world points `xy` (n, 2)."""
        xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
        cols = np.floor(xy[:, 0] / self._xy_scale + self._x_cells / 2).astype(int)
        rows = np.floor(self._y_cells / 2 - xy[:, 1] / self._xy_scale).astype(int)
        return rows, cols

    def _require_maze(self) -> labmaze.RandomMaze:
        if self._maze is None:
            raise ValueError(
                "the maze exists from the first episode on; reset the environment "
                "or call regenerate(random_state) first"
            )
        return self._maze

    # Properties.

    @property
    def maze(self) -> labmaze.RandomMaze | None:
        """This episode's `labmaze.RandomMaze` (None before the first)."""
        return self._maze

    @property
    def xy_scale(self) -> float:
        return self._xy_scale

    @property
    def z_height(self) -> float:
        return self._z_height

    @property
    def ground_geoms(self) -> tuple[mujoco.MjsGeom, ...]:
        return (self._floor,)

    @property
    def walls(self) -> tuple[mujoco.MjsGeom, ...]:
        """The wall geoms of the pool (unused ones are parked far below)."""
        return self._walls.geoms

    @property
    def target_geoms(self) -> tuple[mujoco.MjsGeom, ...]:
        return tuple(self._target_geoms)

    @property
    def spawn_positions(self) -> np.ndarray:
        """(n, 3) centres of this episode's spawn cells on the floor, metres."""
        self._require_maze()
        return self._spawn_positions.copy()

    @property
    def target_positions(self) -> np.ndarray:
        """(n, 3) centres of this episode's reward spheres, metres."""
        self._require_maze()
        return self._target_positions.copy()

    @property
    def targets_collected(self) -> np.ndarray:
        """(n,) bool: which of this episode's targets have been collected."""
        return self._collected.copy()

    def spawn_position(self, random_state: np.random.RandomState) -> np.ndarray:
        """One of this episode's spawn cells, chosen with `random_state`: (3,) metres."""
        positions = self.spawn_positions
        return positions[random_state.randint(len(positions))]

    def collect_targets(
        self, physics: Physics, position: ArrayLike, reach: float | None = None
    ) -> int:
        """Collects the targets within `reach` metres of `position` (3,) and hides them.

        `reach` defaults to the target radius plus 0.5 m. Returns how many were
        collected by this call (each target counts once per episode).
        """
        reach = self._target_radius + 0.5 if reach is None else float(reach)
        targets = self.target_positions
        if len(targets) == 0:
            return 0
        distances = np.linalg.norm(targets - np.asarray(position, dtype=np.float64), axis=1)
        new = (distances <= reach) & ~self._collected
        if np.any(new):
            self._collected |= new
            _, geom_ids, _ = self._model_ids(physics)
            physics.model.geom_rgba[geom_ids[: len(targets)][new], 3] = 0.0
        return int(new.sum())

    def terrain_height(self, physics: Physics, xy_points: ArrayLike) -> np.ndarray:
        """Height (n,) of the floor (0) or a wall top at `xy_points` (n, 2), metres."""
        centers, half_sizes = self._walls.active_boxes(physics)
        tops = pools.box_tops_at(xy_points, centers, half_sizes)
        return np.where(np.isnan(tops), 0.0, tops)
