"""Helpers of the reference-pose tasks: adding a walker (or its ghost) to an arena,
posing it from a clip's features, and reading its features back (dm_control's
`locomotion.tasks.reference_pose.utils`, 1.0.50).

Features are a dictionary of arrays in the clip's conventions (`composer_tasks.mocap`):
`position` and `quaternion` of the walker's root frame (world frame; dm_control's
free-joint qpos), `velocity` (world frame) and `angular_velocity` (root frame),
`joints` and `joints_velocity` in the walker's `mocap_joints` order (rad, rad/s),
`center_of_mass`, `end_effectors` and `appendages` (m; the last two relative to the
root, in the root frame), `body_positions` and `body_quaternions` of
`mocap_tracking_bodies` (world frame), and, with props, `prop_positions` and
`prop_quaternions`. The root frame is dm_control's for every walker (for the CMU
humanoids, the CMU pelvis frame), so features read here and features stored in a
clip agree as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import mjcf
from composer_tasks.mocap import transformations as tr
from composer_tasks.mocap import walkers as mocap_walkers

# A ghost's geoms are this grey (dm_control's); alpha 0.999 so that it shows grey
# rather than as the walker's own colours.
_GHOST_RGB = (0.5, 0.5, 0.5)
_GHOST_ALPHA = 0.999


def add_walker(
    walker_fn: Callable[..., Any],
    arena: Any,
    name: str = "walker",
    ghost: bool = False,
    visible: bool = True,
    position: Sequence[float] = (0, 0, 0),
) -> Any:
    """Builds `walker_fn(name=name)` and attaches it to `arena` with a free joint.

    A ghost shows a pose without taking part in the physics: its tracking light
    is removed, its geoms collide with nothing and turn grey (invisible if not
    `visible`), its actuators and the sensors that read actuators are removed, and
    its skin (if any) turns grey. A non-zero `position` attaches the walker at a
    site there (metres, world frame).
    """
    walker = walker_fn(name=name)
    if ghost:
        model = walker.mjcf_model
        light = model.find("light", "tracking_light")
        if light:
            light.remove()
        for geom in model.find_all("geom"):
            alpha = _GHOST_ALPHA
            if geom.rgba is not None and geom.rgba[3] < alpha:
                alpha = geom.rgba[3]
            geom.set_attributes(
                contype=0, conaffinity=0, rgba=(*_GHOST_RGB, alpha if visible else 0.0)
            )
        removed = list(model.find_all("actuator"))
        removed += [sensor for sensor in model.find_all("sensor") if "actuator" in sensor.tag]
        for element in removed:
            element.remove()
        # PyMJCF here has no "skin" namespace: the skin is edited on the spec.
        for skin in walker.spec.skins:
            if skin.name == "skin":
                skin.rgba = [*_GHOST_RGB, _GHOST_ALPHA if visible else 0.0]
    if tuple(position) == (0, 0, 0):
        walker.create_root_joints(arena.attach(walker))
    else:
        spawn_site = arena.mjcf_model.worldbody.add("site", pos=position)
        walker.create_root_joints(arena.attach(walker, spawn_site))
        spawn_site.remove()
    return walker


def get_qpos_qvel_from_features(features: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """(qpos, qvel) of a walker posed by `features`: root position, quaternion and
    joints; root velocity, angular velocity and joint velocities (the clip's
    conventions, dm_control's free-joint layout)."""
    qpos = np.hstack([features["position"], features["quaternion"], features["joints"]])
    qvel = np.hstack(
        [features["velocity"], features["angular_velocity"], features["joints_velocity"]]
    )
    return qpos, qvel


def set_walker_from_features(
    physics: Any, walker: Any, features: Mapping[str, Any], offset: ArrayLike = 0
) -> None:
    """Poses `walker` (root and mocap joints, positions and velocities) as
    `features` say, shifted by `offset` metres."""
    qpos, qvel = get_qpos_qvel_from_features(features)
    set_walker(physics, walker, qpos, qvel, offset=offset)


def set_walker(
    physics: Any,
    walker: Any,
    qpos: ArrayLike,
    qvel: ArrayLike,
    offset: ArrayLike = 0,
    null_xyz_and_yaw: bool = False,
    position_shift: ArrayLike | None = None,
    rotation_shift: ArrayLike | None = None,
) -> None:
    """Sets `walker`'s root and `mocap_joints` from dm_control-layout `qpos` (root
    position, quaternion, joints) and `qvel` (root linear, angular, joints).

    `offset` (m) is added to the root position; `null_xyz_and_yaw` first zeroes
    the horizontal position and removes the heading; `position_shift` and
    `rotation_shift` then move the walker (`walker.shift_pose`, velocity rotated).
    """
    qpos = np.array(qpos, dtype=np.float64)
    qvel = np.asarray(qvel, dtype=np.float64)
    if null_xyz_and_yaw:
        qpos[:2] = 0.0
        qpos[3:7] = tr.remove_yaw(qpos[3:7])
    qpos[:3] += np.asarray(offset, dtype=np.float64)
    mocap_walkers.set_root_pose(physics, walker, qpos[:3], qpos[3:7])
    mocap_walkers.set_root_velocity(physics, walker, qvel[:3], qvel[3:6])
    joints = physics.bind(walker.mocap_joints)
    joints.qpos = qpos[7:]
    joints.qvel = qvel[6:]
    if position_shift is not None or rotation_shift is not None:
        walker.shift_pose(
            physics, position=position_shift, quaternion=rotation_shift, rotate_velocity=True
        )


def set_props_from_features(
    physics: Any, props: Sequence[Any], features: Mapping[str, Any], z_offset: ArrayLike = 0
) -> None:
    """Poses each prop at its `prop_positions` (+ `z_offset`: a height in metres or
    a 3-vector) and `prop_quaternions`."""
    if np.isscalar(z_offset):
        z_offset = np.array([0.0, 0.0, z_offset])
    for prop, position, quaternion in zip(
        props, features["prop_positions"], features["prop_quaternions"]
    ):
        prop.set_pose(physics, position + z_offset, quaternion)


def get_features(physics: Any, walker: Any, props: Sequence[Any] | None = None) -> dict:
    """The walker's (and props') features now, in the clip's conventions (module
    docstring). Positions are those of the last forward pass or step."""
    features: dict[str, Any] = {}
    position, quaternion = mocap_walkers.get_root_pose(physics, walker)
    features["position"] = np.array(position)
    features["quaternion"] = np.array(quaternion)
    features["joints"] = np.array(physics.bind(walker.mocap_joints).qpos)
    frame = mjcf.get_attachment_frame(walker.mjcf_model)
    features["center_of_mass"] = np.array(physics.bind(frame).subtree_com)
    end_effectors = np.array(walker.observables.end_effectors_pos(physics)[:]).reshape(-1, 3)
    features["end_effectors"] = end_effectors
    if hasattr(walker.observables, "appendages_pos"):
        appendages = np.array(walker.observables.appendages_pos(physics)[:]).reshape(-1, 3)
    else:
        appendages = np.array(end_effectors)
    features["appendages"] = appendages
    bodies = physics.bind(walker.mocap_tracking_bodies)
    features["body_positions"] = np.array(bodies.xpos)
    features["body_quaternions"] = np.array(bodies.xquat)
    velocity, angular_velocity = mocap_walkers.get_root_velocity(physics, walker)
    features["velocity"] = np.array(velocity)
    features["angular_velocity"] = np.array(angular_velocity)
    features["joints_velocity"] = np.array(physics.bind(walker.mocap_joints).qvel)
    if props:
        poses = [prop.get_pose(physics) for prop in props]
        features["prop_positions"] = np.array([pose[0] for pose in poses])
        features["prop_quaternions"] = np.array([pose[1] for pose in poses])
    return features
