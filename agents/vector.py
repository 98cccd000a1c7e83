"""The batched-environment interface the agents are written against, and `LoopedBatch`.

A batched environment steps N copies of one task together:

  * `num_envs`: N.
  * `action_spec()`, `observation_spec()`: the specs of ONE copy.
  * `reset()` -> dm_env.TimeStep whose `step_type`, `reward` and `discount` have
    shape (N,) and whose observation is a dict of arrays of shape (N, ...) (or
    one such array when the single-copy spec is an array). All copies are FIRST.
  * `step(actions)` with actions of shape (N, *action_shape) -> the same.
  * Auto-reset, Gymnasium's NEXT_STEP convention: a copy whose last step returned
    LAST starts a new episode at its next `step` call, which returns that copy's
    FIRST timestep and ignores that copy's action. Rewards and discounts of FIRST
    copies are 0.0 and 1.0 here and carry no meaning; agents never read them.

A batch may return the TimeStep's arrays as JAX arrays on a device (the Warp backend
with `return_jax`); `agents.ppo.DevicePPO` keeps them there, and the loop reads back
only `timestep.first()` / `last()` (which that batch answers from its host copy of the
step types) and the returns of episodes that ended (`accumulate_returns`).

`composer_tasks.batch.BatchEnvironment` provides this interface; `LoopedBatch`
provides it today over K ordinary dm_env environments stepped one after another.
"""

import copy
from collections.abc import Callable, Mapping, Sequence

import dm_env
import numpy as np


class LoopedBatch:
    """K independent dm_env environments behind the batched interface.

    Args:
      env_factories: K callables, each returning a fresh dm_env.Environment. All
        must share the same action and observation specs.
    """

    def __init__(self, env_factories: Sequence[Callable[[], dm_env.Environment]]):
        factories = list(env_factories)
        if not factories:
            raise ValueError("env_factories is empty; expected at least one factory.")
        self._envs = [factory() for factory in factories]
        self._action_spec = self._envs[0].action_spec()
        self._observation_spec = self._envs[0].observation_spec()
        for index, env in enumerate(self._envs[1:], start=1):
            if env.action_spec() != self._action_spec:
                raise ValueError(
                    f"environment {index} has action spec {env.action_spec()}; expected "
                    f"{self._action_spec} like environment 0."
                )
            if env.observation_spec() != self._observation_spec:
                raise ValueError(
                    f"environment {index} has observation spec {env.observation_spec()}; "
                    f"expected {self._observation_spec} like environment 0."
                )
        # Every copy must be reset by `reset()` before it can step.
        self._needs_reset = np.ones((len(self._envs),), bool)

    @property
    def num_envs(self) -> int:
        return len(self._envs)

    @property
    def environments(self) -> list[dm_env.Environment]:
        return list(self._envs)

    def action_spec(self):
        return self._action_spec

    def observation_spec(self):
        return self._observation_spec

    def reset(self) -> dm_env.TimeStep:
        timesteps = [env.reset() for env in self._envs]
        self._needs_reset = np.array([ts.last() for ts in timesteps], bool)
        return self._stack(timesteps)

    def step(self, actions) -> dm_env.TimeStep:
        actions = np.asarray(actions)
        expected = (self.num_envs, *self._action_spec.shape)
        if actions.shape != expected:
            raise ValueError(
                f"actions have shape {actions.shape}; expected {expected} "
                f"({self.num_envs} copies of action spec shape {self._action_spec.shape})."
            )
        timesteps = []
        for index, env in enumerate(self._envs):
            if self._needs_reset[index]:
                timesteps.append(env.reset())
                continue
            if not np.all(np.isfinite(actions[index])):
                raise ValueError(
                    f"actions[{index}] = {actions[index]} is not finite (copy {index})."
                )
            timesteps.append(env.step(actions[index]))
        self._needs_reset = np.array([ts.last() for ts in timesteps], bool)
        return self._stack(timesteps)

    def snapshot(self) -> dict:
        """The copies' states and which copies reset at their next step.

        A copy's state is its own `snapshot()` where it has one (this project's
        environments do), else its attributes where every one is data
        (`attribute_state`).

        Raises:
          TypeError: a copy has no `snapshot()` and an attribute that is not data.
        """
        return {
            "copies": [
                env.snapshot() if callable(getattr(env, "snapshot", None)) else attribute_state(env)
                for env in self._envs
            ],
            "needs_reset": self._needs_reset.copy(),
        }

    def restore(self, snapshot: dict) -> None:
        """Returns every copy to a `snapshot()` of copies built alike."""
        if len(snapshot["copies"]) != self.num_envs:
            raise ValueError(
                f"the snapshot holds {len(snapshot['copies'])} copies; "
                f"this batch has {self.num_envs}."
            )
        for env, copy_snapshot in zip(self._envs, snapshot["copies"]):
            if callable(getattr(env, "restore", None)):
                env.restore(copy_snapshot)
            else:
                restore_attribute_state(env, copy_snapshot)
        self._needs_reset = np.array(snapshot["needs_reset"], bool)

    def close(self) -> None:
        for env in self._envs:
            env.close()

    def _stack(self, timesteps: list[dm_env.TimeStep]) -> dm_env.TimeStep:
        step_type = np.array([ts.step_type for ts in timesteps], np.int8)
        reward = np.array([0.0 if ts.first() else float(ts.reward) for ts in timesteps])
        discount = np.array([1.0 if ts.first() else float(ts.discount) for ts in timesteps])
        if isinstance(self._observation_spec, Mapping):
            observation = {
                key: np.stack([np.asarray(ts.observation[key]) for ts in timesteps])
                for key in self._observation_spec
            }
        else:
            observation = np.stack([np.asarray(ts.observation) for ts in timesteps])
        return dm_env.TimeStep(
            step_type=step_type, reward=reward, discount=discount, observation=observation
        )


_DATA_LEAVES = (type(None), bool, int, float, str, np.ndarray, np.generic)


def _is_data(value) -> bool:
    if isinstance(value, np.ndarray):
        return not value.dtype.hasobject
    if isinstance(value, _DATA_LEAVES):
        return True
    if type(value) in (list, tuple):
        return all(_is_data(item) for item in value)
    if type(value) is dict:
        return all(isinstance(key, str) and _is_data(item) for key, item in value.items())
    return False


def attribute_state(env) -> dict:
    """An environment without `snapshot()` recorded as data: its attributes (numbers,
    strings, arrays, lists, tuples and dicts of them) by name, and its numpy random
    states (`RandomState` and `Generator`) by their state.

    `restore_attribute_state` sets them again on an environment built alike. This is
    what a plain Python environment needs to continue exactly; one that keeps
    anything else (a simulator, a file, a function) must offer `snapshot()` and
    `restore()` of its own.

    Raises:
      TypeError: an attribute is none of those (the message names it).
    """
    state = {}
    for name, value in vars(env).items():
        if isinstance(value, np.random.RandomState):
            state[name] = {"random_state": value.get_state(legacy=False)}
        elif isinstance(value, np.random.Generator):
            state[name] = {"generator": value.bit_generator.state}
        elif _is_data(value):
            # A copy: the environment may change its arrays in place later.
            state[name] = {"value": copy.deepcopy(value)}
        else:
            raise TypeError(
                f"{type(env).__name__}.{name} is a {type(value).__name__}, which is not data; "
                "give the environment snapshot() and restore() methods to checkpoint it."
            )
    return state


def restore_attribute_state(env, state: dict) -> None:
    """Sets an `attribute_state` of an environment built alike on `env`.

    Raises:
      ValueError: the state's attributes or their kinds are not `env`'s; nothing
        is changed then.
    """
    current = vars(env)
    if set(state) != set(current):
        raise ValueError(
            f"the state holds the attributes {sorted(state)}; this {type(env).__name__} has "
            f"{sorted(current)}."
        )
    for name, entry in state.items():
        kind = next(iter(entry))
        expected = (
            "random_state"
            if isinstance(current[name], np.random.RandomState)
            else "generator"
            if isinstance(current[name], np.random.Generator)
            else "value"
        )
        if kind != expected:
            raise ValueError(
                f"the state holds a {kind} for {type(env).__name__}.{name}, which is a "
                f"{type(current[name]).__name__} here."
            )
    for name, entry in state.items():
        if "random_state" in entry:
            current[name].set_state(entry["random_state"])
        elif "generator" in entry:
            current[name].bit_generator.state = entry["generator"]
        else:
            setattr(env, name, entry["value"])


def is_device_array(value) -> bool:
    """Whether `value` is a JAX array (which may live on an accelerator)."""
    return type(value).__module__.startswith(("jax", "jaxlib"))


def accumulate_returns(returns, reward, valid: np.ndarray, ended: np.ndarray) -> tuple:
    """Adds one step's rewards to each copy's episode return; takes out the ended ones.

    Args:
      returns: (N,) undiscounted returns so far of each copy's episode.
      reward: (N,) rewards of the step. NumPy, summed in float64; or JAX arrays
        (a batch that keeps its TimeSteps on the device), summed where they are: the
        returns stay there, and only those of the copies whose episode ended are read
        back, on the steps where one did.
      valid: (N,) bools, the copies whose step was a transition (not an automatic reset).
      ended: (N,) bools, the copies whose episode this step ended.

    Returns:
      The returns with the ended copies' set to 0, and the ended copies' returns
      (a list of floats).
    """
    if is_device_array(reward):
        import jax
        import jax.numpy as jnp

        returns = jnp.asarray(returns) + jnp.where(valid, reward, 0.0)
        if not ended.any():
            return returns, []
        finished = np.asarray(jax.device_get(returns))[ended]
        return jnp.where(ended, 0.0, returns), [float(value) for value in finished]
    returns = np.asarray(returns, np.float64) + np.where(valid, np.asarray(reward, np.float64), 0.0)
    finished = [float(value) for value in returns[ended]]
    return np.where(ended, 0.0, returns), finished


def as_batched(env) -> "LoopedBatch":
    """Returns `env` if it is batched (has `num_envs`), else a batch of one around it."""
    if hasattr(env, "num_envs"):
        return env
    if not isinstance(env, dm_env.Environment):
        raise TypeError(
            f"env is {type(env).__name__}; expected a dm_env.Environment or a batched "
            "environment with `num_envs` (see agents/vector.py)."
        )
    return LoopedBatch([lambda: env])
