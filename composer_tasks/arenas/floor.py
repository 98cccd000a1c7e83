"""Floor: a flat chequered ground with a skybox and a light, sized in metres."""

from collections.abc import Sequence

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer
from composer_tasks.physics import Physics

_GROUND_THICKNESS_M = 0.25


class Floor(composer.Arena):
    """A flat floor centred at the origin.

    Args:
      size: (half-length x, half-length y) in metres.
      name: the arena's name.
      reflectance: reflectance of the floor material.
    """

    def _build(
        self, size: Sequence[float] = (8.0, 8.0), name: str = "floor", reflectance: float = 0.2
    ) -> None:
        size = tuple(float(s) for s in size)
        if len(size) != 2 or min(size) <= 0:
            raise ValueError(f"size must be two positive half-lengths in metres, got {size!r}")
        spec = mujoco.MjSpec()
        spec.modelname = name
        spec.visual.headlight.ambient = [0.4, 0.4, 0.4]
        spec.add_texture(
            name="skybox",
            type=mujoco.mjtTexture.mjTEXTURE_SKYBOX,
            builtin=mujoco.mjtBuiltin.mjBUILTIN_GRADIENT,
            rgb1=[0.4, 0.6, 0.8],
            rgb2=[0.0, 0.0, 0.0],
            width=800,
            height=800,
        )
        spec.add_texture(
            name="grid",
            type=mujoco.mjtTexture.mjTEXTURE_2D,
            builtin=mujoco.mjtBuiltin.mjBUILTIN_CHECKER,
            rgb1=[0.2, 0.3, 0.4],
            rgb2=[0.1, 0.2, 0.3],
            mark=mujoco.mjtMark.mjMARK_EDGE,
            markrgb=[0.8, 0.8, 0.8],
            width=300,
            height=300,
        )
        material = spec.add_material(name="grid", texrepeat=[1.0, 1.0], reflectance=reflectance)
        material.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = "grid"
        self._ground = spec.worldbody.add_geom(
            name="ground",
            type=mujoco.mjtGeom.mjGEOM_PLANE,
            size=[size[0], size[1], _GROUND_THICKNESS_M],
            material="grid",
        )
        self._light = spec.worldbody.add_light(
            name="top_light",
            pos=[0.0, 0.0, 4.0],
            dir=[0.0, 0.0, -1.0],
            diffuse=[0.7, 0.7, 0.7],
            castshadow=False,
        )
        self._size = size
        self._spec = spec

    def regenerate(self, random_state: np.random.RandomState) -> None:
        """dm_control's `regenerate`: a floor has no layout to draw, so nothing
        changes (as dm_control's `Floor.regenerate`)."""
        del random_state

    @property
    def ground_geom(self) -> mujoco.MjsGeom:
        return self._ground

    @property
    def ground_geoms(self) -> tuple[mujoco.MjsGeom, ...]:
        return (self._ground,)

    @property
    def size(self) -> tuple[float, ...]:
        """(half-length x, half-length y) in metres."""
        return self._size

    def spawn_position(self, random_state: np.random.RandomState | None = None) -> np.ndarray:
        """Where walkers start: the origin, (3,) world frame, metres."""
        del random_state
        return np.zeros(3)

    def terrain_height(self, physics: Physics, xy_points: ArrayLike) -> np.ndarray:
        """Height (n,) of the floor at world points `xy_points` (n, 2): 0 metres."""
        del physics
        return np.zeros(len(np.asarray(xy_points).reshape(-1, 2)))
