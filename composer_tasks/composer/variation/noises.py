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

from composer_tasks.composer.variation import base
from composer_tasks.composer.variation.base import Parameter, RandomStateLike


class _Noise(base.Variation):
    def __init__(self, variation: Parameter, cumulative: bool = False):
        self._variation = variation
        self._cumulative = bool(cumulative)

    def _base_and_sample(
        self, initial_value: Any, current_value: Any, random_state: RandomStateLike | None
    ) -> tuple[Any, Any]:
        # Combined as given, as dm_control does: Python ints stay Python ints (no
        # int64 overflow), lists concatenate or repeat under + and *.
        base_value = current_value if self._cumulative else initial_value
        if base_value is None:
            which = "current_value" if self._cumulative else "initial_value"
            raise ValueError(f"{self!r} varies an existing value and needs {which}, got None.")
        sample = base.evaluate(self._variation, initial_value, current_value, random_state)
        return base_value, sample

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, type(self))
            and base.equal(self._variation, other._variation)
            and self._cumulative == other._cumulative
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._variation!r}, cumulative={self._cumulative})"


class Additive(_Noise):
    """`base + sample`, with base the initial (or, if cumulative, current) value."""

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> Any:
        base_value, sample = self._base_and_sample(initial_value, current_value, random_state)
        return base_value + sample


class Multiplicative(_Noise):
    """`base * sample`, with base the initial (or, if cumulative, current) value."""

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> Any:
        base_value, sample = self._base_and_sample(initial_value, current_value, random_state)
        return base_value * sample
