"""ObstacleField: flat ground strewn with static rectangular obstacles, laid out
anew every episode (the "complex terrain" of Liang et al. 2018, "GPU-Accelerated
Robotic Simulation for Distributed Reinforcement Learning", §4.1: "uneven
terrain with static rectangular obstacles. The dimensions, location, and
orientation of the obstacles are randomly sampled from a uniform
distribution").

The paper gives neither the number of obstacles nor the ranges; this arena's
defaults are ours: 120 boxes over a 60 m x 60 m square centred on the spawn
point, each 0.5-3 m long and wide, 0.05-0.3 m high (low enough to step or
climb onto), turned by a uniformly random yaw, none within 2 m of the spawn
point.

Frames and units: world frame, metres; the ground is the plane z = 0. The
boxes come from a fixed pool (`pools.BoxPool`): a new layout is a write into
the compiled model, never a recompilation.
"""

from collections.abc import Mapping, Sequence
from typing import Any

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer, mjcf
from composer_tasks.arenas import pools
from composer_tasks.arenas import style
from composer_tasks.physics import Physics

_FLOOR_HALF_SIZE_M = 250.0
_OBSTACLE_RGBA = (0.6, 0.5, 0.4, 1.0)


def _range(value: Sequence[float], name: str, minimum: float = 0.0) -> tuple[float, float]:
    try:
        low, high = (float(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a (low, high) pair of metres, got {value!r}") from None
    if not (np.isfinite(low) and np.isfinite(high)) or low > high or low <= minimum:
        raise ValueError(f"{name} must be finite with {minimum} < low <= high, got {value!r}")
    return low, high


class ObstacleField(composer.Arena):
    """A plane with `num_obstacles` random static boxes (see the module docstring).

    Args:
      num_obstacles: boxes per episode (the pool's size), an int >= 0.
      field_half_size_m: the boxes' centres lie in [-h, h]^2, metres.
      length_m, width_m: (low, high) ranges of the boxes' sides, metres.
      height_m: (low, high) range of their heights, metres.
      clear_radius_m: no box comes within this distance of the origin (where
        walkers spawn), metres.
      name: the arena's name.

    Raises:
      ValueError: for a bad count or range, or a field too small for the
        clear radius.
    """

    # Lays out its episodes in the compiled model, without recompiling: tasks that
    # regenerate dm_control's corridors at the MJCF stage leave it to `initialize_episode`.
    pooled = True

    def _build(
        self,
        num_obstacles: int = 120,
        field_half_size_m: float = 30.0,
        length_m: Sequence[float] = (0.5, 3.0),
        width_m: Sequence[float] = (0.5, 3.0),
        height_m: Sequence[float] = (0.05, 0.3),
        clear_radius_m: float = 2.0,
        name: str = "obstacle_field",
    ) -> None:
        if (
            isinstance(num_obstacles, bool)
            or not isinstance(num_obstacles, (int, np.integer))
            or num_obstacles < 0
        ):
            raise ValueError(f"num_obstacles must be an int >= 0, got {num_obstacles!r}")
        if not (np.isfinite(clear_radius_m) and clear_radius_m >= 0):
            raise ValueError(f"clear_radius_m must be finite metres >= 0, got {clear_radius_m!r}")
        if not (np.isfinite(field_half_size_m) and field_half_size_m > clear_radius_m + 1.0):
            raise ValueError(
                f"field_half_size_m must exceed clear_radius_m + 1 m ({clear_radius_m + 1.0}), "
                f"got {field_half_size_m!r}"
            )
        self.num_obstacles = int(num_obstacles)
        self.field_half_size_m = float(field_half_size_m)
        self.length_m = _range(length_m, "length_m")
        self.width_m = _range(width_m, "width_m")
        self.height_m = _range(height_m, "height_m")
        self.clear_radius_m = float(clear_radius_m)

        spec = mujoco.MjSpec()
        spec.modelname = name
        style.add_sky_and_light(spec, light_height_m=8.0, light_position_xy=(0.0, 0.0))
        style.add_checker_material(
            spec,
            "field_ground",
            rgb1=[0.2, 0.3, 0.4],
            rgb2=[0.1, 0.2, 0.3],
            texrepeat=[1.0, 1.0],
            mark_rgb=[0.8, 0.8, 0.8],
            reflectance=0.0,
        )
        self._ground = spec.worldbody.add_geom(
            name="ground",
            type=mujoco.mjtGeom.mjGEOM_PLANE,
            size=[_FLOOR_HALF_SIZE_M, _FLOOR_HALF_SIZE_M, 0.25],
            material="field_ground",
        )
        self._boxes = pools.BoxPool(
            spec.worldbody, "obstacle", self.num_obstacles, rgba=_OBSTACLE_RGBA
        )
        self._spec = spec
        self._pending: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._layout: tuple[np.ndarray, ...] | None = None
        self._generation = 0
        self._cache_key = None
        self._cached = None

    def regenerate(
        self, random_state: np.random.RandomState
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Draws the next episode's obstacles (written by `initialize_episode`).

        Returns:
          (centers (k, 3), half_sizes (k, 3), yaws (k,)), world frame, metres and
          radians.
        """
        count = self.num_obstacles
        half = self.field_half_size_m
        # Rejection sampling keeps the spawn disc clear; the field is at least
        # 1 m wider than the disc on every side, so the loop ends quickly.
        xy = np.zeros((0, 2))
        while len(xy) < count:
            candidates = random_state.uniform(-half, half, size=(count, 2))
            keep = np.hypot(candidates[:, 0], candidates[:, 1]) > self.clear_radius_m
            xy = np.concatenate([xy, candidates[keep]])[:count]
        lengths = random_state.uniform(*self.length_m, size=count)
        widths = random_state.uniform(*self.width_m, size=count)
        heights = random_state.uniform(*self.height_m, size=count)
        yaws = random_state.uniform(-np.pi, np.pi, size=count)
        centers = np.column_stack([xy, heights / 2])
        half_sizes = np.column_stack([lengths / 2, widths / 2, heights / 2])
        self._pending = (centers, half_sizes, yaws)
        return self._pending

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Writes this episode's obstacles into the model (drawing them unless a
        task did first)."""
        pending = self.regenerate(random_state) if self._pending is None else self._pending
        centers, half_sizes, yaws = pending
        self._pending = None
        quaternions = np.column_stack(
            [np.cos(yaws / 2), np.zeros((len(yaws), 2)), np.sin(yaws / 2)]
        )
        self._boxes.write(physics, centers, half_sizes, quaternions=quaternions)
        self._generation += 1
        self._layout = (centers, half_sizes, yaws)

    # Snapshots (composer.Environment.snapshot): the boxes' fields are in the model,
    # the layout and the cache of it that `terrain_height` reads are Python state.

    def snapshot_state(self) -> dict[str, Any]:
        """This episode's (centers, half_sizes, yaws) (copies; None before the first)
        and the count of layouts written, which keys the cache of the boxes."""
        layout = None if self._layout is None else tuple(np.array(array) for array in self._layout)
        return {"layout": layout, "generation": self._generation}

    def restore_state(self, state: Mapping[str, Any]) -> None:
        """Returns to a `snapshot_state()`; the boxes' model fields come back with the
        model, so the cache of them is dropped."""
        layout = state["layout"]
        self._layout = None if layout is None else tuple(np.array(array) for array in layout)
        self._generation = int(state["generation"])
        self._pending = None
        self._cache_key = None

    @property
    def layout(self) -> tuple[np.ndarray, ...] | None:
        """This episode's (centers, half_sizes, yaws); None before the first episode."""
        return self._layout

    @property
    def ground_geoms(self) -> tuple[mjcf.Element, ...]:
        """Geoms a walker stands on: the plane and every obstacle box."""
        return self._handles((self._ground,) + self._boxes.geoms)

    @property
    def obstacle_geoms(self) -> tuple[mjcf.Element, ...]:
        return self._handles(self._boxes.geoms)

    def spawn_position(self, random_state: np.random.RandomState | None = None) -> np.ndarray:
        """Where walkers start: the origin, (3,) world frame, metres."""
        del random_state
        return np.zeros(3)

    def _active_boxes(
        self, physics: Physics
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """(centers, half_sizes, cos yaw, sin yaw, bounding radii) of the boxes in
        use, read from the model; None if no box is in use. Cached until the
        model changes or `initialize_episode` writes a new layout (the only
        writer of the boxes' fields)."""
        model = physics.model
        key = (model, self._generation)
        if key != self._cache_key:
            body_ids = np.asarray(physics.bind(list(self._boxes.bodies)).id, dtype=np.intp)
            geom_ids = np.asarray(physics.bind(list(self._boxes.geoms)).id, dtype=np.intp)
            centers = model.body_pos[body_ids]
            active = centers[:, 2] > pools.PARKING_Z_M / 2
            if not np.any(active):
                self._cached = None
            else:
                quaternions = model.body_quat[body_ids[active]]
                half_sizes = model.geom_size[geom_ids[active]].copy()
                # The boxes turn about z only: yaw = 2 atan2(q_z, q_w).
                yaws = 2.0 * np.arctan2(quaternions[:, 3], quaternions[:, 0])
                self._cached = (
                    centers[active].copy(),
                    half_sizes,
                    np.cos(yaws),
                    np.sin(yaws),
                    np.hypot(half_sizes[:, 0], half_sizes[:, 1]),
                )
            self._cache_key = key
        return self._cached

    def terrain_height(self, physics: Physics, xy_points: ArrayLike) -> np.ndarray:
        """Height (n,) of the ground at world points `xy_points` (n, 2), metres:
        the top of the highest obstacle there, else 0. Read from the model, so
        it is the layout the physics simulates."""
        xy = np.asarray(xy_points, dtype=np.float64).reshape(-1, 2)
        boxes = self._active_boxes(physics)
        if boxes is None:
            return np.zeros(len(xy))
        centers, half_sizes, cosine, sine, radii = boxes
        # Only boxes whose bounding circle reaches the points' bounding box.
        low, high = xy.min(axis=0), xy.max(axis=0)
        near = np.all(
            (centers[:, :2] + radii[:, None] >= low) & (centers[:, :2] - radii[:, None] <= high),
            axis=1,
        )
        if not np.any(near):
            return np.zeros(len(xy))
        centers, half_sizes = centers[near], half_sizes[near]
        cosine, sine = cosine[near], sine[near]
        dx = xy[:, None, 0] - centers[None, :, 0]
        dy = xy[:, None, 1] - centers[None, :, 1]
        along = cosine * dx + sine * dy
        across = -sine * dx + cosine * dy
        inside = (np.abs(along) <= half_sizes[None, :, 0]) & (
            np.abs(across) <= half_sizes[None, :, 1]
        )
        tops = np.where(inside, (centers[:, 2] + half_sizes[:, 2])[None, :], 0.0)
        return np.maximum(tops.max(axis=1), 0.0)
