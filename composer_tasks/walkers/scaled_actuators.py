"""Position and velocity servos whose control range maps affinely onto a target range
(dm-control 1.0.50, `locomotion/walkers/scaled_actuators.py`).

A scaled position servo is MuJoCo's `<position>` servo with an affine map in front
of its control: the lowest control asks for the lowest position of `qposrange`, the
highest control for the highest. As a `<general>` actuator with an affine bias, its
force is `kp * (target(ctrl) - q)` with `target(ctrl) = q_lo + slope * (ctrl - c_lo)`
and `slope = (q_hi - q_lo) / (c_hi - c_lo)`; so gain `kp * slope` and bias
`(kp * (q_lo - slope * c_lo), -kp, 0)`. The velocity servo is the same with the
velocity term of the bias: `(kv * (v_lo - slope * c_lo), 0, -kv)`.
"""

from collections.abc import Sequence
from typing import Any

from composer_tasks import mjcf

# The attributes these functions set themselves, which the caller may not pass.
_DISALLOWED_KWARGS = frozenset(
    [
        "biastype",
        "gainprm",
        "biasprm",
        "ctrllimited",
        "joint",
        "tendon",
        "site",
        "slidersite",
        "cranksite",
    ]
)
# The kinds of element a servo can drive.
_ALLOWED_TAGS = frozenset(["joint", "tendon", "site"])

# dm_control's messages (its tests match them literally).
_GOT_INVALID_KWARGS = "Received invalid keyword argument(s): {}"
_GOT_INVALID_TARGET = f"`target` tag type should be one of {sorted(_ALLOWED_TAGS)}: got {{}}"


def _check_target_and_kwargs(target: Any, **kwargs: Any) -> None:
    invalid = _DISALLOWED_KWARGS.intersection(kwargs)
    if invalid:
        raise TypeError(_GOT_INVALID_KWARGS.format(sorted(invalid)))
    if getattr(target, "tag", None) not in _ALLOWED_TAGS:
        raise TypeError(_GOT_INVALID_TARGET.format(target))


def _add_affine_servo(
    target: Any,
    target_range: Sequence[float],
    ctrlrange: Sequence[float],
    gain: float,
    bias_term: int,
    kwargs: dict[str, Any],
) -> mjcf.Element:
    """A `<general>` actuator on `target` whose control in `ctrlrange` asks for a
    value in `target_range` of the quantity whose bias coefficient is at
    `biasprm[bias_term]` (1: position, 2: velocity)."""
    _check_target_and_kwargs(target, **kwargs)
    kwargs[target.tag] = target
    slope = (target_range[1] - target_range[0]) / (ctrlrange[1] - ctrlrange[0])
    bias = [gain * (target_range[0] - slope * ctrlrange[0]), 0.0, 0.0]
    bias[bias_term] = -gain
    return target.root.actuator.add(
        "general",
        biastype="affine",
        gainprm=[gain * slope],
        biasprm=bias,
        ctrllimited=True,
        ctrlrange=ctrlrange,
        **kwargs,
    )


def add_position_actuator(
    target: Any,
    qposrange: Sequence[float],
    ctrlrange: Sequence[float] = (-1, 1),
    kp: float = 1.0,
    **kwargs: Any,
) -> mjcf.Element:
    """Adds a position servo on `target` whose control range spans `qposrange`.

    Args:
      target: the PyMJCF joint, tendon or site the servo drives.
      qposrange: (lowest, highest) target position (rad or m), asked for by the
        lowest and the highest control.
      ctrlrange: (lowest, highest) control.
      kp: the servo's gain (N m/rad, or N/m).
      **kwargs: further attributes of the `<general>` actuator (name, forcerange,
        ...); not the ones this function sets (`_DISALLOWED_KWARGS`).

    Returns:
      The new actuator, in `target`'s model.

    Raises:
      TypeError: for a disallowed keyword, or a `target` that is not a joint,
        tendon or site.
    """
    return _add_affine_servo(target, qposrange, ctrlrange, kp, 1, kwargs)


def add_velocity_actuator(
    target: Any,
    qvelrange: Sequence[float],
    ctrlrange: Sequence[float] = (-1, 1),
    kv: float = 1.0,
    **kwargs: Any,
) -> mjcf.Element:
    """Adds a velocity servo on `target` whose control range spans `qvelrange`
    (rad/s or m/s); the arguments and errors are `add_position_actuator`'s, with
    the gain `kv` (N m s/rad, or N s/m)."""
    return _add_affine_servo(target, qvelrange, ctrlrange, kv, 2, kwargs)
