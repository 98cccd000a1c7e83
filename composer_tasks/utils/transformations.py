"""Rotations as quaternions, matrices, Euler angles and axis-angle vectors
(dm_control's `utils.transformations`, 1.0.50).

Conventions, all dm_control's (dm_control/utils/transformations.py):

- A quaternion is [w, x, y, z], scalar first; products are Hamilton products.
- `euler_to_rmat(angles, "XYZ")` is rotX(a0) @ rotY(a1) @ rotZ(a2): the letters
  name the factors in matrix-multiplication order. `rmat_to_euler` inverts the
  orderings XYZ, XYX, ZYX, XZY, YZX, ZXY and YXZ (nothing else: its default "ZXZ"
  raises KeyError, as dm_control's does). Within 1e-6 of a pole (gimbal lock) the
  first angle is set to 0 and a warning is logged.
- `mat_to_quat` picks its branch by the trace and then the largest diagonal entry,
  so the sign of the quaternion it returns is dm_control's; `quat_to_axisangle`
  wraps the angle into [-pi, pi).

Batching: the functions dm_control vectorises (`quat_conj`, `quat_inv`,
`quat_mul`, `quat_diff`, `quat_log`, `quat_dist`, `axisangle_to_quat`,
`euler_to_rmat`, `euler_to_quat`'s angles, `rotation_*_axis`) take leading batch
axes; the others take one rotation, and raise ValueError for a batch where
dm_control would return a wrong-shaped result or fail obscurely.

    from composer_tasks.utils import transformations as tr

    quat = tr.euler_to_quat([0.1, 0.2, 0.3], ordering="XYZ")
    tr.quat_rotate(quat, [1.0, 0.0, 0.0])
"""

import logging
import time
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

_LOG = logging.getLogger(__name__)

# dm_control's tolerances: |sin| above this is a pole (gimbal lock); below _TOL an
# angle or a squared norm counts as zero.
_POLE_LIMIT = 1.0 - 1e-6
_TOL = 1e-10

# dm_control logs the XYZ pole warning at most once a minute (absl's
# log_every_n_seconds), the other orderings' every time.
_XYZ_POLE_WARNING_PERIOD_S = 60.0
_last_xyz_pole_warning: dict[str, float] = {}


class _OutOfRangeArrayError(ValueError, TypeError):
    """`quat_log`'s out-of-range error. dm_control's formats the offending array
    with a float format, which raises TypeError; this is a ValueError that names
    the values and is also a TypeError, so code catching either keeps working."""


def _clip_within_precision(
    number: np.ndarray | float, low: float, high: float, precision: float = _TOL
) -> np.ndarray:
    """`number` clipped into [low, high]; ValueError if it lies outside by more than
    `precision`."""
    value = np.asarray(number)
    if (value < low - precision).any() or (value > high + precision).any():
        if value.ndim == 0:
            raise ValueError(
                f"Input {float(value):.12f} not inside range [{low:.12f}, {high:.12f}] "
                f"with precision {precision}"
            )
        raise _OutOfRangeArrayError(
            f"Input {value.tolist()} not inside range [{low:.12f}, {high:.12f}] "
            f"with precision {precision}"
        )
    return np.clip(number, low, high)


def _warn_pole(ordering: str, pole: str) -> None:
    if ordering == "XYZ":
        now = time.monotonic()
        if now - _last_xyz_pole_warning.get(pole, -np.inf) < _XYZ_POLE_WARNING_PERIOD_S:
            return
        _last_xyz_pole_warning[pole] = now
    _LOG.warning("Angle at %s Pole", pole)


# Matrix -> Euler angles, one function per ordering. Each returns the angles in the
# order of the ordering's letters. The entries used are those of the product
# rotA(a0) @ rotB(a1) @ rotC(a2) written out (dm_control's derivations).


def _rmat_to_euler_xyz(rmat: np.ndarray) -> np.ndarray:
    # rmat[0, 2] = sin(y).
    if rmat[0, 2] > _POLE_LIMIT or rmat[0, 2] < -_POLE_LIMIT:
        _warn_pole("XYZ", "North" if rmat[0, 2] > 0 else "South")
        z = np.arctan2(rmat[1, 0], rmat[1, 1])
        y = np.pi / 2 if rmat[0, 2] > 0 else -np.pi / 2
        return np.array([0.0, y, z])
    z = -np.arctan2(rmat[0, 1], rmat[0, 0])
    y = np.arcsin(rmat[0, 2])
    x = -np.arctan2(rmat[1, 2], rmat[2, 2])
    return np.array([x, y, z])


def _rmat_to_euler_xyx(rmat: np.ndarray) -> np.ndarray:
    # rmat[0, 0] = cos(y); at y = 0 or pi only x1 -/+ x0 is determined.
    if rmat[0, 0] < 1.0:
        if rmat[0, 0] > -1.0:
            y = np.arccos(_clip_within_precision(rmat[0, 0], -1.0, 1.0))
            x0 = np.arctan2(rmat[1, 0], -rmat[2, 0])
            x1 = np.arctan2(rmat[0, 1], rmat[0, 2])
            return np.array([x0, y, x1])
        return np.array([-np.arctan2(-rmat[1, 2], rmat[1, 1]), np.pi, 0.0])
    return np.array([-np.arctan2(-rmat[1, 2], rmat[1, 1]), 0.0, 0.0])


def _rmat_to_euler_zyx(rmat: np.ndarray) -> np.ndarray:
    # rmat[2, 0] = -sin(y).
    if rmat[2, 0] > _POLE_LIMIT or rmat[2, 0] < -_POLE_LIMIT:
        _warn_pole("ZYX", "North" if rmat[2, 0] > 0 else "South")
        x = np.arctan2(rmat[0, 1], rmat[0, 2])
        y = -np.pi / 2 if rmat[2, 0] > 0 else np.pi / 2
        return np.array([0.0, y, x])
    x = np.arctan2(rmat[2, 1], rmat[2, 2])
    y = -np.arcsin(rmat[2, 0])
    z = np.arctan2(rmat[1, 0], rmat[0, 0])
    return np.array([z, y, x])


def _rmat_to_euler_xzy(rmat: np.ndarray) -> np.ndarray:
    # rmat[0, 1] = -sin(z).
    if rmat[0, 1] > _POLE_LIMIT or rmat[0, 1] < -_POLE_LIMIT:
        _warn_pole("XZY", "North" if rmat[0, 1] > 0 else "South")
        y = np.arctan2(rmat[1, 2], rmat[1, 0])
        z = -np.pi / 2 if rmat[0, 1] > 0 else np.pi / 2
        return np.array([0.0, z, y])
    y = np.arctan2(rmat[0, 2], rmat[0, 0])
    z = -np.arcsin(rmat[0, 1])
    x = np.arctan2(rmat[2, 1], rmat[1, 1])
    return np.array([x, z, y])


def _rmat_to_euler_yzx(rmat: np.ndarray) -> np.ndarray:
    # rmat[1, 0] = sin(z).
    if rmat[1, 0] > _POLE_LIMIT or rmat[1, 0] < -_POLE_LIMIT:
        _warn_pole("YZX", "North" if rmat[1, 0] > 0 else "South")
        x = -np.arctan2(rmat[0, 2], rmat[0, 1])
        z = np.pi / 2 if rmat[1, 0] > 0 else -np.pi / 2
        return np.array([0.0, z, x])
    x = -np.arctan2(rmat[1, 2], rmat[1, 1])
    z = np.arcsin(rmat[1, 0])
    y = -np.arctan2(rmat[2, 0], rmat[0, 0])
    return np.array([y, z, x])


def _rmat_to_euler_zxy(rmat: np.ndarray) -> np.ndarray:
    # rmat[2, 1] = sin(x).
    if rmat[2, 1] > _POLE_LIMIT or rmat[2, 1] < -_POLE_LIMIT:
        _warn_pole("ZXY", "North" if rmat[2, 1] > 0 else "South")
        y = np.arctan2(rmat[0, 2], rmat[0, 0])
        x = np.pi / 2 if rmat[2, 1] > 0 else -np.pi / 2
        return np.array([0.0, x, y])
    y = -np.arctan2(rmat[2, 0], rmat[2, 2])
    x = np.arcsin(rmat[2, 1])
    z = -np.arctan2(rmat[0, 1], rmat[1, 1])
    return np.array([z, x, y])


def _rmat_to_euler_yxz(rmat: np.ndarray) -> np.ndarray:
    # rmat[1, 2] = -sin(x).
    if rmat[1, 2] > _POLE_LIMIT or rmat[1, 2] < -_POLE_LIMIT:
        _warn_pole("YXZ", "North" if rmat[1, 2] > 0 else "South")
        z = -np.arctan2(rmat[0, 1], rmat[0, 0])
        x = -np.pi / 2 if rmat[1, 2] > 0 else np.pi / 2
        return np.array([0.0, x, z])
    z = np.arctan2(rmat[1, 0], rmat[1, 1])
    x = -np.arcsin(rmat[1, 2])
    y = np.arctan2(rmat[0, 2], rmat[2, 2])
    return np.array([y, x, z])


_RMAT_TO_EULER: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "XYZ": _rmat_to_euler_xyz,
    "XYX": _rmat_to_euler_xyx,
    "ZYX": _rmat_to_euler_zyx,
    "XZY": _rmat_to_euler_xzy,
    "YZX": _rmat_to_euler_yzx,
    "ZXY": _rmat_to_euler_zxy,
    "YXZ": _rmat_to_euler_yxz,
}
# dm_control's name for the table (its tests read the orderings from it).
_eulermap = _RMAT_TO_EULER


def _axis_rotations(
    theta: ArrayLike, full: bool, fill: Callable[[np.ndarray, np.ndarray, np.ndarray], None]
) -> np.ndarray:
    """(n, 3, 3) (or (n, 4, 4) if `full`) rotations, `fill(rmat, cos, sin)` writing
    the 3x3 blocks; the batch axis is squeezed out when n is 1, as dm_control's."""
    angles = np.asarray(theta)
    if angles.ndim > 1:
        raise ValueError(
            f"theta must be a scalar or a 1-D array of angles, got shape {angles.shape}"
        )
    angles = np.atleast_1d(angles)
    size = 4 if full else 3
    rmat = np.zeros((len(angles), size, size))
    if full:
        rmat[:, 3, 3] = 1.0
    fill(rmat, np.cos(angles), np.sin(angles))
    return rmat.squeeze()


def rotation_x_axis(theta: ArrayLike, full: bool = False) -> np.ndarray:
    """The rotation by `theta` (radians) about the x axis: (3, 3), or (4, 4) if `full`
    (a homogeneous transform); for N angles, (N, 3, 3) or (N, 4, 4)."""

    def fill(rmat: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> None:
        rmat[:, 0, 0] = 1.0
        rmat[:, 1, 1], rmat[:, 1, 2] = cos, -sin
        rmat[:, 2, 1], rmat[:, 2, 2] = sin, cos

    return _axis_rotations(theta, full, fill)


def rotation_y_axis(theta: ArrayLike, full: bool = False) -> np.ndarray:
    """The rotation by `theta` (radians) about the y axis: (3, 3), or (4, 4) if `full`
    (a homogeneous transform); for N angles, (N, 3, 3) or (N, 4, 4)."""

    def fill(rmat: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> None:
        rmat[:, 0, 0], rmat[:, 0, 2] = cos, sin
        rmat[:, 1, 1] = 1.0
        rmat[:, 2, 0], rmat[:, 2, 2] = -sin, cos

    return _axis_rotations(theta, full, fill)


def rotation_z_axis(theta: ArrayLike, full: bool = False) -> np.ndarray:
    """The rotation by `theta` (radians) about the z axis: (3, 3), or (4, 4) if `full`
    (a homogeneous transform); for N angles, (N, 3, 3) or (N, 4, 4)."""

    def fill(rmat: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> None:
        rmat[:, 0, 0], rmat[:, 0, 1] = cos, -sin
        rmat[:, 1, 0], rmat[:, 1, 1] = sin, cos
        rmat[:, 2, 2] = 1.0

    return _axis_rotations(theta, full, fill)


_AXIS_ROTATIONS: dict[str, Callable[[ArrayLike, bool], np.ndarray]] = {
    "X": rotation_x_axis,
    "Y": rotation_y_axis,
    "Z": rotation_z_axis,
}


def euler_to_rmat(euler_vec: ArrayLike, ordering: str = "ZXZ", full: bool = False) -> np.ndarray:
    """The rotation matrix rotA(a0) @ rotB(a1) @ rotC(a2) for `ordering` "ABC" (any
    three of the letters X, Y, Z, repeats allowed).

    Args:
      euler_vec: (3,) angles in radians, or (N, 3).
      ordering: the axes of the three factors, in multiplication order.
      full: return 4x4 homogeneous transforms instead of 3x3 matrices.

    Returns:
      (3, 3) or (4, 4); (N, 3, 3) or (N, 4, 4) for N > 1 angle triples (a batch of
      one is squeezed, as dm_control's).

    Raises:
      KeyError: `ordering` has a letter other than X, Y, Z (dm_control's type).
      IndexError: `ordering` does not have three letters (dm_control's type).
      ValueError: `euler_vec` is not (3,) or (N, 3).
    """
    for letter in ordering:
        if letter not in _AXIS_ROTATIONS:
            raise KeyError(f"ordering {ordering!r} has {letter!r}; its letters must be X, Y or Z")
    if len(ordering) != 3:
        raise IndexError(f"ordering must have three letters, got {ordering!r}")
    angles = np.atleast_2d(euler_vec)
    if angles.ndim != 2 or angles.shape[1] != 3:
        raise ValueError(f"euler_vec must have shape (3,) or (N, 3), got {np.shape(euler_vec)}")
    first, second, third = (
        _AXIS_ROTATIONS[letter](angles[:, i], full) for i, letter in enumerate(ordering)
    )
    if first.ndim == 3:
        product = np.einsum("bij,bjk->bik", first, second)
        return np.einsum("bij,bjk->bik", product, third).squeeze()
    return first.dot(second).dot(third)


def rmat_to_euler(rmat: ArrayLike, ordering: str = "ZXZ") -> np.ndarray:
    """The (3,) Euler angles (radians, in the order of `ordering`'s letters) of a
    rotation matrix, such that `euler_to_rmat(angles, ordering)` gives it back.

    Args:
      rmat: (3, 3) rotation matrix (a (4, 4) transform's rotation block is used).
      ordering: one of XYZ, XYX, ZYX, XZY, YZX, ZXY, YXZ.

    Raises:
      KeyError: `ordering` is not one of those (the default "ZXZ" included, as in
        dm_control).
      ValueError: `rmat` is not (3, 3) or (4, 4).
    """
    if ordering not in _RMAT_TO_EULER:
        raise KeyError(
            f"no conversion to Euler ordering {ordering!r}; the orderings are "
            f"{sorted(_RMAT_TO_EULER)}"
        )
    matrix = np.asarray(rmat)
    if matrix.shape not in ((3, 3), (4, 4)):
        raise ValueError(f"rmat must have shape (3, 3) or (4, 4), got {matrix.shape}")
    return _RMAT_TO_EULER[ordering](matrix)


def mat_to_quat(mat: ArrayLike) -> np.ndarray:
    """The quaternion [w, x, y, z] of a (3, 3) rotation or (4, 4) homogeneous matrix.

    The sign is dm_control's: with a positive trace, w > 0; otherwise the component
    of the largest diagonal entry is positive. Not normalised beyond what an
    orthonormal matrix gives.

    Raises:
      ValueError: `mat` is not (3, 3) or (4, 4) (dm_control takes no batch).
    """
    matrix = np.asarray(mat)
    if matrix.shape == (3, 3):
        homogeneous = np.eye(4)
        homogeneous[0:3, 0:3] = matrix
        matrix = homogeneous
    elif matrix.shape != (4, 4):
        raise ValueError(f"mat must have shape (3, 3) or (4, 4), got {matrix.shape}")
    quat = np.empty((4,), dtype=np.float64)
    trace = np.trace(matrix)
    if trace > matrix[3, 3]:
        quat[0] = trace
        quat[1] = matrix[2, 1] - matrix[1, 2]
        quat[2] = matrix[0, 2] - matrix[2, 0]
        quat[3] = matrix[1, 0] - matrix[0, 1]
    else:
        # Build from the largest diagonal entry (i), with (i, j, k) cyclic.
        i, j, k = 0, 1, 2
        if matrix[1, 1] > matrix[0, 0]:
            i, j, k = 1, 2, 0
        if matrix[2, 2] > matrix[i, i]:
            i, j, k = 2, 0, 1
        trace = matrix[i, i] - (matrix[j, j] + matrix[k, k]) + matrix[3, 3]
        quat[i + 1] = trace
        quat[j + 1] = matrix[i, j] + matrix[j, i]
        quat[k + 1] = matrix[k, i] + matrix[i, k]
        quat[0] = matrix[k, j] - matrix[j, k]
    quat *= 0.5 / np.sqrt(trace * matrix[3, 3])
    return quat


def _single_quaternion(quat: ArrayLike, name: str = "quat") -> np.ndarray:
    array = np.asarray(quat)
    if array.shape != (4,):
        raise ValueError(f"{name} must be one quaternion of shape (4,), got shape {array.shape}")
    return array


def quat_to_mat(quat: ArrayLike) -> np.ndarray:
    """The 4x4 homogeneous transform (zero translation) of the rotation `quat`
    [w, x, y, z], normalised first; the identity if |quat|^2 < 1e-10.

    Raises:
      ValueError: `quat` is not (4,) (dm_control takes no batch).
    """
    q = np.array(_single_quaternion(quat), dtype=np.float64, copy=True)
    norm_squared = np.dot(q, q)
    if norm_squared < _TOL:
        return np.identity(4)
    q *= np.sqrt(2.0 / norm_squared)
    # With q scaled by sqrt(2), outer[a, b] = 2 q_a q_b.
    outer = np.outer(q, q)
    return np.array(
        (
            (
                1.0 - outer[2, 2] - outer[3, 3],
                outer[1, 2] - outer[3, 0],
                outer[1, 3] + outer[2, 0],
                0.0,
            ),
            (
                outer[1, 2] + outer[3, 0],
                1.0 - outer[1, 1] - outer[3, 3],
                outer[2, 3] - outer[1, 0],
                0.0,
            ),
            (
                outer[1, 3] - outer[2, 0],
                outer[2, 3] + outer[1, 0],
                1.0 - outer[1, 1] - outer[2, 2],
                0.0,
            ),
            (0.0, 0.0, 0.0, 1.0),
        ),
        dtype=np.float64,
    )


def euler_to_quat(euler_vec: ArrayLike, ordering: str = "XYZ") -> np.ndarray:
    """The quaternion [w, x, y, z] of (3,) Euler angles (radians): `mat_to_quat` of
    `euler_to_rmat(euler_vec, ordering)`."""
    return mat_to_quat(euler_to_rmat(euler_vec, ordering=ordering))


def quat_to_euler(quat: ArrayLike, ordering: str = "XYZ") -> np.ndarray:
    """The (3,) Euler angles (radians) of `quat` [w, x, y, z]: `rmat_to_euler` of
    its rotation matrix."""
    return rmat_to_euler(quat_to_mat(quat)[0:3, 0:3], ordering=ordering)


def quat_conj(quat: ArrayLike) -> np.ndarray:
    """The conjugate [w, -x, -y, -z] as float64, on the last axis (leading axes are
    a batch); the inverse rotation of a unit quaternion."""
    q = np.asarray(quat)
    return np.stack([q[..., 0], -q[..., 1], -q[..., 2], -q[..., 3]], axis=-1).astype(np.float64)


def quat_inv(quat: ArrayLike) -> np.ndarray:
    """The inverse conj(q) / |q|^2 on the last axis (leading axes are a batch)."""
    q = np.asarray(quat)
    return quat_conj(q) / np.sum(q * q, axis=-1, keepdims=True)


# quat_mul's left factor as a matrix: row r of L(q1) @ q2 is component r of the
# Hamilton product. Entries are (component of q1, sign).
_LEFT_PRODUCT_INDEX = np.array([[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 0, 1], [3, 2, 1, 0]])
_LEFT_PRODUCT_SIGN = np.array([[1, -1, -1, -1], [1, 1, -1, 1], [1, 1, 1, -1], [1, -1, 1, 1]])
_LEFT_PRODUCT_INDEX.flags.writeable = False
_LEFT_PRODUCT_SIGN.flags.writeable = False


def quat_mul(quat1: ArrayLike, quat2: ArrayLike) -> np.ndarray:
    """The Hamilton product quat1 * quat2 on the last axis; leading axes broadcast.

    Integer inputs give an integer product, as in dm_control."""
    left = np.asarray(quat1)
    right = np.asarray(quat2)
    # Same arithmetic as dm_control's (a matrix product with the left factor's
    # matrix), so results agree bit for bit.
    left_matrix = left[..., _LEFT_PRODUCT_INDEX] * _LEFT_PRODUCT_SIGN
    return (left_matrix @ right[..., None])[..., 0]


def quat_diff(source: ArrayLike, target: ArrayLike) -> np.ndarray:
    """The rotation from `source` to `target`, conj(source) * target (not normalised;
    leading axes are a batch)."""
    return quat_mul(quat_conj(source), target)


def quat_log(quat: ArrayLike, tol: float = _TOL) -> np.ndarray:
    """The quaternion logarithm [log|q|, v] on the last axis (leading axes are a
    batch), where v is the unit vector part times arccos(w) / |q| (for a unit
    quaternion, half the rotation vector). `tol` is added inside the norms and
    subtracted from w before arccos, as dm_control does, to keep the result finite
    at the identity.

    Raises:
      ValueError (also a TypeError, the type dm_control raises): w - tol lies
        outside [-1, 1] by more than 2 * tol.
    """
    q = np.asarray(quat)
    norm = np.linalg.norm(q + tol, axis=-1, keepdims=True)
    scalar = q[..., 0:1]
    vector = np.stack([q[..., 1], q[..., 2], q[..., 3]], axis=-1)
    half_angle = np.arccos(_clip_within_precision(scalar - tol, -1.0, 1.0, precision=2.0 * tol))
    scaled = vector / np.linalg.norm(vector + tol, axis=-1, keepdims=True) * half_angle / norm
    return np.stack([np.log(norm[..., 0]), scaled[..., 0], scaled[..., 1], scaled[..., 2]], axis=-1)


def quat_dist(source: ArrayLike, target: ArrayLike) -> np.ndarray:
    """The rotational distance between unit quaternions: |log(source * target^-1)|,
    shape (..., 1) (leading axes are a batch)."""
    product = quat_mul(source, quat_inv(target))
    product /= np.linalg.norm(product, axis=-1, keepdims=True)
    return np.linalg.norm(quat_log(product), axis=-1, keepdims=True)


def quat_rotate(quat: ArrayLike, vec: ArrayLike) -> np.ndarray:
    """The (3,) vector `vec` rotated by `quat` [w, x, y, z]: q * [0, vec] * conj(q).

    Raises:
      ValueError: `quat` is not (4,) or `vec` not (3,) (dm_control takes no batch).
    """
    q = _single_quaternion(quat)
    vector = np.asarray(vec)
    if vector.shape != (3,):
        raise ValueError(f"vec must have shape (3,), got {vector.shape}")
    pure = np.hstack([[0], vector])
    return quat_mul(quat_mul(q, pure), quat_conj(q))[1:]


def quat_to_axisangle(quat: ArrayLike) -> np.ndarray:
    """The (3,) rotation vector (unit axis times angle, the angle wrapped into
    [-pi, pi)) of a unit quaternion; zeros when the angle is below 1e-10.

    Raises:
      ValueError: w lies outside [-1, 1] by more than 1e-10, or `quat` is not (4,)
        (dm_control takes no batch).
    """
    q = _single_quaternion(quat)
    angle = 2 * np.arccos(_clip_within_precision(q[0], -1.0, 1.0))
    if angle < _TOL:
        return np.zeros(3)
    half_sine = np.sin(angle / 2)
    wrapped = (angle + np.pi) % (2 * np.pi) - np.pi
    return q[1:4] / half_sine * wrapped


def axisangle_to_quat(axisangle: ArrayLike, tol: float = 0.0) -> np.ndarray:
    """The quaternion [w, x, y, z] of a rotation vector (axis times angle in
    radians, on the last axis; leading axes are a batch). An angle at most `tol`
    gives the identity."""
    vector = np.asarray(axisangle)
    angle = np.linalg.norm(vector, axis=-1, keepdims=True)
    small = angle <= tol
    with np.errstate(divide="ignore", invalid="ignore"):
        axis = np.where(small, [1.0, 0.0, 0.0], vector / angle)
    angle = np.where(small, [0.0], angle)
    return np.concatenate([np.cos(angle / 2), axis * np.sin(angle / 2)], axis=-1)


def rotation_matrix_2d(theta: ArrayLike) -> np.ndarray:
    """The 2x2 rotation by `theta` radians, [[cos, -sin], [sin, cos]]; for an array
    of angles the angle axes come last, (2, 2, ...), as in dm_control."""
    cos = np.cos(theta)
    sin = np.sin(theta)
    return np.array([[cos, -sin], [sin, cos]])
