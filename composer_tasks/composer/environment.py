"""Environment: runs a Task as a `dm_env.Environment`, one lifecycle for every task.

Per episode (reset), dm_control's lifecycle:
  1. task.initialize_episode_mjcf, then each entity's (depth-first, attachment order)
  2. recompile, only if step 1 changed the spec; the state set to the model's
     defaults and after_compile (always: dm_control compiles a new physics here every
     time); the observables reset (values discarded)
  3. inside physics.reset_context(): task.initialize_episode, then each entity's
  4. the observables reset; a FIRST TimeStep
Per control step:
  before_step (task, entities) -> n x [before_substep -> physics step -> after_substep
  -> observation buffers] where the last substep runs after_step before its buffer
  update -> reward, discount, termination.

The model recompiles when an `initialize_episode_mjcf` callback changed the spec:
attaching, detaching, `variation.MJCFVariator` and `composer_tasks.mjcf` handles
announce their edits (`composer.mark_spec_changed()`, which direct edits of
`mujoco.Mjs...` elements should call too). Unannounced edits are found by comparing
the whole spec after the callbacks of the first episodes (then of every episode,
once one is found), see `check_spec_changes`. To apply spec edits made outside the
lifecycle, call `env.physics.recompile()`.

Substep callbacks that no task or entity overrides are skipped, so that the physics
steps between two observation updates run as one `mj_step(nstep=k)` call.
"""

import collections
import collections.abc
import functools
import logging
import math
import numbers
import types
import warnings
from collections.abc import Iterable, Sequence
from typing import (
    Any,
    Callable,
    Generator,
    Iterator,
    Mapping,
    Optional,
    Tuple,
    Union,
    cast,
)

import dm_env
import mujoco
import numpy as np
from dm_env import specs

from composer_tasks import seeding
from composer_tasks.composer import entity as entity_module
from composer_tasks.composer import spec_edits
from composer_tasks.composer import task as task_module
from composer_tasks.composer.callbacks import ACTION_CALLBACK_NAMES, Action
from composer_tasks.composer.compiled_model import CompiledModel
from composer_tasks.mjcf import root as mjcf_root
from composer_tasks.composer.observation import observable as observable_module
from composer_tasks.composer.observation import updater as updater_module
from composer_tasks.physics import Physics, PhysicsError, array_fields

ObservationPadding = updater_module.ObservationPadding

_log = logging.getLogger(__name__)

# Step-count limits closer than this to an integer are that integer: 20 s / 0.02 s
# is 1000 steps even where the division rounds to 999.9999999999999.
_STEP_LIMIT_TOLERANCE = 1e-6
# Resets after whose `initialize_episode_mjcf` callbacks the whole spec is compared
# by default (`check_spec_changes=None`): enough for callbacks that edit at every
# episode, which is how such callbacks are written.
AUTO_CHECKED_RESETS = 3
# The attributes an Environment sets from its task, random state and physics once the
# physics exists (`_finish_compile`, `_setup_action_spec`, `_finish_construction`):
# `Environment.clone_construction` builds them anew and copies every other one.
_BUILT_AFTER_SETTINGS = frozenset(
    {
        "_task",
        "_random_state",
        "_physics",
        "_task_instance_hooks",
        "_hooks",
        "_hooks_view",
        "_has_substep_hooks",
        "_spec_fingerprint",
        "_n_substeps",
        "_step_limit",
        "_action_spec",
        "_action_dtype",
        "_action_shape",
        "_action_in_bounds",
        "_agent_action_checks",
        "_discount_dtype",
        "_stacked_action_shape",
        "_stacked_action_dtype",
        "_stacked_in_bounds",
        "_last_substep_only",
        "_compiled_model",
        "_compiled_count",
        "_compiled_mjcf_revision",
        "_compiled_timestep",
        "_compiled_edit_count",
        "_compiled_structure",
        "_updater",
        "_reset_next_step",
        "_step_count",
        "_fixed_random_state",
    }
)
# Physics steps summed per NumPy call by `float_time_step_limit`, and the most it
# sums (well under a second); longer episodes get the exact count.
_TIME_SUM_CHUNK = 1 << 18
_MAX_SUMMED_STEPS = 10**7

# The lifecycle points an `add_extra_hook` callable may attach to, in the order
# they run (dm_control's `HOOK_NAMES`).
HOOK_NAMES = entity_module.CALLBACK_NAMES

# MID as a plain int, for the (N,) step types of a batch's outcome.
_MID = int(dm_env.StepType.MID)


def episode_outcome(
    task: task_module.Task, physics: Any, step_count: int, step_limit: float
) -> Tuple[dm_env.StepType, Any, Any]:
    """The (step_type, reward, discount) of a control step that just finished.

    The one definition of how an episode goes on or ends (`batch_episode_outcome`
    applies it to a batch's (N,) arrays):

      * the task terminates the episode (`should_terminate_episode`): LAST, with
        the task's `get_discount` (1 unless the task defines it: dm_control
        Composer's rule, so a task that means a final step says so with a
        `get_discount` returning 0 there);
      * else the step count reached `step_limit` (the time limit): LAST with the
        task's `get_discount`, as in dm_control (1 unless the task defines it);
      * else MID with the task's `get_discount` (1 unless the task defines it).

    The task's `get_outcome` gives the three where it applies (see
    `Task.get_outcome`); otherwise `should_terminate_episode` and `get_discount` are
    called only when the task overrides them, `get_reward` always, first.

    Args:
      task: the `composer.Task`.
      physics: its physics after the step (observables already updated).
      step_count: control steps taken in the episode, this one included.
      step_limit: the episode's step limit (`Environment.step_limit`; inf for none).
    """
    reward, terminated, discount = _task_outcome(task, physics)
    if terminated:
        return dm_env.StepType.LAST, reward, discount
    if step_count >= step_limit:
        return dm_env.StepType.LAST, reward, discount
    return dm_env.StepType.MID, reward, discount


def batch_episode_outcome(
    task: task_module.Task, physics: Any, truncated: Optional[np.ndarray], num_envs: int
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, Optional[np.ndarray]]:
    """`episode_outcome`'s rule for a batch's vectorised path, in as few NumPy calls
    as the task allows.

    Args:
      task: copy 0's `composer.Task` (vectorised: its callbacks take `physics`).
      physics: the batch's physics after the step (`composer_tasks.batch.batch_physics`).
      truncated: (N,) bools, True where the copy's step count reached its step
        limit; None when no copy's did.
      num_envs: N.

    Returns:
      (step_type, reward, discount, last): new (N,) arrays of int64 step types,
      float64 rewards and discounts that share memory with nothing else, and the
      (N,) bools of the copies whose episode ended (LAST), or None if none did.
    """
    reward, terminated, discount = _task_outcome(task, physics)
    shape = (num_envs,)
    # Always new arrays: a task may return arrays it keeps, and what is returned here
    # is modified below and handed to the user.
    rewards = _new_array(reward, shape, np.float64)
    discounts = _new_array(discount, shape, np.float64)
    last: Optional[np.ndarray] = None
    if terminated is not False:
        ended = _new_array(np.asarray(terminated, dtype=bool), shape, bool)
        if np.count_nonzero(ended):
            last = ended
    if truncated is not None:
        last = truncated if last is None else last | truncated
    if last is None:
        return _mid_step_types(num_envs).copy(), rewards, discounts, None
    # MID where False, LAST (MID + 1) where True.
    return np.add(last, _MID, dtype=np.int64), rewards, discounts, last


def _task_outcome(task: task_module.Task, physics: Any) -> Tuple[Any, Any, Any]:
    """(reward, terminated, discount) from the task, with no call the task does not need."""
    uses_outcome, custom_discount, may_terminate = _outcome_overrides(type(task))
    if uses_outcome:
        return task.get_outcome(physics)
    reward = task.get_reward(physics)
    terminated = task.should_terminate_episode(physics) if may_terminate else False
    discount = task.get_discount(physics) if custom_discount else 1.0
    return reward, terminated, discount


def _defining_class(task_class: type, name: str) -> type:
    return next(klass for klass in task_class.__mro__ if name in vars(klass))


def _instance_hooks(task: task_module.Task) -> dict[str, Any]:
    """The callbacks assigned to `task` itself (not its class), by name."""
    attributes = getattr(task, "__dict__", {})
    return {name: attributes[name] for name in entity_module.CALLBACK_NAMES if name in attributes}


@functools.lru_cache(maxsize=None)
def _outcome_overrides(task_class: type[task_module.Task]) -> tuple[bool, bool, bool]:
    """(uses get_outcome, overrides get_discount, overrides should_terminate_episode)
    of a Task class, looked up once per class: every control step needs them.

    `get_outcome` is used when a subclass of Task defines it at or below the classes
    that define `get_reward`, `should_terminate_episode` and `get_discount`, so that a
    subclass overriding one of those three is never bypassed.
    """
    outcome_class = _defining_class(task_class, "get_outcome")
    uses_outcome = outcome_class is not task_module.Task and all(
        issubclass(outcome_class, _defining_class(task_class, name))
        for name in ("get_reward", "should_terminate_episode", "get_discount")
    )
    return (
        uses_outcome,
        task_class.get_discount is not task_module.Task.get_discount,
        task_class.should_terminate_episode is not task_module.Task.should_terminate_episode,
    )


@functools.lru_cache(maxsize=16)
def _mid_step_types(num_envs: int) -> np.ndarray:
    """(N,) int64 MIDs, read-only: a batch's step types are a copy of it (a fraction of
    `np.full`'s cost)."""
    step_types = np.full(num_envs, _MID, dtype=np.int64)
    step_types.flags.writeable = False
    return step_types


def _new_array(value: Any, shape: Tuple[int, ...], dtype: Any) -> np.ndarray:
    """`value` broadcast to a new array of `shape` and `dtype`."""
    if type(value) is np.ndarray and value.shape == shape and value.dtype == dtype:
        return value.copy()  # The common case (a task's (N,) rewards), in one call.
    array = np.empty(shape, dtype=dtype)
    array[...] = value
    return array


def _mjcf_revision(spec: Any) -> int:
    """How many edits the PyMJCF model over `spec` (if one exists) has recorded."""
    root = mjcf_root.root_of(spec)
    return 0 if root is None else root._revision


def _start_from_model_defaults(physics: Physics) -> None:
    """Puts `physics` in the state a newly compiled one has (the model's defaults,
    time 0, forwarded with actuation disabled), as dm_control's environment gives its
    `after_compile` callbacks; a MuJoCo warning from that forward pass is logged, as
    dm_control logs it, not raised."""
    try:
        physics.reset()
    except PhysicsError as error:
        _log.warning("forward pass of the newly compiled model: %s", error)


def plain_observable(observable_object: Any) -> bool:
    """True if the observable is read once per control step with nothing between its
    function and the observation: no buffer, delay, interval, aggregator or noise
    (what a batch's vectorised path can carry, and snapshots of earlier versions,
    which hold no observation buffers)."""
    interval, buffer_size, delay = observable_module.timing_options(observable_object)
    return (
        interval == 1
        and buffer_size == 1
        and delay == 0
        and observable_object.aggregator is None
        and observable_object.corruptor is None
    )


@functools.lru_cache(maxsize=256)
def float_time_step_limit(time_limit: float, timestep: float, n_substeps: int) -> float:
    """The control steps of an episode under dm_control Composer's rule: it ends
    after the first control step at whose end the physics time is >= `time_limit`,
    the time being the float sum that MuJoCo accumulates (`time += timestep` per
    physics step from 0). So 2.0 s of 0.02 s control steps of 0.002 s physics steps
    is 101 steps, 1000 additions of 0.002 summing to 1.9999999999998.

    Returns an int (1 for a `time_limit` of 0 or less), or inf for an infinite or
    NaN `time_limit`. Episodes of more than 10**7 physics steps (5.5 hours of 0.002 s
    steps) get ceil(time_limit / (timestep * n_substeps)) instead, a difference from
    dm_control of at most one step in such an episode, for summing them would cost
    more than a reset should.
    """
    if math.isnan(time_limit) or time_limit == math.inf:
        return math.inf  # no time is >= NaN
    if time_limit <= 0:
        return 1  # the first control step ends after time 0
    exact = math.ceil(time_limit / (timestep * n_substeps))
    if exact * n_substeps > _MAX_SUMMED_STEPS:
        return exact
    time, done = 0.0, 0
    while done <= 2 * n_substeps * (exact + 1):
        # np.cumsum adds sequentially, as MuJoCo does: sums[i] is the time after
        # physics step done + i + 1.
        sums = np.cumsum(np.concatenate(([time], np.full(_TIME_SUM_CHUNK, timestep))))[1:]
        first_end = (-done - 1) % n_substeps
        reached = np.flatnonzero(sums[first_end::n_substeps] >= time_limit)
        if reached.size:
            return (done + first_end + 1) // n_substeps + int(reached[0])
        done += _TIME_SUM_CHUNK
        time = float(sums[-1])
    # Only for a time_limit that float sums cannot reach: the exact count.
    return exact


def _without_action(
    hook: Callable[[Physics, np.random.RandomState], None],
) -> Callable[[Physics, Action, np.random.RandomState], None]:
    """An entity's `before_step`/`before_substep`, called as the task's are."""

    def call(physics: Physics, action: Action, random_state: np.random.RandomState) -> None:
        del action
        hook(physics, random_state)

    return call


def _check_bool(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {value!r}")
    return bool(value)


def dm_control_flag(value: Any) -> bool:
    """A flag of dm_control's own arguments, which it uses as a condition (`if
    flag:`) without checking its type: any value, taken by its truth (an array of
    several entries raises ValueError, as there on use)."""
    return bool(value)


class EpisodeInitializationError(RuntimeError):
    """Raised by an `initialize_episode_mjcf` or `initialize_episode` callback that
    could not set up a valid episode (a prop that found no collision-free place,
    say); the Environment then retries the reset, up to `max_reset_attempts` times."""


class Environment(dm_env.Environment):
    """A `dm_env.Environment` running a `composer.Task`.

    Args:
      task: the `composer.Task`.
      time_limit: episode length in seconds of simulated time (a real number, inf
        for none; 0 or less ends the episode at the first step, NaN never, as in
        dm_control, which does not check it). As in dm_control, the episode ends (LAST, with the
        task's discount) after the first control step at whose end the physics
        time, a float sum of physics timesteps, is >= time_limit: with float
        rounding that may be one step more than time_limit / control_timestep
        (`float_time_step_limit`; see `exact_step_count`).
      random_state: an int seed in [0, 2**32 - 1] (or any other seed
        `np.random.RandomState` takes, as in dm_control), a `np.random.RandomState`,
        or None (unseeded). All randomness of the task, its entities and observables flows
        from it, drawn in dm_control's order: the observables are reset (evaluated,
        corruptors and random delays drawing) at construction, after the compile
        step of every reset and after `initialize_episode`, as dm_control resets
        them, so the same seed gives dm_control's draws.
      n_sub_steps: physics steps per control step, overriding the task's timesteps
        (deprecated in dm_control as here: set `task.control_timestep` instead).
      raise_exception_on_physics_error: if False, a step in which the simulation
        diverged or MuJoCo warned ends the episode (LAST, reward 0, discount 0,
        the previous observation) with a logged warning instead of raising
        `PhysicsError`.
      strip_singleton_obs_buffer_dim: drop the leading buffer dimension of
        observations whose buffer size is 1.
      max_reset_attempts: how many times `reset` tries to start an episode when a
        callback raises `EpisodeInitializationError` (each failure is logged; the
        last one is raised). As in dm_control, unchecked: a reset is retried while
        its failures are fewer than it (0 or less: one attempt).
      recompile_mjcf_every_episode: True (dm_control's default) runs the
        `initialize_episode_mjcf` callbacks at every reset, recompiling when they
        changed the spec, and otherwise putting the model's values back as
        compiled: dm_control compiles a new model at each such reset, so what a
        callback wrote into `physics.model` (a mass scaled in `initialize_episode`)
        lasts one episode there, and does here (texture pixels and the visual
        struct aside). False runs the callbacks before the first episode only and
        keeps model edits, as there.
      fixed_initial_state: True restores the random state drawn at construction
        before every episode's callbacks, so every episode starts alike.
      delayed_observation_padding: an `ObservationPadding`: what fills observation
        buffers before values arrive; ZERO, dm_control's default, or INITIAL_VALUE.
      legacy_step: dm_control's flag, set on the physics (`Physics.legacy_step`):
        True (the default) steps so that positions, velocities and what derives
        from them (sensors, poses) are current after a step; False steps with
        plain `mj_step`, which leaves them one substep behind.
      check_spec_changes: whether to look for spec edits that the
        `initialize_episode_mjcf` callbacks made without announcing them with
        `composer.mark_spec_changed()` (raw `mujoco.Mjs...` edits), by comparing
        every value the compiler reads before and after the callbacks (about
        1 ms per 1000 attributes; only tasks or entities with such callbacks pay
        it). None (default): compare at the first
        `AUTO_CHECKED_RESETS` resets; an unannounced edit found is applied
        (recompiled), logged once with what changed, and from then on the spec is
        compared at every reset. True: compare at every reset. False: never, so an
        unannounced edit is ignored (use it only when every edit is announced).
      textures: False compiles the model's builtin (procedural) textures at 2x2
        texels (per face): they only colour rendered images, so an environment
        that is not rendered saves their memory and the time to generate them
        (for a suite model's 800x800 skybox about 12 MB and 50 ms). Rendered
        images then show the textures' colours without their patterns. Textures
        read from files are kept. The physics is the same either way.
      exact_step_count: this project's opt-in: True ends episodes after exactly
        round(time_limit / control_timestep) control steps (ceil when not within
        1e-6 of an integer), whatever the float sum of the timesteps; False
        (default) follows dm_control's physics-time rule above.
      strict_action_bounds: this project's opt-in: True refuses an action with an
        entry outside the action spec's [minimum, maximum] (`ValueError` naming the
        actuator). False (default) accepts it as dm_control does: the control is
        written as given, and MuJoCo limits a control-limited actuator's control to
        its `ctrlrange` when it computes the force. Either way an entry MuJoCo
        rejects as a bad control (NaN, or beyond +-`mujoco.mjMAXVAL`, 1e10,
        infinities included, for an actuator without a control range) is refused
        before the step with `InvalidActionError` (a `ValueError` and a
        `PhysicsError`, as dm_control raises `PhysicsError` for it); with
        `raise_exception_on_physics_error=False` it is written and stepped as in
        dm_control, and MuJoCo's warning ends the episode as a physics error does
        (a multi-agent environment ends it without stepping).

    A task with `num_agents` set (a multi-agent task, see `composer.Task`) makes
    this a `MultiAgentEnvironment`: `Environment(task)` returns one.

    The control step is `step`; its parts are public for `BatchEnvironment`, which
    drives many environments' steps with one batched physics call:
    `begin_control_step` (validate the action, `before_step`), `substeps` (the
    physics substeps to take and the callbacks and observation updates between
    them), `finish_control_step` (count the step, `episode_outcome`), and
    `end_episode_by_physics_error`.
    """

    # Made by the first `_compile`, in the constructor.
    _physics: Physics

    def __new__(cls, task: Any = None, *args: Any, **kwargs: Any) -> "Environment":
        # A multi-agent task gets the subclass that speaks per-agent lists, so that the
        # single-agent step keeps its own code untouched.
        if (
            cls is Environment
            and isinstance(task, task_module.Task)
            and task.num_agents is not None
        ):
            # dm_env.Environment defines no __new__: object's makes the instance.
            return object.__new__(MultiAgentEnvironment)
        return super().__new__(cls)

    def __init__(
        self,
        task: task_module.Task,
        time_limit: float = float("inf"),
        random_state: Union[None, int, np.random.RandomState] = None,
        n_sub_steps: Union[None, int] = None,
        raise_exception_on_physics_error: bool = True,
        strip_singleton_obs_buffer_dim: bool = False,
        max_reset_attempts: int = 1,
        recompile_mjcf_every_episode: bool = True,
        fixed_initial_state: bool = False,
        delayed_observation_padding: "ObservationPadding" = ObservationPadding.ZERO,
        legacy_step: bool = True,
        check_spec_changes: Union[None, bool] = None,
        textures: bool = True,
        exact_step_count: bool = False,
        strict_action_bounds: bool = False,
    ) -> None:
        if not isinstance(task, task_module.Task):
            raise TypeError(f"task must be a composer.Task, got {type(task).__name__}")
        if isinstance(time_limit, (bool, np.bool_)) or not isinstance(time_limit, numbers.Real):
            raise TypeError(
                f"time_limit must be a real number of seconds (or inf), got {time_limit!r} "
                f"({type(time_limit).__name__})"
            )
        # As in dm_control, any real number: one of 0 or less ends the episode at the
        # first step, NaN never (no time is >= NaN).
        self._task = task
        self._time_limit = time_limit
        if isinstance(random_state, np.random.RandomState):
            self._random_state = random_state
        elif random_state is None:
            self._random_state = np.random.RandomState()
        elif isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool):
            self._random_state = np.random.RandomState(
                seeding.check_seed(random_state, "random_state")
            )
        else:
            # As dm_control: any seed NumPy's RandomState takes (a sequence of ints, an
            # array, a bool), and NumPy's TypeError or ValueError for any other.
            try:
                self._random_state = np.random.RandomState(random_state)
            except (TypeError, ValueError) as error:
                raise type(error)(
                    f"random_state {random_state!r} is not a seed np.random.RandomState "
                    f"takes: {error}"
                ) from None
        if n_sub_steps is not None:
            if (
                isinstance(n_sub_steps, bool)
                or not isinstance(n_sub_steps, (int, np.integer))
                or n_sub_steps < 1
            ):
                raise ValueError(
                    f"n_sub_steps must be an integer >= 1 or None, got {n_sub_steps!r}"
                )
            warnings.warn(
                "n_sub_steps is deprecated (as in dm_control): set the task's "
                "control_timestep instead",
                DeprecationWarning,
                stacklevel=2,
            )
            n_sub_steps = int(n_sub_steps)
        if not isinstance(delayed_observation_padding, ObservationPadding):
            # ValueError, as dm_control raises.
            raise ValueError(
                "delayed_observation_padding must be an ObservationPadding (ZERO or "
                f"INITIAL_VALUE), got {delayed_observation_padding!r}"
            )
        # Set on every physics the Environment compiles (`_finish_compile`), as
        # dm_control sets it on each new Physics.
        self._legacy_step = legacy_step
        self._textures = _check_bool(textures, "textures")
        self._exact_step_count = _check_bool(exact_step_count, "exact_step_count")
        self._strict_action_bounds = _check_bool(strict_action_bounds, "strict_action_bounds")
        self._overridden_n_sub_steps = n_sub_steps
        # As dm_control takes it: compared with the failures so far (0 or less is one
        # attempt, 2.5 three, inf unlimited).
        self._max_reset_attempts = max_reset_attempts
        # dm_control's flags, as it takes them: by their truth.
        self._recompile_mjcf_every_episode = dm_control_flag(recompile_mjcf_every_episode)
        self._mjcf_hooks_ran = False
        self._fixed_initial_state = dm_control_flag(fixed_initial_state)
        self._padding = delayed_observation_padding
        self._extra_hooks = {name: [] for name in entity_module.CALLBACK_NAMES}
        self._raise_on_physics_error = dm_control_flag(raise_exception_on_physics_error)
        if check_spec_changes is None:
            self._spec_checks_left = AUTO_CHECKED_RESETS
        else:
            self._spec_checks_left = (
                math.inf if _check_bool(check_spec_changes, "check_spec_changes") else 0
            )
        self._strip_singleton_obs_buffer_dim = dm_control_flag(strip_singleton_obs_buffer_dim)
        self._compile()
        self._finish_construction()

    def _finish_construction(self) -> None:
        # As in dm_control, which resets its observation updater after compiling:
        # the observation spec is known before the first reset, and corruptors and
        # random delays draw from the environment's random state then.
        self._make_updater()
        self._updater.reset(self._physics, self._random_state)
        self._reset_next_step = True
        self._step_count = 0
        # As in dm_control: the state every episode starts from is the one left by
        # construction (after_compile callbacks included).
        self._fixed_random_state = (
            self._random_state.get_state() if self._fixed_initial_state else None
        )

    def clone_construction(
        self,
        task: task_module.Task,
        random_state: np.random.RandomState,
        physics: Physics,
        copy_setting: Callable[[str, Any], Any],
    ) -> "Environment":
        """A new Environment of this one's settings, constructed around `task` and
        `physics` without compiling (for `composer_tasks.batch_clone`).

        `task` must be a copy of this Environment's task, as built, that shares its
        spec, and `physics` a Physics of the model this Environment compiled,
        forwarded as `Physics.from_spec` leaves it. The settings (every attribute
        that construction sets before compiling, a subclass's included) are copied
        by `copy_setting(name, value)`, the action spec is this one's; then the
        clone runs what construction runs once the physics exists (hooks collected
        from `task`, the `after_compile` callbacks, the observation updater's
        reset), drawing from `random_state` as a new Environment seeded with it
        would.

        Raises:
          ValueError: this Environment is not as built (it has stepped or reset),
            or the clone's attributes do not match this one's.
        """
        if not self._reset_next_step or self._mjcf_hooks_ran:
            raise ValueError("only an Environment as built (never reset) can be cloned")
        clone = object.__new__(type(self))
        for name, value in vars(self).items():
            if name not in _BUILT_AFTER_SETTINGS:
                setattr(clone, name, copy_setting(name, value))
        clone._task = task
        clone._random_state = random_state
        clone._physics = physics
        # The action spec is a function of the task and its compiled model, which
        # the clone has as this Environment had them when it computed its own.
        clone._finish_compile(action_spec_of=self)
        clone._finish_construction()
        if vars(clone).keys() != vars(self).keys():
            raise ValueError(
                f"the clone of a {type(self).__name__} has attributes "
                f"{sorted(vars(clone).keys() ^ vars(self).keys())} that differ from the original's"
            )
        return clone

    # Properties.

    @property
    def task(self) -> task_module.Task:
        return self._task

    @property
    def physics(self) -> Physics:
        """The task's `Physics` (of its `physics_class`)."""
        return self._physics

    @property
    def random_state(self) -> np.random.RandomState:
        return self._random_state

    @property
    def time_limit(self) -> float:
        """Episode length in seconds of simulated time (inf for none)."""
        return self._time_limit

    @property
    def step_limit(self) -> float:
        """Control steps per episode before the time limit truncates it (an int, or inf)."""
        return self._step_limit

    @property
    def raise_exception_on_physics_error(self) -> bool:
        return self._raise_on_physics_error

    @property
    def strip_singleton_obs_buffer_dim(self) -> bool:
        return self._strip_singleton_obs_buffer_dim

    @property
    def textures(self) -> bool:
        return self._textures

    @property
    def hooks(self) -> Mapping[str, Tuple[Callable[..., Any], ...]]:
        """The callbacks each lifecycle stage runs, by callback name (read-only):
        the task's then the entities' (depth-first, attachment order), only those
        that override `composer.Entity`'s no-op."""
        return self._hooks_view

    @property
    def has_substep_hooks(self) -> bool:
        """True if some task or entity overrides `before_substep` or `after_substep`."""
        return self._has_substep_hooks

    @property
    def needs_reset(self) -> bool:
        """True if the next `step` resets (before the first episode and after a LAST step)."""
        return self._reset_next_step

    # Compilation and callbacks.

    def _compile(self) -> None:
        root = self._task.root_entity
        if self._pymjcf_compiled:
            # The model as PyMJCF handles (made once), so that compiling names the
            # model's unnamed elements as dm_control's PyMJCF-compiled models name
            # them, whichever way the entities were built.
            root.mjcf_model  # noqa: B018
        if not self._textures:
            _shrink_builtin_textures(root.spec)
        try:
            # No physics yet at the first compilation (from the constructor).
            physics = getattr(self, "_physics", None)
            if physics is None:
                self._physics = self._task.physics_class.from_spec(root.spec)
            else:
                physics.recompile()
                _start_from_model_defaults(physics)
        except ValueError as error:
            raise ValueError(entity_module.describe_compile_error(root, error)) from error
        self._finish_compile()

    # Whether `exact_step_count` counts steps as dm_control's `control.Environment`
    # does (time_limit / (timestep * substeps), no tolerance): the Control Suite's
    # environment sets True.
    _control_suite_step_limit: bool = False

    # Whether a reset that dm_control's Composer would recompile puts the model's
    # values back as compiled (dm_control's physics-task environment, which never
    # recompiles, sets False).
    _restore_model_at_reset: bool = True
    # Whether the model compiles as dm_control's Composer compiles PyMJCF models,
    # naming unnamed elements (`//unnamed_geom_0`); the Control Suite's environment,
    # whose models dm_control loads from XML as they are, sets False.
    _pymjcf_compiled: bool = True

    def _restore_compiled_model(self) -> None:
        """Writes the model's values as compiled into the physics' model (see
        `recompile_mjcf_every_episode`); a model compiled since without the
        Environment (`env.physics.recompile()`) is taken as compiled instead."""
        if self._compiled_model is None:
            return
        physics = self._physics
        if physics.compile_count != self._compiled_count:
            self._compiled_model = CompiledModel(physics.model)
            self._compiled_count = physics.compile_count
            return
        self._compiled_model.restore(physics.model)

    # Set by `composer_tasks.batch` (its model variations): run at every reset
    # before the `initialize_episode` callbacks, after the model's restore.
    _before_initialize_episode: Optional[Callable[[Physics], None]] = None

    def _finish_compile(self, action_spec_of: Optional["Environment"] = None) -> None:
        """What compiling sets up once the physics exists: hooks, step limit, action
        spec (`action_spec_of`'s, if given); then the `after_compile` callbacks run."""
        root = self._task.root_entity
        self._physics.legacy_step = self._legacy_step
        self._collect_hooks()
        self._spec_fingerprint = (
            spec_edits.spec_fingerprint(root.spec)
            if self._spec_checks_left and self._hooks["initialize_episode_mjcf"]
            else None
        )
        self._set_step_counts()
        if action_spec_of is None:
            self._setup_action_spec()
        else:
            for name in self._ACTION_SPEC_ATTRIBUTES:
                setattr(self, name, getattr(action_spec_of, name))
        # The PyMJCF model's revision compiled: an edit through a handle since
        # (between episodes too) recompiles at the next reset, as dm_control's.
        self._compiled_mjcf_revision = _mjcf_revision(root.spec)
        # The model's values as compiled, put back at the resets where dm_control
        # compiles anew (`_reset_attempt`); a clone's model has copy 0's values.
        if not self._restore_model_at_reset:
            self._compiled_model = None
        elif action_spec_of is None:
            self._compiled_model = CompiledModel(self._physics.model)
        else:
            self._compiled_model = action_spec_of._compiled_model
        self._compiled_count = self._physics.compile_count
        self._compiled_timestep = float(self._physics.model.opt.timestep)
        # For the announced edits made outside the callbacks (an entity attached
        # between episodes), which dm_control's compile at the next reset takes in.
        self._compiled_edit_count = entity_module.spec_edit_count()
        self._compiled_structure = spec_edits.spec_structure(root.spec)
        for hook in self._hooks["after_compile"]:
            hook(self._physics, self._random_state)

    def _attached_or_detached_since_compile(self, root_spec: Any) -> bool:
        """Whether elements were added to or removed from the root spec since it was
        compiled (an entity attached between episodes, say), looked at only when
        some spec edit was announced since."""
        if entity_module.spec_edit_count() == self._compiled_edit_count:
            return False
        self._compiled_edit_count = entity_module.spec_edit_count()
        return spec_edits.spec_structure(root_spec) != self._compiled_structure

    def _set_step_counts(self) -> None:
        """The physics steps per control step (the task's, as dm_control reads them
        at every compile, unless `n_sub_steps` overrides them) and the episode's step
        limit."""
        self._n_substeps = self._overridden_n_sub_steps or self._task.physics_steps_per_control_step
        if self._exact_step_count and self._control_suite_step_limit:
            # dm_control's `control.Environment`: the episode ends at the first step
            # count >= time_limit / (physics timestep * substeps), a float quotient
            # taken as it comes (so 0.0500000001 s of 0.01 s steps is 6 steps).
            limit = self._time_limit / (float(self._physics.model.opt.timestep) * self._n_substeps)
            if math.isfinite(limit):
                self._step_limit = math.ceil(limit)
            else:
                self._step_limit = -math.inf if limit < 0 else math.inf
        elif self._exact_step_count:
            limit = self._time_limit / self.control_timestep()
            if math.isfinite(limit) and abs(limit - round(limit)) < _STEP_LIMIT_TOLERANCE:
                limit = round(limit)
            if math.isfinite(limit):
                self._step_limit = math.ceil(limit)
            else:
                # dm_control's `step_count >= time_limit / control_timestep`: -inf
                # ends at the first step, NaN and inf never.
                self._step_limit = -math.inf if limit < 0 else math.inf
        else:
            self._step_limit = float_time_step_limit(
                self._time_limit, float(self._physics.model.opt.timestep), self._n_substeps
            )
        self._last_substep_only = (self._n_substeps,)

    # What `_setup_action_spec` sets (immutable values: specs, dtypes, shapes, checks).
    _ACTION_SPEC_ATTRIBUTES: Tuple[str, ...] = (
        "_action_spec",
        "_action_dtype",
        "_action_shape",
        "_action_in_bounds",
    )

    def _setup_action_spec(self) -> None:
        self._action_spec = self._task.action_spec(self._physics)
        self._action_dtype = self._action_spec.dtype
        self._action_shape = self._action_spec.shape
        self._action_in_bounds = action_bounds_check(self._action_spec)

    def _collect_hooks(self) -> None:
        entities = list(self._task.root_entity.iter_entities())
        self._task_instance_hooks = _instance_hooks(self._task)
        self._hooks = {}
        for name in entity_module.CALLBACK_NAMES:
            hooks = []
            # Task.before_step (the action into the controls) is the one base
            # callback that does something; it counts as overridden.
            if name == "before_step" or entity_module.overrides(self._task, task_module.Task, name):
                hooks.append(getattr(self._task, name))
            for entity in entities:
                if entity_module.overrides(entity, entity_module.Callbacks, name):
                    hook = getattr(entity, name)
                    # As in dm_control, entities' step callbacks get no action.
                    if name in ACTION_CALLBACK_NAMES:
                        hook = _without_action(hook)
                    hooks.append(hook)
            hooks.extend(self._extra_hooks[name])
            self._hooks[name] = tuple(hooks)
        self._hooks_view = types.MappingProxyType(self._hooks)
        self._has_substep_hooks = bool(
            self._hooks["before_substep"] or self._hooks["after_substep"]
        )

    def _make_updater(self) -> None:
        self._updater = self._new_updater()

    def _new_updater(self) -> Any:
        enabled = [
            (name, observable)
            for name, observable in self._task.observables.items()
            if observable.enabled
        ]
        return updater_module.Updater(
            enabled, self._n_substeps, self._strip_singleton_obs_buffer_dim, self._padding
        )

    # dm_env interface.

    def control_timestep(self) -> float:
        """Seconds per control step (the task's, or `n_sub_steps` physics steps)."""
        if self._overridden_n_sub_steps is not None:
            return self._overridden_n_sub_steps * self._task.physics_timestep
        return self._task.control_timestep

    def add_extra_hook(self, hook_name: str, hook_callable: Callable[..., Any]) -> None:
        """Adds `hook_callable` to the lifecycle point `hook_name` (a callback name of
        `Entity`, e.g. "after_step"), called with that callback's arguments after the
        task's and the entities' own."""
        if hook_name not in self._extra_hooks:
            raise ValueError(
                f"{hook_name!r} is not a hook name; expected one of {list(self._extra_hooks)}"
            )
        if not callable(hook_callable):
            # ValueError, as dm_control raises.
            raise ValueError(f"hook_callable must be callable, got {hook_callable!r}")
        self._extra_hooks[hook_name].append(hook_callable)
        self._hooks[hook_name] = self._hooks[hook_name] + (hook_callable,)
        self._has_substep_hooks = bool(
            self._hooks["before_substep"] or self._hooks["after_substep"]
        )

    def reset(self) -> dm_env.TimeStep:
        """Starts an episode, retrying up to `max_reset_attempts` times when a callback
        raises `EpisodeInitializationError`."""
        failures = 0
        while True:
            try:
                return self._reset_attempt()
            except EpisodeInitializationError as error:
                failures += 1
                # dm_control's rule: retried while the failures are fewer than
                # `max_reset_attempts`; the last failure is raised.
                if not failures < self._max_reset_attempts:
                    raise
                _log.error(
                    "Episode initialisation failed (attempt %d of %s): %r",
                    failures,
                    self._max_reset_attempts,
                    error,
                )

    def _reset_attempt(self) -> dm_env.TimeStep:
        # dm_control looks the task's callbacks up at each call, so a callback assigned
        # to the task instance after the Environment was made runs; here the hooks are
        # collected once, and collected again when the instance's callbacks changed.
        if _instance_hooks(self._task) != self._task_instance_hooks:
            self._collect_hooks()
        self._reset_next_step = True
        self._step_count = 0
        random_state = self._random_state
        # Set exactly when `fixed_initial_state`.
        fixed_state = self._fixed_random_state
        if self._recompile_mjcf_every_episode or not self._mjcf_hooks_ran:
            if fixed_state is not None:
                random_state.set_state(fixed_state)
            edits = entity_module.spec_edit_count()
            for hook in self._hooks["initialize_episode_mjcf"]:
                hook(random_state)
            self._mjcf_hooks_ran = True
            root_spec = self._task.root_entity.spec
            if (
                self._spec_changed_by_hooks(edits)
                or _mjcf_revision(root_spec) != self._compiled_mjcf_revision
                # The task's `physics_timestep` setter writes the spec itself.
                or root_spec.option.timestep != self._compiled_timestep
                or self._attached_or_detached_since_compile(root_spec)
            ):
                self._compile()
            else:
                # dm_control compiles a new physics here whatever changed, so its
                # `after_compile` callbacks run at every such reset, on a physics in
                # the model's initial state; they run here too, on the physics kept,
                # brought back to that state, its model's values as compiled (what a
                # callback wrote into the model last episode is gone, as there).
                self._restore_compiled_model()
                if self._overridden_n_sub_steps is None and (
                    self._task.physics_steps_per_control_step != self._n_substeps
                ):
                    # The task's control timestep changed since the compile: dm_control,
                    # compiling anew here, reads it again.
                    self._set_step_counts()
                _start_from_model_defaults(self._physics)
                for hook in self._hooks["after_compile"]:
                    hook(self._physics, random_state)
            # Then dm_control resets a new observation updater: its evaluations
            # (values discarded) draw from the random state, as they do here.
            self._make_updater()
            self._updater.reset(self._physics, random_state)
        if fixed_state is not None:
            random_state.set_state(fixed_state)
        physics = self._physics
        if self._before_initialize_episode is not None:
            self._before_initialize_episode(physics)
        with physics.reset_context():
            for hook in self._hooks["initialize_episode"]:
                hook(physics, random_state)
        self._make_updater()
        self._updater.reset(physics, random_state)
        self._reset_next_step = False
        return dm_env.restart(self._updater.get_observation())

    def step(self, action: Any) -> dm_env.TimeStep:
        """One control step (or the reset, if `needs_reset`).

        Raises:
          TypeError: the action's dtype cannot be written into the controls
            (strings, None, complex numbers), as dm_control's `np.copyto` raises.
          ValueError: the action does not broadcast to the action spec's shape, or
            with `strict_action_bounds` is outside its bounds.
          InvalidActionError: an entry is one MuJoCo rejects (NaN, infinite, beyond
            +-mjMAXVAL), and `raise_exception_on_physics_error` is True.
          PhysicsError: the simulation diverged or MuJoCo warned during the step,
            and `raise_exception_on_physics_error` is True.
        """
        if self._reset_next_step:
            return self.reset()
        try:
            action = self.begin_control_step(action)
        except InvalidActionError as error:
            if self._raise_on_physics_error or error.action is None:
                return self.end_episode_by_physics_error(error)
            # As dm_control: the control is written and stepped, and MuJoCo's warning
            # ends the episode (or the task's before_step made it a valid control).
            action = self._run_before_step(error.action)
        physics = self._physics
        try:
            if self._has_substep_hooks:
                for nstep in self._substeps_with_callbacks(action):
                    physics.step(nstep)
            else:
                updater = self._updater
                substeps = updater.prepare_for_next_control_step()
                if substeps == self._last_substep_only:
                    # The usual task: the observation plan reads every observable after
                    # the last substep only, so the control step is one physics call.
                    physics.step(self._n_substeps)
                    self._after_step()
                    updater.update(self._n_substeps)
                else:
                    for nstep in self._substeps_in_chunks(substeps):
                        physics.step(nstep)
        except PhysicsError as error:
            return self.end_episode_by_physics_error(error)
        return self.finish_control_step()

    def begin_control_step(self, action: Any) -> Action:
        """Starts a control step: validates `action` and runs the `before_step` hooks.

        Returns the action as an array of the action spec's shape, its values and
        dtype as given (`fitted_action`). Follow it with `substeps` and
        `finish_control_step`.

        Raises:
          TypeError: the action's dtype cannot be written into the controls.
          ValueError: the action does not fit the action spec (`InvalidActionError`
            for entries MuJoCo rejects; see `strict_action_bounds`).
        """
        return self._run_before_step(self._validate_action(action))

    def _run_before_step(self, action: Action) -> Action:
        physics = self._physics
        random_state = self._random_state
        for hook in self._hooks["before_step"]:
            hook(physics, action, random_state)
        return action

    def substeps(self, action: Action) -> Iterator[int]:
        """The physics steps of this control step, as the counts to advance by.

        A generator: each value it yields is a number of physics substeps that its
        driver advances the physics by (`physics.step(n)`, or a batch's call) before
        it asks for the next; between them it runs the substep callbacks and updates
        the observables the observation plan reads there, and `after_step` after the
        last. With no substep callbacks the counts are the gaps between the
        observation updates (usually one count for the whole control step).
        """
        if self._has_substep_hooks:
            return self._substeps_with_callbacks(action)
        return self._substeps_in_chunks(self._updater.prepare_for_next_control_step())

    def finish_control_step(self) -> dm_env.TimeStep:
        """Ends a control step whose substeps ran: counts it and returns its TimeStep
        (`episode_outcome`); after a LAST step the next `step` resets."""
        physics = self._physics
        self._step_count += 1
        step_type, reward, discount = episode_outcome(
            self._task, physics, self._step_count, self._step_limit
        )
        if step_type is dm_env.StepType.LAST:
            self._reset_next_step = True
        return dm_env.TimeStep(step_type, reward, discount, self._updater.get_observation())

    def control_step(self, action: Any) -> Generator[int, None, dm_env.TimeStep]:
        """`begin_control_step`, `substeps` and `finish_control_step` as one generator,
        for a driver that steps the physics itself: it yields the substep counts and
        returns (as `StopIteration.value`) the step's TimeStep."""
        action = self.begin_control_step(action)
        yield from self.substeps(action)
        return self.finish_control_step()

    def end_episode_by_physics_error(self, error: PhysicsError) -> dm_env.TimeStep:
        """What a step in which the physics failed returns: raises `error` if
        `raise_exception_on_physics_error`, else logs it and returns a LAST step
        (reward 0, discount 0, the observation before the step); the next step resets."""
        if self._raise_on_physics_error:
            raise error
        _log.warning("Episode ended by a physics error: %s", error)
        self._reset_next_step = True
        reward, discount = self._physics_error_outcome()
        return dm_env.TimeStep(
            dm_env.StepType.LAST, reward, discount, self._updater.get_observation()
        )

    def _physics_error_outcome(self) -> tuple[Any, Any]:
        """(reward, discount) of a step ended by a physics error."""
        return 0.0, 0.0

    def _spec_changed_by_hooks(self, edit_count_before: int) -> bool:
        announced = entity_module.spec_edit_count() != edit_count_before
        fingerprint = self._spec_fingerprint
        if fingerprint is None:
            return announced
        self._spec_checks_left -= 1
        if not self._spec_checks_left:
            self._spec_fingerprint = None
        if announced:
            return True  # the recompile takes every edit, announced or not
        spec = self._task.root_entity.spec
        if spec_edits.spec_fingerprint(spec) == fingerprint:
            return False
        if not math.isinf(self._spec_checks_left):
            self._spec_checks_left = math.inf
            _log.warning(
                "The spec was edited without announcing it since the model was last compiled "
                "(between episodes, or by an initialize_episode_mjcf callback; changed: %s). "
                "The model is recompiled, and the spec is compared at every "
                "reset from now on; call composer.mark_spec_changed() after such edits, or "
                "edit through composer_tasks.mjcf handles, to avoid the comparison's cost.",
                spec_edits.describe_spec_difference(spec, fingerprint),
            )
        return True

    def _substeps_in_chunks(self, planned_substeps: Iterable[int]) -> Iterator[int]:
        """Yields the physics steps between the `planned_substeps` (the updater's plan
        for this control step), updating the observables after each."""
        updater = self._updater
        n = self._n_substeps
        done = 0
        for substep in planned_substeps:
            yield substep - done
            done = substep
            if substep == n:
                self._after_step()
            updater.update(substep)
        if done < n:
            yield n - done
            self._after_step()

    def _substeps_with_callbacks(self, action: Action) -> Iterator[int]:
        physics = self._physics
        random_state = self._random_state
        updater = self._updater
        n = self._n_substeps
        update_at = set(updater.prepare_for_next_control_step())
        before_substep = self._hooks["before_substep"]
        after_substep = self._hooks["after_substep"]
        for substep in range(1, n + 1):
            for hook in before_substep:
                hook(physics, action, random_state)
            yield 1
            for hook in after_substep:
                hook(physics, random_state)
            if substep == n:
                self._after_step()
            if substep in update_at:
                updater.update(substep)

    def _after_step(self) -> None:
        for hook in self._hooks["after_step"]:
            hook(self._physics, self._random_state)

    def _validate_action(self, action: Any) -> Action:
        array = np.asarray(action)
        if array.dtype != self._action_dtype or array.shape != self._action_shape:
            array = fitted_action(array, self._action_spec)
        if self._action_in_bounds(array):
            return array
        return checked_out_of_bounds_action(
            array, self._action_spec, "action", "the action spec", self._strict_action_bounds
        )

    def action_spec(self) -> specs.BoundedArray:
        return self._action_spec

    def observation_spec(self) -> Mapping[str, specs.Array]:
        return self._updater.observation_spec()

    def reward_spec(self) -> specs.Array:
        """The task's `get_reward_spec()`, or dm_env's scalar float64 "reward" when
        it is None (dm_control's rule)."""
        spec = self._task.get_reward_spec()
        return super().reward_spec() if spec is None else spec

    def discount_spec(self) -> specs.BoundedArray:
        """The task's `get_discount_spec()`, or dm_env's scalar "discount" in [0, 1]
        when it is None (dm_control's rule)."""
        spec = self._task.get_discount_spec()
        return super().discount_spec() if spec is None else spec

    def step_spec(self) -> dm_env.TimeStep:
        """Deprecated in dm_control as here (use `reward_spec` and `discount_spec`): a
        TimeStep of the reward, discount and observation specs.

        Raises:
          NotImplementedError: the task leaves its reward or discount spec to the
            default (as dm_control raises).
        """
        warnings.warn(
            "step_spec is deprecated, as in dm_control: use reward_spec and discount_spec",
            DeprecationWarning,
            stacklevel=2,
        )
        reward_spec = self._task.get_reward_spec()
        discount_spec = self._task.get_discount_spec()
        if reward_spec is None or discount_spec is None:
            raise NotImplementedError(
                "step_spec needs the task's get_reward_spec() and get_discount_spec()"
            )
        return dm_env.TimeStep(
            step_type=None,
            reward=reward_spec,
            discount=discount_spec,
            observation=self._updater.observation_spec(),
        )

    # Snapshots.

    def snapshot(self) -> dict:
        """A picklable record of what the environment changes while it runs.

        It holds the full physics state, every array of the compiled model but its
        textures (tasks move targets, randomise masses, rewrite heightfields), the
        model options, the random state, the episode's step count and the state of
        the observation updater (buffers, values in flight, random intervals and
        delays drawn ahead). `restore` on an environment built the same way (same
        task, same model) continues exactly where this one was, which is what a
        resumed training run needs.

        Python state that a task or entity keeps for itself across steps (a maze
        layout, targets collected) is in it only if the object offers it: a task
        or entity with a `snapshot_state()` method (returning something picklable)
        and a `restore_state(state)` method has its state saved and restored, keyed
        by its path in the model.

        Raises:
          RuntimeError: in the middle of a control step (a `control_step` driver
            between two substeps).
        """
        model = self._physics.model
        return {
            "physics": self._physics.get_full_state(),
            "model": {name: np.array(value) for name, value in _model_arrays(model)},
            "option": {
                name: _copy_value(getattr(model.opt, name)) for name in _option_names(model)
            },
            "random_state": self._random_state.get_state(),
            "step_count": self._step_count,
            "reset_next_step": self._reset_next_step,
            # After an episode's end the next step resets, which rebuilds the updater.
            "observations": None if self._reset_next_step else self._updater.snapshot_state(),
            "python_state": {path: owner.snapshot_state() for path, owner in self._state_owners()},
        }

    def _observable_items(self) -> Iterable[tuple[str, Any]]:
        """(observation name, observable) of every observable of the task."""
        return self._task.observables.items()

    def _state_owners(self) -> list[tuple[str, Any]]:
        """(path, object) of the task ("task") and the entities (their prefix, or the
        root's name) that keep Python state for snapshots."""
        owners = [("task", self._task)] + [
            (entity.prefix.rstrip("/") or entity.name, entity)
            for entity in self._task.root_entity.iter_entities()
        ]
        return [
            (path, owner)
            for path, owner in owners
            if callable(getattr(owner, "snapshot_state", None))
            and callable(getattr(owner, "restore_state", None))
        ]

    def restore(self, snapshot: dict) -> None:
        """Returns the environment to a `snapshot()` of an environment built alike.

        The model's sizes, the presence of every task's and entity's Python state
        and the observations are checked before anything changes, so a snapshot
        refused for them leaves the environment as it was; each `restore_state`
        checks its own state when it is applied, after the physics.

        Raises:
          ValueError: the snapshot is of a model with other sizes, lacks the state
            of a task or entity that keeps Python state, or holds observations of
            other observables (names, shapes, buffers); or a `restore_state`
            refused its state.
        """
        model = self._physics.model
        arrays = dict(_model_arrays(model))
        # Snapshots of earlier versions may hold texture fields: they are not restored.
        fields = {name: value for name, value in snapshot["model"].items() if _in_snapshots(name)}
        for name, value in fields.items():
            if name not in arrays or arrays[name].shape != np.shape(value):
                raise ValueError(
                    f"the snapshot's model field {name!r} does not fit this model "
                    f"(shape {np.shape(value)} vs {getattr(arrays.get(name), 'shape', None)})"
                )
        python_state = snapshot.get("python_state", {})
        owners = self._state_owners()
        for path, _ in owners:
            if path not in python_state:
                raise ValueError(
                    f"the snapshot holds no state of {path!r}, which keeps Python state"
                )
        observations = snapshot.get("observations")
        if (
            observations is None
            and not snapshot["reset_next_step"]
            and not all(
                plain_observable(observable)
                for _, observable in self._observable_items()
                if observable.enabled
            )
        ):
            raise ValueError(
                "the snapshot holds no observation buffers (it is of an earlier version) and "
                "this environment has buffered, delayed, interval-updated or noisy observables"
            )
        spec = self._updater.observation_spec()
        updater = self._new_updater()
        if observations is not None:
            # Bound to this environment's random state, which is set to the snapshot's
            # below: the corruptors and random schedules draw on from there.
            updater.restore(self._physics, self._random_state, observations)
            _check_same_spec(spec, updater.observation_spec())
        for name, value in fields.items():
            arrays[name][...] = value
        for name, value in snapshot["option"].items():
            setattr(model.opt, name, value)
        self._physics.set_full_state(snapshot["physics"])
        self._random_state.set_state(snapshot["random_state"])
        self._step_count = snapshot["step_count"]
        self._reset_next_step = snapshot["reset_next_step"]
        for path, owner in owners:
            owner.restore_state(python_state[path])
        if observations is None:
            # The next step resets, or (a snapshot of an earlier version) every
            # observable is plain and reads the restored physics; a throwaway random
            # state, since plain observables draw nothing.
            updater.reset(self._physics, np.random.RandomState(0))
        self._updater = updater

    def close(self) -> None:
        # A constructor that failed before compiling leaves no physics to close.
        physics = getattr(self, "_physics", None)
        if physics is not None:
            physics.close()


def _check_same_spec(expected: Any, restored: Any) -> None:
    if isinstance(expected, list):  # a multi-agent environment's per-agent specs
        expected = {
            f"agent{index}/{name}": spec
            for index, agent_specs in enumerate(expected)
            for name, spec in agent_specs.items()
        }
        restored = {
            f"agent{index}/{name}": spec
            for index, agent_specs in enumerate(restored)
            for name, spec in agent_specs.items()
        }
    differing = [
        name
        for name in dict.fromkeys(list(expected) + list(restored))
        if name not in expected
        or name not in restored
        or expected[name].shape != restored[name].shape
        or expected[name].dtype != restored[name].dtype
    ]
    if differing:
        raise ValueError(
            f"the snapshot's observations {differing} do not fit this environment's observation "
            f"spec (snapshot: {[restored.get(name) for name in differing]}, this environment: "
            f"{[expected.get(name) for name in differing]})"
        )


# Texels per side of a builtin texture (per face for cubes and skyboxes) with
# textures=False: enough for MuJoCo's generators, nothing to store.
_SHRUNK_TEXTURE_SIZE = 2


def _shrink_builtin_textures(spec: mujoco.MjSpec) -> None:
    for texture in spec.textures:
        if texture.builtin != mujoco.mjtBuiltin.mjBUILTIN_NONE:
            texture.width = min(texture.width, _SHRUNK_TEXTURE_SIZE)
            texture.height = min(texture.height, _SHRUNK_TEXTURE_SIZE)


def action_bounds_check(spec: specs.BoundedArray) -> Callable[[np.ndarray], bool]:
    """A predicate on arrays of the spec's shape and dtype, or of copies of it
    stacked on leading axes (a batch's actions): every entry is within [minimum,
    maximum], and none is NaN or infinite.

    Exact despite the arithmetic: x - y > 0 exactly when x > y (IEEE subtraction of
    distinct numbers never gives 0), NaN propagates through `maximum` and its
    reduction and fails `<= 0`, and an infinite entry gives NaN against an infinite
    bound (inf - inf) or a positive difference against a finite one. A few ufunc
    calls, which is what a 1-D action costs least to check with.
    """
    dtype = spec.dtype
    minimum = np.broadcast_to(np.asarray(spec.minimum, dtype=dtype), spec.shape).copy()
    maximum = np.broadcast_to(np.asarray(spec.maximum, dtype=dtype), spec.shape).copy()
    if minimum.size == 0:
        return lambda array: True
    largest = np.maximum.reduce
    if (
        np.all(np.isfinite(maximum))
        and np.all(minimum == -maximum)
        and np.all(maximum == maximum.flat[0])
    ):
        bound = maximum.flat[0]
        absolute = np.absolute
        return lambda array: largest(absolute(array), axis=None) <= bound
    excess = np.maximum

    def inside(array: np.ndarray) -> bool:
        return largest(excess(minimum - array, array - maximum), axis=None) <= 0

    if np.all(np.isfinite(minimum)) and np.all(np.isfinite(maximum)):
        return inside

    def inside_quietly(array: np.ndarray) -> bool:
        # An infinite entry against an infinite bound is inf - inf: NaN, rejected,
        # without NumPy's warning about it.
        with np.errstate(invalid="ignore"):
            return inside(array)

    return inside_quietly


def _in_snapshots(name: str) -> bool:
    # Textures are large and never varied per episode, and environments built with
    # textures=False have them at another size; every other model array is kept.
    return not (name.startswith("_") or name.startswith("tex_"))


def _model_arrays(model: mujoco.MjModel) -> Iterator[tuple[str, np.ndarray]]:
    return ((name, value) for name, value in array_fields(model) if _in_snapshots(name))


def _option_names(model: mujoco.MjModel) -> list[str]:
    return [
        name
        for name in dir(model.opt)
        if not name.startswith("_") and not callable(getattr(model.opt, name))
    ]


def _copy_value(value: Any) -> Any:
    return np.array(value) if isinstance(value, np.ndarray) else value


class MultiAgentEnvironment(Environment):
    """An `Environment` of a multi-agent task (`composer.Task.num_agents` an int n),
    with dm_control's convention for several agents acting at once.

    `observation_spec()`, `action_spec()` and `reward_spec()` return lists of n
    per-agent specs; `step(actions)` takes a sequence of n per-agent actions, each
    checked against its agent's spec as a single environment checks its action
    (shape, dtype, bounds, NaN or infinite entries); a TimeStep's `observation` is a
    list of n per-agent dicts and its `reward` a list of n per-agent rewards (None at
    FIRST steps). The discount is one value for all agents, in the discount spec's
    dtype (dm_control's soccer gives one float32 discount too). A step ended by a
    physics error gives every agent reward 0 and discount 0.

    Built by `Environment(task)` for a task with `num_agents` set; the arguments are
    `Environment`'s.
    """

    def __init__(self, task: task_module.Task, *args: Any, **kwargs: Any) -> None:
        num_agents = task.num_agents
        if (
            isinstance(num_agents, (bool, np.bool_))
            or not isinstance(num_agents, (int, np.integer))
            or num_agents < 0
        ):
            # 0 is allowed: dm_control's soccer runs a match of no players (empty lists).
            raise ValueError(
                f"{type(task).__name__}.num_agents must be None (single agent) or an int >= 0, "
                f"got {num_agents!r}"
            )
        self._num_agents = int(num_agents)
        reward_specs = task.get_reward_spec()
        if not isinstance(reward_specs, (list, tuple)) or len(reward_specs) != self._num_agents:
            raise ValueError(
                f"{type(task).__name__}.get_reward_spec() must return a list of "
                f"{self._num_agents} per-agent specs, got {reward_specs!r}"
            )
        super().__init__(task, *args, **kwargs)

    @property
    def num_agents(self) -> int:
        """The number of agents n: the length of every per-agent list."""
        return self._num_agents

    def action_spec(self) -> list[specs.BoundedArray]:
        """The n per-agent action specs."""
        return self._action_spec

    def observation_spec(self) -> list[Mapping[str, specs.Array]]:
        """The n per-agent observation specs, name -> spec."""
        return self._updater.observation_spec()

    def reward_spec(self) -> Sequence[specs.Array]:
        """The n per-agent reward specs (the task's list, checked on construction)."""
        return cast("Sequence[specs.Array]", self._task.get_reward_spec())

    _ACTION_SPEC_ATTRIBUTES = (
        "_action_spec",
        "_agent_action_checks",
        "_discount_dtype",
        "_stacked_action_shape",
        "_stacked_action_dtype",
        "_stacked_in_bounds",
    )

    def _setup_action_spec(self) -> None:
        agent_specs = self._task.action_spec(self._physics)
        if not isinstance(agent_specs, (list, tuple)) or len(agent_specs) != self._num_agents:
            raise ValueError(
                f"{type(self._task).__name__}.action_spec() must return a list of "
                f"{self._num_agents} per-agent BoundedArrays, got {agent_specs!r}"
            )
        for index, spec in enumerate(agent_specs):
            if not isinstance(spec, specs.BoundedArray):
                raise TypeError(
                    f"{type(self._task).__name__}.action_spec()[{index}] must be a BoundedArray, "
                    f"got {type(spec).__name__}"
                )
        self._action_spec = list(agent_specs)
        self._agent_action_checks = [(spec, action_bounds_check(spec)) for spec in agent_specs]
        self._discount_dtype = np.dtype(self.discount_spec().dtype)
        # Agents with one and the same spec (a team of like walkers) are checked in one
        # go, stacked; anything that fails that check is checked agent by agent for
        # an error that names the agent.
        first = agent_specs[0] if agent_specs else None
        alike = first is not None and all(
            spec.shape == first.shape
            and spec.dtype == first.dtype
            and np.array_equal(
                np.broadcast_to(spec.minimum, spec.shape),
                np.broadcast_to(first.minimum, first.shape),
            )
            and np.array_equal(
                np.broadcast_to(spec.maximum, spec.shape),
                np.broadcast_to(first.maximum, first.shape),
            )
            for spec in agent_specs
        )
        self._stacked_action_shape = None
        self._stacked_action_dtype = None
        self._stacked_in_bounds = None
        if alike and first is not None:
            self._stacked_action_shape = (len(agent_specs),) + tuple(first.shape)
            self._stacked_action_dtype = first.dtype
            self._stacked_in_bounds = action_bounds_check(first)

    def _validate_action(self, actions: Any) -> list[np.ndarray]:
        if isinstance(actions, (str, bytes, collections.abc.Mapping)) or not hasattr(
            actions, "__len__"
        ):
            raise TypeError(
                f"actions must be a sequence of {self._num_agents} per-agent actions, "
                f"got {type(actions).__name__}"
            )
        if len(actions) != self._num_agents:
            raise ValueError(
                f"got {len(actions)} actions for a task of {self._num_agents} agents "
                "(one action per agent expected)"
            )
        # Set (with the stacked shape) when every agent has the same spec. Each
        # agent's dtype is checked before stacking, which would turn one agent's bool
        # action into the others' floats.
        arrays = [np.asarray(action) for action in actions]
        if self._stacked_in_bounds is not None and all(
            array.dtype.kind in "fiu" for array in arrays
        ):
            try:
                stacked = np.array(arrays)
            except ValueError:  # Ragged: per agent below, which names the agent.
                stacked = None
            if stacked is not None and stacked.shape == self._stacked_action_shape:
                stacked = stacked.astype(self._stacked_action_dtype, copy=False)
                if self._stacked_in_bounds(stacked):
                    return list(stacked)
        try:
            return [
                check_agent_action(
                    array, spec, in_bounds, f"agent {index}", self._strict_action_bounds
                )
                for index, (array, (spec, in_bounds)) in enumerate(
                    zip(arrays, self._agent_action_checks)
                )
            ]
        except InvalidActionError as error:
            # One agent's array is not the step's action: the episode ends unstepped.
            raise InvalidActionError(str(error)) from None

    def _new_updater(self) -> "_PerAgentUpdater":
        return _PerAgentUpdater(
            self._per_agent_observables(),
            self._n_substeps,
            self._strip_singleton_obs_buffer_dim,
            self._padding,
        )

    def _per_agent_observables(self) -> Sequence[Mapping[str, Any]]:
        per_agent = self._task.observables
        if isinstance(per_agent, collections.abc.Mapping) or len(per_agent) != self._num_agents:
            raise ValueError(
                f"{type(self._task).__name__}.observables must be a list of {self._num_agents} "
                f"per-agent mappings of observables, got {type(per_agent).__name__}"
            )
        return per_agent

    def _observable_items(self) -> list[tuple[str, Any]]:
        return [
            (f"agent{index}/{name}", observable_object)
            for index, observables in enumerate(self._per_agent_observables())
            for name, observable_object in observables.items()
        ]

    def finish_control_step(self) -> dm_env.TimeStep:
        """Ends a control step whose substeps ran (see `Environment.finish_control_step`);
        the reward is the task's list of per-agent rewards."""
        timestep = super().finish_control_step()
        reward = list(timestep.reward)
        if len(reward) != self._num_agents:
            raise ValueError(
                f"{type(self._task).__name__}.get_reward returned {len(reward)} rewards for "
                f"{self._num_agents} agents"
            )
        return timestep._replace(
            reward=reward, discount=np.asarray(timestep.discount, self._discount_dtype)
        )

    def _physics_error_outcome(self) -> tuple[list[np.ndarray], np.ndarray]:
        """Reward 0 for every agent, one discount 0 (see `end_episode_by_physics_error`)."""
        # A multi-agent task's reward spec is its per-agent list (checked on construction).
        reward_specs = cast("Sequence[specs.Array]", self._task.get_reward_spec())
        rewards = [np.zeros(spec.shape, spec.dtype) for spec in reward_specs]
        return rewards, np.zeros((), self._discount_dtype)


class ActionDtypeError(TypeError, ValueError):
    """An action whose dtype cannot be written into the controls (strings, None,
    complex numbers). Both a `TypeError` (what dm_control's `physics.set_control`,
    an `np.copyto`, raises for it) and a `ValueError` (what dm_control's walkers'
    `bind(actuators).ctrl = action` raises for a string), so that code written for
    either catches it."""


class InvalidActionError(ValueError, PhysicsError):
    """An action with an entry MuJoCo rejects as a bad control: NaN, or beyond
    +-`mujoco.mjMAXVAL` (1e10, infinities included) for an actuator without a control
    range.

    Both a `ValueError` (the action is bad input, refused before the step) and a
    `PhysicsError` (what dm_control raises for it, from MuJoCo's bad-control warning
    during the step), so that code written for either catches it. `action` is the
    refused action (an array of the spec's dtype).
    """

    def __init__(self, message: str, action: Any = None):
        super().__init__(message)
        self.action = action


def fitted_action(array: np.ndarray, spec: specs.BoundedArray) -> np.ndarray:
    """`array` as the action of `spec`'s shape that dm_control's default `before_step`
    writes into the controls (`physics.set_control`, an `np.copyto` into the float64
    controls), its values and dtype kept as given: it must cast to the controls under
    NumPy's "same_kind" rule (booleans, integers and floats of any width do), and
    broadcast to the spec's shape (a scalar, or a length-1 array, fills every entry;
    leading axes of length 1 are dropped), a new array when it does not have that
    shape already. Like dm_control, it is not cast to the spec's dtype: a float64
    action of a float32 spec writes its float64 values.

    Raises:
      ActionDtypeError: (a TypeError and a ValueError) the dtype cannot be written
        into the controls (strings, None, complex numbers), as `np.copyto` raises.
      ValueError: the shape does not broadcast to the spec's.
    """
    if not np.can_cast(array.dtype, np.float64, casting="same_kind"):
        raise ActionDtypeError(
            f"action has dtype {array.dtype}, but the action spec {spec.name!r} wants "
            f"real numbers ({spec.dtype})"
        )
    if array.shape == spec.shape:
        return array
    fitted = np.empty(spec.shape, array.dtype)
    try:
        np.copyto(fitted, array)
    except ValueError:
        raise ValueError(
            f"action has shape {array.shape}, but the action spec {spec.name!r} has shape "
            f"{spec.shape} (and the action does not broadcast to it)"
        ) from None
    return fitted


def checked_out_of_bounds_action(
    array: np.ndarray, spec: specs.BoundedArray, what: str, whose_spec: str, strict: bool
) -> np.ndarray:
    """`array` (of `spec`'s shape and dtype), which `action_bounds_check(spec)` found
    not within the spec, if it may still be stepped; else the error.

    Raises:
      InvalidActionError: an entry is NaN, infinite or beyond +-mjMAXVAL, which MuJoCo
        rejects (it would zero the control and warn).
      ValueError: `strict` and an entry is outside [minimum, maximum].
    """
    flat = array.reshape(-1)
    names = spec.name.split("\t") if spec.name is not None else []
    # A spec may have no name: entries are then named by index.
    label = lambda i: names[i] if i < len(names) else i  # noqa: E731
    nan = np.isnan(flat)
    if np.any(nan):
        bad = np.flatnonzero(nan)
        raise InvalidActionError(
            f"{what} has non-finite entries at {bad.tolist()} ({flat[bad].tolist()}) "
            f"for {whose_spec} {spec.name!r}",
            array,
        )
    minimum = np.broadcast_to(spec.minimum, spec.shape).reshape(-1)
    maximum = np.broadcast_to(spec.maximum, spec.shape).reshape(-1)
    # MuJoCo limits a control-limited actuator's control (a spec bound within
    # +-mjMAXVAL) before it checks it, so only an unlimited one's (bounds +-mjMAXVAL,
    # as `Task.action_spec` gives) can be too large.
    unlimited = (np.abs(minimum) >= mujoco.mjMAXVAL) | (np.abs(maximum) >= mujoco.mjMAXVAL)
    beyond = np.flatnonzero((np.abs(flat) > mujoco.mjMAXVAL) & unlimited)
    if len(beyond):
        details = ", ".join(
            f"{label(i)}={flat[i]} not in [{minimum[i]}, {maximum[i]}]" for i in beyond
        )
        raise InvalidActionError(
            f"{what} is outside the bounds of {whose_spec}, beyond MuJoCo's mjMAXVAL "
            f"({mujoco.mjMAXVAL:g}) for an actuator without a control range, a control "
            f"MuJoCo rejects: {details}",
            array,
        )
    if not strict:
        return array
    details = ", ".join(
        f"{label(i)}={flat[i]} not in [{minimum[i]}, {maximum[i]}]"
        for i in np.flatnonzero((flat < minimum) | (flat > maximum))
    )
    raise ValueError(
        f"{what} is outside the bounds of {whose_spec} (strict_action_bounds=True): {details}"
    )


def check_agent_action(
    action: Any,
    spec: specs.BoundedArray,
    in_bounds: Callable[[np.ndarray], bool],
    who: str,
    strict: bool = True,
) -> np.ndarray:
    """`action` as an array of `spec`'s shape and dtype, converted as NumPy assigns it
    into the controls (dm_control's walkers write an agent's action so), or an error
    naming `who` (an agent) and what of `spec` it violates: the TypeError or
    ValueError NumPy's assignment raises for a dtype or shape it cannot take, entries
    MuJoCo rejects and, if `strict`, bounds (see `checked_out_of_bounds_action`).
    `in_bounds` is `action_bounds_check(spec)`."""
    array = np.asarray(action)
    if array.dtype != spec.dtype or array.shape != spec.shape:
        # Converted as dm_control's walkers write an agent's action into the
        # controls (`physics.bind(actuators).ctrl = action`): NumPy's assignment,
        # broadcasting and casting as it does, and raising what it raises.
        fitted = np.empty(spec.shape, spec.dtype)
        try:
            fitted[...] = array
        except (TypeError, ValueError) as error:
            if array.shape != spec.shape:
                detail = f"has shape {array.shape}, but its action spec {spec.name!r} has shape {spec.shape}"
            else:
                detail = f"has dtype {array.dtype}, but its action spec {spec.name!r} wants real numbers ({spec.dtype})"
            raise type(error)(f"the action of {who} {detail}: {error}") from None
        array = fitted
    if in_bounds(array):
        return array
    return checked_out_of_bounds_action(
        array, spec, f"the action of {who}", "its action spec", strict
    )


class _PerAgentUpdater:
    """One observation `Updater` over every agent's observables, whose observations
    and specs it hands out as per-agent lists of dicts (the Environment's updater
    interface: reset, prepare_for_next_control_step, update, get_observation,
    observation_spec)."""

    def __init__(
        self,
        per_agent_observables: Iterable[Mapping[str, Any]],
        physics_steps_per_control_step: int,
        strip_singleton_buffer_dim: bool,
        padding: ObservationPadding,
    ) -> None:
        items = []
        self._names = []
        for index, observables in enumerate(per_agent_observables):
            names = []
            for name, observable_object in observables.items():
                if observable_object.enabled:
                    items.append((f"agent{index}/{name}", observable_object))
                    names.append(name)
            self._names.append(names)
        bounds = np.cumsum([0] + [len(names) for names in self._names])
        self._agents = [
            (names, int(start), int(stop))
            for names, start, stop in zip(self._names, bounds[:-1], bounds[1:])
        ]
        self._updater = updater_module.Updater(
            items, physics_steps_per_control_step, strip_singleton_buffer_dim, padding
        )
        self.prepare_for_next_control_step = self._updater.prepare_for_next_control_step
        self.update = self._updater.update

    def reset(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._updater.reset(physics, random_state)

    def snapshot_state(self) -> dict:
        """The state of the one `Updater` over every agent's observables (see
        `Updater.snapshot_state`)."""
        return self._updater.snapshot_state()

    def restore(self, physics: Physics, random_state: np.random.RandomState, state: dict) -> None:
        """`Updater.restore` of the one updater over every agent's observables."""
        self._updater.restore(physics, random_state, state)

    def _split(self, flat_values: Iterable[Any]) -> list[collections.OrderedDict]:
        values = list(flat_values)
        return [
            collections.OrderedDict(zip(names, values[start:stop]))
            for names, start, stop in self._agents
        ]

    def get_observation(self) -> list:
        return self._split(self._updater.get_observation().values())

    def observation_spec(self) -> list:
        agent_specs = self._split(self._updater.observation_spec().values())
        return [
            collections.OrderedDict(
                (name, specs.Array(spec.shape, spec.dtype, name)) for name, spec in agent.items()
            )
            for agent in agent_specs
        ]
