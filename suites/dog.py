"""Dog domain: stand, walk, trot, run and fetch with the suite's skeletal dog.

Tasks, timesteps, observations, rewards and the initial-state distribution are
those of the published Control Suite (dm_control 1.0.50, `suite/dog.py`): 15 s
episodes of 15 ms control steps (3 physics steps of 5 ms), 38 filtered
actuators, observations of 223 numbers (232 with fetch's ball and target).
The model is `mjcf_models.dog` (the published bodies, masses and contacts
without the bone meshes).
"""

import mujoco
import numpy as np

from composer_tasks import array_namespace, composer, rewards
from composer_tasks import physics as physics_module
from mjcf_models import dog as dog_model
from suites import base, common

_DEFAULT_TIME_LIMIT = 15  # Seconds: 1000 control steps.
_CONTROL_TIMESTEP = 0.015  # Seconds: 3 physics steps of 5 ms.

# Angle (degrees) of a body's z axis from the world's within which it is upright.
_MAX_UPRIGHT_ANGLE = 30
_MIN_UPRIGHT_COSINE = np.cos(np.deg2rad(_MAX_UPRIGHT_ANGLE))

# The standing terms are 1 from this fraction of the torso's and pelvis' heights
# in the model's default pose.
_STAND_HEIGHT_FRACTION = 0.9

# Forward speeds (m/s) from which the move reward is 1 (up to twice as fast).
_WALK_SPEED = 1
_TROT_SPEED = 3
_RUN_SPEED = 9

# Reach-the-ball reward margin (m) around the bite sites.
_BITE_MARGIN = 2

# Fetch: the ball starts on a circle of this fraction of the floor's half-width,
# 5 cm up, thrown towards the centre at a speed uniform in [0, 5) m/s, with
# direction noise of standard deviation 0.05, up to a height uniform in [0, 3) m.
_BALL_START_RADIUS_FRACTION = 0.75
_BALL_START_HEIGHT = 0.05
_BALL_MAX_HORIZONTAL_SPEED = 5
_BALL_DIRECTION_NOISE = 0.05
_BALL_MAX_THROW_HEIGHT = 3
# Fetch's floor half-width (m), with walls at its edges (suite/dog.xml).
_FETCH_FLOOR_SIZE = dog_model.fetch_floor_size()

# Initial state: root velocities (x, y linear m/s and z angular rad/s) are
# Gaussian with this standard deviation.
_ROOT_VELOCITY_STD = 2

# Observation sensor groups, in the published order.
_INERTIAL_SENSORS = ("accelerometer", "velocimeter", "gyro")
_TOUCH_SENSORS = ("palm_L", "palm_R", "sole_L", "sole_R")
_FORCE_SENSORS = ("foot_L", "foot_R", "hand_L", "hand_R")
# Bodies whose z axes the z projection and the upright term read, in order.
_UPRIGHT_BODIES = ("skull", "torso", "pelvis")

# Offsets in a row of `data.xmat` (row-major 3x3, R[A, B] the world A component of
# the frame's B axis): the last row is the world z axis in the frame.
_ZX, _ZZ = 6, 8

# A seed, a random state or None (seeded from the operating system).
_Random = int | np.random.RandomState | None

SUITE = base.Registry()


@SUITE.add("no_reward_visualization")
def stand(
    time_limit: float = _DEFAULT_TIME_LIMIT,
    random: _Random = None,
    environment_kwargs: dict | None = None,
) -> composer.Environment:
    """Stand up: torso and pelvis high, upright, the feet carrying the weight."""
    task = Stand(floor_size=_WALK_SPEED * _DEFAULT_TIME_LIMIT)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add("no_reward_visualization")
def walk(
    time_limit: float = _DEFAULT_TIME_LIMIT,
    random: _Random = None,
    environment_kwargs: dict | None = None,
) -> composer.Environment:
    """Stand and move forward at 1 to 2 m/s."""
    return _move(_WALK_SPEED, time_limit, random, environment_kwargs)


@SUITE.add("no_reward_visualization")
def trot(
    time_limit: float = _DEFAULT_TIME_LIMIT,
    random: _Random = None,
    environment_kwargs: dict | None = None,
) -> composer.Environment:
    """Stand and move forward at 3 to 6 m/s."""
    return _move(_TROT_SPEED, time_limit, random, environment_kwargs)


@SUITE.add("no_reward_visualization")
def run(
    time_limit: float = _DEFAULT_TIME_LIMIT,
    random: _Random = None,
    environment_kwargs: dict | None = None,
) -> composer.Environment:
    """Stand and move forward at 9 to 18 m/s."""
    return _move(_RUN_SPEED, time_limit, random, environment_kwargs)


@SUITE.add("no_reward_visualization", "hard")
def fetch(
    time_limit: float = _DEFAULT_TIME_LIMIT,
    random: _Random = None,
    environment_kwargs: dict | None = None,
) -> composer.Environment:
    """Catch a thrown ball in the mouth and bring it to the target at the centre."""
    return base.make_environment(Fetch(), time_limit, random, environment_kwargs)


def _move(speed, time_limit, random, environment_kwargs):
    # As published, the floor reaches as far as the target speed carries in an episode.
    task = Move(move_speed=speed, floor_size=speed * _DEFAULT_TIME_LIMIT)
    return base.make_environment(task, time_limit, random, environment_kwargs)


def make_model(floor_size, remove_ball):
    """dm_control's `dog.make_model`: the MJCF text (bytes) of the dog on a square
    floor of half-width `floor_size` m, without (`remove_ball`) or with the fetch
    task's ball, target, walls and ball cameras (the text compiles to the model the
    tasks build, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_module.spec_xml(
        dog_model.make_spec(floor_size=floor_size, with_ball=not remove_ball)
    )


def get_model_and_assets(floor_size=10, remove_ball=True):
    """dm_control's `dog.get_model_and_assets`: `make_model`'s text and the suite's
    shared assets (the model here has no mesh files: its bones are primitives), for
    `Physics.from_xml_string(*get_model_and_assets(floor_size))`."""
    return make_model(floor_size, remove_ball), common.ASSETS


class Physics(physics_module.Physics):
    """The dog's physical quantities (world frame unless stated; m, m/s, N).

    Every method reads `data` through `[..., index]`, so it serves one
    environment and a batch's (N, ...) arrays alike.
    """

    def _model_changed(self):
        super()._model_changed()
        model = self.model
        self._torso = model.body("torso").id
        self._height_bodies = np.array([model.body(name).id for name in ("torso", "pelvis")])
        # The kinematic chains from the free root body to the torso and the pelvis,
        # and the body poses the default-pose heights were last computed from.
        self._height_chains = [_chain_from_root(model, body) for body in self._height_bodies]
        self._chain_bodies = np.unique(np.concatenate(self._height_chains))
        self._heights_cache = None
        self._upright_bodies = np.array([model.body(name).id for name in _UPRIGHT_BODIES])
        hinges = model.jnt_type == mujoco.mjtJoint.mjJNT_HINGE
        self._hinge_qpos = model.jnt_qposadr[hinges]
        self._hinge_dofs = model.jnt_dofadr[hinges]
        self._com_velocity = _sensor_entries(model, ("torso_linvel",))
        self._inertial = _sensor_entries(model, _INERTIAL_SENSORS)
        self._touch = _sensor_entries(model, _TOUCH_SENSORS)
        self._forces = _sensor_entries(model, _FORCE_SENSORS)
        self._head = model.site("head").id
        self._bites = np.array([model.site(name).id for name in ("upper_bite", "lower_bite")])
        has_ball = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, "ball") >= 0
        self._ball = model.geom("ball").id if has_ball else None
        self._target = model.geom("target").id if has_ball else None
        # Bodies and kinematic-tree roots of the head site and the ball, for their
        # velocities (read here: a batch's model arrays have a leading copy axis).
        self._head_body = int(model.site_bodyid[self._head])
        self._head_root = int(model.body_rootid[self._head_body])
        if has_ball:
            self._ball_body = int(model.geom_bodyid[self._ball])
            self._ball_root = int(model.body_rootid[self._ball_body])

    def _check_has_ball(self, quantity: str) -> None:
        if self._ball is None:
            # dm_control's named lookup of "ball" raises KeyError here too.
            raise KeyError(
                f"{quantity} needs the ball and target of the fetch task's model; "
                "this dog model has none"
            )

    def torso_pelvis_height(self) -> np.ndarray:
        """Heights (m) of the torso's and the pelvis' frame origins."""
        return self.data.xpos[..., self._height_bodies, 2]

    def z_projection(self) -> np.ndarray:
        """The world z axis in the skull, torso and pelvis frames: (..., 3, 3), a row
        per body, as dm_control's (the observation is its 9 numbers, raveled)."""
        return self.data.xmat[..., self._upright_bodies, _ZX : _ZZ + 1]

    def upright(self) -> np.ndarray:
        """Cosines of the skull's, torso's and pelvis' tilts from upright."""
        return self.data.xmat[..., self._upright_bodies, _ZZ]

    def center_of_mass_velocity(self) -> np.ndarray:
        """Linear velocity (m/s) of the dog's centre of mass (the torso subtree)."""
        return self.data.sensordata[..., self._com_velocity]

    def default_pose_heights(self) -> np.ndarray:
        """Heights (m) of the torso's and the pelvis' frame origins in the model's
        default pose (`qpos0`: the bodies where the model puts them, hinges at 0).

        Computed from the live body poses of the model, so a model whose bodies
        were moved or rescaled (or each copy of a batch) gives its own heights, as
        the published task's measurement at every reset does.
        """
        model = self.model
        xp = array_namespace.namespace(model.body_pos)
        if xp is not np:
            # Traceable (jax.jit): no comparison with a cache, whose values a trace
            # cannot read.
            return self._default_pose_heights(xp)
        # The poses change only when the model does (between episodes at most); the
        # chain's poses are compared with those of the last computation.
        poses = (
            model.body_pos[..., self._chain_bodies, :],
            model.body_quat[..., self._chain_bodies, :],
        )
        cache = self._heights_cache
        if (
            cache is not None
            and cache[0].shape == poses[0].shape
            and np.array_equal(cache[0], poses[0])
            and np.array_equal(cache[1], poses[1])
        ):
            return cache[2]
        heights = self._default_pose_heights(np)
        heights.flags.writeable = False
        self._heights_cache = (poses[0], poses[1], heights)
        return heights

    def _default_pose_heights(self, xp):
        """`default_pose_heights` computed, with the array namespace `xp`."""
        model = self.model
        heights = []
        for chain in self._height_chains:
            position = model.body_pos[..., chain[0], :]
            orientation = model.body_quat[..., chain[0], :]
            for body in chain[1:]:
                position = position + _rotate(orientation, model.body_pos[..., body, :])
                orientation = _multiply_quaternions(orientation, model.body_quat[..., body, :])
            heights.append(position[..., 2])
        return xp.stack(heights, axis=-1)

    def body_weight(self) -> np.ndarray:
        """Weight (N) of the whole dog: gravity times the torso subtree's mass."""
        return -self.model.opt.gravity[2] * self.model.body_subtreemass[..., self._torso]

    def torso_com_velocity(self) -> np.ndarray:
        """The centre-of-mass velocity in the torso frame (m/s)."""
        return base.vector_times_rotation(
            self.center_of_mass_velocity(), self.data.xmat[..., self._torso, :]
        )

    def com_forward_velocity(self) -> np.ndarray:
        """The centre-of-mass velocity along the torso's x axis (m/s)."""
        return self.torso_com_velocity()[..., 0][()]

    def joint_angles(self) -> np.ndarray:
        """The 73 hinge angles (rad), without the free joints."""
        return self.data.qpos[..., self._hinge_qpos]

    def joint_velocities(self) -> np.ndarray:
        """The 73 hinge rates (rad/s), without the free joints."""
        return self.data.qvel[..., self._hinge_dofs]

    def inertial_sensors(self) -> np.ndarray:
        """Head accelerometer (m/s^2), velocimeter (m/s) and gyro (rad/s), head frame."""
        return self.data.sensordata[..., self._inertial]

    def touch_sensors(self) -> np.ndarray:
        """Normal contact forces (N) on the left and right palms and soles."""
        return self.data.sensordata[..., self._touch]

    def foot_forces(self) -> np.ndarray:
        """Forces (N) at the left and right foot and hand anchors, in their frames."""
        return self.data.sensordata[..., self._forces]

    def actuator_state(self) -> np.ndarray:
        """The 38 filtered actuator activations."""
        return self.data.act.copy()

    def ball_in_head_frame(self) -> np.ndarray:
        """The ball's position (m) and velocity (m/s) relative to the head site,
        in the head site's frame (fetch only)."""
        self._check_has_ball("ball_in_head_frame")
        data = self.data
        head_position = data.site_xpos[..., self._head, :]
        head_frame = data.site_xmat[..., self._head, :]
        ball_position = data.geom_xpos[..., self._ball, :]
        head_velocity = _point_velocity(data, self._head_body, self._head_root, head_position)
        ball_velocity = _point_velocity(data, self._ball_body, self._ball_root, ball_position)
        return array_namespace.namespace(ball_position).concatenate(
            [
                base.vector_times_rotation(ball_position - head_position, head_frame),
                base.vector_times_rotation(ball_velocity - head_velocity, head_frame),
            ],
            axis=-1,
        )

    def target_in_head_frame(self) -> np.ndarray:
        """The target's position relative to the head site, in its frame (m; fetch only)."""
        self._check_has_ball("target_in_head_frame")
        data = self.data
        offset = data.geom_xpos[..., self._target, :] - data.site_xpos[..., self._head, :]
        return base.vector_times_rotation(offset, data.site_xmat[..., self._head, :])

    def ball_to_mouth_distance(self) -> np.ndarray:
        """Mean distance (m) from the ball to the upper and lower bite sites."""
        self._check_has_ball("ball_to_mouth_distance")
        data = self.data
        offsets = data.geom_xpos[..., self._ball, None, :] - data.site_xpos[..., self._bites, :]
        distances = base.norm_last_axis(offsets)
        return 0.5 * (distances[..., 0] + distances[..., 1])

    def ball_to_target_distance(self) -> np.ndarray:
        """Distance (m) between the ball's and the target's centres."""
        self._check_has_ball("ball_to_target_distance")
        data = self.data
        return base.norm_last_axis(
            data.geom_xpos[..., self._ball, :] - data.geom_xpos[..., self._target, :]
        )


def _factor_row(*parts) -> np.ndarray:
    """Reward factors side by side, as dm_control's `np.hstack` of them: `parts` are
    (value, is_row) pairs, a row a (..., k) array of k factors, else one factor per
    copy (a number, or a batch's (N,) array). One environment's (k,) row, or (N, k)."""
    xp = array_namespace.namespace(*(value for value, _ in parts))
    columns = [xp.asarray(value) if row else xp.asarray(value)[..., None] for value, row in parts]
    return xp.concatenate(columns, axis=-1)


def _raveled_z_projection(physics: Physics) -> np.ndarray:
    """The "z_projection" observation: `z_projection()`'s 3x3 rows as 9 numbers (a
    new array, as dm_control's `flatten`)."""
    rows = physics.z_projection()
    return rows.reshape(rows.shape[:-2] + (9,))


def _sensor_entries(model, names):
    """Indices into `sensordata` of the named sensors' values, in order."""
    return np.concatenate(
        [
            np.arange(
                model.sensor(name).adr[0], model.sensor(name).adr[0] + model.sensor(name).dim[0]
            )
            for name in names
        ]
    )


def _chain_from_root(model, body):
    """Body ids from the root of `body`'s kinematic tree down to `body`.

    Raises:
      ValueError: if a joint other than the root's free joint or a hinge lies on
        the chain (its default position would not be the body's modelled pose).
    """
    chain = [int(body)]
    while model.body_parentid[chain[-1]] != 0:
        chain.append(int(model.body_parentid[chain[-1]]))
    chain.reverse()
    for index, link in enumerate(chain):
        first_joint = model.body_jntadr[link]
        for joint in range(first_joint, first_joint + model.body_jntnum[link]):
            joint_type = model.jnt_type[joint]
            free_root = index == 0 and joint_type == mujoco.mjtJoint.mjJNT_FREE
            hinge_at_zero = (
                joint_type == mujoco.mjtJoint.mjJNT_HINGE
                and model.qpos0[model.jnt_qposadr[joint]] == 0
            )
            if not (free_root or hinge_at_zero):
                raise ValueError(
                    f"joint {model.joint(joint).name!r} on the chain to body "
                    f"{model.body(body).name!r} is not a free root or a hinge at 0"
                )
    return np.array(chain)


def _multiply_quaternions(first, second):
    """Hamilton products of (..., 4) quaternions (w, x, y, z)."""
    w1, x1, y1, z1 = (first[..., i] for i in range(4))
    w2, x2, y2, z2 = (second[..., i] for i in range(4))
    return array_namespace.namespace(first, second).stack(
        [
            w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
            w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
        ],
        axis=-1,
    )


def _rotate(quaternion, vector):
    """(..., 3) vectors rotated by unit (..., 4) quaternions (w, x, y, z)."""
    w, axis = quaternion[..., :1], quaternion[..., 1:]
    twice_cross = 2 * _cross(axis, vector)
    return vector + w * twice_cross + _cross(axis, twice_cross)


def _cross(a, b):
    """Cross products of (..., 3) vectors (`np.cross` costs more on a few numbers)."""
    return array_namespace.namespace(a, b).stack(
        [
            a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
            a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
            a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0],
        ],
        axis=-1,
    )


def _point_velocity(data, body, root, point):
    """World-frame linear velocity (m/s) of a point moving with `body`, as
    `mj_objectVelocity` gives it: the body's spatial velocity `cvel` (angular,
    then linear at the centre of mass of its kinematic tree, whose root body is
    `root`) moved to the point."""
    velocity = data.cvel[..., body, :]
    offset = point - data.subtree_com[..., root, :]
    return velocity[..., 3:] + _cross(velocity[..., :3], offset)


class Stand(base.SuiteTask):
    """Stand: torso and pelvis at 0.9 of their default heights or higher, skull,
    torso and pelvis within 30 degrees of upright, palms and soles carrying the
    body weight.

    Episodes start in the default pose facing a random heading, with random
    horizontal root velocities and yaw rate and random actuator activations.

    Args (dm_control's, then this project's keyword-only ones):
      random: the task's random state, or a seed (see `base.SuiteTask`).
      observe_reward_factors: add the observation "reward_factors", the factors
        whose product is the reward (`get_reward_factors`), last, as dm_control's.
      floor_size: half-width (m) of the square floor of the model the task builds
        (the stand task's 15 m by default; given a physics, the physics' floor counts).
      with_ball: build the fetch task's ball, target and walls.
    """

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(
        self,
        random: _Random = None,
        observe_reward_factors: bool = False,
        *,
        floor_size: float = _WALK_SPEED * _DEFAULT_TIME_LIMIT,
        with_ball: bool = False,
    ):
        if not isinstance(observe_reward_factors, (bool, np.bool_)):
            raise TypeError(
                f"observe_reward_factors must be a bool, got {observe_reward_factors!r}"
            )
        self._observe_reward_factors = bool(observe_reward_factors)
        super().__init__(
            dog_model.make_spec(floor_size=floor_size, with_ball=with_ball),
            "dog",
            control_timestep=_CONTROL_TIMESTEP,
            random=random,
        )
        functions = self._observation_functions()
        if self._observe_reward_factors:
            functions["reward_factors"] = self.get_reward_factors
        self.set_observations(**functions)

    def get_observation_components(self, physics: Physics):
        """dm_control's: the observation without the reward factors."""
        observation = self.get_observation(physics)
        observation.pop("reward_factors", None)
        return observation

    def _observation_functions(self):
        return {
            "joint_angles": Physics.joint_angles,
            "joint_velocites": Physics.joint_velocities,  # The published key is spelt so.
            "torso_pelvis_height": Physics.torso_pelvis_height,
            "z_projection": _raveled_z_projection,
            "torso_com_velocity": Physics.torso_com_velocity,
            "inertial_sensors": Physics.inertial_sensors,
            "foot_forces": Physics.foot_forces,
            "touch_sensors": Physics.touch_sensors,
            "actuator_state": Physics.actuator_state,
        }

    def after_compile(self, physics, random_state):
        super().after_compile(physics, random_state)
        model = physics.model
        root = model.joint("root")
        self._root_quaternion = slice(root.qposadr[0] + 3, root.qposadr[0] + 7)
        self._root_velocities = root.dofadr[0] + np.array([0, 1, 5])
        self._control_low = model.actuator_ctrlrange[:, 0].copy()
        self._control_high = model.actuator_ctrlrange[:, 1].copy()
        if model.nu != model.na:
            raise ValueError(
                f"every dog actuator must have one activation; nu={model.nu}, na={model.na}"
            )

    def initialize_episode(self, physics, random_state):
        """The default pose turned to a uniform heading, root velocities
        (x, y: m/s; yaw: rad/s) Gaussian with std 2, each activation uniform in
        its control range; drawn in the published order."""
        data = physics.data
        azimuth = random_state.uniform(0, 2 * np.pi)
        data.qpos[self._root_quaternion] = (np.cos(azimuth / 2), 0, 0, np.sin(azimuth / 2))
        for dof in self._root_velocities:
            data.qvel[dof] = _ROOT_VELOCITY_STD * random_state.randn()
        data.act[:] = random_state.uniform(self._control_low, self._control_high)

    def stand_reward(self, physics: Physics) -> float | np.ndarray:
        """The product of the published standing factors, in [0, 1]."""
        factors = self._stand_factors(physics)
        torso, pelvis, upright, touch = factors
        return (torso * pelvis * upright[..., 0] * upright[..., 1] * upright[..., 2]) * touch

    def _stand_factors(self, physics: Physics) -> tuple:
        """(torso, pelvis, upright (3 per copy), touch): the standing factors."""
        # As published: standing is 0.9 of the default pose's heights, which the
        # published task measures at every reset (the model does not change within
        # an episode), and the touch target is the body weight.
        stand_height = _STAND_HEIGHT_FRACTION * physics.default_pose_heights()
        body_weight = physics.body_weight()
        heights = physics.torso_pelvis_height()
        torso = rewards.tolerance(
            heights[..., 0], bounds=(stand_height[..., 0], np.inf), margin=stand_height[..., 0]
        )
        pelvis = rewards.tolerance(
            heights[..., 1], bounds=(stand_height[..., 1], np.inf), margin=stand_height[..., 1]
        )
        upright = rewards.tolerance(
            physics.upright(),
            bounds=(_MIN_UPRIGHT_COSINE, np.inf),
            sigmoid="linear",
            margin=_MIN_UPRIGHT_COSINE + 1,
            value_at_margin=0,
        )
        touch = rewards.tolerance(
            base.sum_last_axis(physics.touch_sensors()),
            bounds=(body_weight, np.inf),
            margin=body_weight,
            sigmoid="linear",
            value_at_margin=0.9,
        )
        return torso, pelvis, upright, touch

    def get_reward_factors(self, physics: Physics) -> np.ndarray:
        """The factors whose product is the reward, as dm_control's
        `get_reward_factors` lists them: torso and pelvis height, the three upright
        terms, the touch term (then the task's own); (6,) for stand, or (N, 6) on a
        batch."""
        torso, pelvis, upright, touch = self._stand_factors(physics)
        return _factor_row((torso, False), (pelvis, False), (upright, True), (touch, False))

    def get_reward(self, physics: Physics) -> float | np.ndarray:
        return self.stand_reward(physics)


class Move(Stand):
    """Stand while moving forward (along the torso's x axis) at `move_speed` to
    twice `move_speed` m/s.

    Raises:
      ValueError: if `move_speed` is not positive.
    """

    # Its reward works on a batch's (N, ...) arrays too (base.SuiteTask asks each
    # subclass that overrides the outcome to say so).
    vectorized_callbacks = True

    def __init__(
        self,
        move_speed: float,
        random: _Random = None,
        observe_reward_factors: bool = False,
        *,
        floor_size: float | None = None,
    ):
        if not move_speed > 0:
            raise ValueError(f"move_speed must be a speed > 0 m/s, got {move_speed!r}")
        self._move_speed = move_speed
        if floor_size is None:
            # As published, the floor reaches as far as the speed carries in an episode.
            floor_size = move_speed * _DEFAULT_TIME_LIMIT
        super().__init__(random, observe_reward_factors, floor_size=floor_size)

    def get_reward(self, physics: Physics) -> float | np.ndarray:
        return self.stand_reward(physics) * self._forward_factor(physics)

    def get_reward_factors(self, physics: Physics) -> np.ndarray:
        """The standing factors, then the forward-speed term."""
        return _factor_row(
            (super().get_reward_factors(physics), True), (self._forward_factor(physics), False)
        )

    def _forward_factor(self, physics: Physics) -> float | np.ndarray:
        forward = rewards.tolerance(
            physics.com_forward_velocity(),
            bounds=(self._move_speed, 2 * self._move_speed),
            margin=max(1.0, self._move_speed),
            value_at_margin=0,
            sigmoid="linear",
        )
        return (4 * forward + 1) / 5


class Fetch(Stand):
    """Stand, bring the mouth to a thrown ball and the ball to the target.

    The ball starts on a circle of 0.75 of the floor's half-width and is thrown
    towards the centre; the target sits at the centre.
    """

    # Its reward works on a batch's (N, ...) arrays too (base.SuiteTask asks each
    # subclass that overrides the outcome to say so).
    vectorized_callbacks = True

    def __init__(self, random: _Random = None, observe_reward_factors: bool = False):
        super().__init__(
            random, observe_reward_factors, floor_size=_FETCH_FLOOR_SIZE, with_ball=True
        )

    def _observation_functions(self):
        functions = super()._observation_functions()
        functions.update(
            ball_state=Physics.ball_in_head_frame, target_position=Physics.target_in_head_frame
        )
        return functions

    def after_compile(self, physics, random_state):
        super().after_compile(physics, random_state)
        model = physics.model
        ball = model.joint("ball_root")
        self._ball_position = slice(ball.qposadr[0], ball.qposadr[0] + 3)
        self._ball_velocity = slice(ball.dofadr[0], ball.dofadr[0] + 3)
        self._floor = model.geom("floor").id
        self._target = model.geom("target").id
        self._upper_bite = model.site("upper_bite").id

    def initialize_episode(self, physics, random_state):
        """The stand start, then the ball thrown, drawn in the published order:
        its azimuth, throw height, horizontal speed and two direction noises."""
        super().initialize_episode(physics, random_state)
        data, model = physics.data, physics.model
        radius = _BALL_START_RADIUS_FRACTION * model.geom_size[self._floor, 0]
        azimuth = random_state.uniform(0, 2 * np.pi)
        data.qpos[self._ball_position] = (
            radius * np.sin(azimuth),
            radius * np.cos(azimuth),
            _BALL_START_HEIGHT,
        )
        throw_height = random_state.uniform(0, _BALL_MAX_THROW_HEIGHT)
        # Kinetic equals potential energy at the top: v = sqrt(2 g h).
        vertical_speed = np.sqrt(2 * -model.opt.gravity[2] * throw_height)
        horizontal_speed = random_state.uniform(0, _BALL_MAX_HORIZONTAL_SPEED)
        direction_x = -np.sin(azimuth) + _BALL_DIRECTION_NOISE * random_state.randn()
        direction_y = -np.cos(azimuth) + _BALL_DIRECTION_NOISE * random_state.randn()
        data.qvel[self._ball_velocity] = (
            horizontal_speed * direction_x,
            horizontal_speed * direction_y,
            vertical_speed,
        )

    def get_reward(self, physics: Physics) -> float | np.ndarray:
        reach_ball, fetch_ball = self._fetch_factors(physics)
        return self.stand_reward(physics) * reach_ball * fetch_ball

    def get_reward_factors(self, physics: Physics) -> np.ndarray:
        """The standing factors, then reaching the ball and bringing it."""
        reach_ball, fetch_ball = self._fetch_factors(physics)
        return _factor_row(
            (super().get_reward_factors(physics), True), (reach_ball, False), (fetch_ball, False)
        )

    def _fetch_factors(self, physics: Physics) -> tuple:
        model = physics.model
        # `[..., index, 0]`: a batch's model arrays have a leading copy axis.
        bite_radius = model.site_size[..., self._upper_bite, 0]
        target_radius = model.geom_size[..., self._target, 0]
        floor_size = model.geom_size[..., self._floor, 0]
        reach_ball = rewards.tolerance(
            physics.ball_to_mouth_distance(),
            bounds=(0, bite_radius),
            sigmoid="reciprocal",
            margin=_BITE_MARGIN,
        )
        reach_ball = (6 * reach_ball + 1) / 7
        to_target = physics.ball_to_target_distance()
        ball_near_target = rewards.tolerance(
            to_target, bounds=(0, target_radius), sigmoid="reciprocal", margin=floor_size
        )
        fetch_ball = (ball_near_target + 1) / 2
        # Once the ball is at the target the dog may let go of it.
        xp = array_namespace.namespace(to_target, reach_ball)
        reach_ball = xp.where(to_target < 2 * target_radius, 1.0, reach_ball)
        if isinstance(reach_ball, np.ndarray) and reach_ball.ndim == 0:
            reach_ball = reach_ball[()]
        return reach_ball, fetch_ball
