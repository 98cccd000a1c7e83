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
from scipy import ndimage

from composer_tasks import composer, mjcf
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
            name="groundplane",  # dm_control's name
            type=mujoco.mjtGeom.mjGEOM_PLANE,
            size=[size[0], size[1], 0.5],
            **look,
        )
        self._spec = spec
        # As dm_control's: the first episode draws a terrain, later ones when asked.
        self._regenerate = True

    @property
    def ground_geoms(self) -> tuple[mjcf.Element, ...]:
        return self._handles((self._terrain, self._floor))

    @property
    def terrain_half_size(self) -> float:
        """Half-size of the bumpy terrain's square, metres."""
        return _HFIELD_HALF_SIZE_M

    def regenerate(self, random_state: np.random.RandomState) -> None:
        """Asks for a new terrain: the next `initialize_episode` draws and writes
        it (drawing needs the compiled heightfield); `random_state` is not used
        here. As dm_control's, only the first episode and those after a call get
        a terrain: a recompiling reset (composer's default) leaves the others the
        compiled, flat heightfield, and with `recompile_mjcf_every_episode=False`
        the last terrain stays."""
        del random_state
        self._regenerate = True

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Draws and writes a new bowl into the model's heightfield (no
        recompilation) if `regenerate` asked for one (and for the first episode)."""
        if self._regenerate:
            self.draw_terrain(physics, random_state)

    def draw_terrain(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Draws a new terrain and writes it now (this project's: for a task that
        needs the episode's terrain in place before the arena's callback, as
        `Escape(spawn_on_new_terrain=True)`); this episode's `initialize_episode`
        then keeps it.

        The terrain is dm_control's: the bowl shape times bumps drawn uniformly
        in [smoothness, 1] on a 60 x 60 grid, zoomed to 201 x 201 by scipy's
        cubic spline (`ndimage.zoom`), so that a seed gives dm_control's terrain.
        """
        self._regenerate = False
        hfield = physics.bind(self._hfield)
        samples = int(np.ravel(hfield.nrow)[0])
        grid = np.linspace(-1.0, 1.0, samples)
        radius = np.clip(np.hypot(grid[np.newaxis, :], grid[:, np.newaxis]), 0.1, 1.0)
        bowl = 0.5 - np.cos(2.0 * np.pi * radius) / 2.0
        bump_samples = int(2 * float(np.ravel(hfield.size)[0]) / _TERRAIN_BUMP_SCALE_M)
        bumps = random_state.uniform(_TERRAIN_SMOOTHNESS, 1.0, (bump_samples, bump_samples))
        terrain = bowl * np.asarray(ndimage.zoom(bumps, samples / float(bump_samples)))
        address = int(np.ravel(hfield.adr)[0])
        physics.model.hfield_data[address : address + samples * samples] = terrain.ravel()
        # Renderers upload heightfields once, so existing ones are closed; the
        # next render makes new ones that see the new terrain.
        physics.close_renderers()
