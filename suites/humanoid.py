"""Humanoid domain: stand, walk and run with a 21-actuator humanoid.

Tasks, timesteps, observations, rewards and the initial-state distribution are
those of the published Control Suite (dm_control 1.0.50, `suite/humanoid.py`;
Tassa et al. 2018, §6.2: state 54, action 21, observation 67 dimensions).
"""

import mujoco
import numpy as np

from composer_tasks import array_namespace
from composer_tasks import physics as physics_module
from composer_tasks import rewards
from mjcf_models import humanoid as humanoid_model
from suites import base, common

_DEFAULT_TIME_LIMIT = 25  # Seconds: 1000 control steps.
_CONTROL_TIMESTEP = 0.025  # Seconds: 5 physics steps of 5 ms.

# Head height (m) above which the stand reward is 1.
_STAND_HEIGHT = 1.4

# Horizontal centre-of-mass speeds (m/s) above which the move reward is 1.
_WALK_SPEED = 1
_RUN_SPEED = 10

# Egocentric extremity vectors, in this published order.
_EXTREMITIES = ("left_hand", "left_foot", "right_hand", "right_foot")

# The free root joint's first 7 qpos (position, quaternion) and 6 qvel entries.
_ROOT_QPOS = 7

SUITE = base.Registry()


@SUITE.add("benchmarking")
def stand(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Stand up and stay still."""
    task = Humanoid(move_speed=0, pure_state=False)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add("benchmarking")
def walk(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Move the centre of mass horizontally at 1 m/s or faster, upright."""
    task = Humanoid(move_speed=_WALK_SPEED, pure_state=False)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add("benchmarking")
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Move the centre of mass horizontally at 10 m/s or faster, upright."""
    task = Humanoid(move_speed=_RUN_SPEED, pure_state=False)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add()
def run_pure_state(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """The run task observing the raw MuJoCo state (qpos, qvel) only."""
    task = Humanoid(move_speed=_RUN_SPEED, pure_state=True)
    return base.make_environment(task, time_limit, random, environment_kwargs)


def get_model_and_assets():
    """dm_control's `humanoid.get_model_and_assets`: the MJCF text (bytes) of the
    domain's model and the suite's shared assets, for
    `Physics.from_xml_string(*get_model_and_assets())` and dm_control's
    `control.Environment(physics, task)` (the text compiles to the model this domain's
    tasks build, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_module.spec_xml(humanoid_model.make_spec()), common.ASSETS


class Physics(physics_module.Physics):
    """The humanoid's physical quantities, in the world frame unless stated."""

    def _model_changed(self):
        model = self.model
        self._torso = model.body("torso").id
        self._head = model.body("head").id
        self._extremities = np.array([model.body(name).id for name in _EXTREMITIES])
        sensor = model.sensor("torso_subtreelinvel")
        self._com_velocity_slice = slice(sensor.adr[0], sensor.adr[0] + 3)

    def torso_upright(self):
        """The world-z component of the torso's z axis: 1 upright, -1 upside down."""
        return self.data.xmat[..., self._torso, base.ZZ][()]

    def head_height(self):
        """Height (m) of the head body's origin above the world origin."""
        return self.data.xpos[..., self._head, 2][()]

    def center_of_mass_position(self):
        """Centre of mass (m) of the whole humanoid (the torso's subtree)."""
        return self.data.subtree_com[..., self._torso, :].copy()

    def center_of_mass_velocity(self):
        """Linear velocity (m/s) of the centre of mass, from the subtree sensor."""
        return self.data.sensordata[..., self._com_velocity_slice].copy()

    def torso_vertical_orientation(self):
        """The world z axis in the torso frame (the torso rotation matrix's last row)."""
        return self.data.xmat[..., self._torso, base.ZX : base.ZZ + 1].copy()

    def joint_angles(self):
        """The 21 hinge angles (rad), without the free root joint."""
        return self.data.qpos[..., _ROOT_QPOS:].copy()

    def extremities(self):
        """Hands and feet relative to the torso, in the torso frame (m): left hand,
        left foot, right hand, right foot, 3 coordinates each."""
        data = self.data
        rotation = data.xmat[..., self._torso, :]
        offsets = data.xpos[..., self._extremities, :] - data.xpos[..., self._torso, None, :]
        in_torso_frame = base.vector_times_rotation(offsets, rotation[..., None, :])
        return in_torso_frame.reshape(in_torso_frame.shape[:-2] + (-1,))


class Humanoid(base.SuiteTask):
    """Stand (move_speed 0) or move the centre of mass at `move_speed` m/s, upright.

    Args:
      move_speed: horizontal speed (m/s) the centre of mass must reach; 0 asks to
        stand still.
      pure_state: observe only qpos and qvel instead of the published features.
    """

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(self, move_speed, pure_state, random=None):
        if not move_speed >= 0:
            raise ValueError(f"move_speed must be a speed >= 0 m/s, got {move_speed!r}")
        super().__init__(
            humanoid_model.make_spec(),
            "humanoid",
            control_timestep=_CONTROL_TIMESTEP,
            random=random,
        )
        self._move_speed = move_speed
        if pure_state:
            self.set_observations(
                position=lambda physics: physics.position(),
                velocity=lambda physics: physics.velocity(),
            )
        else:
            self.set_observations(
                joint_angles=lambda physics: physics.joint_angles(),
                head_height=lambda physics: physics.head_height(),
                extremities=lambda physics: physics.extremities(),
                torso_vertical=lambda physics: physics.torso_vertical_orientation(),
                com_velocity=lambda physics: physics.center_of_mass_velocity(),
                velocity=lambda physics: physics.velocity(),
            )

    def after_compile(self, physics, random_state):
        super().after_compile(physics, random_state)
        model = physics.model
        hinges = model.jnt_type == mujoco.mjtJoint.mjJNT_HINGE
        limited = model.jnt_limited[hinges].astype(bool)
        root = model.joint("root").qposadr[0]
        self._root_quaternion = slice(root + 3, root + 7)
        self._hinge_qpos = model.jnt_qposadr[hinges]
        # As published, a hinge is drawn within its range, or anywhere if unlimited.
        self._hinge_low = np.where(limited, model.jnt_range[hinges, 0], -np.pi)
        self._hinge_high = np.where(limited, model.jnt_range[hinges, 1], np.pi)

    def initialize_episode(self, physics, random_state):
        """A random upright-or-not pose without contacts, at rest, torso at 1.5 m.

        As published: the root orientation is a quaternion of 4 uniform [0, 1)
        numbers, normalised; then each hinge angle, in joint order, is uniform in
        its range; the draw is repeated until no geoms touch.
        """
        data = physics.data
        while True:
            quaternion = random_state.rand(4)
            data.qpos[self._root_quaternion] = quaternion / np.linalg.norm(quaternion)
            data.qpos[self._hinge_qpos] = random_state.uniform(self._hinge_low, self._hinge_high)
            physics.forward()
            if data.ncon == 0:
                break

    def get_reward(self, physics):
        """Upright head height times small control times a speed (or stillness) term."""
        return standing_reward(physics, physics.torso_upright(), self._move_speed)


def standing_reward(physics, upright_cosine, move_speed):
    """The published humanoid reward, shared by humanoid and humanoid_CMU: head above
    1.4 m, upright (`upright_cosine`, the trunk's z-axis z component), small controls,
    and the centre of mass moving at `move_speed` m/s or more (0: staying still).
    Works on a batch's (N, ...) arrays too."""
    standing = rewards.tolerance(
        physics.head_height(), bounds=(_STAND_HEIGHT, np.inf), margin=_STAND_HEIGHT / 4
    )
    upright = rewards.tolerance(
        upright_cosine, bounds=(0.9, np.inf), sigmoid="linear", margin=1.9, value_at_margin=0
    )
    stand_reward = standing * upright
    small_control = base.mean_last_axis(
        rewards.tolerance(physics.data.ctrl, margin=1, value_at_margin=0, sigmoid="quadratic")
    )
    small_control = (4 + small_control) / 5
    com_velocity = physics.center_of_mass_velocity()
    velocity_x, velocity_y = com_velocity[..., 0], com_velocity[..., 1]
    if move_speed == 0:
        # The mean over the two horizontal components, one scalar call each.
        motion = (
            rewards.tolerance(velocity_x, margin=2) + rewards.tolerance(velocity_y, margin=2)
        ) / 2
    else:
        xp = array_namespace.namespace(velocity_x)
        speed = xp.sqrt(velocity_x * velocity_x + velocity_y * velocity_y)
        move = rewards.tolerance(
            speed,
            bounds=(move_speed, np.inf),
            margin=move_speed,
            value_at_margin=0,
            sigmoid="linear",
        )
        motion = (5 * move + 1) / 6
    return small_control * stand_reward * motion
