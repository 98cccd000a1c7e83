"""`TaggedTasks`: a registry of task factories by name, each with tags (dm_control's
`utils.containers`).

    SUITE = containers.TaggedTasks()

    @SUITE.add("benchmarking", "easy")
    def balance(time_limit=10.0, random=None):
        ...

    SUITE["balance"]()                        # by name
    SUITE.tagged("benchmarking", "easy")      # {name: factory} with every tag given
"""

import collections
from collections.abc import Callable, Iterator, Mapping
from typing import Any

# The message of `add` when a name is taken and overriding is off.
_NAME_ALREADY_EXISTS = (
    "a task factory named {name!r} is already registered and allow_overriding_keys is False"
)


class TaggedTasks(Mapping):
    """A read-only mapping of task name -> factory, in registration order, where each
    factory also carries tags.

    Args:
      allow_overriding_keys: whether `add` may register a factory under a name
        already taken (the new factory replaces the old one). Also an attribute,
        which may be changed later.
    """

    def __init__(self, allow_overriding_keys: bool = False) -> None:
        self._factories: dict[str, Callable[..., Any]] = collections.OrderedDict()
        # tag -> the names carrying it, in the order they were tagged.
        self._names_by_tag: dict[str, dict[str, None]] = collections.OrderedDict()
        self.allow_overriding_keys = allow_overriding_keys

    def add(self, *tags: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """A decorator registering a factory under its `__name__` with `tags`; it
        returns the factory unchanged.

        As in dm_control, overriding a name keeps the tags it had and adds the new ones.

        Raises:
          ValueError: (when the decorator is applied) the name is registered
            already and `allow_overriding_keys` is False.
        """

        def register(factory: Callable[..., Any]) -> Callable[..., Any]:
            name = factory.__name__
            if name in self._factories and not self.allow_overriding_keys:
                raise ValueError(_NAME_ALREADY_EXISTS.format(name=name))
            self._factories[name] = factory
            for tag in tags:
                self._names_by_tag.setdefault(tag, {})[name] = None
            return factory

        return register

    def tagged(self, *tags: str) -> dict[str, Callable[..., Any]]:
        """The factories carrying every one of `tags`, by name, in registration order;
        empty when no tag is given or no factory has them all."""
        if not tags:
            return {}
        tagged_names = [self._names_by_tag.get(tag, {}) for tag in tags]
        return {
            name: factory
            for name, factory in self._factories.items()
            if all(name in names for names in tagged_names)
        }

    def tags(self) -> list[str]:
        """Every tag used, in the order first used."""
        return list(self._names_by_tag)

    def __getitem__(self, name: str) -> Callable[..., Any]:
        return self._factories[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._factories)

    def __len__(self) -> int:
        return len(self._factories)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self._factories)})"
