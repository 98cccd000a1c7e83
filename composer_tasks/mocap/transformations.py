"""Quaternion helpers the motion-capture tasks use (w-x-y-z order, Hamilton product).

The definitions are dm_control's (`dm_control.utils.transformations`, 1.0.50):
`quat_diff(a, b)` is conj(a) * b without normalisation, `quat_to_axisangle` wraps
the angle into [-pi, pi), `quat_to_mat` normalises and gives the identity for a
near-zero quaternion.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

# dm_control's tolerance for a zero angle / a zero quaternion.
_TOLERANCE = 1e-10


def quat_conj(quat: ArrayLike) -> np.ndarray:
    """The conjugate (w, -x, -y, -z), batched on leading axes."""
    q = np.asarray(quat, dtype=np.float64)
    return np.concatenate([q[..., :1], -q[..., 1:]], axis=-1)


def quat_mul(first: ArrayLike, second: ArrayLike) -> np.ndarray:
    """The Hamilton product first * second, batched on leading axes."""
    a = np.asarray(first, dtype=np.float64)
    b = np.asarray(second, dtype=np.float64)
    w1, x1, y1, z1 = (a[..., i] for i in range(4))
    w2, x2, y2, z2 = (b[..., i] for i in range(4))
    return np.stack(
        [
            w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
            w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
            w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
        ],
        axis=-1,
    )


def quat_diff(source: ArrayLike, target: ArrayLike) -> np.ndarray:
    """The rotation from `source` to `target`: conj(source) * target."""
    return quat_mul(quat_conj(source), target)


def quat_to_axisangle(quat: ArrayLike) -> np.ndarray:
    """The rotation vector (axis times angle, angle wrapped into [-pi, pi)) of a
    unit quaternion; zeros for a rotation below 1e-10 rad."""
    q = np.asarray(quat, dtype=np.float64)
    angle = 2.0 * np.arccos(np.clip(q[0], -1.0, 1.0))
    if angle < _TOLERANCE:
        return np.zeros(3)
    half_sine = np.sin(angle / 2.0)
    wrapped = (angle + np.pi) % (2.0 * np.pi) - np.pi
    return q[1:4] / half_sine * wrapped


def quat_to_mat(quat: ArrayLike) -> np.ndarray:
    """The 3x3 rotation matrix of `quat` (normalised first; identity if ~zero)."""
    q = np.array(quat, dtype=np.float64)
    norm_squared = float(np.dot(q, q))
    if norm_squared < _TOLERANCE:
        return np.identity(3)
    w, x, y, z = q / np.sqrt(norm_squared)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def remove_yaw(quat: ArrayLike) -> np.ndarray:
    """`quat` with its heading about the world z axis removed: the rotation
    Rz(-yaw) * R, where yaw is the first angle of R's Z-Y-X Euler decomposition
    (dm_control zeroes that angle and recomposes)."""
    rotation = quat_to_mat(quat)
    yaw = np.arctan2(rotation[1, 0], rotation[0, 0])
    unyaw = np.array([np.cos(-yaw / 2.0), 0.0, 0.0, np.sin(-yaw / 2.0)])
    result = quat_mul(unyaw, np.asarray(quat, dtype=np.float64))
    return result if result[0] >= 0 else -result
