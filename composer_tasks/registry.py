"""Named environments: the suites register their loaders here, tools look names up.

    from composer_tasks import registry
    env = registry.load("humanoid stand", seed=0)
    env = registry.load("walker_parkour_hurdles", seed=0)

A name is one or more words separated by single spaces: the Control Suite's are
"<domain> <task>", the locomotion environments' one word. `composer_tasks` does
not import the packages that define environments (they depend on it, not the
other way round). Instead each declares a setuptools entry point in the group
`ENTRY_POINT_GROUP` (see setup.py), a function without arguments that calls
`register` for each of its names:

    entry_points={"composer_tasks.environments": [
        "suite = suites.suite:register_environments"]}

The first lookup loads every entry point of the group. Entry points exist once
the package is installed (`pip install -e .`); a program can also call a
suite's `register_environments()` itself. Manipulation and soccer register the
same way.
"""

import threading
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any

ENTRY_POINT_GROUP = "composer_tasks.environments"

# (collection, loader) by name, in registration order.
_LOADERS: dict[str, tuple[str, Callable[[Any], Any]]] = {}
_LOCK = threading.RLock()
_discovered = False


class UnknownEnvironmentError(ValueError):
    """No environment is registered under the name asked for."""


def register(name: str, loader: Callable[[Any], Any], *, collection: str) -> None:
    """Makes `loader(seed)` the environment called `name`.

    Args:
      name: words separated by single spaces, e.g. "cartpole swingup".
      loader: `loader(seed) -> composer.Environment`; `seed` is an int, a
        `np.random.RandomState` or None, and all the environment's randomness
        flows from it.
      collection: the family the name belongs to ("suite", "locomotion", ...),
        shown in listings. Registering a name again from the same collection
        replaces its loader.

    Raises:
      ValueError: for a malformed name, or one another collection registered.
      TypeError: if `loader` is not callable.
    """
    if not isinstance(name, str) or not name or name != " ".join(name.split()):
        raise ValueError(f"an environment name is words separated by single spaces, got {name!r}")
    if not isinstance(collection, str) or not collection:
        raise ValueError(f"collection must be a non-empty string, got {collection!r}")
    if not callable(loader):
        raise TypeError(
            f"loader must be callable(seed) -> Environment, got {type(loader).__name__}"
        )
    with _LOCK:
        previous = _LOADERS.get(name)
        if previous is not None and previous[0] != collection:
            raise ValueError(
                f"environment {name!r} is registered by collection {previous[0]!r} already; "
                f"collection {collection!r} cannot register it too"
            )
        _LOADERS[name] = (collection, loader)


def names(collection: str | None = None) -> tuple[str, ...]:
    """The registered names (of one collection if given), in registration order."""
    _discover()
    with _LOCK:
        return tuple(
            name
            for name, (owner, _) in _LOADERS.items()
            if collection is None or owner == collection
        )


def collections() -> tuple[str, ...]:
    """The collections that registered names, in registration order."""
    _discover()
    with _LOCK:
        return tuple(dict.fromkeys(owner for owner, _ in _LOADERS.values()))


def load(name: str | Sequence[str], seed: Any = None) -> Any:
    """The environment called `name` (a string, or its words as a sequence), seeded.

    Raises:
      UnknownEnvironmentError (a ValueError): for an unknown name, listing the
        registered names that share its first word, or all of them by collection.
    """
    if not isinstance(name, str):
        if not all(isinstance(word, str) for word in name):
            raise TypeError(f"name must be a string or a sequence of strings, got {name!r}")
        name = " ".join(name)
    _discover()
    with _LOCK:
        entry = _LOADERS.get(name)
    if entry is None:
        raise UnknownEnvironmentError(_unknown_name_message(name))
    return entry[1](seed)


def _unknown_name_message(name: str) -> str:
    with _LOCK:
        registered = list(_LOADERS.items())
    if not registered:
        return (
            f"unknown environment {name!r}: no environments are registered. The suites "
            f"register theirs through the {ENTRY_POINT_GROUP!r} entry points, which exist "
            f"once the package is installed (pip install -e .)"
        )
    first = name.split(" ")[0] if name else ""
    related = [other for other, _ in registered if other.split(" ")[0] == first]
    if related:
        return f"unknown environment {name!r}; names starting with {first!r}: {', '.join(related)}"
    counts: dict[str, list[str]] = {}
    for other, (owner, _) in registered:
        counts.setdefault(owner, []).append(other)
    listing = "; ".join(f"{owner}: {', '.join(members)}" for owner, members in counts.items())
    return f"unknown environment {name!r}; registered names by collection: {listing}"


def _discover() -> None:
    """Loads the entry points of `ENTRY_POINT_GROUP` once (they call `register`)."""
    global _discovered
    with _LOCK:
        if _discovered:
            return
        _discovered = True
        for entry_point in metadata.entry_points(group=ENTRY_POINT_GROUP):
            try:
                register_all = entry_point.load()
                register_all()
            except Exception as error:
                _discovered = False  # The next lookup tries again and fails the same way.
                raise RuntimeError(
                    f"the environment entry point {entry_point.name!r} ({entry_point.value}) of "
                    f"group {ENTRY_POINT_GROUP!r} failed: {error}"
                ) from error
