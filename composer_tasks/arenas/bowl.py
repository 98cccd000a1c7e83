"""The escape task's arena: a bumpy bowl (dm_control's `locomotion.arenas.bowl`).

A heightfield rewritten every episode without recompiling: a sinusoidal bowl
multiplied by random smooth bumps (dm_control's bowl arena: 201 x 201 samples over
12 m x 12 m, 0.5 m high, bumps on a 0.2 m scale, smoothness 0.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import mujoco
import numpy as np

from composer_tasks import composer
from composer_tasks.arenas import assets

if TYPE_CHECKING:
    from composer_tasks.physics import Physics

_HFIELD_SAMPLES = 201
_HFIELD_HALF_SIZE_M = 6.0
_HFIELD_HEIGHT_M = 0.5
_HFIELD_BASE_M = 0.1
_TERRAIN_SMOOTHNESS = 0.5  # 0: maximally bumpy, 1: smooth.
_TERRAIN_BUMP_SCALE_M = 0.2


class Bowl(composer.Arena):
    """A bumpy bowl: a heightfield centred at the origin inside a flat floor.

    Args:
      size: half-lengths (x, y) of the surrounding floor, metres.
      aesthetic: "default" (blue-grey) or a style of `arenas.assets`
        ("outdoor_natural": grass and sky, as `Floor`'s).
      name: the arena's name.
    """

    def _build(
        self, size: Sequence[float] = (10.0, 10.0), aesthetic: str = "default", name: str = "bowl"
    ) -> None:
        size = tuple(float(s) for s in size)
        if len(size) != 2 or min(size) <= 0:
            raise ValueError(f"size must be two positive half-lengths in metres, got {size!r}")
        assets.check_aesthetic(aesthetic)
        spec = mujoco.MjSpec()
        spec.modelname = name
        spec.visual.headlight.ambient = [0.4, 0.4, 0.4]
        spec.visual.headlight.diffuse = [0.8, 0.8, 0.8]
        spec.visual.headlight.specular = [0.1, 0.1, 0.1]
        self._hfield = spec.add_hfield(
            name="terrain",
            nrow=_HFIELD_SAMPLES,
            ncol=_HFIELD_SAMPLES,
            size=[_HFIELD_HALF_SIZE_M, _HFIELD_HALF_SIZE_M, _HFIELD_HEIGHT_M, _HFIELD_BASE_M],
            userdata=[0.0] * (_HFIELD_SAMPLES * _HFIELD_SAMPLES),
        )
        look: dict[str, object] = {"rgba": [0.2, 0.3, 0.4, 1.0]}
        if aesthetic != "default":
            look = {"material": assets.add_style(spec, aesthetic).name}
        # Slightly below the floor so the flat rim does not z-fight with it.
        self._terrain = spec.worldbody.add_geom(
            name="terrain",
            type=mujoco.mjtGeom.mjGEOM_HFIELD,
            hfieldname="terrain",
            pos=[0.0, 0.0, -0.01],
            **look,
        )
        self._floor = spec.worldbody.add_geom(
            name="ground",
            type=mujoco.mjtGeom.mjGEOM_PLANE,
            size=[size[0], size[1], 0.5],
            **look,
        )
        self._spec = spec
        self._pending_terrain: np.ndarray | None = None
        self._written_early = False

    @property
    def ground_geoms(self) -> tuple[mujoco.MjsGeom, mujoco.MjsGeom]:
        return (self._terrain, self._floor)

    @property
    def terrain_half_size(self) -> float:
        """Half-size of the bumpy terrain's square, metres."""
        return _HFIELD_HALF_SIZE_M

    def regenerate(self, random_state: np.random.RandomState) -> np.ndarray:
        """Draws the next episode's terrain: (n, n) heights in [0, 1] of the
        heightfield's range. `initialize_episode` writes it, or `write_terrain`
        does earlier for a task that needs the terrain in place first."""
        axis = np.linspace(-1.0, 1.0, _HFIELD_SAMPLES)
        radius = np.clip(np.hypot(axis[:, np.newaxis], axis[np.newaxis, :]), 0.1, 1.0)
        bowl = 0.5 - np.cos(2.0 * np.pi * radius) / 2.0
        bump_samples = int(round(2 * _HFIELD_HALF_SIZE_M / _TERRAIN_BUMP_SCALE_M))
        bumps = random_state.uniform(_TERRAIN_SMOOTHNESS, 1.0, (bump_samples, bump_samples))
        self._pending_terrain = bowl * _bilinear_resize(bumps, _HFIELD_SAMPLES)
        return self._pending_terrain

    def write_terrain(self, physics: Physics) -> None:
        """Writes the terrain drawn by `regenerate` into the model now, for a task
        that needs it in place before the arena's callback; this episode's
        `initialize_episode` then leaves it alone."""
        if self._pending_terrain is None:
            raise ValueError("call regenerate(random_state) before write_terrain(physics)")
        self._write(physics)
        self._written_early = True

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Writes a new bowl into the model's heightfield (no recompilation),
        unless a task already wrote this episode's with `write_terrain`."""
        if self._written_early:
            self._written_early = False
            return
        if self._pending_terrain is None:
            self.regenerate(random_state)
        self._write(physics)

    def _write(self, physics: Physics) -> None:
        # Renderers upload heightfields once, so existing ones are closed; the
        # next render makes new ones that see the new terrain.
        assert self._pending_terrain is not None, "both callers draw a terrain first"
        hfield = physics.bind(self._hfield)
        address = int(hfield.adr[0])
        physics.model.hfield_data[address : address + self._pending_terrain.size] = (
            self._pending_terrain.ravel()
        )
        self._pending_terrain = None
        physics.close_renderers()


def _bilinear_resize(grid: np.ndarray, samples: int) -> np.ndarray:
    """Resamples a square grid to `samples` x `samples` by bilinear interpolation."""
    coordinates = np.linspace(0.0, grid.shape[0] - 1.0, samples)
    lower = np.minimum(np.floor(coordinates).astype(int), grid.shape[0] - 2)
    fraction = coordinates - lower
    rows = grid[lower] * (1.0 - fraction)[:, np.newaxis] + grid[lower + 1] * fraction[:, np.newaxis]
    return rows[:, lower] * (1.0 - fraction) + rows[:, lower + 1] * fraction
