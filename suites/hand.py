"""The D4PG paper's dexterous manipulation tasks: `hand.load("catch", seed=0)`.

Barth-Maron et al. 2018, Appendix E: an anthropomorphic hand with the MPL's
kinematics (22 joints, 13 position actuators) above a table, and a cylindrical
object. docs/hand.md describes the tasks, their observations (70, 77 and 72
numbers) and rewards, and which numbers are the paper's.

    from suites import hand
    env = hand.load("catch", seed=0)
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Optional

from composer_tasks import composer
from composer_tasks.tasks.manipulation import hand as hand_tasks

_TASKS: dict[str, Callable[[], hand_tasks._HandTask]] = {
    "catch": hand_tasks.Catch,
    "pick_up_and_orient": hand_tasks.PickUpAndOrient,
    "rotate_in_hand": hand_tasks.RotateInHand,
}
ALL = tuple(_TASKS)


def _check(name: str) -> None:
    if name not in _TASKS:
        raise ValueError(f"unknown hand environment {name!r}; valid names: {list(ALL)}")


def make_task(name: str) -> hand_tasks._HandTask:
    """A new task of environment `name`."""
    _check(name)
    return _TASKS[name]()


def load(name: str, seed=None) -> composer.Environment:
    """The `composer.Environment` called `name` (one of `ALL`); all its randomness
    (object and target poses, the rotate-in-hand target's drift) flows from `seed`
    (an int, a `np.random.RandomState` or None).

    Raises:
      ValueError: for an unknown name, listing the valid ones.
    """
    task = make_task(name)
    return composer.Environment(task, time_limit=task.time_limit_s, random_state=seed)


def load_batch(
    name: str,
    num_envs: int,
    seed: int = 0,
    num_threads: int = 0,
    backend: Any = "cpu",
    device: Optional[str] = None,
    clone_copies: bool = True,
):
    """`num_envs` copies of environment `name` stepped together
    (`composer_tasks.batch.BatchEnvironment`): copy i is bit-identical to
    `load(name, seed=batch.copy_seed(seed, i))` under the same actions. `backend`,
    `device` and `clone_copies` are `BatchEnvironment`'s ("warp": MuJoCo Warp,
    vectorised tasks only; `clone_copies=False` calls the factory for every copy)."""
    from composer_tasks import batch

    _check(name)
    return batch.BatchEnvironment.from_environments(
        functools.partial(load, name),
        num_envs,
        num_threads=num_threads,
        seed=seed,
        backend=backend,
        device=device,
        clone_copies=clone_copies,
    )


def register_environments() -> None:
    """Registers every name of `ALL` with `composer_tasks.registry` (the
    `composer_tasks.environments` entry point)."""
    from composer_tasks import registry

    for name in ALL:
        registry.register(f"hand_{name}", functools.partial(load, name), collection="hand")
