"""Deterministic variations: `Constant`, `Sequence` and `Identity`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from composer_tasks.composer.variation import base
from composer_tasks.composer.variation.base import RandomStateLike


class Constant(base.Variation):
    """Always returns `value` (the same object; it is not copied)."""

    def __init__(self, value: Any):
        self._value = value

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> Any:
        return self._value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Constant) and base.equal(self._value, other._value)

    def __str__(self) -> str:
        # As dm_control: the value alone, so an expression's str reads `add(3, 5)`.
        return f"{self._value}"

    def __repr__(self) -> str:
        return f"Constant({self._value!r})"


class Sequence(base.Variation):
    """Returns the entries of `values` one per call, cycling at the end.

    Entries may be variations or callables, evaluated when their turn comes.
    The position is the only state; `reset()` returns to the first entry.
    """

    def __init__(self, values: Iterable[Any]):
        try:
            values = list(values)
        except TypeError:
            raise TypeError(f"Sequence: values must be iterable, got {values!r}.") from None
        if not values:
            raise ValueError("Sequence: values must not be empty.")
        self._values = values
        self._position = 0

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> Any:
        value = self._values[self._position]
        self._position = (self._position + 1) % len(self._values)
        return base.evaluate(value, initial_value, current_value, random_state)

    def reset(self) -> None:
        """Makes the next call return the first entry."""
        self._position = 0

    @property
    def values(self) -> tuple[Any, ...]:
        """The entries, in the order they are returned."""
        return tuple(self._values)

    def __repr__(self) -> str:
        return f"Sequence({self._values!r})"


class Identity(base.Variation):
    """Returns the current value unchanged (dm_control's `Identity`)."""

    def __call__(
        self,
        initial_value: Any = None,
        current_value: Any = None,
        random_state: RandomStateLike | None = None,
    ) -> Any:
        return current_value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Identity)

    def __repr__(self) -> str:
        return "Identity()"


evaluate = base.evaluate
