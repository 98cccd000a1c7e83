"""A walker initializer that poses the walker from a motion-capture clip
(dm_control's `locomotion.walkers.initializers.mocap`)."""

from __future__ import annotations

from typing import Any

from composer_tasks.mocap import cmu_mocap_data, loader
from composer_tasks.mocap import walkers as mocap_walkers
from composer_tasks.walkers import initializers


class CMUMocapInitializer(initializers.UprightInitializer):
    """Stands the walker upright (`UprightInitializer`), then gives its mocap joints
    the angles and velocities, and its root the velocities, of a random step of a
    CMU clip (drawn from `random_state`). Only for walkers that match the data
    (the CMU humanoid of `version`).

    Args:
      mocap_key: the clip's identifier.
      version: the CMU data version, "2019" or "2020" (`cmu_mocap_data`; the file
        is downloaded if not cached).
      ref_path: this project's option: an HDF5 file to read instead of the CMU
        data of `version` (e.g. a small test file).

    Raises:
      KeyError: the file has no clip `mocap_key`.
    """

    def __init__(
        self, mocap_key: str = "CMU_077_02", version: str = "2019", ref_path: str | None = None
    ) -> None:
        path = ref_path if ref_path is not None else cmu_mocap_data.get_path_for_cmu(version)
        self._loader = loader.HDF5TrajectoryLoader(path)
        self._trajectory = self._loader.get_trajectory(mocap_key)

    def initialize_pose(self, physics: Any, walker: Any, random_state: Any) -> None:
        super().initialize_pose(physics, walker, random_state)
        trajectory = self._trajectory
        time = trajectory.start_time + trajectory.dt * random_state.randint(trajectory.num_steps)
        (pose,) = trajectory.get_timestep_data(time).walkers
        joints = physics.bind(walker.mocap_joints)
        joints.qpos = pose.joints
        joints.qvel = pose.joints_velocity
        mocap_walkers.set_root_velocity(physics, walker, pose.velocity, pose.angular_velocity)
