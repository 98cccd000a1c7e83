"""dm_control's `rl.control`: the Control Suite's Environment, and the physics-task
control loop for tasks written against dm_control's `control.Task`.

    env = suite.load("walker", "walk", environment_kwargs={"flat_observation": True})
    env.reset().observation["observations"]  # (24,) float64: every observation, raveled

    env = control.Environment(physics, task, time_limit=10.0)  # a `control.Task`

`Environment(task, ...)` with a `composer.Task` is `composer.Environment` with
dm_control's `flat_observation` (the suite's domains are composer tasks).
`Environment(physics, task, ...)` with a `control.Task` (dm_control's contract:
`initialize_episode(physics)`, `before_step(action, physics)`, `get_observation`,
`get_reward`, `get_termination`, ...) or a Control Suite task (`suites.base.SuiteTask`,
run through its `control_task()`) runs dm_control's control loop on that physics:
its time limit in control steps, its discounts, its inferred observation spec. Both
are `control.Environment` instances.

`flatten_observation` is dm_control's `rl.control.flatten_observation`: an
OrderedDict keeps its key order, another mapping is flattened in sorted key order.
`compute_n_steps` is dm_control's: physics steps per control step.
"""

import abc
import collections
import contextlib
from collections import abc as collections_abc
from typing import Any, Iterator

import dm_env
import numpy as np
from dm_env import specs

from composer_tasks import composer
from composer_tasks import physics as physics_lib

# A diverging simulation (the MuJoCo Physics' error).
PhysicsError = physics_lib.PhysicsError

FLAT_OBSERVATION_KEY = "observations"


def flatten_observation(observation: Any, output_key: str = FLAT_OBSERVATION_KEY) -> Any:
    """A mapping of the same type as `observation` holding one array under
    `output_key`: its values raveled and concatenated (an OrderedDict's in its
    order, another mapping's in sorted key order).

    Raises:
      ValueError: `observation` is not a mutable mapping (as dm_control).
    """
    if not isinstance(observation, collections_abc.MutableMapping):
        raise ValueError(
            f"can only flatten dict-like observations, got {type(observation).__name__}"
        )
    if isinstance(observation, collections.OrderedDict):
        keys = list(observation.keys())
    else:
        keys = sorted(observation.keys())
    arrays = [np.asarray(observation[key]).ravel() for key in keys]
    mapping_type: Any = type(observation)
    return mapping_type([(output_key, np.concatenate(arrays))])


def _bind_per_step_methods(wrapper: Any, updater: Any) -> None:
    # The Environment calls these every control step: bound here, they skip the
    # wrapper's `__getattr__` fallback (a microsecond each on a ~30 us step).
    wrapper.prepare_for_next_control_step = updater.prepare_for_next_control_step
    wrapper.update = updater.update


class _FlatUpdater:
    """An observation updater whose observation is flattened into one array."""

    def __init__(self, updater: Any) -> None:
        self._updater = updater
        _bind_per_step_methods(self, updater)

    def get_observation(self) -> Any:
        return flatten_observation(collections.OrderedDict(self._updater.get_observation()))

    def observation_spec(self) -> collections.OrderedDict:
        size = sum(int(np.prod(spec.shape)) for spec in self._updater.observation_spec().values())
        dtypes = [spec.dtype for spec in self._updater.observation_spec().values()]
        dtype = np.result_type(*dtypes) if dtypes else np.float64
        return collections.OrderedDict(
            [
                (
                    FLAT_OBSERVATION_KEY,
                    specs.Array((size,), dtype, name=FLAT_OBSERVATION_KEY),
                )
            ]
        )

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._updater, name)


class _ScalarObservations:
    """An observation updater that gives NumPy scalars (np.float64, ...) where the
    task's observation function returns one, as dm_control's suite does (its
    `control.Environment` returns `task.get_observation(physics)` as it is), instead
    of the 0-d arrays of composer's buffers.

    The keys come from `task.scalar_observation_keys(physics)`, asked at the first
    observation (the physics then holds an episode's state)."""

    def __init__(self, updater: Any, task: Any, physics: Any) -> None:
        self._updater = updater
        _bind_per_step_methods(self, updater)
        self._task = task
        self._physics = physics
        self._keys: tuple[str, ...] | None = None

    def get_observation(self) -> Any:
        observation = self._updater.get_observation()
        keys = self._keys
        if keys is None:
            keys = self._keys = tuple(self._task.scalar_observation_keys(self._physics))
        for key in keys:
            value = observation.get(key)
            if isinstance(value, np.ndarray) and value.ndim == 0:
                observation[key] = value[()]
        return observation

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._updater, name)


def compute_n_steps(
    control_timestep: float, physics_timestep: float, tolerance: float = 1e-8
) -> int:
    """The number of physics steps in one control step (dm_control's).

    Raises:
      ValueError: `control_timestep` is shorter than `physics_timestep`, or not an
        integer multiple of it (within `tolerance` physics steps).
    """
    if control_timestep < physics_timestep:
        raise ValueError(
            f"control timestep ({control_timestep}) is shorter than the physics timestep "
            f"({physics_timestep})"
        )
    ratio = control_timestep / physics_timestep
    if abs(ratio - round(ratio)) > tolerance:
        raise ValueError(
            f"control timestep ({control_timestep}) must be an integer multiple of the physics "
            f"timestep ({physics_timestep}); it is {ratio} of them"
        )
    return int(round(ratio))


class Physics(abc.ABC):
    """The simulation a `control.Task` acts on (dm_control's `control.Physics`).

    This project's MuJoCo `Physics` (composer_tasks.physics) counts as one, as
    dm_control's `mujoco.Physics` does; other simulations subclass this and
    implement `step`, `time`, `timestep`, `reset` and `after_reset`.
    """

    # Whether `step` leaves position-dependent quantities up to date (dm_control's
    # `legacy_step`); `Environment(physics, task, legacy_step=...)` sets it.
    legacy_step: bool = True

    @abc.abstractmethod
    def step(self, n_sub_steps: int = 1) -> None:
        """Advances the simulation by `n_sub_steps` steps."""

    @abc.abstractmethod
    def time(self) -> float:
        """The simulated time (s)."""

    @abc.abstractmethod
    def timestep(self) -> float:
        """The duration of one step (s)."""

    def set_control(self, control: Any) -> None:
        """Sets the actuators' controls; a simulation without actuators does not."""
        raise NotImplementedError(f"{type(self).__name__} does not support set_control")

    @contextlib.contextmanager
    def reset_context(self) -> Iterator["Physics"]:
        """Resets the simulation on entry (a `PhysicsError` while resetting is
        ignored), yields it for the caller to set the initial state, and calls
        `after_reset` on exit."""
        try:
            self.reset()
        except PhysicsError:
            pass
        yield self
        self.after_reset()

    @abc.abstractmethod
    def reset(self) -> None:
        """Puts the simulation in its default state."""

    @abc.abstractmethod
    def after_reset(self) -> None:
        """Runs after `reset_context`'s block set the initial state."""

    def check_divergence(self) -> None:
        """Raises `PhysicsError` if the state diverged; by default it never does."""


Physics.register(physics_lib.Physics)


class Task(abc.ABC):
    """A task in dm_control's physics-task contract (`Environment(physics, task)`).

    The Environment calls, per episode, `initialize_episode(physics)` inside
    `physics.reset_context()`; per control step `before_step(action, physics)`,
    the physics step, `after_step(physics)`, then `get_reward`, `get_observation`
    and `get_termination` (a final discount to end the episode, or None).
    """

    @abc.abstractmethod
    def initialize_episode(self, physics: Any) -> None:
        """Sets the episode's initial state (inside `physics.reset_context()`)."""

    @abc.abstractmethod
    def before_step(self, action: Any, physics: Any) -> None:
        """Applies `action` (fitting `action_spec(physics)`) before the physics steps."""

    def after_step(self, physics: Any) -> None:
        """Runs after the physics stepped, before the reward and observation are read."""

    @abc.abstractmethod
    def action_spec(self, physics: Any) -> Any:
        """The spec of the actions (a `BoundedArray` or a nest of them)."""

    def step_spec(self, physics: Any) -> Any:
        """The spec of what `step` returns, where the task defines one."""
        raise NotImplementedError(f"{type(self).__name__} defines no step_spec")

    @abc.abstractmethod
    def get_observation(self, physics: Any) -> Any:
        """The current observation (a mapping of arrays)."""

    @abc.abstractmethod
    def get_reward(self, physics: Any) -> Any:
        """The reward of the step just taken."""

    def get_termination(self, physics: Any) -> float | None:
        """A final discount if the episode ends now, else None (the default)."""

    def observation_spec(self, physics: Any) -> Any:
        """The observation spec; the Environment infers it from an observation when
        this raises NotImplementedError (the default)."""
        raise NotImplementedError(f"{type(self).__name__} defines no observation_spec")


def _spec_from_observation(observation: Any) -> collections.OrderedDict:
    return collections.OrderedDict(
        (key, specs.Array(np.shape(value), np.asarray(value).dtype, name=key))
        for key, value in observation.items()
    )


class Environment(composer.Environment):
    """`composer.Environment` with dm_control `control.Environment`'s `flat_observation`;
    or, given a physics and a `control.Task`, dm_control's physics-task control loop.

    Args:
      task, *args, **kwargs: those of `composer.Environment`.
      flat_observation: if true, the observation is one float array under the key
        "observations" (`FLAT_OBSERVATION_KEY`), the task's observations raveled
        and concatenated in their order; its spec is named "observations".

    `Environment(physics, task, time_limit=inf, control_timestep=None,
    n_sub_steps=None, flat_observation=False, legacy_step=True)` (the first
    argument not a `composer.Task`, or `physics=` given) makes the physics-task
    Environment instead (see `_PhysicsTaskEnvironment`).

    """

    # dm_control's control.Environment never recompiles its physics: what a task
    # writes into the model lasts across episodes there, and so here.
    _restore_model_at_reset = False
    # Its episodes last as many steps as dm_control's control.Environment counts.
    _control_suite_step_limit = True
    # dm_control loads suite models from XML: unnamed elements stay unnamed.
    _pymjcf_compiled = False

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is Environment and (
            "physics" in kwargs or (args and not isinstance(args[0], composer.Task))
        ):
            # composer.Environment's __new__ picks among composer's kinds; this one
            # is not composer's, and object's __new__ makes it.
            return object.__new__(_PhysicsTaskEnvironment)
        return super().__new__(cls, *args, **kwargs)

    def __init__(self, task: Any, *args: Any, flat_observation: bool = False, **kwargs: Any):
        # As dm_control takes it: by its truth, unchecked.
        self._flat_observation = bool(flat_observation)
        if (
            getattr(task, "runs_on_given_physics", False)
            and len(args) < 2
            and "random_state" not in kwargs
        ):
            # A suite task constructed with `random` keeps its generator: the seed a
            # user gave the task is not replaced by one from the operating system.
            kwargs["random_state"] = task.random
        super().__init__(task, *args, **kwargs)

    @property
    def flat_observation(self) -> bool:
        """Whether observations are flattened into one array."""
        return self._flat_observation

    def _new_updater(self) -> Any:
        updater = super()._new_updater()
        if self._flat_observation:
            return _FlatUpdater(updater)
        if callable(getattr(self._task, "scalar_observation_keys", None)):
            return _ScalarObservations(updater, self._task, self._physics)
        return updater


class _PhysicsTaskEnvironment(Environment):
    """dm_control's `control.Environment(physics, task, ...)`: the control loop over a
    physics and a `control.Task`, as dm_control runs it.

    Each control step: `task.before_step(action, physics)`, `physics.step(n_sub_steps)`,
    `task.after_step(physics)`, then reward, observation, and the discount: 1.0 once
    `time_limit` seconds of control steps have run, else `task.get_termination`.

    Args:
      physics: the simulation (a `Physics`, or anything with `step`, `timestep`,
        `reset_context`).
      task: a `control.Task`.
      time_limit: episode length in seconds (inf: no limit).
      control_timestep: seconds per control step (a multiple of the physics
        timestep); or give `n_sub_steps`, physics steps per control step; neither:
        one physics step.
      flat_observation: observations raveled into one array (`flatten_observation`).
      legacy_step: set on the physics (dm_control's `Physics.legacy_step`).

    Raises:
      ValueError: both `control_timestep` and `n_sub_steps` are given, or
        `n_sub_steps` is not a positive integer.
      TypeError: `task` lacks a method of the contract, or is a composer task other
        than a Control Suite task.
    """

    def __init__(
        self,
        physics: Any,
        task: Any,
        time_limit: float = float("inf"),
        control_timestep: float | None = None,
        n_sub_steps: int | None = None,
        flat_observation: bool = False,
        legacy_step: bool = True,
    ) -> None:
        contract = task
        if isinstance(task, composer.Task):
            if not getattr(task, "runs_on_given_physics", False):
                raise TypeError(
                    "a composer task runs in control.Environment(task, ...), without a "
                    f"physics; got physics={physics!r} and task={task!r}"
                )
            # A Control Suite task (`suites.base.SuiteTask`): its control.Task methods.
            contract = getattr(task, "control_task")()
        missing = [
            name
            for name in ("initialize_episode", "before_step", "action_spec", "get_observation")
            + ("get_reward", "get_termination", "after_step", "observation_spec")
            if not callable(getattr(contract, name, None))
        ]
        if missing:
            raise TypeError(
                f"control.Environment(physics, task): task {task!r} has no {missing}; it must "
                "implement control.Task"
            )
        if n_sub_steps is not None and control_timestep is not None:
            raise ValueError(
                "give control_timestep or n_sub_steps, not both (got "
                f"control_timestep={control_timestep!r}, n_sub_steps={n_sub_steps!r})"
            )
        self._task = task
        self._contract = contract
        self._physics = physics
        physics.legacy_step = legacy_step
        self._flat_observation = bool(flat_observation)
        if n_sub_steps is not None:
            if isinstance(n_sub_steps, bool) or not isinstance(n_sub_steps, (int, np.integer)):
                raise ValueError(f"n_sub_steps must be a positive integer, got {n_sub_steps!r}")
            if n_sub_steps < 1:
                raise ValueError(f"n_sub_steps must be a positive integer, got {n_sub_steps!r}")
            self._n_sub_steps = int(n_sub_steps)
        elif control_timestep is not None:
            self._n_sub_steps = compute_n_steps(control_timestep, physics.timestep())
        else:
            self._n_sub_steps = 1
        # dm_control's limit: a float count of control steps, reached when the step
        # count is >= it.
        if time_limit == float("inf"):
            self._step_limit = float("inf")
        else:
            self._step_limit = time_limit / (physics.timestep() * self._n_sub_steps)
        self._step_count = 0
        self._reset_next_step = True

    def _observation(self) -> Any:
        observation = self._contract.get_observation(self._physics)
        return flatten_observation(observation) if self._flat_observation else observation

    def reset(self) -> dm_env.TimeStep:
        self._reset_next_step = False
        self._step_count = 0
        with self._physics.reset_context():
            self._contract.initialize_episode(self._physics)
        return dm_env.TimeStep(dm_env.StepType.FIRST, None, None, self._observation())

    def step(self, action: Any) -> dm_env.TimeStep:
        if self._reset_next_step:
            return self.reset()
        self._contract.before_step(action, self._physics)
        self._physics.step(self._n_sub_steps)
        self._contract.after_step(self._physics)
        reward = self._contract.get_reward(self._physics)
        observation = self._observation()
        self._step_count += 1
        if self._step_count >= self._step_limit:
            discount = 1.0
        else:
            discount = self._contract.get_termination(self._physics)
        if discount is None:
            return dm_env.TimeStep(dm_env.StepType.MID, reward, 1.0, observation)
        self._reset_next_step = True
        return dm_env.TimeStep(dm_env.StepType.LAST, reward, discount, observation)

    def action_spec(self) -> Any:
        return self._contract.action_spec(self._physics)

    def step_spec(self) -> Any:
        return self._contract.step_spec(self._physics)

    def observation_spec(self) -> Any:
        try:
            return self._contract.observation_spec(self._physics)
        except NotImplementedError:
            return _spec_from_observation(self._observation())

    def reward_spec(self) -> specs.Array:
        return specs.Array(shape=(), dtype=float, name="reward")

    def discount_spec(self) -> specs.BoundedArray:
        return specs.BoundedArray(shape=(), dtype=float, minimum=0.0, maximum=1.0, name="discount")

    @property
    def physics(self) -> Any:
        return self._physics

    @property
    def task(self) -> Any:
        return self._task

    def control_timestep(self) -> float:
        """Seconds per control step."""
        return self._physics.timestep() * self._n_sub_steps

    def close(self) -> None:
        """Nothing to release: the physics belongs to the caller."""
