"""The Control Suite: `suite.load("humanoid", "run")`.

Each domain is one module of `suites` with a `SUITE` registry of task factories.
"""

import functools
from collections.abc import Mapping
from typing import Any, Optional, Tuple

import numpy as np

from suites import (
    acrobot,
    ball_in_cup,
    base,
    cartpole,
    cheetah,
    common,  # noqa: F401  (dm_control's suite.common)
    control,
    dog,
    finger,
    fish,
    hopper,
    humanoid,
    humanoid_CMU,
    lqr,
    manipulator,
    pendulum,
    point_mass,
    quadruped,
    reacher,
    stacker,
    swimmer,
    utils,  # noqa: F401  (dm_control's suite.utils)
    walker,
)

# dm_control 1.0.50's domains, sorted by name as it sorts them; each is also an
# attribute of this module (`suite.cartpole`), as there.
_DOMAINS = {
    module.__name__.rsplit(".", 1)[1]: module
    for module in (
        acrobot,
        ball_in_cup,
        cartpole,
        cheetah,
        dog,
        finger,
        fish,
        hopper,
        humanoid,
        humanoid_CMU,
        lqr,
        manipulator,
        pendulum,
        point_mass,
        quadruped,
        reacher,
        stacker,
        swimmer,
        walker,
    )
}
DOMAIN_NAMES = tuple(_DOMAINS)
__all__ = [
    "ALL_TASKS",
    "BENCHMARKING",
    "DOMAIN_NAMES",
    "EASY",
    "EXTRA",
    "HARD",
    "NO_REWARD_VIZ",
    "REWARD_VIZ",
    "TASKS_BY_DOMAIN",
    "base",
    "build_environment",
    "control",
    "load",
    "load_batch",
    "acrobot",
    "ball_in_cup",
    "cartpole",
    "cheetah",
    "dog",
    "finger",
    "fish",
    "hopper",
    "humanoid",
    "humanoid_CMU",
    "lqr",
    "manipulator",
    "pendulum",
    "point_mass",
    "quadruped",
    "reacher",
    "stacker",
    "swimmer",
    "walker",
]


def _tasks_tagged(tag):
    """(domain, task) pairs with `tag`, domains in `DOMAIN_NAMES` order (sorted, as
    dm_control sorts them), tasks in their registry's order; None: every task."""
    return tuple(
        (domain, task)
        for domain, module in _DOMAINS.items()
        for task in (module.SUITE.names() if tag is None else module.SUITE.tagged(tag))
    )


ALL_TASKS = _tasks_tagged(None)
BENCHMARKING = _tasks_tagged("benchmarking")
EASY = _tasks_tagged("easy")
HARD = _tasks_tagged("hard")
# dm_control sorts the two complements (not registry order).
EXTRA = tuple(sorted(set(ALL_TASKS) - set(BENCHMARKING)))
NO_REWARD_VIZ = _tasks_tagged("no_reward_visualization")
REWARD_VIZ = tuple(sorted(set(ALL_TASKS) - set(NO_REWARD_VIZ)))
TASKS_BY_DOMAIN = {domain: tuple(module.SUITE.names()) for domain, module in _DOMAINS.items()}


def load(
    domain_name: str,
    task_name: str,
    task_kwargs: Optional[Mapping[str, Any]] = None,
    environment_kwargs: Optional[Mapping[str, Any]] = None,
    visualize_reward: bool = False,
):
    """Returns the `composer.Environment` of a suite task.

    Args:
      domain_name, task_name: e.g. "cartpole", "swingup".
      task_kwargs: keyword arguments of the task factory; `{"random": seed}` seeds
        the episode randomness (an int, a `np.random.RandomState` or None).
      environment_kwargs: keyword arguments of `composer.Environment`.
      visualize_reward: recolour the bodies by the reward.

    Raises:
      ValueError: for an unknown domain or task, listing the valid names, or a
        `visualize_reward` that is not a bool.
    """
    registry = _check_names(domain_name, task_name)
    task_kwargs = dict(_check_kwargs(task_kwargs, "task_kwargs"))
    if environment_kwargs is not None:
        task_kwargs["environment_kwargs"] = dict(
            _check_kwargs(environment_kwargs, "environment_kwargs")
        )
    if not isinstance(visualize_reward, bool):
        # ValueError, as dm_control's (its base.Task.visualize_reward setter raises it).
        raise ValueError(f"visualize_reward must be a bool, got {visualize_reward!r}")
    env = registry[task_name](**task_kwargs)
    env.task.visualize_reward = visualize_reward
    return env


def build_environment(
    domain_name: str,
    task_name: str,
    task_kwargs: Optional[Mapping[str, Any]] = None,
    environment_kwargs: Optional[Mapping[str, Any]] = None,
    visualize_reward: bool = False,
):
    """`load` under dm_control's other name for it (same arguments, same result)."""
    return load(domain_name, task_name, task_kwargs, environment_kwargs, visualize_reward)


def load_batch(
    domain_name: str,
    task_name: str,
    num_envs: int,
    task_kwargs: Optional[Mapping[str, Any]] = None,
    num_threads: int = 0,
    environment_kwargs: Optional[Mapping[str, Any]] = None,
    seed: Optional[int] = None,
    model_variations: Optional[Mapping[Tuple[str, str, str], Any]] = None,
    backend: Any = "cpu",
    device: Optional[str] = None,
    clone_copies: bool = True,
):
    """`num_envs` copies of a suite task stepped together (`composer_tasks.batch`).

    Copy i is `load(domain_name, task_name, task_kwargs={..., "random": derive_seed(seed, i)})`
    bit for bit (`composer_tasks.seeding`); `task_kwargs["random"]`, if given, is
    the batch seed (an int: the batch derives its copies' random states from it).
    The copies' models leave out the textures' patterns
    (`environment_kwargs={"textures": False}` unless given otherwise), which only
    rendering would show. `backend` and `device` are `BatchEnvironment`'s: "cpu"
    (`mujoco.batch` threads) or "warp" (one MuJoCo Warp model, `nworld = num_envs`,
    on `device`, e.g. "cuda:0" or "cpu"; `composer_tasks.batch_warp`).
    `clone_copies` is `BatchEnvironment`'s too: True (the default) makes copies 2 to
    N-1 as clones of copy 0 where copy 1 shows that safe (`composer_tasks.batch_clone`),
    False calls the factory for every copy.

    Raises:
      ValueError: for an unknown domain or task (listing the valid names), or a
        seed given both as `seed` and as `task_kwargs["random"]`.
      TypeError: `task_kwargs["random"]` is not an int or None (a
        `np.random.RandomState` cannot seed N copies).
    """
    from composer_tasks.batch import BatchEnvironment

    _check_names(domain_name, task_name)
    environment_kwargs = {
        "textures": False,
        **_check_kwargs(environment_kwargs, "environment_kwargs"),
    }
    task_kwargs = dict(_check_kwargs(task_kwargs, "task_kwargs"))
    if seed is None:
        seed = task_kwargs.pop("random", None)
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise TypeError(
                f"task_kwargs['random'] of load_batch is the batch seed, an int or None; got "
                f"{type(seed).__name__} (the batch derives each copy's random state from one int)"
            )
    elif "random" in task_kwargs:
        raise ValueError("give the batch seed either as seed or as task_kwargs['random'], not both")

    def make(copy_random_state):
        return load(
            domain_name,
            task_name,
            task_kwargs={**task_kwargs, "random": copy_random_state},
            environment_kwargs=environment_kwargs,
        )

    return BatchEnvironment.from_environments(
        make,
        num_envs,
        num_threads=num_threads,
        seed=seed,
        model_variations=model_variations,
        backend=backend,
        device=device,
        clone_copies=clone_copies,
    )


def _check_names(domain_name, task_name):
    """The domain's registry, or a ValueError listing the valid names."""
    if not isinstance(domain_name, str) or domain_name not in _DOMAINS:
        raise ValueError(f"unknown domain {domain_name!r}; valid domains: {sorted(_DOMAINS)}")
    registry = _DOMAINS[domain_name].SUITE
    if not isinstance(task_name, str) or task_name not in registry:
        raise ValueError(
            f"unknown task {task_name!r} of domain {domain_name!r}; valid tasks: {registry.names()}"
        )
    return registry


def _check_kwargs(kwargs, name):
    if kwargs is None:
        return {}
    if not isinstance(kwargs, Mapping):
        raise TypeError(
            f"{name} must be a dict of keyword arguments or None, got {type(kwargs).__name__}"
        )
    return kwargs


def register_environments():
    """Registers every task as "<domain> <task>" with `composer_tasks.registry`,
    seeded through `task_kwargs={"random": seed}` (setup.py's entry point)."""
    from composer_tasks import registry

    for domain_name, task_name in ALL_TASKS:
        registry.register(
            f"{domain_name} {task_name}",
            functools.partial(_load_seeded, domain_name, task_name),
            collection="suite",
        )


def _load_seeded(domain_name, task_name, seed):
    return load(domain_name, task_name, task_kwargs={"random": seed})
