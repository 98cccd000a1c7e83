"""Pendulum domain: swing a torque-limited pendulum up and keep it upright.

Task, reward, initial-state distribution, timesteps and observation keys are those
of dm_control 1.0.50's `suite/pendulum.py` (Tassa et al. 2018, §6.2: state 2,
action 1, observation 3).
"""

import numpy as np

from composer_tasks import physics as physics_lib
from composer_tasks import rewards
from mjcf_models import pendulum as pendulum_model
from suites import base, common

# suite/pendulum.py: 20 s episodes of 0.02 s control steps (one physics step each).
_DEFAULT_TIME_LIMIT = 20
_CONTROL_TIMESTEP = 0.02
# Reward 1 while the pole is within 8 degrees of upright, else 0.
_ANGLE_BOUND_DEG = 8
_COSINE_BOUND = np.cos(np.deg2rad(_ANGLE_BOUND_DEG))

SUITE = base.Registry()


@SUITE.add("benchmarking")
def swingup(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Swing the pendulum up from a random angle and balance it; sparse reward."""
    task = SwingUp()
    return base.make_environment(task, time_limit, random, environment_kwargs)


def get_model_and_assets():
    """dm_control's `pendulum.get_model_and_assets`: the MJCF text (bytes) of the
    domain's model and the suite's shared assets, for
    `Physics.from_xml_string(*get_model_and_assets())` and dm_control's
    `control.Environment(physics, task)` (the text compiles to the model this domain's
    tasks build, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_lib.spec_xml(pendulum_model.make_spec()), common.ASSETS


class Physics(physics_lib.Physics):
    """Pendulum physics with named quantities (world frame, radians, rad/s).

    Array quantities may be views of `data`/`model` (the observation machinery
    copies them); copy one before keeping it across steps.
    """

    def _model_changed(self):
        self._pole = self.model.body("pole").id
        self._hinge_dof = int(self.model.joint("hinge").dofadr[0])
        self._orientation_index = (Ellipsis, self._pole, np.array([base.ZZ, base.XZ]))

    def pole_vertical(self):
        """Cosine of the pole's angle from upright."""
        return self.data.xmat[..., self._pole, base.ZZ][()]

    def angular_velocity(self):
        """Hinge angular velocity in rad/s, shape (1,)."""
        return self.data.qvel[..., self._hinge_dof : self._hinge_dof + 1]

    def pole_orientation(self):
        """Cosine and sine of the pole's angle from upright."""
        return self.data.xmat[self._orientation_index]


class SwingUp(base.SuiteTask):
    """Swing up and balance: reward 1 within 8 degrees of upright, 0 elsewhere."""

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(self, random=None):
        super().__init__(
            pendulum_model.make_spec(),
            "pendulum",
            control_timestep=_CONTROL_TIMESTEP,
            random=random,
        )
        self.set_observations(
            orientation=Physics.pole_orientation, velocity=Physics.angular_velocity
        )

    def initialize_episode(self, physics, random_state):
        """Starts at rest at an angle drawn uniformly from [-pi, pi)."""
        physics.data.joint("hinge").qpos = random_state.uniform(-np.pi, np.pi)

    def get_reward(self, physics):
        return rewards.tolerance(physics.pole_vertical(), (_COSINE_BOUND, 1))
