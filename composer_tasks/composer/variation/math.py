"""Math operations on variations (dm_control's `composer.variation.math`).

A `MathOp` holds positional and keyword arguments, any of which may be a variation
(or a callable, or lists, tuples and dicts nesting them). Calling it evaluates them
all with the arguments it received, in dm_control's order (positional first, then
keyword values by sorted key), and applies its NumPy function to the results:

    scale = math.Norm(distributions.Uniform([-1, -1], [1, 1]))
    value = scale(random_state=np.random.RandomState(0))  # the norm of one draw
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import Any

import numpy as np

from composer_tasks.composer.variation.base import RandomStateLike, Variation, equal, evaluate


class MathOp(Variation):
    """A NumPy function applied to evaluated arguments.

    Subclasses give the function as the `_callable` property; it receives the
    evaluated positional and keyword arguments as given at construction.

    Args:
      *args: positional arguments of the function: values, variations, or
        structures nesting them.
      **kwargs: keyword arguments of the function, likewise.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._args = args
        self._kwargs = kwargs

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> Any:
        args = evaluate(self._args, initial_value, current_value, random_state)
        kwargs = evaluate(self._kwargs, initial_value, current_value, random_state)
        return self._callable(*args, **kwargs)

    @property
    @abc.abstractmethod
    def _callable(self) -> Callable[..., Any]:
        """The function applied to the evaluated arguments."""

    def __eq__(self, other: object) -> bool:
        # As dm_control: the same operation with equal arguments (arrays compared whole).
        if not isinstance(other, type(self)):
            return False
        if len(self._args) != len(other._args) or set(self._kwargs) != set(other._kwargs):
            return False
        return all(equal(a, b) for a, b in zip(self._args, other._args)) and all(
            equal(value, other._kwargs[key]) for key, value in self._kwargs.items()
        )

    # dm_control's hash is None too (it defines `__eq__` only): a MathOp is not a
    # dict key or set member there.
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        # dm_control's form: `Log(args=(...), kwargs={...})`.
        return f"{type(self).__name__}(args={self._args}, kwargs={self._kwargs})"


class Log(MathOp):
    """The natural logarithm, elementwise (`np.log`)."""

    @property
    def _callable(self) -> Callable[..., Any]:
        return np.log


class Max(MathOp):
    """The largest element (`np.max`; `axis=` and NumPy's other arguments apply)."""

    @property
    def _callable(self) -> Callable[..., Any]:
        return np.max


class Min(MathOp):
    """The smallest element (`np.min`; `axis=` and NumPy's other arguments apply)."""

    @property
    def _callable(self) -> Callable[..., Any]:
        return np.min


class Norm(MathOp):
    """The vector or matrix norm (`np.linalg.norm`; `ord=`, `axis=` apply)."""

    @property
    def _callable(self) -> Callable[..., Any]:
        return np.linalg.norm
