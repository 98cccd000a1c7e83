"""Quantities locomotion tasks read from a walker, and how they place it.

All vectors are in the world frame (metres, m/s) unless a name says otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import mujoco
import numpy as np
from numpy.typing import ArrayLike

if TYPE_CHECKING:
    from composer_tasks import composer
    from composer_tasks.physics import Physics
    from composer_tasks.walkers.base import Walker


def spec_element(element: Any) -> Any:
    """The `mujoco.Mjs...` element behind `element`: a PyMJCF handle's
    `spec_element` (walkers give handles, as dm_control's do), else `element`."""
    return getattr(element, "spec_element", element)


def spec_elements(elements: Iterable[Any]) -> list[Any]:
    """`spec_element` of each of `elements`, in order."""
    return [spec_element(element) for element in elements]


def attach_walker(arena: composer.Arena, walker: Walker) -> None:
    """Attaches the walker to the arena as dm_control's tasks do,
    `walker.create_root_joints(arena.attach(walker))`: a free joint for most
    walkers, world slides for the ball walkers (BoxHead, JumpingBallWithHead);
    planar walkers (`is_planar`, which carry their own root joints) get none, and an
    entity without `create_root_joints` a free joint."""
    if getattr(walker, "is_planar", False):
        arena.attach(walker)
    elif callable(getattr(walker, "create_root_joints", None)):
        walker.create_root_joints(arena.attach(walker))
    else:
        arena.add_free_entity(walker)


def yaw_quaternion(yaw: float) -> np.ndarray:
    """Unit quaternion (w, x, y, z) of a rotation by `yaw` radians about world z."""
    return np.array([np.cos(yaw / 2.0), 0.0, 0.0, np.sin(yaw / 2.0)])


def place_walker(
    physics: Physics, walker: Walker, position: ArrayLike, yaw: float | None = None
) -> None:
    """Puts the walker's attachment frame at `position` (world, metres) turned by
    `yaw` (radians about world z). z = 0 leaves the walker at its own standing
    height, since walkers model their bodies above their frame's origin.

    A walker whose frame origin is its lying root body (`root_at_frame_origin`,
    the CMU humanoids, as in dm_control) is first stood up by its
    `upright_pose`, then shifted by `position` and turned by `yaw`, as
    dm_control's tasks do (`reinitialize_pose`, then `shift_pose`): its root
    ends at `position + upright_pose.xpos`, turned by `yaw ⊗ upright_pose.xquat`.

    A planar walker (`is_planar`) cannot turn, so a yaw is refused."""
    if yaw is not None and getattr(walker, "is_planar", False):
        raise ValueError("a planar walker moves in the xz-plane and cannot be spawned with a yaw")
    position = np.asarray(position, dtype=np.float64)
    quaternion = None if yaw is None else yaw_quaternion(float(yaw))
    if getattr(walker, "root_at_frame_origin", False):
        position, quaternion = upright_placement(walker, position, quaternion)
    walker.set_pose(physics, position=position, quaternion=quaternion)


def upright_placement(
    walker: Walker, position: ArrayLike, quaternion: ArrayLike | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(position, unit quaternion) of the walker's frame when its `upright_pose`
    is shifted by `position` (world, metres) and turned by `quaternion` (w, x,
    y, z; None for none): dm_control's `set_pose(upright_pose)` then
    `shift_pose(position, quaternion)`, which adds the positions and composes
    the turn before the upright orientation."""
    upright = walker.upright_pose
    upright_position = np.zeros(3) if upright.xpos is None else np.asarray(upright.xpos, float)
    upright_quaternion = (
        np.array([1.0, 0.0, 0.0, 0.0])
        if upright.xquat is None
        else np.asarray(upright.xquat, dtype=np.float64)
    )
    upright_quaternion = upright_quaternion / np.linalg.norm(upright_quaternion)
    turn = np.array([1.0, 0.0, 0.0, 0.0])
    if quaternion is not None:
        turn = np.asarray(quaternion, dtype=np.float64)
        turn = turn / np.linalg.norm(turn)
    combined = np.empty(4)
    mujoco.mju_mulQuat(combined, turn, upright_quaternion)
    return np.asarray(position, dtype=np.float64) + upright_position, combined


def center_of_mass_velocity(physics: Physics, walker: Walker) -> np.ndarray:
    """Linear velocity (3,) of the walker's centre of mass, world frame, m/s.

    MuJoCo computes subtree velocities only on demand, hence `mj_subtreeVel`.
    """
    mujoco.mj_subtreeVel(physics.model, physics.data)
    return np.array(physics.bind(walker.root_body).subtree_linvel)


def root_position(physics: Physics, walker: Walker) -> np.ndarray:
    """World position (3,) of the walker's root body, metres."""
    return np.array(physics.bind(walker.root_body).xpos)


def root_upright(physics: Physics, walker: Walker) -> float:
    """z-component of the root body's z-axis in the world frame (1 upright, -1
    upside down): the n_z of Heess et al. (2017)."""
    return float(physics.bind(walker.root_body).xmat[8])


def heading_rotation(physics: Physics, walker: Walker) -> np.ndarray:
    """2x2 rotation from the walker's heading frame to the world's horizontal plane:
    its columns are the root body's forward axis projected on the ground and the
    horizontal axis to its left. The forward axis is the root's x-axis, or the
    axis a walker names in `root_forward_axis` (the CMU humanoids: 2, the CMU
    pelvis frame's z). Identity when that axis points straight up or down."""
    xmat = physics.bind(walker.root_body).xmat
    axis = int(getattr(walker, "root_forward_axis", 0))
    forward = np.array([xmat[axis], xmat[3 + axis]])
    norm = np.hypot(*forward)
    if norm < 1e-9:
        return np.eye(2)
    cosine, sine = forward / norm
    return np.array([[cosine, -sine], [sine, cosine]])


def reset_walker_pose(
    physics: Physics, walker: Walker, random_state: np.random.RandomState
) -> None:
    """dm_control's `walker.reinitialize_pose` with its default (upright)
    initializer: the root at `walker.upright_pose` and at rest, then
    `reinitialize_pose` (the joints' initial pose and any initializer a user
    added, which may move the root again).

    A planar walker (no free joint) keeps its root; an entity without
    `upright_pose` stands at its frame's origin, and one without
    `reinitialize_pose` keeps its joints.
    """
    if getattr(walker, "free_joint", None) is not None:
        upright = getattr(walker, "upright_pose", None)
        position = np.zeros(3) if upright is None else upright.xpos
        quaternion = np.array([1.0, 0.0, 0.0, 0.0]) if upright is None else upright.xquat
        walker.set_pose(physics, position=position, quaternion=quaternion)
        walker.set_velocity(physics, velocity=np.zeros(3), angular_velocity=np.zeros(3))
    reinitialize_pose = getattr(walker, "reinitialize_pose", None)
    if reinitialize_pose is not None:
        reinitialize_pose(physics, random_state)


def respawn_walker(
    physics: Physics,
    walker: Walker,
    random_state: np.random.RandomState,
    position: ArrayLike,
    quaternion: ArrayLike | None = None,
) -> None:
    """dm_control's respawn in its locomotion tasks: `reset_walker_pose`, then a
    shift by `position` (world, metres) and a turn by `quaternion` (w, x, y, z),
    the velocity turned with it."""
    reset_walker_pose(physics, walker, random_state)
    walker.shift_pose(
        physics,
        position=np.asarray(position, dtype=np.float64),
        quaternion=None if quaternion is None else np.asarray(quaternion, dtype=np.float64),
        rotate_velocity=True,
    )


def enable_proprioception(walker: Walker) -> None:
    """Enables the walker's proprioceptive, kinematic and dynamic sensor
    observables: its `proprioception`, `kinematic_sensors` and `dynamic_sensors`
    groups (as dm_control's locomotion tasks do), or, for a walker without these
    groups, those of `PROPRIOCEPTION` it has."""
    # The groups are properties of `WalkerObservables`; containers without them
    # take the except clause, so the container is used duck-typed here.
    observables: Any = walker.observables
    try:
        selected = (
            list(observables.proprioception)
            + list(observables.kinematic_sensors)
            + list(observables.dynamic_sensors)
        )
    except AttributeError:
        selected = [observables[name] for name in PROPRIOCEPTION if name in observables]
    for item in selected:
        item.enabled = True


# Observables of the walker API (composer_tasks/walkers/base.py) that the groups
# above hold: egocentric proprioception and inertial and contact sensors.
PROPRIOCEPTION = (
    "joints_pos",
    "joints_vel",
    "sensors_velocimeter",
    "sensors_accelerometer",
    "sensors_gyro",
    "sensors_touch",
    "sensors_torque",
    "body_height",
    "world_zaxis",
    "end_effectors_pos",
)
