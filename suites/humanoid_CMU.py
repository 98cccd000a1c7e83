# The module name is the published domain name, which suite.load looks up.
# ruff: noqa: N999
"""humanoid_CMU domain: stand, walk and run with the suite's 56-hinge CMU humanoid.

Tasks, timesteps, observations, rewards and the initial-state distribution are
those of the published Control Suite (dm_control 1.0.50, `suite/humanoid_CMU.py`;
Tassa et al. 2018, §6.2): 20 s episodes of 20 ms control steps, 56 actions,
observations of 137 numbers.
"""

import mujoco
import numpy as np

from composer_tasks import composer
from composer_tasks import physics as physics_module
from mjcf_models import humanoid_cmu as humanoid_cmu_model
from suites import base, common
from suites import humanoid

_DEFAULT_TIME_LIMIT = 20  # Seconds: 1000 control steps.
_CONTROL_TIMESTEP = 0.02  # Seconds: 10 physics steps of 2 ms.

# The reward (head above 1.4 m, upright, small controls, speed) is the suite
# humanoid's: `humanoid.standing_reward`.
# Horizontal centre-of-mass speeds (m/s) above which the move reward is 1.
_WALK_SPEED = 1
_RUN_SPEED = 10

# Egocentric extremity vectors, in this published order.
_EXTREMITIES = ("lhand", "lfoot", "rhand", "rfoot")

# The free root joint's first 7 qpos entries (position, quaternion).
_ROOT_QPOS = 7

# Offsets in a row of `data.xmat` (a row-major 3x3 rotation, R[A, B] the world A
# component of the body's B axis): the world z components of the body's y and x,
# y, z axes. The CMU skeleton's y axis points along the spine.
_ZX, _ZY, _ZZ = 6, 7, 8

# A seed, a random state or None (seeded from the operating system).
_Random = int | np.random.RandomState | None

SUITE = base.Registry()


@SUITE.add()
def stand(
    time_limit: float = _DEFAULT_TIME_LIMIT,
    random: _Random = None,
    environment_kwargs: dict | None = None,
) -> composer.Environment:
    """Stand up and stay still."""
    return base.make_environment(HumanoidCMU(move_speed=0), time_limit, random, environment_kwargs)


@SUITE.add()
def walk(
    time_limit: float = _DEFAULT_TIME_LIMIT,
    random: _Random = None,
    environment_kwargs: dict | None = None,
) -> composer.Environment:
    """Move the centre of mass horizontally at 1 m/s or faster, upright."""
    return base.make_environment(
        HumanoidCMU(move_speed=_WALK_SPEED), time_limit, random, environment_kwargs
    )


@SUITE.add()
def run(
    time_limit: float = _DEFAULT_TIME_LIMIT,
    random: _Random = None,
    environment_kwargs: dict | None = None,
) -> composer.Environment:
    """Move the centre of mass horizontally at 10 m/s or faster, upright."""
    return base.make_environment(
        HumanoidCMU(move_speed=_RUN_SPEED), time_limit, random, environment_kwargs
    )


def get_model_and_assets():
    """dm_control's `humanoid_CMU.get_model_and_assets`: the MJCF text (bytes) of the
    domain's model and the suite's shared assets, for
    `Physics.from_xml_string(*get_model_and_assets())` and dm_control's
    `control.Environment(physics, task)` (the text compiles to the model this domain's
    tasks build, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_module.spec_xml(humanoid_cmu_model.make_spec()), common.ASSETS


class Physics(physics_module.Physics):
    """The CMU humanoid's physical quantities, in the world frame unless stated.

    Every method reads `data` through `[..., index]`, so it serves one
    environment and a batch's (N, ...) arrays alike.
    """

    def _model_changed(self):
        super()._model_changed()
        model = self.model
        self._thorax = model.body("thorax").id
        self._head = model.body("head").id
        self._extremities = np.array([model.body(name).id for name in _EXTREMITIES])
        sensor = model.sensor("thorax_subtreelinvel")
        self._com_velocity_slice = slice(sensor.adr[0], sensor.adr[0] + 3)

    def thorax_upright(self) -> np.ndarray:
        """The world-z component of the thorax's y axis (the spine): 1 upright."""
        return self.data.xmat[..., self._thorax, _ZY][()]

    def head_height(self) -> np.ndarray:
        """Height (m) of the head body's origin above the world origin."""
        return self.data.xpos[..., self._head, 2][()]

    def center_of_mass_position(self) -> np.ndarray:
        """Centre of mass (m) of the thorax's subtree (head, neck, arms)."""
        return self.data.subtree_com[..., self._thorax, :].copy()

    def center_of_mass_velocity(self) -> np.ndarray:
        """Linear velocity (m/s) of the thorax subtree's centre of mass, from its
        sensor (the published 'centre of mass' velocity)."""
        return self.data.sensordata[..., self._com_velocity_slice].copy()

    def torso_vertical_orientation(self) -> np.ndarray:
        """The world z axis in the thorax frame (the rotation matrix's last row)."""
        return self.data.xmat[..., self._thorax, _ZX : _ZZ + 1].copy()

    def joint_angles(self) -> np.ndarray:
        """The 56 hinge angles (rad), without the free root joint."""
        return self.data.qpos[..., _ROOT_QPOS:].copy()

    def extremities(self) -> np.ndarray:
        """Hands and feet relative to the thorax, in the thorax frame (m): left
        hand, left foot, right hand, right foot, 3 coordinates each."""
        data = self.data
        rotation = data.xmat[..., self._thorax, :]
        offsets = data.xpos[..., self._extremities, :] - data.xpos[..., self._thorax, None, :]
        in_thorax_frame = base.vector_times_rotation(offsets, rotation[..., None, :])
        return in_thorax_frame.reshape(in_thorax_frame.shape[:-2] + (-1,))


class HumanoidCMU(base.SuiteTask):
    """Stand (move_speed 0) or move the centre of mass at `move_speed` m/s, upright.

    Args:
      move_speed: horizontal speed (m/s) the centre of mass must reach; 0 asks to
        stand still.

    Raises:
      ValueError: if `move_speed` is negative or not a number.
    """

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(self, move_speed: float, random=None):
        if not move_speed >= 0:
            raise ValueError(f"move_speed must be a speed >= 0 m/s, got {move_speed!r}")
        super().__init__(
            humanoid_cmu_model.make_spec(),
            "humanoid_CMU",
            control_timestep=_CONTROL_TIMESTEP,
            random=random,
        )
        self._move_speed = move_speed
        self.set_observations(
            joint_angles=Physics.joint_angles,
            head_height=Physics.head_height,
            extremities=Physics.extremities,
            torso_vertical=Physics.torso_vertical_orientation,
            com_velocity=Physics.center_of_mass_velocity,
            velocity=lambda physics: physics.data.qvel.copy(),
        )

    def after_compile(self, physics, random_state):
        super().after_compile(physics, random_state)
        model = physics.model
        hinges = model.jnt_type == mujoco.mjtJoint.mjJNT_HINGE
        if not model.jnt_limited[hinges].all():
            raise ValueError("every hinge of the CMU humanoid must be limited, as published")
        root = model.joint("root").qposadr[0]
        self._root_quaternion = slice(root + 3, root + 7)
        self._hinge_qpos = model.jnt_qposadr[hinges]
        self._hinge_low = model.jnt_range[hinges, 0].copy()
        self._hinge_high = model.jnt_range[hinges, 1].copy()

    def initialize_episode(self, physics, random_state):
        """A random pose without contacts, at rest, root at 1 m.

        As published (`randomize_limited_and_rotational_joints`): the root
        orientation is a quaternion of 4 uniform [0, 1) numbers, normalised; then
        each hinge angle, in joint order, is uniform in its range; the draw is
        repeated until no geoms touch.
        """
        data = physics.data
        while True:
            quaternion = random_state.rand(4)
            data.qpos[self._root_quaternion] = quaternion / np.linalg.norm(quaternion)
            data.qpos[self._hinge_qpos] = random_state.uniform(self._hinge_low, self._hinge_high)
            physics.forward()
            if data.ncon == 0:
                break

    def get_reward(self, physics: Physics) -> float | np.ndarray:
        """Upright head height times small control times a speed (or stillness) term."""
        return humanoid.standing_reward(physics, physics.thorax_upright(), self._move_speed)
