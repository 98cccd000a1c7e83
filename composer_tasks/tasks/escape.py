"""Escape: get out of a bumpy bowl (dm_control locomotion, Tassa et al. 2020 §7).

The walker starts at the bowl's centre in a random orientation, just above the
terrain. Reward, in [0, 1], with p the root's world position (metres), R the
terrain's half-size and n_z the root body's z-axis component along world z:

    escape  = tolerance(|p|, bounds=(R, inf), margin=R, sigmoid="linear", value_at_margin=0)
    upright = tolerance(n_z, bounds=(cos 30deg, inf), margin=1 + cos 30deg,
                        sigmoid="linear", value_at_margin=0)
    r = escape * upright

The bowl (`Bowl`) is a heightfield rewritten every episode without recompiling:
a sinusoidal bowl multiplied by random smooth bumps (dm_control's bowl arena:
201 x 201 samples over 12 m x 12 m, 0.5 m high, bumps on a 0.2 m scale,
smoothness 0.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import mujoco
import numpy as np

from composer_tasks import composer
from composer_tasks import rewards
from composer_tasks.arenas import assets
from composer_tasks.composer.observation import observable
from composer_tasks.tasks import termination
from composer_tasks.tasks import walker_state
from composer_tasks.tasks import walker_task

if TYPE_CHECKING:
    from composer_tasks.physics import Physics
    from composer_tasks.walkers.base import Walker

_HFIELD_SAMPLES = 201
_HFIELD_HALF_SIZE_M = 6.0
_HFIELD_HEIGHT_M = 0.5
_HFIELD_BASE_M = 0.1
_TERRAIN_SMOOTHNESS = 0.5  # 0: maximally bumpy, 1: smooth.
_TERRAIN_BUMP_SCALE_M = 0.2
_UPRIGHT_DEVIATION_DEG = 30.0
# Bisection of the spawn height stops at this resolution; the walker is then
# raised by the same amount so that it starts just clear of the terrain, metres.
_SPAWN_HEIGHT_RESOLUTION_M = 0.005
_MAX_SPAWN_HEIGHT_M = 5.0


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


class Escape(walker_task.WalkerTask):
    """Escape from the bowl.

    Args:
      walker: a free walker (composer_tasks.walkers API).
      arena: a `Bowl` (or an arena with `ground_geoms`, `terrain_half_size`,
        `regenerate(random_state)` and `write_terrain(physics)`).
      walker_spawn_position, walker_spawn_rotation: accepted and kept, as in
        dm_control, which stores them and never reads them: the walker always
        starts above the bowl's centre in a random orientation, whatever they say.
      physics_timestep, control_timestep: seconds.

    Observation `walker/origin` (an observable the task adds to the walker's, as
    dm_control's): the world origin (the bowl's centre) relative to the root body,
    in the walker's egocentric frame, metres.
    """

    _arena: Bowl

    def __init__(
        self,
        walker: Walker,
        arena: Bowl,
        walker_spawn_position: walker_task.Evaluable = (0, 0, 0),
        walker_spawn_rotation: walker_task.Evaluable = None,
        physics_timestep: float = 0.005,
        control_timestep: float = 0.025,
    ) -> None:
        if getattr(walker, "is_planar", False):
            raise ValueError(
                "Escape needs a free (3-D) walker; a planar walker cannot leave a bowl"
            )
        self._walker = walker
        self._arena = arena
        # dm_control 1.0.50 escape.py keeps both and its episodes ignore them.
        self._walker_spawn_position = walker_spawn_position
        self._walker_spawn_rotation = walker_spawn_rotation
        walker_state.attach_walker(arena, walker)
        walker_state.enable_proprioception(walker)
        # dm_control's escape task observes the egocentric camera too (of a walker
        # that has one).
        if getattr(walker, "egocentric_camera", None) is not None and (
            "egocentric_camera" in walker.observables.keys()
        ):
            walker.observables["egocentric_camera"].enabled = True
        self._task_observables = {}
        # A walker observable ("walker/origin"), as dm_control's escape task adds it.
        walker.observables.add_observable(
            "origin", observable.Generic(self._egocentric_origin), enabled=True
        )
        self._walker_geoms: tuple[Any, np.ndarray] | None = None
        self.set_timesteps(control_timestep, physics_timestep)

    def _egocentric_origin(self, physics: Physics) -> np.ndarray:
        return np.asarray(
            self._walker.transform_vec_to_egocentric_frame(
                physics, -walker_state.root_position(physics, self._walker)
            )
        )

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        # The spawn height depends on the new terrain and on the walker's pose, so
        # both are put in place first; walkers' initial poses are deterministic,
        # so setting it again in the walker's own callback changes nothing.
        self._arena.regenerate(random_state)
        self._arena.write_terrain(physics)
        self._walker.initialize_episode(physics, random_state)
        orientation = random_state.randn(4)
        orientation /= np.linalg.norm(orientation)
        self._drop_at_lowest_free_height(physics, orientation)

    def _drop_at_lowest_free_height(self, physics: Physics, orientation: np.ndarray) -> None:
        """Places the walker at the origin in `orientation`, at the lowest height
        (to `_SPAWN_HEIGHT_RESOLUTION_M`) where it touches nothing of the arena."""
        model = physics.model
        if self._walker_geoms is None or self._walker_geoms[0] is not model:
            bodies = np.isin(model.geom_bodyid, termination.walker_body_ids(physics, self._walker))
            self._walker_geoms = (model, bodies)
        walker_geoms = self._walker_geoms[1]

        def touches(height: float) -> bool:
            self._walker.set_pose(physics, position=[0.0, 0.0, height], quaternion=orientation)
            # A probe: deep overlaps may overflow the contact buffer, harmlessly here.
            physics.forward(check_warnings=False)
            data = physics.data
            if not data.ncon:
                return False
            contact = data.contact
            return bool(np.any(walker_geoms[contact.geom1] != walker_geoms[contact.geom2]))

        low, high = 0.0, _MAX_SPAWN_HEIGHT_M
        if touches(low):
            while high - low > _SPAWN_HEIGHT_RESOLUTION_M:
                middle = (low + high) / 2
                if touches(middle):
                    low = middle
                else:
                    high = middle
        else:
            high = low
        self._walker.set_pose(
            physics, position=[0.0, 0.0, high + _SPAWN_HEIGHT_RESOLUTION_M], quaternion=orientation
        )

    def get_reward(self, physics: Physics) -> float:
        radius = self._arena.terrain_half_size
        distance = float(np.linalg.norm(walker_state.root_position(physics, self._walker)))
        escape = rewards.tolerance(
            distance,
            bounds=(radius, float("inf")),
            margin=radius,
            sigmoid="linear",
            value_at_margin=0.0,
        )
        deviation = float(np.cos(np.deg2rad(_UPRIGHT_DEVIATION_DEG)))
        upright = rewards.tolerance(
            walker_state.root_upright(physics, self._walker),
            bounds=(deviation, float("inf")),
            margin=1.0 + deviation,
            sigmoid="linear",
            value_at_margin=0.0,
        )
        # Floats in, floats out (`tolerance`): float() only tells the type checker.
        return float(escape * upright)
