"""BatchEnvironment: N copies of one task, their physics stepped together on a thread pool.

Each copy is an ordinary `composer.Environment` with its own task, random state and
`Physics`; its Python lifecycle (callbacks, observables, reward) runs exactly as it
does alone. What changes is who steps the physics: the copies' substeps run in one
`mujoco.batch.Batch` call on `num_threads` threads. Before a call, every stepped
copy's integration state (qpos, qvel, act, ctrl, warm start, applied forces, mocap,
...) is written into the batch's rows; after it, the batch's persistent MjData of
each copy (state and derived quantities alike) is copied back into the copy's own
MjData. The batch runs each copy on the copy's own MjModel, so per-copy model
parameters (domain randomisation) are honoured.

Vectorised path: a task whose `vectorized` attribute is True promises that its
`get_reward`, `get_discount`, `should_terminate_episode` and the functions of its
(plain `Generic`) observables also work on a `BatchPhysics`, whose `data` fields
are the batch's live (N, ...) arrays and whose `model` fields are stacked (N, ...)
per-copy arrays, and that its per-step callbacks do nothing but write the controls.
Such copies are then stepped with no Python loop over copies: controls are written
as one (N, A) array, the batch steps, and observations and rewards are computed
once on (N, ...) arrays. Resets still run each copy's own lifecycle. Other tasks
loop their callbacks over copies (the physics stays batched). Both paths give the
same numbers as single environments.

Conventions:
  * Copy i is bit-identical to `composer.Environment(task_i, random_state=copy_seed(seed, i))`
    stepped with the same actions, including across episode ends.
  * Auto-reset, as Gymnasium's NEXT_STEP mode: the step after a copy's LAST step
    resets that copy and returns its FIRST step (its action for that step is
    ignored, and its reward is 0.0 and discount 1.0 there).
  * Batched TimeSteps hold arrays: `step_type` (N,) of `dm_env.StepType` values,
    `reward` and `discount` (N,) float64, `observation` a dict of (N, ...) arrays.
    Every step returns new arrays: none shares memory with the batch's state or
    with another step's TimeStep, so they may be kept (in a replay buffer, say).
  * The physics calls run with MuJoCo's stage timers off (`paused_profiling_clock`):
    for small models those clock reads cost a third of the step.
"""

import collections

import dm_env
import mujoco
import mujoco.batch
import numpy as np

from composer_tasks.composer import entity as entity_module
from composer_tasks.composer import environment as environment_module
from composer_tasks.composer import task as task_module
from composer_tasks.composer.observation import observable as observable_module
from composer_tasks.physics import PhysicsError
from composer_tasks.physics import paused_profiling_clock

# The integration state MuJoCo's batch keeps per simulation, in its row order.
_STATE_FIELDS = (
    "time", "qpos", "qvel", "act", "history", "qacc_warmstart", "ctrl", "qfrc_applied",
    "xfrc_applied", "eq_active", "mocap_pos", "mocap_quat", "userdata", "plugin_state", "plastic",
)
_ELEMENT_KINDS = ("body", "geom", "joint", "actuator", "site", "tendon", "camera", "light", "sensor")
_STAGE_VEL = mujoco.mjtStage.mjSTAGE_VEL
# Plain ints: reading an enum member costs more than the arithmetic it feeds.
_FIRST, _MID = int(dm_env.StepType.FIRST), int(dm_env.StepType.MID)


def copy_seed(seed, index):
    """The seed of copy `index` of a batch seeded with `seed` (an int).

    Derived with `np.random.SeedSequence([seed, index])`, so copies of one batch and
    copies of batches with nearby seeds draw unrelated streams.
    """
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


def _variation_seed(seed, index):
    """The seed of copy `index`'s model-variation stream: apart from its task's."""
    return int(np.random.SeedSequence([seed, index, 1]).generate_state(1)[0])


class BatchTimeStep(collections.namedtuple("BatchTimeStep", dm_env.TimeStep._fields)):
    """A TimeStep of arrays, one entry per copy."""

    def first(self):
        return self.step_type == dm_env.StepType.FIRST

    def mid(self):
        return self.step_type == dm_env.StepType.MID

    def last(self):
        return self.step_type == dm_env.StepType.LAST


class BatchEnvironment:
    """N copies of a task stepped together.

    Args:
      task_or_factory: a callable returning a new `composer.Task` (called once per
        copy), or a `composer.Task` when `num_envs` is 1.
      num_envs: number of copies N.
      num_threads: threads of the batch (0: one per core).
      seed: int seed of the whole batch; copy i uses `copy_seed(seed, i)`. None draws
        one from the operating system (see `seed` attribute).
      time_limit: episode length in seconds of each copy.
      model_variations: optional {(kind, element_name, attribute): variation} of
        model fields sampled per copy at the start of each of its episodes, e.g.
        `{("body", "pole_1", "mass"): distributions.Uniform(0.5, 2.0)}`. Samples come
        from a stream of their own per copy, so the copies' task randomness is that
        of the unrandomised copies.
      textures: the copies' `composer.Environment(textures=...)`. False by default:
        the copies are not rendered (camera observables aside), and each copy's
        model would otherwise hold its own procedural textures (about 12 MB for a
        suite model); the physics is the same either way.
      **environment_kwargs: other `composer.Environment` arguments.
    """

    def __init__(self, task_or_factory, num_envs, num_threads=0, seed=None,
                 time_limit=float("inf"), model_variations=None, textures=False,
                 **environment_kwargs):
        if isinstance(task_or_factory, task_module.Task):
            if num_envs != 1:
                raise ValueError(
                    "a Task instance serves one copy; pass a factory that returns a new Task "
                    f"for each of the {num_envs} copies")
            tasks = [task_or_factory]

            def make(index, random_state):
                return environment_module.Environment(
                    tasks[index], time_limit=time_limit, random_state=random_state,
                    textures=textures, **environment_kwargs)
        elif callable(task_or_factory):
            def make(index, random_state):
                return environment_module.Environment(
                    task_or_factory(), time_limit=time_limit, random_state=random_state,
                    textures=textures, **environment_kwargs)
        else:
            raise TypeError(
                f"task_or_factory must be a composer.Task or a callable returning one, "
                f"got {type(task_or_factory).__name__}")
        self._setup(make, num_envs, num_threads, seed, model_variations)

    @classmethod
    def from_environments(cls, environment_factory, num_envs, num_threads=0, seed=None,
                          model_variations=None):
        """A batch of environments made by `environment_factory(random_state)`.

        The factory must return a new `composer.Environment` seeded with the int it
        is given; `suite.load_batch` uses it.
        """
        batch = cls.__new__(cls)
        batch._setup(lambda index, random_state: environment_factory(random_state),
                     num_envs, num_threads, seed, model_variations)
        return batch

    def _setup(self, make, num_envs, num_threads, seed, model_variations):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be an integer >= 1, got {num_envs!r}")
        if isinstance(num_threads, bool) or not isinstance(num_threads, (int, np.integer)) or num_threads < 0:
            raise ValueError(f"num_threads must be an integer >= 0, got {num_threads!r}")
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self.seed = int(seed)
        self._envs = [make(i, copy_seed(self.seed, i)) for i in range(num_envs)]
        for index, env in enumerate(self._envs):
            if not isinstance(env, environment_module.Environment):
                raise TypeError(f"copy {index} is a {type(env).__name__}, not a composer.Environment")
        self._num_envs = int(num_envs)
        first = self._envs[0]
        self._action_spec = first.action_spec()
        self._batch = mujoco.batch.Batch(
            first.physics.model, nsim=self._num_envs, nthread=int(num_threads), persistent=True)
        self._state_views = {}
        for name in _STATE_FIELDS:
            view = self._batch.bind(name)
            if view[0].size:
                self._state_views[name] = view
        self._models = [None] * self._num_envs
        self._variations = dict(model_variations or {})
        for key in self._variations:
            if (not isinstance(key, tuple) or len(key) != 3 or key[0] not in _ELEMENT_KINDS):
                raise ValueError(
                    f"model_variations keys are (kind, element_name, attribute) with kind in "
                    f"{_ELEMENT_KINDS}, got {key!r}")
        self._variation_random = [
            np.random.RandomState(_variation_seed(self.seed, index)) for index in range(self._num_envs)]
        self._needs_reset = True
        self._paused_clock = paused_profiling_clock()
        self._setup_action_checks()
        self._vectorized = _vectorizable(self._envs)
        if self._vectorized:
            self._setup_vectorized()

    def _setup_action_checks(self):
        spec = self._action_spec
        self._action_shape = (self._num_envs,) + tuple(spec.shape)
        self._action_dtype = np.dtype(spec.dtype)
        self._action_minimum = np.asarray(spec.minimum)
        self._action_maximum = np.asarray(spec.maximum)
        # The single environments' check, which takes the copies stacked as they are.
        self._actions_in_bounds = environment_module.action_bounds_check(spec)

    def _setup_vectorized(self):
        first = self._envs[0]
        task = first.task
        self._task = task
        self._batch_physics = batch_physics(
            first.physics, self._batch, [env.physics.model for env in self._envs])
        self._observation_functions = collections.OrderedDict(
            (name, observable._raw_callable)
            for name, observable in task.observables.items() if observable.enabled)
        # Unless the copies strip it, an observation has a buffer axis of length 1
        # after the copies axis, as the copies' own observations do.
        self._observation_buffer_axis = not first._strip_singleton_obs_buffer_dim
        self._custom_discount = entity_module.overrides(task, task_module.Task, "get_discount")
        self._may_terminate = entity_module.overrides(task, task_module.Task, "should_terminate_episode")
        self._ctrl = self._batch.bind("ctrl")
        self._time = self._batch.bind("time")
        self._step_counts = np.zeros(self._num_envs, dtype=np.int64)
        self._step_limit = first._step_limit
        self._nstep = task.physics_steps_per_control_step
        # MuJoCo restarts a diverging simulation from time 0 (with a warning), so a
        # copy whose clock advanced by less than half a control step diverged.
        self._half_control_step_s = 0.5 * self._nstep * first.physics.timestep()
        self._reset_next = np.zeros(self._num_envs, dtype=bool)
        self._resets_pending = False
        self._last_observation = None
        self._ones = np.ones(self._num_envs)

    @property
    def vectorized(self):
        """True if the copies run on the vectorised path (see the module docstring)."""
        return self._vectorized

    # Properties.

    @property
    def num_envs(self):
        return self._num_envs

    @property
    def envs(self):
        """The per-copy `composer.Environment`s (read their physics, not their step)."""
        return tuple(self._envs)

    @property
    def batch(self):
        """The `mujoco.batch.Batch` that steps the copies."""
        return self._batch

    def action_spec(self):
        """The action spec of one copy; `step` takes (N,) + its shape."""
        return self._action_spec

    def observation_spec(self):
        """The observation spec of one copy; observations carry a leading N."""
        return self._envs[0].observation_spec()

    def reward_spec(self):
        return self._envs[0].reward_spec()

    def discount_spec(self):
        return self._envs[0].discount_spec()

    def model_values(self, kind, name, attribute):
        """The current per-copy values of a model field, (N, ...)."""
        return np.stack([np.array(getattr(getattr(env.physics.model, kind)(name), attribute))
                         for env in self._envs])

    # Episodes.

    def reset(self):
        """Starts a new episode in every copy."""
        timesteps = [self._reset_copy(index) for index in range(self._num_envs)]
        self._sync_models()
        self._needs_reset = False
        stacked = self._stack(timesteps)
        if self._vectorized:
            self._step_counts[:] = 0
            self._reset_next[:] = False
            self._resets_pending = False
            self._push(range(self._num_envs))
            self._batch_physics.model.refresh([env.physics.model for env in self._envs])
            self._last_observation = stacked.observation
        return stacked

    def _reset_copy(self, index):
        env = self._envs[index]
        if self._variations:
            model = env.physics.model
            random_state = self._variation_random[index]
            for (kind, name, attribute), variation in self._variations.items():
                element = getattr(model, kind)(name)
                current = np.array(getattr(element, attribute))
                value = variation(initial_value=current, current_value=current,
                                  random_state=random_state)
                setattr(element, attribute, np.broadcast_to(value, current.shape))
        timestep = env.reset()
        # The batch's own MjData of this copy restarts too (warning counters included).
        self._batch.reset(ids=[index], stage=mujoco.mjtStage.mjSTAGE_NONE)
        return timestep

    def _sync_models(self):
        models = [env.physics.model for env in self._envs]
        if any(a is not b for a, b in zip(models, self._models)):
            self._batch.set_models(models)
            self._models = models

    def step(self, actions):
        """Advances every copy one control step with its row of `actions` (N, A)."""
        if self._needs_reset:
            return self.reset()
        actions = self._validate(actions)
        if self._vectorized:
            return self._step_vectorized(actions)
        timesteps = [None] * self._num_envs
        pending = {}
        resets = False
        for index, env in enumerate(self._envs):
            if env._reset_next_step:
                timesteps[index] = self._reset_copy(index)
                resets = True
                continue
            control_step = env._control_step(actions[index])
            pending[index] = (control_step, next(control_step))
        if resets:
            self._sync_models()
        while pending:
            by_nstep = collections.defaultdict(list)
            for index, (_, nstep) in pending.items():
                by_nstep[nstep].append(index)
            for nstep, ids in by_nstep.items():
                failed = self._advance(ids, nstep)
                for index in ids:
                    control_step, _ = pending.pop(index)
                    env = self._envs[index]
                    if index in failed:
                        control_step.close()
                        timesteps[index] = self._physics_error(index, failed[index])
                        continue
                    try:
                        pending[index] = (control_step, control_step.send(None))
                    except StopIteration as stop:
                        timesteps[index] = stop.value
                    except PhysicsError as error:
                        timesteps[index] = self._physics_error(index, error)
        return self._stack(timesteps)

    def _advance(self, ids, nstep):
        """Steps copies `ids` by `nstep` substeps; returns {index: PhysicsError}."""
        datas = [self._envs[index].physics.data for index in ids]
        rows = self._push(ids)
        self._step_physics(rows, nstep)
        failed = {}
        for index, data in zip(ids, datas):
            start_time = data.time
            self._batch.get_data(index, data)
            try:
                self._envs[index].physics._check_divergence(start_time)
            except PhysicsError as error:
                failed[index] = error
        return failed

    def _push(self, ids):
        """Writes the copies' integration state from their own MjData into the batch rows."""
        rows = np.asarray(list(ids))
        datas = [self._envs[index].physics.data for index in rows]
        for name, view in self._state_views.items():
            view[rows] = np.stack([getattr(data, name) for data in datas])
        return rows

    def _step_physics(self, ids, nstep):
        """Steps the batch's copies `ids` (None: all) with MuJoCo's profiling clock off."""
        with self._paused_clock:
            self._batch.step(ids=ids, nstep=nstep, stage=_STAGE_VEL)

    def _step_vectorized(self, actions):
        num_envs = self._num_envs
        reset_timesteps = None
        if self._resets_pending:
            resetting = np.flatnonzero(self._reset_next)
            running = np.flatnonzero(~self._reset_next)
            reset_timesteps = {int(index): self._reset_copy(index) for index in resetting}
            self._sync_models()
            self._push(resetting)
            self._batch_physics.model.refresh([env.physics.model for env in self._envs])
            self._ctrl[running] = actions[running]
        else:
            running = None  # Every copy; ids=None spares the batch checking an index array.
            self._ctrl[...] = actions
        # A copy whose clock is still below this after the step restarted: it diverged.
        expected_s = self._time + self._half_control_step_s
        if running is None or len(running):
            self._step_physics(running, self._nstep)
        stalled = self._time < expected_s
        physics = self._batch_physics
        observation = collections.OrderedDict()
        for name, function in self._observation_functions.items():
            observation[name] = np.array(function(physics))
        if self._observation_buffer_axis:
            for name, value in observation.items():
                observation[name] = value[:, np.newaxis]
        task = self._task
        reward = np.empty(num_envs)
        reward[...] = task.get_reward(physics)
        discount = self._ones.copy()
        if self._custom_discount:
            discount[...] = task.get_discount(physics)
        self._step_counts += 1
        last = self._step_counts >= self._step_limit
        if self._may_terminate:
            terminated = np.broadcast_to(
                np.asarray(task.should_terminate_episode(physics), dtype=bool), (num_envs,))
            last |= terminated
            if self._custom_discount:
                discount[last & ~terminated] = 1.0
            else:
                discount[terminated] = 0.0
        elif self._custom_discount:
            discount[last] = 1.0
        if reset_timesteps:
            stalled[resetting] = False  # Not stepped.
        if np.count_nonzero(stalled):
            self._end_diverged(stalled, expected_s - self._half_control_step_s, last, reward, discount,
                               observation)
        # MID where False, LAST (which is MID + 1) where True.
        step_type = last.astype(np.int64)
        step_type += _MID
        if reset_timesteps:
            for index, timestep in reset_timesteps.items():
                step_type[index] = _FIRST
                reward[index] = 0.0
                discount[index] = 1.0
                last[index] = False
                self._step_counts[index] = 0
                for name, value in observation.items():
                    value[index] = timestep.observation[name]
        self._reset_next = last
        self._resets_pending = bool(np.count_nonzero(last))
        self._last_observation = observation
        return BatchTimeStep(step_type, reward, discount, observation)

    def _end_diverged(self, diverged, start_s, last, reward, discount, observation):
        """Ends the episodes of the copies whose physics diverged in this step (or raises)."""
        index = int(np.flatnonzero(diverged)[0])
        if self._envs[index]._raise_on_physics_error:
            raise PhysicsError(
                f"copy {index}: physics diverged during the step that started at t={start_s[index]:.6g} s")
        reward[diverged] = 0.0
        discount[diverged] = 0.0
        last |= diverged
        for name, value in observation.items():
            value[diverged] = self._last_observation[name][diverged]

    def _physics_error(self, index, error):
        env = self._envs[index]
        if env._raise_on_physics_error:
            raise PhysicsError(f"copy {index}: {error}") from error
        return env._end_by_physics_error(error)

    def _validate(self, actions):
        array = np.asarray(actions)
        if array.dtype != self._action_dtype or array.shape != self._action_shape:
            array = self._coerce_actions(array)
        if self._actions_in_bounds(array):
            return array
        self._raise_for_actions(array)

    def _coerce_actions(self, array):
        spec = self._action_spec
        if array.dtype.kind not in "fiu":
            raise ValueError(
                f"actions have dtype {array.dtype}; the action spec {spec.name!r} wants real numbers")
        expected = self._action_shape
        if array.shape != expected:
            if array.ndim >= 1 and array.shape[0] != self._num_envs:
                raise ValueError(
                    f"actions have {array.shape[0]} rows but the batch has {self._num_envs} copies "
                    f"(expected shape {expected})")
            raise ValueError(f"actions have shape {array.shape}, expected {expected} (copies, action)")
        return array.astype(self._action_dtype)

    def _raise_for_actions(self, array):
        """Names the first copy whose actions are not finite or outside the spec's bounds."""
        spec = self._action_spec
        rows = array.reshape(self._num_envs, -1)
        finite = np.isfinite(rows).all(axis=1)
        if not finite.all():
            index = int(np.flatnonzero(~finite)[0])
            raise ValueError(
                f"actions of copy {index} are not finite: {array[index].tolist()} "
                f"(action spec {spec.name!r})")
        inside = ((array >= spec.minimum) & (array <= spec.maximum)).reshape(self._num_envs, -1).all(axis=1)
        index = int(np.flatnonzero(~inside)[0])
        raise ValueError(
            f"actions of copy {index} are outside the bounds [{spec.minimum.tolist()}, "
            f"{spec.maximum.tolist()}] of the action spec: {array[index].tolist()}")

    def _stack(self, timesteps):
        step_type = np.array([timestep.step_type for timestep in timesteps], dtype=np.int64)
        reward = np.array([0.0 if timestep.reward is None else timestep.reward
                           for timestep in timesteps], dtype=np.float64)
        discount = np.array([1.0 if timestep.discount is None else timestep.discount
                             for timestep in timesteps], dtype=np.float64)
        observation = collections.OrderedDict(
            (name, np.stack([timestep.observation[name] for timestep in timesteps]))
            for name in timesteps[0].observation)
        return BatchTimeStep(step_type, reward, discount, observation)

    # Snapshots.

    def snapshot(self):
        """A picklable record of every copy and of the batch's own episode bookkeeping
        (see `composer.Environment.snapshot` for what a copy's holds)."""
        if self._vectorized:
            # On the vectorised path the copies' own MjData lag the batch between
            # resets; bring them up to date first.
            for index, env in enumerate(self._envs):
                self._batch.get_data(index, env.physics.data)
        snapshot = {
            "copies": [env.snapshot() for env in self._envs],
            "variation_random": [random.get_state() for random in self._variation_random],
            "needs_reset": self._needs_reset,
        }
        if self._vectorized:
            snapshot.update(step_counts=self._step_counts.copy(), reset_next=self._reset_next.copy(),
                            last_observation=self._last_observation)
        return snapshot

    def restore(self, snapshot):
        """Returns the batch to a `snapshot()` of a batch built alike."""
        if len(snapshot["copies"]) != self._num_envs:
            raise ValueError(
                f"the snapshot holds {len(snapshot['copies'])} copies, this batch {self._num_envs}")
        for env, copy_snapshot in zip(self._envs, snapshot["copies"]):
            env.restore(copy_snapshot)
        for random, state in zip(self._variation_random, snapshot["variation_random"]):
            random.set_state(state)
        self._needs_reset = snapshot["needs_reset"]
        # The batch's rows and its per-copy models are rebuilt from the copies.
        every_copy = np.arange(self._num_envs)
        self._batch.reset(ids=every_copy, stage=mujoco.mjtStage.mjSTAGE_NONE)
        self._models = [None] * self._num_envs
        self._sync_models()
        self._push(every_copy)
        if self._vectorized:
            self._step_counts[:] = snapshot["step_counts"]
            self._reset_next = np.array(snapshot["reset_next"], dtype=bool)
            self._resets_pending = bool(np.count_nonzero(self._reset_next))
            self._last_observation = snapshot["last_observation"]
            self._batch_physics.model.refresh([env.physics.model for env in self._envs])

    def close(self):
        for env in self._envs:
            env.close()


def _vectorizable(envs):
    """True if every copy's task declares itself vectorised and nothing else runs per step."""
    for env in envs:
        task = env.task
        if not getattr(task, "vectorized", False):
            return False
        if entity_module.overrides(task, task_module.Task, "before_step"):
            return False
        if env._has_substep_hooks:
            return False
        if any(getattr(hook, "__self__", None) is not task for hook in env._hooks["after_step"]):
            return False
        for observable in task.observables.values():
            if not observable.enabled:
                continue
            if not isinstance(observable, observable_module.Generic) or not _plain(observable):
                return False
    return True


def _plain(observable):
    return (observable.update_interval == 1 and observable.buffer_size == 1 and observable.delay == 0
            and observable.aggregator is None and observable.corruptor is None)


class _BatchData:
    """The batch's live (N, ...) arrays of MjData fields, by attribute."""

    def __init__(self, batch):
        self._batch = batch

    def __getattr__(self, name):
        # Called only for fields not bound yet: a bound field becomes an instance
        # attribute, which later lookups find without coming here.
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in mujoco.batch.DATA_FIELDS:
            raise AttributeError(
                f"a BatchPhysics' data has the (N, ...) fields of mujoco.batch.DATA_FIELDS; "
                f"{name!r} is not one (named views like data.body(...) do not batch: index arrays instead)")
        value = self._batch.bind(name)
        setattr(self, name, value)
        return value


class _BatchModel:
    """Per-copy model fields stacked to (N, ...); other attributes from copy 0's model.

    Array fields are snapshots taken at the copies' last reset (`refresh`), which is
    when tasks change model parameters.
    """

    def __init__(self, models):
        self._models = models
        self._stacked = []

    def refresh(self, models):
        self._models = models
        for name in self._stacked:
            delattr(self, name)
        self._stacked = []

    def __getattr__(self, name):
        # Called only for fields not stacked since the last refresh: a stacked field
        # becomes an instance attribute, which later lookups find without coming here.
        if name.startswith("_"):
            raise AttributeError(name)
        value = getattr(self._models[0], name)
        if isinstance(value, np.ndarray):
            value = np.stack([getattr(model, name) for model in self._models])
            value.flags.writeable = False
            setattr(self, name, value)
            self._stacked.append(name)
        return value


def batch_physics(template_physics, batch, models):
    """The copies' Physics subclass over a whole batch: `data`/`model` give (N, ...) arrays.

    The result is an instance of `type(template_physics)` carrying the template's
    cached ids, so the domain's named quantities run unchanged on all copies at once
    when written with leading-axis-agnostic indexing (`self.data.qpos[..., i]`,
    `self.data.xmat[..., body_id, 8]`). Model fields are those of `models`, stacked;
    call `physics.model.refresh(models)` after the copies' models change.
    """
    physics = object.__new__(type(template_physics))
    physics.__dict__.update(template_physics.__dict__)
    physics._model = _BatchModel(models)
    physics._data = _BatchData(batch)
    physics._bindings = {}
    physics._renderers = {}
    return physics
