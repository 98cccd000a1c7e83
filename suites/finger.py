"""Finger: a planar two-link finger spins a hinged body, or turns its tip to a target.

Tasks, rewards and initial states follow dm_control 1.0.50 `suite/finger.py`.
Every observation is read from the model's sensors.
"""

import mujoco
import numpy as np

import mjcf_models.finger
from composer_tasks import array_namespace
from composer_tasks import physics as physics_lib
from suites import base, common

_DEFAULT_TIME_LIMIT = 20  # seconds
_CONTROL_TIMESTEP = 0.02  # seconds: two physics steps
# Radii (metres) of the target the spinner's tip must enter in the turn tasks.
_EASY_TARGET_RADIUS = 0.07
_HARD_TARGET_RADIUS = 0.03
# The spin task rewards turning faster than this (rad/s) in the hinge's negative sense.
_SPIN_VELOCITY = 15.0
# The spin task lowers the spinner's viscous damping (N m s/rad) from the model's.
_SPIN_HINGE_DAMPING = 0.03
_MAX_INITIAL_STATE_ATTEMPTS = 1000

SUITE = base.Registry()


@SUITE.add("benchmarking")
def spin(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Spin the body fast."""
    return base.make_environment(Spin(), time_limit, random, environment_kwargs)


@SUITE.add("benchmarking")
def turn_easy(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Turn the body's tip into a target of radius 7 cm."""
    task = Turn(target_radius=_EASY_TARGET_RADIUS)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add("benchmarking")
def turn_hard(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
    """Turn the body's tip into a target of radius 3 cm."""
    task = Turn(target_radius=_HARD_TARGET_RADIUS)
    return base.make_environment(task, time_limit, random, environment_kwargs)


def get_model_and_assets():
    """dm_control's `finger.get_model_and_assets`: the MJCF text (bytes) of the
    domain's model and the suite's shared assets, for
    `Physics.from_xml_string(*get_model_and_assets())` and dm_control's
    `control.Environment(physics, task)` (the text compiles to the model this domain's
    tasks build, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_lib.spec_xml(mjcf_models.finger.make_spec()), common.ASSETS


class Physics(physics_lib.Physics):
    """Finger physics with named quantities, all from sensors.

    Positions are in the world's x-z plane relative to the spinner's hinge, in
    metres; angles in radians, velocities in rad/s. Quantities also work on the
    (N, ...) arrays of a batch (`composer_tasks.batch`).
    """

    def _model_changed(self):
        model = self.model

        def address(name):
            return int(model.sensor(name).adr[0])

        self._joint_angles = np.array([address("proximal"), address("distal")])
        self._velocities = np.array(
            [address(name) for name in ("proximal_velocity", "distal_velocity", "hinge_velocity")]
        )
        self._hinge_velocity = address("hinge_velocity")
        self._touch = np.array([address("touchtop"), address("touchbottom")])
        # (x, z) of the frame-position sensors, as slices of sensordata.
        self._tip_xz = slice(address("tip"), address("tip") + 3, 2)
        self._target_xz = slice(address("target"), address("target") + 3, 2)
        self._spinner_xz = slice(address("spinner"), address("spinner") + 3, 2)
        # (proximal, distal, tip x, tip z): one fancy index for `bounded_position`.
        self._angles_and_tip = np.concatenate(
            (self._joint_angles, np.arange(address("tip"), address("tip") + 3, 2))
        )
        self._target_site = model.site("target").id

    def touch(self):
        """log(1 + normal force in N) on the fingertip's top and bottom touch sites."""
        touch = self.data.sensordata[..., self._touch]
        return array_namespace.namespace(touch).log1p(touch)

    def hinge_velocity(self):
        """Angular velocity of the spinner in rad/s about the world's -y axis."""
        return self.data.sensordata[..., self._hinge_velocity][()]

    def tip_position(self):
        """(x, z) of the spinner's tip relative to its hinge."""
        sensordata = self.data.sensordata
        return sensordata[..., self._tip_xz] - sensordata[..., self._spinner_xz]

    def bounded_position(self):
        """(proximal, distal) angles, then the tip position in place of the
        unbounded spinner angle."""
        sensordata = self.data.sensordata
        position = sensordata[..., self._angles_and_tip]
        spinner = sensordata[..., self._spinner_xz]
        if array_namespace.namespace(position) is np:
            position[..., 2:] -= spinner  # The gather made a new array.
            return position
        return array_namespace.concatenate_last_axis(position[..., :2], position[..., 2:] - spinner)

    def sensed_velocity(self):
        """(proximal, distal, hinge) angular velocities (rad/s) as their joint
        velocity sensors read them, i.e. at the last `forward`, before the step's
        integration (so `qvel` may be a step ahead)."""
        return self.data.sensordata[..., self._velocities]

    def target_position(self):
        """(x, z) of the target's centre relative to the spinner's hinge."""
        sensordata = self.data.sensordata
        return sensordata[..., self._target_xz] - sensordata[..., self._spinner_xz]

    def to_target(self):
        """(x, z) vector from the spinner's tip to the target's centre."""
        return self.target_position() - self.tip_position()

    def dist_to_target(self):
        """Distance from the tip to the target's surface in metres; negative inside."""
        sensordata = self.data.sensordata
        offset = sensordata[..., self._target_xz] - sensordata[..., self._tip_xz]
        return (
            array_namespace.namespace(offset).hypot(offset[..., 0], offset[..., 1])
            - self.model.site_size[..., self._target_site, 0]
        )


class _FingerTask(base.SuiteTask):
    """Shared model, control timestep and initial joint angles."""

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(self, random=None):
        super().__init__(
            mjcf_models.finger.make_spec(),
            "finger",
            control_timestep=_CONTROL_TIMESTEP,
            random=random,
        )

    def _set_random_joint_angles(self, physics, random_state):
        """Draws the finger within its limits and the spinner uniformly, until nothing
        touches (as published: in joint order, at most 1000 draws)."""
        model, data = physics.model, physics.data
        for _ in range(_MAX_INITIAL_STATE_ATTEMPTS):
            data.joint("proximal").qpos[0] = random_state.uniform(*model.joint("proximal").range)
            data.joint("distal").qpos[0] = random_state.uniform(*model.joint("distal").range)
            data.joint("hinge").qpos[0] = random_state.uniform(-np.pi, np.pi)
            physics.forward()
            if data.ncon == 0:
                return
        raise RuntimeError(f"no contact-free finger state in {_MAX_INITIAL_STATE_ATTEMPTS} draws")


class Spin(_FingerTask):
    """Spin the body: reward 1 while it turns faster than 15 rad/s in the negative
    sense about the hinge axis, else 0."""

    # Its reward works on a batch's (N, ...) arrays too (base.SuiteTask asks each
    # subclass that overrides the outcome to say so).
    vectorized_callbacks = True

    def __init__(self, random=None):
        super().__init__(random=random)
        self.set_observations(
            position=lambda physics: physics.bounded_position(),
            velocity=lambda physics: physics.sensed_velocity(),
            touch=lambda physics: physics.touch(),
        )

    def initialize_episode(self, physics, random_state):
        model = physics.model
        # The target and the tip marker mean nothing here: hide them.
        model.site("target").rgba[3] = 0
        model.site("tip").rgba[3] = 0
        model.dof_damping[model.joint("hinge").dofadr[0]] = _SPIN_HINGE_DAMPING
        self._set_random_joint_angles(physics, random_state)

    def get_reward(self, physics):
        return base.as_float(physics.hinge_velocity() <= -_SPIN_VELOCITY)


class Turn(_FingerTask):
    """Turn the body until its tip is inside a target on the tip's circle: reward 1
    while the tip's centre is inside the target sphere, else 0.

    Args:
      target_radius: radius of the target in metres.
    """

    # Its reward works on a batch's (N, ...) arrays too (base.SuiteTask asks each
    # subclass that overrides the outcome to say so).
    vectorized_callbacks = True

    def __init__(self, target_radius, random=None):
        if not target_radius > 0:
            raise ValueError(
                f"target_radius must be a positive number of metres, got {target_radius!r}"
            )
        super().__init__(random=random)
        self._target_radius = target_radius
        self.set_observations(
            position=lambda physics: physics.bounded_position(),
            velocity=lambda physics: physics.sensed_velocity(),
            touch=lambda physics: physics.touch(),
            target_position=lambda physics: physics.target_position(),
            dist_to_target=lambda physics: physics.dist_to_target(),
        )

    def initialize_episode(self, physics, random_state):
        model, data = physics.model, physics.data
        target_angle = random_state.uniform(-np.pi, np.pi)
        # The hinge anchor's world position, from the reset configuration.
        mujoco.mj_kinematics(model, data)
        hinge_x, _, hinge_z = data.joint("hinge").xanchor
        # The tip's circle: the spinner's capsule radius plus half-length.
        radius = model.geom("cap1").size[:2].sum()
        target = model.site("target")
        target.pos[0] = hinge_x + radius * np.sin(target_angle)
        target.pos[2] = hinge_z + radius * np.cos(target_angle)
        target.size[0] = self._target_radius
        self._set_random_joint_angles(physics, random_state)

    def get_reward(self, physics):
        return base.as_float(physics.dist_to_target() <= 0)
