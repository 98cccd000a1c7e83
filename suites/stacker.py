"""Planar stacker: put a box where the target ghost box is, on the floor or on top
of others, and take the hand away.

Tasks, reward, initial-state distribution, timesteps and observations are those
of dm_control 1.0.50 `suite/stacker.py` (both tasks are extras, tagged 'hard').
"""

import numpy as np

from composer_tasks import array_namespace, rewards
from composer_tasks import physics as physics_lib
from mjcf_models import stacker as stacker_model
from suites import base, common, manipulator

_CONTROL_TIMESTEP = 0.01  # seconds: ten physics steps of 1 ms
_TIME_LIMIT = 10  # seconds: 1000 control steps
# The hand counts as away from the target beyond 0.1 m, with a 1 cm gaussian margin.
_HAND_AWAY_M = 0.1
_CLOSE_M = 0.01
# Initial distribution: the target's x (m) and each box's x, z (m) and angle (rad).
_TARGET_X_RANGE = (-0.37, 0.37)
_BOX_X_RANGE = (0.1, 0.3)
_BOX_Z_RANGE = (0.0, 0.7)

SUITE = base.Registry()


@SUITE.add("hard")
def stack_2(fully_observable=True, time_limit=_TIME_LIMIT, random=None, environment_kwargs=None):
    """Stack with two boxes."""
    task = Stack(n_boxes=2, fully_observable=fully_observable)
    return base.make_environment(task, time_limit, random, environment_kwargs)


@SUITE.add("hard")
def stack_4(fully_observable=True, time_limit=_TIME_LIMIT, random=None, environment_kwargs=None):
    """Stack with four boxes."""
    task = Stack(n_boxes=4, fully_observable=fully_observable)
    return base.make_environment(task, time_limit, random, environment_kwargs)


def make_model(n_boxes):
    """dm_control's `stacker.make_model`: the MJCF text (bytes) of the arm with
    `n_boxes` boxes and the suite's shared assets, for
    `Physics.from_xml_string(*make_model(n_boxes))` (the text compiles to the model
    `Stack` builds, bit for bit: `composer_tasks.physics.spec_xml`)."""
    return physics_lib.spec_xml(stacker_model.make_spec(n_boxes)), common.ASSETS


class Physics(manipulator.Physics):
    """The manipulator's quantities (the same arm), plus the boxes'.

    World (x, z) positions in metres, orientations the (w, y) quaternion
    components; every quantity also works on a batch's (N, ...) arrays.
    """

    def bodies_2d_pose(self, body_names):
        """(len(body_names), 4): `body_2d_pose` of each body."""
        poses = [self.body_2d_pose(name) for name in body_names]
        return array_namespace.namespace(*poses).stack(poses, axis=-2)

    def body_2d_position(self, body_name):
        """World (x, z) of a body's frame."""
        return self.data.xpos[..., self._body[body_name], ::2].copy()


class Stack(base.SuiteTask):
    """Bring any box to the target ghost box and move the hand away from it.

    Reward: `tolerance` of the smallest box-to-target distance (gaussian, margin
    twice the box size) times `tolerance` of the hand's (grasp site's) distance
    from the target with bounds (0.1 m, inf) and a 1 cm margin.

    Args:
      n_boxes: boxes in the scene (2 or 4 in the published tasks; 1 to 4 here).
      fully_observable: observe the hand, the boxes and the target besides the
        arm's proprioception and touch (else, for learning from pixels, only the
        latter).
    """

    physics_class = Physics
    vectorized_callbacks = True

    def __init__(self, n_boxes, fully_observable, random=None):
        if not isinstance(fully_observable, bool):
            raise TypeError(f"fully_observable must be a bool, got {fully_observable!r}")
        super().__init__(
            stacker_model.make_spec(n_boxes),
            "stacker",
            control_timestep=_CONTROL_TIMESTEP,
            random=random,
        )
        self._num_boxes = n_boxes
        self._box_names = tuple(f"box{i}" for i in range(n_boxes))
        box_joints = tuple(f"{name}_{axis}" for name in self._box_names for axis in "xyz")
        arm = manipulator.ARM_JOINTS
        observations = {
            "arm_pos": lambda physics: physics.bounded_joint_pos(arm),
            "arm_vel": lambda physics: physics.joint_vel(arm),
            "touch": lambda physics: physics.touch(),
        }
        if fully_observable:
            observations.update(
                {
                    "hand_pos": lambda physics: physics.body_2d_pose("hand"),
                    "box_pos": lambda physics: physics.bodies_2d_pose(self._box_names),
                    "box_vel": lambda physics: physics.joint_vel(box_joints),
                    "target_pos": lambda physics: physics.body_2d_position("target"),
                }
            )
        self.set_observations(**observations)

    def after_compile(self, physics, random_state):
        super().after_compile(physics, random_state)
        model = physics.model
        arm = [model.joint(name) for name in manipulator.ARM_JOINTS]
        self._arm_qpos = np.array([int(joint.qposadr[0]) for joint in arm])
        limited = np.array([bool(joint.limited[0]) for joint in arm])
        ranges = np.array([joint.range for joint in arm])
        self._arm_low = np.where(limited, ranges[:, 0], -np.pi)
        self._arm_high = np.where(limited, ranges[:, 1], np.pi)
        self._finger_qpos = int(model.joint("finger").qposadr[0])
        self._thumb_qpos = int(model.joint("thumb").qposadr[0])
        self._box_qpos = [
            (
                int(model.joint(f"{name}_x").qposadr[0]),
                int(model.joint(f"{name}_z").qposadr[0]),
                int(model.joint(f"{name}_y").qposadr[0]),
            )
            for name in self._box_names
        ]
        self._target_body = model.body("target").id
        self._box_half_size = float(model.geom("target").size[0])
        self._box_sites = np.array([model.site(name).id for name in self._box_names])
        self._target_site = model.site("target").id
        self._grasp_site = model.site("grasp").id

    def initialize_episode(self, physics, random_state):
        """Draws, in the published order, until nothing touches: the arm's joint
        angles (uniform in range, unlimited ones in [-pi, pi]; the finger then copies
        the thumb), the target's stack level (uniform over the box count) and x,
        then each box's x, z and angle."""
        data, model = physics.data, physics.model
        while True:
            data.qpos[self._arm_qpos] = random_state.uniform(self._arm_low, self._arm_high)
            data.qpos[self._finger_qpos] = data.qpos[self._thumb_qpos]
            level = 2 * random_state.randint(self._num_boxes) + 1
            model.body_pos[self._target_body, 2] = self._box_half_size * level
            model.body_pos[self._target_body, 0] = random_state.uniform(*_TARGET_X_RANGE)
            for x, z, angle in self._box_qpos:
                data.qpos[x] = random_state.uniform(*_BOX_X_RANGE)
                data.qpos[z] = random_state.uniform(*_BOX_Z_RANGE)
                data.qpos[angle] = random_state.uniform(0, 2 * np.pi)
            physics.forward()
            if data.ncon == 0:
                break

    def get_reward(self, physics):
        site_xpos = physics.data.site_xpos
        target = site_xpos[..., self._target_site, :]
        box_distances = base.norm_last_axis(
            site_xpos[..., self._box_sites, :] - target[..., None, :]
        )
        box_is_close = rewards.tolerance(
            base.min_last_axis(box_distances), margin=2 * self._box_half_size
        )
        hand_distance = base.norm_last_axis(site_xpos[..., self._grasp_site, :] - target)
        hand_is_far = rewards.tolerance(
            hand_distance, bounds=(_HAND_AWAY_M, float("inf")), margin=_CLOSE_M
        )
        return box_is_close * hand_is_far
