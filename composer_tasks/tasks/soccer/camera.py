"""A camera that follows every player of a match, for soccer videos (dm_control's
`locomotion.soccer.camera`).

    tracker = camera.MultiplayerTrackingCamera(
        min_distance=8.0, distance_factor=1.0, smoothing_update_speed=0.1)
    tracker.after_compile(env.physics)                   # after every compile
    tracker.initialize_episode(positions(env.physics))   # (n, 3) world positions, m
    frame = tracker.render()
    ... env.step(actions); tracker.after_step(positions(env.physics)) ...

The caller hands the camera the tracked entities' world positions (metres) at the
start of an episode and after every step; the camera looks at their centroid from
`min_distance + distance_factor * r_max` metres (r_max: the largest distance of
an entity from the centroid), at a fixed azimuth and elevation, and eases towards
that pose after each step by the fraction `smoothing_update_speed`.
"""

from __future__ import annotations

import collections
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import rendering

if TYPE_CHECKING:
    from composer_tasks.physics import Physics

# A free camera's pose: the point looked at (world frame, m), the distance to it
# (m), and azimuth and elevation in degrees (dm_control's `engine.Pose`).
Pose = collections.namedtuple("Pose", ("lookat", "distance", "azimuth", "elevation"))


class MovableCamera:
    """A free camera on a physics, posed by `set_pose` (dm_control's
    `engine.MovableCamera`, the part the soccer camera uses).

    It starts at MuJoCo's default free-camera pose for the model. Its images are
    drawn by a `mujoco.Renderer` of its own, which must fit the model's offscreen
    buffer (`model.vis.global_.offwidth` x `offheight`).

    Args:
      physics: the physics to draw.
      height, width: image size in pixels.

    Raises:
      ValueError: for an image larger than the offscreen buffer.
    """

    def __init__(self, physics: Physics, height: int = 240, width: int = 320) -> None:
        rendering.check_fits_offscreen_buffer(physics.model, height, width)
        self._physics = physics
        self._height = int(height)
        self._width = int(width)
        self._renderer = mujoco.Renderer(physics.model, self._height, self._width)
        self._camera = mujoco.MjvCamera()
        mujoco.mjv_defaultFreeCamera(physics.model, self._camera)

    @property
    def height(self) -> int:
        return self._height

    @property
    def width(self) -> int:
        return self._width

    def get_pose(self) -> Pose:
        """The camera's pose; its `lookat` is a view of the camera's own point (as
        dm_control's), so copy it to keep it past the next `set_pose`."""
        camera = self._camera
        return Pose(camera.lookat, camera.distance, camera.azimuth, camera.elevation)

    def set_pose(
        self, lookat: ArrayLike, distance: float, azimuth: float, elevation: float
    ) -> None:
        """Poses the camera: `lookat` (3,) world frame, m; `distance` m; `azimuth`,
        `elevation` degrees."""
        point = np.asarray(lookat, dtype=np.float64)
        if point.shape != (3,) or not np.all(np.isfinite(point)):
            raise ValueError(f"lookat must be 3 finite numbers, got {lookat!r}")
        np.copyto(self._camera.lookat, point)
        self._camera.distance = float(distance)
        self._camera.azimuth = float(azimuth)
        self._camera.elevation = float(elevation)

    def render(
        self,
        depth: bool = False,
        segmentation: bool = False,
        scene_option: mujoco.MjvOption | None = None,
    ) -> np.ndarray:
        """The current view: (height, width, 3) uint8 RGB; with `depth`, (height,
        width) float32 distances along the camera axis (m), as `Physics.render`
        gives them; with `segmentation`, (height, width, 2) int32 (object id,
        object type)."""
        if depth and segmentation:
            raise ValueError("depth and segmentation cannot both be asked")
        renderer = self._renderer
        renderer.update_scene(self._physics.data, camera=self._camera, scene_option=scene_option)
        if depth:
            renderer.enable_depth_rendering()
            try:
                renderer.render()
                return rendering.dm_control_depth(renderer, self._physics.model)
            finally:
                renderer.disable_depth_rendering()
        if segmentation:
            renderer.enable_segmentation_rendering()
            try:
                return renderer.render().astype(np.int32)
            finally:
                renderer.disable_segmentation_rendering()
        return renderer.render()

    def close(self) -> None:
        """Releases the renderer (its GL context)."""
        self._renderer.close()


class MultiplayerTrackingCamera:
    """A camera that keeps every tracked entity in view, moving smoothly.

    Args:
      min_distance: the camera's distance (m) to entities bunched at one point.
      distance_factor: metres of distance added per metre of the largest
        distance of an entity from the entities' centroid.
      smoothing_update_speed: in [0, 1], the fraction of the way to its target
        pose the camera moves after each step (1: no smoothing).
      azimuth, elevation: the camera's fixed direction, degrees.
      width, height: image size, pixels.

    Raises:
      ValueError: `smoothing_update_speed` outside [0, 1].
    """

    def __init__(
        self,
        min_distance: float,
        distance_factor: float,
        smoothing_update_speed: float,
        azimuth: float = 90,
        elevation: float = -45,
        width: int = 1920,
        height: int = 1080,
    ) -> None:
        if not 0 <= smoothing_update_speed <= 1:
            raise ValueError(
                f"smoothing_update_speed must be in [0, 1], got {smoothing_update_speed!r}"
            )
        self._min_distance = min_distance
        self._distance_factor = distance_factor
        self._smoothing_update_speed = smoothing_update_speed
        self._azimuth = azimuth
        self._elevation = elevation
        self._width = width
        self._height = height
        self._camera: MovableCamera | None = None

    @property
    def camera(self) -> MovableCamera | None:
        """The `MovableCamera` made by the last `after_compile`, or None before."""
        return self._camera

    def _compiled_camera(self, method: str) -> MovableCamera:
        if self._camera is None:
            raise ValueError(
                f"the camera has not been made yet: call after_compile(physics) before {method}"
            )
        return self._camera

    def render(self) -> np.ndarray:
        """The current frame, (height, width, 3) uint8 RGB."""
        return self._compiled_camera("render").render()

    def after_compile(self, physics: Physics) -> None:
        """Makes the camera for `physics` (call after every compile), enlarging the
        model's offscreen buffer to the image size where it is smaller."""
        global_settings: Any = physics.model.vis.global_
        global_settings.offheight = max(self._height, global_settings.offheight)
        global_settings.offwidth = max(self._width, global_settings.offwidth)
        if self._camera is not None:
            self._camera.close()
        self._camera = MovableCamera(physics, height=self._height, width=self._width)

    def _target_pose(self, entity_positions: Sequence[ArrayLike]) -> Pose:
        positions = np.stack([np.asarray(p, dtype=np.float64) for p in entity_positions])
        centroid = positions.mean(axis=0)
        radii = np.linalg.norm(positions - centroid, axis=1)
        distance = self._min_distance + self._distance_factor * np.max(radii)
        return Pose(
            lookat=centroid, distance=distance, azimuth=self._azimuth, elevation=self._elevation
        )

    def initialize_episode(self, entity_positions: Sequence[ArrayLike]) -> None:
        """Puts the camera at its target pose for the entities at
        `entity_positions` (a sequence of (3,) world positions, m)."""
        camera = self._compiled_camera("initialize_episode")
        camera.set_pose(*self._target_pose(entity_positions))

    def after_step(self, entity_positions: Sequence[ArrayLike]) -> None:
        """Moves the camera the fraction `smoothing_update_speed` of the way from
        its pose to its target pose for `entity_positions`, each of lookat,
        distance, azimuth and elevation linearly (as dm_control)."""
        camera = self._compiled_camera("after_step")
        target = self._target_pose(entity_positions)
        current = camera.get_pose()
        speed = self._smoothing_update_speed
        camera.set_pose(
            *(
                target_value * speed + current_value * (1 - speed)
                for target_value, current_value in zip(target, current)
            )
        )
