"""Planar walker domain: stand up, walk and run.

Tasks, reward definitions, initial-state distribution, timesteps and observation
keys are those of dm_control 1.0.50's `suite/walker.py` (Tassa et al. 2018, §6.2:
state 18, action 6, observation 24).
"""

import numpy as np

from composer_tasks import array_namespace, rewards
from composer_tasks import physics as physics_lib
from mjcf_models import walker as walker_model
from suites import base, common

# suite/walker.py: 25 s episodes of 0.025 s control steps (10 physics steps each).
_DEFAULT_TIME_LIMIT = 25
_CONTROL_TIMESTEP = 0.025
# Torso height (m) from which the standing term is 1.
_STAND_HEIGHT = 1.2
# Forward speeds (m/s) from which the move term is 1.
_WALK_SPEED = 1
_RUN_SPEED = 8

SUITE = base.Registry()


@SUITE.add("benchmarking")
def stand(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Stand up with the torso high and upright."""
    return base.make_environment(PlanarWalker(move_speed=0), time_limit, random, environment_kwargs)


@SUITE.add("benchmarking")
def walk(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Stand and move forward at 1 m/s or faster."""
    return base.make_environment(
        PlanarWalker(move_speed=_WALK_SPEED), time_limit, random, environment_kwargs
    )


@SUITE.add("benchmarking")
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Stand and move forward at 8 m/s or faster."""
    return base.make_environment(
        PlanarWalker(move_speed=_RUN_SPEED), time_limit, random, environment_kwargs
    )


def get_model_and_assets():
    """dm_control's `walker.get_model_and_assets`: the MJCF text (bytes) of the
    domain's model and the suite's shared assets, for
    `Physics.from_xml_string(*get_model_and_assets())` and dm_control's
    `control.Environment(physics, task)` (the text compiles to the model this domain's
    tasks build, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_lib.spec_xml(walker_model.make_spec()), common.ASSETS


class Physics(base.RandomPosePhysics):
    """Walker physics with named quantities (world frame; m, rad, m/s, rad/s)."""

    def _model_changed(self):
        super()._model_changed()
        model = self.model
        self._torso = model.body("torso").id
        self._velocity_address = int(model.sensor("torso_subtreelinvel").adr[0])
        # Entries of the flattened `xmat` holding xx and xz of every body but the
        # world, in model order: one gather per call.
        self._orientation_entries = (
            9 * np.arange(1, model.nbody)[:, None] + np.array([base.XX, base.XZ])
        ).ravel()

    def torso_upright(self):
        """Cosine of the torso's tilt: the z component of its z axis (1 upright)."""
        return self.data.xmat[..., self._torso, base.ZZ][()]

    def torso_height(self):
        """Height of the torso's frame origin above the floor (world z), in metres."""
        return self.data.xpos[..., self._torso, 2][()]

    def horizontal_velocity(self):
        """Forward (world x) velocity of the walker's centre of mass, in m/s."""
        return self.data.sensordata[..., self._velocity_address][()]

    def orientations(self):
        """Per body (torso to left foot): the world x components of its x and z
        axes, the cosine and sine of its pitch. A new array of 14 values."""
        xmat = self.data.xmat
        return xmat.reshape(xmat.shape[:-2] + (-1,))[..., self._orientation_entries]

    def height(self):
        """`torso_height` for the observation: a NumPy float for one environment (as
        dm_control's), a new array for a batch."""
        return array_namespace.new_array(self.data.xpos[..., self._torso, 2])[()]


class PlanarWalker(base.SuiteTask):
    """Stand (move_speed 0) or move forward at `move_speed` m/s or faster.

    Episodes start from a random pose: a random torso pitch and random joint angles
    at the model's initial height (1.3 m), from which the walker falls.
    """

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(self, move_speed, random=None):
        self._move_speed = move_speed
        super().__init__(
            walker_model.make_spec(), "walker", control_timestep=_CONTROL_TIMESTEP, random=random
        )
        self.set_observations(
            orientations=Physics.orientations, height=Physics.height, velocity=Physics.velocity
        )

    def initialize_episode(self, physics, random_state):
        physics.randomize_joints(random_state)

    def get_reward(self, physics):
        standing = rewards.tolerance(
            physics.torso_height(), bounds=(_STAND_HEIGHT, float("inf")), margin=_STAND_HEIGHT / 2
        )
        upright = (1 + physics.torso_upright()) / 2
        stand_reward = (3 * standing + upright) / 4
        if self._move_speed == 0:
            return stand_reward
        move_reward = rewards.tolerance(
            physics.horizontal_velocity(),
            bounds=(self._move_speed, float("inf")),
            margin=self._move_speed / 2,
            value_at_margin=0.5,
            sigmoid="linear",
        )
        return stand_reward * (5 * move_reward + 1) / 6
