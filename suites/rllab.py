"""The rllab benchmark's tasks (Duan et al. 2016, "Benchmarking Deep Reinforcement
Learning for Continuous Control", §3 and supplement §1): `rllab.load("cartpole_swing_up")`.

Every task observes one flat float64 vector under the key "observations", in the
order the supplement lists its contents; episodes last `HORIZON[name]` control
steps (supplement Table 2). Facts taken from rllab's source (Box2D models,
reset distributions, action bounds) are cited where used; docs/rllab.md lists
what was chosen where the paper and the source differ.

All 31 tasks are implemented: the 5 basic tasks, their 15 partially observable
variants, the 7 locomotion tasks and the 4 hierarchical ones.
"""

from __future__ import annotations

import mujoco
import numpy as np

from composer_tasks import array_namespace, composer, robustness
from composer_tasks import physics as physics_lib
from composer_tasks.arenas import floor
from composer_tasks.composer.variation import distributions
from composer_tasks.walkers import quadruped
from mjcf_models import acrobot as acrobot_model
from mjcf_models import cartpole as cartpole_model
from mjcf_models import cheetah as cheetah_model
from mjcf_models import hopper as hopper_model
from mjcf_models import humanoid as humanoid_model
from mjcf_models import mountain_car as mountain_car_model
from mjcf_models import simple_humanoid as simple_humanoid_model
from mjcf_models import swimmer as swimmer_model
from mjcf_models import walker as walker_model
from suites import base

BASIC = (
    "cartpole_balancing",
    "cartpole_swing_up",
    "mountain_car",
    "acrobot_swing_up",
    "double_pendulum_balancing",
)
_VARIANTS = ("_limited_sensors", "_noisy_delayed", "_system_id")
PARTIALLY_OBSERVABLE = tuple(name + variant for name in BASIC for variant in _VARIANTS)
LOCOMOTION = (
    "swimmer",
    "hopper",
    "walker",
    "half_cheetah",
    "ant",
    "simple_humanoid",
    "full_humanoid",
)
HIERARCHICAL = ("swimmer_food", "ant_food", "swimmer_maze", "ant_maze")
ALL = BASIC + PARTIALLY_OBSERVABLE + LOCOMOTION + HIERARCHICAL

# Supplement Table 2: horizon 500 for basic, locomotion and hierarchical tasks,
# 100 for partially observable ones (control steps).
_BASIC_HORIZON = 500
_PARTIALLY_OBSERVABLE_HORIZON = 100
HORIZON = {
    **{name: _BASIC_HORIZON for name in BASIC + LOCOMOTION + HIERARCHICAL},
    **{name: _PARTIALLY_OBSERVABLE_HORIZON for name in PARTIALLY_OBSERVABLE},
}

# Control steps: rllab's Box2D worlds step 0.05 s (cartpole.xml.mako,
# mountain_car.xml.mako); supplement §1.3 gives 3 frames = 0.15 s for those and
# 3 frames = 0.06 s for the acrobot and the double pendulum.
_CARTPOLE_CONTROL_S = 0.05
_MOUNTAIN_CAR_CONTROL_S = 0.05
_PENDULUM_CONTROL_S = 0.02
_CARTPOLE_PHYSICS_S = 0.01

# Supplement §1.3: noise sigma 0.1 and a delay of 3 control steps for every task.
NOISE_STD = 0.1
ACTION_DELAY_STEPS = 3
# Supplement §1.3: system identification ranges (fractions of the nominal value).
_POLE_LENGTH_RANGE = (0.5, 1.5)
_VALLEY_WIDTH_RANGE = (0.75, 1.25)
_DOUBLE_PENDULUM_LINK_RANGE = (0.83, 1.67)

# Cart-pole, cartpole.xml.mako / cartpole_env.py: force limit 10 N; the cart-pole
# balancing episode ends when |x| > 2.4 m or |theta| > 0.2 rad, the swing-up one
# when |x| > 3 m. Resets: balancing uniform within 5 % of
# (2.4 m, 4 m/s, 0.2 rad, 4 rad/s); swing-up uniform in x +-1 m, xdot +-2 m/s,
# theta pi +-1 rad, thetadot +-3 rad/s.
_CART_FORCE_N = 10.0
_BALANCE_MAX_X_M = 2.4
_BALANCE_MAX_ANGLE = 0.2
_BALANCE_RESET_BOUNDS = np.array([2.4, 4.0, 0.2, 4.0])
_BALANCE_RESET_FRACTION = 0.05
_SWING_UP_MAX_X_M = 3.0
_SWING_UP_PENALTY = -100.0
_SWING_UP_RESET_LOW = np.array([-1.0, -2.0, np.pi - 1.0, -3.0])
_SWING_UP_RESET_HIGH = np.array([1.0, 2.0, np.pi + 1.0, 3.0])
# Supplement §1.1 rewards.
_BALANCE_ALIVE = 10.0
_BALANCE_CONTROL_COST = 1e-5
# Mountain car, mountain_car_env.py: the goal is x >= 0.6 m, the track ends at
# |x| = 2 m; resets give a horizontal speed uniform in [-1, 1] m/s.
_MOUNTAIN_CAR_GOAL_X_M = 0.6
_MOUNTAIN_CAR_MAX_X_M = 2.0
_MOUNTAIN_CAR_RESET_SPEED = 1.0
# Double pendulum, supplement §1.1: reward 10 - 0.01 x_tip^2 - (y_tip - 2)^2
# - 1e-3 w1^2 - 5e-3 w2^2, end when y_tip <= 1 m (heights above the hinge on the
# cart); double_pendulum_env.py resets angles ~ N(0, 0.1^2), speeds ~ N(0, 0.01^2).
_DOUBLE_PENDULUM_ALIVE = 10.0
_TIP_X_COST = 0.01
_TIP_TARGET_HEIGHT_M = 2.0
_HINGE1_SPEED_COST = 1e-3
_HINGE2_SPEED_COST = 5e-3
_DOUBLE_PENDULUM_MIN_TIP_HEIGHT_M = 1.0
_DOUBLE_PENDULUM_RESET_STD = np.array([0.1, 0.1, 0.01, 0.01])
# Locomotion (rllab mujoco envs): constraint forces clipped to +-10, contact
# forces to +-1; initial coordinates perturbed by N(0, 0.01^2).
_CONSTRAINT_FORCE_CLIP = 10.0
_CONTACT_FORCE_CLIP = 1.0
_LOCOMOTION_RESET_STD = 0.01
# Ant: 0.05 s control steps, as Gym's ant of the same lineage (5 frames of
# 0.01 s); physics steps of 5 ms, since the quadruped's contacts are stiffer.
_ANT_CONTROL_S = 0.05
_ANT_PHYSICS_S = 0.005
# Supplement §1.2: the swimmer has 3 links and 2 actuated joints.
_SWIMMER_LINKS = 3
# Food collection, rllab's gather_env.py: 8 food and 8 bombs on even grid points
# of [-6, 4]^2 m, none at the start; caught within 1 m; 10 bins per kind over a
# span of pi ahead, range 6 m; walls 7 m from the centre; -10 when the walker's
# own episode ends.
_ACTIVITY_RANGE_M = 6.0
_GRID_SPACING_M = 2.0
_ROBOT_OBJECT_SPACING_M = 2.0
_CATCH_RANGE_M = 1.0
_BINS = 10
_SENSOR_RANGE_M = 6.0
_SENSOR_SPAN = np.pi
_DYING_COST = -10.0
_FOOD = 0.0
_BOMB = 1.0
# Maze, rllab's maze_env.py: the U-shaped maze, 20 rays over a span of pi with a
# 10 m range; cells of 4 m with walls 0.5 cells high for the swimmer
# (swimmer_maze_env.py), 3 m and 2 cells high for the ant (ant_maze_env.py).
_MAZE = (
    (1, 1, 1, 1, 1),
    (1, "r", 0, 0, 1),
    (1, 1, 1, 0, 1),
    (1, "g", 0, 0, 1),
    (1, 1, 1, 1, 1),
)
_MAZE_BINS = 20
_MAZE_SENSOR_RANGE_M = 10.0
_MAZE_GEOMETRY = {"swimmer": (4.0, 0.5), "ant": (3.0, 2.0)}
# Acrobot: rllab's release has no acrobot; it starts hanging down at rest, with
# angles ~ N(0, 0.1^2) about that.
_ACROBOT_RESET_STD = 0.1


class Task(composer.Task):
    """Base of rllab tasks: one model, one `SensorVector` "observations", a reward and
    a termination; terminations end the episode with discount 0.

    A subclass sets `vectorized_callbacks` True when its reward, termination and
    sensors also take a batch's physics ((N, ...) arrays, leading-axis-agnostic
    indexing) and return per copy exactly what they return on one copy's physics:
    `composer.Task.vectorized`'s promise. The basic tasks do; the variants that add
    noise, an action delay or per-episode parameters fall back to the batch's
    per-copy path (the batch checks their observables and entity callbacks, and
    `robustness.delayed_actions` clears `vectorized_callbacks`).
    """

    physics_class = physics_lib.Physics
    vectorized_callbacks = False

    @property
    def vectorized(self):
        """`composer.Task.vectorized`: this task's `vectorized_callbacks`."""
        return self.vectorized_callbacks

    def __init__(self, root, control_timestep, sensors):
        self._root = root
        self.set_timesteps(control_timestep, root.spec.option.timestep)
        self.observations = robustness.SensorVector(sensors, enabled=True)

    @property
    def root_entity(self):
        return self._root

    @property
    def task_observables(self):
        return {"observations": self.observations}

    def get_discount(self, physics):
        terminated = self.should_terminate_episode(physics)
        return _scalar(array_namespace.namespace(terminated).where(terminated, 0.0, 1.0))

    def action(self, physics) -> np.ndarray:
        """The control applied in the last step (the action, after any delay)."""
        return physics.data.ctrl


def _scalar(value):
    """A 0-d array as a Python scalar (a single environment's float or bool); an
    (N,) array of a batch's copies unchanged."""
    if array_namespace.is_jax(value):
        return value  # A device batch's (N,) array (or a traced one).
    value = np.asarray(value)
    return value.item() if value.ndim == 0 else value


def _joint_reader(attribute, joint, size=1):
    """Reads `size` entries of qpos or qvel at a joint's address: (size,) on one
    copy's physics, (N, size) on a batch's."""
    address_field = "qposadr" if attribute == "qpos" else "dofadr"

    def read(physics):
        # Addresses are structural: every copy (and every recompiled model) shares them.
        address = int(getattr(physics.model.joint(joint), address_field)[0])
        return getattr(physics.data, attribute)[..., address : address + size]

    return read


def _cartpole_spec(num_poles):
    """The suite's cart-pole with rllab's actuation: a force of +-10 N on an
    unlimited rail (rllab's track is 200 m long)."""
    spec = cartpole_model.make_spec(num_poles)
    spec.option.timestep = _CARTPOLE_PHYSICS_S
    slider = spec.joint("slider")
    slider.limited = 0
    actuator = spec.actuator("slide")
    actuator.gear = [1, 0, 0, 0, 0, 0]
    actuator.ctrlrange = [-_CART_FORCE_N, _CART_FORCE_N]
    return spec


class CartPole(Task):
    """Cart-pole balancing (`swing_up=False`) or swing-up (supplement §1.1).

    Observation: cart position x (m), pole angle theta (rad, 0 upright), cart
    velocity (m/s), pole angular velocity (rad/s). Action: horizontal force (N).
    """

    vectorized_callbacks = True

    def __init__(self, swing_up: bool):
        self._swing_up = swing_up
        spec = _cartpole_spec(1)
        super().__init__(
            base.ModelEntity(spec, "cartpole"),
            _CARTPOLE_CONTROL_S,
            [
                robustness.Sensor("cart_position", _joint_reader("qpos", "slider")),
                robustness.Sensor("pole_angle", _joint_reader("qpos", "hinge_1")),
                robustness.Sensor(
                    "cart_velocity", _joint_reader("qvel", "slider"), is_velocity=True
                ),
                robustness.Sensor(
                    "pole_angular_velocity", _joint_reader("qvel", "hinge_1"), is_velocity=True
                ),
            ],
        )
        self.pole_geom = spec.geom("pole_1")

    def initialize_episode(self, physics, random_state):
        if self._swing_up:
            state = random_state.uniform(_SWING_UP_RESET_LOW, _SWING_UP_RESET_HIGH)
        else:
            bound = _BALANCE_RESET_FRACTION * _BALANCE_RESET_BOUNDS
            state = random_state.uniform(-bound, bound)
        physics.data.qpos[:] = state[[0, 2]]
        physics.data.qvel[:] = state[[1, 3]]

    def cart_position(self, physics):
        return physics.data.qpos[..., 0]

    def pole_angle(self, physics):
        return physics.data.qpos[..., 1]

    def should_terminate_episode(self, physics):
        x = abs(self.cart_position(physics))
        if self._swing_up:
            return _scalar(x > _SWING_UP_MAX_X_M)
        return _scalar(
            (x > _BALANCE_MAX_X_M) | (abs(self.pole_angle(physics)) > _BALANCE_MAX_ANGLE)
        )

    def get_reward(self, physics):
        done = self.should_terminate_episode(physics)
        angle = self.pole_angle(physics)
        xp = array_namespace.namespace(angle)
        cosine = xp.cos(angle)
        if self._swing_up:
            return _scalar(xp.where(done, _SWING_UP_PENALTY, cosine))
        control_cost = _BALANCE_CONTROL_COST * xp.sum(self.action(physics) ** 2, axis=-1)
        # cartpole_env.py multiplies the reward by "not done".
        return _scalar(xp.where(done, 0.0, _BALANCE_ALIVE - (1 - cosine) - control_cost))


class MountainCar(Task):
    """Mountain car (supplement §1.1). Observation: horizontal position x (m) and
    velocity (m/s) of the car. Action: horizontal force (N)."""

    vectorized_callbacks = True

    def __init__(self):
        spec = mountain_car_model.make_spec()
        super().__init__(
            base.ModelEntity(spec, "mountain_car"),
            _MOUNTAIN_CAR_CONTROL_S,
            [
                robustness.Sensor("car_position", _joint_reader("qpos", "car_x")),
                robustness.Sensor("car_velocity", _joint_reader("qvel", "car_x"), is_velocity=True),
            ],
        )
        self.track = spec.hfield("track")

    def initialize_episode(self, physics, random_state):
        physics.data.qpos[:] = [0.0, mountain_car_model.CAR_RADIUS_M]
        physics.data.qvel[:] = [
            random_state.uniform(-_MOUNTAIN_CAR_RESET_SPEED, _MOUNTAIN_CAR_RESET_SPEED),
            0.0,
        ]

    def height(self, physics):
        """Height of the car's centre above the valley floor's lowest point (m)."""
        return _scalar(physics.data.qpos[..., 1])

    def should_terminate_episode(self, physics):
        x = physics.data.qpos[..., 0]
        half_width = physics.model.hfield_size[..., 0, 0]
        xp = array_namespace.namespace(x, half_width)
        return _scalar(
            (x >= _MOUNTAIN_CAR_GOAL_X_M)
            | (abs(x) >= xp.minimum(_MOUNTAIN_CAR_MAX_X_M, half_width))
        )

    def get_reward(self, physics):
        height = self.height(physics)
        return _scalar(-1.0 + array_namespace.namespace(height).asarray(height))


class Acrobot(Task):
    """Acrobot swing-up (supplement §1.1) on the suite's acrobot model.

    Observation: shoulder and elbow angles (rad, 0 upright), then their velocities
    (rad/s). Action: elbow torque in [-1, 1] (x gear 2 N m, the suite's motor).
    Reward: minus the distance (m) from the tip to the point straight above the
    shoulder at the two links' length.
    """

    vectorized_callbacks = True

    def __init__(self):
        spec = acrobot_model.make_spec()
        super().__init__(
            base.ModelEntity(spec, "acrobot"),
            _PENDULUM_CONTROL_S,
            [
                robustness.Sensor("shoulder_angle", _joint_reader("qpos", "shoulder")),
                robustness.Sensor("elbow_angle", _joint_reader("qpos", "elbow")),
                robustness.Sensor(
                    "shoulder_velocity", _joint_reader("qvel", "shoulder"), is_velocity=True
                ),
                robustness.Sensor(
                    "elbow_velocity", _joint_reader("qvel", "elbow"), is_velocity=True
                ),
            ],
        )
        self.upper_geom = spec.geom("upper_arm")
        self.lower_body = spec.body("lower_arm")
        self.lower_geom = spec.geom("lower_arm")
        self.tip_site = spec.site("tip")

    def initialize_episode(self, physics, random_state):
        physics.data.qpos[:] = np.array([np.pi, 0.0]) + _ACROBOT_RESET_STD * random_state.randn(2)
        physics.data.qvel[:] = 0.0

    def tip_target(self, physics):
        """World position of the tip when both links point straight up (m)."""
        model = physics.model
        shoulder = physics.data.xpos[..., model.body("upper_arm").id, :]
        return array_namespace.concatenate_last_axis(
            shoulder[..., :2],
            shoulder[..., 2]
            + (
                model.body_pos[..., model.body("lower_arm").id, 2]
                + model.site_pos[..., model.site("tip").id, 2]
            ),
        )

    def get_reward(self, physics):
        tip = physics.data.site_xpos[..., physics.model.site("tip").id, :]
        offset = tip - self.tip_target(physics)
        # The Euclidean norm written out, so that one copy and a batch of copies
        # round alike (np.linalg.norm takes a BLAS dot product for one vector).
        xp = array_namespace.namespace(offset)
        return _scalar(-xp.sqrt(xp.sum(offset * offset, axis=-1)))


class DoublePendulum(Task):
    """Double inverted pendulum balancing on a cart (supplement §1.1), the suite's
    two-pole cart-pole with rllab's +-10 N force.

    Observation: cart position (m), sin and cos of each hinge angle (0 upright),
    hinge angular velocities (rad/s): 7 entries.
    """

    vectorized_callbacks = True

    def __init__(self):
        spec = _cartpole_spec(2)

        def sin_cos(joint):
            read = _joint_reader("qpos", joint)

            def read_sin_cos(physics):
                angle = read(physics)
                xp = array_namespace.namespace(angle)
                return xp.concatenate([xp.sin(angle), xp.cos(angle)], axis=-1)

            return read_sin_cos

        super().__init__(
            base.ModelEntity(spec, "double_pendulum"),
            _PENDULUM_CONTROL_S,
            [
                robustness.Sensor("cart_position", _joint_reader("qpos", "slider")),
                robustness.Sensor("hinge_1_sin_cos", sin_cos("hinge_1")),
                robustness.Sensor("hinge_2_sin_cos", sin_cos("hinge_2")),
                robustness.Sensor(
                    "hinge_1_velocity", _joint_reader("qvel", "hinge_1"), is_velocity=True
                ),
                robustness.Sensor(
                    "hinge_2_velocity", _joint_reader("qvel", "hinge_2"), is_velocity=True
                ),
            ],
        )
        self.pole_geoms = (spec.geom("pole_1"), spec.geom("pole_2"))
        self.pole_2_body = spec.body("pole_2")

    def initialize_episode(self, physics, random_state):
        angles, speeds = np.split(random_state.randn(4) * _DOUBLE_PENDULUM_RESET_STD, 2)
        physics.data.qpos[1:] = angles
        physics.data.qvel[1:] = speeds

    def tip(self, physics):
        """(x, height) of the upper pole's tip: x in the world, height above the
        cart's hinge (m)."""
        model = physics.model
        pole_2 = model.body("pole_2").id
        geom = model.geom("pole_2").id
        # The capsule's axis is the body's z axis; its far end is 2 x the geom's
        # centre offset along it. The rotation is applied entry by entry (row i of
        # xmat times the offset) so that one copy and a batch round alike.
        offset = 2 * model.geom_pos[..., geom, :]
        position = physics.data.xpos[..., pole_2, :]
        rotation = physics.data.xmat[..., pole_2, :]

        def rotated(row):
            return (
                rotation[..., 3 * row] * offset[..., 0]
                + rotation[..., 3 * row + 1] * offset[..., 1]
                + rotation[..., 3 * row + 2] * offset[..., 2]
            )

        hinge_height = physics.data.xpos[..., model.body("cart").id, 2]
        tip_x = position[..., 0] + rotated(0)
        tip_z = position[..., 2] + rotated(2)
        return _scalar(tip_x), _scalar(tip_z - hinge_height)

    def should_terminate_episode(self, physics):
        height = self.tip(physics)[1]
        return _scalar(
            array_namespace.namespace(height).asarray(height) <= _DOUBLE_PENDULUM_MIN_TIP_HEIGHT_M
        )

    def get_reward(self, physics):
        x_tip, y_tip = (
            array_namespace.namespace(value).asarray(value) for value in self.tip(physics)
        )
        speed_1, speed_2 = physics.data.qvel[..., 1], physics.data.qvel[..., 2]
        return _scalar(
            _DOUBLE_PENDULUM_ALIVE
            - _TIP_X_COST * x_tip**2
            - (y_tip - _TIP_TARGET_HEIGHT_M) ** 2
            - _HINGE1_SPEED_COST * speed_1**2
            - _HINGE2_SPEED_COST * speed_2**2
        )


def _pole_scale(name, geom, child_body_or_site, attribute, low_high):
    """One length factor for a pole: its geom's end point and mass (uniform rods,
    as rllab's Box2D poles of fixed density), and the position of what hangs from
    its tip."""
    targets = [(geom, "fromto"), (geom, "mass")]
    if child_body_or_site is not None:
        targets.append((child_body_or_site, attribute))
    return robustness.LinkedScale(distributions.Uniform(*low_high), targets, name=name)


def _system_id_scales(task):
    if isinstance(task, CartPole):
        return [_pole_scale("pole_length", task.pole_geom, None, None, _POLE_LENGTH_RANGE)]
    if isinstance(task, MountainCar):
        return [
            robustness.LinkedScale(
                distributions.Uniform(*_VALLEY_WIDTH_RANGE),
                [(task.track, "size")],
                name="valley_width",
            )
        ]
    if isinstance(task, Acrobot):
        return [
            _pole_scale(
                "upper_length", task.upper_geom, task.lower_body, "pos", _POLE_LENGTH_RANGE
            ),
            _pole_scale("lower_length", task.lower_geom, task.tip_site, "pos", _POLE_LENGTH_RANGE),
        ]
    return [
        _pole_scale(
            "pole_1_length",
            task.pole_geoms[0],
            task.pole_2_body,
            "pos",
            _DOUBLE_PENDULUM_LINK_RANGE,
        ),
        _pole_scale("pole_2_length", task.pole_geoms[1], None, None, _DOUBLE_PENDULUM_LINK_RANGE),
    ]


def _basic_task(name):
    if name == "cartpole_balancing":
        return CartPole(swing_up=False)
    if name == "cartpole_swing_up":
        return CartPole(swing_up=True)
    if name == "mountain_car":
        return MountainCar()
    if name == "acrobot_swing_up":
        return Acrobot()
    return DoublePendulum()


class Locomotion(Task):
    """A locomotion task of supplement §1.2 on one of this project's suite models.

    Observation (rllab's `get_current_obs`, in its order): joint positions `qpos`
    (without the forward position for the half-cheetah), joint velocities `qvel`,
    then, as the task's rllab source has them, constraint forces `qfrc_constraint`
    clipped to [-10, 10] (hopper) or external contact forces `cfrc_ext` of every
    body clipped to [-1, 1] (ant, humanoids), and the torso subtree's centre of mass
    (world frame, m); the ant observes its torso's rotation matrix before it.

    Reward: v_x - ctrl_cost ||a||^2 + alive_bonus - contact_cost ||clip(F)||^2
    - deviation_cost (v_y^2 + v_z^2), with v the torso subtree's centre-of-mass
    velocity (world frame, m/s) and a the action (every actuator's range is
    [-1, 1], so rllab's scaling by the half range is 1). The episode ends when the
    torso height leaves `height_range` (m) or the pitch |rooty| exceeds `max_pitch` (rad).
    """

    def __init__(
        self,
        root,
        control_timestep,
        torso,
        ctrl_cost,
        alive_bonus=0.0,
        contact_cost=0.0,
        deviation_cost=0.0,
        height_range=None,
        max_pitch=None,
        skip_forward_position=False,
        constraint_forces=False,
        contact_forces=False,
        orientation=False,
        initial_qpos=None,
        forward_axis=(1.0, 0.0, 0.0),
    ):
        self._torso_name = torso
        self._ctrl_cost = ctrl_cost
        self._alive_bonus = alive_bonus
        self._contact_cost = contact_cost
        self._deviation_cost = deviation_cost
        self._height_range = height_range
        self._max_pitch = max_pitch
        self._initial_qpos = dict(initial_qpos or {})
        self.forward_axis = np.array(forward_axis, dtype=np.float64)
        first_qpos = 1 if skip_forward_position else 0
        sensors = [
            robustness.Sensor("joint_positions", lambda physics: physics.data.qpos[first_qpos:]),
            robustness.Sensor(
                "joint_velocities", lambda physics: physics.data.qvel, is_velocity=True
            ),
        ]
        if constraint_forces:
            sensors.append(
                robustness.Sensor(
                    "constraint_forces",
                    lambda physics: np.clip(
                        physics.data.qfrc_constraint,
                        -_CONSTRAINT_FORCE_CLIP,
                        _CONSTRAINT_FORCE_CLIP,
                    ),
                )
            )
        if contact_forces:
            sensors.append(robustness.Sensor("contact_forces", self.contact_forces))
        if orientation:
            sensors.append(robustness.Sensor("torso_orientation", self.torso_orientation))
        sensors.append(robustness.Sensor("center_of_mass", self.center_of_mass))
        super().__init__(root, control_timestep, sensors)

    def initialize_episode(self, physics, random_state):
        """The model's initial pose (with `initial_qpos`, joint name -> value) and
        rest, each coordinate perturbed by N(0, 0.01^2) (free-joint quaternions
        renormalised)."""
        data = physics.data
        qpos = physics.model.qpos0.copy()
        for joint, value in self._initial_qpos.items():
            qpos[physics.model.joint(joint).qposadr[0]] = value
        data.qpos[:] = qpos + _LOCOMOTION_RESET_STD * random_state.randn(physics.model.nq)
        data.qvel[:] = _LOCOMOTION_RESET_STD * random_state.randn(physics.model.nv)
        for joint in range(physics.model.njnt):
            if physics.model.jnt_type[joint] == mujoco.mjtJoint.mjJNT_FREE:
                address = physics.model.jnt_qposadr[joint] + 3
                data.qpos[address : address + 4] /= np.linalg.norm(data.qpos[address : address + 4])

    def _torso(self, physics):
        return physics.model.body(self._torso_name).id

    def center_of_mass(self, physics):
        """Centre of mass of the torso's subtree (world frame, m)."""
        return physics.data.subtree_com[self._torso(physics)]

    def center_of_mass_velocity(self, physics):
        """Linear velocity of that centre of mass (world frame, m/s)."""
        mujoco.mj_subtreeVel(physics.model, physics.data)
        return physics.data.subtree_linvel[self._torso(physics)]

    def contact_forces(self, physics):
        """External (contact) wrenches on every body, clipped to [-1, 1], flat.

        The wrenches are those of the current state's constraint forces, as rllab's
        `model.forward()` after its substeps computes them. After a step the data
        holds the new state's contacts but the constraint forces of the state before
        the last substep (the step ends with `mj_step1`), whose rows no longer match
        those contacts when the contact set changed; so the acceleration stage (the
        constraint solve) runs again first. The next step recomputes it from the
        same state and warm start, so the trajectory is unchanged.
        """
        mujoco.mj_forwardSkip(physics.model, physics.data, mujoco.mjtStage.mjSTAGE_VEL, 1)
        mujoco.mj_rnePostConstraint(physics.model, physics.data)
        return np.clip(physics.data.cfrc_ext, -_CONTACT_FORCE_CLIP, _CONTACT_FORCE_CLIP).ravel()

    def heading(self, physics):
        """Angle (rad) about world z from world x to the torso's forward axis."""
        forward = physics.data.xmat[self._torso(physics)].reshape(3, 3) @ self.forward_axis
        return float(np.arctan2(forward[1], forward[0]))

    def torso_orientation(self, physics):
        """The torso's rotation matrix (row-major, world from torso frame)."""
        return physics.data.xmat[self._torso(physics)]

    def torso_height(self, physics):
        return float(physics.data.xpos[self._torso(physics), 2])

    def pitch(self, physics):
        return float(physics.data.qpos[physics.model.joint("rooty").qposadr[0]])

    def should_terminate_episode(self, physics):
        if self._height_range is not None:
            low, high = self._height_range
            if not low <= self.torso_height(physics) <= high:
                return True
        return self._max_pitch is not None and abs(self.pitch(physics)) > self._max_pitch

    def get_discount(self, physics):
        return 0.0 if self.should_terminate_episode(physics) else 1.0

    def get_reward(self, physics):
        velocity = self.center_of_mass_velocity(physics)
        reward = (
            float(velocity[0])
            - self._ctrl_cost * float(np.sum(self.action(physics) ** 2))
            + self._alive_bonus
        )
        if self._contact_cost:
            reward -= self._contact_cost * float(np.sum(self.contact_forces(physics) ** 2))
        if self._deviation_cost:
            reward -= self._deviation_cost * float(velocity[1] ** 2 + velocity[2] ** 2)
        return reward


class Gather(Task):
    """Locomotion + food collection (supplement §1.4; rllab's `gather_env.py`).

    `n_food` food units and `n_bombs` bombs lie on distinct points of a grid of
    2 m spacing inside a walled square; touching one (the torso's centre of mass
    within `_CATCH_RANGE_M`) removes it and gives +1 (food) or -1 (bomb). The
    episode ends when nothing is left, or when the walker's own termination fires
    (reward `_DYING_COST`). The walker's own reward is not given (rllab's
    `coef_inner_rew` 0).

    Observation: the walker's rllab observation, then `_BINS` food readings and
    `_BINS` bomb readings: range sensors over the half-plane ahead of the walker
    (span pi), each bin reading 1 - distance / `_SENSOR_RANGE_M` of its nearest
    object (0 if none is within range).
    """

    def __init__(self, inner: Locomotion, n_food: int = 8, n_bombs: int = 8):
        self._inner = inner
        self._n_food = n_food
        self._n_bombs = n_bombs
        self.objects = np.zeros((0, 3))
        self._step_reward = 0.0
        spec = inner.root_entity.spec
        wall_distance = _ACTIVITY_RANGE_M + 1
        for index, (x, y, half_x, half_y) in enumerate(
            (
                (0, -wall_distance, wall_distance + 0.5, 0.5),
                (0, wall_distance, wall_distance + 0.5, 0.5),
                (-wall_distance, 0, 0.5, wall_distance + 0.5),
                (wall_distance, 0, 0.5, wall_distance + 0.5),
            )
        ):
            spec.worldbody.add_geom(
                name=f"wall{index + 1}",
                type=mujoco.mjtGeom.mjGEOM_BOX,
                pos=[x, y, 0],
                size=[half_x, half_y, 1.0],
                rgba=[0.8, 0.9, 0.8, 1],
            )
        sensors = list(inner.observations.sensors) + [
            robustness.Sensor("food_readings", lambda physics: self.readings(physics)[0]),
            robustness.Sensor("bomb_readings", lambda physics: self.readings(physics)[1]),
        ]
        super().__init__(inner.root_entity, inner.control_timestep, sensors)

    @property
    def inner(self) -> Locomotion:
        return self._inner

    def initialize_episode(self, physics, random_state):
        """Places the objects (food first) on distinct grid points away from the
        start, then starts the walker as its own task does."""
        objects, taken = [], set()
        while len(objects) < self._n_food + self._n_bombs:
            half = int(_ACTIVITY_RANGE_M / 2)
            x, y = (random_state.randint(-half, half, size=2) * _GRID_SPACING_M).tolist()
            if x**2 + y**2 < _ROBOT_OBJECT_SPACING_M**2 or (x, y) in taken:
                continue
            taken.add((x, y))
            objects.append((x, y, _FOOD if len(objects) < self._n_food else _BOMB))
        self.objects = np.array(objects, dtype=np.float64)
        self._step_reward = 0.0
        self._inner.initialize_episode(physics, random_state)

    def after_step(self, physics, random_state):
        if self._inner.should_terminate_episode(physics):
            self._step_reward = _DYING_COST
            return
        position = self._inner.center_of_mass(physics)[:2]
        caught = np.sum((self.objects[:, :2] - position) ** 2, axis=1) < _CATCH_RANGE_M**2
        kinds = self.objects[caught, 2]
        self._step_reward = float(np.sum(kinds == _FOOD) - np.sum(kinds == _BOMB))
        self.objects = self.objects[~caught]

    def readings(self, physics):
        """(food readings, bomb readings), each `_BINS` values in [0, 1]."""
        position = self._inner.center_of_mass(physics)[:2]
        heading = self._inner.heading(physics)
        readings = np.zeros((2, _BINS))
        offsets = self.objects[:, :2] - position
        distances = np.sqrt(np.sum(offsets**2, axis=1))
        angles = (
            np.mod(np.arctan2(offsets[:, 1], offsets[:, 0]) - heading + np.pi, 2 * np.pi) - np.pi
        )
        # Farthest first, so that a nearer object in the same bin overwrites it.
        for index in np.argsort(-distances, kind="stable"):
            if distances[index] > _SENSOR_RANGE_M or abs(angles[index]) > _SENSOR_SPAN / 2:
                continue
            bin_index = min(
                int((angles[index] + _SENSOR_SPAN / 2) / (_SENSOR_SPAN / _BINS)), _BINS - 1
            )
            kind = 0 if self.objects[index, 2] == _FOOD else 1
            readings[kind, bin_index] = 1.0 - distances[index] / _SENSOR_RANGE_M
        return readings

    def get_reward(self, physics):
        return self._step_reward

    def should_terminate_episode(self, physics):
        return self._inner.should_terminate_episode(physics) or len(self.objects) == 0

    # Snapshots (composer.Environment.snapshot): the objects left are Python state.

    def snapshot_state(self) -> dict:
        """The objects not yet caught ((x, y, kind) rows) and the last step's reward."""
        return {"objects": self.objects.copy(), "step_reward": self._step_reward}

    def restore_state(self, state: dict) -> None:
        """Returns to a `snapshot_state()` of a gather task built alike.

        Raises:
          ValueError: the objects are not (count, 3) rows.
        """
        objects = np.array(state["objects"], dtype=np.float64)
        if objects.ndim != 2 or objects.shape[1] != 3:
            raise ValueError(
                f"the snapshot's objects must be (count, 3) rows, got shape {objects.shape}"
            )
        self.objects = objects
        self._step_reward = float(state["step_reward"])


class Maze(Task):
    """Locomotion + maze (supplement §1.4; rllab's `maze_env.py`).

    The walker starts at the origin in rllab's U-shaped maze of `_MAZE` (cells of
    `size_scaling` metres: 1 a wall block, "r" the start, "g" the goal). Reaching
    the goal cell (the torso's centre of mass inside it) gives +1 and ends the
    episode; every other step gives 0. The walker's own termination also ends it.

    Observation: the walker's rllab observation, then `_MAZE_BINS` wall readings
    and `_MAZE_BINS` goal readings: one ray per bin, evenly over a span of pi
    centred on the heading; a ray reads (range - distance) / range of the first
    wall or goal edge it meets within `_MAZE_SENSOR_RANGE_M`, in the matching half.
    """

    def __init__(self, inner: Locomotion, size_scaling: float, height: float):
        self._inner = inner
        self._scaling = size_scaling
        start_row, start_col = _maze_cells("r")[0]
        self._start = np.array([start_col, start_row], dtype=np.float64) * size_scaling
        spec = inner.root_entity.spec
        for row, col in _maze_cells(1):
            x, y = np.array([col, row]) * size_scaling - self._start
            spec.worldbody.add_geom(
                name=f"block_{row}_{col}",
                type=mujoco.mjtGeom.mjGEOM_BOX,
                pos=[x, y, height / 2 * size_scaling],
                size=[size_scaling / 2, size_scaling / 2, height / 2 * size_scaling],
                rgba=[0.4, 0.4, 0.4, 1],
            )
        goal_row, goal_col = _maze_cells("g")[0]
        goal_center = np.array([goal_col, goal_row]) * size_scaling - self._start
        self.goal_range = np.array([goal_center - size_scaling / 2, goal_center + size_scaling / 2])
        segments, is_goal = [], []
        for kind in (1, "g"):
            for row, col in _maze_cells(kind):
                center = np.array([col, row]) * size_scaling - self._start
                (x1, y1), (x2, y2) = center - size_scaling / 2, center + size_scaling / 2
                corners = [(x1, y1), (x2, y1), (x2, y2), (x1, y2)]
                for corner in range(4):
                    segments.append((corners[corner], corners[(corner + 1) % 4]))
                    is_goal.append(kind == "g")
        self._segments = np.array(segments, dtype=np.float64)
        self._segment_is_goal = np.array(is_goal)
        sensors = list(inner.observations.sensors) + [
            robustness.Sensor("wall_readings", lambda physics: self.readings(physics)[0]),
            robustness.Sensor("goal_readings", lambda physics: self.readings(physics)[1]),
        ]
        super().__init__(inner.root_entity, inner.control_timestep, sensors)

    @property
    def inner(self) -> Locomotion:
        return self._inner

    def initialize_episode(self, physics, random_state):
        self._inner.initialize_episode(physics, random_state)

    def in_goal(self, physics) -> bool:
        position = self._inner.center_of_mass(physics)[:2]
        return bool(
            np.all(self.goal_range[0] <= position) and np.all(position <= self.goal_range[1])
        )

    def readings(self, physics):
        """(wall readings, goal readings), each `_MAZE_BINS` values in [0, 1]."""
        origin = self._inner.center_of_mass(physics)[:2]
        heading = self._inner.heading(physics)
        bins = np.arange(_MAZE_BINS)
        angles = heading - _SENSOR_SPAN / 2 + (2 * bins + 1) / (2 * _MAZE_BINS) * _SENSOR_SPAN
        directions = np.stack([np.cos(angles), np.sin(angles)], axis=1)[:, None, :]
        start = self._segments[None, :, 0, :]
        edge = self._segments[None, :, 1, :] - start
        to_start = start - origin

        def cross(u, v):
            return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]

        denominator = cross(directions, edge)
        with np.errstate(divide="ignore", invalid="ignore"):
            along_ray = cross(to_start, edge) / denominator
            along_edge = cross(to_start, directions) / denominator
        hits = (denominator != 0) & (along_ray >= 0) & (along_edge >= 0) & (along_edge <= 1)
        distances = np.where(hits, along_ray, np.inf)
        nearest = np.argmin(distances, axis=1)
        distance = distances[bins, nearest]
        reading = np.where(
            distance <= _MAZE_SENSOR_RANGE_M,
            (_MAZE_SENSOR_RANGE_M - distance) / _MAZE_SENSOR_RANGE_M,
            0.0,
        )
        goal = self._segment_is_goal[nearest]
        return np.where(goal, 0.0, reading), np.where(goal, reading, 0.0)

    def get_reward(self, physics):
        return 1.0 if self.in_goal(physics) else 0.0

    def should_terminate_episode(self, physics):
        return self.in_goal(physics) or self._inner.should_terminate_episode(physics)


def _maze_cells(kind):
    return [
        (row, col)
        for row, cells in enumerate(_MAZE)
        for col, cell in enumerate(cells)
        if cell == kind
    ]


def _model(spec, name):
    return base.ModelEntity(spec, name)


def _locomotion_task(name):
    """Supplement §1.2 coefficients; control steps are the suite's for the model."""
    if name == "swimmer":
        spec = swimmer_model.make_spec(_SWIMMER_LINKS)
        # The suite's target ball has no role here: it must not touch the swimmer.
        target = spec.geom("target")
        target.contype = target.conaffinity = 0
        # The suite swimmer's nose points along its head's -y; turning the heading
        # joint by 90 degrees starts it facing +x, the rewarded direction.
        return Locomotion(
            _model(spec, name),
            0.03,
            "head",
            ctrl_cost=0.005,
            initial_qpos={"rootz": np.pi / 2},
            forward_axis=(0.0, -1.0, 0.0),
        )
    if name == "hopper":
        return Locomotion(
            _model(hopper_model.make_spec(), name),
            0.02,
            "torso",
            ctrl_cost=0.005,
            alive_bonus=1.0,
            height_range=(0.7, np.inf),
            max_pitch=0.2,
            constraint_forces=True,
        )
    if name == "walker":
        return Locomotion(
            _model(walker_model.make_spec(), name),
            0.025,
            "torso",
            ctrl_cost=0.005,
            height_range=(0.8, 2.0),
            max_pitch=1.0,
        )
    if name == "half_cheetah":
        return Locomotion(
            _model(cheetah_model.make_spec(), name),
            0.01,
            "torso",
            ctrl_cost=0.05,
            skip_forward_position=True,
        )
    if name == "ant":
        arena = floor.Floor()
        arena.spec.option.timestep = _ANT_PHYSICS_S
        arena.add_free_entity(quadruped.Quadruped(name="ant"))
        return Locomotion(
            arena,
            _ANT_CONTROL_S,
            "ant/torso",
            ctrl_cost=0.005,
            alive_bonus=0.05,
            contact_cost=5e-4,
            height_range=(0.2, 1.0),
            contact_forces=True,
            orientation=True,
        )
    spec = (simple_humanoid_model if name == "simple_humanoid" else humanoid_model).make_spec()
    return Locomotion(
        _model(spec, name),
        0.025,
        "torso",
        ctrl_cost=5e-4,
        alive_bonus=0.2,
        contact_cost=5e-6,
        deviation_cost=5e-3,
        height_range=(0.8, 2.0),
        contact_forces=True,
    )


def make_task(name: str) -> Task:
    """The task (not yet in an Environment) of an rllab task name."""
    _check_name(name)
    for variant in _VARIANTS:
        if name.endswith(variant):
            task = _basic_task(name[: -len(variant)])
            if variant == "_limited_sensors":
                robustness.limited_sensors(task)
            elif variant == "_noisy_delayed":
                robustness.noisy_delayed(task, NOISE_STD, ACTION_DELAY_STEPS)
            else:
                robustness.system_identification(task, _system_id_scales(task))
            return task
    if name in LOCOMOTION:
        return _locomotion_task(name)
    if name.endswith("_food"):
        return Gather(_locomotion_task(name.removesuffix("_food")))
    if name.endswith("_maze"):
        walker = name.removesuffix("_maze")
        return Maze(_locomotion_task(walker), *_MAZE_GEOMETRY[walker])
    return _basic_task(name)


def _check_name(name):
    if name not in HORIZON:
        raise ValueError(f"unknown rllab task {name!r}; valid tasks: {list(ALL)}")


def load(
    name: str, seed=None, horizon: int | None = None, **environment_kwargs
) -> composer.Environment:
    """The Environment of an rllab task.

    Args:
      name: one of `ALL`.
      seed: an int or `np.random.RandomState` for the episode randomness (None: fresh).
      horizon: episode length in control steps (default `HORIZON[name]`); the last
        step is a truncation (discount 1).
      environment_kwargs: passed to `composer.Environment`.

    Raises:
      ValueError: for an unknown name (listing the valid ones) or a bad horizon.
    """
    _check_name(name)
    horizon = HORIZON[name] if horizon is None else horizon
    if isinstance(horizon, bool) or not isinstance(horizon, (int, np.integer)) or horizon < 1:
        raise ValueError(f"horizon must be an integer >= 1 (control steps), got {horizon!r}")
    task = make_task(name)
    # The Environment counts ceil(time_limit / control_timestep) steps; half a step
    # short of the horizon keeps the count exact despite rounding.
    time_limit = (int(horizon) - 0.5) * task.control_timestep
    kwargs = {"strip_singleton_obs_buffer_dim": True}
    kwargs.update(environment_kwargs)
    return composer.Environment(task, time_limit=time_limit, random_state=seed, **kwargs)


def load_batch(
    name: str,
    num_envs: int,
    seed: int = 0,
    num_threads: int = 0,
    horizon: int | None = None,
    clone_copies: bool = True,
):
    """`num_envs` copies of an rllab task stepped together; copy i is
    `load(name, seed=copy_seed(seed, i))` bit for bit. `clone_copies` is
    `BatchEnvironment`'s (False calls the factory for every copy)."""
    from composer_tasks.batch import BatchEnvironment

    _check_name(name)

    def make(copy_random_state):
        return load(name, seed=copy_random_state, horizon=horizon, textures=False)

    return BatchEnvironment.from_environments(
        make, num_envs, num_threads=num_threads, seed=seed, clone_copies=clone_copies
    )
