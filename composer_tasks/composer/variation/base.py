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
    """Returns `random_state` if it is a NumPy generator, else raises.

    Custom variations that draw random numbers call this first.

    Args:
      random_state: The `random_state` argument the variation received.
      variation: The variation asking, named in the error message.

    Raises:
      ValueError: if `random_state` is None.
      TypeError: if it is neither a `numpy.random.RandomState` nor a
        `numpy.random.Generator`.
    """
    if random_state is None:
        raise ValueError(
            f"{variation!r} draws random numbers and needs random_state "
            "(numpy.random.RandomState or numpy.random.Generator); got None. "
            "Interactively, pass e.g. random_state=np.random.RandomState(0)."
        )
    if not isinstance(random_state, (np.random.RandomState, np.random.Generator)):
        raise TypeError(
            f"{variation!r}: random_state must be a numpy.random.RandomState "
            f"or numpy.random.Generator, got {type(random_state).__name__}."
        )
    return random_state


def _is_variation_like(value: Any) -> bool:
    # Classes are callable but constructing one is never what a nested
    # structure of parameters means, so they are kept as plain values.
    return callable(value) and not isinstance(value, type)


def evaluate(
    structure: Any,
    initial_value: Any = None,
    current_value: Any = None,
    random_state: RandomStateLike | None = None,
) -> Any:
    """Evaluates every variation or callable inside a nested structure.

    Args:
      structure: A value, a callable, or dicts, lists and tuples (including
        namedtuples) nesting them, to any depth. NumPy arrays are leaves.
      initial_value: Passed to each callable as `initial_value=`.
      current_value: Passed to each callable as `current_value=`.
      random_state: Passed to each callable as `random_state=`.

    Returns:
      A structure of the same types with each callable replaced by the value
      it returns, called as `fn(initial_value=..., current_value=...,
      random_state=...)`, in depth-first order (dict insertion order).
    """
    if _is_variation_like(structure):
        return structure(
            initial_value=initial_value, current_value=current_value, random_state=random_state
        )
    if isinstance(structure, dict):
        return type(structure)(
            (key, evaluate(value, initial_value, current_value, random_state))
            for key, value in structure.items()
        )
    if isinstance(structure, list):
        return [evaluate(value, initial_value, current_value, random_state) for value in structure]
    if isinstance(structure, tuple):
        values = [
            evaluate(value, initial_value, current_value, random_state) for value in structure
        ]
        if hasattr(structure, "_fields"):
            return type(structure)(*values)
        return type(structure)(values)
    return structure


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

    def __pow__(self, other: Any) -> Variation:
        return _BinaryOperation(operator.pow, self, other)

    def __rpow__(self, other: Any) -> Variation:
        return _BinaryOperation(operator.pow, other, self)

    def __neg__(self) -> Variation:
        return _Negation(self)


_SYMBOLS = {
    operator.add: "+",
    operator.sub: "-",
    operator.mul: "*",
    operator.truediv: "/",
    operator.pow: "**",
}


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
        return self._op(_as_operand(first), _as_operand(second))

    def __repr__(self) -> str:
        return f"({self._first!r} {_SYMBOLS[self._op]} {self._second!r})"


class _Negation(Variation):
    def __init__(self, variation: Any):
        self._variation = variation

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> Any:
        return -_as_operand(evaluate(self._variation, initial_value, current_value, random_state))

    def __repr__(self) -> str:
        return f"-{self._variation!r}"


def _as_operand(value: Any) -> Any:
    # Lists and tuples would concatenate or repeat under + and *; arithmetic
    # on variations is always elementwise.
    if isinstance(value, (list, tuple)):
        return np.asarray(value)
    return value
