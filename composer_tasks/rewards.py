"""Soft indicator rewards: `tolerance` is 1 inside an interval and decays outside it.

The sigmoid shapes are those of the dm_control paper (Tassa, Tunyasuvunakool,
Muldal et al., 2020, "dm_control: Software and Tasks for Continuous Control",
arXiv:2006.12983, Fig. 3): every sigmoid is 1 at distance 0 from the interval
and is scaled so that it equals `value_at_margin` at distance `margin`.
"""

import functools
import math
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, Optional, overload

import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import array_namespace

_DEFAULT_VALUE_AT_MARGIN = 0.1
_FLOAT64 = np.dtype(np.float64)
_REAL_SCALARS = (int, float, np.integer, np.floating)
# Arrays of up to this many entries are computed entry by entry in Python floats
# (measured: faster than the array path up to about 5 entries).
_FEW_ENTRIES = 5


# Every sigmoid is shape(d * scale(v)) for the normalised distance d >= 0 and
# v = value_at_margin; the scale depends on v only and is computed once per v.
# Squares are products, not `** 2`: for a scalar, `** 2` goes through the C
# library's pow, for an array numpy squares exactly, and the two differ in the
# last bit on some inputs; batched and single rewards must agree bit for bit. For
# the same reason the float versions (for scalar rewards, where numpy's per-call
# overhead is most of the cost) do the arithmetic of the array versions in the
# same order, and call numpy for the transcendental functions. The array versions
# take the array namespace (`composer_tasks.array_namespace`): NumPy, or JAX's
# NumPy for a device batch's arrays.
# The in-place versions (for the NumPy fast path, `_ArrayPlan`) do the array versions'
# operations in their order on one float64 array, writing each result over its
# operand; their constants are read-only 0-d arrays, which NumPy takes without the
# conversion that a Python float costs on every call (the values, and so the bits,
# are the same).
class _Sigmoid:
    __slots__ = ("scale", "of_array", "of_float", "in_place", "zero_allowed")

    def __init__(
        self,
        scale: Callable[[float], Any],
        of_array: Callable[[Any, ModuleType], Any],
        of_float: Callable[[float], float],
        in_place: Callable[[np.ndarray], None],
        zero_allowed: bool,
    ) -> None:
        self.scale = scale
        self.of_array = of_array
        self.of_float = of_float
        self.in_place = in_place
        self.zero_allowed = zero_allowed


def _constant(value: float) -> np.ndarray:
    """A read-only 0-d float64 array."""
    array = np.array(value, dtype=np.float64)
    array.flags.writeable = False
    return array


_ZERO, _HALF, _MINUS_HALF, _ONE, _PI = map(_constant, (0.0, 0.5, -0.5, 1.0, np.pi))


def _cosine_of_array(s: Any, xp: ModuleType) -> Any:
    # Clipping at 1 keeps the curve at its minimum (0) past the half period
    # instead of rising again.
    # fmin: a NaN argument is past the half period too (0, as dm_control's
    # np.where(abs(s) < 1, ..., 0.0) gives it).
    return 0.5 * (1.0 + xp.cos(xp.pi * xp.fmin(s, 1.0)))


def _cosine_of_float(s: float) -> float:
    return 0.5 * (1.0 + float(np.cos(np.pi * (s if s < 1.0 else 1.0))))


def _tanh_squared_of_array(s: Any, xp: ModuleType) -> Any:
    hyperbolic_tangent = xp.tanh(s)
    return 1.0 - hyperbolic_tangent * hyperbolic_tangent


def _tanh_squared_of_float(s: float) -> float:
    hyperbolic_tangent = float(np.tanh(s))
    return 1.0 - hyperbolic_tangent * hyperbolic_tangent


def _gaussian_in_place(s: np.ndarray) -> None:
    np.multiply(s, s, s)
    np.multiply(_MINUS_HALF, s, s)
    np.exp(s, s)


def _hyperbolic_in_place(s: np.ndarray) -> None:
    np.cosh(s, s)
    np.divide(_ONE, s, s)


def _long_tail_in_place(s: np.ndarray) -> None:
    np.multiply(s, s, s)
    np.add(s, _ONE, s)
    np.divide(_ONE, s, s)


def _reciprocal_in_place(s: np.ndarray) -> None:
    np.add(s, _ONE, s)
    np.divide(_ONE, s, s)


def _cosine_in_place(s: np.ndarray) -> None:
    np.fmin(s, _ONE, out=s)
    np.multiply(_PI, s, s)
    np.cos(s, s)
    np.add(_ONE, s, s)
    np.multiply(_HALF, s, s)


def _linear_in_place(s: np.ndarray) -> None:
    np.subtract(_ONE, s, s)
    np.fmax(s, _ZERO, out=s)


def _quadratic_in_place(s: np.ndarray) -> None:
    np.multiply(s, s, s)
    np.subtract(_ONE, s, s)
    np.fmax(s, _ZERO, out=s)


def _tanh_squared_in_place(s: np.ndarray) -> None:
    np.tanh(s, s)
    np.multiply(s, s, s)
    np.subtract(_ONE, s, s)


# Sigmoids with compact support reach exactly 0 at a finite distance, so they
# accept value_at_margin == 0; the others only approach 0 asymptotically.
_SIGMOIDS = {
    "gaussian": _Sigmoid(
        lambda v: np.sqrt(-2.0 * np.log(v)),
        lambda s, xp: xp.exp(-0.5 * (s * s)),
        lambda s: float(np.exp(-0.5 * (s * s))),
        _gaussian_in_place,
        False,
    ),
    "hyperbolic": _Sigmoid(
        lambda v: np.arccosh(1.0 / v),
        lambda s, xp: 1.0 / xp.cosh(s),
        lambda s: 1.0 / float(np.cosh(s)),
        _hyperbolic_in_place,
        False,
    ),
    "long_tail": _Sigmoid(
        lambda v: np.sqrt(1.0 / v - 1.0),
        lambda s, xp: 1.0 / (s * s + 1.0),
        lambda s: 1.0 / (s * s + 1.0),
        _long_tail_in_place,
        False,
    ),
    "reciprocal": _Sigmoid(
        lambda v: 1.0 / v - 1.0,
        lambda s, xp: 1.0 / (s + 1.0),
        lambda s: 1.0 / (s + 1.0),
        _reciprocal_in_place,
        False,
    ),
    "cosine": _Sigmoid(
        lambda v: np.arccos(2.0 * v - 1.0) / np.pi,
        _cosine_of_array,
        _cosine_of_float,
        _cosine_in_place,
        True,
    ),
    "linear": _Sigmoid(
        lambda v: 1.0 - v,
        lambda s, xp: xp.fmax(1.0 - s, 0.0),
        lambda s: 1.0 - s if s < 1.0 else 0.0,
        _linear_in_place,
        True,
    ),
    "quadratic": _Sigmoid(
        lambda v: np.sqrt(1.0 - v),
        lambda s, xp: xp.fmax(1.0 - s * s, 0.0),
        lambda s: 1.0 - s * s if s < 1.0 else 0.0,
        _quadratic_in_place,
        True,
    ),
    "tanh_squared": _Sigmoid(
        lambda v: np.arctanh(np.sqrt(1.0 - v)),
        _tanh_squared_of_array,
        _tanh_squared_of_float,
        _tanh_squared_in_place,
        False,
    ),
}

SIGMOIDS = tuple(_SIGMOIDS)


def _real_scalar(value: Any) -> float | None:
    """`float(value)` for a real scalar (or 0-d array), else None."""
    if isinstance(value, _REAL_SCALARS):
        return float(value)
    try:
        return float(value) if np.ndim(value) == 0 else None
    except (TypeError, ValueError):
        return None


# What `_check_arguments` returns: (lower, upper, margin, sigmoid, its scale), the
# bounds and margin as floats, or as float64 arrays where they are not scalars.
_Checked = tuple[Any, Any, Any, _Sigmoid, float]


def _dm_control_error(message: str, detail: str) -> ValueError:
    """A ValueError whose text is dm_control's own for this mistake (`str(error)`, which
    code ported from dm_control may match), with `detail` naming the argument and its
    value as a note (shown in tracebacks)."""
    error = ValueError(message)
    add_note = getattr(error, "add_note", None)
    if add_note is not None:
        add_note(detail)
    else:  # Python 3.10, before PEP 678: the detail cannot be shown beside the message.
        error.args = (f"{message} ({detail})",)
    return error


def _check_arguments(bounds: Any, margin: Any, sigmoid: Any, value_at_margin: Any) -> _Checked:
    try:
        lower, upper = bounds
    except (TypeError, ValueError):
        raise ValueError(f"bounds must be a pair (lower, upper), got {bounds!r}.") from None
    if isinstance(lower, _REAL_SCALARS) and isinstance(upper, _REAL_SCALARS):
        lower, upper = float(lower), float(upper)
        invalid = math.isnan(lower) or math.isnan(upper)
        reversed_ = lower > upper
    elif array_namespace.is_jax(lower) or array_namespace.is_jax(upper):
        # JAX bounds (a device batch's per-copy sizes) may be traced under jax.jit,
        # where their values cannot be read: only their kind is checked.
        lower, upper = _jax_operand(lower, "bounds", bounds), _jax_operand(upper, "bounds", bounds)
        invalid = reversed_ = False
    else:
        try:
            lower = np.asarray(lower, dtype=np.float64)
            upper = np.asarray(upper, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"bounds must hold real numbers, got {bounds!r}.") from None
        invalid = np.isnan(lower).any() or np.isnan(upper).any()
        reversed_ = np.any(lower > upper)
    if invalid:
        raise ValueError(f"bounds must not contain NaN, got {bounds!r}.")
    if reversed_:
        raise _dm_control_error(
            "Lower bound must be <= upper bound.",
            f"bounds must satisfy lower <= upper, got lower={bounds[0]!r}, upper={bounds[1]!r}.",
        )
    if array_namespace.is_jax(margin):
        margin_value = margin  # Per-copy margins on a device: values unchecked, as bounds.
    else:
        margin_value = _real_scalar(margin)
    if margin_value is None:
        # Per-entry margins (e.g. one target size per batched copy).
        try:
            margin_value = np.asarray(margin, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"margin must be a real scalar or array, got {margin!r}.") from None
    # dm_control refuses a negative margin only; an infinite one scales every
    # finite distance to 0 (1 everywhere, NaN or 0 at infinite x, as there). NaN
    # is refused here, where dm_control would give NaN outside the bounds.
    if not array_namespace.is_jax(margin_value) and not np.all(0.0 <= margin_value):
        detail = f"margin must be non-negative, got {margin!r}."
        if np.any(margin_value < 0.0):
            raise _dm_control_error("`margin` must be non-negative.", detail)
        raise ValueError(detail)
    if isinstance(margin_value, float) and margin_value == 0.0:
        # dm_control never looks at the sigmoid or value_at_margin of a zero margin
        # (the output is a step); nor does anything here.
        return lower, upper, 0.0, _SIGMOIDS["gaussian"], 1.0
    if not isinstance(sigmoid, str) or sigmoid not in _SIGMOIDS:
        detail = f"sigmoid must be one of {SIGMOIDS}, got {sigmoid!r}."
        if isinstance(sigmoid, str):
            raise _dm_control_error(f"Unknown sigmoid type {sigmoid!r}.", detail)
        raise ValueError(detail)
    shape = _SIGMOIDS[sigmoid]
    zero_allowed = shape.zero_allowed
    v = _real_scalar(value_at_margin)
    if v is None:
        raise ValueError(f"value_at_margin must be a real scalar, got {value_at_margin!r}.")
    if zero_allowed:
        if not 0.0 <= v < 1.0:
            raise _dm_control_error(
                f"`value_at_1` must be nonnegative and smaller than 1, got {value_at_margin}.",
                f"value_at_margin must be in [0, 1) for sigmoid {sigmoid!r}, "
                f"got {value_at_margin!r}.",
            )
    elif not 0.0 < v < 1.0:
        raise _dm_control_error(
            f"`value_at_1` must be strictly between 0 and 1, got {value_at_margin}.",
            f"value_at_margin must be in (0, 1) for sigmoid {sigmoid!r}, got {value_at_margin!r}.",
        )
    return lower, upper, margin_value, shape, float(shape.scale(v))


def _jax_operand(value: Any, name: str, given: Any) -> Any:
    """A bound given beside a JAX array, as a JAX array or a float."""
    if array_namespace.is_jax(value):
        return value
    scalar = _real_scalar(value)
    if scalar is None:
        raise ValueError(f"{name} must hold real numbers, got {given!r}.")
    return scalar


def _scalar_tolerance(
    x: float, lower: float, upper: float, margin: float, shape: _Sigmoid, scale: float
) -> float:
    # Rewards are mostly computed from scalars every control step; plain
    # float arithmetic avoids the array machinery's overhead. A NaN x is outside
    # the bounds at a NaN distance, as in dm_control: 0 with a zero margin, else
    # the sigmoid of NaN (NaN, or 0 for the sigmoids of compact support).
    if lower <= x <= upper:
        return 1.0
    if margin == 0.0:
        return 0.0
    distance = lower - x if x < lower else x - upper
    return shape.of_float(distance / margin * scale)


@overload
def tolerance(
    x: float,
    bounds: tuple[float, float] = ...,
    margin: float = ...,
    sigmoid: str = ...,
    value_at_margin: float = ...,
) -> float: ...


@overload
def tolerance(
    x: ArrayLike,
    bounds: Sequence[ArrayLike] | np.ndarray = ...,
    margin: ArrayLike = ...,
    sigmoid: str = ...,
    value_at_margin: float = ...,
) -> float | np.ndarray: ...


def tolerance(
    x: ArrayLike,
    bounds: Sequence[ArrayLike] | np.ndarray = (0.0, 0.0),
    margin: ArrayLike = 0.0,
    sigmoid: str = "gaussian",
    value_at_margin: float = _DEFAULT_VALUE_AT_MARGIN,
) -> float | np.ndarray:
    """Returns 1 where `x` lies inside `bounds`, decaying towards 0 outside.

    Args:
      x: A scalar or array-like of any shape, in the same units as `bounds`.
      bounds: `(lower, upper)`, inclusive. Either may be infinite (one-sided
        interval) and they may be equal (an exact target). Each may also be an
        array that broadcasts against `x`.
      margin: Non-negative distance, in the units of `x`, over which
        the output falls from 1 to `value_at_margin` (a scalar, or an array
        broadcasting against `x`, e.g. one per batched copy). With `margin == 0` the
        output is a step: 1 inside the bounds, 0 outside. An infinite margin
        gives 1 at every finite `x`.
      sigmoid: Shape of the decay, one of `SIGMOIDS`: 'gaussian',
        'hyperbolic', 'long_tail', 'reciprocal', 'cosine', 'linear',
        'quadratic', 'tanh_squared'.
      value_at_margin: The output at distance `margin` from the nearest bound.
        Must lie in (0, 1), or in [0, 1) for 'cosine', 'linear' and
        'quadratic', which reach 0 at a finite distance. As in dm_control,
        neither it nor `sigmoid` is looked at (or checked) when `margin` is a
        scalar 0.

    Returns:
      A Python float when `x` is a scalar (Python or NumPy), otherwise a float64
      NumPy array of `x`'s shape (0-d for a 0-d array; broadcast with the
      bounds), with values in [0, 1], as dm_control's. A NaN entry of `x` is
      outside the bounds at a NaN distance, as there: 0 with a zero margin,
      else the sigmoid's value at NaN (NaN; 0 for 'cosine', 'linear' and
      'quadratic'). When `x`, the bounds or the margin is a JAX array, a JAX array
      of `x`'s floating dtype (float32 unless JAX runs in x64), computed with
      `jax.numpy` and traceable under `jax.jit`; the values of JAX bounds and
      margins are not checked (they may be traced).

    Raises:
      ValueError: if `bounds` is not a pair or has lower > upper or NaN,
        `margin` is negative or NaN, `sigmoid` is unknown, or
        `value_at_margin` is outside the valid range for `sigmoid`.
    """
    if type(x) is np.ndarray and x.dtype is _FLOAT64 and x.size > _FEW_ENTRIES:
        # A float64 array with the constant arguments that rewards pass every step.
        try:
            plan = _ARRAY_PLANS[(bounds, margin, sigmoid, value_at_margin)]
        except KeyError:
            plan = _array_plan(bounds, margin, sigmoid, value_at_margin)
        except TypeError:  # Unhashable arguments (array bounds or margins).
            plan = None
        if plan is not None:
            return plan(x)
    lower, upper, checked_margin, shape, scale = _checked_arguments(
        bounds, margin, sigmoid, value_at_margin
    )
    scalar_margin = isinstance(checked_margin, float)
    scalar_bounds = isinstance(lower, float) and scalar_margin
    if scalar_bounds:
        if isinstance(x, float):  # Python floats and np.float64
            return _scalar_tolerance(float(x), lower, upper, checked_margin, shape, scale)
        if type(x) is np.ndarray and x.dtype == np.float64:
            if x.ndim == 0:
                # A 0-d array is no scalar to dm_control (`np.isscalar`): it gets
                # a 0-d array back.
                return np.array(
                    _scalar_tolerance(float(x), lower, upper, checked_margin, shape, scale)
                )
            if x.size <= _FEW_ENTRIES:
                # Small arrays (a few actuators or joints) are common in rewards;
                # entry by entry, the scalar path gives the same bits (tested) in a
                # fraction of the time of the array path's dozen ufunc calls.
                return np.array(
                    [
                        _scalar_tolerance(entry, lower, upper, checked_margin, shape, scale)
                        for entry in x.ravel().tolist()
                    ]
                ).reshape(x.shape)
        elif isinstance(x, _REAL_SCALARS):
            return _scalar_tolerance(float(x), lower, upper, checked_margin, shape, scale)
    if (
        isinstance(lower, (float, np.ndarray))
        and isinstance(upper, (float, np.ndarray))
        and isinstance(checked_margin, (float, np.ndarray))
        and (type(x) is np.ndarray or not array_namespace.is_jax(x))
    ):
        return_float = not isinstance(x, np.ndarray)
        value = _array_tolerance(
            np, np.asarray(x, dtype=np.float64), lower, upper, checked_margin, shape, scale
        )
        if return_float and value.shape == ():
            return float(value)
        # NumPy's arithmetic on 0-d arrays gives NumPy numbers; dm_control gives a
        # 0-d array for any x that is not a scalar.
        return value if type(value) is np.ndarray else np.asarray(value)
    # A JAX operand: the result is a JAX array, computed without leaving JAX.
    xp = array_namespace.namespace(x, lower, upper, checked_margin)
    operand: Any = xp.asarray(x)
    if not xp.issubdtype(operand.dtype, xp.floating):
        operand = operand.astype(xp.result_type(float))
    return _array_tolerance(xp, operand, lower, upper, checked_margin, shape, scale)


def _array_tolerance(
    xp: ModuleType, x: Any, lower: Any, upper: Any, margin: Any, shape: _Sigmoid, scale: float
) -> Any:
    """`tolerance` of an array of the namespace `xp` (a float64 NumPy array, or a
    JAX array of a floating dtype), with checked arguments."""
    scalar_margin = isinstance(margin, float)
    scalar_bounds = isinstance(lower, float) and isinstance(upper, float) and scalar_margin
    # Distance to the interval, 0 inside; NaN entries of x stay NaN throughout.
    # Exact targets and one-sided intervals, the common cases, take fewer ufunc
    # calls for the same bits (an infinite x inside an interval with infinite
    # ends is at distance 0, as on the scalar path).
    if scalar_bounds and lower == upper and math.isfinite(lower):
        distance = xp.abs(x - lower) if lower != 0.0 else xp.abs(x)
    elif scalar_bounds and lower == -math.inf and upper == math.inf:
        distance = xp.where(xp.isnan(x), xp.nan, 0.0)
    elif scalar_bounds and upper == math.inf:
        distance = xp.maximum(lower - x, 0.0)
    elif scalar_bounds and lower == -math.inf:
        distance = xp.maximum(x - upper, 0.0)
    else:
        distance = xp.maximum(lower - x, 0.0) + xp.maximum(x - upper, 0.0)
    if scalar_margin and margin == 0.0:
        # 1 in the bounds, else 0 (a NaN x too, as in dm_control).
        return xp.where(distance == 0.0, 1.0, 0.0)
    if scalar_margin:
        # Every sigmoid is exactly 1 at distance 0, so inside entries need no mask.
        return shape.of_array(distance / margin * scale, xp)
    step = xp.where(distance == 0.0, 1.0, 0.0)
    positive = margin > 0.0
    # Where the margin is 0 the division is by 1, and its result unused.
    scaled = xp.where(positive, distance / xp.where(positive, margin, 1.0), 0.0)
    return xp.where(positive, shape.of_array(scaled * scale, xp), step)


class _ArrayPlan:
    """`_array_tolerance` on NumPy for one set of scalar arguments, bit for bit: the
    same operations in the same order, each written over its operand in the one new
    array returned (the general path makes a new array per operation), with 0-d
    constants. Only NumPy's native float64 arrays come here (their dtype is one
    object); an in-place ufunc whose output is its input takes NumPy's same loops
    (aliasing is not overlap), so the bits do not depend on the path (tested over
    random inputs with NaN, infinities, signed zeros and the bounds exactly)."""

    __slots__ = ("_distance", "_margin", "_scale", "_sigmoid")

    def __init__(self, lower: float, upper: float, margin: float, shape: _Sigmoid, scale: float):
        # The distance to the interval, as `_array_tolerance`'s branches compute it.
        distance: Callable[[np.ndarray], np.ndarray]
        if lower == upper and math.isfinite(lower):
            distance = (
                functools.partial(_distance_to_target, _constant(lower))
                if lower != 0.0
                else np.absolute
            )
        elif lower == -math.inf and upper == math.inf:
            distance = _distance_to_everything
        elif upper == math.inf:
            distance = functools.partial(_distance_below, _constant(lower))
        elif lower == -math.inf:
            distance = functools.partial(_distance_above, _constant(upper))
        else:
            distance = functools.partial(_distance_outside, _constant(lower), _constant(upper))
        self._distance = distance
        self._margin = _constant(margin) if margin != 0.0 else None
        self._scale = _constant(scale)
        self._sigmoid = shape.in_place

    def __call__(self, x: np.ndarray) -> np.ndarray:
        value = self._distance(x)
        margin = self._margin
        if margin is None:
            return _step_of_distance(value)
        np.divide(value, margin, value)
        np.multiply(value, self._scale, value)
        self._sigmoid(value)
        return value


def _distance_to_target(target: np.ndarray, x: np.ndarray) -> np.ndarray:
    distance = np.subtract(x, target)
    np.absolute(distance, distance)
    return distance


def _distance_to_everything(x: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(x), np.nan, 0.0)


def _distance_below(lower: np.ndarray, x: np.ndarray) -> np.ndarray:
    distance = np.subtract(lower, x)
    np.maximum(distance, _ZERO, out=distance)
    return distance


def _distance_above(upper: np.ndarray, x: np.ndarray) -> np.ndarray:
    distance = np.subtract(x, upper)
    np.maximum(distance, _ZERO, out=distance)
    return distance


def _distance_outside(lower: np.ndarray, upper: np.ndarray, x: np.ndarray) -> np.ndarray:
    distance = _distance_below(lower, x)
    np.add(distance, _distance_above(upper, x), distance)
    return distance


def _step_of_distance(distance: np.ndarray) -> np.ndarray:
    """`_array_tolerance` on NumPy with a zero margin: 1 at distance 0, else 0 (a NaN
    distance too, as dm_control's `np.where(in_bounds, 1.0, 0.0)` gives it)."""
    return np.where(distance == 0.0, 1.0, 0.0)


# Plans by the arguments as given (None where the checked bounds or margin are not
# scalars); as `_CHECKED`, bounded in size.
_ARRAY_PLANS: dict[tuple, Optional[_ArrayPlan]] = {}


def _array_plan(
    bounds: Any, margin: Any, sigmoid: Any, value_at_margin: Any
) -> Optional[_ArrayPlan]:
    """The plan for hashable arguments, checked (raising as `tolerance` does), and kept."""
    lower, upper, checked_margin, shape, scale = _checked_arguments(
        bounds, margin, sigmoid, value_at_margin
    )
    plan = None
    if isinstance(lower, float) and isinstance(upper, float) and isinstance(checked_margin, float):
        plan = _ArrayPlan(lower, upper, checked_margin, shape, scale)
    if len(_ARRAY_PLANS) < 4096:
        _ARRAY_PLANS[(bounds, margin, sigmoid, value_at_margin)] = plan
    return plan


_CHECKED: dict[tuple, _Checked] = {}


def _checked_arguments(bounds: Any, margin: Any, sigmoid: Any, value_at_margin: Any) -> _Checked:
    """`_check_arguments`, remembered for hashable (scalar) arguments: rewards call
    tolerance with the same constants every step."""
    try:
        return _CHECKED[(bounds, margin, sigmoid, value_at_margin)]
    except (KeyError, TypeError):
        pass
    # Quantities indexed with a leading ellipsis (to serve one copy or a batch)
    # come as 0-d arrays; as numbers they are hashable and take the scalar path.
    if isinstance(margin, np.ndarray) and margin.ndim == 0:
        margin = float(margin)
    if type(bounds) is tuple and len(bounds) == 2:
        lower, upper = bounds
        if type(lower) is np.ndarray and lower.ndim == 0:
            lower = float(lower)
        if type(upper) is np.ndarray and upper.ndim == 0:
            upper = float(upper)
        bounds = (lower, upper)
    else:
        try:
            bounds = tuple(
                float(bound) if isinstance(bound, np.ndarray) and bound.ndim == 0 else bound
                for bound in bounds
            )
        except TypeError:
            pass  # Not a sequence: _check_arguments names the problem.
    try:
        key = (tuple(bounds), margin, sigmoid, value_at_margin)
        checked = _CHECKED.get(key)
    except TypeError:  # Array bounds are not hashable: check them every time.
        return _check_arguments(bounds, margin, sigmoid, value_at_margin)
    if checked is None:
        checked = _check_arguments(bounds, margin, sigmoid, value_at_margin)
        if len(_CHECKED) < 4096:
            _CHECKED[key] = checked
    return checked
