"""Quaternion helpers of dm_control's `mujoco.math`, over MuJoCo's own `mju_*` functions.

    from composer_tasks import mujoco_math

    mujoco_math.mj_quatdiff([1, 0, 0, 0], [0, 0, 0, 1])  # rotation taking source to target
    mujoco_math.euler2quat(0.0, 0.0, 90.0)  # yaw of 90 degrees: [cos 45°, 0, 0, sin 45°]

Quaternions are (w, x, y, z), as everywhere in MuJoCo. Each function takes any
sequence of floats and returns a new float64 array.
"""

from typing import Sequence

import mujoco
import numpy as np


def _quaternion(value: Sequence[float] | np.ndarray, name: str) -> np.ndarray:
    """`value` as a contiguous float64 array of shape (4,); ValueError naming `name` if not."""
    array = np.ascontiguousarray(value, dtype=np.float64)
    if array.shape != (4,):
        raise ValueError(f"{name} must be a quaternion of shape (4,), got shape {array.shape}")
    return array


def euler2quat(ax: float, ay: float, az: float) -> np.ndarray:
    """The quaternion of roll `ax`, pitch `ay` and yaw `az`, in degrees.

    The rotations compose in z, y, x order (yaw first, about the fixed frame's z;
    then pitch; then roll about the body's own x), as dm_control's `euler2quat`:
    the result is q_z(az) * q_y(ay) * q_x(ax).
    """
    half = np.deg2rad(np.array([ax, ay, az], dtype=np.float64)) / 2
    cos_x, cos_y, cos_z = np.cos(half)
    sin_x, sin_y, sin_z = np.sin(half)
    # The product of the three single-axis quaternions, expanded.
    return np.array(
        [
            cos_z * cos_y * cos_x + sin_z * sin_y * sin_x,
            cos_z * cos_y * sin_x - sin_z * sin_y * cos_x,
            cos_z * sin_y * cos_x + sin_z * cos_y * sin_x,
            sin_z * cos_y * cos_x - cos_z * sin_y * sin_x,
        ]
    )


def mj_quatprod(q: Sequence[float] | np.ndarray, r: Sequence[float] | np.ndarray) -> np.ndarray:
    """The product q * r (apply r, then q), by `mujoco.mju_mulQuat`."""
    result = np.zeros(4)
    mujoco.mju_mulQuat(result, _quaternion(q, "q"), _quaternion(r, "r"))
    return result


def mj_quat2vel(q: Sequence[float] | np.ndarray, dt: float) -> np.ndarray:
    """The angular velocity (radians per second, shape (3,)) that turns by `q` in `dt`
    seconds, by `mujoco.mju_quat2Vel`."""
    result = np.zeros(3)
    mujoco.mju_quat2Vel(result, _quaternion(q, "q"), dt)
    return result


def mj_quatneg(q: Sequence[float] | np.ndarray) -> np.ndarray:
    """The conjugate of `q` (the opposite rotation for a unit quaternion), by
    `mujoco.mju_negQuat`."""
    result = np.zeros(4)
    mujoco.mju_negQuat(result, _quaternion(q, "q"))
    return result


def mj_quatdiff(
    source: Sequence[float] | np.ndarray, target: Sequence[float] | np.ndarray
) -> np.ndarray:
    """conj(source) * target: the rotation from `source` to `target`, in `source`'s frame."""
    return mj_quatprod(mj_quatneg(source), target)
