"""Observables: the named observables of one entity, declared with `@observable`.

An entity's `_build_observables()` returns an `Observables` (usually a subclass
whose methods are decorated with `@composer.observable`); the Task collects them
under the entity's path (`creature/joint_positions`).
"""

from __future__ import annotations

import collections
import inspect
import posixpath
from collections.abc import Callable, ItemsView, Iterator, KeysView, Mapping, ValuesView
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

import numpy as np

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


# The options `set_options` may also be given directly, for every observable at once.
_OPTION_KEYS = frozenset(
    ("update_interval", "buffer_size", "delay", "aggregator", "corruptor", "enabled")
)


class _ObservableKeys:
    """`observables.dict_keys`: attribute `name` is the observation key of observable
    `name` (`observables.dict_keys.joint_positions == "walker/joint_positions"`)."""

    def __init__(self, observables: Observables[Any]) -> None:
        self._observables = observables

    def __getattr__(self, name: str) -> str:
        if name.startswith("_"):
            raise AttributeError(name)
        return self._observables._qualified(name)

    def __dir__(self) -> list[str]:
        return sorted(set(self._observables.keys()) | set(super().__dir__()))


class Observables(Generic[_EntityT]):
    """The observables of one entity, by name, in the order of their names.

    Access them as attributes (`entity.observables.joint_positions`) or by key
    (`entity.observables["joint_positions"]`). All start disabled unless their
    definition or `observable_options` enables them.
    """

    def __init__(self, entity: _EntityT) -> None:
        self._entity = entity
        self._observables: collections.OrderedDict[str, Any] = collections.OrderedDict()
        # As dm_control: in the order of the names (`sorted(dir(...))`, so capitals
        # first), whatever the order of definition; a flattened observation follows it.
        for name in sorted(dir(type(self))):
            method = inspect.getattr_static(self, name, None)
            if isinstance(method, _ObservableMethod):
                self._observables[name] = method.method(self)
        self._keys_helper = _ObservableKeys(self)

    @property
    def entity(self) -> _EntityT:
        return self._entity

    @property
    def dict_keys(self) -> _ObservableKeys:
        """The observation keys by observable name: `dict_keys.name` is the key under
        which observable `name` appears in the task's observables."""
        return self._keys_helper

    def _qualified(self, name: str) -> str:
        # dm_control joins the model's full identifier ("" for the root entity,
        # "walker/" for an attached one) and the name as a path.
        return posixpath.join(self._entity.prefix, name)

    def get_observable(self, name: str, name_fully_qualified: bool = False) -> Observable:
        """The observable `name`, or, with `name_fully_qualified`, the one whose
        observation key is `name` (`"walker/joint_positions"`)."""
        if name_fully_qualified:
            # As dm_control: the entity's prefix is removed wherever it occurs.
            name = name.replace(self._entity.prefix, "")
        return self[name]

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

    def as_dict(self, fully_qualified: bool = True) -> collections.OrderedDict[str, Observable]:
        """A new ordered dict of observation key -> observable (dm_control's default),
        or of name -> observable with `fully_qualified=False`.

        The key of an attached entity's observable is `prefix/name`
        (`"walker/joint_positions"`); the root entity's observables keep their names.
        """
        if not isinstance(fully_qualified, (bool, np.bool_)):
            raise TypeError(f"fully_qualified must be a bool, got {fully_qualified!r}")
        if not fully_qualified:
            return collections.OrderedDict(self._observables)
        return collections.OrderedDict(
            (self._qualified(name), item) for name, item in self._observables.items()
        )

    def add_observable(self, name: str, observable: Observable, enabled: bool = True) -> None:
        """Adds (or replaces) an observable under `name` and sets its `enabled`."""
        if not isinstance(name, str) or not name or "/" in name:
            raise ValueError(
                f"observable name must be a non-empty string without '/', got {name!r}"
            )
        observable.enabled = enabled
        self._observables[name] = observable

    def enable_all(self) -> None:
        for observable_object in self._observables.values():
            observable_object.enabled = True

    def disable_all(self) -> None:
        for observable_object in self._observables.values():
            observable_object.enabled = False

    def set_options(self, options: Mapping[str, Any] | None) -> None:
        """Configures observables from `{name: {option: value}}`, or every observable
        from `{option: value}` (keys among update_interval, buffer_size, delay,
        aggregator, corruptor, enabled), as dm_control does; None configures nothing.
        Options not given keep their values.

        Raises:
          KeyError: for an observable this entity does not have.
          AttributeError: for an option observables do not have.
        """
        if options is None:
            options = {}
        elif options.keys() and set(options.keys()) <= _OPTION_KEYS:
            options = {name: options for name in self._observables}
        for name, observable_options in options.items():
            observable_object = self._observables.get(name)
            if observable_object is None:
                # dm_control's message first, then what there is.
                raise KeyError(
                    f"No observable with name {name!r}: entity {self._entity.name!r} has "
                    f"{list(self._observables)}"
                )
            try:
                observable_object.configure(**observable_options)
            except (AttributeError, TypeError, ValueError) as error:
                raise type(error)(
                    f"{error} (observable {name!r} of entity {self._entity.name!r})"
                ) from error
