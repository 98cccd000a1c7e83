"""Swimmer domain: a chain of links swims its nose to a target in a viscous fluid.

Tasks, reward definition, initial-state distribution, timesteps and observation keys
are those of dm_control 1.0.50's `suite/swimmer.py` (Tassa et al. 2018, §6.2: for
k links, state 2k + 4, action k - 1, observation 4k + 1).
"""

import numpy as np

from composer_tasks import array_namespace, rewards
from composer_tasks import physics as physics_lib
from mjcf_models import swimmer as swimmer_model
from suites import base, common

# suite/swimmer.py: 30 s episodes of 0.03 s control steps (15 physics steps each).
_DEFAULT_TIME_LIMIT = 30
_CONTROL_TIMESTEP = 0.03
# One episode in five puts the target within 0.3 m of the origin along x and y;
# the others within 2 m.
_CLOSE_TARGET_PROBABILITY = 0.2
_CLOSE_TARGET_HALF_WIDTH_M = 0.3
_FAR_TARGET_HALF_WIDTH_M = 2.0
# The reward is 1 with the nose inside the target sphere and falls with a long tail
# to 0.1 at five target radii outside it.
_REWARD_MARGIN_IN_TARGET_SIZES = 5

# Per-body sensor values are (linear velocity xyz, angular velocity xyz) in the
# body's frame; these pick the in-plane ones: vx, vy and the turn rate wz.
_PLANAR_VELOCITY_COMPONENTS = (0, 1, 5)
_VALUES_PER_BODY = 6

SUITE = base.Registry()


@SUITE.add("benchmarking")
def swimmer6(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """A 6-link swimmer reaching for the target."""
    return swimmer(6, time_limit, random, environment_kwargs)


@SUITE.add("benchmarking")
def swimmer15(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """A 15-link swimmer reaching for the target."""
    return swimmer(15, time_limit, random, environment_kwargs)


def swimmer(n_links=3, time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """A swimmer of `n_links` (>= 3) links reaching for the target (not registered,
    as in the published suite)."""
    return base.make_environment(Swimmer(n_links=n_links), time_limit, random, environment_kwargs)


def get_model_and_assets(n_joints):
    """dm_control's `swimmer.get_model_and_assets`: the MJCF text (bytes) of the
    domain's model with `n_joints` links and the suite's shared assets, for
    `Physics.from_xml_string(*get_model_and_assets(n_joints))` and dm_control's
    `control.Environment(physics, task)` (the text compiles to the model this domain's
    tasks build, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_lib.spec_xml(swimmer_model.make_spec(n_joints)), common.ASSETS


class Physics(base.RandomPosePhysics):
    """Swimmer physics with named quantities (m, rad, m/s, rad/s)."""

    def _model_changed(self):
        super()._model_changed()
        model = self.model
        self._head = model.body("head").id
        self._nose = model.geom("nose").id
        self._target = model.geom("target").id
        self._target_light = model.light("target_light").id
        # Velocimeter and gyro of the head, then of each segment, are the last
        # sensors, 6 values per body; these are the entries of the planar ones.
        first = int(model.sensor("head_vel").adr[0])
        bodies = (model.nsensordata - first) // _VALUES_PER_BODY
        self._planar_velocity_entries = (
            first
            + _VALUES_PER_BODY * np.arange(bodies)[:, None]
            + np.array(_PLANAR_VELOCITY_COMPONENTS)
        ).ravel()
        first_joint = model.joint("joint_0")
        self._joint_angles = slice(int(first_joint.qposadr[0]), model.nq)

    def nose_to_target(self):
        """The vector from the nose to the target centre in the head's frame, its x
        and y components (m), as a new array."""
        data = self.data
        world_vector = data.geom_xpos[..., self._target, :] - data.geom_xpos[..., self._nose, :]
        head_axes = data.xmat[..., self._head, :]
        return base.vector_times_rotation(world_vector, head_axes)[..., :2]

    def nose_to_target_dist(self):
        """Distance from the nose to the target centre in the head's x-y plane, in m."""
        to_target = self.nose_to_target()
        return array_namespace.namespace(to_target).hypot(to_target[..., 0], to_target[..., 1])

    def body_velocities(self):
        """Per body (head first): vx, vy (m/s) and the turn rate wz (rad/s), each in
        the body's own frame, as a new array of 3 * n_links values."""
        return self.data.sensordata[..., self._planar_velocity_entries]

    def joints(self):
        """The internal joint angles (rad), head to tail, as a new array."""
        return self.data.qpos[..., self._joint_angles].copy()

    def target_size(self):
        """Radius of the target sphere, in metres."""
        return self.model.geom_size[..., self._target, 0]

    def set_target_position(self, x, y):
        """Moves the target (and the light above it) to world (x, y), in metres."""
        self.model.geom_pos[self._target, :2] = x, y
        self.model.light_pos[self._target_light, :2] = x, y


class Swimmer(base.SuiteTask):
    """Bring the nose into the target sphere.

    Each episode draws a random heading and body shape and a random target
    position in the plane; the target moves with the model field `geom_pos`.
    """

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(self, random=None, *, n_links=6):
        super().__init__(
            swimmer_model.make_spec(n_links),
            "swimmer",
            control_timestep=_CONTROL_TIMESTEP,
            random=random,
        )
        self.set_observations(
            joints=Physics.joints,
            to_target=Physics.nose_to_target,
            body_velocities=Physics.body_velocities,
        )

    def initialize_episode(self, physics, random_state):
        """Random pose, then the target (drawn in the published order, so a seed
        gives the published initial states and targets)."""
        physics.randomize_joints(random_state)
        close_target = random_state.rand() < _CLOSE_TARGET_PROBABILITY
        half_width = _CLOSE_TARGET_HALF_WIDTH_M if close_target else _FAR_TARGET_HALF_WIDTH_M
        x, y = random_state.uniform(-half_width, half_width, size=2)
        physics.set_target_position(x, y)

    def get_reward(self, physics):
        target_size = physics.target_size()
        return rewards.tolerance(
            physics.nose_to_target_dist(),
            bounds=(0, target_size),
            margin=_REWARD_MARGIN_IN_TARGET_SIZES * target_size,
            sigmoid="long_tail",
        )
