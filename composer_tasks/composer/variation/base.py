"""The Variation base class, arithmetic on variations, and `evaluate`.

A variation is a callable `variation(initial_value, current_value,
random_state)` returning a new value for some quantity (a model attribute, an
observation, a task parameter). `initial_value` is the quantity's value before
any variation was applied, `current_value` its value now; absolute variations
ignore both.

Randomness: every variation that draws random numbers needs `random_state`
(a `numpy.random.RandomState`, as the Environment passes, or a
`numpy.random.Generator`). There is no fallback to NumPy's global generator,
so a forgotten argument fails loudly instead of silently breaking
reproducibility; at an interactive prompt pass `np.random.RandomState(0)`.
"""

from __future__ import annotations

import abc
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

# What variations draw from: NumPy's legacy `RandomState` (the Environment's) or a
# `Generator`.
RandomStateLike = np.random.RandomState | np.random.Generator
# What a variation takes where it takes a value: a number or an array, a variation or
# callable giving one, or lists and tuples nesting them (evaluated on every call).
Parameter = ArrayLike | Callable[..., Any] | Sequence[Any]


def require_random_state(random_state: RandomStateLike | None, variation: Any) -> RandomStateLike:
    """Returns `random_state` if it is a NumPy generator, NumPy's global
    `RandomState` (what `np.random.uniform` and friends draw from) if it is None,
    as dm_control's variations fall back to `np.random`; else raises.

    Custom variations that draw random numbers call this first.

    Args:
      random_state: The `random_state` argument the variation received.
      variation: The variation asking, named in the error message.

    Raises:
      RandomStateTypeError: (a TypeError and an AttributeError, what dm_control's
        variations raise drawing from it) if it is none of None, a
        `numpy.random.RandomState` and a `numpy.random.Generator`, and is true (a
        false value, 0 say, means NumPy's global one, as dm_control's
        `random_state or np.random` takes it).
    """
    if random_state is None:
        return np.random.mtrand._rand
    if not isinstance(random_state, (np.random.RandomState, np.random.Generator)):
        if not random_state:
            return np.random.mtrand._rand
        raise RandomStateTypeError(
            f"{variation!r}: random_state must be a numpy.random.RandomState "
            f"or numpy.random.Generator, got {type(random_state).__name__}."
        )
    return random_state


class RandomStateTypeError(TypeError, AttributeError):
    """A `random_state` a variation cannot draw from: a `TypeError`, and the
    `AttributeError` dm_control's variations raise looking its methods up."""


def _is_variation_like(value: Any) -> bool:
    # Classes are callable but constructing one is never what a nested
    # structure of parameters means, so they are kept as plain values.
    return callable(value) and not isinstance(value, type)


def evaluate(structure: Any, *args: Any, **kwargs: Any) -> Any:
    """Evaluates every variation or callable inside a nested structure.

    Args:
      structure: A value, a callable, or dicts, lists and tuples (including
        namedtuples) nesting them, to any depth. NumPy arrays are leaves.
      *args: Passed to each callable, positionally (as dm_control: a variation
        takes them as `initial_value`, `current_value`, `random_state`).
      **kwargs: Passed to each callable as keywords; only those given, so that a
        plain function `f(random_state)` works with `random_state=...` alone.

    Returns:
      A structure of the same types with each callable replaced by the value
      it returns, called as `fn(*args, **kwargs)`, in depth-first order; a dict's
      values in the order of their keys (sorted, as dm_control's dm-tree visits
      them, so that draws come in dm_control's order), its keys kept in their order.
    """
    if _is_variation_like(structure):
        return structure(*args, **kwargs)
    if isinstance(structure, dict):
        values = {key: evaluate(structure[key], *args, **kwargs) for key in _sorted_keys(structure)}
        return type(structure)((key, values[key]) for key in structure)
    if isinstance(structure, list):
        return [evaluate(value, *args, **kwargs) for value in structure]
    if isinstance(structure, tuple):
        values = [evaluate(value, *args, **kwargs) for value in structure]
        if hasattr(structure, "_fields"):
            return type(structure)(*values)
        return type(structure)(values)
    return structure


def _sorted_keys(mapping: dict) -> list:
    try:
        return sorted(mapping)
    except TypeError:  # Keys of mixed types: dm-tree would refuse them too.
        raise TypeError(
            f"variation.evaluate: a dict's keys must be sortable, got {list(mapping)!r}"
        ) from None


class Variation(metaclass=abc.ABCMeta):
    """Base class of all variations.

    Subclasses implement `__call__`. Arithmetic with numbers, arrays or other
    variations (`+ - * / **`, their reflected forms, unary `-`) gives a new
    variation that evaluates its operands with the same arguments and combines
    the results with NumPy semantics.
    """

    # Makes NumPy defer to the reflected operators, so that
    # `np.array(...) + variation` is a variation rather than an object array.
    __array_ufunc__ = None

    @abc.abstractmethod
    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> Any:
        """Returns a new value.

        Args:
          initial_value: The quantity's value before any variation; absolute
            variations ignore it.
          current_value: The quantity's current value; absolute variations
            ignore it.
          random_state: `numpy.random.RandomState` or `numpy.random.Generator`;
            required by variations that draw random numbers.
        """

    def __add__(self, other: Any) -> Variation:
        return _BinaryOperation(operator.add, self, other)

    def __radd__(self, other: Any) -> Variation:
        return _BinaryOperation(operator.add, other, self)

    def __sub__(self, other: Any) -> Variation:
        return _BinaryOperation(operator.sub, self, other)

    def __rsub__(self, other: Any) -> Variation:
        return _BinaryOperation(operator.sub, other, self)

    def __mul__(self, other: Any) -> Variation:
        return _BinaryOperation(operator.mul, self, other)

    def __rmul__(self, other: Any) -> Variation:
        return _BinaryOperation(operator.mul, other, self)

    def __truediv__(self, other: Any) -> Variation:
        return _BinaryOperation(operator.truediv, self, other)

    def __rtruediv__(self, other: Any) -> Variation:
        return _BinaryOperation(operator.truediv, other, self)

    def __floordiv__(self, other: Any) -> Variation:
        return _BinaryOperation(operator.floordiv, self, other)

    def __rfloordiv__(self, other: Any) -> Variation:
        return _BinaryOperation(operator.floordiv, other, self)

    def __pow__(self, other: Any) -> Variation:
        return _BinaryOperation(operator.pow, self, other)

    def __rpow__(self, other: Any) -> Variation:
        return _BinaryOperation(operator.pow, other, self)

    def __getitem__(self, index: Any) -> Variation:
        return _GetItemOperation(self, index)

    def __neg__(self) -> Variation:
        return _UnaryOperation(operator.neg, self)


class _BinaryOperation(Variation):
    """`first <op> second`, each operand a variation, callable or value."""

    def __init__(self, op: Callable[[Any, Any], Any], first: Any, second: Any):
        self._op = op
        self._first = first
        self._second = second

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> Any:
        first = evaluate(self._first, initial_value, current_value, random_state)
        second = evaluate(self._second, initial_value, current_value, random_state)
        # The operator on the values as they come, as dm_control applies it: lists
        # and tuples concatenate under + and repeat under * by an int, as Python's.
        return self._op(first, second)

    def __eq__(self, other: object) -> bool:
        # As dm_control: equal when built alike from equal operands.
        return (
            isinstance(other, _BinaryOperation)
            and self._op == other._op
            and equal(self._first, other._first)
            and equal(self._second, other._second)
        )

    # str and repr as dm_control writes them (its tests compare them verbatim):
    # `add(3, 5)` and `BinaryOperation(add(Constant(3), Constant(5)))`.
    def __str__(self) -> str:
        return f"{self._op.__name__}({self._first}, {self._second})"

    def __repr__(self) -> str:
        return f"BinaryOperation({self._op.__name__}({self._first!r}, {self._second!r}))"


class _UnaryOperation(Variation):
    """`op(variation)` (negation)."""

    def __init__(self, op: Callable[[Any], Any], variation: Any):
        self._op = op
        self._variation = variation

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> Any:
        return self._op(evaluate(self._variation, initial_value, current_value, random_state))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _UnaryOperation)
            and self._op == other._op
            and equal(self._variation, other._variation)
        )

    # As dm_control: `neg(3)`, and the repr wraps the operand's str.
    def __str__(self) -> str:
        return f"{self._op.__name__}({self._variation})"

    def __repr__(self) -> str:
        return f"UnaryOperation({self._op.__name__}({self._variation}))"


class _GetItemOperation(Variation):
    """`variation[index]`: the evaluated value (as an array) indexed."""

    def __init__(self, variation: Any, index: Any):
        self._variation = variation
        self._index = index

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> Any:
        value = evaluate(self._variation, initial_value, current_value, random_state)
        return np.asarray(value)[self._index]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _GetItemOperation)
            and equal(self._variation, other._variation)
            and equal(self._index, other._index)
        )

    # As dm_control: `[4 5 6][1]` and `GetItemOperation(Constant(array([4, 5, 6]))[1])`.
    def __str__(self) -> str:
        return f"{self._variation}[{self._index}]"

    def __repr__(self) -> str:
        return f"GetItemOperation({self._variation!r}[{self._index}])"


def equal(first: Any, second: Any) -> bool:
    """`first == second` as one bool, arrays compared whole."""
    if isinstance(first, np.ndarray) or isinstance(second, np.ndarray):
        return bool(np.array_equal(first, second))
    return bool(first == second)
