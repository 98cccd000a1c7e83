"""Named manipulation environments of the dm_control paper (§8): `manipulation.load(name)`.

Each task comes as `<task>_features` (proprioception, joint torques and the
props' poses) and `<task>_vision` (proprioception, torques and the 84x84
`front_close` camera). Every episode lasts 10 s with an agent step every 0.04 s
(250 steps); rewards lie in [0, 1]. docs/manipulation.md describes the tasks,
their rewards and what differs from dm-control 1.0.50.

All 25 of dm-control 1.0.50, in its order (`ALL`): stack_2_bricks,
stack_2_bricks_moveable_base, stack_3_bricks, stack_3_bricks_random_order
(features only, as published), stack_2_of_3_bricks_random_order,
reassemble_3_bricks_fixed_order, reassemble_5_bricks_random_order, lift_brick,
lift_large_box, place_brick, place_cradle, reach_duplo and reach_site; `TAGS` and
`get_environments_by_tag` as there.
"""

import collections
import functools

from composer_tasks import composer
from composer_tasks.tasks.manipulation import bricks
from composer_tasks.tasks.manipulation import common
from composer_tasks.tasks.manipulation import lift
from composer_tasks.tasks.manipulation import place
from composer_tasks.tasks.manipulation import reach
from composer_tasks.tasks.manipulation.shared import registry as shared_registry

TIME_LIMIT_S = common.TIME_LIMIT_S

# In dm_control's registration order (its bricks, lift, place and reach modules).
_TASKS = collections.OrderedDict(
    [
        ("stack_2_bricks", lambda settings: bricks.make_stack(settings, 2, moveable_base=False)),
        (
            "stack_2_bricks_moveable_base",
            lambda settings: bricks.make_stack(settings, 2, moveable_base=True),
        ),
        ("stack_3_bricks", lambda settings: bricks.make_stack(settings, 3, moveable_base=False)),
        (
            "stack_3_bricks_random_order",
            lambda settings: bricks.make_stack(
                settings, 3, moveable_base=False, randomize_order=True
            ),
        ),
        (
            "stack_2_of_3_bricks_random_order",
            lambda settings: bricks.make_stack(
                settings, 3, moveable_base=False, target_height=2, randomize_order=True
            ),
        ),
        ("reassemble_3_bricks_fixed_order", lambda settings: bricks.make_reassemble(settings, 3)),
        (
            "reassemble_5_bricks_random_order",
            lambda settings: bricks.make_reassemble(settings, 5, randomize_order=True),
        ),
        ("lift_brick", lambda settings: lift.make_lift(settings, "duplo")),
        ("lift_large_box", lambda settings: lift.make_lift(settings, "box")),
        ("place_brick", lambda settings: place.make_place(settings, "duplo")),
        ("place_cradle", lambda settings: place.make_place(settings, "cradle")),
        ("reach_duplo", lambda settings: reach.make_reach(settings, use_site=False)),
        ("reach_site", lambda settings: reach.make_reach(settings, use_site=True)),
    ]
)
# dm_control tags the reach tasks "easy".
_EASY = ("reach_duplo", "reach_site")
# dm_control has no vision variant of this one.
_FEATURES_ONLY = ("stack_3_bricks_random_order",)


def _registry():
    entries = collections.OrderedDict()
    tags = {}
    for task_name, factory in _TASKS.items():
        easy = ("easy",) if task_name in _EASY else ()
        entries[f"{task_name}_features"] = functools.partial(factory, common.PERFECT_FEATURES)
        tags[f"{task_name}_features"] = ("features", *easy)
        if task_name not in _FEATURES_ONLY:
            entries[f"{task_name}_vision"] = functools.partial(factory, common.VISION)
            tags[f"{task_name}_vision"] = ("vision", *easy)
    return entries, tags


_REGISTRY, _TAGS_OF = _registry()


def _constructor(name, factory):
    def constructor():
        return factory()

    constructor.__name__ = constructor.__qualname__ = name
    return constructor


# dm_control's task registry (`manipulation.shared.registry`) holds the same
# constructors under the same names and tags, and is then closed to accidental
# re-registration as dm_control closes it after importing its task modules.
for _name, _factory in _REGISTRY.items():
    shared_registry.add(*_TAGS_OF[_name])(_constructor(_name, _factory))
shared_registry.done_importing_tasks()

ALL = tuple(_REGISTRY)
TAGS = ("features", "vision", "easy")
FEATURES = tuple(name for name in ALL if name.endswith("_features"))
VISION = tuple(name for name in ALL if name.endswith("_vision"))


class UnknownNameError(KeyError, ValueError):
    """An unknown environment name: a KeyError as dm_control raises, and a
    ValueError as this project's other registries raise."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def get_environments_by_tag(tag: str) -> tuple[str, ...]:
    """The names of the environments tagged `tag` (one of `TAGS`), in `ALL`'s order;
    for a tag not in `TAGS`, no names (as dm_control gives)."""
    return tuple(name for name in ALL if tag in _TAGS_OF[name])


def load(name: str, seed=None) -> composer.Environment:
    """Returns the `composer.Environment` called `name` (10 s episodes).

    Args:
      name: one of `ALL`.
      seed: an int, a `np.random.RandomState` or None; all randomness of the
        environment flows from it.

    Raises:
      UnknownNameError (a KeyError, as dm_control raises, and a ValueError): for an
        unknown name, listing the valid ones.
    """
    if name not in _REGISTRY:
        raise UnknownNameError(
            f"unknown manipulation environment {name!r}; valid names: {list(ALL)}"
        )
    return composer.Environment(_REGISTRY[name](), time_limit=TIME_LIMIT_S, random_state=seed)


def make_task(name: str) -> composer.Task:
    """A new task of environment `name` (for `BatchEnvironment` factories)."""
    if name not in _REGISTRY:
        raise UnknownNameError(
            f"unknown manipulation environment {name!r}; valid names: {list(ALL)}"
        )
    return _REGISTRY[name]()
