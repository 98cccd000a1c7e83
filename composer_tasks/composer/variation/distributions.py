"""Random distributions as variations.

Every distribution draws from the `random_state` it is called with (see
`base.require_random_state`; as in dm_control, NumPy's global one when None). Parameters may themselves be variations or
callables (or nested lists/tuples/dicts holding them); they are evaluated on
every call with the same arguments, then checked.

Sample shape, in order of precedence:
  * `shape=` given at construction (this project's opt-in): samples have that shape;
  * `single_sample=True`: one scalar sample (broadcast by whoever uses it);
  * otherwise, as in dm_control, samples have the shape of `initial_value` (one
    independent draw per element of the quantity being varied; a 0-d array for
    a scalar one), or are scalars when there is no initial value. Array-valued
    parameters broadcast against that shape.
"""

from __future__ import annotations

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


# RandomState's method names that a Generator spells differently.
_GENERATOR_NAMES = {"randint": "integers"}


class Distribution(base.Variation):
    """Base class: evaluates and checks parameters, then draws a sample.

    As dm_control's: parameters are kept as the positional `args` and keyword
    `kwargs` the subclass passes; on each call they are evaluated (the positional
    ones first, then the keyword ones in the order of their names, as dm-tree
    orders a dict) and NumPy's method `_method` is called as
    `method(*args, size=size, **kwargs)`, so the same seed gives dm_control's
    draws. Keyword parameters read as attributes (`Uniform(0, 2).high`).

    Subclasses set `_method` (a `numpy.random.RandomState` method name) or
    override `_callable(random_state)`, set `_arg_names` (names of the
    positional parameters, for messages), and may override `_check(parameters)`, which receives the parameters that are known
    (all of them at call time; at construction only those that are not
    variations) and raises `ValueError` naming the bad one.
    """

    _method = ""
    _arg_names: tuple[str, ...] = ()

    def __init__(
        self, *args: Any, single_sample: bool = False, shape: Shape | None = None, **kwargs: Any
    ):
        shape = _check_shape(shape)
        if single_sample and shape is not None:
            raise ValueError(
                f"{type(self).__name__}: give either single_sample=True or "
                f"shape={shape!r}, not both."
            )
        self._single_sample = bool(single_sample)
        self._shape = shape
        self._args = args
        self._kwargs = kwargs
        self._check(
            {
                name: value
                for name, value in self._named(args, kwargs).items()
                if not _contains_callable(value)
            }
        )

    @property
    def parameters(self) -> dict[str, Any]:
        """The parameters as given, by name (a new dict; variations not evaluated)."""
        return self._named(self._args, self._kwargs)

    def _named(self, args: Sequence[Any], kwargs: Mapping[str, Any]) -> dict[str, Any]:
        return {**dict(zip(self._arg_names, args)), **kwargs}

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> Any:
        random_state = base.require_random_state(random_state, self)
        args = base.evaluate(self._args, initial_value, current_value, random_state)
        kwargs = base.evaluate(self._kwargs, initial_value, current_value, random_state)
        self._check(self._named(args, kwargs))
        return self._callable(random_state)(*args, size=self._size(initial_value), **kwargs)

    def _callable(self, random_state: RandomStateLike) -> Any:
        """The function that draws samples, called as `fn(*args, size=..., **kwargs)`:
        `random_state`'s method `_method`. A subclass may override it instead of
        setting `_method` (dm_control's hook, so its custom distributions port)."""
        name = self._method
        if isinstance(random_state, np.random.Generator):
            name = _GENERATOR_NAMES.get(name, name)
        return getattr(random_state, name)

    def _size(self, initial_value: Any) -> tuple[int, ...] | None:
        if self._shape is not None:
            return self._shape
        if self._single_sample or initial_value is None:
            return None
        return np.shape(initial_value)

    def _check(self, parameters: Mapping[str, Any]) -> None:
        del parameters

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_args", "_kwargs"):
            raise AttributeError(name)
        try:
            return self._kwargs[name]
        except KeyError:
            raise AttributeError(
                f"{type(self).__name__!r} object has no attribute {name!r}"
            ) from None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return False
        return (
            self._args == other._args
            and self._kwargs == other._kwargs
            and self._single_sample == other._single_sample
            and self._shape == other._shape
        )

    def __repr__(self) -> str:
        # dm_control's form, which its tests compare verbatim; `shape` only when given.
        shape = "" if self._shape is None else f", shape={self._shape!r}"
        return (
            f"{type(self).__name__}(args={self._args!r}, kwargs={self._kwargs!r}, "
            f"single_sample={self._single_sample}{shape})"
        )


class Uniform(Distribution):
    """Uniform on [low, high) (elementwise for array bounds)."""

    _method = "uniform"

    def __init__(
        self,
        low: Parameter = 0.0,
        high: Parameter = 1.0,
        single_sample: bool = False,
        shape: Shape | None = None,
    ):
        super().__init__(low=low, high=high, single_sample=single_sample, shape=shape)

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


class UniformInteger(Distribution):
    """Uniform integers on [low, high); with `high=None`, on [0, low)."""

    _method = "randint"
    _arg_names = ("low",)

    def __init__(
        self,
        low: Parameter,
        high: Parameter | None = None,
        single_sample: bool = False,
        shape: Shape | None = None,
    ):
        super().__init__(low, high=high, single_sample=single_sample, shape=shape)

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


class UniformChoice(Distribution):
    """Picks elements of the one-dimensional sequence `choices` with equal
    probability (NumPy's `choice`, as in dm_control). Its entries may be
    variations, which are all evaluated on every call before one is picked."""

    _method = "choice"
    _arg_names = ("choices",)

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
        super().__init__(choices, single_sample=single_sample, shape=shape)

    def _check(self, parameters: Mapping[str, Any]) -> None:
        if "choices" in parameters and len(parameters["choices"]) == 0:
            raise ValueError("UniformChoice: choices must not be empty.")


class Normal(Distribution):
    """Gaussian with mean `loc` and standard deviation `scale` (>= 0)."""

    _method = "normal"

    def __init__(
        self,
        loc: Parameter = 0.0,
        scale: Parameter = 1.0,
        single_sample: bool = False,
        shape: Shape | None = None,
    ):
        super().__init__(loc=loc, scale=scale, single_sample=single_sample, shape=shape)

    def _check(self, parameters: Mapping[str, Any]) -> None:
        if "loc" in parameters:
            _as_real_array(parameters["loc"], "loc", "Normal")
        _check_non_negative(parameters, "scale", "Normal")


class LogNormal(Distribution):
    """exp(N(mean, sigma)): `mean` and `sigma` (>= 0) are of the log."""

    _method = "lognormal"

    def __init__(
        self,
        mean: Parameter = 0.0,
        sigma: Parameter = 1.0,
        single_sample: bool = False,
        shape: Shape | None = None,
    ):
        super().__init__(mean=mean, sigma=sigma, single_sample=single_sample, shape=shape)

    def _check(self, parameters: Mapping[str, Any]) -> None:
        if "mean" in parameters:
            _as_real_array(parameters["mean"], "mean", "LogNormal")
        _check_non_negative(parameters, "sigma", "LogNormal")


class Exponential(Distribution):
    """Exponential with mean `scale` (>= 0)."""

    _method = "exponential"

    def __init__(
        self, scale: Parameter = 1.0, single_sample: bool = False, shape: Shape | None = None
    ):
        super().__init__(scale=scale, single_sample=single_sample, shape=shape)

    def _check(self, parameters: Mapping[str, Any]) -> None:
        _check_non_negative(parameters, "scale", "Exponential")


class Poisson(Distribution):
    """Poisson with rate `lam` (>= 0)."""

    _method = "poisson"

    def __init__(
        self, lam: Parameter = 1.0, single_sample: bool = False, shape: Shape | None = None
    ):
        super().__init__(lam=lam, single_sample=single_sample, shape=shape)

    def _check(self, parameters: Mapping[str, Any]) -> None:
        _check_non_negative(parameters, "lam", "Poisson")


class Bernoulli(Distribution):
    """1 with probability `prob`, else 0 (integers)."""

    _method = "binomial"
    _arg_names = ("n", "prob")

    def __init__(
        self, prob: Parameter = 0.5, single_sample: bool = False, shape: Shape | None = None
    ):
        # binomial(1, prob): one trial.
        super().__init__(1, prob, single_sample=single_sample, shape=shape)

    def _check(self, parameters: Mapping[str, Any]) -> None:
        if "prob" in parameters:
            prob = _as_real_array(parameters["prob"], "prob", "Bernoulli")
            if np.any((prob < 0.0) | (prob > 1.0)):
                raise ValueError(f"Bernoulli: prob must be in [0, 1], got {parameters['prob']!r}.")


def _check_non_negative(parameters: Mapping[str, Any], name: str, distribution: str) -> None:
    if name not in parameters:
        return
    value = _as_real_array(parameters[name], name, distribution)
    if np.any(value < 0.0):
        raise ValueError(f"{distribution}: {name} must be >= 0, got {parameters[name]!r}.")


class UniformPointOnSphere(base.Variation):
    """Unit 3-vectors uniformly distributed on the sphere (normalised Gaussian
    draws, as dm_control draws them).

    Returns one (3,) vector with `single_sample` or no `initial_value`, else an
    array of shape `np.shape(initial_value) + (3,)`; with this project's `shape=`
    opt-in, of shape `shape + (3,)` whatever the value being varied.
    """

    def __init__(self, single_sample: bool = False, shape: Shape | None = None):
        self._single_sample = bool(single_sample)
        self._shape = _check_shape(shape)

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> np.ndarray:
        random_state = base.require_random_state(random_state, self)
        if self._shape is not None:
            size = self._shape + (3,)
        elif self._single_sample or initial_value is None:
            size = (3,)
        else:
            size = np.shape(initial_value) + (3,)
        # An isotropic Gaussian is rotation invariant, so its direction is
        # uniform on the sphere. A zero draw has probability zero.
        points = random_state.normal(size=size)
        points /= np.linalg.norm(points, axis=-1, keepdims=True)
        return points

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, UniformPointOnSphere)
            and self._single_sample == other._single_sample
            and self._shape == other._shape
        )

    def __repr__(self) -> str:
        shape = "" if self._shape is None else f", shape={self._shape!r}"
        return f"UniformPointOnSphere(single_sample={self._single_sample}{shape})"


# BiasedRandomWalk's messages for a negative parameter, as dm_control words them
# (its tests format these templates with the bad value).
_NEGATIVE_STDEV = "`stdev` must be >= 0, got {}."
_NEGATIVE_TIMESCALE = "`timescale` must be >= 0, got {}."


class BiasedRandomWalk(base.Variation):
    """A zero-mean Ornstein-Uhlenbeck process, one step per call (dm_control's):
    `x <- retain * x + N(0, scale)` with `retain = exp(-1 / timescale)` (0 for
    timescale 0: uncorrelated draws) and `scale = stdev * sqrt(1 - retain**2)`, so
    the sequence has standard deviation `stdev` and loses correlation by exp(-1)
    every `timescale` calls. It is stateful: equal only to itself.

    Raises:
      ValueError: `stdev` or `timescale` is negative.
    """

    def __init__(self, stdev: float = 0.1, timescale: float = 10.0):
        if stdev < 0:
            raise ValueError(_NEGATIVE_STDEV.format(stdev))
        if timescale < 0:
            raise ValueError(_NEGATIVE_TIMESCALE.format(timescale))
        self._retain = 0.0 if timescale == 0 else float(np.exp(-1.0 / timescale))
        self._scale = stdev * np.sqrt(1 - self._retain * self._retain)
        self._value = 0.0

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> Any:
        random_state = base.require_random_state(random_state, self)
        self._value = self._retain * self._value + random_state.normal(loc=0.0, scale=self._scale)
        return self._value

    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = base.Variation.__hash__

    def __repr__(self) -> str:
        return (
            f"BiasedRandomWalk(id={id(self)}, scale={self._scale}, retain={self._retain}, "
            f"value={self._value})"
        )


evaluate = base.evaluate
