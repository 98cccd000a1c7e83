"""Reacher: a two-link planar arm brings its fingertip onto a randomly placed target.

Tasks, rewards and initial states follow dm_control 1.0.50 `suite/reacher.py`.
"""

import numpy as np

import mjcf_models.reacher
from composer_tasks import array_namespace
from composer_tasks import physics as physics_lib
from composer_tasks import rewards
from suites import base, common

_DEFAULT_TIME_LIMIT = 20  # seconds: 1000 control steps of 0.02 s
_BIG_TARGET_RADIUS = 0.05  # metres
_SMALL_TARGET_RADIUS = 0.015
# The target centre is drawn uniformly in angle and in radius from the shoulder axis.
_TARGET_DISTANCE_RANGE = (0.05, 0.20)  # metres

SUITE = base.Registry()


@SUITE.add("benchmarking", "easy")
def easy(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Reach a target of radius 5 cm."""
    task = Reacher(target_size=_BIG_TARGET_RADIUS)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add("benchmarking")
def hard(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Reach a target of radius 1.5 cm."""
    task = Reacher(target_size=_SMALL_TARGET_RADIUS)
    return base.make_environment(task, time_limit, random, environment_kwargs)


def get_model_and_assets():
    """dm_control's `reacher.get_model_and_assets`: the MJCF text (bytes) of the
    domain's model and the suite's shared assets, for
    `Physics.from_xml_string(*get_model_and_assets())` and dm_control's
    `control.Environment(physics, task)` (the text compiles to the model this domain's
    tasks build, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_lib.spec_xml(mjcf_models.reacher.make_spec()), common.ASSETS


class Physics(physics_lib.Physics):
    """Reacher physics with named quantities (world frame, metres, radians).

    Quantities also work on the (N, ...) arrays of a batch (`composer_tasks.batch`).
    """

    def _model_changed(self):
        self._target = self.model.geom("target").id
        self._finger = self.model.geom("finger").id

    def joint_angles(self):
        """(shoulder, wrist) angles in radians: the whole position state."""
        return self.data.qpos.copy()

    def joint_velocities(self):
        """(shoulder, wrist) angular velocities in rad/s."""
        return self.data.qvel.copy()

    def finger_to_target(self):
        """World-frame (x, y) vector from the finger's centre to the target's centre."""
        xpos = self.data.geom_xpos
        return xpos[..., self._target, :2] - xpos[..., self._finger, :2]

    def finger_to_target_dist(self):
        """Distance in metres between the finger's and the target's centres in the
        arm's (x, y) plane."""
        to_target = self.finger_to_target()
        return array_namespace.namespace(to_target).hypot(to_target[..., 0], to_target[..., 1])

    def target_and_finger_radius(self):
        """Sum of the target's and the finger's radii: the reach tolerance in metres."""
        size = self.model.geom_size
        return size[..., self._target, 0] + size[..., self._finger, 0]


class Reacher(base.SuiteTask):
    """Put the finger onto the target: reward 1 while the spheres overlap, else 0.

    Args:
      target_size: radius of the target sphere in metres.
    """

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(self, target_size, random=None):
        if not target_size > 0:
            raise ValueError(
                f"target_size must be a positive number of metres, got {target_size!r}"
            )
        super().__init__(mjcf_models.reacher.make_spec(), "reacher", random=random)
        self._target_size = target_size
        self.set_observations(
            position=lambda physics: physics.joint_angles(),
            to_target=lambda physics: physics.finger_to_target(),
            velocity=lambda physics: physics.joint_velocities(),
        )

    def initialize_episode(self, physics, random_state):
        model, data = physics.model, physics.data
        target = model.geom("target")
        target.size[0] = self._target_size
        # The shoulder turns freely, the wrist within its limits; drawn in joint order.
        data.joint("shoulder").qpos[0] = random_state.uniform(-np.pi, np.pi)
        data.joint("wrist").qpos[0] = random_state.uniform(*model.joint("wrist").range)
        angle = random_state.uniform(0, 2 * np.pi)
        distance = random_state.uniform(*_TARGET_DISTANCE_RANGE)
        target.pos[0] = distance * np.sin(angle)
        target.pos[1] = distance * np.cos(angle)

    def get_reward(self, physics):
        return rewards.tolerance(
            physics.finger_to_target_dist(), (0, physics.target_and_finger_radius())
        )
