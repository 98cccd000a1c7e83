"""The registry of manipulation task constructors, by name and tag.

`@registry.add(tags.FEATURES, ...)` registers a constructor under its function
name; `get_constructor(name)`, `get_all_names()`, `get_tags(name)` and
`get_names_by_tag(tag)` read it back. Registering a name twice raises ValueError
until `done_importing_tasks()` (dm_control's rule, so that two task modules cannot
silently claim one name while the package is being imported).
"""

from composer_tasks.utils import containers

_CONSTRUCTORS = containers.TaggedTasks(allow_overriding_keys=False)

add = _CONSTRUCTORS.add
get_constructor = _CONSTRUCTORS.__getitem__
get_all_names = _CONSTRUCTORS.keys
get_tags = _CONSTRUCTORS.tags
get_names_by_tag = _CONSTRUCTORS.tagged


def done_importing_tasks() -> None:
    """Allows later registrations to replace earlier ones (after the built-in tasks
    are imported, a user's module may redefine one)."""
    _CONSTRUCTORS.allow_overriding_keys = True
