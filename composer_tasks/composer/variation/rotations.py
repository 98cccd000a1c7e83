"""Rotation variations. Quaternions are MuJoCo's (w, x, y, z); angles radians.

The products use MuJoCo's own quaternion routines (`mju_mulQuat`,
`mju_axisAngle2Quat`, `mju_rotVecQuat`), so the conventions are exactly the
simulator's: `QuaternionPreMultiply(q)` turns an orientation `p` (child frame
to parent frame) into `q * p`, i.e. applies `q` after `p`, in the parent frame.
"""

from __future__ import annotations

from typing import Any

import mujoco
import numpy as np

from composer_tasks.composer.variation import base
from composer_tasks.composer.variation.base import Parameter, RandomStateLike

IDENTITY_QUATERNION = np.array([1.0, 0.0, 0.0, 0.0])


def _vector(value: Any, size: int, name: str, variation: base.Variation) -> np.ndarray:
    array = np.asarray(value, dtype=np.float64)
    if array.shape != (size,) or not np.all(np.isfinite(array)):
        raise ValueError(f"{variation!r}: {name} must be {size} finite floats, got {value!r}.")
    return array


def _unit_quaternion(value: Any, name: str, variation: base.Variation) -> np.ndarray:
    quat = _vector(value, 4, name, variation)
    norm = np.linalg.norm(quat)
    if norm == 0.0:
        raise ValueError(
            f"{variation!r}: {name} must be a non-zero quaternion (w, x, y, z), got {value!r}."
        )
    return quat / norm


def _base_value(
    variation: base.Variation, cumulative: bool, initial_value: Any, current_value: Any, name: str
) -> Any:
    value = current_value if cumulative else initial_value
    if value is None:
        which = "current_value" if cumulative else "initial_value"
        raise ValueError(f"{variation!r} needs the {name} to rotate as {which}, got None.")
    return value


class UniformQuaternion(base.Variation):
    """Unit quaternions uniformly distributed over rotations (Haar measure), drawn
    as dm_control draws them: three uniforms u1 in [0, 1), u2, u3 in [0, 2 pi)
    (one `uniform` call), then (sqrt(1 - u1) sin u2, sqrt(1 - u1) cos u2,
    sqrt(u1) sin u3, sqrt(u1) cos u3) (Shoemake's subgroup algorithm)."""

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> np.ndarray:
        random_state = base.require_random_state(random_state, self)
        u1, u2, u3 = random_state.uniform([0.0] * 3, [1.0, 2.0 * np.pi, 2.0 * np.pi])
        return np.array(
            [
                np.sqrt(1.0 - u1) * np.sin(u2),
                np.sqrt(1.0 - u1) * np.cos(u2),
                np.sqrt(u1) * np.sin(u3),
                np.sqrt(u1) * np.cos(u3),
            ]
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UniformQuaternion)

    def __repr__(self) -> str:
        return "UniformQuaternion()"


class QuaternionFromAxisAngle(base.Variation):
    """The rotation by `angle` radians about `axis` (any non-zero 3-vector).

    Both may be variations; the axis is normalised after evaluation.
    """

    def __init__(self, axis: Parameter, angle: Parameter):
        self._axis = axis
        self._angle = angle

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> np.ndarray:
        axis = _vector(
            base.evaluate(self._axis, initial_value, current_value, random_state), 3, "axis", self
        )
        norm = np.linalg.norm(axis)
        if norm == 0.0:
            raise ValueError(f"{self!r}: axis must be non-zero.")
        angle = base.evaluate(self._angle, initial_value, current_value, random_state)
        if np.ndim(angle) != 0 or not np.isfinite(angle):
            raise ValueError(f"{self!r}: angle must be a finite scalar in radians, got {angle!r}.")
        quat = np.empty(4)
        mujoco.mju_axisAngle2Quat(quat, axis / norm, float(angle))
        return quat

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, QuaternionFromAxisAngle)
            and base.equal(self._axis, other._axis)
            and base.equal(self._angle, other._angle)
        )

    def __repr__(self) -> str:
        return f"QuaternionFromAxisAngle(axis={self._axis!r}, angle={self._angle!r})"


class QuaternionPreMultiply(base.Variation):
    """`quat * q` for the varied quaternion `q` (initial, or current if cumulative).

    `quat` (a quaternion or a variation giving one) is normalised; the result
    is normalised too, so repeated cumulative application does not drift.
    """

    def __init__(self, quat: Parameter, cumulative: bool = False):
        self._quat = quat
        self._cumulative = bool(cumulative)

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> np.ndarray:
        target = _unit_quaternion(
            _base_value(self, self._cumulative, initial_value, current_value, "quaternion"),
            "the varied value",
            self,
        )
        quat = _unit_quaternion(
            base.evaluate(self._quat, initial_value, current_value, random_state), "quat", self
        )
        result = np.empty(4)
        mujoco.mju_mulQuat(result, quat, target)
        return result / np.linalg.norm(result)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, QuaternionPreMultiply)
            and base.equal(self._quat, other._quat)
            and self._cumulative == other._cumulative
        )

    def __repr__(self) -> str:
        return f"QuaternionPreMultiply({self._quat!r}, cumulative={self._cumulative})"


class QuaternionRotate(base.Variation):
    """Rotates a 3-vector by the quaternion `quat`.

    The vector is `vec` if given (a value or variation), else the varied value
    itself (initial, or current if cumulative), e.g. a body's `pos` rotated
    about the parent frame's origin.
    """

    def __init__(self, quat: Parameter, vec: Parameter | None = None, cumulative: bool = False):
        self._quat = quat
        self._vec = vec
        self._cumulative = bool(cumulative)

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> np.ndarray:
        # The quaternion first, then the vector, as dm_control draws them.
        quat = _unit_quaternion(
            base.evaluate(self._quat, initial_value, current_value, random_state), "quat", self
        )
        if self._vec is None:
            vec = _base_value(self, self._cumulative, initial_value, current_value, "vector")
        else:
            vec = base.evaluate(self._vec, initial_value, current_value, random_state)
        vec = _vector(vec, 3, "vec", self)
        result = np.empty(3)
        mujoco.mju_rotVecQuat(result, vec, quat)
        return result

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, QuaternionRotate)
            and base.equal(self._quat, other._quat)
            and base.equal(self._vec, other._vec)
            and self._cumulative == other._cumulative
        )

    def __repr__(self) -> str:
        return f"QuaternionRotate({self._quat!r}, vec={self._vec!r}, cumulative={self._cumulative})"
