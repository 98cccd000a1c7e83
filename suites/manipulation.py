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

from collections.abc import Callable

from composer_tasks import composer
from composer_tasks.tasks.manipulation import common
from composer_tasks.tasks.manipulation.shared import registry

TIME_LIMIT_S = common.TIME_LIMIT_S

# Importing composer_tasks.tasks.manipulation registered the task functions of its
# bricks, lift, place and reach modules, in dm_control's order, and closed the
# registry; as dm_control's, these are the names registered by then.
ALL = tuple(registry.get_all_names())
TAGS = tuple(registry.get_tags())
FEATURES = tuple(name for name in ALL if name.endswith("_features"))
VISION = tuple(name for name in ALL if name.endswith("_vision"))


class UnknownNameError(KeyError, ValueError):
    """An unknown environment name: a KeyError as dm_control raises, and a
    ValueError as this project's other registries raise."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def get_environments_by_tag(tag: str) -> tuple[str, ...]:
    """The names of the environments tagged `tag` (one of `TAGS`), in registration
    order; for a tag not in `TAGS`, no names (as dm_control gives)."""
    return tuple(registry.get_names_by_tag(tag))


def _constructor(name: str) -> Callable[[], composer.Task]:
    """The registered task function `name` (a task registered after this module was
    imported too, as dm_control's `load` finds it).

    Raises:
      UnknownNameError: no task is registered under `name`.
    """
    if name not in registry.get_all_names():
        raise UnknownNameError(
            f"unknown manipulation environment {name!r}; valid names: {list(ALL)}"
        )
    return registry.get_constructor(name)


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
    task = _constructor(name)()
    return composer.Environment(task, time_limit=TIME_LIMIT_S, random_state=seed)


def make_task(name: str) -> composer.Task:
    """A new task of environment `name` (for `BatchEnvironment` factories)."""
    return _constructor(name)()
