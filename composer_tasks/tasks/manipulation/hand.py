"""The D4PG paper's three dexterous manipulation tasks with the MPL hand.

Barth-Maron et al. 2018 (shared/papers/d4pg_barth_maron2018.txt), Appendix E,
Table 2 and Figure 10: catch, pick-up-and-orient and rotate-in-hand. From the
paper: the hand (22 joints, 13 position actuators) at a fixed place above a table;
actions are increments to the actuators' position targets; observations are the
hand's joint positions and velocities, the actuator targets, the object's
position, quaternion and velocities, and the target's position and quaternion
(pick-up-and-orient) or the sine and cosine of its angle (rotate-in-hand): 70, 77
and 72 numbers; rewards are the soft indicator psi of equation 15 with the
constants of equations 14, 16 and 17; catch ends with no reward when the object
touches the table, within 500 steps; pick-up-and-orient lasts 500 steps;
rotate-in-hand up to 1000 steps, its target angle driven by an Ornstein-Uhlenbeck
process (sigma 0.025, theta 0.01), ending early on table contact.

This project's choices, where the paper is silent: a 0.02 s control step over 0.002 s
physics steps; target increments of at most 1/20 of each actuator's range per
step; the wrist 0.2 m above the table; the objects' sizes and masses; the spawn
regions below; the hand palm-up at the start of catch and rotate-in-hand and
palm-down at the start of pick-up-and-orient.
"""

from __future__ import annotations

from typing import Any

import mujoco
import numpy as np
from dm_env import specs

from composer_tasks import composer, mjcf
from composer_tasks.arenas.table import Table
from composer_tasks.composer.observation import observable
from composer_tasks.robots.mpl_hand import MPLHand

CONTROL_TIMESTEP_S = 0.02
PHYSICS_TIMESTEP_S = 0.002
# The largest target increment per control step, as a fraction of each actuator's range.
MAX_INCREMENT_FRACTION = 0.05
# The wrist's fixed place above the table (m); its mount holds the palm vertical at
# pronation 0.
WRIST_POSITION_M = (-0.12, 0.0, 0.2)
_MOUNT_QUAT = (np.sqrt(0.5), np.sqrt(0.5), 0.0, 0.0)  # 90 degrees about x.
PRONATION_PALM_UP = np.pi / 2
PRONATION_PALM_DOWN = -np.pi / 2

# Equation 15: psi(eps; c, m) = 1 - tanh(w eps / m)^2 if eps > c, else 1, with
# w = atanh(sqrt(0.95)).
_PSI_W = np.arctanh(np.sqrt(0.95))
# Equation 14 (catch): c = 0 cm, m = 5 cm.
CATCH_TOLERANCE_M, CATCH_MARGIN_M = 0.0, 0.05
# Equation 16 (pick-up-and-orient): c_pos = 1 cm, m_pos = 5 cm, c_ori = 5 deg, m_ori = 10 deg.
PICK_POS_TOLERANCE_M, PICK_POS_MARGIN_M = 0.01, 0.05
PICK_ORI_TOLERANCE, PICK_ORI_MARGIN = np.deg2rad(5.0), np.deg2rad(10.0)
# Equation 17 (rotate-in-hand): c_rot = 5 deg, m_rot = 40 deg, c_ori = 45 deg, m_ori = 45 deg.
ROTATE_TOLERANCE, ROTATE_MARGIN = np.deg2rad(5.0), np.deg2rad(40.0)
ROTATE_ORI_TOLERANCE, ROTATE_ORI_MARGIN = np.deg2rad(45.0), np.deg2rad(45.0)
# The rotate-in-hand target's Ornstein-Uhlenbeck increments (Appendix E).
OU_SIGMA, OU_THETA = 0.025, 0.01
# Catch's spawn region: a box centred this far from the palm's centre (world frame at
# the palm-up start, m), towards the thumb, whose side the cupped hand closes over.
CATCH_SPAWN_CENTRE_M = (0.0, -0.01, 0.175)
CATCH_SPAWN_HALF_EXTENTS_M = (0.02, 0.02, 0.075)
# Episode lengths in control steps (Appendix E).
CATCH_STEPS = 500
PICK_UP_STEPS = 500
ROTATE_STEPS = 1000


def soft_indicator(error: Any, tolerance: float, margin: float) -> Any:
    """psi of equation 15: 1 where `error <= tolerance`, else 1 - tanh(w error / margin)^2
    (0.05 at `error == margin`). Works on scalars and arrays."""
    error = np.asarray(error, dtype=np.float64)
    value = np.where(error > tolerance, 1.0 - np.tanh(_PSI_W * error / margin) ** 2, 1.0)
    return float(value) if value.ndim == 0 else value


def _angle_between(a: np.ndarray, b: np.ndarray) -> float:
    """The angle (rad) between two vectors."""
    cosine = np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b))
    return float(np.arccos(np.clip(cosine, -1.0, 1.0)))


def _quat_about_z(angle: float) -> np.ndarray:
    return np.array([np.cos(angle / 2), 0.0, 0.0, np.sin(angle / 2)])


class ObjectObservables(composer.Observables):
    """The object's world position (m), quaternion (w-x-y-z) and velocity: linear
    (m/s) then angular (rad/s), both in the world frame."""

    _entity: Cylinder

    @composer.observable
    def orientation(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity.sensors[1])

    @composer.observable
    def position(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", self._entity.sensors[0])

    @composer.observable
    def velocity(self) -> observable.MJCFFeature:
        return observable.MJCFFeature("sensordata", list(self._entity.sensors[2:]))


class Cylinder(composer.Entity):
    """The manipulated object: a solid cylinder whose axis is its z axis.

    Args:
      radius: metres.
      half_height: metres.
      mass: kg.
      name: the entity's name.
    """

    def _build(self, radius: float, half_height: float, mass: float, name: str = "object") -> None:
        model = mjcf.RootElement(model=name)
        body = model.worldbody.add("body", name="body")
        self._geom = body.add(
            "geom",
            name="geom",
            type="cylinder",
            size=[radius, half_height],
            mass=mass,
            rgba=[0.2, 0.5, 0.9, 1.0],
            condim=4,
            friction=[1.0, 0.02, 0.001],
        )
        site = body.add("site", name="centre", size=[0.005], rgba=[0, 0, 0, 0])
        self._sensors = [
            model.sensor.add("framepos", name="position", objtype="site", objname=site),
            model.sensor.add("framequat", name="orientation", objtype="site", objname=site),
            model.sensor.add("framelinvel", name="linear_velocity", objtype="site", objname=site),
            model.sensor.add("frameangvel", name="angular_velocity", objtype="site", objname=site),
        ]
        self._body, self._site = body, site
        self._model = model
        self.radius, self.half_height = radius, half_height

    def _build_observables(self) -> ObjectObservables:
        return ObjectObservables(self)

    @property
    def mjcf_model(self) -> mjcf.RootElement:
        return self._model

    @property
    def geom(self) -> Any:
        return self._geom

    @property
    def body(self) -> Any:
        return self._body

    @property
    def sensors(self) -> tuple:
        """framepos, framequat, framelinvel, frameangvel of the object's centre."""
        return tuple(self._sensors)


class Target(composer.Entity):
    """A translucent copy of the object that shows the goal pose; it never collides."""

    def _build(self, radius: float, half_height: float, name: str = "target") -> None:
        model = mjcf.RootElement(model=name)
        self._body = model.worldbody.add("body", name="body")
        self._body.add(
            "geom",
            name="geom",
            type="cylinder",
            size=[radius, half_height],
            rgba=[0.2, 0.9, 0.3, 0.3],
            contype=0,
            conaffinity=0,
            mass=0.0,
        )
        self._model = model

    @property
    def mjcf_model(self) -> mjcf.RootElement:
        return self._model

    @property
    def body(self) -> Any:
        return self._body


class _HandTask(composer.Task):
    """The shared set-up: a table, the hand at a fixed wrist, one cylindrical object."""

    def __init__(self, radius: float, half_height: float, mass: float, num_steps: int) -> None:
        self._arena = Table()
        self._hand = MPLHand()
        self._arena.attach_offset(self._hand, WRIST_POSITION_M)
        attachment = self._hand.attachment_body
        assert attachment is not None  # Set by `attach`.
        attachment.quat = list(_MOUNT_QUAT)
        self._object = Cylinder(radius=radius, half_height=half_height, mass=mass)
        self._arena.add_free_entity(self._object)
        for item in (
            self._hand.observables.joint_positions,
            self._hand.observables.joint_velocities,
            self._hand.observables.actuator_targets,
            self._object.observables.position,
            self._object.observables.orientation,
            self._object.observables.velocity,
        ):
            item.enabled = True
        self._task_observables: dict[str, observable.Observable] = {}
        self.set_timesteps(control_timestep=CONTROL_TIMESTEP_S, physics_timestep=PHYSICS_TIMESTEP_S)
        self.num_steps = num_steps

    @property
    def root_entity(self) -> Table:
        return self._arena

    @property
    def hand(self) -> MPLHand:
        return self._hand

    @property
    def object(self) -> Cylinder:
        return self._object

    @property
    def task_observables(self) -> dict[str, observable.Observable]:
        return self._task_observables

    @property
    def time_limit_s(self) -> float:
        """Seconds of simulated time in a full episode (`num_steps` control steps)."""
        return self.num_steps * CONTROL_TIMESTEP_S

    def action_spec(self, physics: Any) -> specs.BoundedArray:
        """13 increments (rad) to the actuators' position targets, each at most
        `MAX_INCREMENT_FRACTION` of its actuator's range per step."""
        ranges = physics.bind(list(self._hand.actuators)).ctrlrange
        bound = MAX_INCREMENT_FRACTION * (ranges[:, 1] - ranges[:, 0])
        names = "\t".join(actuator.name for actuator in self._hand.actuators)
        return specs.BoundedArray(
            shape=bound.shape, dtype=np.float64, minimum=-bound, maximum=bound, name=names
        )

    def before_step(self, physics: Any, action: Any, random_state: np.random.RandomState) -> None:
        """Adds the increments to the targets; a target stays within its actuator's range."""
        actuators = physics.bind(list(self._hand.actuators))
        ranges = actuators.ctrlrange
        actuators.ctrl = np.clip(actuators.ctrl + np.asarray(action), ranges[:, 0], ranges[:, 1])

    def _set_hand(self, physics: Any, pronation: float, flexion: float, curl: float) -> None:
        """Puts the hand at rest in a pose: wrist angles (rad) and every finger's
        knuckle flexed by `curl` (rad), with the targets equal to the pose."""
        hand = self._hand
        targets = {actuator.name: 0.0 for actuator in hand.actuators}
        targets.update(
            wrist_pronation=pronation,
            wrist_flexion=flexion,
            index_knuckle=curl,
            middle_knuckle=curl,
            ring_knuckle=curl,
            little_knuckle=curl,
            thumb_abduction=0.6,
            thumb_knuckle=0.5 * curl,
        )
        ctrl = np.array([targets[actuator.name] for actuator in hand.actuators])
        physics.bind(list(hand.actuators)).ctrl = ctrl
        qpos = {joint.name: 0.0 for joint in hand.joints}
        qpos.update(targets)
        for finger in ("index", "middle", "ring", "little"):
            qpos[f"{finger}_middle"] = curl
            qpos[f"{finger}_end"] = 0.8 * curl
        joints = physics.bind(list(hand.joints))
        joints.qpos = np.array([qpos[joint.name] for joint in hand.joints])
        joints.qvel = np.zeros(len(hand.joints))

    def _object_touches_table(self, physics: Any) -> bool:
        table = physics.model.geom(self._arena.ground_geom.name).id
        geom = physics.bind(self._object.geom).element_id
        contacts = physics.data.contact
        pairs = zip(contacts.geom1[: physics.data.ncon], contacts.geom2[: physics.data.ncon])
        return any({int(a), int(b)} == {table, geom} for a, b in pairs)

    def _palm_frame(self, physics: Any) -> tuple[np.ndarray, np.ndarray]:
        """The palm centre's world position (m) and rotation matrix (3, 3)."""
        site = physics.bind(self._hand.palm_site)
        return np.array(site.xpos), np.array(site.xmat).reshape(3, 3)


class Catch(_HandTask):
    """Catch a cylinder dropped above the palm before it strikes the table (equation 14)."""

    def __init__(self) -> None:
        super().__init__(radius=0.02, half_height=0.05, mass=0.1, num_steps=CATCH_STEPS)
        self._touched_table = False

    def initialize_episode(self, physics: Any, random_state: np.random.RandomState) -> None:
        self._set_hand(physics, pronation=PRONATION_PALM_UP, flexion=0.0, curl=0.25)
        physics.forward()
        palm, _ = self._palm_frame(physics)
        position = (
            palm
            + np.array(CATCH_SPAWN_CENTRE_M)
            + random_state.uniform(
                -np.array(CATCH_SPAWN_HALF_EXTENTS_M), CATCH_SPAWN_HALF_EXTENTS_M
            )
        )
        quaternion = random_state.normal(size=4)
        self._object.set_pose(
            physics, position=position, quaternion=quaternion / np.linalg.norm(quaternion)
        )
        self._object.set_velocity(physics, velocity=np.zeros(3), angular_velocity=np.zeros(3))
        self._touched_table = False

    def after_step(self, physics: Any, random_state: np.random.RandomState) -> None:
        self._touched_table = self._touched_table or self._object_touches_table(physics)

    def snapshot_state(self) -> dict:
        """Python state for `Environment.snapshot`: whether the object touched the table."""
        return {"touched_table": self._touched_table}

    def restore_state(self, state: dict) -> None:
        self._touched_table = bool(state["touched_table"])

    def get_reward(self, physics: Any) -> float:
        if self._touched_table:
            return 0.0
        palm_height = self._palm_frame(physics)[0][2]
        object_height = physics.bind(self._object.body).xpos[2]
        return soft_indicator(palm_height - object_height, CATCH_TOLERANCE_M, CATCH_MARGIN_M)

    def should_terminate_episode(self, physics: Any) -> bool:
        return self._touched_table

    def get_discount(self, physics: Any) -> float:
        return 0.0 if self._touched_table else 1.0


class PickUpAndOrient(_HandTask):
    """Pick a cylinder up from the table and hold it at a target pose (equation 16)."""

    def __init__(self) -> None:
        super().__init__(radius=0.02, half_height=0.04, mass=0.08, num_steps=PICK_UP_STEPS)
        self._target = Target(radius=0.02, half_height=0.04)
        self._arena.attach(self._target)
        self._task_observables["target_position"] = observable.MJCFFeature(
            "xpos", self._target.body
        )
        self._task_observables["target_orientation"] = observable.MJCFFeature(
            "xquat", self._target.body
        )
        for item in self._task_observables.values():
            item.enabled = True

    def initialize_episode(self, physics: Any, random_state: np.random.RandomState) -> None:
        self._set_hand(physics, pronation=PRONATION_PALM_DOWN, flexion=0.3, curl=0.1)
        wrist_x = WRIST_POSITION_M[0]
        position = [
            wrist_x + random_state.uniform(0.1, 0.18),
            random_state.uniform(-0.05, 0.05),
            self._object.half_height,
        ]
        yaw = random_state.uniform(-np.pi, np.pi)
        self._object.set_pose(physics, position=np.array(position), quaternion=_quat_about_z(yaw))
        self._object.set_velocity(physics, velocity=np.zeros(3), angular_velocity=np.zeros(3))
        target_position = [
            wrist_x + random_state.uniform(0.1, 0.18),
            random_state.uniform(-0.05, 0.05),
            random_state.uniform(0.06, 0.14),
        ]
        # The target's axis tilts up to 45 degrees from vertical, towards any azimuth.
        tilt, azimuth = random_state.uniform(0.0, np.pi / 4), random_state.uniform(-np.pi, np.pi)
        tilt_axis = np.array([-np.sin(azimuth), np.cos(azimuth), 0.0])
        tilt_quat = np.concatenate([[np.cos(tilt / 2)], np.sin(tilt / 2) * tilt_axis])
        target = physics.bind(self._target.body)
        target.pos = target_position
        quaternion = np.empty(4)
        mujoco.mju_mulQuat(
            quaternion, tilt_quat, _quat_about_z(random_state.uniform(-np.pi, np.pi))
        )
        target.quat = quaternion

    def get_reward(self, physics: Any) -> float:
        obj, target = physics.bind(self._object.body), physics.bind(self._target.body)
        distance = float(np.linalg.norm(np.array(obj.xpos) - np.array(target.xpos)))
        angle = _angle_between(np.array(obj.xmat)[2::3], np.array(target.xmat)[2::3])
        near = soft_indicator(distance, PICK_POS_TOLERANCE_M, PICK_POS_MARGIN_M)
        return 0.5 * near * (1.0 + soft_indicator(angle, PICK_ORI_TOLERANCE, PICK_ORI_MARGIN))


class RotateInHand(_HandTask):
    """Turn a broad cylinder lying in the palm about its axis to follow a moving
    target angle (equation 17)."""

    def __init__(self) -> None:
        super().__init__(radius=0.04, half_height=0.015, mass=0.1, num_steps=ROTATE_STEPS)
        self._target_angle = 0.0
        self._noise = 0.0
        self._touched_table = False
        self._task_observables["target_angle"] = observable.Generic(
            lambda physics: np.array([np.sin(self._target_angle), np.cos(self._target_angle)])
        )
        self._task_observables["target_angle"].enabled = True

    @property
    def target_angle(self) -> float:
        """The target's rotation about the world z axis (rad)."""
        return self._target_angle

    def initialize_episode(self, physics: Any, random_state: np.random.RandomState) -> None:
        self._set_hand(physics, pronation=PRONATION_PALM_UP, flexion=0.0, curl=0.2)
        physics.forward()
        palm, _ = self._palm_frame(physics)
        position = palm + np.array([0.0, 0.0, self._object.half_height + 0.005])
        yaw = random_state.uniform(-np.pi, np.pi)
        self._object.set_pose(physics, position=position, quaternion=_quat_about_z(yaw))
        self._object.set_velocity(physics, velocity=np.zeros(3), angular_velocity=np.zeros(3))
        self._target_angle = random_state.uniform(-np.pi, np.pi)
        self._noise = 0.0
        self._touched_table = False

    def after_step(self, physics: Any, random_state: np.random.RandomState) -> None:
        self._noise += -OU_THETA * self._noise + OU_SIGMA * random_state.normal()
        self._target_angle += self._noise
        self._touched_table = self._touched_table or self._object_touches_table(physics)

    def snapshot_state(self) -> dict:
        """Python state for `Environment.snapshot`: the target's angle and drift, and
        whether the object touched the table."""
        return {
            "target_angle": self._target_angle,
            "noise": self._noise,
            "touched_table": self._touched_table,
        }

    def restore_state(self, state: dict) -> None:
        self._target_angle = float(state["target_angle"])
        self._noise = float(state["noise"])
        self._touched_table = bool(state["touched_table"])

    def get_reward(self, physics: Any) -> float:
        xmat = np.array(physics.bind(self._object.body).xmat).reshape(3, 3)
        y_axis_xy = np.array([xmat[0, 1], xmat[1, 1], 0.0])
        target_y = np.array([-np.sin(self._target_angle), np.cos(self._target_angle), 0.0])
        turn = _angle_between(y_axis_xy, target_y) if np.linalg.norm(y_axis_xy) > 1e-9 else np.pi
        tilt = _angle_between(xmat[:, 2], np.array([0.0, 0.0, 1.0]))
        return soft_indicator(turn, ROTATE_TOLERANCE, ROTATE_MARGIN) * soft_indicator(
            tilt, ROTATE_ORI_TOLERANCE, ROTATE_ORI_MARGIN
        )

    def should_terminate_episode(self, physics: Any) -> bool:
        return self._touched_table

    def get_discount(self, physics: Any) -> float:
        return 0.0 if self._touched_table else 1.0
