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

from typing import TYPE_CHECKING, Any

import numpy as np

from composer_tasks import rewards
from composer_tasks.arenas.bowl import Bowl
from composer_tasks.composer.observation import observable
from composer_tasks.tasks import termination
from composer_tasks.tasks import walker_state
from composer_tasks.tasks import walker_task

if TYPE_CHECKING:
    from composer_tasks.physics import Physics
    from composer_tasks.walkers.base import Walker

_UPRIGHT_DEVIATION_DEG = 30.0
# Bisection of the spawn height stops at this resolution; the walker is then
# raised by the same amount so that it starts just clear of the terrain, metres.
_SPAWN_HEIGHT_RESOLUTION_M = 0.005
_MAX_SPAWN_HEIGHT_M = 5.0


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
