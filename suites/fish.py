"""Fish domain: turn upright, or swim the mouth to a target, in a viscous-free fluid.

Tasks, timesteps, observations, rewards and the initial-state distributions are
those of the published Control Suite (dm_control 1.0.50, `suite/fish.py`;
Tassa et al. 2018, §6.2: state 26, action 5, observation 24 dimensions for swim).
"""

import numpy as np

from composer_tasks import array_namespace
from composer_tasks import physics as physics_module
from composer_tasks import rewards
from mjcf_models import fish as fish_model
from suites import base, common

_DEFAULT_TIME_LIMIT = 40  # Seconds: 1000 control steps.
_CONTROL_TIMESTEP = 0.04  # Seconds: 10 physics steps of 4 ms.

# Initial hinge angles are uniform in +-this (rad).
_JOINT_ANGLE_SPREAD = 0.2
# The swim target's centre is drawn uniformly in this box (m).
_TARGET_LOW = (-0.4, -0.4, 0.1)
_TARGET_HIGH = (0.4, 0.4, 0.3)

SUITE = base.Registry()


@SUITE.add("benchmarking")
def upright(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Turn the fish's back up from a random orientation."""
    task = Upright()
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add("benchmarking")
def swim(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Bring the mouth into a randomly placed target sphere."""
    task = Swim()
    return base.make_environment(task, time_limit, random, environment_kwargs)


def get_model_and_assets():
    """dm_control's `fish.get_model_and_assets`: the MJCF text (bytes) of the
    domain's model and the suite's shared assets, for
    `Physics.from_xml_string(*get_model_and_assets())` and dm_control's
    `control.Environment(physics, task)` (the text compiles to the model this domain's
    tasks build, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_module.spec_xml(fish_model.make_spec()), common.ASSETS


class Physics(physics_module.Physics):
    """The fish's physical quantities, in the world frame unless stated."""

    def _model_changed(self):
        model = self.model
        self._torso = model.body("torso").id
        self._mouth = model.geom("mouth").id
        self._target = model.geom("target").id
        joints = [model.joint(name) for name in fish_model.JOINT_NAMES]
        self._joint_qpos = np.array([joint.qposadr[0] for joint in joints])
        self._joint_dofs = np.array([joint.dofadr[0] for joint in joints])

    def upright(self):
        """The world-z component of the torso's z axis: 1 when the back points up."""
        return self.data.xmat[..., self._torso, base.ZZ][()]

    def torso_velocity(self):
        """Torso-frame linear (m/s) then angular (rad/s) velocity, from its sensors."""
        return self.data.sensordata.copy()

    def joint_angles(self):
        """The 7 hinge angles (rad), in `fish_model.JOINT_NAMES` order."""
        return self.data.qpos[..., self._joint_qpos]

    def joint_velocities(self):
        """The 7 hinge angular velocities (rad/s), in `fish_model.JOINT_NAMES` order."""
        return self.data.qvel[..., self._joint_dofs]

    def mouth_to_target(self):
        """From the mouth to the target's centre, in the mouth geom's frame (m)."""
        data = self.data
        offset = data.geom_xpos[..., self._target, :] - data.geom_xpos[..., self._mouth, :]
        rotation = data.geom_xmat[..., self._mouth, :]
        return base.vector_times_rotation(offset, rotation)

    def mouth_and_target_radii(self):
        """Sum of the mouth capsule's and the target sphere's radii (m)."""
        size = self.model.geom_size
        return size[..., self._mouth, 0] + size[..., self._target, 0]


class _FishTask(base.SuiteTask):
    """Shared start: a uniformly random orientation and small random hinge angles."""

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(self, random=None):
        super().__init__(
            fish_model.make_spec(), "fish", control_timestep=_CONTROL_TIMESTEP, random=random
        )

    def after_compile(self, physics, random_state):
        super().after_compile(physics, random_state)
        model = physics.model
        root = model.joint("root").qposadr[0]
        self._root_quaternion = slice(root + 3, root + 7)
        self._joint_qpos = np.array(
            [model.joint(name).qposadr[0] for name in fish_model.JOINT_NAMES]
        )
        self._target = model.geom("target").id

    def initialize_episode(self, physics, random_state):
        """Root orientation uniform over rotations (a normalised Gaussian quaternion),
        each hinge uniform in +-0.2 rad (drawn in `JOINT_NAMES` order), at rest, torso
        at (0, 0, 0.1) m."""
        quaternion = random_state.randn(4)
        physics.data.qpos[self._root_quaternion] = quaternion / np.linalg.norm(quaternion)
        physics.data.qpos[self._joint_qpos] = random_state.uniform(
            -_JOINT_ANGLE_SPREAD, _JOINT_ANGLE_SPREAD, len(fish_model.JOINT_NAMES)
        )


class Upright(_FishTask):
    """Reward for the back pointing up: Gaussian in the torso's z-axis alignment."""

    # Its reward works on a batch's (N, ...) arrays too (base.SuiteTask asks each
    # subclass that overrides the outcome to say so).
    vectorized_callbacks = True

    def __init__(self, random=None):
        super().__init__(random=random)
        self.set_observations(
            joint_angles=lambda physics: physics.joint_angles(),
            upright=lambda physics: physics.upright(),
            velocity=lambda physics: physics.velocity(),
        )

    def after_compile(self, physics, random_state):
        super().after_compile(physics, random_state)
        # As published, the target plays no part in this task, so it is hidden.
        physics.model.geom_rgba[self._target, 3] = 0

    def get_reward(self, physics):
        """1 with the back up, 0.1 lying on a side, 1e-4 upside down."""
        return rewards.tolerance(physics.upright(), bounds=(1, 1), margin=1)


class Swim(_FishTask):
    """Reward 7/8 for the mouth inside the target (with a margin), 1/8 for being upright."""

    # Its reward works on a batch's (N, ...) arrays too (base.SuiteTask asks each
    # subclass that overrides the outcome to say so).
    vectorized_callbacks = True

    def __init__(self, random=None):
        super().__init__(random=random)
        self.set_observations(
            joint_angles=lambda physics: physics.joint_angles(),
            upright=lambda physics: physics.upright(),
            target=lambda physics: physics.mouth_to_target(),
            velocity=lambda physics: physics.velocity(),
        )

    def initialize_episode(self, physics, random_state):
        """The shared start, then the target's centre uniform in x, y in [-0.4, 0.4] m
        and z in [0.1, 0.3] m (a model parameter, drawn x, y, z in turn)."""
        super().initialize_episode(physics, random_state)
        physics.model.geom_pos[self._target] = [
            random_state.uniform(low, high) for low, high in zip(_TARGET_LOW, _TARGET_HIGH)
        ]

    def get_reward(self, physics):
        """1 inside the target when upright; Gaussian within two radii-sums outside."""
        radii = physics.mouth_and_target_radii()
        to_target = physics.mouth_to_target()
        x, y, z = to_target[..., 0], to_target[..., 1], to_target[..., 2]
        in_target = rewards.tolerance(
            array_namespace.namespace(x).sqrt(x * x + y * y + z * z),
            bounds=(0, radii),
            margin=2 * radii,
        )
        is_upright = 0.5 * (physics.upright() + 1)
        return (7 * in_target + is_upright) / 8
