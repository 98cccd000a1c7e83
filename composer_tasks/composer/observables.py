"""Observables: the named observables of one entity, declared with `@observable`.

An entity's `_build_observables()` returns an `Observables` (usually a subclass
whose methods are decorated with `@composer.observable`); the Task collects them
under the entity's path (`creature/joint_positions`).
"""

from __future__ import annotations

import collections
import inspect
from collections.abc import Callable, ItemsView, Iterator, KeysView, Mapping, ValuesView
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

if TYPE_CHECKING:
    from composer_tasks.composer.entity import Entity
    from composer_tasks.composer.observation.observable import Observable

# The entity class whose observables an `Observables` subclass declares
# (`class WalkerObservables(Observables["Walker"])`), so that its methods may read
# that class's attributes through `self._entity`.
_EntityT = TypeVar("_EntityT", bound="Entity")


class _ObservableMethod:
    """Descriptor made by `@observable`: the method builds the observable once."""

    def __init__(self, method: Callable[[Any], Observable]) -> None:
        self.method = method
        self.name = method.__name__
        self.__doc__ = method.__doc__

    @overload
    def __get__(self, observables: None, owner: type | None = None) -> _ObservableMethod: ...

    @overload
    def __get__(self, observables: Observables[Any], owner: type | None = None) -> Observable: ...

    def __get__(
        self, observables: Observables[Any] | None, owner: type | None = None
    ) -> _ObservableMethod | Observable:
        if observables is None:
            return self
        return observables[self.name]


def observable(method: Callable[[Any], Observable]) -> _ObservableMethod:
    """Declares a method of an `Observables` subclass as an observable.

    The method takes `self` (the `Observables`, whose `_entity` is the entity) and
    returns an observable; it is called once, when the entity is built.
    """
    return _ObservableMethod(method)


class Observables(Generic[_EntityT]):
    """The observables of one entity, by name, in declaration order.

    Access them as attributes (`entity.observables.joint_positions`) or by key
    (`entity.observables["joint_positions"]`). All start disabled unless their
    definition or `observable_options` enables them.
    """

    def __init__(self, entity: _EntityT) -> None:
        self._entity = entity
        self._observables: collections.OrderedDict[str, Any] = collections.OrderedDict()
        # Definition order, base classes first; an override keeps its base's place.
        for cls in reversed(type(self).__mro__):
            for name, member in vars(cls).items():
                if isinstance(member, _ObservableMethod) and name not in self._observables:
                    self._observables[name] = None
        for name in self._observables:
            method = inspect.getattr_static(self, name)
            self._observables[name] = method.method(self)

    @property
    def entity(self) -> _EntityT:
        return self._entity

    def __getitem__(self, name: str) -> Observable:
        try:
            return self._observables[name]
        except KeyError:
            raise KeyError(
                f"entity {self._entity.name!r} has no observable {name!r}; it has "
                f"{list(self._observables)}"
            ) from None

    def __getattr__(self, name: str) -> Observable:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._observables[name]
        except KeyError:
            raise AttributeError(
                f"entity {self._entity.name!r} has no observable {name!r}; it has "
                f"{list(self._observables)}"
            ) from None

    def __contains__(self, name: object) -> bool:
        return name in self._observables

    def __iter__(self) -> Iterator[str]:
        return iter(self._observables)

    def __len__(self) -> int:
        return len(self._observables)

    def keys(self) -> KeysView[str]:
        return self._observables.keys()

    def values(self) -> ValuesView[Observable]:
        return self._observables.values()

    def items(self) -> ItemsView[str, Observable]:
        return self._observables.items()

    def as_dict(self) -> collections.OrderedDict[str, Observable]:
        """A new ordered dict of name -> observable."""
        return collections.OrderedDict(self._observables)

    def add_observable(
        self, name: str, observable_object: Observable, enabled: bool = True
    ) -> None:
        """Adds (or replaces) an observable under `name` and sets its `enabled`."""
        if not isinstance(name, str) or not name or "/" in name:
            raise ValueError(
                f"observable name must be a non-empty string without '/', got {name!r}"
            )
        observable_object.enabled = enabled
        self._observables[name] = observable_object

    def enable_all(self) -> None:
        for observable_object in self._observables.values():
            observable_object.enabled = True

    def disable_all(self) -> None:
        for observable_object in self._observables.values():
            observable_object.enabled = False

    def set_options(self, options: Mapping[str, Mapping[str, Any]]) -> None:
        """Configures observables from `{name: {option: value}}`.

        Raises:
          KeyError: for an observable this entity does not have.
          AttributeError: for an option observables do not have.
        """
        for name, observable_options in options.items():
            observable_object = self[name]
            for option, value in observable_options.items():
                if not hasattr(type(observable_object), option):
                    raise AttributeError(
                        f"observable {name!r} of entity {self._entity.name!r} has no option {option!r}"
                    )
                try:
                    setattr(observable_object, option, value)
                except (TypeError, ValueError) as error:
                    raise type(error)(
                        f"observable {name!r} of entity {self._entity.name!r}: {error}"
                    ) from error
