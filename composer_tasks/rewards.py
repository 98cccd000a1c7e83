"""Soft indicator rewards: `tolerance` is 1 inside an interval and decays outside it.

The sigmoid shapes are those of the dm_control paper (Tassa, Tunyasuvunakool,
Muldal et al., 2020, "dm_control: Software and Tasks for Continuous Control",
arXiv:2006.12983, Fig. 3): every sigmoid is 1 at distance 0 from the interval
and is scaled so that it equals `value_at_margin` at distance `margin`.
"""

import math

import numpy as np

_DEFAULT_VALUE_AT_MARGIN = 0.1
_REAL_SCALARS = (int, float, np.integer, np.floating)


# Squares are products, not `** 2`: for a scalar, `** 2` goes through the C
# library's pow, for an array numpy squares exactly, and the two differ in the
# last bit on some inputs; batched and single rewards must agree bit for bit.
def _gaussian(d, v):
    scale = np.sqrt(-2.0 * np.log(v))
    scaled = d * scale
    return np.exp(-0.5 * (scaled * scaled))


def _hyperbolic(d, v):
    scale = np.arccosh(1.0 / v)
    return 1.0 / np.cosh(d * scale)


def _long_tail(d, v):
    scale = np.sqrt(1.0 / v - 1.0)
    scaled = d * scale
    return 1.0 / (scaled * scaled + 1.0)


def _reciprocal(d, v):
    scale = 1.0 / v - 1.0
    return 1.0 / (d * scale + 1.0)


def _cosine(d, v):
    scale = np.arccos(2.0 * v - 1.0) / np.pi
    # Clipping at 1 keeps the curve at its minimum (0) past the half period
    # instead of rising again.
    return 0.5 * (1.0 + np.cos(np.pi * np.minimum(d * scale, 1.0)))


def _linear(d, v):
    scale = 1.0 - v
    return np.maximum(1.0 - d * scale, 0.0)


def _quadratic(d, v):
    scale = np.sqrt(1.0 - v)
    scaled = d * scale
    return np.maximum(1.0 - scaled * scaled, 0.0)


def _tanh_squared(d, v):
    scale = np.arctanh(np.sqrt(1.0 - v))
    hyperbolic_tangent = np.tanh(d * scale)
    return 1.0 - hyperbolic_tangent * hyperbolic_tangent


# name -> (function of (normalised distance >= 0, value_at_margin),
#          whether value_at_margin == 0 is allowed).
# Sigmoids with compact support reach exactly 0 at a finite distance, so they
# accept value_at_margin == 0; the others only approach 0 asymptotically.
_SIGMOIDS = {
    "gaussian": (_gaussian, False),
    "hyperbolic": (_hyperbolic, False),
    "long_tail": (_long_tail, False),
    "reciprocal": (_reciprocal, False),
    "cosine": (_cosine, True),
    "linear": (_linear, True),
    "quadratic": (_quadratic, True),
    "tanh_squared": (_tanh_squared, False),
}

SIGMOIDS = tuple(_SIGMOIDS)


def _real_scalar(value):
    """`float(value)` for a real scalar (or 0-d array), else None."""
    if isinstance(value, _REAL_SCALARS):
        return float(value)
    try:
        return float(value) if np.ndim(value) == 0 else None
    except (TypeError, ValueError):
        return None


def _check_arguments(bounds, margin, sigmoid, value_at_margin):
    try:
        lower, upper = bounds
    except (TypeError, ValueError):
        raise ValueError(
            f"bounds must be a pair (lower, upper), got {bounds!r}.") from None
    if isinstance(lower, _REAL_SCALARS) and isinstance(upper, _REAL_SCALARS):
        lower, upper = float(lower), float(upper)
        invalid = math.isnan(lower) or math.isnan(upper)
        reversed_ = lower > upper
    else:
        try:
            lower = np.asarray(lower, dtype=np.float64)
            upper = np.asarray(upper, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(
                f"bounds must hold real numbers, got {bounds!r}.") from None
        invalid = np.isnan(lower).any() or np.isnan(upper).any()
        reversed_ = np.any(lower > upper)
    if invalid:
        raise ValueError(f"bounds must not contain NaN, got {bounds!r}.")
    if reversed_:
        raise ValueError(
            f"bounds must satisfy lower <= upper, got lower={bounds[0]!r}, "
            f"upper={bounds[1]!r}.")
    margin_value = _real_scalar(margin)
    if margin_value is None:
        # Per-entry margins (e.g. one target size per batched copy).
        try:
            margin_value = np.asarray(margin, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(
                f"margin must be a real scalar or array, got {margin!r}.") from None
    if not np.all((0.0 <= margin_value) & (margin_value < np.inf)):
        raise ValueError(
            f"margin must be non-negative and finite, got {margin!r}.")
    if not isinstance(sigmoid, str) or sigmoid not in _SIGMOIDS:
        raise ValueError(
            f"sigmoid must be one of {SIGMOIDS}, got {sigmoid!r}.")
    fn, zero_allowed = _SIGMOIDS[sigmoid]
    v = _real_scalar(value_at_margin)
    if v is None:
        raise ValueError(
            f"value_at_margin must be a real scalar, got {value_at_margin!r}.")
    if zero_allowed:
        if not 0.0 <= v < 1.0:
            raise ValueError(
                f"value_at_margin must be in [0, 1) for sigmoid {sigmoid!r}, "
                f"got {value_at_margin!r}.")
    elif not 0.0 < v < 1.0:
        raise ValueError(
            f"value_at_margin must be in (0, 1) for sigmoid {sigmoid!r}, "
            f"got {value_at_margin!r}.")
    return lower, upper, margin_value, fn, v


def _scalar_tolerance(x, lower, upper, margin, fn, v):
    # Rewards are mostly computed from scalars every control step; plain
    # float arithmetic avoids the array machinery's overhead.
    if math.isnan(x):
        return math.nan
    if lower <= x <= upper:
        return 1.0
    if margin == 0.0:
        return 0.0
    distance = lower - x if x < lower else x - upper
    return float(fn(distance / margin, v))


def tolerance(x, bounds=(0.0, 0.0), margin=0.0, sigmoid="gaussian",
              value_at_margin=_DEFAULT_VALUE_AT_MARGIN):
    """Returns 1 where `x` lies inside `bounds`, decaying towards 0 outside.

    Args:
      x: A scalar or array-like of any shape, in the same units as `bounds`.
      bounds: `(lower, upper)`, inclusive. Either may be infinite (one-sided
        interval) and they may be equal (an exact target). Each may also be an
        array that broadcasts against `x`.
      margin: Non-negative distance, in the units of `x`, over which
        the output falls from 1 to `value_at_margin` (a scalar, or an array
        broadcasting against `x`, e.g. one per batched copy). With `margin == 0` the
        output is a step: 1 inside the bounds, 0 outside.
      sigmoid: Shape of the decay, one of `SIGMOIDS`: 'gaussian',
        'hyperbolic', 'long_tail', 'reciprocal', 'cosine', 'linear',
        'quadratic', 'tanh_squared'.
      value_at_margin: The output at distance `margin` from the nearest bound.
        Must lie in (0, 1), or in [0, 1) for 'cosine', 'linear' and
        'quadratic', which reach 0 at a finite distance. It is checked even
        when `margin == 0`.

    Returns:
      A Python float when `x` is a scalar (Python or NumPy), otherwise a
      float64 NumPy array of `x`'s shape (broadcast with the bounds), with
      values in [0, 1]. NaN entries of `x` give NaN.

    Raises:
      ValueError: if `bounds` is not a pair or has lower > upper or NaN,
        `margin` is negative or not a scalar, `sigmoid` is unknown, or
        `value_at_margin` is outside the valid range for `sigmoid`.
    """
    lower, upper, margin, fn, v = _checked_arguments(
        bounds, margin, sigmoid, value_at_margin)
    scalar_margin = isinstance(margin, float)
    scalar_bounds = isinstance(lower, float) and scalar_margin
    if isinstance(x, _REAL_SCALARS) and scalar_bounds:
        return _scalar_tolerance(float(x), lower, upper, margin, fn, v)
    if scalar_bounds and isinstance(x, np.ndarray) and x.size == 1:
        # One-element arrays (one actuator, one joint) are common in rewards; the
        # scalar path gives the same bits (tested) in a fraction of the time.
        result = np.empty(x.shape)
        result.fill(_scalar_tolerance(float(x.reshape(())), lower, upper, margin, fn, v))
        return result
    return_float = not isinstance(x, np.ndarray)
    x = np.asarray(x, dtype=np.float64)
    # Distance to the interval, 0 inside. Infinite bounds give -inf before the
    # clamp, never inf - inf, and NaN entries of x stay NaN throughout.
    distance = np.maximum(lower - x, 0.0) + np.maximum(x - upper, 0.0)
    if scalar_margin and margin == 0.0:
        value = np.where(distance > 0.0, 0.0, 1.0)
        value[np.isnan(distance)] = np.nan
    elif scalar_margin:
        # Every sigmoid is exactly 1 at distance 0, so inside entries need no mask.
        value = fn(distance / margin, v)
    else:
        step = np.where(distance > 0.0, 0.0, 1.0)
        positive = margin > 0.0
        scaled = np.divide(distance, margin, out=np.zeros(np.broadcast(distance, margin).shape),
                           where=positive)
        value = np.where(positive, fn(scaled, v), step)
        value = np.where(np.isnan(distance), np.nan, value)
    return float(value) if return_float and value.shape == () else value


_CHECKED = {}


def _checked_arguments(bounds, margin, sigmoid, value_at_margin):
    """`_check_arguments`, remembered for hashable (scalar) arguments: rewards call
    tolerance with the same constants every step."""
    # Quantities indexed with a leading ellipsis (to serve one copy or a batch)
    # come as 0-d arrays; as numbers they are hashable and take the scalar path.
    if isinstance(margin, np.ndarray) and margin.ndim == 0:
        margin = float(margin)
    try:
        bounds = tuple(float(bound) if isinstance(bound, np.ndarray) and bound.ndim == 0 else bound
                       for bound in bounds)
    except TypeError:
        pass  # Not a sequence: _check_arguments names the problem.
    try:
        key = (tuple(bounds), margin, sigmoid, value_at_margin)
        return _CHECKED[key]
    except KeyError:
        pass
    except TypeError:  # Array bounds are not hashable: check them every time.
        return _check_arguments(bounds, margin, sigmoid, value_at_margin)
    checked = _check_arguments(bounds, margin, sigmoid, value_at_margin)
    if len(_CHECKED) < 4096:
        _CHECKED[key] = checked
    return checked
