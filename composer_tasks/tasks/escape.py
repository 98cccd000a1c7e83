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

import functools
from typing import TYPE_CHECKING

import mujoco
import numpy as np

from composer_tasks import rewards
from composer_tasks.arenas.bowl import Bowl
from composer_tasks.composer.observation import observable
from composer_tasks.tasks import walker_state
from composer_tasks.tasks import walker_task

if TYPE_CHECKING:
    from composer_tasks.physics import Physics
    from composer_tasks.walkers.base import Walker

_UPRIGHT_DEVIATION_DEG = 30.0
# dm_control's spawn search: heights 0, 1 cm, 2 cm, ... (999 of them).
_SPAWN_STEP_M = 0.01
_SPAWN_SEARCH_STEPS = 999
# The first height the bisection tries (2 m), above any walker's reach.
_SPAWN_FIRST_PROBE = 200


@functools.lru_cache(maxsize=1)
def _spawn_heights() -> tuple[float, ...]:
    """The heights dm_control's search tries, summed step by step as it sums them."""
    heights, height = [], 0.0
    for _ in range(_SPAWN_SEARCH_STEPS):
        heights.append(height)
        height += _SPAWN_STEP_M
    return tuple(heights)


class Escape(walker_task.WalkerTask):
    """Escape from the bowl.

    Args:
      walker: a free walker (composer_tasks.walkers API).
      arena: a `Bowl` (or an arena with `ground_geoms`, `terrain_half_size` and
        `regenerate(random_state)`; `draw_terrain(physics, random_state)` too for
        `spawn_on_new_terrain`).
      walker_spawn_position, walker_spawn_rotation: accepted and kept, as in
        dm_control, which stores them and never reads them: the walker always
        starts above the bowl's centre in a random orientation, whatever they say.
      physics_timestep, control_timestep: seconds.
      spawn_on_new_terrain: this project's: draw the episode's terrain before
        searching the spawn height, so that the walker starts clear of it.
        dm_control (the default, False) searches on the flat heightfield of the
        freshly compiled model and draws the terrain afterwards, in the arena's
        callback.

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
        *,
        spawn_on_new_terrain: bool = False,
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
        if spawn_on_new_terrain and not callable(getattr(arena, "draw_terrain", None)):
            raise TypeError(
                "spawn_on_new_terrain needs an arena with draw_terrain(physics, random_state)"
            )
        self._spawn_on_new_terrain = bool(spawn_on_new_terrain)
        self.set_timesteps(control_timestep, physics_timestep)

    def _egocentric_origin(self, physics: Physics) -> np.ndarray:
        return np.asarray(
            self._walker.transform_vec_to_egocentric_frame(
                physics, -walker_state.root_position(physics, self._walker)
            )
        )

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        """Asks the arena for a new terrain (drawn in its `initialize_episode`)."""
        regenerate = getattr(self._arena, "regenerate", None)
        if regenerate is not None:
            regenerate(random_state)

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Draws the walker's orientation and puts it at the lowest free height.

        As dm_control: the height is searched on the heightfield of the model as
        compiled, flat (dm_control compiles a new model at every reset, and the
        terrain is drawn at run time), and the arena's own callback, which runs
        after this one, draws and writes the episode's terrain; so the walker can
        start inside a bump. With `spawn_on_new_terrain` the terrain is drawn first.
        """
        if self._spawn_on_new_terrain:
            self._arena.draw_terrain(physics, random_state)
        # Walkers' initial poses are deterministic, so setting the pose here, for
        # the search, and again in the walker's own callback changes nothing.
        self._walker.initialize_episode(physics, random_state)
        orientation = random_state.randn(4)
        orientation /= np.linalg.norm(orientation)
        self._find_non_contacting_height(physics, orientation)

    def _find_non_contacting_height(self, physics: Physics, orientation: np.ndarray) -> None:
        """Places the walker at the origin in `orientation`, at the first height of
        dm_control's search (0, 0.01, 0.02, ... m, summed as it sums them) where the
        model has no contact at all (the walker's own contacts count too).

        dm_control tries the heights one by one; raising the walker only takes it
        away from the terrain, so the contacts stop at one height and do not come
        back above it, and a bisection over the same heights finds the same one in
        about ten forward passes instead of up to a hundred.

        Raises:
          ValueError: no such height below 10 m (999 steps, as dm_control).
        """
        heights = _spawn_heights()
        last = len(heights) - 1

        def touches(step: int) -> bool:
            self._walker.set_pose(
                physics, position=[0.0, 0.0, heights[step]], quaternion=orientation
            )
            try:
                # Deep overlaps may fill the contact buffer: harmless for the count.
                physics.forward(check_warnings=False)
            except mujoco.FatalError:
                return True  # so many contacts that MuJoCo's arena overflowed
            return bool(physics.data.ncon)

        # Bisection from above (low touches, high is clear; -1 stands for "below
        # the first height"), so that the walker is seldom put deep in the ground.
        low, high = -1, min(_SPAWN_FIRST_PROBE, last)
        while touches(high):
            if high == last:
                raise ValueError(
                    f"Escape: the walker touches something at every height up to "
                    f"{heights[last]:.2f} m (possibly contacts in its initial pose)"
                )
            low, high = high, min(2 * high, last)
        while high - low > 1:
            middle = (low + high) // 2
            if touches(middle):
                low = middle
            else:
                high = middle
        if touches(high):  # the pose of the height found (clear, as probed)
            raise AssertionError("the spawn search's contacts changed between probes")

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
        # A NumPy float, as dm_control's (its tolerance of a 0-d array).
        return np.float64(escape * upright)
