"""Noise relative to an existing value: `Additive` and `Multiplicative`.

Both apply a sample of their variation to the value being varied: to its
initial value by default (so noise does not accumulate across episodes), or to
its current value with `cumulative=True` (a random walk). The sample is drawn
with the same `initial_value`, so a distribution gives one independent draw per
element of the value unless it was built with `single_sample=True`.

Used as an observable corruptor, `corruptor(value, random_state=...)` passes
the observation as `initial_value`, so `Additive(Normal(0.0, 0.01))` adds
independent N(0, 0.01^2) noise to each element.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from composer_tasks.composer.variation import base
from composer_tasks.composer.variation.base import Parameter, RandomStateLike


class _Noise(base.Variation):
    def __init__(self, variation: Parameter, cumulative: bool = False):
        self._variation = variation
        self._cumulative = bool(cumulative)

    def _base_and_sample(
        self, initial_value: Any, current_value: Any, random_state: RandomStateLike | None
    ) -> tuple[np.ndarray, np.ndarray]:
        base_value = current_value if self._cumulative else initial_value
        if base_value is None:
            which = "current_value" if self._cumulative else "initial_value"
            raise ValueError(f"{self!r} varies an existing value and needs {which}, got None.")
        sample = base.evaluate(self._variation, initial_value, current_value, random_state)
        return np.asarray(base_value), np.asarray(sample)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._variation!r}, cumulative={self._cumulative})"


class Additive(_Noise):
    """`base + sample`, with base the initial (or, if cumulative, current) value."""

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> np.ndarray:
        base_value, sample = self._base_and_sample(initial_value, current_value, random_state)
        return base_value + sample


class Multiplicative(_Noise):
    """`base * sample`, with base the initial (or, if cumulative, current) value."""

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> np.ndarray:
        base_value, sample = self._base_and_sample(initial_value, current_value, random_state)
        return base_value * sample
