"""Matching a walker to motion-capture data: its root frame, scale and markers.

**Root frame.** A clip's walker position and quaternion are the pose of dm_control's
walker root frame, its free joint's qpos; velocities are that joint's qvel (linear
in the world frame, angular in the root frame). Every walker here, the CMU
humanoids included (their root body is the CMU pelvis frame at the walker's frame
origin, as in dm_control: docs/locomotion_walkers.md, "Frame"), has that frame as
its attachment frame, so `get_root_pose`, `set_root_pose`, `get_root_velocity`
and `set_root_velocity` read and write the free joint's numbers as they are.

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
from composer_tasks.walkers import rescale


def _free_joint(walker: Any) -> Any:
    joint = mjcf.get_frame_freejoint(walker.mjcf_model)
    if joint is None:
        raise ValueError(
            f"walker {walker.name!r} has no free joint: attach it with "
            "`walker.create_root_joints(arena.attach(walker))` or `arena.add_free_entity`"
        )
    return joint


def get_root_pose(physics: Any, walker: Any) -> tuple[np.ndarray, np.ndarray]:
    """(position, quaternion) of `walker`'s root frame in the world: its free
    joint's qpos."""
    qpos = np.array(physics.bind(_free_joint(walker)).qpos, dtype=np.float64)
    return qpos[:3], qpos[3:7]


def set_root_pose(physics: Any, walker: Any, position: ArrayLike, quaternion: ArrayLike) -> None:
    """Places `walker`'s root frame at this world pose (its free joint's qpos)."""
    position = np.asarray(position, dtype=np.float64)
    quaternion = np.asarray(quaternion, dtype=np.float64)
    physics.bind(_free_joint(walker)).qpos = np.concatenate([position, quaternion])


def get_root_velocity(physics: Any, walker: Any) -> tuple[np.ndarray, np.ndarray]:
    """(linear velocity (world frame, m/s), angular velocity (root frame, rad/s))
    of `walker`'s root frame: its free joint's qvel."""
    qvel = np.array(physics.bind(_free_joint(walker)).qvel, dtype=np.float64)
    return qvel[:3], qvel[3:6]


def set_root_velocity(
    physics: Any, walker: Any, velocity: ArrayLike, angular_velocity: ArrayLike
) -> None:
    """Sets `walker`'s free-joint velocity: `velocity` (world frame) and
    `angular_velocity` (root frame)."""
    linear = np.asarray(velocity, dtype=np.float64)
    angular = np.asarray(angular_velocity, dtype=np.float64)
    physics.bind(_free_joint(walker)).qvel = np.concatenate([linear, angular])


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
