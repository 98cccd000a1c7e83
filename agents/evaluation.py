"""Evaluation of a deterministic policy over N whole episodes."""

from collections.abc import Callable, Sequence

import dm_env
import numpy as np

from agents import vector


def evaluate(policy: Callable, env, num_episodes: int) -> np.ndarray:
    """Runs `num_episodes` episodes and returns their undiscounted returns.

    With a batched environment of K copies, copy i contributes the first
    num_episodes // K (+1 for i < num_episodes % K) episodes it plays, so that
    short episodes are not over-represented; a single environment plays them in
    sequence. The environment is reset first.

    Args:
      policy: maps a batched observation to actions (N, *action_shape), e.g. an
        agent's `policy()`.
      env: a dm_env.Environment or a batched environment (agents/vector.py).
      num_episodes: N >= 1.

    Returns:
      float64 array (num_episodes,), grouped by copy.
    """
    if int(num_episodes) < 1:
        raise ValueError(f"num_episodes {num_episodes} must be a positive integer.")
    env = vector.as_batched(env)
    num_copies = env.num_envs
    quota = np.full((num_copies,), num_episodes // num_copies)
    quota[: num_episodes % num_copies] += 1
    returns = [[] for _ in range(num_copies)]
    running = np.zeros((num_copies,), np.float64)
    timestep = env.reset()
    while any(len(done) < wanted for done, wanted in zip(returns, quota)):
        next_timestep = env.step(policy(timestep.observation))
        valid = ~np.asarray(timestep.last())
        running += np.where(valid, np.asarray(next_timestep.reward, np.float64), 0.0)
        for copy_index in np.flatnonzero(np.asarray(next_timestep.last()) & valid):
            if len(returns[copy_index]) < quota[copy_index]:
                returns[copy_index].append(running[copy_index])
            running[copy_index] = 0.0
        timestep = next_timestep
    return np.array([value for copy_returns in returns for value in copy_returns])


def evaluate_on_fresh_envs(
    policy: Callable, make_env: Callable[[int], dm_env.Environment], seeds: Sequence[int]
) -> np.ndarray:
    """One episode on each of len(seeds) new environments, `make_env(seed)`, run batched."""
    factories = [lambda seed=seed: make_env(int(seed)) for seed in seeds]
    batch = vector.LoopedBatch(factories)
    try:
        return evaluate(policy, batch, len(factories))
    finally:
        batch.close()
