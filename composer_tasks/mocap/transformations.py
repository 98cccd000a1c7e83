"""Quaternion helpers the motion-capture tasks use (w-x-y-z order, Hamilton product).

The quaternion functions are `composer_tasks.utils.transformations`'s (dm_control's
`utils.transformations`, 1.0.50), re-exported for the mocap modules; the two
helpers defined here are how dm_control's mocap code calls them:
`quat_to_mat` keeps the 3x3 rotation block (dm_control writes
`tr.quat_to_mat(q)[:3, :3]`), and `remove_yaw` is the heading removal of
dm_control's `reference_pose.utils.set_walker(null_xyz_and_yaw=True)`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from composer_tasks.utils import transformations as _transformations
from composer_tasks.utils.transformations import quat_conj, quat_diff, quat_mul, quat_to_axisangle

__all__ = ["quat_conj", "quat_diff", "quat_mul", "quat_to_axisangle", "quat_to_mat", "remove_yaw"]


def quat_to_mat(quat: ArrayLike) -> np.ndarray:
    """The 3x3 rotation matrix of `quat` (normalised first; identity if ~zero)."""
    return _transformations.quat_to_mat(quat)[:3, :3]


def remove_yaw(quat: ArrayLike) -> np.ndarray:
    """`quat` with its heading about the world z axis removed: its Z-Y-X Euler
    angles with the first (yaw) set to zero, recomposed, as dm_control does (so
    the result's sign and its gimbal-lock handling are dm_control's)."""
    euler = _transformations.quat_to_euler(quat, ordering="ZYX")
    euler[0] = 0.0
    return _transformations.euler_to_quat(euler, ordering="ZYX")
