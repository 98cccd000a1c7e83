"""One copy of a `BatchEnvironment`, seen by the viewer as one environment.

    viewer.launch(batch, copy=3, policy=my_policy)            # window
    viewer.launch(batch, copy=3, policy=my_policy, web=True)  # browser

The viewer shows the batch itself, not a replay: every control step of the viewer
is one `batch.step` of all N copies, copy `copy` with the viewer's action and
every other copy j with `policy(copy j's TimeStep)`; the scene is copy `copy`'s
own model (its per-copy model parameters, domain randomisation included) with its
state (`BatchEnvironment.copy_data`); the overlay is copy `copy`'s episode. A
mouse perturbation pushes copy `copy` only (`BatchEnvironment.set_xfrc_applied`).

Episodes: after copy `copy`'s last step the viewer takes the batch's auto-reset
step (copy `copy` starts its next episode, the others step on); Restart
(Backspace, Studio's Reset) resets the whole batch, as `batch.reset()` does.
"""

from typing import Any, Callable

import dm_env
import mujoco
import numpy as np
from dm_env import specs

from composer_tasks import policies
from composer_tasks.batch import BatchEnvironment, BatchTimeStep


class _CopyPhysics:
    """The `model` and `data` a viewer draws: copy `index`'s model, and an `MjData` of
    its own holding the copy's state (the batch's is not the viewer's to write)."""

    # Both None only until `__init__` has refreshed them.
    model: mujoco.MjModel
    data: mujoco.MjData

    def __init__(self, batch: BatchEnvironment, index: int) -> None:
        self._batch = batch
        self._index = index
        self.model = None
        self.data = None
        self.refresh()

    def refresh(self) -> None:
        """Copies the copy's simulation in; a recompiled copy model gets new data."""
        model = self._batch.copy_model(self._index, self.model)
        if model is not self.model:
            self.model = model
            self.data = mujoco.MjData(model)
        self._batch.copy_data(self._index, self.data)

    def push_perturbation(self) -> None:
        """Hands the forces a viewer wrote into `data.xfrc_applied` to the copy."""
        self._batch.set_xfrc_applied(self._index, self.data.xfrc_applied)


class BatchCopy:
    """Copy `index` of `batch` as a `dm_env` environment for the viewer's `Controller`.

    Args:
      batch: the `BatchEnvironment`; the viewer steps it (do not step it elsewhere
        meanwhile).
      index: the copy shown, in [0, batch.num_envs).
      policy: `policy(timestep) -> action` of one copy, called for every other copy
        with that copy's own `dm_env.TimeStep`; None applies the action nearest to
        zero. The viewer calls it for the shown copy.
    """

    def __init__(
        self, batch: BatchEnvironment, index: int | np.integer, policy: Callable | None = None
    ) -> None:
        if not isinstance(batch, BatchEnvironment):
            raise TypeError(
                f"batch must be a composer_tasks.batch.BatchEnvironment, got {type(batch).__name__}"
            )
        if (
            isinstance(index, (bool, np.bool_))
            or not isinstance(index, (int, np.integer))
            or not 0 <= index < batch.num_envs
        ):
            raise ValueError(
                f"copy must be an integer in [0, {batch.num_envs}) for this batch of "
                f"{batch.num_envs} copies, got {index!r}"
            )
        if policy is None:
            policy = policies.zero_policy(batch.action_spec())
        elif not callable(policy):
            raise TypeError(
                f"policy must be callable(timestep) -> action, got {type(policy).__name__}"
            )
        self._batch = batch
        self._index = int(index)
        self._policy = policy
        self._timestep: BatchTimeStep | None = None
        self.physics = _CopyPhysics(batch, self._index)

    @property
    def batch(self) -> BatchEnvironment:
        return self._batch

    @property
    def index(self) -> int:
        return self._index

    @property
    def task(self) -> Any:
        """The shown copy's task (its control timestep paces the viewer)."""
        return self._batch.envs[self._index].task

    def action_spec(self) -> specs.BoundedArray:
        return self._batch.action_spec()

    def observation_spec(self) -> Any:
        return self._batch.observation_spec()

    def reward_spec(self) -> specs.Array:
        return self._batch.reward_spec()

    def discount_spec(self) -> specs.BoundedArray:
        return self._batch.discount_spec()

    def reset(self) -> dm_env.TimeStep:
        """After the shown copy's last step, the batch's auto-reset step (the shown
        copy's next episode); otherwise `batch.reset()` (every copy's)."""
        if (
            self._timestep is not None
            and self._timestep.step_type[self._index] == dm_env.StepType.LAST
        ):
            # The shown copy's action is ignored on this step (the others' are not);
            # it still has to pass the batch's bounds check.
            zero_action = policies.zero_policy(self.action_spec())(self._copy_timestep(self._index))
            return self._advance(zero_action)
        self._timestep = self._batch.reset()
        self.physics.refresh()
        return self._copy_timestep(self._index)

    def step(self, action: Any) -> dm_env.TimeStep:
        """One `batch.step`: the shown copy takes `action`, copy j `policy(its TimeStep)`."""
        if self._timestep is None:
            return self.reset()
        return self._advance(action)

    def _advance(self, action: Any) -> dm_env.TimeStep:
        spec = self.action_spec()
        actions = []
        for index in range(self._batch.num_envs):
            row = np.asarray(
                action if index == self._index else self._policy(self._copy_timestep(index))
            )
            # Stacked rows of another shape could broadcast; the batch would not see it.
            if row.shape != spec.shape:
                raise ValueError(
                    f"the action of copy {index} must have shape {spec.shape} "
                    f"(the action spec), got {row.shape}"
                )
            actions.append(row)
        self.physics.push_perturbation()
        self._timestep = self._batch.step(np.stack(actions))
        self.physics.refresh()
        return self._copy_timestep(self._index)

    def _copy_timestep(self, index: int) -> dm_env.TimeStep:
        """Copy `index`'s TimeStep as its single environment returns it (reward and
        discount None on FIRST)."""
        batch_timestep = self._timestep
        assert batch_timestep is not None  # Called after the batch's reset or a step.
        step_type = dm_env.StepType(int(batch_timestep.step_type[index]))
        observation = type(batch_timestep.observation)(
            (name, value[index]) for name, value in batch_timestep.observation.items()
        )
        if step_type == dm_env.StepType.FIRST:
            return dm_env.TimeStep(step_type, None, None, observation)
        return dm_env.TimeStep(
            step_type,
            float(batch_timestep.reward[index]),
            float(batch_timestep.discount[index]),
            observation,
        )
