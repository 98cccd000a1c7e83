"""The actor-environment loop, for single dm_env environments and batched ones.

An agent is any object with this small interface (D4PG and PPO provide it):

  metric_names: tuple of the metric names `observe` may return.
  act(observation) -> actions (N, *action_shape) in the environment's units, for a
      batched observation (arrays of shape (N, ...)).
  observe(timestep, actions, next_timestep) -> dict of metrics (maybe empty) from
      the learning this step triggered. `timestep` is the batched timestep the
      actions were chosen in; copies where `timestep.last()` were automatically
      reset by this step (see agents/vector.py) and carry no transition.
  policy() -> a deterministic policy function with act's signature, of a snapshot
      of the current parameters, for evaluation.
  state_dict() / load_state_dict(state): all the agent's state, for checkpoints.

A single environment runs as a batch of one (`vector.as_batched`).
"""

import dataclasses
import time
from collections.abc import Callable, Sequence

import dm_env
import numpy as np
import tqdm

from agents import vector


@dataclasses.dataclass
class LoopState:
    """Where a run stands; checkpointed with the agent so that a run can resume exactly.

    Attributes:
      env_steps: transitions collected, summed over copies (automatic-reset steps
        do not count).
      timestep: the current batched timestep, or None before the first reset.
      episode_returns: (N,) undiscounted return so far of each copy's episode (a JAX
        array on the device where the batch's rewards are; `vector.accumulate_returns`).
      finished_returns: returns of training episodes finished since the last `drain`.
      metric_sums, metric_counts: learning metrics accumulated since the last `drain`.
      elapsed_s: wall-clock seconds spent in `run`, over all resumptions.
    """

    env_steps: int = 0
    timestep: dm_env.TimeStep | None = None
    episode_returns: np.ndarray | None = None
    finished_returns: list = dataclasses.field(default_factory=list)
    metric_sums: dict = dataclasses.field(default_factory=dict)
    metric_counts: dict = dataclasses.field(default_factory=dict)
    elapsed_s: float = 0.0

    def drain(self) -> tuple[list, dict]:
        """Returns and clears the finished training returns and mean metrics."""
        returns = self.finished_returns
        metrics = {
            name: self.metric_sums[name] / self.metric_counts[name] for name in self.metric_sums
        }
        self.finished_returns, self.metric_sums, self.metric_counts = [], {}, {}
        return returns, metrics


@dataclasses.dataclass(frozen=True)
class Periodic:
    """Calls `callback(state)` each time `env_steps` crosses a multiple of `every_steps`.

    Crossings are computed from env_steps alone, so a resumed run fires at exactly
    the points the uninterrupted run would have.
    """

    every_steps: int
    callback: Callable[[LoopState], None]


def run(
    agent,
    env,
    num_steps: int,
    state: LoopState | None = None,
    periodic: Sequence[Periodic] = (),
    progress: bool = True,
    should_stop: Callable[[], bool] | None = None,
) -> LoopState:
    """Acts and learns until `state.env_steps` reaches `num_steps`.

    Args:
      agent: see the module docstring.
      env: a dm_env.Environment or a batched environment (agents/vector.py).
      num_steps: total environment steps to reach, counted over all copies.
      state: where to continue from; a fresh LoopState resets the environment.
      periodic: callbacks, called in order after the step that crosses their period.
      progress: show a tqdm progress bar on stderr.
      should_stop: checked before each step; when it returns True the loop returns
        early (after the periodic callbacks of the last step taken).

    Returns:
      The final state.
    """
    env = vector.as_batched(env)
    state = state if state is not None else LoopState()
    for item in periodic:
        if int(item.every_steps) < 1:
            raise ValueError(f"Periodic.every_steps = {item.every_steps}; expected >= 1.")
    if state.timestep is None:
        state.timestep = env.reset()
        if np.ndim(state.timestep.step_type) != 1:
            raise ValueError(
                f"{type(env).__name__}.reset() returned step_type of shape "
                f"{np.shape(state.timestep.step_type)}; a batched environment must return (N,)."
            )
        state.episode_returns = np.zeros((env.num_envs,), np.float64)
    bar = tqdm.tqdm(
        total=num_steps,
        initial=min(state.env_steps, num_steps),
        unit="step",
        disable=not progress,
        dynamic_ncols=True,
    )
    started = time.perf_counter()
    elapsed_before = state.elapsed_s
    try:
        while state.env_steps < num_steps and not (should_stop is not None and should_stop()):
            timestep = state.timestep
            actions = agent.act(timestep.observation)
            next_timestep = env.step(actions)
            metrics = agent.observe(timestep, actions, next_timestep)

            valid = ~np.asarray(timestep.last())
            ended = np.asarray(next_timestep.last()) & valid
            state.episode_returns, finished = vector.accumulate_returns(
                state.episode_returns, next_timestep.reward, valid, ended
            )
            state.finished_returns.extend(finished)
            for name, value in metrics.items():
                state.metric_sums[name] = state.metric_sums.get(name, 0.0) + value
                state.metric_counts[name] = state.metric_counts.get(name, 0) + 1
            previous_steps = state.env_steps
            state.env_steps += int(valid.sum())
            state.timestep = next_timestep
            state.elapsed_s = elapsed_before + time.perf_counter() - started

            bar.update(min(state.env_steps, num_steps) - min(previous_steps, num_steps))
            if ended.any():
                bar.set_postfix(episode_return=f"{state.finished_returns[-1]:.1f}")
            for item in periodic:
                if previous_steps // item.every_steps < state.env_steps // item.every_steps:
                    item.callback(state)
    finally:
        bar.close()
    return state
