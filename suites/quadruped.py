"""Quadruped domain: walk, run, escape a bumpy bowl, fetch a ball.

Tasks, timesteps, observations, rewards and initial-state distributions are those
of dm_control 1.0.50's `suite/quadruped.py` (the domain was added to the suite
after Tassa et al. 2018; it is among the suite's extra tasks).
"""

import mujoco
import numpy as np
from scipy import ndimage

from composer_tasks import array_namespace
from composer_tasks import physics as physics_lib
from composer_tasks import rewards
from mjcf_models import quadruped as quadruped_model
from suites import base

# suite/quadruped.py: 20 s episodes of 0.02 s control steps (4 physics steps each).
_DEFAULT_TIME_LIMIT = 20
_CONTROL_TIMESTEP = 0.02
# Forward torso speeds (m/s, torso frame) from which the move term is 1.
_WALK_SPEED = 0.5
_RUN_SPEED = 5
# The move tasks' floor half-size (m) is the distance covered in a whole episode at
# the task's speed; escape's floor is 40 m; fetch keeps the published 15 m.
_ESCAPE_FLOOR_SIZE_M = 40
# Escape terrain: a sinusoidal bowl times smooth random bumps, uniform in
# [_TERRAIN_SMOOTHNESS, 1] on a grid of one sample per _TERRAIN_BUMP_SCALE metres,
# spline-interpolated to the heightfield's resolution (0: maximally bumpy, 1: smooth).
_TERRAIN_SMOOTHNESS = 0.15
_TERRAIN_BUMP_SCALE_M = 2
# The bowl's radius (fraction of the half-size) is clipped below at this value, which
# keeps a small flat patch at the centre.
_BOWL_MIN_RADIUS = 0.04
# Escape's uprightness term is 1 within this many degrees of upright.
_ESCAPE_UPRIGHT_DEG = 20
# Fetch: the quadruped and the ball start within this fraction of the floor's
# half-size, the ball 2 m up with a horizontal velocity of std 5 m/s per axis.
_SPAWN_FRACTION = 0.9
_BALL_START_HEIGHT_M = 2
_BALL_START_SPEED_STD = 5
# The initial-height search raises the torso in 1 cm steps until nothing touches.
_HEIGHT_STEP_M = 0.01
_MAX_HEIGHT_ATTEMPTS = 10000

_TOES = tuple(f"toe_{leg}" for leg, *_ in quadruped_model.LEGS)
# The order of the published `toe_positions` helper.
_TOE_POSITIONS_ORDER = ("toe_front_left", "toe_back_left", "toe_back_right", "toe_front_right")

SUITE = base.Registry()


@SUITE.add()
def walk(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Move forward (torso frame) at 0.5 m/s or faster, upright."""
    task = Move(desired_speed=_WALK_SPEED)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add()
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Move forward (torso frame) at 5 m/s or faster, upright."""
    task = Move(desired_speed=_RUN_SPEED)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add()
def escape(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Climb out of a bumpy bowl drawn anew every episode, staying upright."""
    return base.make_environment(Escape(), time_limit, random, environment_kwargs)


@SUITE.add()
def fetch(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Reach the ball and bring it to the target at the arena's centre."""
    return base.make_environment(Fetch(), time_limit, random, environment_kwargs)


def make_model(floor_size=None, terrain=False, rangefinders=False, walls_and_ball=False):
    """dm_control's `quadruped.make_model`: the MJCF text (bytes) of the quadruped on
    a floor of half-width `floor_size` m (the published file's when None), with the
    bumpy terrain's heightfield, the rangefinders, and the walls, ball and target as
    asked; with the suite's `common.ASSETS`, `Physics.from_xml_string(make_model(...),
    common.ASSETS)` compiles it to the model the tasks build, bit for bit
    (`composer_tasks.physics.spec_xml`)."""
    return physics_lib.spec_xml(
        quadruped_model.make_spec(
            floor_size=floor_size,
            terrain=terrain,
            rangefinders=rangefinders,
            walls_and_ball=walls_and_ball,
        )
    )


class Physics(physics_lib.Physics):
    """Quadruped physics with named quantities.

    Positions in metres, velocities in m/s and rad/s. "Torso frame" quantities are
    world vectors expressed in the torso's axes (x forward, z up when upright).
    Every quantity works on one copy and on a batch's (N, ...) arrays alike.
    """

    def _model_changed(self):
        super()._model_changed()
        model = self.model
        self._torso = model.body("torso").id
        self._workspace = model.site("workspace").id
        self._toe_bodies = np.array([model.body(name).id for name in _TOE_POSITIONS_ORDER])
        hinges = np.flatnonzero(model.jnt_type == mujoco.mjtJoint.mjJNT_HINGE)
        self._hinge_qpos = _as_slice(model.jnt_qposadr[hinges])
        self._hinge_dofs = _as_slice(model.jnt_dofadr[hinges])
        self._velocimeter = _sensor_entries(model, "velocimeter")
        # Sensors by type, in model order (as the published selection by type).
        self._force_torque = _entries_of_types(
            model, mujoco.mjtSensor.mjSENS_FORCE, mujoco.mjtSensor.mjSENS_TORQUE
        )
        self._imu = _entries_of_types(
            model, mujoco.mjtSensor.mjSENS_GYRO, mujoco.mjtSensor.mjSENS_ACCELEROMETER
        )
        self._rangefinders = _entries_of_types(model, mujoco.mjtSensor.mjSENS_RANGEFINDER)
        self._has_ball = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, "ball") >= 0
        if self._has_ball:
            self._ball = model.body("ball").id
            self._target = model.site("target").id
            ball_root = model.joint("ball_root")
            self._ball_qpos = slice(int(ball_root.qposadr[0]), int(ball_root.qposadr[0]) + 7)
            self._ball_dofs = slice(int(ball_root.dofadr[0]), int(ball_root.dofadr[0]) + 6)
            self._root_dofs = slice(
                int(model.joint("root").dofadr[0]), int(model.joint("root").dofadr[0]) + 6
            )

    def _check_has_ball(self, quantity):
        if not self._has_ball:
            # dm_control's named lookup of "ball" raises KeyError here too.
            raise KeyError(
                f"{quantity} needs the ball and target of the fetch task's model; "
                "this quadruped model has none"
            )

    def torso_upright(self):
        """Cosine of the torso's tilt: the world z component of its z axis (1 upright)."""
        return self.data.xmat[..., self._torso, base.ZZ]

    def toe_positions(self):
        """The toes' body origins relative to the torso's, in the torso frame (m):
        (..., 4, 3), front left, back left, back right, front right (dm_control's)."""
        data = self.data
        offsets = data.xpos[..., self._toe_bodies, :] - data.xpos[..., self._torso, None, :]
        return base.vector_times_rotation(offsets, data.xmat[..., self._torso, None, :])

    def torso_velocity(self):
        """The torso's linear velocity in the torso frame (m/s), from the velocimeter."""
        return self.data.sensordata[..., self._velocimeter]

    def egocentric_state(self):
        """Hinge angles (rad), hinge velocities (rad/s) and actuator activations:
        the state without the root's position and orientation (44 values)."""
        data = self.data
        return array_namespace.namespace(data.qpos).concatenate(
            (data.qpos[..., self._hinge_qpos], data.qvel[..., self._hinge_dofs], data.act), axis=-1
        )

    def force_torque(self):
        """arcsinh of the toes' force (N) and torque (N m) sensor readings, force
        sensors first, each in the site frame (24 values)."""
        readings = self.data.sensordata[..., self._force_torque]
        return array_namespace.namespace(readings).arcsinh(readings)

    def imu(self):
        """Accelerometer (m/s^2) then gyro (rad/s) readings at the torso site (6 values)."""
        return self.data.sensordata[..., self._imu]

    def rangefinder(self):
        """tanh of each rangefinder's distance (m), 1 where its ray hits nothing.

        Raises:
          IndexError: the model has no rangefinders (only the escape task's has
            them). dm_control raises IndexError there too: its named indexer
            fails on the empty list of rangefinder names.
        """
        if self._rangefinders.size == 0:
            raise IndexError(
                "this quadruped model has no rangefinder sensors (only the escape task's "
                "model has them), so there is nothing for rangefinder() to read"
            )
        readings = self.data.sensordata[..., self._rangefinders]
        xp = array_namespace.namespace(readings)
        return xp.where(readings == -1.0, 1.0, xp.tanh(readings))

    def origin_distance(self):
        """Distance (m) of the workspace site (ahead of the torso) from the world origin."""
        distance = base.norm_last_axis(self.data.site_xpos[..., self._workspace, :])
        # dm_control's is a 0-d array for one environment (`np.asarray` of a norm).
        return np.asarray(distance) if isinstance(distance, np.float64) else distance

    def origin(self):
        """The world origin in the torso frame (m)."""
        data = self.data
        return -base.vector_times_rotation(
            data.xpos[..., self._torso, :], data.xmat[..., self._torso, :]
        )

    def ball_state(self):
        """In the torso frame: the ball's position (m) and linear velocity (m/s)
        relative to the torso, then its angular velocity (rad/s) (9 values)."""
        self._check_has_ball("ball_state")
        data = self.data
        relative = array_namespace.namespace(data.xpos).stack(
            (
                data.xpos[..., self._ball, :] - data.xpos[..., self._torso, :],
                data.qvel[..., self._ball_dofs][..., :3] - data.qvel[..., self._root_dofs][..., :3],
                data.qvel[..., self._ball_dofs][..., 3:],
            ),
            axis=-2,
        )
        in_torso = base.vector_times_rotation(relative, data.xmat[..., self._torso, None, :])
        return in_torso.reshape(in_torso.shape[:-2] + (9,))

    def target_position(self):
        """The target site's centre in the torso frame (m)."""
        self._check_has_ball("target_position")
        data = self.data
        return base.vector_times_rotation(
            data.site_xpos[..., self._target, :] - data.xpos[..., self._torso, :],
            data.xmat[..., self._torso, :],
        )

    def ball_to_target_distance(self):
        """Horizontal (world x-y) distance (m) from the ball's centre to the target's."""
        self._check_has_ball("ball_to_target_distance")
        data = self.data
        offset = data.site_xpos[..., self._target, :2] - data.xpos[..., self._ball, :2]
        return base.norm_last_axis(offset)

    def self_to_ball_distance(self):
        """Horizontal (world x-y) distance (m) from the workspace site to the ball."""
        self._check_has_ball("self_to_ball_distance")
        data = self.data
        offset = data.site_xpos[..., self._workspace, :2] - data.xpos[..., self._ball, :2]
        return base.norm_last_axis(offset)

    def ball_qpos(self):
        """The ball's free joint coordinates as a view: position (m), quaternion."""
        self._check_has_ball("ball_qpos")
        return self.data.qpos[..., self._ball_qpos]

    def ball_qvel(self):
        """The ball's free joint velocities as a view: linear (m/s), angular (rad/s)."""
        self._check_has_ball("ball_qvel")
        return self.data.qvel[..., self._ball_dofs]


def _as_slice(indices):
    """A slice for consecutive indices (a view, cheaper than a gather), else the array."""
    if len(indices) and np.array_equal(indices, np.arange(indices[0], indices[0] + len(indices))):
        return slice(int(indices[0]), int(indices[0]) + len(indices))
    return indices


def _sensor_entries(model, name):
    sensor = model.sensor(name)
    return np.arange(int(sensor.adr[0]), int(sensor.adr[0]) + int(sensor.dim[0]))


def _entries_of_types(model, *sensor_types):
    """sensordata indices of the sensors of these types, in model order."""
    ids = np.flatnonzero(np.isin(model.sensor_type, sensor_types))
    if len(ids) == 0:
        return np.zeros(0, dtype=int)
    return np.concatenate(
        [np.arange(model.sensor_adr[i], model.sensor_adr[i] + model.sensor_dim[i]) for i in ids]
    )


def _place_without_contacts(physics, quaternion, x=0.0, y=0.0):
    """Puts the torso at (x, y) with orientation `quaternion`, starting embedded in
    the floor and rising in 1 cm steps until no geoms touch (published search).

    Each attempt starts from reset data, as the published search's
    `reset_context` does, so nothing but the root's pose carries over.

    Raises:
      RuntimeError: if no contact-free height is found within 10000 steps (100 m).
    """
    model, data = physics.model, physics.data
    root = slice(int(model.joint("root").qposadr[0]), int(model.joint("root").qposadr[0]) + 7)
    z = 0.0
    for _ in range(_MAX_HEIGHT_ATTEMPTS + 1):
        mujoco.mj_resetData(model, data)
        data.qpos[root] = (x, y, z, *quaternion)
        mujoco.mj_forward(model, data)
        if data.ncon == 0:
            return
        z += _HEIGHT_STEP_M
    raise RuntimeError(f"no contact-free torso height found at ({x}, {y}) below {z:.2f} m")


def _random_orientation(random_state):
    """A uniformly random unit quaternion (4 normal draws, normalised)."""
    quaternion = random_state.randn(4)
    return quaternion / np.linalg.norm(quaternion)


def _upright_reward(physics, deviation_deg=0.0):
    """1 while the torso's z axis is within `deviation_deg` of upright, falling
    linearly (in the cosine) to 0 upside down."""
    deviation = np.cos(np.deg2rad(deviation_deg))
    return rewards.tolerance(
        physics.torso_upright(),
        bounds=(deviation, float("inf")),
        sigmoid="linear",
        margin=1 + deviation,
        value_at_margin=0,
    )


class _QuadrupedTask(base.SuiteTask):
    """The observations every quadruped task starts with, in the published order."""

    physics_class = Physics
    # Quantities, observations and rewards broadcast over a leading copies axis;
    # per-episode model changes (escape's terrain) live in each copy's own model.
    vectorized_callbacks = True

    def __init__(self, spec, random=None, **extra_observations):
        super().__init__(spec, "quadruped", control_timestep=_CONTROL_TIMESTEP, random=random)
        self.set_observations(
            egocentric_state=Physics.egocentric_state,
            torso_velocity=Physics.torso_velocity,
            torso_upright=Physics.torso_upright,
            imu=Physics.imu,
            force_torque=Physics.force_torque,
            **extra_observations,
        )


class Move(_QuadrupedTask):
    """Move forward (along the torso's x axis) at `desired_speed` m/s or faster, upright.

    Episodes start from a uniformly random orientation at the lowest contact-free
    height above the origin.
    """

    # Its reward works on a batch's (N, ...) arrays too (base.SuiteTask asks each
    # subclass that overrides the outcome to say so).
    vectorized_callbacks = True

    def __init__(self, desired_speed, random=None):
        if not desired_speed > 0:
            raise ValueError(f"desired_speed must be a speed > 0 m/s, got {desired_speed!r}")
        self._desired_speed = desired_speed
        super().__init__(
            quadruped_model.make_spec(floor_size=_DEFAULT_TIME_LIMIT * desired_speed),
            random=random,
        )

    def initialize_episode(self, physics, random_state):
        _place_without_contacts(physics, _random_orientation(random_state))

    def get_reward(self, physics):
        move = rewards.tolerance(
            physics.torso_velocity()[..., 0],
            bounds=(self._desired_speed, float("inf")),
            margin=self._desired_speed,
            value_at_margin=0.5,
            sigmoid="linear",
        )
        return _upright_reward(physics) * move


class Escape(_QuadrupedTask):
    """Get the workspace site 30 m (the terrain's half-size) or more from the
    origin, out of a bumpy bowl, within 20 degrees of upright.

    Each episode draws new bumps, writes the terrain into the model's heightfield
    (no recompilation), then places the quadruped at the centre in a uniformly
    random orientation at the lowest contact-free height.
    """

    # Its reward works on a batch's (N, ...) arrays too (base.SuiteTask asks each
    # subclass that overrides the outcome to say so).
    vectorized_callbacks = True

    def __init__(self, random=None):
        super().__init__(
            quadruped_model.make_spec(
                floor_size=_ESCAPE_FLOOR_SIZE_M, terrain=True, rangefinders=True
            ),
            random=random,
            origin=Physics.origin,
            rangefinder=Physics.rangefinder,
        )
        self._terrain_half_size = None

    def after_compile(self, physics, random_state):
        super().after_compile(physics, random_state)
        model = physics.model
        self._hfield = model.hfield("terrain").id
        self._terrain_half_size = float(model.hfield_size[self._hfield, 0])

    def draw_terrain(self, physics, random_state):
        """Writes a new random bowl into the `terrain` heightfield; returns it
        ((rows, columns) elevations as fractions of the heightfield's height)."""
        model = physics.model
        samples = int(model.hfield_nrow[self._hfield])
        if samples != model.hfield_ncol[self._hfield]:
            raise ValueError(
                f"the terrain heightfield must be square, got {samples} x "
                f"{model.hfield_ncol[self._hfield]} samples"
            )
        rows, columns = np.ogrid[-1 : 1 : samples * 1j, -1 : 1 : samples * 1j]
        radius = np.clip(np.sqrt(columns**2 + rows**2), _BOWL_MIN_RADIUS, 1)
        bowl = 0.5 - np.cos(2 * np.pi * radius) / 2
        bump_samples = int(2 * self._terrain_half_size / _TERRAIN_BUMP_SCALE_M)
        bumps = random_state.uniform(_TERRAIN_SMOOTHNESS, 1, (bump_samples, bump_samples))
        # Cubic-spline zoom (scipy's default order 3), as published.
        smooth_bumps = ndimage.zoom(bumps, samples / float(bump_samples))
        terrain = bowl * smooth_bumps
        start = int(model.hfield_adr[self._hfield])
        model.hfield_data[start : start + samples * samples] = terrain.ravel()
        physics.upload_hfield(self._hfield)
        return terrain

    def initialize_episode(self, physics, random_state):
        self.draw_terrain(physics, random_state)
        _place_without_contacts(physics, _random_orientation(random_state))

    def get_reward(self, physics):
        escape = rewards.tolerance(
            physics.origin_distance(),
            bounds=(self._terrain_half_size, float("inf")),
            margin=self._terrain_half_size,
            value_at_margin=0,
            sigmoid="linear",
        )
        return _upright_reward(physics, deviation_deg=_ESCAPE_UPRIGHT_DEG) * escape


class Fetch(_QuadrupedTask):
    """Reach the ball, then bring it to the target at the centre, upright.

    Episodes start with the quadruped upright at a random heading and a random
    place on the floor (at the lowest contact-free height), and the ball 2 m up
    at another random place, thrown horizontally.
    """

    # Its reward works on a batch's (N, ...) arrays too (base.SuiteTask asks each
    # subclass that overrides the outcome to say so).
    vectorized_callbacks = True

    def __init__(self, random=None):
        super().__init__(
            quadruped_model.make_spec(walls_and_ball=True),
            random=random,
            ball_state=Physics.ball_state,
            target_position=Physics.target_position,
        )

    def after_compile(self, physics, random_state):
        super().after_compile(physics, random_state)
        model = physics.model
        floor_half_size = float(model.geom("floor").size[0])
        self._spawn_radius = _SPAWN_FRACTION * floor_half_size
        # Reward distances: the arena's half-diagonal, and the sizes of the
        # workspace, ball and target.
        self._arena_radius = floor_half_size * np.sqrt(2)
        self._reach_bound = float(model.site("workspace").size[0] + model.geom("ball").size[0])
        self._target_radius = float(model.site("target").size[0])

    def initialize_episode(self, physics, random_state):
        azimuth = random_state.uniform(0, 2 * np.pi)
        quaternion = (np.cos(azimuth / 2), 0, 0, np.sin(azimuth / 2))
        x, y = random_state.uniform(-self._spawn_radius, self._spawn_radius, size=2)
        _place_without_contacts(physics, quaternion, x, y)
        physics.ball_qpos()[:2] = random_state.uniform(
            -self._spawn_radius, self._spawn_radius, size=2
        )
        physics.ball_qpos()[2] = _BALL_START_HEIGHT_M
        physics.ball_qvel()[:2] = _BALL_START_SPEED_STD * random_state.randn(2)

    def get_reward(self, physics):
        reach = rewards.tolerance(
            physics.self_to_ball_distance(),
            bounds=(0, self._reach_bound),
            sigmoid="linear",
            margin=self._arena_radius,
            value_at_margin=0,
        )
        fetch = rewards.tolerance(
            physics.ball_to_target_distance(),
            bounds=(0, self._target_radius),
            sigmoid="linear",
            margin=self._arena_radius,
            value_at_margin=0,
        )
        return _upright_reward(physics) * reach * (0.5 + 0.5 * fetch)
