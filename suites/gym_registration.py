"""Control Suite tasks as Gymnasium ids: `ComposerSuite/<domain>-<task>-v0`; the
D4PG paper's hand tasks as `ComposerHand/<task>-v0` (`suites.hand.ALL`).

    import gymnasium
    import suites.gym_registration  # registers every suite task
    env = gymnasium.make("ComposerSuite/cartpole-swingup-v0")
    vector_env = gymnasium.make_vec("ComposerSuite/cartpole-swingup-v0", num_envs=16,
                                    vectorization_mode="vector_entry_point")

Keyword arguments of `gymnasium.make` reach `suite.load` (`task_kwargs`,
`environment_kwargs`) and the adapter (`flatten_observations`, `render_mode`).
"""

import gymnasium

from composer_tasks.wrappers.gymnasium import GymnasiumEnv, GymnasiumVectorEnv
from suites import suite

NAMESPACE = "ComposerSuite"
HAND_NAMESPACE = "ComposerHand"


def gymnasium_id(domain_name, task_name):
    """The Gymnasium id of a suite task: 'ComposerSuite/<domain>-<task>-v0'."""
    return f"{NAMESPACE}/{domain_name}-{task_name}-v0"


def make_env(
    domain_name,
    task_name,
    task_kwargs=None,
    environment_kwargs=None,
    flatten_observations=False,
    render_mode=None,
):
    """A `GymnasiumEnv` over `suite.load(...)`: the entry point of the registered ids."""
    env = suite.load(
        domain_name, task_name, task_kwargs=task_kwargs, environment_kwargs=environment_kwargs
    )
    return GymnasiumEnv(env, flatten_observations=flatten_observations, render_mode=render_mode)


def make_vector_env(
    domain_name, task_name, num_envs=1, task_kwargs=None, num_threads=0, flatten_observations=False
):
    """A `GymnasiumVectorEnv` over `suite.load_batch(...)`: the vector entry point."""
    batch = suite.load_batch(
        domain_name, task_name, num_envs, task_kwargs=task_kwargs, num_threads=num_threads
    )
    return GymnasiumVectorEnv(batch, flatten_observations=flatten_observations)


def hand_gymnasium_id(task_name):
    """The Gymnasium id of hand task `task_name`: `ComposerHand/<task>-v0`."""
    return f"{HAND_NAMESPACE}/{task_name}-v0"


def make_hand_env(task_name, seed=None, flatten_observations=False, render_mode=None):
    """`gymnasium.make`'s entry point of a hand task: `hand.load` behind `GymnasiumEnv`."""
    from suites import hand

    env = hand.load(task_name, seed=seed)
    return GymnasiumEnv(env, flatten_observations=flatten_observations, render_mode=render_mode)


def make_hand_vector_env(task_name, num_envs=1, seed=0, num_threads=0, flatten_observations=False):
    """`gymnasium.make_vec`'s entry point of a hand task: `hand.load_batch` behind
    `GymnasiumVectorEnv`."""
    from suites import hand

    batch = hand.load_batch(task_name, num_envs, seed=seed, num_threads=num_threads)
    return GymnasiumVectorEnv(batch, flatten_observations=flatten_observations)


def register_all():
    """Registers every suite task and hand task (idempotent). Episodes end through the suite's own
    time limit (truncation), so no TimeLimit wrapper is added."""
    for domain_name, task_name in suite.ALL_TASKS:
        name = gymnasium_id(domain_name, task_name)
        if name in gymnasium.registry:
            continue
        gymnasium.register(
            id=name,
            entry_point=make_env,
            vector_entry_point=make_vector_env,
            kwargs=dict(domain_name=domain_name, task_name=task_name),
        )
    from suites import hand

    for task_name in hand.ALL:
        name = hand_gymnasium_id(task_name)
        if name in gymnasium.registry:
            continue
        gymnasium.register(
            id=name,
            entry_point=make_hand_env,
            vector_entry_point=make_hand_vector_env,
            kwargs=dict(task_name=task_name),
        )


register_all()
