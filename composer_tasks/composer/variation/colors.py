"""Colour variations producing RGBA arrays.

Each channel is a number, a variation or a callable. As in dm_control, each
channel is evaluated with the whole `initial_value` and `current_value` (so a
distribution varying a geom's 4-value `rgba` draws 4 values, and the channels do
not combine: build channel distributions with `single_sample=True`), the
channels in order r, g, b, alpha (h, s, v, alpha), and the HSV conversion is
`colorsys`'s.

This project's opt-in, `channel_values=True`: each channel variation is called
with that channel of the initial and current colours, expressed in the
variation's own colour space, so `HsvVariation(h=..., s=..., v=Additive(...),
channel_values=True)` perturbs the brightness of the original colour; every
channel must then evaluate to a scalar, in [0, 1] except the periodic hue.
"""

from __future__ import annotations

import colorsys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from composer_tasks.composer.variation import base
from composer_tasks.composer.variation.base import Parameter, RandomStateLike


def hsv_to_rgb(h: float, s: float, v: float) -> tuple[float, float, float]:
    """Converts hue, saturation, value (floats in [0, 1]) to (r, g, b).

    Hue is periodic: h and h + 1 give the same colour.
    """
    h = (h % 1.0) * 6.0
    sector = int(h) % 6
    f = h - int(h)
    p = v * (1.0 - s)
    q = v * (1.0 - s * f)
    t = v * (1.0 - s * (1.0 - f))
    return [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][sector]


def rgb_to_hsv(r: float, g: float, b: float) -> tuple[float, float, float]:
    """Converts (r, g, b) floats in [0, 1] to (h, s, v) in [0, 1)x[0, 1]x[0, 1].

    Grey colours (r == g == b) have no hue; they get h = 0.
    """
    v = max(r, g, b)
    chroma = v - min(r, g, b)
    if chroma == 0.0:
        return 0.0, 0.0, v
    if v == r:
        h = ((g - b) / chroma) % 6.0
    elif v == g:
        h = (b - r) / chroma + 2.0
    else:
        h = (r - g) / chroma + 4.0
    return h / 6.0, chroma / v, v


def _channels(
    value: Any, to_space: Callable[[float, float, float], tuple[float, float, float]]
) -> list[float | None]:
    """Splits an RGB(A) value into the channels of a colour space, or Nones."""
    if value is None:
        return [None] * 4
    rgba = np.asarray(value, dtype=np.float64).ravel()
    if rgba.size not in (3, 4):
        return [None] * 4
    alpha = float(rgba[3]) if rgba.size == 4 else None
    return list(to_space(*(float(c) for c in rgba[:3]))) + [alpha]


def _evaluate_channels(
    variation: base.Variation,
    names: Sequence[str],
    channels: Sequence[Parameter],
    initial_value: Any,
    current_value: Any,
    random_state: RandomStateLike | None,
    to_space: Callable[[float, float, float], tuple[float, float, float]],
) -> list[float]:
    initial = _channels(initial_value, to_space)
    current = _channels(current_value, to_space)
    values = []
    for name, channel, channel_initial, channel_current in zip(names, channels, initial, current):
        value = base.evaluate(channel, channel_initial, channel_current, random_state)
        if np.ndim(value) != 0:
            raise ValueError(
                f"{variation!r}: channel {name} must evaluate to a scalar, "
                f"got shape {np.shape(value)}; build its distribution with "
                "single_sample=True."
            )
        value = float(value)
        if name != "h" and not 0.0 <= value <= 1.0:
            raise ValueError(f"{variation!r}: channel {name} must be in [0, 1], got {value!r}.")
        values.append(value)
    return values


def _identity(r: float, g: float, b: float) -> tuple[float, float, float]:
    return r, g, b


class RgbVariation(base.Variation):
    """RGBA from independently varied red, green, blue and alpha channels."""

    def __init__(
        self,
        r: Parameter,
        g: Parameter,
        b: Parameter,
        alpha: Parameter = 1.0,
        channel_values: bool = False,
    ):
        self._channels = (r, g, b, alpha)
        self._channel_values = bool(channel_values)

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> np.ndarray:
        if not self._channel_values:
            return np.asarray(
                base.evaluate(list(self._channels), initial_value, current_value, random_state)
            )
        return np.array(
            _evaluate_channels(
                self,
                ("r", "g", "b", "alpha"),
                self._channels,
                initial_value,
                current_value,
                random_state,
                _identity,
            )
        )

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, RgbVariation)
            and all(base.equal(a, b) for a, b in zip(self._channels, other._channels))
            and self._channel_values == other._channel_values
        )

    def __repr__(self) -> str:
        r, g, b, alpha = self._channels
        return f"RgbVariation(r={r!r}, g={g!r}, b={b!r}, alpha={alpha!r})"


class HsvVariation(base.Variation):
    """RGBA from independently varied hue, saturation, value and alpha.

    Hue is periodic with period 1 (0 and 1 are both red); the other channels
    must lie in [0, 1].
    """

    def __init__(
        self,
        h: Parameter,
        s: Parameter,
        v: Parameter,
        alpha: Parameter = 1.0,
        channel_values: bool = False,
    ):
        self._channels = (h, s, v, alpha)
        self._channel_values = bool(channel_values)

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> np.ndarray:
        if not self._channel_values:
            h, s, v, alpha = base.evaluate(
                tuple(self._channels), initial_value, current_value, random_state
            )
            return np.asarray(list(colorsys.hsv_to_rgb(h, s, v)) + [alpha])
        h, s, v, alpha = _evaluate_channels(
            self,
            ("h", "s", "v", "alpha"),
            self._channels,
            initial_value,
            current_value,
            random_state,
            rgb_to_hsv,
        )
        return np.array(list(hsv_to_rgb(h, s, v)) + [alpha])

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, HsvVariation)
            and all(base.equal(a, b) for a, b in zip(self._channels, other._channels))
            and self._channel_values == other._channel_values
        )

    def __repr__(self) -> str:
        h, s, v, alpha = self._channels
        return f"HsvVariation(h={h!r}, s={s!r}, v={v!r}, alpha={alpha!r})"


class GrayVariation(HsvVariation):
    """A grey RGBA (r == g == b == gray_level) with varied level and alpha.

    A channel variation sees the initial colour's HSV value (its brightest
    channel) as its initial gray level.
    """

    def __init__(self, gray_level: Parameter, alpha: Parameter = 1.0, channel_values: bool = False):
        super().__init__(h=0.0, s=0.0, v=gray_level, alpha=alpha, channel_values=channel_values)

    def __repr__(self) -> str:
        _, _, gray_level, alpha = self._channels
        return f"GrayVariation(gray_level={gray_level!r}, alpha={alpha!r})"
