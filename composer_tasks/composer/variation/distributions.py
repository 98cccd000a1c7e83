"""Random distributions as variations.

Every distribution draws from the `random_state` it is called with (see
`base.require_random_state`). Parameters may themselves be variations or
callables (or nested lists/tuples/dicts holding them); they are evaluated on
every call with the same arguments, then checked.

Sample shape, in order of precedence:
  * `shape=` given at construction: samples have that shape;
  * `single_sample=True`: one scalar sample (broadcast by whoever uses it);
  * otherwise samples have the shape of `initial_value` (one independent draw
    per element of the quantity being varied), or are scalars when there is
    no initial value. Array-valued parameters broadcast against that shape.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import Any, overload

import numpy as np

from composer_tasks.composer.variation import base
from composer_tasks.composer.variation.base import Parameter, RandomStateLike

# A sample shape: an int n for (n,), or a sequence of non-negative ints.
Shape = int | np.integer | Sequence[int | np.integer]


def _contains_callable(structure: Any) -> bool:
    if base._is_variation_like(structure):
        return True
    if isinstance(structure, dict):
        return any(_contains_callable(v) for v in structure.values())
    if isinstance(structure, (list, tuple)):
        return any(_contains_callable(v) for v in structure)
    return False


def _as_real_array(value: Any, name: str, distribution: str) -> np.ndarray:
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"{distribution}: {name} must be a real number or array, got {value!r}."
        ) from None
    if np.any(np.isnan(array)):
        raise ValueError(f"{distribution}: {name} must not be NaN, got {value!r}.")
    return array


@overload
def _check_shape(shape: None) -> None: ...


@overload
def _check_shape(shape: Shape) -> tuple[int, ...]: ...


def _check_shape(shape: Shape | None) -> tuple[int, ...] | None:
    if shape is None:
        return None
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    try:
        shape = tuple(int(n) for n in shape)
    except (TypeError, ValueError):
        raise ValueError(f"shape must be a tuple of non-negative ints, got {shape!r}.") from None
    if any(n < 0 for n in shape):
        raise ValueError(f"shape must be a tuple of non-negative ints, got {shape!r}.")
    return shape


def _integers(
    random_state: RandomStateLike,
    low: int | np.ndarray,
    high: int | np.ndarray,
    size: tuple[int, ...] | None,
) -> Any:
    # RandomState and Generator spell the same draw differently; both exclude
    # `high`.
    if isinstance(random_state, np.random.Generator):
        return random_state.integers(low, high, size=size)
    return random_state.randint(low, high, size=size)


class Distribution(base.Variation):
    """Base class: evaluates and checks parameters, then draws a sample.

    Subclasses implement `_sample(random_state, size, **parameters)` and may
    override `_check(parameters)`, which receives the parameters that are
    known (all of them at call time; at construction only those that are not
    variations) and raises `ValueError` naming the bad one.
    """

    def __init__(self, single_sample: bool = False, shape: Shape | None = None, **parameters: Any):
        shape = _check_shape(shape)
        if single_sample and shape is not None:
            raise ValueError(
                f"{type(self).__name__}: give either single_sample=True or "
                f"shape={shape!r}, not both."
            )
        self._single_sample = bool(single_sample)
        self._shape = shape
        self._parameters = parameters
        self._check(
            {name: value for name, value in parameters.items() if not _contains_callable(value)}
        )

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> Any:
        random_state = base.require_random_state(random_state, self)
        parameters = base.evaluate(self._parameters, initial_value, current_value, random_state)
        self._check(parameters)
        return self._sample(random_state, self._size(initial_value), **parameters)

    def _size(self, initial_value: Any) -> tuple[int, ...] | None:
        if self._shape is not None:
            return self._shape
        if self._single_sample or initial_value is None:
            return None
        return np.shape(initial_value) or None

    def _check(self, parameters: Mapping[str, Any]) -> None:
        del parameters

    @abc.abstractmethod
    def _sample(
        self, random_state: RandomStateLike, size: tuple[int, ...] | None, **parameters: Any
    ) -> Any:
        """Draws a sample of shape `size` (None: one scalar)."""

    def __repr__(self) -> str:
        arguments = [f"{name}={value!r}" for name, value in self._parameters.items()]
        if self._single_sample:
            arguments.append("single_sample=True")
        if self._shape is not None:
            arguments.append(f"shape={self._shape!r}")
        return f"{type(self).__name__}({', '.join(arguments)})"


class Uniform(Distribution):
    """Uniform on [low, high) (elementwise for array bounds)."""

    def __init__(
        self,
        low: Parameter = 0.0,
        high: Parameter = 1.0,
        single_sample: bool = False,
        shape: Shape | None = None,
    ):
        super().__init__(single_sample, shape, low=low, high=high)

    def _check(self, parameters: Mapping[str, Any]) -> None:
        low = high = None
        if "low" in parameters:
            low = _as_real_array(parameters["low"], "low", "Uniform")
        if "high" in parameters:
            high = _as_real_array(parameters["high"], "high", "Uniform")
        for name, array in (("low", low), ("high", high)):
            if array is not None and not np.all(np.isfinite(array)):
                raise ValueError(f"Uniform: {name} must be finite, got {parameters[name]!r}.")
        if low is not None and high is not None and np.any(low > high):
            raise ValueError(
                f"Uniform: low must be <= high, got low={parameters['low']!r}, "
                f"high={parameters['high']!r}."
            )

    def _sample(
        self, random_state: RandomStateLike, size: tuple[int, ...] | None, low: Any, high: Any
    ) -> Any:
        return random_state.uniform(low, high, size=size)


class UniformInteger(Distribution):
    """Uniform integers on [low, high); with `high=None`, on [0, low)."""

    def __init__(
        self,
        low: Parameter,
        high: Parameter | None = None,
        single_sample: bool = False,
        shape: Shape | None = None,
    ):
        super().__init__(single_sample, shape, low=low, high=high)

    def _check(self, parameters: Mapping[str, Any]) -> None:
        for name in ("low", "high"):
            value = parameters.get(name)
            if value is None:
                continue
            array = _as_real_array(value, name, "UniformInteger")
            if np.any(array != np.round(array)):
                raise ValueError(f"UniformInteger: {name} must be an integer, got {value!r}.")
        if "low" not in parameters or "high" not in parameters:
            return
        low, high = parameters["low"], parameters["high"]
        if high is None and np.any(np.asarray(low) < 1):
            raise ValueError(
                f"UniformInteger: with high=None the range is [0, low), so "
                f"low must be >= 1, got {low!r}."
            )
        if high is not None and np.any(np.asarray(low) >= np.asarray(high)):
            raise ValueError(
                f"UniformInteger: low must be < high (high is excluded), "
                f"got low={low!r}, high={high!r}."
            )

    def _sample(
        self, random_state: RandomStateLike, size: tuple[int, ...] | None, low: Any, high: Any
    ) -> Any:
        if high is None:
            low, high = 0, low
        return _integers(
            random_state, np.asarray(low, dtype=np.int64), np.asarray(high, dtype=np.int64), size
        )


class UniformChoice(Distribution):
    """Picks elements of `choices` with equal probability.

    `choices` is a non-empty sequence. Its entries may be variations, which
    are all evaluated on every call before one is picked. When the entries
    are arrays (e.g. RGBA colours), one draw already has a value's shape, so
    each call returns a single entry unless `shape` is given.
    """

    def __init__(
        self,
        choices: Sequence[Any] | np.ndarray,
        single_sample: bool = False,
        shape: Shape | None = None,
    ):
        if isinstance(choices, (str, bytes, dict)) or not hasattr(choices, "__len__"):
            raise ValueError(
                f"UniformChoice: choices must be a non-empty list, tuple or array, got {choices!r}."
            )
        super().__init__(single_sample, shape, choices=choices)

    def _check(self, parameters: Mapping[str, Any]) -> None:
        if "choices" in parameters and len(parameters["choices"]) == 0:
            raise ValueError("UniformChoice: choices must not be empty.")

    def _sample(
        self,
        random_state: RandomStateLike,
        size: tuple[int, ...] | None,
        choices: Sequence[Any] | np.ndarray,
    ) -> Any:
        if self._shape is None and any(np.ndim(c) > 0 for c in choices):
            size = None
        index = _integers(random_state, 0, len(choices), size)
        if size is None:
            return choices[int(index)]
        return np.asarray(choices)[index]


class Normal(Distribution):
    """Gaussian with mean `loc` and standard deviation `scale` (>= 0)."""

    def __init__(
        self,
        loc: Parameter = 0.0,
        scale: Parameter = 1.0,
        single_sample: bool = False,
        shape: Shape | None = None,
    ):
        super().__init__(single_sample, shape, loc=loc, scale=scale)

    def _check(self, parameters: Mapping[str, Any]) -> None:
        if "loc" in parameters:
            _as_real_array(parameters["loc"], "loc", "Normal")
        _check_non_negative(parameters, "scale", "Normal")

    def _sample(
        self, random_state: RandomStateLike, size: tuple[int, ...] | None, loc: Any, scale: Any
    ) -> Any:
        return random_state.normal(loc, scale, size=size)


class LogNormal(Distribution):
    """exp(N(mean, sigma)): `mean` and `sigma` (>= 0) are of the log."""

    def __init__(
        self,
        mean: Parameter = 0.0,
        sigma: Parameter = 1.0,
        single_sample: bool = False,
        shape: Shape | None = None,
    ):
        super().__init__(single_sample, shape, mean=mean, sigma=sigma)

    def _check(self, parameters: Mapping[str, Any]) -> None:
        if "mean" in parameters:
            _as_real_array(parameters["mean"], "mean", "LogNormal")
        _check_non_negative(parameters, "sigma", "LogNormal")

    def _sample(
        self, random_state: RandomStateLike, size: tuple[int, ...] | None, mean: Any, sigma: Any
    ) -> Any:
        return random_state.lognormal(mean, sigma, size=size)


class Exponential(Distribution):
    """Exponential with mean `scale` (>= 0)."""

    def __init__(
        self, scale: Parameter = 1.0, single_sample: bool = False, shape: Shape | None = None
    ):
        super().__init__(single_sample, shape, scale=scale)

    def _check(self, parameters: Mapping[str, Any]) -> None:
        _check_non_negative(parameters, "scale", "Exponential")

    def _sample(
        self, random_state: RandomStateLike, size: tuple[int, ...] | None, scale: Any
    ) -> Any:
        return random_state.exponential(scale, size=size)


class Bernoulli(Distribution):
    """1 with probability `prob`, else 0 (integers)."""

    def __init__(
        self, prob: Parameter = 0.5, single_sample: bool = False, shape: Shape | None = None
    ):
        super().__init__(single_sample, shape, prob=prob)

    def _check(self, parameters: Mapping[str, Any]) -> None:
        if "prob" in parameters:
            prob = _as_real_array(parameters["prob"], "prob", "Bernoulli")
            if np.any((prob < 0.0) | (prob > 1.0)):
                raise ValueError(f"Bernoulli: prob must be in [0, 1], got {parameters['prob']!r}.")

    def _sample(
        self, random_state: RandomStateLike, size: tuple[int, ...] | None, prob: Any
    ) -> Any:
        return random_state.binomial(1, prob, size=size)


def _check_non_negative(parameters: Mapping[str, Any], name: str, distribution: str) -> None:
    if name not in parameters:
        return
    value = _as_real_array(parameters[name], name, distribution)
    if np.any(value < 0.0):
        raise ValueError(f"{distribution}: {name} must be >= 0, got {parameters[name]!r}.")


class UniformPointOnSphere(base.Variation):
    """Unit 3-vectors uniformly distributed on the sphere.

    Returns an array of shape `shape + (3,)`, whatever the value being varied.
    """

    def __init__(self, shape: Shape = ()):
        self._shape = _check_shape(shape)

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> np.ndarray:
        random_state = base.require_random_state(random_state, self)
        # An isotropic Gaussian is rotation invariant, so its direction is
        # uniform on the sphere. A zero draw has probability zero.
        points = random_state.normal(size=self._shape + (3,))
        return points / np.linalg.norm(points, axis=-1, keepdims=True)

    def __repr__(self) -> str:
        return f"UniformPointOnSphere(shape={self._shape!r})"
