"""Hopper domain: stand still upright, or hop forward.

Tasks, reward definitions, initial-state distribution, timesteps and observation
keys are those of dm_control 1.0.50's `suite/hopper.py` (Tassa et al. 2018, §6.2:
state 14, action 4, observation 15).
"""

import numpy as np

from composer_tasks import array_namespace, rewards
from composer_tasks import physics as physics_lib
from mjcf_models import hopper as hopper_model
from suites import base, common

# suite/hopper.py: 20 s episodes of 0.02 s control steps (4 physics steps each).
_DEFAULT_TIME_LIMIT = 20
_CONTROL_TIMESTEP = 0.02
# Torso height above the foot (m) between which the standing term is 1.
_STAND_HEIGHT_RANGE = (0.6, 2)
# Forward speed (m/s) from which the hopping term is 1.
_HOP_SPEED = 2


SUITE = base.Registry()


@SUITE.add("benchmarking")
def stand(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Stand upright, balanced, with little control effort."""
    return base.make_environment(Hopper(hopping=False), time_limit, random, environment_kwargs)


@SUITE.add("benchmarking")
def hop(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Stay up and hop forward at 2 m/s or faster."""
    return base.make_environment(Hopper(hopping=True), time_limit, random, environment_kwargs)


def get_model_and_assets():
    """dm_control's `hopper.get_model_and_assets`: the MJCF text (bytes) of the
    domain's model and the suite's shared assets, for
    `Physics.from_xml_string(*get_model_and_assets())` and dm_control's
    `control.Environment(physics, task)` (the text compiles to the model this domain's
    tasks build, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_lib.spec_xml(hopper_model.make_spec()), common.ASSETS


class Physics(base.RandomPosePhysics):
    """Hopper physics with named quantities (world frame; m, rad, m/s, rad/s, N)."""

    def _model_changed(self):
        super()._model_changed()
        model = self.model
        self._torso = model.body("torso").id
        self._foot = model.body("foot").id
        self._speed_address = int(model.sensor("torso_subtreelinvel").adr[0])
        self._touch_addresses = np.array(
            [model.sensor(name).adr[0] for name in ("touch_toe", "touch_heel")]
        )

    def height(self):
        """Height (world z) of the torso's centre of mass above the foot's, in m."""
        xipos = self.data.xipos
        return xipos[..., self._torso, 2] - xipos[..., self._foot, 2]

    def speed(self):
        """Forward (world x) velocity of the hopper's centre of mass, in m/s."""
        return self.data.sensordata[..., self._speed_address][()]

    def touch(self):
        """log(1 + normal force in N) at the toe and at the heel, as a new array."""
        touch = self.data.sensordata[..., self._touch_addresses]
        return array_namespace.namespace(touch).log1p(touch)

    def position_without_rootx(self):
        """Generalised positions except the horizontal one (rootx), as a new array:
        rootz (m), rooty (rad), then waist, hip, knee and ankle angles (rad)."""
        return self.data.qpos[..., 1:].copy()


class Hopper(base.SuiteTask):
    """Balance upright (hopping=False) or hop forward (hopping=True).

    Episodes start from a random pose: a random torso pitch and random joint angles
    at the model's initial height (1 m), from which the hopper falls.
    """

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(self, hopping, random=None):
        self._hopping = hopping
        super().__init__(
            hopper_model.make_spec(), "hopper", control_timestep=_CONTROL_TIMESTEP, random=random
        )
        self.set_observations(
            position=Physics.position_without_rootx, velocity=Physics.velocity, touch=Physics.touch
        )

    def initialize_episode(self, physics, random_state):
        physics.randomize_joints(random_state)

    def get_reward(self, physics):
        standing = rewards.tolerance(physics.height(), _STAND_HEIGHT_RANGE)
        if self._hopping:
            hopping = rewards.tolerance(
                physics.speed(),
                bounds=(_HOP_SPEED, float("inf")),
                margin=_HOP_SPEED / 2,
                value_at_margin=0.5,
                sigmoid="linear",
            )
            return standing * hopping
        small_control = base.mean_last_axis(
            rewards.tolerance(physics.control(), margin=1, value_at_margin=0, sigmoid="quadratic")
        )
        small_control = (small_control + 4) / 5
        return standing * small_control
