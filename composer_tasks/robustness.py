"""Partially observable variants of any composer task (Duan et al. 2016, §3.3).

Three transformations, each applied to a task before its Environment is built:

* `limited_sensors(task)`: positions only. Velocity observables are disabled, and
  velocity entries are removed from `SensorVector` observables (a flat vector of
  named sensors, as rllab's tasks observe).
* `noisy_delayed(task, noise_std, action_delay_steps)`: Gaussian noise of standard
  deviation `noise_std` added to every enabled observable (their `corruptor`), and
  actions applied `action_delay_steps` control steps after the agent chose them.
* `system_identification(task, scales)`: model parameters drawn per episode
  (`LinkedScale`: one factor per episode multiplies a group of spec attributes,
  e.g. a pole's length and mass), recompiled before the episode, never observed.

All randomness comes from the Environment's random state, so every copy of a
`BatchEnvironment` draws its own noise and parameters, and a seed gives the same
trajectory bit for bit.

The action delay and the parameter draws live in a small entity without bodies of
its own (`Perturbations`) attached to the task's root entity: its callbacks run
after the task's (composer's lifecycle order), so its `before_step` replaces the
control the task just wrote with the delayed one.
"""

from __future__ import annotations

import collections
import dataclasses
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import array_namespace, composer
from composer_tasks.composer.observation import observable as observable_lib
from composer_tasks.composer.variation import distributions, noises

if TYPE_CHECKING:
    from composer_tasks.physics import Physics

# Observable names that denote velocities: dm_control's and this project's walkers
# and suite tasks call them `velocity`, `joints_vel`, `sensors_velocimeter`,
# `egocentric_velocity`, `angular_vel`, ...
VELOCITY_NAME = re.compile(r"vel|speed|gyro", re.IGNORECASE)

_PERTURBATIONS_NAME = "robustness"


@dataclasses.dataclass(frozen=True)
class Sensor:
    """One named entry (or block) of a `SensorVector`.

    Attributes:
      name: what it measures, e.g. "cart_position".
      read: `read(physics)` returning a scalar or a 1-D array (any float values).
      is_velocity: True for velocities (removed by `limited_sensors`).
    """

    name: str
    read: Callable[[Any], ArrayLike]
    is_velocity: bool = False


class SensorVector(observable_lib.Generic):
    """An observable that concatenates named sensors into one flat float64 vector,
    in the given order (rllab observes one flat vector).

    On a batch's physics (`composer_tasks.batch.batch_physics`, whose `data.qpos`
    is (N, nq)) every sensor must return an (N, ...) array, and the vector is
    (N, D): each copy's row is exactly its single-copy vector. A task whose sensors
    do that can run on a `BatchEnvironment`'s vectorised path.
    """

    def __init__(self, sensors: Iterable[Sensor], **options: Any) -> None:
        sensors = tuple(sensors)
        if not sensors or not all(isinstance(sensor, Sensor) for sensor in sensors):
            raise TypeError(f"sensors must be a non-empty sequence of Sensor, got {sensors!r}")
        self._sensors = sensors
        super().__init__(self._read, **options)

    @property
    def sensors(self) -> tuple[Sensor, ...]:
        return self._sensors

    def remove_velocities(self) -> list[str]:
        """Drops the velocity sensors; returns their names."""
        removed = [sensor.name for sensor in self._sensors if sensor.is_velocity]
        kept = tuple(sensor for sensor in self._sensors if not sensor.is_velocity)
        if not kept:
            raise ValueError(
                "every sensor of this SensorVector is a velocity; nothing would remain"
            )
        self._sensors = kept
        return removed

    def _read(self, physics: Physics) -> np.ndarray:
        # () for one copy's physics, (N,) for a batch's.
        qpos = physics.data.qpos
        copies = np.shape(qpos)[:-1]
        xp = array_namespace.namespace(qpos)
        if xp is not np:
            # A device batch's JAX arrays (jax.numpy's default float dtype).
            readings = [xp.asarray(sensor.read(physics)) for sensor in self._sensors]
            return xp.concatenate(
                [xp.reshape(reading, (*copies, -1)) for reading in readings], axis=-1
            )
        return np.concatenate(
            [
                np.reshape(np.asarray(sensor.read(physics), dtype=np.float64), (*copies, -1))
                for sensor in self._sensors
            ],
            axis=-1,
        )


def limited_sensors(task: composer.Task) -> list[str]:
    """Restricts the task's observations to positions (limited sensors).

    Velocity sensors of `SensorVector` observables are removed; every other enabled
    observable whose name matches `VELOCITY_NAME` is disabled.

    Returns:
      The names of what was removed or disabled.

    Raises:
      ValueError: if the task observes no velocity (the variant would be the task itself).
    """
    removed = []
    for name, item in task.observables.items():
        if not item.enabled:
            continue
        if isinstance(item, SensorVector):
            removed += [f"{name}:{sensor}" for sensor in item.remove_velocities()]
        elif VELOCITY_NAME.search(name.rsplit("/", 1)[-1]):
            item.enabled = False
            removed.append(name)
    if not removed:
        raise ValueError(
            f"{type(task).__name__} observes no velocities (enabled observables: "
            f"{[n for n, o in task.observables.items() if o.enabled]}); nothing to limit"
        )
    return removed


def noisy_observations(task: composer.Task, noise_std: float) -> None:
    """Adds independent N(0, noise_std^2) noise to every entry of every enabled
    observable, drawn from the Environment's random state at each evaluation."""
    if isinstance(noise_std, bool) or not (isinstance(noise_std, (int, float)) and noise_std > 0):
        raise ValueError(f"noise_std must be a positive number, got {noise_std!r}")
    enabled = [item for item in task.observables.values() if item.enabled]
    if not enabled:
        raise ValueError(f"{type(task).__name__} has no enabled observable to corrupt")
    for item in enabled:
        if item.corruptor is not None:
            raise ValueError(f"observable {item!r} already has a corruptor ({item.corruptor!r})")
        item.corruptor = noises.Additive(distributions.Normal(0.0, float(noise_std)))


def delayed_actions(task: composer.Task, delay_steps: int | np.integer) -> None:
    """Applies each action `delay_steps` control steps after the agent gives it.

    The first `delay_steps` steps of an episode apply a zero control (clipped into
    the actuators' control range). The reward and termination see the physics that
    the delayed controls produced.
    """
    if (
        isinstance(delay_steps, bool)
        or not isinstance(delay_steps, (int, np.integer))
        or delay_steps < 1
    ):
        raise ValueError(f"delay_steps must be an integer >= 1, got {delay_steps!r}")
    _run_callbacks_in_batches(task)
    perturbations(task).action_delay_steps = int(delay_steps)


def _run_callbacks_in_batches(task: composer.Task) -> None:
    """A `BatchEnvironment` steps vectorised tasks without their entities'
    `before_step`; the delay needs it, so such a task must take the looped path."""
    if getattr(task, "vectorized", False):
        # The suites' tasks derive `vectorized` from `vectorized_callbacks`, which
        # `composer.Task` does not declare; on other tasks the check below raises.
        setattr(task, "vectorized_callbacks", False)
        if task.vectorized:
            raise ValueError(
                f"{type(task).__name__} is vectorised and cannot be made to run its "
                "entities' before_step in a batch; the action delay would be skipped"
            )


def noisy_delayed(
    task: composer.Task, noise_std: float, action_delay_steps: int | np.integer
) -> None:
    """Noisy observations and delayed actions (`noisy_observations` + `delayed_actions`)."""
    noisy_observations(task, noise_std)
    delayed_actions(task, action_delay_steps)


@dataclasses.dataclass
class LinkedScale:
    """A factor drawn once per episode that multiplies several spec attributes.

    Attributes:
      factor: a variation returning a scalar, e.g. `distributions.Uniform(0.5, 1.5)`.
      targets: (spec element, attribute name) pairs, e.g. a pole geom's `fromto` and
        `mass` and the child body's `pos`: each becomes initial value x factor.
      name: for error messages and `Perturbations.last_factors`.
    """

    factor: Callable[..., Any]
    targets: Sequence[tuple[Any, str]]
    name: str = "scale"

    def __post_init__(self) -> None:
        if not callable(self.factor):
            raise TypeError(
                f"LinkedScale {self.name!r}: factor must be a variation, got {self.factor!r}"
            )
        self.targets = tuple(self.targets)
        if not self.targets:
            raise ValueError(f"LinkedScale {self.name!r} has no targets")
        for element, attribute in self.targets:
            if not hasattr(element, attribute):
                raise ValueError(
                    f"LinkedScale {self.name!r}: {type(element).__name__} has no attribute {attribute!r}"
                )
        self._initial = [
            np.array(getattr(element, attribute), dtype=np.float64)
            for element, attribute in self.targets
        ]

    def apply(self, random_state: np.random.RandomState) -> float:
        """Draws the factor and writes the scaled values into the spec; returns it."""
        factor = np.asarray(self.factor(random_state=random_state), dtype=np.float64)
        if factor.shape != () or not np.isfinite(factor) or factor <= 0:
            raise ValueError(
                f"LinkedScale {self.name!r}: factor must be a positive scalar, got {factor!r}"
            )
        for (element, attribute), initial in zip(self.targets, self._initial):
            value = initial * float(factor)
            setattr(element, attribute, value if value.shape else float(value))
        return float(factor)


def system_identification(task: composer.Task, scales: Sequence[LinkedScale]) -> None:
    """Redraws the given model parameters at the start of every episode.

    The spec is edited in `initialize_episode_mjcf` and the Environment recompiles
    the model before `initialize_episode`, so derived quantities (inertias, body
    positions) follow. Nothing about the draw is observed.
    """
    scales = tuple(scales)
    if not scales or not all(isinstance(scale, LinkedScale) for scale in scales):
        raise TypeError(f"scales must be a non-empty sequence of LinkedScale, got {scales!r}")
    perturbations(task).scales += scales


def perturbations(task: composer.Task) -> Perturbations:
    """The task's `Perturbations` entity, attached to its root entity on first use."""
    for entity in task.root_entity.iter_entities():
        if isinstance(entity, Perturbations):
            return entity
    entity = Perturbations()
    task.root_entity.attach(entity)
    return entity


class Perturbations(composer.Entity):
    """Carries the action delay and the per-episode parameter draws of a task.

    It has no bodies, joints or observables; it only adds callbacks.

    Attributes:
      action_delay_steps: 0 (no delay) or the delay in control steps.
      scales: `LinkedScale`s redrawn each episode.
      last_factors: name -> factor of the current episode.
    """

    action_delay_steps: int
    scales: tuple[LinkedScale, ...]
    last_factors: dict[str, float]

    def _build(self) -> None:
        self._spec = mujoco.MjSpec()
        self._spec.modelname = _PERTURBATIONS_NAME
        self.action_delay_steps = 0
        self.scales = ()
        self.last_factors = {}
        self._pending: collections.deque[np.ndarray] = collections.deque()

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        if not self.scales:
            return
        self.last_factors = {scale.name: scale.apply(random_state) for scale in self.scales}
        composer.mark_spec_changed()

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        model = physics.model
        zero = np.zeros(model.nu)
        limited = model.actuator_ctrllimited.astype(bool)
        zero[limited] = np.clip(
            0.0, model.actuator_ctrlrange[limited, 0], model.actuator_ctrlrange[limited, 1]
        )
        self._pending = collections.deque(zero.copy() for _ in range(self.action_delay_steps))

    def before_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        if not self.action_delay_steps:
            return
        self._pending.append(np.array(physics.data.ctrl))
        physics.data.ctrl[:] = self._pending.popleft()

    # Snapshots (composer.Environment.snapshot): the queue and the draws are Python state.

    def snapshot_state(self) -> dict:
        """The controls waiting to be applied (oldest first) and this episode's
        factors (picklable copies)."""
        return {
            "pending": [control.copy() for control in self._pending],
            "last_factors": dict(self.last_factors),
        }

    def restore_state(self, state: dict) -> None:
        """Returns to a `snapshot_state()` of a task perturbed alike.

        Raises:
          ValueError: the snapshot's queue is not `action_delay_steps` long.
        """
        pending = [np.array(control, dtype=np.float64) for control in state["pending"]]
        if len(pending) not in (0, self.action_delay_steps):
            raise ValueError(
                f"the snapshot delays actions by {len(pending)} control steps, this task by "
                f"{self.action_delay_steps}"
            )
        self._pending = collections.deque(pending)
        self.last_factors = dict(state["last_factors"])
