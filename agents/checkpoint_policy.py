"""A trained agent's deterministic policy, from its checkpoint, for one environment.

    from agents import checkpoint_policy
    policy = checkpoint_policy.policy_from_checkpoint("runs/NAME/checkpoint.npz", env)
    action = policy(env.reset())

The policy is the one `agents.evaluate` scores (`agent.policy()`: D4PG's actor,
PPO's mean action with the run's observation normalisation), called on one
`dm_env.TimeStep` at a time: the interface of `composer_tasks.policies`, videos and
the viewer. It sees only the environment's dm_env specs, as agents do.

A checkpoint fits an environment when the environment's observation keys (in
order), its flattened observation size and its action size are the ones the agent
was trained with; otherwise the error names what differs. Checkpoints are data
(agents/checkpoint.py): reading one runs no code from it.
"""

import os
from collections.abc import Callable
from typing import Any

import numpy as np

from agents import checkpoint
from agents import experiment
from agents import specs


def environment_name(path: str | os.PathLike) -> str | None:
    """The environment name the run of this checkpoint trained on ('domain:task' or a
    locomotion name, see agents/environments.py), or None if it records none."""
    return checkpoint.load(path).get("env_name")


def policy_network_sizes(payload: dict) -> tuple[int, int] | None:
    """(observation size, action size) of a checkpoint payload's policy network, read
    from its first and last layers; None for a payload of an unknown layout."""
    if "agent_state" in payload:
        state = payload["agent_state"]
        network = state["learner"].actor if "learner" in state else state["params"]["policy"]
    elif "learner_state" in payload:
        state = payload["learner_state"]
        network = state["params"]["policy"] if isinstance(state, dict) else state.actor
    else:
        return None
    first, last = np.shape(network[0]["w"]), np.shape(network[-1]["w"])
    if len(first) != 2 or len(last) != 2:
        return None
    return int(first[0]), int(last[1])


def check_fits(payload: dict, observation_spec: Any, action_spec: Any, where: str) -> None:
    """Raises ValueError naming the difference unless the checkpoint payload's agent
    was trained on these observation keys, observation size and action size."""
    layout = specs.observation_layout(observation_spec)
    bounds = specs.action_bounds(action_spec)
    saved_keys = tuple(payload.get("observation_keys") or ())
    keys = tuple(layout.keys or ())
    if saved_keys != keys:
        missing = [key for key in saved_keys if key not in keys]
        extra = [key for key in keys if key not in saved_keys]
        detail = []
        if missing:
            detail.append(f"the environment lacks {missing}")
        if extra:
            detail.append(f"it has {extra} besides")
        if not detail:
            detail.append("the same keys in another order")
        raise ValueError(
            f"{where} was trained on observations {list(saved_keys)}; this environment's are "
            f"{list(keys)} ({'; '.join(detail)}): it was trained on another task "
            f"(run {payload.get('env_name')!r})"
        )
    sizes = policy_network_sizes(payload)
    if sizes is None:
        return
    observation_size, action_size = sizes
    shapes = ", ".join(
        f"{key} {shape}" for key, shape in zip(keys or ("observation",), layout.shapes)
    )
    if observation_size != layout.size:
        raise ValueError(
            f"{where} reads observations of {observation_size} values; this environment's "
            f"have {layout.size} ({shapes}): it was trained on another task "
            f"(run {payload.get('env_name')!r})"
        )
    if action_size != bounds.size:
        raise ValueError(
            f"{where} gives actions of {action_size} values; this environment takes "
            f"{bounds.size} (action spec shape {bounds.shape}): it was trained on another "
            f"task (run {payload.get('env_name')!r})"
        )


def policy_from_checkpoint(path: str | os.PathLike, env: Any) -> Callable[[Any], np.ndarray]:
    """The checkpoint's deterministic policy for `env`: `policy(timestep) -> action`,
    whose `env_name` attribute is the environment the run trained on (or None).

    Args:
      path: a checkpoint written by `agents.train` (single process or distributed).
      env: any dm_env environment with the specs the agent was trained on (only its
        `observation_spec()` and `action_spec()` are read).

    Raises:
      FileNotFoundError: no file at `path`.
      ValueError: not a readable checkpoint, or one trained on other specs (the
        message names the observation keys or the sizes that differ).
    """
    path = os.fspath(path)
    observation_spec, action_spec = env.observation_spec(), env.action_spec()
    try:
        agent, payload = experiment.load_agent(path, observation_spec, action_spec)
    except ValueError as error:
        # The agent's own checks say only that shapes differ; read the checkpoint
        # again (a D4PG one holds its replay, so only on this path) to say which.
        check_fits(checkpoint.load(path), observation_spec, action_spec, f"checkpoint {path!r}")
        raise error
    batched = agent.policy()
    layout = specs.observation_layout(observation_spec)

    def policy(timestep: Any) -> np.ndarray:
        observation = timestep.observation
        if layout.keys is None:
            batch = np.asarray(observation)[np.newaxis]
        else:
            batch = {key: np.asarray(observation[key])[np.newaxis] for key in layout.keys}
        return np.asarray(batched(batch))[0]

    policy.env_name = payload.get("env_name")
    return policy
