"""Variators: apply variations to attributes of model elements each episode.

`MJCFVariator` edits `mujoco.MjSpec` elements (before compilation; the
Environment recompiles when the spec changed). `PhysicsVariator` edits the
compiled model or data through `physics.bind(element)` (no recompilation).

In both, a bound variation is called as `variation(initial_value=...,
current_value=..., random_state=...)`, where `initial_value` is the
attribute's value before any variation (a copy, so it cannot be changed by
accident) and `current_value` a copy of its value now. A bound plain value is
simply assigned. The result is checked against the attribute: array
attributes accept any value that broadcasts to their shape (so a single
sample can set every element), scalar attributes need a scalar.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Tuple

import numpy as np

from composer_tasks.composer import entity as entity_module
from composer_tasks.composer.variation import base
from composer_tasks.composer.variation.base import RandomStateLike

if TYPE_CHECKING:
    from composer_tasks.physics import Physics


class _Binding:
    __slots__ = ("variation", "initial_value", "initial_model")

    def __init__(self, variation: Any, initial_value: Any = None, initial_model: Any = None):
        self.variation = variation
        self.initial_value = initial_value
        self.initial_model = initial_model


def _describe(element: Any) -> str:
    name = getattr(element, "name", None)
    kind = type(element).__name__
    return f"{kind} {name!r}" if name else kind


def _copy(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.copy()
    return value


def _conform(value: Any, current: Any, element: Any, name: str) -> Any:
    """Returns `value` in the form `setattr(element, name, ...)` accepts."""
    if isinstance(current, np.ndarray):
        try:
            array = np.asarray(value, dtype=current.dtype)
            return np.array(np.broadcast_to(array, current.shape))
        except (TypeError, ValueError):
            raise ValueError(
                f"{_describe(element)}.{name} has shape {current.shape}; a "
                f"variation gave {value!r}, which does not broadcast to it."
            ) from None
    if isinstance(current, (bool, int, float)):
        if np.ndim(value) != 0:
            raise ValueError(
                f"{_describe(element)}.{name} is a scalar; a variation gave "
                f"shape {np.shape(value)}."
            )
        if isinstance(current, int) and not isinstance(current, bool) and value != np.round(value):
            raise ValueError(
                f"{_describe(element)}.{name} is an integer; a variation gave {value!r}."
            )
        return type(current)(value)
    return value


def _assign(target: Any, name: str, value: Any, element: Any) -> None:
    try:
        setattr(target, name, value)
    except (TypeError, ValueError) as error:
        raise TypeError(f"Cannot set {_describe(element)}.{name} to {value!r}: {error}") from None


class MJCFVariator:
    """Varies attributes of `mujoco.MjSpec` elements (geoms, bodies, ...).

    Call `apply_variations(random_state)` from `initialize_episode_mjcf`.
    Initial values are copied when an attribute is bound (or, after
    `reset_initial_values`, at the next `apply_variations`), so later episodes
    vary the original value, not the previous episode's.
    """

    def __init__(self) -> None:
        self._bindings: dict[Any, dict[str, _Binding]] = {}

    def bind_attributes(self, element: Any, **variations: Any) -> None:
        """Binds variations to attributes of a spec element.

        Args:
          element: A spec element, e.g. an `MjsGeom` or `MjsBody`, or
            `spec.option`.
          **variations: attribute name -> variation, callable or plain value.
            `None` removes an existing binding of that attribute. Binding an
            attribute again replaces its variation and re-reads its initial
            value.

        Raises:
          AttributeError: if the element has no such attribute.
        """
        for name, variation in variations.items():
            if not hasattr(element, name):
                raise AttributeError(f"{_describe(element)} has no attribute {name!r}.")
            attributes = self._bindings.setdefault(element, {})
            if variation is None:
                attributes.pop(name, None)
            else:
                attributes[name] = _Binding(variation, _copy(getattr(element, name)))

    def apply_variations(self, random_state: RandomStateLike) -> None:
        """Sets every bound attribute to a new value.

        Args:
          random_state: `numpy.random.RandomState` or `numpy.random.Generator`
            passed to the variations (the Environment's, in callbacks).
        """
        if any(self._bindings.values()):
            entity_module.mark_spec_changed()
        for element, attributes in self._bindings.items():
            for name, binding in attributes.items():
                current = _copy(getattr(element, name))
                if binding.initial_value is None:
                    # After `reset_initial_values`, the value found now is the new
                    # initial value (dm_control's MJCFVariator).
                    binding.initial_value = _copy(current)
                value = base.evaluate(
                    binding.variation, _copy(binding.initial_value), current, random_state
                )
                _assign(element, name, _conform(value, current, element, name), element)

    def bound_attributes(self) -> Iterator[Tuple[Any, str]]:
        """(element, attribute name) of every bound variation."""
        for element, attributes in self._bindings.items():
            for name in attributes:
                yield element, name

    def clear(self) -> None:
        """Removes all bindings; attributes keep their current values."""
        self._bindings.clear()

    def reset_initial_values(self) -> None:
        """Forgets the initial values: the next `apply_variations` takes each bound
        attribute's value at that time as its initial value, as dm_control's does."""
        for attributes in self._bindings.values():
            for binding in attributes.values():
                binding.initial_value = None


class PhysicsVariator:
    """Varies compiled-model (or data) attributes via `physics.bind`.

    Call `apply_variations(physics, random_state)` from `initialize_episode`.
    Attribute names are those of MuJoCo's bindings, e.g. `mass` of a body,
    `size` or `friction` of a geom, `damping` of a joint. The initial value of
    an attribute is read from the physics the first time it is varied on a
    given compiled model; after a recompilation (a new `physics.model`) it is
    read afresh, since the new model starts from the spec's values.
    """

    def __init__(self) -> None:
        self._bindings: dict[Any, dict[str, _Binding]] = {}

    def bind_attributes(self, element: Any, **variations: Any) -> None:
        """Binds variations to attributes of a spec element's compiled form.

        Args:
          element: A spec element (`MjsBody`, `MjsGeom`, `MjsJoint`, ...) of
            the model the physics was compiled from.
          **variations: attribute name -> variation, callable or plain value;
            `None` removes an existing binding of that attribute.
        """
        for name, variation in variations.items():
            attributes = self._bindings.setdefault(element, {})
            if variation is None:
                attributes.pop(name, None)
            else:
                attributes[name] = _Binding(variation)

    def apply_variations(self, physics: Physics, random_state: RandomStateLike) -> None:
        """Sets every bound attribute of `physics` to a new value.

        Args:
          physics: The `Physics` to modify, in place.
          random_state: `numpy.random.RandomState` or `numpy.random.Generator`
            passed to the variations.

        Raises:
          AttributeError: if a bound attribute does not exist for its element.
        """
        model = physics.model
        for element, attributes in self._bindings.items():
            if not attributes:
                continue
            bound = physics.bind(element)
            for name, binding in attributes.items():
                try:
                    current = _copy(getattr(bound, name))
                except AttributeError:
                    raise AttributeError(
                        f"{_describe(element)} has no model or data attribute {name!r}."
                    ) from None
                if binding.initial_model is not model:
                    binding.initial_value = _copy(current)
                    binding.initial_model = model
                value = base.evaluate(
                    binding.variation, _copy(binding.initial_value), current, random_state
                )
                _assign(bound, name, _conform(value, current, element, name), element)

    def bound_attributes(self) -> Iterator[Tuple[Any, str]]:
        """(element, attribute name) of every bound variation."""
        for element, attributes in self._bindings.items():
            for name in attributes:
                yield element, name

    def clear(self) -> None:
        """Removes all bindings; the physics keeps its current values."""
        self._bindings.clear()

    def reset_initial_values(self) -> None:
        """Forgets the initial values: the next `apply_variations` reads each bound
        attribute's value in the physics as its initial value, as dm_control's does."""
        for attributes in self._bindings.values():
            for binding in attributes.values():
                binding.initial_value = None
                binding.initial_model = None
