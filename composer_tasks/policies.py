"""Policies a user runs before there is an agent: zero and uniformly random actions.

A policy is a callable `policy(timestep) -> action`, where `timestep` is the
`dm_env.TimeStep` the environment returned last; videos, the viewer and the
suites' command line take the same callables.
"""

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import dm_env
import numpy as np
from dm_env import specs

# `policy(timestep) -> action`: an action array, or a list of per-agent actions.
Policy = Callable[[dm_env.TimeStep], Any]
# A policy that ignores its timestep (the ones here), which may therefore be called
# with None before there is one; it is a `Policy` too.
TimestepFreePolicy = Callable[[dm_env.TimeStep | None], Any]
# The specs a policy takes: one, or a list or tuple of per-agent specs; type variables
# so that a list of a subclass (`list[specs.BoundedArray]`) is accepted too.
_Spec = TypeVar("_Spec", bound=specs.Array)
_BoundedSpec = TypeVar("_BoundedSpec", bound=specs.BoundedArray)
_T = TypeVar("_T")


def zero_policy(
    action_spec: _Spec | list[_Spec] | tuple[_Spec, ...],
) -> TimestepFreePolicy:
    """A policy that always returns the action nearest to zero inside the bounds.

    A list of per-agent specs (a multi-agent environment's) gives a policy returning
    the list of per-agent actions.
    """
    if isinstance(action_spec, (list, tuple)):
        return _per_agent([zero_policy(spec) for spec in action_spec])
    minimum = np.broadcast_to(getattr(action_spec, "minimum", -np.inf), action_spec.shape)
    maximum = np.broadcast_to(getattr(action_spec, "maximum", np.inf), action_spec.shape)
    action = np.clip(np.zeros(action_spec.shape, action_spec.dtype), minimum, maximum)
    action = action.astype(action_spec.dtype)

    def policy(timestep: dm_env.TimeStep | None) -> np.ndarray:
        del timestep
        return action.copy()

    return policy


def uniform_random_policy(
    action_spec: _BoundedSpec | list[_BoundedSpec] | tuple[_BoundedSpec, ...],
    random_state: np.random.RandomState | np.random.Generator,
) -> TimestepFreePolicy:
    """A policy drawing each action uniformly inside the bounds of `action_spec`.

    Args:
      action_spec: a bounded `dm_env.specs.BoundedArray`, or a list of them (a
        multi-agent environment's: the policy returns per-agent actions, drawn in
        agent order from `random_state`).
      random_state: a `np.random.RandomState` or `np.random.Generator`.
    """
    if isinstance(action_spec, (list, tuple)):
        return _per_agent([uniform_random_policy(spec, random_state) for spec in action_spec])
    if not isinstance(random_state, (np.random.RandomState, np.random.Generator)):
        raise TypeError(
            f"random_state must be a np.random.RandomState or np.random.Generator, "
            f"got {type(random_state).__name__}"
        )
    minimum = np.broadcast_to(action_spec.minimum, action_spec.shape)
    maximum = np.broadcast_to(action_spec.maximum, action_spec.shape)
    if not (np.all(np.isfinite(minimum)) and np.all(np.isfinite(maximum))):
        raise ValueError(
            f"a uniform random policy needs finite action bounds, got minimum {minimum} "
            f"and maximum {maximum}"
        )

    def policy(timestep: dm_env.TimeStep | None) -> np.ndarray:
        del timestep
        return random_state.uniform(minimum, maximum).astype(action_spec.dtype)

    return policy


def named_policy(
    name: str,
    action_spec: _BoundedSpec | list[_BoundedSpec] | tuple[_BoundedSpec, ...],
    seed: int | None,
) -> TimestepFreePolicy:
    """The command-line policy `name`: 'zero' or 'random' (seeded by `seed`)."""
    if name == "zero":
        return zero_policy(action_spec)
    if name == "random":
        return uniform_random_policy(action_spec, np.random.RandomState(seed))
    raise ValueError(f"unknown policy {name!r}; expected 'zero' or 'random'")


def _per_agent(agent_policies: Sequence[Callable[[_T], Any]]) -> Callable[[_T], list[Any]]:
    def policy(timestep: _T) -> list[Any]:
        return [agent_policy(timestep) for agent_policy in agent_policies]

    return policy
