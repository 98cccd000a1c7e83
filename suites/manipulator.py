"""Planar manipulator: grasp a ball or a peg and bring it to a target (or insert it).

Tasks, rewards and initial states follow dm_control 1.0.50 `suite/manipulator.py`;
`bring_ball` is the benchmarking task, the others are extras.
"""

import numpy as np

import mjcf_models.manipulator
from composer_tasks import array_namespace
from composer_tasks import physics as physics_lib
from composer_tasks import rewards
from suites import base, common

_CLOSE = 0.01  # metres: distances below this count as "there"
_CONTROL_TIMESTEP = 0.01  # seconds: ten physics steps
_TIME_LIMIT = 10  # seconds: 1000 control steps
# Probabilities of the initial prop placements: in the hand, in the target, anywhere.
_P_IN_HAND = 0.1
_P_IN_TARGET = 0.1
ARM_JOINTS = (
    "arm_root",
    "arm_shoulder",
    "arm_elbow",
    "arm_wrist",
    "finger",
    "fingertip",
    "thumb",
    "thumbtip",
)
TOUCH_SENSORS = ("palm_touch", "finger_touch", "thumb_touch", "fingertip_touch", "thumbtip_touch")

SUITE = base.Registry()


@SUITE.add("benchmarking", "hard")
def bring_ball(fully_observable=True, time_limit=_TIME_LIMIT, random=None, environment_kwargs=None):
    """Bring the ball to the target."""
    task = Bring(use_peg=False, insert=False, fully_observable=fully_observable)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add("hard")
def bring_peg(fully_observable=True, time_limit=_TIME_LIMIT, random=None, environment_kwargs=None):
    """Bring the peg to the target."""
    task = Bring(use_peg=True, insert=False, fully_observable=fully_observable)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add("hard")
def insert_ball(
    fully_observable=True, time_limit=_TIME_LIMIT, random=None, environment_kwargs=None
):
    """Put the ball into the cup."""
    task = Bring(use_peg=False, insert=True, fully_observable=fully_observable)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add("hard")
def insert_peg(fully_observable=True, time_limit=_TIME_LIMIT, random=None, environment_kwargs=None):
    """Put the peg into the slot."""
    task = Bring(use_peg=True, insert=True, fully_observable=fully_observable)
    return base.make_environment(task, time_limit, random, environment_kwargs)


def make_model(use_peg, insert):
    """dm_control's `manipulator.make_model`: the MJCF text (bytes) of the arm with the
    ball (or, with `use_peg`, the peg) and the cup (or, with `insert`, the slot) and
    the suite's shared assets, for `Physics.from_xml_string(*make_model(use_peg,
    insert))` (the text compiles to the model `Bring` builds, bit for bit:
    `composer_tasks.physics.spec_xml`)."""
    return physics_lib.spec_xml(mjcf_models.manipulator.make_spec(use_peg, insert)), common.ASSETS


class Physics(physics_lib.Physics):
    """Manipulator physics with named quantities.

    Positions are world (x, z) in metres, orientations the (w, y) components of
    the world-frame quaternion (a rotation about y), angles in radians. Quantities
    take element names; the name-to-index maps are built once per compiled model.
    Quantities also work on the (N, ...) arrays of a batch (`composer_tasks.batch`).
    """

    def _model_changed(self):
        model = self.model
        self._body = {model.body(i).name: i for i in range(model.nbody)}
        self._site = {model.site(i).name: i for i in range(model.nsite)}
        self._joint_qpos = {
            model.joint(i).name: int(model.jnt_qposadr[i]) for i in range(model.njnt)
        }
        self._joint_dof = {model.joint(i).name: int(model.jnt_dofadr[i]) for i in range(model.njnt)}
        self._touch = np.array([model.sensor(name).adr[0] for name in TOUCH_SENSORS])
        self._index_arrays = {}

    def _indices(self, table, names):
        """Index array of `names` (a sequence of element names) in `table`, cached."""
        key = (id(table), tuple(names))
        indices = self._index_arrays.get(key)
        if indices is None:
            indices = np.array([table[name] for name in names])
            self._index_arrays[key] = indices
        return indices

    def bounded_joint_pos(self, joint_names):
        """(len(joint_names), 2) array of (sin, cos) of the hinge angles."""
        angles = self.data.qpos[..., self._indices(self._joint_qpos, joint_names)]
        xp = array_namespace.namespace(angles)
        if xp is np:
            # Written in place: cheaper on NumPy than stacking two new arrays.
            bounded = np.empty(angles.shape + (2,))
            np.sin(angles, out=bounded[..., 0])
            np.cos(angles, out=bounded[..., 1])
            return bounded
        return xp.stack((xp.sin(angles), xp.cos(angles)), axis=-1)

    def joint_vel(self, joint_names):
        """Velocities of single-dof joints (rad/s for hinges, m/s for slides)."""
        return self.data.qvel[..., self._indices(self._joint_dof, joint_names)]

    def body_2d_pose(self, body_names, orientation=True):
        """(x, z, qw, qy) of a body's frame in the world, or (x, z) without
        `orientation`; for a sequence of names, one row per body (dm_control's
        signature and shapes)."""
        if isinstance(body_names, str):
            body = self._body[body_names]
        else:
            body = np.array([self._body[name] for name in body_names], dtype=np.intp)
        data = self.data
        # Every second component: x and z of the position, w and y of the quaternion.
        position = data.xpos[..., body, ::2]
        if not orientation:
            return position.copy()
        return array_namespace.concatenate_last_axis(position, data.xquat[..., body, 0:3:2])

    def touch(self):
        """log(1 + normal force in N) on the palm, finger, thumb, fingertip and
        thumbtip touch sites."""
        touch = self.data.sensordata[..., self._touch]
        return array_namespace.namespace(touch).log1p(touch)

    def site_distance(self, site1, site2):
        """Distance in metres between two sites."""
        xpos = self.data.site_xpos
        offset = xpos[..., self._site[site2], :] - xpos[..., self._site[site1], :]
        x, y, z = offset[..., 0], offset[..., 1], offset[..., 2]
        return array_namespace.namespace(offset).sqrt(x * x + y * y + z * z)


class Bring(base.SuiteTask):
    """Bring the prop to its target ghost, or insert it into its receptacle.

    Args:
      use_peg: the prop is the peg (else the ball).
      insert: the target sits in a receptacle (slot or cup) that moves with it.
      fully_observable: observe the hand, the prop and the target besides the arm's
        proprioception and touch (else, for learning from pixels, only the latter).

    The ball reward is `tolerance` of the ball-to-target distance with bounds
    (0, 1 cm) and a 2 cm gaussian margin; the peg reward is the larger of bringing
    (mean closeness of the peg's centre and tip to the target's) and a third of
    grasping (mean closeness of the peg's grasp and pinch points to the hand's).
    """

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(self, use_peg, insert, fully_observable, random=None):
        if not isinstance(fully_observable, bool):
            raise TypeError(f"fully_observable must be a bool, got {fully_observable!r}")
        super().__init__(
            mjcf_models.manipulator.make_spec(use_peg, insert),
            "manipulator",
            control_timestep=_CONTROL_TIMESTEP,
            random=random,
        )
        self._use_peg = use_peg
        self._insert = insert
        self._object = "peg" if use_peg else "ball"
        self._target = "target_peg" if use_peg else "target_ball"
        self._receptacle = "slot" if use_peg else "cup"
        self._object_joints = tuple(f"{self._object}_{axis}" for axis in "xzy")
        observations = dict(
            arm_pos=lambda physics: physics.bounded_joint_pos(ARM_JOINTS),
            arm_vel=lambda physics: physics.joint_vel(ARM_JOINTS),
            touch=lambda physics: physics.touch(),
        )
        if fully_observable:
            observations.update(
                hand_pos=lambda physics: physics.body_2d_pose("hand"),
                object_pos=lambda physics: physics.body_2d_pose(self._object),
                object_vel=lambda physics: physics.joint_vel(self._object_joints),
                target_pos=lambda physics: physics.body_2d_pose(self._target),
            )
        self.set_observations(**observations)

    def initialize_episode(self, physics, random_state):
        """Redraws the arm, the target and the prop until nothing touches.

        The draws and their order are the published ones: arm angles (uniform within
        limits, the root in [-pi, pi]) with the finger mirroring the thumb, the target
        position and angle, then the prop in the hand, in the target or anywhere
        (with a random horizontal velocity, which stays if a redraw follows).
        """
        model, data = physics.model, physics.data
        arm_qpos = np.array([model.joint(name).qposadr[0] for name in ARM_JOINTS])
        limited = np.array([model.joint(name).limited[0] for name in ARM_JOINTS], dtype=bool)
        ranges = np.array([model.joint(name).range for name in ARM_JOINTS])
        lower = np.where(limited, ranges[:, 0], -np.pi)
        upper = np.where(limited, ranges[:, 1], np.pi)
        object_qpos = np.array([model.joint(name).qposadr[0] for name in self._object_joints])
        object_x_dof = model.joint(self._object_joints[0]).dofadr[0]
        target = model.body(self._target)
        receptacle = model.body(self._receptacle) if self._insert else None
        finger, thumb = data.joint("finger"), data.joint("thumb")
        while True:
            data.qpos[arm_qpos] = random_state.uniform(lower, upper)
            finger.qpos[0] = thumb.qpos[0]

            target_x = random_state.uniform(-0.4, 0.4)
            target_z = random_state.uniform(0.1, 0.4)
            if self._insert:
                target_angle = random_state.uniform(-np.pi / 3, np.pi / 3)
                _set_planar_pose(receptacle, target_x, target_z, target_angle)
            else:
                target_angle = random_state.uniform(-np.pi, np.pi)
            _set_planar_pose(target, target_x, target_z, target_angle)

            placement = random_state.choice(
                ["in_hand", "in_target", "uniform"],
                p=[_P_IN_HAND, _P_IN_TARGET, 1 - _P_IN_HAND - _P_IN_TARGET],
            )
            if placement == "in_target":
                object_x, object_z, object_angle = target_x, target_z, target_angle
            elif placement == "in_hand":
                physics.forward()
                grasp = data.site("grasp")
                object_x, object_z = grasp.xpos[0], grasp.xpos[2]
                # The grasp frame's x axis (xx, zx) in the world's x-z plane.
                object_angle = np.pi - np.arctan2(grasp.xmat[base.ZX], grasp.xmat[base.XX])
            else:
                object_x = random_state.uniform(-0.5, 0.5)
                object_z = random_state.uniform(0, 0.7)
                object_angle = random_state.uniform(0, 2 * np.pi)
                data.qvel[object_x_dof] = random_state.uniform(-5, 5)
            data.qpos[object_qpos] = object_x, object_z, object_angle

            physics.forward()
            if data.ncon == 0:
                return

    def get_reward(self, physics):
        if self._use_peg:
            return self._peg_reward(physics)
        return _closeness(physics.site_distance("ball", "target_ball"))

    def _peg_reward(self, physics):
        grasp = _closeness(physics.site_distance("peg_grasp", "grasp"))
        pinch = _closeness(physics.site_distance("peg_pinch", "pinch"))
        grasping = (grasp + pinch) / 2
        bring = _closeness(physics.site_distance("peg", "target_peg"))
        bring_tip = _closeness(physics.site_distance("target_peg_tip", "peg_tip"))
        bringing = (bring + bring_tip) / 2
        if isinstance(bringing, float) and isinstance(grasping, float):
            # One environment: Python's max of two floats, a float as dm_control's.
            return max(bringing, grasping / 3)
        return array_namespace.namespace(bringing, grasping).maximum(bringing, grasping / 3)


def _closeness(distance):
    return rewards.tolerance(distance, (0, _CLOSE), margin=2 * _CLOSE)


def _set_planar_pose(body, x, z, angle):
    """Places a model body at world (x, z), turned by `angle` radians about y."""
    body.pos[0] = x
    body.pos[2] = z
    body.quat[0] = np.cos(angle / 2)
    body.quat[2] = np.sin(angle / 2)
