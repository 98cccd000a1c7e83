"""Matching a walker to motion-capture data: its root frame, scale and markers.

**Root frame.** A clip's walker position and quaternion are the pose of dm_control's
walker root frame, its free joint's qpos; velocities are that joint's qvel (linear
in the world frame, angular in the root frame). For every walker here but the CMU
humanoids that frame is the walker's attachment frame too, so the data apply as
they are. The CMU humanoids here stand upright in their own frame, the skeleton
hanging from the root body (at `standing_height` above the attachment frame)
through `CMU_SKELETON_QUATERNION` (docs/locomotion_walkers.md, "Frame"), where
dm_control's pelvis frame is the root frame itself. `get_root_pose`,
`set_root_pose`, `get_root_velocity` and `set_root_velocity` convert, so the
bodies land where the data put them and read back the data's numbers.

**WalkerInfo** is dm_control's helper (dm-control 1.0.50,
`locomotion/mocap/walkers.py`): it checks the walker against the clip's model,
rescales its subtrees and mass, and adds the clip's marker sites.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer, mjcf
from composer_tasks.mocap import records
from composer_tasks.mocap import transformations as tr
from composer_tasks.walkers import cmu_humanoid, rescale

_IDENTITY_QUATERNION = np.array([1.0, 0.0, 0.0, 0.0])


def root_frame_offset(walker: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """(position (3,) m, quaternion (4,)) of dm_control's root frame of `walker` in
    its attachment frame, or None where the two frames are the same."""
    if not isinstance(walker, cmu_humanoid._CMUHumanoidBase):
        return None
    root = walker.root_body.spec_element
    position = np.array(root.pos, dtype=np.float64)
    quaternion = tr.quat_mul(
        np.array(root.quat, dtype=np.float64), np.array(cmu_humanoid.CMU_SKELETON_QUATERNION)
    )
    return position, quaternion / np.linalg.norm(quaternion)


def egocentric_to_root_frame(walker: Any, vectors: ArrayLike) -> np.ndarray:
    """Vectors (last axis 3) given in `walker`'s root-body frame, expressed in
    dm_control's root frame of it (unchanged where the two are the same)."""
    vectors = np.asarray(vectors, dtype=np.float64)
    if not isinstance(walker, cmu_humanoid._CMUHumanoidBase):
        return vectors
    return vectors @ tr.quat_to_mat(np.array(cmu_humanoid.CMU_SKELETON_QUATERNION))


def _free_joint(walker: Any) -> Any:
    joint = mjcf.get_frame_freejoint(walker.mjcf_model)
    if joint is None:
        raise ValueError(
            f"walker {walker.name!r} has no free joint: attach it with "
            "`walker.create_root_joints(arena.attach(walker))` or `arena.add_free_entity`"
        )
    return joint


def get_root_pose(physics: Any, walker: Any) -> tuple[np.ndarray, np.ndarray]:
    """(position, quaternion) of `walker`'s dm_control root frame in the world."""
    qpos = np.array(physics.bind(_free_joint(walker)).qpos, dtype=np.float64)
    position, quaternion = qpos[:3], qpos[3:7]
    offset = root_frame_offset(walker)
    if offset is None:
        return position, quaternion
    offset_position, offset_quaternion = offset
    return (
        position + tr.quat_to_mat(quaternion) @ offset_position,
        tr.quat_mul(quaternion, offset_quaternion),
    )


def set_root_pose(physics: Any, walker: Any, position: ArrayLike, quaternion: ArrayLike) -> None:
    """Places `walker` so that its dm_control root frame has this world pose."""
    position = np.asarray(position, dtype=np.float64)
    quaternion = np.asarray(quaternion, dtype=np.float64)
    offset = root_frame_offset(walker)
    if offset is not None:
        offset_position, offset_quaternion = offset
        quaternion = tr.quat_mul(quaternion, tr.quat_conj(offset_quaternion))
        position = position - tr.quat_to_mat(quaternion) @ offset_position
    physics.bind(_free_joint(walker)).qpos = np.concatenate([position, quaternion])


def get_root_velocity(physics: Any, walker: Any) -> tuple[np.ndarray, np.ndarray]:
    """(linear velocity (world frame, m/s), angular velocity (root frame, rad/s))
    of `walker`'s dm_control root frame: its free joint's qvel in dm_control."""
    joint = physics.bind(_free_joint(walker))
    qvel = np.array(joint.qvel, dtype=np.float64)
    linear, angular = qvel[:3], qvel[3:6]
    offset = root_frame_offset(walker)
    if offset is None:
        return linear, angular
    offset_position, offset_quaternion = offset
    attachment_rotation = tr.quat_to_mat(np.array(joint.qpos[3:7], dtype=np.float64))
    angular_world = attachment_rotation @ angular
    linear = linear + np.cross(angular_world, attachment_rotation @ offset_position)
    return linear, tr.quat_to_mat(offset_quaternion).T @ angular


def set_root_velocity(
    physics: Any, walker: Any, velocity: ArrayLike, angular_velocity: ArrayLike
) -> None:
    """Sets `walker`'s free-joint velocity so that its dm_control root frame moves
    with `velocity` (world frame) and `angular_velocity` (root frame). The pose
    must be set first: the conversion uses the current orientation."""
    joint = physics.bind(_free_joint(walker))
    linear = np.asarray(velocity, dtype=np.float64)
    angular = np.asarray(angular_velocity, dtype=np.float64)
    offset = root_frame_offset(walker)
    if offset is not None:
        offset_position, offset_quaternion = offset
        angular = tr.quat_to_mat(offset_quaternion) @ angular
        attachment_rotation = tr.quat_to_mat(np.array(joint.qpos[3:7], dtype=np.float64))
        angular_world = attachment_rotation @ angular
        linear = linear - np.cross(angular_world, attachment_rotation @ offset_position)
    joint.qvel = np.concatenate([linear, angular])


class WalkerInfo:
    """What a clip says about its walker (`records.Walker`), applied to a walker."""

    def __init__(self, proto: records.Walker) -> None:
        self._proto = proto

    def check_walker_is_compatible(self, walker: Any) -> None:
        """Raises ValueError if `walker.mocap_walker_model` is set and is not the
        clip's walker model."""
        model = getattr(walker, "mocap_walker_model", None)
        if model is not None and model != self._proto.model:
            name = records.Walker.MODEL_NAMES.get(self._proto.model, str(self._proto.model))
            raise ValueError(f"Walker is not compatible with model type {name!r}: got {walker}")

    def rescale_walker(self, walker: Any) -> None:
        """Rescales the walker's subtrees as the clip's scaling says, then its
        masses (or geom densities) so that it weighs the clip's mass, if given."""
        self.check_walker_is_compatible(walker)
        for subtree in self._proto.scaling.subtree:
            body = walker.mjcf_model.find("body", subtree.body_name)
            if body is None:
                raise ValueError(
                    f"the clip rescales body {subtree.body_name!r}, which walker "
                    f"{walker.name!r} does not have"
                )
            if subtree.parent_length:
                position_factor = subtree.parent_length / np.linalg.norm(body.pos)
            else:
                position_factor = subtree.size_factor
            rescale.rescale_subtree(body.parent, position_factor, subtree.size_factor)
        if self._proto.mass:
            physics = mjcf.Physics.from_mjcf_model(walker.mjcf_model.root_model)
            current_mass = float(np.squeeze(physics.bind(walker.root_body).subtreemass))
            factor = self._proto.mass / current_mass
            for body in walker.root_body.find_all("body"):
                inertial = getattr(body, "inertial", None)
                if inertial:
                    inertial.mass *= factor
            for geom in walker.root_body.find_all("geom"):
                if geom.mass is not None:
                    geom.mass *= factor
                else:
                    density = geom.density if geom.density is not None else 1000
                    geom.density = density * factor

    def add_marker_sites(
        self,
        walker: Any,
        size: float = 0.01,
        rgba: ArrayLike = (0.0, 0.0, 1.0, 0.3),
        default_to_random_position: bool = True,
        random_state: Any = None,
    ) -> list:
        """Adds a sphere site per marker of the clip on its parent body (class
        "mocap", in the sensor-site group); a marker without a position gets a
        uniform one in [-5, 5] mm (or zero). Sets `walker.list_of_site_names`."""
        self.check_walker_is_compatible(walker)
        random_state = random_state or np.random
        sites = []
        mocap_class = None
        if self._proto.markers.marker:
            mocap_class = walker.mjcf_model.default.add("default", dclass="mocap")
            mocap_class.site.set_attributes(
                type="sphere", size=(size,), rgba=rgba, group=composer.SENSOR_SITES_GROUP
            )
        for marker in self._proto.markers.marker:
            body = walker.mjcf_model.find("body", marker.parent)
            if not body:
                raise ValueError(f"Walker model does not contain a body named {marker.parent!r}")
            position = np.asarray(marker.position, dtype=np.float64)
            if not position.size:
                if default_to_random_position:
                    position = random_state.uniform(-0.005, 0.005, size=3)
                else:
                    position = np.zeros(3)
            sites.append(body.add("site", name=marker.name, pos=position, dclass=mocap_class))
        walker.list_of_site_names = [site.name for site in sites]
        return sites
