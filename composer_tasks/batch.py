"""BatchEnvironment: N copies of one task, their physics stepped together on a thread pool.

Each copy is an ordinary `composer.Environment` with its own task, random state and
`Physics`; its Python lifecycle (callbacks, observables, reward) runs exactly as it
does alone. What changes is who steps the physics: the copies' substeps run in one
`mujoco.batch.Batch` call on `num_threads` threads. On the looped path, before a
call every stepped copy's integration state (qpos, qvel, act, ctrl, warm start,
applied forces, mocap, ...) is written into the batch's rows, and after it the
batch's persistent MjData of each copy is copied back into the copy's own MjData.

One model: every copy runs on the batch's one shared model with the fields in which
its own model differs expanded per copy, found by comparing each copy's model with
the shared one after its resets (`composer_tasks.batch_fields`); copies whose models
differ in fields that cannot be expanded run on models of their own. On the
vectorised path the copies keep no model or MjData of their own either: their
Physics share one scratch pair, which holds a copy's model and state while its
lifecycle runs (see `BatchEnvironment.copy_physics`).

One spec: copies 2 to N-1 are clones of copy 0 (`composer_tasks.batch_clone`): its
task, entities, observables and Environment copied without calling the factory or
compiling, sharing copy 0's spec, with their own random streams, Python state and
Physics. Copy 1 is built by the factory and compared with its clone; where cloning
is not safe, every copy is built (logged once at INFO; `clone_copies=False` asks
for it).

Vectorised path: copies of a task that sets `composer.Task.vectorized` (see its
promise there) are stepped with no Python loop over copies: controls are written as
one (N, A) array, the batch steps, and observations and the episode outcome
(`composer.environment.batch_episode_outcome`, the single environment's rule on
arrays) are computed once on (N, ...) arrays. Resets still run each copy's own lifecycle. Other
tasks run each copy's control step (`Environment.control_step`) with the physics
batched. Both paths give the same numbers, step types, errors and logged episode
ends as single environments, copy by copy.

Backends: `backend="cpu"` (the default) is the above; `backend="warp"` steps a
vectorised task's copies as the worlds of one MuJoCo Warp model, on a GPU or Warp's CPU
device (`composer_tasks.batch_warp`, which says what runs where). Its hooks here are
the methods and branches that name `_warp`; resets, the episode bookkeeping and the
outcome stay the code above, and the `mujoco.batch` rows stay the copies' reset staging.

Conventions:
  * Copy i is bit-identical to `composer.Environment(task_i, random_state=derive_seed(seed, i))`
    (`composer_tasks.seeding`) stepped with the same actions, including across
    episode ends; its model-variation stream is seeded with `derive_seed(seed, i, 1)`.
  * A step in which copy i's simulation diverged or MuJoCo warned raises
    `PhysicsError("copy i: " + the single environment's message)`, or, with
    `raise_exception_on_physics_error=False`, ends that copy's episode as the single
    environment does (LAST, reward 0, discount 0, its previous observation, a
    logged warning).
  * Auto-reset, as Gymnasium's NEXT_STEP mode: the step after a copy's LAST step
    resets that copy and returns its FIRST step (its action for that step is
    ignored, and its reward is 0.0 and discount 1.0 there).
  * Batched TimeSteps hold arrays: `step_type` (N,) of `dm_env.StepType` values,
    `reward` and `discount` (N,) float64, `observation` a dict of (N, ...) arrays.
    Every step returns new arrays: none shares memory with the batch's state or
    with another step's TimeStep, so they may be kept (in a replay buffer, say).
  * Multi-agent tasks (`composer.Task.num_agents`) keep dm_control's per-agent lists
    with the copies axis inside each entry: `step` takes a list of per-agent (N, A_i)
    action arrays, and TimeSteps hold `reward` as a list of per-agent (N,) float64
    arrays and `observation` as a list of per-agent dicts of (N, ...) arrays. They
    run each copy's control step (never the vectorised path).
  * The physics calls run with MuJoCo's stage timers off (`paused_profiling_clock`):
    for small models those clock reads cost a third of the step.
"""

import collections
import contextlib
import copy
import functools
import gc
import logging
import sys
import tracemalloc
from collections.abc import Iterable
from typing import Any, Callable, Iterator, Mapping, NoReturn, Optional, Sequence, Tuple, Union

import dm_env
import mujoco
import mujoco.batch
import numpy as np
from dm_env import specs
from numpy.typing import ArrayLike

from composer_tasks import batch_clone, batch_fields, batch_memory, batch_warp, seeding
from composer_tasks.composer import entity as entity_module
from composer_tasks.composer import environment as environment_module
from composer_tasks.composer import spec_edits
from composer_tasks.composer import task as task_module
from composer_tasks.composer.observation import observable as observable_module
from composer_tasks.composer.variation import variators as variators_module
from composer_tasks.physics import Physics, PhysicsError
from composer_tasks.physics import paused_profiling_clock
from composer_tasks.physics import warning_error

# The integration state MuJoCo's batch keeps per simulation, in its row order.
_STATE_FIELDS = (
    "time",
    "qpos",
    "qvel",
    "act",
    "history",
    "qacc_warmstart",
    "ctrl",
    "qfrc_applied",
    "xfrc_applied",
    "eq_active",
    "mocap_pos",
    "mocap_quat",
    "userdata",
    "plugin_state",
    "plastic",
)
_ELEMENT_KINDS = (
    "body",
    "geom",
    "joint",
    "actuator",
    "site",
    "tendon",
    "camera",
    "light",
    "sensor",
)
# Model attributes that MuJoCo requires non-negative: a variation drawing a negative
# value would be compiled into a model whose inertia matrix is not positive definite.
_NON_NEGATIVE_ATTRIBUTES = frozenset({"mass", "inertia", "armature", "damping", "frictionloss"})
_STAGE_VEL = mujoco.mjtStage.mjSTAGE_VEL


def _references_of_a_new_array() -> int:
    """`sys.getrefcount` of a new array held only by a local variable, as this
    interpreter counts it (the vectorised step keeps such an observable result
    instead of copying it; any other holder adds a reference)."""
    value = np.empty(1)
    return sys.getrefcount(value)


_PRIVATE_REFERENCES = _references_of_a_new_array()
_FIRST = int(dm_env.StepType.FIRST)
_MID = int(dm_env.StepType.MID)
# The index of the counters in the last axis of `Batch.warning` ((lastinfo, number)).
_WARNING_LASTINFO, _WARNING_NUMBER = 0, 1


_LOGGER = logging.getLogger(__name__)
# Copies after copy 0 whose building is measured for the memory estimate: enough that
# heap memory an earlier batch freed, and the first copies reuse, is a small part of it
# (over 16 copies it made the estimate 25% low in one run of two).
_MEASURED_COPIES = 64

# Makes copy `index` of a batch from its int seed.
_CopyFactory = Callable[[int, int], environment_module.Environment]
# An observation of every copy: name -> (N, ...) array.
_Observation = collections.OrderedDict[str, np.ndarray]


def copy_seed(seed: int, index: int) -> int:
    """The seed of copy `index` of a batch seeded with `seed`: `seeding.derive_seed(seed, index)`,
    for building the single environment that copy `index` equals."""
    return seeding.derive_seed(seed, index)


class BatchTimeStep(collections.namedtuple("BatchTimeStep", dm_env.TimeStep._fields)):
    """A TimeStep of arrays, one entry per copy.

    `first()`, `mid()` and `last()` are NumPy bools (N,) also when the Warp backend
    returns JAX arrays (`WarpOptions.return_jax`): the host decides the step types, and
    keeps its copy of them here, so reading which copies start or end costs no
    transfer from the device.
    """

    def _host_step_type(self) -> Any:
        # Warp hook: set by `_with_host_step_type` on TimeSteps of JAX arrays.
        return self.__dict__.get("host_step_type", self.step_type)

    def first(self) -> np.ndarray:
        return self._host_step_type() == dm_env.StepType.FIRST

    def mid(self) -> np.ndarray:
        return self._host_step_type() == dm_env.StepType.MID

    def last(self) -> np.ndarray:
        return self._host_step_type() == dm_env.StepType.LAST


class BatchEnvironment:
    """N copies of a task stepped together.

    Args:
      task_or_factory: a callable returning a new `composer.Task` (called once per
        copy), or a `composer.Task` when `num_envs` is 1.
      num_envs: number of copies N (an int >= 1; refused, before the copies are
        allocated, when their measured cost exceeds the machine's available memory:
        see `bytes_per_copy`).
      num_threads: threads of the batch (0: one per core).
      seed: int seed in [0, 2**32 - 1] of the whole batch; copy i uses
        `seeding.derive_seed(seed, i)`. None draws one from the operating system
        (see the `seed` attribute).
      time_limit: episode length in seconds of each copy.
      model_variations: optional {(kind, element_name, attribute): variation} of
        model fields sampled per copy at the start of each of its episodes, e.g.
        `{("body", "pole_1", "mass"): distributions.Uniform(0.5, 2.0)}`. Samples come
        from a stream of their own per copy, so the copies' task randomness is that
        of the unrandomised copies. Draws run before the copy's
        `initialize_episode` callbacks, after a composer task's reset has put the
        model's compiled values back (as dm_control's recompiling reset); a
        Control Suite task's model keeps the last draw until the next, as its
        environment never recompiles. Elements and attributes are checked when the
        batch is built; a sample that is not finite, or negative for a mass,
        inertia, armature, damping or friction loss, raises at the reset drawing it.
      textures: the copies' `composer.Environment(textures=...)`. False by default:
        the copies are not rendered (camera observables aside), and each copy's
        model would otherwise hold its own procedural textures (about 12 MB for a
        suite model); the physics is the same either way.
      backend: "cpu" (`mujoco.batch` on CPU threads) or "warp" (the copies as the
        worlds of one MuJoCo Warp model, `composer_tasks.batch_warp`; vectorised
        tasks only), or a `batch_warp.WarpOptions` for Warp with settings.
      device: the Warp device of backend "warp" ("cuda:0", "cpu"; None: a GPU if
        Warp finds one, else "cpu").
      clone_copies: make copies 2 to N-1 as clones of copy 0 that share its spec and
        compiled model's values instead of calling the factory for each (the same
        numbers, far less memory and time per copy; `composer_tasks.batch_clone`),
        where copy 1, built by the factory too, equals its clone (else every copy is
        built, with a log line at INFO saying why). False builds every copy.
      **environment_kwargs: other `composer.Environment` arguments.
    """

    def __init__(
        self,
        task_or_factory: Union[task_module.Task, Callable[[], task_module.Task]],
        num_envs: int,
        num_threads: int = 0,
        seed: Optional[int] = None,
        time_limit: float = float("inf"),
        model_variations: Optional[Mapping[Tuple[str, str, str], Any]] = None,
        textures: bool = False,
        backend: Union[str, batch_warp.WarpOptions] = "cpu",
        device: Optional[str] = None,
        clone_copies: bool = True,
        **environment_kwargs: Any,
    ) -> None:
        if isinstance(task_or_factory, task_module.Task):
            if num_envs != 1:
                raise ValueError(
                    "a Task instance serves one copy; pass a factory that returns a new Task "
                    f"for each of the {num_envs} copies"
                )
            tasks = [task_or_factory]

            def make(index: int, random_state: int) -> environment_module.Environment:
                return environment_module.Environment(
                    tasks[index],
                    time_limit=time_limit,
                    random_state=random_state,
                    textures=textures,
                    **environment_kwargs,
                )
        elif callable(task_or_factory):

            def make(index: int, random_state: int) -> environment_module.Environment:
                return environment_module.Environment(
                    task_or_factory(),
                    time_limit=time_limit,
                    random_state=random_state,
                    textures=textures,
                    **environment_kwargs,
                )
        else:
            raise TypeError(
                f"task_or_factory must be a composer.Task or a callable returning one, "
                f"got {type(task_or_factory).__name__}"
            )
        self._setup(
            make, num_envs, num_threads, seed, model_variations, backend, device, clone_copies
        )

    @classmethod
    def from_environments(
        cls,
        environment_factory: Callable[[int], environment_module.Environment],
        num_envs: int,
        num_threads: int = 0,
        seed: Optional[int] = None,
        model_variations: Optional[Mapping[Tuple[str, str, str], Any]] = None,
        backend: Union[str, batch_warp.WarpOptions] = "cpu",
        device: Optional[str] = None,
        clone_copies: bool = True,
    ) -> "BatchEnvironment":
        """A batch of environments made by `environment_factory(random_state)`.

        The factory must return a new `composer.Environment` seeded with the int it
        is given; `suite.load_batch` uses it. `backend`, `device` and `clone_copies`
        are as in `BatchEnvironment`.
        """
        if not callable(environment_factory):
            raise TypeError(
                f"environment_factory must be a callable of an int seed, got {type(environment_factory).__name__}"
            )
        batch = cls.__new__(cls)
        batch._setup(
            lambda index, random_state: environment_factory(random_state),
            num_envs,
            num_threads,
            seed,
            model_variations,
            backend,
            device,
            clone_copies,
        )
        return batch

    def _setup(
        self,
        make: _CopyFactory,
        num_envs: int,
        num_threads: int,
        seed: Optional[int],
        model_variations: Optional[Mapping[Tuple[str, str, str], Any]],
        backend: Union[str, batch_warp.WarpOptions] = "cpu",
        device: Optional[str] = None,
        clone_copies: bool = True,
    ) -> None:
        # Warp backend (composer_tasks.batch_warp): None on the CPU batch.
        self._warp: Optional[batch_warp.WarpSimulation] = None
        self._warp_jax: Optional[batch_warp.JaxStep] = None
        self._warp_actions: Optional[batch_warp.JaxActions] = None
        # Warp hook: (the device's refused flag, the actions) of JAX actions whose
        # check is read back with the step's flags (`_validate_jax`).
        self._warp_refused: Optional[Tuple[Any, Any]] = None
        self._return_jax = False
        warp_options = batch_warp.resolve_backend(backend, device)
        if (
            isinstance(num_envs, (bool, np.bool_))
            or not isinstance(num_envs, (int, np.integer))
            or num_envs < 1
        ):
            raise ValueError(f"num_envs must be an integer >= 1, got {num_envs!r}")
        if (
            isinstance(num_threads, (bool, np.bool_))
            or not isinstance(num_threads, (int, np.integer))
            or num_threads < 0
        ):
            raise ValueError(f"num_threads must be an integer >= 0, got {num_threads!r}")
        if not isinstance(clone_copies, (bool, np.bool_)):
            raise TypeError(f"clone_copies must be a bool, got {clone_copies!r}")
        self.seed = seeding.random_seed() if seed is None else seeding.check_seed(seed, "seed")
        # The measured resident bytes of one copy with the batch's simulation of it
        # (None where resident memory cannot be read).
        self.bytes_per_copy: Optional[int] = None
        self._variations = _check_variation_keys(model_variations)
        self._num_envs = int(num_envs)
        first = self._make_copy(make, 0)
        if warp_options is not None:
            obstacle = _vectorize_obstacle(first)
            if obstacle is not None:
                raise ValueError(
                    f"backend='warp' steps vectorised tasks only: {type(first.task).__name__} "
                    f"{obstacle}; use backend='cpu'"
                )
        lower_bound = batch_memory.lower_bound_per_copy(first.physics.model)
        batch_memory.refuse(
            self._num_envs,
            lower_bound,
            lower_bound * self._num_envs,
            "a lower bound: the batch's MjData buffer of each",
            exact=False,
        )
        _check_variation_elements(self._variations, first.physics.model)
        _check_variation_conflicts(self._variations, first)
        self._num_threads = int(num_threads)
        # The model every copy runs on but for its expanded fields: copy 0's as built.
        shared = copy.copy(first.physics.model)
        reference = batch_fields.ModelReference(shared)
        # Copies on the vectorised path keep no model or MjData of their own: their
        # Physics all hold the scratch pair below, into which a copy's model (from the
        # batch) and state are written whenever its own lifecycle runs (a reset, a
        # snapshot, `copy_physics`); the batch's rows hold the copies between those.
        self._scratch_model = copy.copy(shared)
        self._scratch_data = mujoco.MjData(self._scratch_model)
        self._slim = np.zeros(self._num_envs, dtype=bool)
        self._slimming = _vectorizable([first])
        # The fields in which a slim copy's model as built differs from the shared one,
        # written into the batch once it exists.
        built_fields: dict[int, dict[str, np.ndarray]] = {}
        self._envs = []
        # Copies 2 to N-1 are clones of copy 0 where that is safe (`batch_clone`):
        # copy 1 is built by the factory and compared with its clone.
        cloner = self._cloner(first, shared) if clone_copies and self._num_envs > 2 else None
        # The first copies made like the rest (built, or cloned after copy 1) are
        # measured: what making one adds.
        first_measured = 1 if cloner is None else 2
        measured_end = min(self._num_envs - 1, first_measured - 1 + _MEASURED_COPIES)
        with _collector_paused():
            cloner = self._make_copies(
                make, first, cloner, reference, built_fields, (first_measured, measured_end), shared
            )
        batch_memory.release_free_memory()
        # Whether copies 2 to N-1 are clones sharing copy 0's spec (`batch_clone`).
        self._clones = cloner is not None
        # A BoundedArray, or a list of per-agent ones for a multi-agent task.
        self._action_spec: Any = first.action_spec()
        self._batch = mujoco.batch.Batch(
            shared, nsim=self._num_envs, nthread=self._num_threads, persistent=True
        )
        self._shared_model = _SharedModel(self._batch, shared, _hinted_fields(first.task))
        for index, fields in built_fields.items():
            self._shared_model.write(index, fields)
        self._models_changed = False
        # None while every copy runs on the shared model (its expandable fields per
        # copy); once a copy's model differs from it in a field that cannot be
        # expanded, the model each copy runs on: its own where it differs at all,
        # the shared one elsewhere.
        self._own_models: Optional[list[mujoco.MjModel]] = None
        self._bind_state_views()
        # A copy's model-variation stream, only where there are variations to draw:
        # a stream per copy costs about 5 KiB and a seed derivation (2% of building a
        # cart-pole copy), and without variations nothing would draw from it.
        self._variation_random = (
            [
                np.random.RandomState(seeding.derive_seed(self.seed, index, 1))
                for index in range(self._num_envs)
            ]
            if self._variations
            else []
        )
        self._needs_reset = True
        self._paused_clock = paused_profiling_clock()
        self._setup_action_checks()
        self._vectorized = _vectorizable(self._envs)
        if self._vectorized:
            self._setup_vectorized()
        if warp_options is not None:
            self._setup_warp(warp_options)

    def _make_copies(
        self,
        make: _CopyFactory,
        first: environment_module.Environment,
        cloner: Optional[batch_clone.Cloner],
        reference: batch_fields.ModelReference,
        built_fields: dict[int, dict[str, np.ndarray]],
        measured: Tuple[int, int],
        shared: mujoco.MjModel,
    ) -> Optional[batch_clone.Cloner]:
        """Makes every copy into `_envs` (copy 0 is `first`; the rest built by `make`,
        or cloned by `cloner` after copy 1 verified it), slimming them as they come,
        and sets the memory estimate from copies `measured` (first, last). Returns the
        cloner, or None if the batch built every copy."""
        first_measured, measured_end = measured
        resident_before = None
        for index in range(self._num_envs):
            if index == first_measured:
                batch_memory.release_free_memory()
                resident_before = batch_memory.resident_bytes()
            if index == 0:
                env = first
            elif cloner is None or index == 1:
                env = self._make_copy(make, index)
                if cloner is not None:
                    cloner = self._verified(cloner, env)
            else:
                env = cloner.clone(seeding.derive_seed(self.seed, index))
            self._envs.append(env)
            differences = None
            if self._slimming or (cloner is not None and index >= 2):
                differences = reference.differences(env.physics.model)
            if self._slimming and differences is not None:
                self._slimming = self._slim_at_build(index, differences, built_fields)
            if cloner is not None and index >= 2:
                cloner.release(env, differences)
            if index == measured_end:
                self._estimate_memory(
                    shared,
                    (first_measured, measured_end) if index else None,
                    resident_before,
                    cloner,
                )
        return cloner

    def _setup_warp(self, options: batch_warp.WarpOptions) -> None:
        """The Warp backend: the copies' physics on one MuJoCo Warp model (see
        `composer_tasks.batch_warp`); the CPU batch stays the copies' reset staging."""
        if not self._vectorized:
            raise ValueError(
                f"backend='warp' steps vectorised tasks only, and a copy of "
                f"{type(self._envs[0].task).__name__} is not: use backend='cpu'"
            )
        self._materialize(0)
        self._warp = batch_warp.WarpSimulation(
            self._shared_model.model,
            self._envs[0].physics.data,
            self._num_envs,
            self._nstep,
            self._shared_model.expanded_fields,
            options,
            type(self._envs[0].task).__name__,
        )
        self._bind_vectorized()
        # Warp hook: with array_module "jax", observations and outcome are computed as
        # JAX on the device, in one jitted function (`batch_warp.JaxStep`).
        self._return_jax = options.return_jax
        if options.array_module == "jax":
            task = self._envs[0].task
            self._warp_jax = batch_warp.JaxStep(
                self._envs[0].physics,
                _BatchModel(self._per_copy_model_field),
                self._warp,
                self._observation_functions,
                functools.partial(environment_module._task_outcome, task),
                self._num_envs,
            )
        self._warp_sync(None)

    def _warp_sync(self, rows: Optional[np.ndarray]) -> None:
        """Warp backend: uploads the CPU batch's state rows `rows` (None: all) and the
        copies' per-copy model fields into the Warp worlds, then runs their position
        and velocity stages."""
        warp = self._warp
        if warp is None:
            return
        if self._own_models is not None:
            raise ValueError(
                f"{type(self._envs[0].task).__name__}: the copies' models differ in fields "
                "that cannot be held per copy; the Warp backend cannot run them"
            )
        expanded = self._shared_model.expanded_values
        if expanded:
            warp.write_model_fields(expanded)
        warp.upload(self._state_views, rows)
        warp.forward_positions()
        if self._warp_jax is not None:
            self._warp_jax.invalidate_model()

    def _warp_download(self, rows: Iterable[int]) -> None:
        """Warp backend: copies the Warp worlds' state of `rows` into the CPU batch's
        rows (before the CPU batch's rows are read: a snapshot, `copy_physics`)."""
        warp = self._warp
        if warp is None:
            return
        rows = np.asarray(list(rows), dtype=np.int64)
        for name, view in self._state_views.items():
            values = np.asarray(warp.field(name))
            view[rows] = values[rows].reshape(view[rows].shape)

    def _bind_state_views(self) -> None:
        self._state_views = {}
        for name in _STATE_FIELDS:
            view = self._batch.bind(name)
            if view[0].size:
                self._state_views[name] = view

    def _estimate_memory(
        self,
        model: mujoco.MjModel,
        measured: Optional[Tuple[int, int]],
        resident_before: Optional[int],
        cloner: Optional[batch_clone.Cloner],
    ) -> None:
        """Sets `bytes_per_copy` from copies `measured` (first, last; None: none), made
        since the resident size was `resident_before`, and refuses the batch if the
        remaining copies do not fit.

        The probe of `mujoco.batch`'s cost per simulation steps one control step from
        the state at which copy 0's first episode starts, taken from a clone of copy 0
        reset apart from the copies (`cloner`), as the copies' own first steps do, and
        that clone's reset measures what a copy's episode state adds: in its first
        control step (3 substeps) a dog comes down onto the floor, touching contact
        and constraint arrays that one substep of the model's default state does not
        (without these the estimate was 0.74 of the measured size at N=64). Where
        copies are built by the factory, no copy can be reset apart from the batch,
        and the probe steps one substep of the default state."""
        batch_memory.release_free_memory()
        resident_after = batch_memory.resident_bytes()
        if measured is None or resident_before is None or resident_after is None:
            return
        start, reset_bytes = (None, 0) if cloner is None else self._episode_start(cloner)
        per_simulation = batch_memory.simulation_bytes(
            model,
            start,
            1 if start is None else _substeps(self._envs[0]),
        )
        if per_simulation is None:
            return
        first, last = measured
        count = last - first + 1
        per_copy = max(0, resident_after - resident_before) // count + reset_bytes
        self.bytes_per_copy = per_copy + per_simulation
        remaining = self._num_envs - 1 - last
        batch_memory.refuse(
            self._num_envs,
            self.bytes_per_copy,
            remaining * per_copy + self._num_envs * per_simulation,
            f"measured on copies {first} to {last} and a probe batch",
            exact=True,
        )

    def _episode_start(
        self, cloner: batch_clone.Cloner
    ) -> Tuple[Optional[dict[str, np.ndarray]], int]:
        """The integration state ({MjData field: value} of `_STATE_FIELDS`) at which
        copy 0's first episode starts, and the Python heap bytes that a copy's first
        reset adds to it (its episode's state: observation updater and buffers, task
        attributes; tracemalloc), from a clone of copy 0 for copy 0's seed, reset and
        dropped (no copy's stream is drawn from); (None, 0) if that reset raises (the
        copy's own reset raises it again where the batch resets)."""
        env = cloner.clone(seeding.derive_seed(self.seed, 0))
        tracing = tracemalloc.is_tracing()
        if not tracing:
            tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            env.reset()
            reset_bytes = max(0, tracemalloc.get_traced_memory()[0] - before)
        except Exception:  # noqa: BLE001  (copy 0's own reset reports it)
            return None, 0
        finally:
            if not tracing:
                tracemalloc.stop()
        values = {name: np.array(getattr(env.physics.data, name)) for name in _STATE_FIELDS}
        return {name: value for name, value in values.items() if value.size}, reset_bytes

    def _slim_at_build(
        self,
        index: int,
        differences: Tuple[str, ...],
        built_fields: dict[int, dict[str, np.ndarray]],
    ) -> bool:
        """Drops copy `index`'s own model and MjData (its Physics takes the scratch
        pair) if its model differs from the shared one only in expandable fields
        (`differences`, from `batch_fields.ModelReference`) and it can run on the
        vectorised path; else gives every copy slimmed so far its own again, and
        returns False (no copy is slim)."""
        env = self._envs[index]
        model = env.physics.model
        if _vectorizable([env]) and all(map(batch_fields.cpu_expandable, differences)):
            built_fields[index] = {
                name: np.array(batch_fields.model_field(model, name)) for name in differences
            }
            _install(env.physics, self._scratch_model, self._scratch_data)
            self._slim[index] = True
            return True
        for slim_index, fields in built_fields.items():
            own = copy.copy(self._scratch_model)  # still the shared model's values
            for name, value in fields.items():
                batch_fields.set_model_field(own, name, value)
            _install(self._envs[slim_index].physics, own, mujoco.MjData(own))
        built_fields.clear()
        self._slim[:] = False
        return False

    def _cloner(
        self, first: environment_module.Environment, shared: mujoco.MjModel
    ) -> Optional[batch_clone.Cloner]:
        """What clones copy 0 (see `composer_tasks.batch_clone`), or None (logged)
        where it cannot."""
        try:
            return batch_clone.Cloner(first, shared)
        except batch_clone.CloneRefused as error:
            self._log_not_cloned(first, str(error))
            return None

    def _verified(
        self, cloner: batch_clone.Cloner, built: environment_module.Environment
    ) -> Optional[batch_clone.Cloner]:
        """`cloner` if its clone for copy 1's seed equals copy 1 as `built` by the
        factory, else None (logged)."""
        reason = cloner.verify(built, seeding.derive_seed(self.seed, 1))
        if reason is None:
            return cloner
        self._log_not_cloned(built, reason)
        return None

    def _log_not_cloned(self, env: environment_module.Environment, reason: str) -> None:
        _LOGGER.info(
            "BatchEnvironment of %s builds each of its %d copies by its factory instead "
            "of cloning copy 0: %s",
            type(env.task).__name__,
            self._num_envs,
            reason,
        )

    def _make_copy(self, make: _CopyFactory, index: int) -> environment_module.Environment:
        env = make(index, seeding.derive_seed(self.seed, index))
        if not isinstance(env, environment_module.Environment):
            raise TypeError(f"copy {index} is a {type(env).__name__}, not a composer.Environment")
        return env

    def _setup_action_checks(self) -> None:
        self._num_agents = self._envs[0].task.num_agents
        if self._num_agents is not None:
            self._agent_action_checks = [
                (
                    spec,
                    (self._num_envs,) + tuple(spec.shape),
                    environment_module.action_bounds_check(spec),
                )
                for spec in self._action_spec
            ]
            return
        spec = self._action_spec
        self._action_shape = (self._num_envs,) + tuple(spec.shape)
        self._action_dtype = np.dtype(spec.dtype)
        # The single environments' check, which takes the copies stacked as they are.
        self._actions_in_bounds = environment_module.action_bounds_check(spec)

    def _setup_vectorized(self) -> None:
        first = self._envs[0]
        task = first.task
        self._task = task
        self._bind_vectorized()
        self._observation_functions = tuple(
            (name, observable.raw_callable)
            for name, observable in task.observables.items()
            if observable.enabled
        )
        # Unless the copies strip it, an observation has a buffer axis of length 1
        # after the copies axis, as the copies' own observations do.
        self._observation_buffer_axis = not first.strip_singleton_obs_buffer_dim
        # Copy i's step count is `_steps - _episode_starts[i]`: vectorised steps since
        # the batch's last reset, less those before the copy's episode began. A step
        # then counts with one int addition, and only once the earliest episode start
        # is `_step_limit` steps back can a copy reach its time limit.
        self._steps = 0
        self._episode_starts = np.zeros(self._num_envs, dtype=np.int64)
        self._earliest_start = 0
        self._step_limit = first.step_limit
        # Physics steps per control step as the copies' Environment takes them: its
        # `n_sub_steps`, if given, overrides the task's.
        self._nstep = _substeps(first)
        # The copies whose episode ended at the last step (they reset at the next), or
        # None when none did.
        self._reset_next: Optional[np.ndarray] = None
        self._last_observation: Optional[_Observation] = None

    def _bind_vectorized(self) -> None:
        """Binds the vectorised path's views of the batch (again after it is rebuilt)."""
        self._batch_physics = self._envs[0].physics.over_arrays(
            _BatchModel(self._per_copy_model_field), _BatchData(self._batch)
        )
        self._ctrl = self._batch.bind("ctrl")
        self._time = self._batch.bind("time")
        # MuJoCo's warning counters of every copy, (N, mjNWARNING, 2), live; a copy
        # whose counters changed during a step diverged or was warned about.
        self._warnings = self._batch.warning
        self._checked_warnings = self._warnings.copy()
        self._checked_warning_bytes = self._warnings.tobytes()
        if self._warp is not None:
            self._batch_physics = self._envs[0].physics.over_arrays(
                _BatchModel(self._per_copy_model_field), self._warp.data
            )

    @property
    def warp(self) -> Optional[batch_warp.WarpSimulation]:
        """The MuJoCo Warp model and data of backend "warp" (None on the CPU batch)."""
        return self._warp

    @property
    def copies_cloned(self) -> bool:
        """True if copies 2 to N-1 are clones of copy 0 sharing its spec
        (`clone_copies`, `composer_tasks.batch_clone`); False if every copy was built
        by the factory."""
        return self._clones

    @property
    def vectorized(self) -> bool:
        """True if the copies run on the vectorised path (see `composer.Task.vectorized`)."""
        return self._vectorized

    # Properties.

    @property
    def num_envs(self) -> int:
        return self._num_envs

    @property
    def envs(self) -> Tuple[environment_module.Environment, ...]:
        """The per-copy `composer.Environment`s (read their physics, not their step)."""
        return tuple(self._envs)

    @property
    def batch(self) -> mujoco.batch.Batch:
        """The `mujoco.batch.Batch` that steps the copies (a new one once a copy's model
        makes the batch fall back to per-copy models: read it again after resets)."""
        return self._batch

    def action_spec(self) -> Any:
        """The action spec of one copy (a per-agent list for a multi-agent task);
        `step` takes (N,) + its shape (per agent)."""
        return self._action_spec

    def observation_spec(self) -> Any:
        """The observation spec of one copy (a per-agent list of dicts for a
        multi-agent task); observations carry a leading N."""
        return self._envs[0].observation_spec()

    def reward_spec(self) -> Any:
        """The reward spec of one copy (a per-agent list for a multi-agent task)."""
        return self._envs[0].reward_spec()

    def discount_spec(self) -> specs.BoundedArray:
        return self._envs[0].discount_spec()

    def model_values(self, kind: str, name: str, attribute: str) -> np.ndarray:
        """The current per-copy values of a model field, (N, ...)."""
        values = []
        for index, env in enumerate(self._envs):
            self._materialize(index)
            values.append(np.array(getattr(getattr(env.physics.model, kind)(name), attribute)))
        return np.stack(values)

    # One copy's simulation, for viewers.

    def _copy_index(self, index: int) -> int:
        if (
            isinstance(index, (bool, np.bool_))
            or not isinstance(index, (int, np.integer))
            or not 0 <= index < self._num_envs
        ):
            raise ValueError(
                f"copy index must be an integer in [0, {self._num_envs}), got {index!r}"
            )
        return int(index)

    def copy_model(self, index: int, model: Optional[mujoco.MjModel] = None) -> mujoco.MjModel:
        """A model equal to copy `index`'s: the copy's own if it keeps one, else its
        values (the batch's shared model with the copy's per-copy fields) written into
        `model` (an MjModel of the batch's sizes, e.g. one this returned before) or
        into a new one. Viewers draw a copy with it."""
        index = self._copy_index(index)
        if not self._slim[index]:
            return self._envs[index].physics.model
        if model is not None and not np.array_equal(model._sizes, self._scratch_model._sizes):
            model = None
        return self._batch.get_model(index, model)

    def copy_data(self, index: int, data: mujoco.MjData) -> None:
        """Writes copy `index`'s current simulation into `data`, an `MjData` of
        `copy_model(index)` (e.g. a viewer's): its state, and the quantities derived
        from it (`mj_forward` on the copy's model).

        Read a copy's simulation here, not from `envs[index].physics.data`: on the
        vectorised path that lags the batch between the copy's resets.
        """
        index = self._copy_index(index)
        env = self._envs[index]
        if self._vectorized:
            self._warp_download([index])
            self._batch.get_data(index, data)
        else:
            mujoco.mj_copyData(data, env.physics.model, env.physics.data)
        self._materialize(index)
        mujoco.mj_forward(env.physics.model, data)

    def set_xfrc_applied(self, index: int, xfrc_applied: ArrayLike) -> None:
        """Applies Cartesian forces to copy `index`'s bodies for its next steps, as
        writing a single environment's `physics.data.xfrc_applied` does (a viewer's
        mouse perturbation): (nbody, 6) rows of force (N) then torque (N m), world
        frame, at each body's centre of mass. They stay until set again or the
        copy's episode resets (which zeroes them).

        Raises:
          ValueError: `index` is not a copy, or the forces are not finite (nbody, 6).
        """
        index = self._copy_index(index)
        data = self._envs[index].physics.data
        forces = np.asarray(xfrc_applied, dtype=np.float64)
        if forces.shape != data.xfrc_applied.shape or not np.all(np.isfinite(forces)):
            raise ValueError(
                f"xfrc_applied of copy {index} must be finite with shape {data.xfrc_applied.shape} "
                f"(nbody, 6), got shape {forces.shape}"
            )
        # The looped path writes the copy's own MjData into the batch before each
        # step; the vectorised path keeps the batch's row between resets.
        data.xfrc_applied[...] = forces
        if self._vectorized:
            self._warp_download([index])
            self._state_views["xfrc_applied"][index] = forces
            self._warp_sync(np.array([index]))

    # Seeds and episodes.

    def reseed(self, seed: Union[int, Sequence[int]]) -> None:
        """Re-seeds every copy's task and model-variation streams; the next `step` resets.

        With an int, the copies' streams become those of a batch built with
        `seed=seed` (copy i's task stream `derive_seed(seed, i)`, its variation
        stream `derive_seed(seed, i, 1)`), so the episodes that follow are that
        batch's, model variations included. With a sequence of N ints, copy i's
        task stream is seeded with `seed[i]` (as `Environment(random_state=seed[i])`)
        and its variation stream with `derive_seed(seed[i], 1)`.

        Every seed is checked before any stream changes.

        Raises:
          TypeError, ValueError: a seed is not an int in [0, 2**32 - 1], or the
            sequence does not have N entries.
        """
        if isinstance(seed, (list, tuple, np.ndarray)):
            if len(seed) != self._num_envs:
                raise ValueError(f"seed list has {len(seed)} entries for {self._num_envs} copies")
            seeds = [
                seeding.check_seed(entry, f"seed[{index}]") for index, entry in enumerate(seed)
            ]
            task_seeds = seeds
            variation_seeds = [seeding.derive_seed(entry, 1) for entry in seeds]
        else:
            batch_seed = seeding.check_seed(seed, "seed")
            task_seeds = [seeding.derive_seed(batch_seed, index) for index in range(self._num_envs)]
            variation_seeds = [
                seeding.derive_seed(batch_seed, index, 1) for index in range(self._num_envs)
            ]
            self.seed = batch_seed
        for env, task_seed in zip(self._envs, task_seeds):
            env.random_state.seed(task_seed)
        for random, variation_seed in zip(self._variation_random, variation_seeds):
            random.seed(variation_seed)
        self._needs_reset = True

    def reset(self) -> "BatchTimeStep":
        """Starts a new episode in every copy."""
        self._batch.reset(stage=mujoco.mjtStage.mjSTAGE_NONE)
        timesteps = [self._reset_copy(index, reset_row=False) for index in range(self._num_envs)]
        self._flush_models()
        self._warp_sync(None)
        self._needs_reset = False
        stacked = self._stack(timesteps)
        if self._vectorized:
            self._steps = 0
            self._episode_starts[:] = 0
            self._earliest_start = 0
            self._reset_next = None
            self._last_observation = _copy_observation(stacked.observation)
            self._note_warnings()
        if self._warp is not None and self._warp_jax is not None:
            # Warp hook: the copies' model values are uploaded again; JAX TimeSteps.
            self._warp_jax.invalidate_model()
            self._observation_dtypes = {
                name: value.dtype for name, value in stacked.observation.items()
            }
            if self._return_jax:
                return _as_jax(stacked)
        return stacked

    def _reset_copy(self, index: int, reset_row: bool = True) -> dm_env.TimeStep:
        """Starts copy `index`'s next episode: its own lifecycle's reset, then its
        state and model loaded into the batch's row. `reset_row=False`: the caller
        has reset the row already (one `mujoco.batch` call for every copy resetting
        together costs a fraction of a call each)."""
        env = self._envs[index]
        self._materialize(index)
        if self._variations:
            # After the reset's model restore (the compiled values), before the
            # copy's `initialize_episode` callbacks.
            setattr(env, "_before_initialize_episode", functools.partial(self._vary_model, index))
        edits_before = spec_edits.spec_edit_count()
        timestep = env.reset()
        self._check_shared_spec(edits_before)
        if reset_row:
            # The batch's own MjData of this copy restarts too (warning counters included).
            self._batch.reset(ids=[index], stage=mujoco.mjtStage.mjSTAGE_NONE)
        self._take_copy(index)
        return timestep

    def _vary_model(self, index: int, physics: Physics) -> None:
        """Draws copy `index`'s model variations into its model."""
        model = physics.model
        random_state = self._variation_random[index]
        for (kind, name, attribute), variation in self._variations.items():
            element = getattr(model, kind)(name)
            current = np.array(getattr(element, attribute))
            value = np.asarray(
                variation(initial_value=current, current_value=current, random_state=random_state)
            )
            _check_variation_value(value, (kind, name, attribute), index)
            setattr(element, attribute, np.broadcast_to(value, current.shape))

    def _take_copy(self, index: int) -> None:
        """Loads copy `index`'s state and model into the batch after its own
        lifecycle ran on its Physics (a reset, a restore, `copy_physics`); the models
        the batch runs on are handed over by `_flush_models`."""
        physics = self._envs[index].physics
        self._check_data_layout(index, physics.model)
        data = physics.data
        for name, view in self._state_views.items():
            view[index] = getattr(data, name)
        if self._own_models is None:
            blocked = self._shared_model.load(index, physics.model)
            if blocked:
                self._use_own_models(index, blocked)
            elif self._slimming and not self._slim[index]:
                self._make_slim(index)
            return
        differs = bool(self._shared_model.differences(physics.model))
        if differs and self._slim[index]:
            self._unslim_from_scratch(index)
        elif not differs and self._slimming and not self._slim[index]:
            self._make_slim(index)
        self._own_models[index] = physics.model if differs else self._shared_model.model
        self._models_changed = True

    def _flush_models(self) -> None:
        """Hands the batch the models of copies that run on their own (after `_take_copy`)."""
        if self._models_changed and self._own_models is not None:
            self._batch.set_models(self._own_models)
        self._models_changed = False
        if self._vectorized:
            self._batch_physics.model.refresh()

    def _materialize(self, index: int) -> None:
        """Writes copy `index`'s model into the scratch model, if the copy is slim."""
        if self._slim[index]:
            self._batch.get_model(index, self._scratch_model)

    def _make_slim(self, index: int) -> None:
        """Drops copy `index`'s own model and data, whose values the batch holds."""
        _install(self._envs[index].physics, self._scratch_model, self._scratch_data)
        self._slim[index] = True

    def _unslim_from_scratch(self, index: int) -> None:
        """Gives slim copy `index`, whose lifecycle left the scratch model different
        from the shared one, a copy of the scratch pair as its own; the scratch model
        returns to the shared values."""
        own = copy.copy(self._scratch_model)
        data = mujoco.MjData(own)
        mujoco.mj_copyData(data, own, self._scratch_data)
        _install(self._envs[index].physics, own, data)
        self._slim[index] = False
        shared = self._shared_model.model
        for name in self._shared_model.differences(self._scratch_model):
            batch_fields.set_model_field(
                self._scratch_model, name, batch_fields.model_field(shared, name)
            )

    def _check_data_layout(self, index: int, model: mujoco.MjModel) -> None:
        """Raises unless copy `index`'s `model` gives its data the batch's layout: a
        task whose episodes compile models of other sizes (dm_control's corridors,
        which rebuild their platforms or walls) cannot run in one `mujoco.batch`."""
        shared = self._shared_model.model
        if model is shared or model._sizes.tobytes() == shared._sizes.tobytes():
            return
        if _data_layout(model) == _data_layout(shared):
            return
        sizes = [
            name
            for name, ours, theirs in zip(model._size_fields, model._sizes, shared._sizes)
            if ours != theirs
        ]
        raise ValueError(
            f"{type(self._envs[index].task).__name__}: copy {index}'s episode compiled a "
            f"model of other sizes than the batch's ({', '.join(sizes)} differ), so its "
            "simulation data no longer fits the batch's. A batch needs a task whose "
            "episodes keep one model structure: build corridors with pooled=True (they "
            "then lay each episode out in one compiled model), or run the copies as "
            "single environments"
        )

    def _use_own_models(self, index: int, blocked: Sequence[str]) -> None:
        """Rebuilds the batch with caller models (`mujoco.batch` does not mix them with
        expanded fields), keeping every copy's state row: a copy whose model differs
        from the shared one runs on its own, the others on the shared one."""
        _LOGGER.warning(
            "%s: copy %d's model differs from the batch's shared model in %s, which "
            "mujoco.batch cannot hold per copy; copies whose models differ now run on "
            "their own models (more memory per copy)",
            type(self._envs[0].task).__name__,
            index,
            ", ".join(blocked),
        )
        if self._warp is not None:
            raise ValueError(
                f"{type(self._envs[0].task).__name__}: copy {index}'s model differs from the "
                f"batch's shared model in {', '.join(blocked)}, which cannot be held per copy; "
                "the Warp backend cannot run it (use backend='cpu')"
            )
        if self._slim[index]:
            self._unslim_from_scratch(index)
        for slim_index in np.flatnonzero(self._slim & self._shared_model.rows_differ()):
            own = self._batch.get_model(int(slim_index))
            _install(self._envs[slim_index].physics, own, mujoco.MjData(own))
            self._slim[slim_index] = False
        previous = self._batch
        shared = self._shared_model.model
        self._batch = mujoco.batch.Batch(
            shared, nsim=self._num_envs, nthread=self._num_threads, persistent=True
        )
        self._shared_model = _SharedModel(self._batch, shared, ())
        self._own_models = [
            shared
            if self._slim[copy_index]
            or not self._shared_model.differences(self._envs[copy_index].physics.model)
            else self._envs[copy_index].physics.model
            for copy_index in range(self._num_envs)
        ]
        self._models_changed = True
        self._bind_state_views()
        for name, view in self._state_views.items():
            view[...] = previous.bind(name)
        if self._vectorized:
            self._bind_vectorized()

    def _per_copy_model_field(self, name: str) -> Any:
        """A model field of every copy, (N, ...) (read-only), or a shared attribute."""
        value = getattr(self._shared_model.model, name)
        if not isinstance(value, np.ndarray):
            return value
        if self._own_models is not None:
            return np.stack([getattr(model, name) for model in self._own_models])
        rows = self._batch.expanded(name) if name in mujoco.batch.MODEL_FIELDS else None
        if rows is not None:
            return rows
        return np.broadcast_to(value, (self._num_envs,) + value.shape)

    @contextlib.contextmanager
    def copy_physics(self, index: int) -> Iterator[Physics]:
        """Copy `index`'s `Physics`, holding its model and current state, to read or
        change between steps (a viewer's edit, a test's); the batch takes the
        changes (state and model) when the block ends.

            with batch.copy_physics(3) as physics:
                physics.model.actuator("slide").gear[0] = 20.0

        On the vectorised path the copies' `envs[i].physics` are one shared scratch
        Physics between their resets: use this rather than reading or writing
        `envs[i].physics` directly.

        Raises:
          ValueError: `index` is not a copy.
        """
        index = self._copy_index(index)
        physics = self._envs[index].physics
        self._materialize(index)
        if self._vectorized:
            self._warp_download([index])
            self._batch.get_data(index, physics.data)
            if self._warp is not None:
                mujoco.mj_forward(physics.model, physics.data)
        yield physics
        self._take_copy(index)
        self._flush_models()
        if self._vectorized:
            self._warp_sync(np.array([index]))
            self._note_warnings()

    def step(self, actions: Any) -> "BatchTimeStep":
        """Advances every copy one control step with its row of `actions` (N, A).

        Raises:
          ValueError: the actions do not fit (N,) + the action spec (naming the copy).
          PhysicsError: a copy's simulation diverged or MuJoCo warned, and the copies
            raise on physics errors (the message names the copy).
        """
        if self._needs_reset:
            return self.reset()
        actions = self._validate(actions)
        if self._vectorized:
            return self._step_vectorized(actions)
        edits_before = spec_edits.spec_edit_count()
        # Filled below for every copy.
        timesteps: list[Any] = [None] * self._num_envs
        pending = {}
        resets = []
        for index, env in enumerate(self._envs):
            if env.needs_reset:
                timesteps[index] = self._reset_copy(index)
                resets.append(index)
                continue
            copy_actions = (
                actions[index]
                if self._num_agents is None
                else [agent_actions[index] for agent_actions in actions]
            )
            control_step = env.control_step(copy_actions)
            pending[index] = (control_step, next(control_step))
        if resets:
            self._flush_models()
        while pending:
            by_nstep = collections.defaultdict(list)
            for index, (_, nstep) in pending.items():
                by_nstep[nstep].append(index)
            for nstep, ids in by_nstep.items():
                failed = self._advance(ids, nstep)
                for index in ids:
                    control_step, _ = pending.pop(index)
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
        self._check_shared_spec(edits_before)
        return self._stack(timesteps)

    def _check_shared_spec(self, edits_before: int) -> None:
        """Raises if the copies' callbacks edited a spec (`composer.mark_spec_changed`)
        since the process's spec edit count was `edits_before`, while the copies share
        copy 0's spec as clones: each copy built alone would have edited its own, so
        the clones would no longer be the copies they stand for."""
        if self._clones and spec_edits.spec_edit_count() != edits_before:
            raise ValueError(
                f"a copy of {type(self._envs[0].task).__name__} edited its spec during an "
                "episode (outside initialize_episode_mjcf), and its copies share copy 0's "
                "spec as clones: build the batch with clone_copies=False"
            )

    def _advance(self, ids: Sequence[int], nstep: int) -> dict[int, PhysicsError]:
        """Steps copies `ids` by `nstep` substeps; returns {index: PhysicsError}."""
        datas = [self._envs[index].physics.data for index in ids]
        rows = self._push(ids)
        self._step_physics(rows, nstep)
        failed = {}
        for index, data in zip(ids, datas):
            start_time = data.time
            self._batch.get_data(index, data)
            try:
                self._envs[index].physics.check_divergence(start_time)
            except PhysicsError as error:
                failed[index] = error
        return failed

    def _push(self, ids: Iterable[int]) -> np.ndarray:
        """Writes the copies' integration state from their own MjData into the batch rows."""
        rows = np.asarray(list(ids))
        datas = [self._envs[index].physics.data for index in rows]
        for name, view in self._state_views.items():
            view[rows] = np.stack([getattr(data, name) for data in datas])
        return rows

    def _step_physics(self, ids: Optional[np.ndarray], nstep: int) -> None:
        """Steps the batch's copies `ids` (None: all) with MuJoCo's profiling clock off."""
        with self._paused_clock:
            self._batch.step(ids=ids, nstep=nstep, stage=_STAGE_VEL)

    def _note_warnings(self) -> None:
        """Takes the copies' current warning counters as the baseline of the next step."""
        self._checked_warnings[...] = self._warnings
        self._checked_warning_bytes = self._warnings.tobytes()

    def _step_vectorized(self, actions: np.ndarray) -> "BatchTimeStep":
        reset_timesteps = None
        reset_next = self._reset_next
        if reset_next is not None:
            resetting = np.flatnonzero(reset_next)
            running = np.flatnonzero(~reset_next)
            # The resetting copies' rows restart (warning counters included) in one call.
            self._batch.reset(ids=resetting, stage=mujoco.mjtStage.mjSTAGE_NONE)
            reset_timesteps = [
                (int(index), self._reset_copy(int(index), reset_row=False)) for index in resetting
            ]
            self._flush_models()
            self._note_warnings()
        else:
            resetting = running = None  # Every copy; ids=None spares the batch an index array.
        warp = self._warp
        if warp is not None:
            # Warp backend: every world steps (a resetting copy from its reset state,
            # uploaded before the step and again after it).
            deferred, self._warp_refused = self._warp_refused, None
            warp.write_ctrl(actions)
            if resetting is not None:
                self._warp_sync(resetting)
            if self._warp_jax is not None:
                # Warp hook: the step, observations and outcome on the device.
                return self._finish_warp_jax(resetting, reset_timesteps, deferred)
            start_s = warp.time()
            warp.step(resetting)
            if resetting is not None:
                self._warp_sync(resetting)
        else:
            if running is None:
                self._ctrl[...] = actions
            else:
                self._ctrl[running] = actions[running]
            start_s = self._time.copy()
            if running is None or len(running):
                self._step_physics(running, self._nstep)
        physics = self._batch_physics
        # The observation kept for copies that a warning ends at the next step (new
        # arrays: an observable may return a view of the batch's state or an array it
        # keeps); what is returned is a copy of it.
        observation = collections.OrderedDict()
        for name, function in self._observation_functions:
            value = function(physics)
            # A new array that only this frame references (an observable's result
            # that it keeps no reference to, nor a view of) is kept as it is;
            # anything else (a view of the batch's state, an array the observable
            # keeps, a scalar) is copied.
            if (
                type(value) is not np.ndarray
                or value.base is not None
                or sys.getrefcount(value) != _PRIVATE_REFERENCES
            ):
                value = np.array(value)
            if warp is not None and self._last_observation is not None:
                # MuJoCo Warp's float32 values, in the dtype of the copies' own observations.
                value = value.astype(self._last_observation[name].dtype, copy=False)
            observation[name] = value[:, np.newaxis] if self._observation_buffer_axis else value
        self._steps += 1
        truncated = None
        if self._steps - self._earliest_start >= self._step_limit:
            truncated = self._episode_starts <= self._steps - self._step_limit
        step_type, reward, discount, last = environment_module.batch_episode_outcome(
            self._task, physics, truncated, self._num_envs
        )
        warned = None
        if warp is not None:
            errors = warp.check(resetting, start_s)
            if errors:
                warned = self._end_failed(errors, step_type, reward, discount, observation)
        elif self._warnings.tobytes() != self._checked_warning_bytes:
            warned = self._end_warned(start_s, step_type, reward, discount, observation)
        if warned is not None:
            if last is None:
                last = np.zeros(self._num_envs, dtype=bool)
            last[warned] = True
        if reset_timesteps:
            step_type[resetting] = _FIRST
            reward[resetting] = 0.0
            discount[resetting] = 1.0
            if last is not None:
                last[resetting] = False
            self._episode_starts[resetting] = self._steps
            self._earliest_start = int(self._episode_starts.min())
            for index, timestep in reset_timesteps:
                for name, value in observation.items():
                    value[index] = timestep.observation[name]
        if last is not None and not np.count_nonzero(last):
            last = None
        self._reset_next = last
        self._last_observation = observation
        returned = collections.OrderedDict()
        for name, value in observation.items():
            returned[name] = value.copy()
        return BatchTimeStep(step_type, reward, discount, returned)

    def _finish_warp_jax(
        self,
        resetting: Optional[np.ndarray],
        reset_timesteps: Optional[Sequence[Tuple[int, dm_env.TimeStep]]],
        deferred: Optional[Tuple[Any, Any]],
    ) -> "BatchTimeStep":
        """Warp hook (array_module "jax"): the worlds' step, its observations and
        outcome computed on the device (`batch_warp.JaxStep.step`), with the episode
        bookkeeping of `_step_vectorized` on the host from the one small read back
        of the step's flags (which copies ended, may have diverged or overflowed a
        buffer; whether JAX actions checked on the device were refused)."""
        import jax.numpy as jnp

        warp, jax_step = self._warp, self._warp_jax
        assert warp is not None and jax_step is not None
        observation, reward, discount, flags = jax_step.step(
            resetting,
            (lambda: None) if resetting is None else (lambda: self._warp_sync(resetting)),
            None if deferred is None else deferred[0],
        )
        if flags.refused:
            assert deferred is not None, "only deferred action checks refuse after the step"
            self._raise_for_actions(np.asarray(deferred[1]).astype(self._action_dtype))
        terminated, diverged = flags.terminated, flags.diverged
        self._steps += 1
        last = terminated.copy()
        if self._steps - self._earliest_start >= self._step_limit:
            last |= self._episode_starts <= self._steps - self._step_limit
        # Rows whose reward and discount are replaced: 0 and 0 where a physics error
        # ended the episode, 0 and 1 where the copy reset.
        zero_reward = np.zeros(self._num_envs, dtype=bool)
        one_discount = np.zeros(self._num_envs, dtype=bool)
        zero_discount = np.zeros(self._num_envs, dtype=bool)
        step_type = np.add(last, _MID, dtype=np.int64)
        errors = warp.check(resetting, None, suspects=diverged)
        if errors:
            warned = np.array(sorted(errors), dtype=np.int64)
            for index in warned:
                self._envs[index].end_episode_by_physics_error(
                    PhysicsError(f"copy {index}: {errors[int(index)]}")
                )
            step_type[warned] = int(dm_env.StepType.LAST)
            last[warned] = True
            zero_reward[warned] = zero_discount[warned] = True
            previous = self._last_observation
            assert previous is not None, "the vectorised path steps only after a reset"
            rows = jnp.asarray(warned)
            for name, value in observation.items():
                kept = jnp.asarray(previous[name])
                if self._observation_buffer_axis:
                    kept = kept[:, 0]
                observation[name] = value.at[rows].set(kept[rows].astype(value.dtype))
        if reset_timesteps:
            assert resetting is not None
            step_type[resetting] = _FIRST
            last[resetting] = False
            zero_reward[resetting] = one_discount[resetting] = True
            zero_discount[resetting] = False
            self._episode_starts[resetting] = self._steps
            self._earliest_start = int(self._episode_starts.min())
            rows = jnp.asarray(resetting)
            for name, value in observation.items():
                first = np.stack([timestep.observation[name] for _, timestep in reset_timesteps])
                observation[name] = value.at[rows].set(jnp.asarray(first, dtype=value.dtype))
        if zero_reward.any():
            reward = jnp.where(jnp.asarray(zero_reward), 0.0, reward)
        if zero_discount.any() or one_discount.any():
            discount = jnp.where(
                jnp.asarray(zero_discount), 0.0, jnp.where(jnp.asarray(one_discount), 1.0, discount)
            )
        if self._observation_buffer_axis:
            observation = {name: value[:, jnp.newaxis] for name, value in observation.items()}
        self._reset_next = last if np.count_nonzero(last) else None
        kept = collections.OrderedDict(observation)
        self._last_observation = kept  # type: ignore[assignment]
        if self._return_jax:
            return _with_host_step_type(
                BatchTimeStep(jnp.asarray(step_type), reward, discount, kept), step_type
            )
        # NumPy TimeSteps, in the dtypes of the copies' own observations.
        dtypes = self._observation_dtypes
        return BatchTimeStep(
            step_type,
            np.asarray(reward, dtype=np.float64),
            np.asarray(discount, dtype=np.float64),
            collections.OrderedDict(
                (name, np.array(value, dtype=dtypes[name])) for name, value in kept.items()
            ),
        )

    def _end_warned(
        self,
        start_s: np.ndarray,
        step_type: np.ndarray,
        reward: np.ndarray,
        discount: np.ndarray,
        observation: _Observation,
    ) -> np.ndarray:
        """Ends the episodes of the copies whose warning counters rose in this step (or
        raises), as each copy's own environment would; returns their indices."""
        numbers = self._warnings[..., _WARNING_NUMBER]
        warned = np.flatnonzero(
            np.any(numbers != self._checked_warnings[..., _WARNING_NUMBER], axis=1)
        )
        lastinfo = self._warnings[..., _WARNING_LASTINFO]
        errors = {
            int(index): warning_error(numbers[index], lastinfo[index], start_s[index])
            for index in warned
        }
        return self._end_failed(errors, step_type, reward, discount, observation)

    def _end_failed(
        self,
        errors: Mapping[int, PhysicsError],
        step_type: np.ndarray,
        reward: np.ndarray,
        discount: np.ndarray,
        observation: _Observation,
    ) -> np.ndarray:
        """Ends the episodes of the copies in `errors` (or raises, naming the copy),
        as each copy's own environment would; returns their indices."""
        warned = np.array(sorted(errors), dtype=np.int64)
        for index in warned:
            self._envs[index].end_episode_by_physics_error(
                PhysicsError(f"copy {index}: {errors[int(index)]}")
            )
        self._note_warnings()
        step_type[warned] = int(dm_env.StepType.LAST)
        reward[warned] = 0.0
        discount[warned] = 0.0
        last_observation = self._last_observation
        assert last_observation is not None, "the vectorised path steps only after a reset"
        for name, value in observation.items():
            value[warned] = last_observation[name][warned]
        return warned

    def _physics_error(self, index: int, error: PhysicsError) -> dm_env.TimeStep:
        return self._envs[index].end_episode_by_physics_error(
            PhysicsError(f"copy {index}: {error}")
        )

    def _validate(self, actions: Any) -> Any:
        if self._num_agents is not None:
            return self._validate_agents(actions)
        if self._warp is not None and batch_warp.is_jax_array(actions):
            return self._validate_jax(actions)
        array = np.asarray(actions)
        if array.dtype != self._action_dtype or array.shape != self._action_shape:
            array = self._coerce_actions(array)
        if self._actions_in_bounds(array):
            return array
        self._raise_for_actions(array)

    def _validate_jax(self, actions: Any) -> Any:
        """Warp hook: JAX actions checked on their device by the NumPy path's rule
        (`batch_warp.JaxActions`) and kept there as the float32 (N, A) ctrl rows; the
        errors are the NumPy path's, naming the copy."""
        dtype = np.dtype(actions.dtype)
        if dtype.kind != "f":
            # Integer (or non-numeric) actions: the NumPy path's cast and errors.
            return self._validate(np.asarray(actions))
        if tuple(actions.shape) != self._action_shape:
            self._coerce_actions(np.empty(actions.shape, dtype))
        if self._warp_actions is None:
            self._warp_actions = batch_warp.JaxActions(self._action_spec, self._num_envs)
        self._warp_refused = None
        if self._warp_jax is not None and self._reset_next is None:
            # No copy resets before this step: the check is read back with the step's
            # flags, and the worlds rolled back if it failed (nothing else ran).
            rows, refused = self._warp_actions.check(actions)
            self._warp_refused = (refused, actions)
            return rows
        rows, refused = self._warp_actions(actions)
        if refused:
            self._raise_for_actions(np.asarray(actions).astype(self._action_dtype))
        return rows

    def _validate_agents(self, actions: Any) -> list[np.ndarray]:
        """The per-agent (N, A_i) action arrays of a multi-agent batch, checked."""
        if isinstance(actions, (str, bytes, Mapping)) or not hasattr(actions, "__len__"):
            raise TypeError(
                f"actions must be a list of {self._num_agents} per-agent (copies, action) arrays, "
                f"got {type(actions).__name__}"
            )
        if len(actions) != self._num_agents:
            raise ValueError(
                f"got {len(actions)} per-agent action arrays for a task of {self._num_agents} agents"
            )
        checked = []
        for agent, (agent_actions, (spec, shape, in_bounds)) in enumerate(
            zip(actions, self._agent_action_checks)
        ):
            array = np.asarray(agent_actions)
            if array.dtype.kind not in "fiu":
                raise ValueError(
                    f"actions of agent {agent} have dtype {array.dtype}; its action spec "
                    f"{spec.name!r} wants real numbers"
                )
            if array.shape != shape:
                raise ValueError(
                    f"actions of agent {agent} has shape {array.shape}, expected {shape} (copies, action)"
                )
            array = array.astype(spec.dtype, copy=False)
            if not in_bounds(array):
                rows = array.reshape(self._num_envs, -1)
                minimum = np.broadcast_to(spec.minimum, spec.shape).reshape(-1)
                maximum = np.broadcast_to(spec.maximum, spec.shape).reshape(-1)
                bad = ~(np.isfinite(rows) & (rows >= minimum) & (rows <= maximum)).all(axis=1)
                index = int(np.flatnonzero(bad)[0])
                raise ValueError(
                    f"actions of copy {index} for agent {agent} are outside the bounds "
                    f"[{minimum.tolist()}, {maximum.tolist()}] of its action spec or not finite: "
                    f"{rows[index].tolist()}"
                )
            checked.append(array)
        return checked

    def _coerce_actions(self, array: np.ndarray) -> np.ndarray:
        spec = self._action_spec
        if array.dtype.kind not in "fiu":
            raise ValueError(
                f"actions have dtype {array.dtype}; the action spec {spec.name!r} wants real numbers"
            )
        expected = self._action_shape
        if array.shape != expected:
            if array.ndim >= 1 and array.shape[0] != self._num_envs:
                raise ValueError(
                    f"actions have {array.shape[0]} rows but the batch has {self._num_envs} copies "
                    f"(expected shape {expected})"
                )
            raise ValueError(
                f"actions have shape {array.shape}, expected {expected} (copies, action)"
            )
        return array.astype(self._action_dtype)

    def _raise_for_actions(self, array: np.ndarray) -> NoReturn:
        """Names the first copy whose actions are not finite or outside the spec's bounds."""
        spec = self._action_spec
        rows = array.reshape(self._num_envs, -1)
        finite = np.isfinite(rows).all(axis=1)
        if not finite.all():
            index = int(np.flatnonzero(~finite)[0])
            raise ValueError(
                f"actions of copy {index} are not finite: {array[index].tolist()} "
                f"(action spec {spec.name!r})"
            )
        inside = (
            ((array >= spec.minimum) & (array <= spec.maximum))
            .reshape(self._num_envs, -1)
            .all(axis=1)
        )
        index = int(np.flatnonzero(~inside)[0])
        raise ValueError(
            f"actions of copy {index} are outside the bounds [{spec.minimum.tolist()}, "
            f"{spec.maximum.tolist()}] of the action spec: {array[index].tolist()}"
        )

    def _stack(self, timesteps: Sequence[dm_env.TimeStep]) -> "BatchTimeStep":
        if self._num_agents is not None:
            return self._stack_agents(timesteps)
        step_type = np.array([timestep.step_type for timestep in timesteps], dtype=np.int64)
        reward = np.array(
            [0.0 if timestep.reward is None else timestep.reward for timestep in timesteps],
            dtype=np.float64,
        )
        discount = np.array(
            [1.0 if timestep.discount is None else timestep.discount for timestep in timesteps],
            dtype=np.float64,
        )
        observation = collections.OrderedDict(
            (name, np.stack([timestep.observation[name] for timestep in timesteps]))
            for name in timesteps[0].observation
        )
        return BatchTimeStep(step_type, reward, discount, observation)

    def _stack_agents(self, timesteps: Sequence[dm_env.TimeStep]) -> "BatchTimeStep":
        num_agents = self._num_agents
        assert num_agents is not None, "only a multi-agent batch stacks per agent"
        step_type = np.array([timestep.step_type for timestep in timesteps], dtype=np.int64)
        reward = [
            np.array(
                [
                    0.0 if timestep.reward is None else timestep.reward[agent]
                    for timestep in timesteps
                ],
                dtype=np.float64,
            )
            for agent in range(num_agents)
        ]
        discount = np.array(
            [1.0 if timestep.discount is None else timestep.discount for timestep in timesteps],
            dtype=np.float64,
        )
        observation = [
            collections.OrderedDict(
                (name, np.stack([timestep.observation[agent][name] for timestep in timesteps]))
                for name in timesteps[0].observation[agent]
            )
            for agent in range(num_agents)
        ]
        return BatchTimeStep(step_type, reward, discount, observation)

    # Snapshots.

    def snapshot(self) -> dict:
        """A picklable record of every copy and of the batch's own episode bookkeeping
        (see `composer.Environment.snapshot` for what a copy's holds). It shares no
        memory with the batch."""
        copies = []
        for index, env in enumerate(self._envs):
            # On the vectorised path the copies' MjData lag the batch between resets
            # (and a slim copy's Physics is the scratch): bring it up to date first.
            self._materialize(index)
            if self._vectorized:
                self._warp_download([index])
                self._batch.get_data(index, env.physics.data)
            copies.append(env.snapshot())
        snapshot = {
            "copies": copies,
            # One entry per copy (None without model variations: no streams).
            "variation_random": (
                [random.get_state() for random in self._variation_random]
                if self._variation_random
                else [None] * self._num_envs
            ),
            "needs_reset": self._needs_reset,
        }
        if self._vectorized:
            reset_next = self._reset_next
            snapshot.update(
                step_counts=self._steps - self._episode_starts,
                reset_next=(
                    np.zeros(self._num_envs, dtype=bool)
                    if reset_next is None
                    else reset_next.copy()
                ),
                last_observation=_copy_observation(self._last_observation),
            )
        return snapshot

    def restore(self, snapshot: dict) -> None:
        """Returns the batch to a `snapshot()` of a batch built alike."""
        if len(snapshot["copies"]) != self._num_envs:
            raise ValueError(
                f"the snapshot holds {len(snapshot['copies'])} copies, this batch {self._num_envs}"
            )
        # The batch's rows and models are rebuilt from the copies, one by one (a slim
        # copy's lifecycle runs on the scratch Physics).
        self._batch.reset(stage=mujoco.mjtStage.mjSTAGE_NONE)
        for index, (env, copy_snapshot) in enumerate(zip(self._envs, snapshot["copies"])):
            self._materialize(index)
            env.restore(copy_snapshot)
            self._take_copy(index)
        self._flush_models()
        self._warp_sync(None)
        if self._variation_random:
            for random, state in zip(self._variation_random, snapshot["variation_random"]):
                random.set_state(state)
        self._needs_reset = snapshot["needs_reset"]
        if self._vectorized:
            self._steps = 0
            self._episode_starts[:] = -np.asarray(snapshot["step_counts"], dtype=np.int64)
            self._earliest_start = int(self._episode_starts.min())
            reset_next = np.array(snapshot["reset_next"], dtype=bool)
            self._reset_next = reset_next if np.count_nonzero(reset_next) else None
            self._last_observation = _copy_observation(snapshot["last_observation"])
            self._note_warnings()
            if self._warp_jax is not None and self._last_observation is not None:
                # Warp hook: the dtypes of the NumPy TimeSteps' observations.
                self._observation_dtypes = {
                    name: value.dtype for name, value in self._last_observation.items()
                }

    def close(self) -> None:
        for env in self._envs:
            env.close()


def _as_jax(timestep: "BatchTimeStep") -> "BatchTimeStep":
    """Warp hook: a TimeStep's arrays as JAX arrays on JAX's default device."""
    import jax.numpy as jnp

    return _with_host_step_type(
        BatchTimeStep(
            jnp.asarray(timestep.step_type),
            jnp.asarray(timestep.reward),
            jnp.asarray(timestep.discount),
            collections.OrderedDict(
                (name, jnp.asarray(value)) for name, value in timestep.observation.items()
            ),
        ),
        timestep.step_type,
    )


def _with_host_step_type(timestep: BatchTimeStep, step_type: np.ndarray) -> BatchTimeStep:
    """Warp hook: `timestep` (of JAX arrays) keeping the host's NumPy step types, which
    its `first()`, `mid()` and `last()` read."""
    timestep.__dict__["host_step_type"] = np.asarray(step_type)
    return timestep


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off inside (as it was after): making
    thousands of copies allocates containers fast enough that its collections,
    each scanning every object made so far, took a fifth of building 4096 cart-pole
    copies; those copies are all kept, so the scans find little to free."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _copy_observation(observation: Optional[Mapping[str, np.ndarray]]) -> Optional[_Observation]:
    if observation is None:
        return None
    # np.array: a copy, and NumPy where the Warp backend keeps JAX arrays.
    return collections.OrderedDict((name, np.array(value)) for name, value in observation.items())


def _check_variation_keys(
    model_variations: Optional[Mapping[Tuple[str, str, str], Any]],
) -> dict[Tuple[str, str, str], Any]:
    if model_variations is None:
        return {}
    if not isinstance(model_variations, Mapping):
        raise TypeError(
            f"model_variations must be a mapping of (kind, element_name, attribute) to variations, "
            f"got {type(model_variations).__name__}"
        )
    for key, variation in model_variations.items():
        if (
            not isinstance(key, tuple)
            or len(key) != 3
            or key[0] not in _ELEMENT_KINDS
            or not all(isinstance(part, str) for part in key)
        ):
            raise ValueError(
                f"model_variations keys are (kind, element_name, attribute) with kind in "
                f"{_ELEMENT_KINDS}, got {key!r}"
            )
        if not callable(variation):
            raise TypeError(
                f"model_variations[{key!r}] must be a variation (callable), got {type(variation).__name__}"
            )
    return dict(model_variations)


def _check_variation_elements(
    variations: Iterable[Tuple[str, str, str]], model: mujoco.MjModel
) -> None:
    for kind, name, attribute in variations:
        try:
            element = getattr(model, kind)(name)
        except KeyError:
            raise ValueError(
                f"model_variations names a {kind} {name!r} that the model does not have"
            ) from None
        if not isinstance(getattr(element, attribute, None), np.ndarray):
            raise ValueError(
                f"model_variations names {kind} {name!r}'s attribute {attribute!r}, "
                "which is not a model array of that element"
            )


_SPEC_KINDS = {f"Mjs{kind.capitalize()}": kind for kind in _ELEMENT_KINDS}


def _variators(owner: Any) -> Iterator[Tuple[str, Any]]:
    """(attribute path, variator) of the variators an object keeps in its attributes,
    directly or in a list, tuple or dict."""
    for attribute, value in vars(owner).items():
        if isinstance(value, (list, tuple)):
            entries = [(f"{attribute}[{index}]", entry) for index, entry in enumerate(value)]
        elif isinstance(value, dict):
            entries = [(f"{attribute}[{key!r}]", entry) for key, entry in value.items()]
        else:
            entries = [(attribute, value)]
        for path, entry in entries:
            if isinstance(entry, (variators_module.MJCFVariator, variators_module.PhysicsVariator)):
                yield f"{type(owner).__name__}.{path}", entry


def _check_variation_conflicts(
    variations: Mapping[Tuple[str, str, str], Any], env: environment_module.Environment
) -> None:
    """Refuses batch model variations of an attribute that a task's or entity's own
    variator also varies: one of the two would silently overwrite the other."""
    if not variations:
        return
    model = env.physics.model
    task = env.task
    owners = [task] + list(task.root_entity.iter_entities())
    for owner in owners:
        for path, variator in _variators(owner):
            for element, attribute in variator.bound_attributes():
                kind = _SPEC_KINDS.get(type(element).__name__)
                if kind is None:
                    continue
                name = model.bind(element).name
                if (kind, name, attribute) in variations:
                    raise ValueError(
                        f"model_variations[{(kind, name, attribute)!r}] and {path} (a "
                        f"{type(variator).__name__}) both vary {kind} {name!r} {attribute}; "
                        "each would overwrite the other's values: keep one of them"
                    )


def _check_variation_value(value: np.ndarray, key: Tuple[str, str, str], index: int) -> None:
    kind, name, attribute = key
    if not np.all(np.isfinite(value)):
        raise ValueError(
            f"the model variation of {kind} {name!r} {attribute} drew {value} for copy {index}"
        )
    if attribute in _NON_NEGATIVE_ATTRIBUTES and np.any(value < 0):
        raise ValueError(
            f"the model variation of {kind} {name!r} {attribute} drew a negative value {value} for "
            f"copy {index}; MuJoCo needs {attribute} >= 0"
        )


def _substeps(env: environment_module.Environment) -> int:
    """Physics steps per control step of `env`: its `n_sub_steps` if given, else its
    task's `physics_steps_per_control_step` (what its own step takes)."""
    return env._n_substeps


def _vectorizable(envs: Iterable[environment_module.Environment]) -> bool:
    """True if every copy's task declares itself vectorised and nothing else runs per step."""
    return all(_vectorize_obstacle(env) is None for env in envs)


def _vectorize_obstacle(env: environment_module.Environment) -> Optional[str]:
    """What keeps a copy off the vectorised path (a phrase completing its task's
    name), or None if nothing does."""
    task = env.task
    if not task.vectorized:
        return "does not set composer.Task.vectorized (its callbacks are not vectorised)"
    if task.num_agents is not None:
        return f"has {task.num_agents} agents (multi-agent tasks run each copy's control step)"
    hooks = env.hooks
    # A `before_step` marked `only_writes_the_action` does what Task's does (the Control
    # Suite's, which also takes dm_control's argument order).
    own_before_step = entity_module.overrides(task, task_module.Task, "before_step") and not (
        getattr(type(task).before_step, "only_writes_the_action", False)
    )
    if own_before_step or env.has_substep_hooks:
        return "runs Python before each step or each substep (before_step or substep hooks)"
    if any(
        getattr(hook, "__self__", None) is not task
        for name in ("before_step", "after_step")
        for hook in hooks[name]
    ):
        return "has entities with before_step or after_step hooks"
    for name, observable in task.observables.items():
        if not observable.enabled:
            continue
        if not isinstance(
            observable, observable_module.Generic
        ) or not environment_module.plain_observable(observable):
            return f"has observable {name!r}, which is not a plain Generic observable"
    return None


class _SharedModel:
    """Every copy on the batch's one model, with the fields in which some copy's model
    differs from it expanded per copy (`mujoco.batch.Batch.expand`): N models'
    memory would otherwise cost small models more than their simulation.

    After each copy's reset its model is compared with the shared one over every
    array, option, statistic and size (`batch_fields.ModelReference`); the fields
    that differ are expanded (once, for all copies) and the copy's values written,
    so every copy runs on a model equal to its own, bit for bit.
    """

    def __init__(
        self, batch: mujoco.batch.Batch, model: mujoco.MjModel, hinted: Tuple[str, ...]
    ) -> None:
        self._batch = batch
        self.model = model
        self._reference = batch_fields.ModelReference(model)
        self._expanded: dict[str, np.ndarray] = {}
        for name in hinted:
            self._expanded[name] = batch.expand(name)

    def differences(self, model: mujoco.MjModel) -> Tuple[str, ...]:
        """The fields in which `model` differs from the shared model."""
        return self._reference.differences(model)

    @property
    def expanded_fields(self) -> Tuple[str, ...]:
        return tuple(self._expanded)

    @property
    def expanded_values(self) -> Mapping[str, np.ndarray]:
        """{field: (N, ...) per-copy values} of the expanded fields (live)."""
        return self._expanded

    def write(self, index: int, fields: Mapping[str, np.ndarray]) -> None:
        """Gives copy `index` these values of expandable fields."""
        for name, value in fields.items():
            if name not in self._expanded:
                self._expanded[name] = self._batch.expand(name)
            self._expanded[name][index] = value

    def rows_differ(self) -> np.ndarray:
        """(N,) bool: the copies whose expanded values differ from the shared model's."""
        differ = np.zeros(self._batch.nsim, dtype=bool)
        for name, values in self._expanded.items():
            shared = np.asarray(batch_fields.model_field(self.model, name))
            differ |= (values != shared).reshape(len(values), -1).any(axis=1)
        return differ

    def load(self, index: int, model: mujoco.MjModel) -> Tuple[str, ...]:
        """Copy `index` runs on `model` from its next step; returns the fields that
        cannot be held per copy in which `model` differs (then nothing is written)."""
        differences = self._reference.differences(model)
        blocked = tuple(name for name in differences if not batch_fields.cpu_expandable(name))
        if blocked:
            return blocked
        for name in differences:
            if name not in self._expanded:
                self._expanded[name] = self._batch.expand(name)
        for name, values in self._expanded.items():
            values[index] = batch_fields.model_field(model, name)
        return ()


def _data_layout(model: mujoco.MjModel) -> Tuple[Tuple[str, Tuple[int, ...]], ...]:
    """(name, shape) of every array of an MjData of `model`: what `mujoco.batch`
    needs to be equal between the models of one batch."""
    data = mujoco.MjData(model)
    return tuple(
        (name, np.shape(getattr(data, name)))
        for name in dir(data)
        if not name.startswith("_") and isinstance(getattr(data, name, None), np.ndarray)
    )


def _install(physics: Physics, model: mujoco.MjModel, data: mujoco.MjData) -> None:
    """Puts `model` and `data` under a copy's `physics` (its bindings and cached ids
    are resolved again, as after a recompile)."""
    physics._install(model, data)


def _hinted_fields(task: task_module.Task) -> Tuple[str, ...]:
    """The task's `batch_model_fields`, checked: fields to expand from the start."""
    fields = task.batch_model_fields
    if fields is None:
        return ()
    if isinstance(fields, str) or not all(isinstance(name, str) for name in fields):
        raise TypeError(
            f"{type(task).__name__}.batch_model_fields must be a tuple of field names, got {fields!r}"
        )
    unknown = sorted(set(fields) - set(mujoco.batch.MODEL_FIELDS))
    if unknown:
        raise ValueError(
            f"batch_model_fields names {unknown}, which mujoco.batch cannot give "
            "per-copy values (see mujoco.batch.MODEL_FIELDS)"
        )
    return tuple(fields)


class _BatchData:
    """The batch's live (N, ...) arrays of MjData fields, by attribute."""

    def __init__(self, batch: mujoco.batch.Batch) -> None:
        self._batch = batch

    def __getattr__(self, name: str) -> np.ndarray:
        # Called only for fields not bound yet: a bound field becomes an instance
        # attribute, which later lookups find without coming here.
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in mujoco.batch.DATA_FIELDS:
            raise AttributeError(
                f"a BatchPhysics' data has the (N, ...) fields of mujoco.batch.DATA_FIELDS; "
                f"{name!r} is not one (named views like data.body(...) do not batch: index arrays instead)"
            )
        value = self._batch.bind(name)
        setattr(self, name, value)
        return value


class _BatchModel:
    """Model fields of every copy, (N, ...) and read-only, from `per_copy(name)`
    (non-array attributes as it returns them), cached until `refresh`.

    Fields change when copies reset (tasks change model parameters then); the batch
    refreshes after resets.
    """

    def __init__(self, per_copy: Callable[[str], Any]) -> None:
        self._per_copy = per_copy
        self._cached: list[str] = []

    def refresh(self) -> None:
        for name in self._cached:
            delattr(self, name)
        self._cached = []

    def __getattr__(self, name: str) -> Any:
        # Called only for fields not cached since the last refresh: a cached field
        # becomes an instance attribute, which later lookups find without coming here.
        if name.startswith("_"):
            raise AttributeError(name)
        value = self._per_copy(name)
        if isinstance(value, np.ndarray):
            if value.flags.writeable:
                value.flags.writeable = False
            setattr(self, name, value)
            self._cached.append(name)
        return value


def batch_physics(
    template_physics: Physics, batch: mujoco.batch.Batch, models: Sequence[mujoco.MjModel]
) -> Physics:
    """The copies' Physics subclass over a whole batch: `data`/`model` give (N, ...) arrays.

    The result is an instance of `type(template_physics)` carrying the template's
    cached ids, so the domain's named quantities run unchanged on all copies at once
    when written with leading-axis-agnostic indexing (`self.data.qpos[..., i]`,
    `self.data.xmat[..., body_id, 8]`). Model fields are those of `models`, stacked;
    call `physics.model.refresh()` after those models change.
    """

    def stacked(name: str) -> Any:
        value = getattr(models[0], name)
        if isinstance(value, np.ndarray):
            return np.stack([getattr(model, name) for model in models])
        return value

    return template_physics.over_arrays(_BatchModel(stacked), _BatchData(batch))
