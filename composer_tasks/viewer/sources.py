"""What the viewer runs: the environment shown (an environment, or one copy of a
batch) and its policy (None, a callable, or a trained agent's checkpoint)."""

import os
from typing import Any, Callable

from composer_tasks.batch import BatchEnvironment
from composer_tasks.viewer.batch_copy import BatchCopy

Policy = Callable[[Any], Any]


def checkpoint_policy(path: str | os.PathLike, env: Any) -> Policy:
    """The deterministic policy of a checkpoint written by `agents.train`, for `env`
    (`agents.checkpoint_policy.policy_from_checkpoint`; its `env_name` attribute is
    the environment the run trained on).

    `agents` is imported here, only when a checkpoint is given: the framework does
    not depend on the agents, which see only dm_env specs.

    Raises:
      ImportError: the `agents` package (or JAX) cannot be imported.
      FileNotFoundError: no file at `path`.
      ValueError: not a checkpoint, or one trained on other observations or actions
        (the message names them).
    """
    try:
        from agents import checkpoint_policy as checkpoint_policy_lib  # pylint: disable=import-outside-toplevel
    except ImportError as error:
        raise ImportError(
            f"showing a checkpoint's policy needs this project's `agents` package and JAX "
            f"(pip install -e '.[dev]'): {error}"
        ) from error
    return checkpoint_policy_lib.policy_from_checkpoint(path, env)


def prepare(
    env: Any, policy: Policy | str | os.PathLike | None, copy: int | None
) -> tuple[Any, Policy | None]:
    """(the environment the viewer's `Controller` runs, its policy).

    Args:
      env: a `composer.Environment` (or a wrapper of one), or a `BatchEnvironment`
        with `copy` the index of the copy to show (see `batch_copy`).
      policy: None (the action nearest to zero), `policy(timestep) -> action`, or
        the path of an agent checkpoint (`checkpoint_policy`). For a batch copy, it
        acts for every copy, each on its own TimeStep.
      copy: for a `BatchEnvironment`, the copy shown; None otherwise.

    Raises:
      ValueError: a batch without `copy`, `copy` without a batch, or a copy index
        out of range; and `checkpoint_policy`'s errors.
      TypeError: a policy that is neither callable nor a path.
    """
    is_batch = isinstance(env, BatchEnvironment)
    if is_batch and copy is None:
        raise ValueError(
            f"env is a BatchEnvironment of {env.num_envs} copies: pass copy=i "
            f"(0 <= i < {env.num_envs}) to choose the copy the viewer shows"
        )
    if not is_batch and copy is not None:
        raise ValueError(
            f"copy={copy!r} chooses a copy of a BatchEnvironment; env is a {type(env).__name__}"
        )
    if isinstance(policy, (str, os.PathLike)):
        policy = checkpoint_policy(policy, env)
    elif policy is not None and not callable(policy):
        raise TypeError(
            f"policy must be None, callable(timestep) -> action, or a checkpoint's "
            f"path, got {type(policy).__name__}"
        )
    if is_batch:
        assert copy is not None  # A batch without a copy raised above.
        env = BatchCopy(env, copy, policy)
    return env, policy
