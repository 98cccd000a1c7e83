"""The MuJoCo Warp backend of `BatchEnvironment`: the copies' physics on one Warp model.

`BatchEnvironment(..., backend="warp", device=...)` keeps everything a CPU batch
does but who steps the physics: the copies are the `nworld = N` worlds of one
MuJoCo Warp model and data (`mujoco_warp.put_model` / `make_data`), stepped
together on the device (a CUDA graph replayed per control step on a GPU; plain
kernel launches on Warp's CPU device).

What runs where:
  * Resets run each ending copy's own Composer lifecycle on the CPU, exactly as on
    the CPU batch (so initial states equal a single environment's bit for bit); the
    copy's integration state row (qpos, qvel, act, ctrl, warm start, mocap, applied
    forces, time, ...) is then uploaded into its world, and MuJoCo Warp's position and
    velocity stages run so the world's derived quantities describe that state.
  * A control step writes the (N, A) controls into the worlds and runs the task's
    substeps as the single environment's `Physics.step` does (`step2`, then `step`
    for the remaining substeps, then `step1`, so positions, velocities and the
    sensors of those stages describe the state after the step).
  * Observations, reward, discount and termination are the task's vectorised
    functions (`composer.Task.vectorized`) on a batch Physics whose `data` fields
    are (N, ...) arrays of the Warp data (NumPy views on Warp's CPU device, host
    copies on a GPU), and whose `model` fields are the copies' (CPU) model values.
    With `array_module="jax"` they run on the device instead (`JaxStep`): over
    `wp.to_jax` views of the Warp data, traced once with `jax.jit`, with one (4, N)
    int32 array read back per step (ended, possibly diverged, overflowed, actions
    refused: `JaxStep.step`) for the episode bookkeeping; `WarpOptions.return_jax`
    returns the TimeSteps as JAX arrays.
  * Per-copy model values (model variations, a task's `batch_model_fields`) are the
    fields the CPU batch expands per copy (`composer_tasks.batch_fields`): each
    becomes a per-world MuJoCo Warp model field (`put_model(batch_sizes=...)`)
    holding every copy's own model value, derived fields included, so a world runs
    on its copy's model (in float32) as the CPU batch does; per-copy options
    (`opt.<name>`) become MuJoCo Warp's per-world options where it has them
    (`_batchable_options`); a field MuJoCo Warp cannot hold per world raises a
    ValueError naming it and the task.
  * Buffers: contacts and constraint rows per world are sized from the model (see
    `buffer_sizes`) or given (`WarpOptions`); after every step MuJoCo Warp's own
    per-world overflow flags (`Data.overflow`, `OverflowType`) are read (with the
    step's other flags on the JAX path) before its results are used, and a step
    that overflowed a buffer is redone with grown buffers or raises
    `WarpBufferOverflow` naming the buffer, the copies and the size to pass. An
    overflow never passes silently.
  * A world whose qpos, qvel or qacc turns non-finite (or beyond MuJoCo's 1e10)
    ends its copy's episode, or raises `PhysicsError("copy i: ...")`, with the
    message the CPU batch gives for MuJoCo's matching divergence warning.

MuJoCo Warp computes in float32 (and raises the solver tolerance to at least 1e-6):
a world agrees with its CPU copy to float32 accuracy, not bit for bit.
"""

import dataclasses
import functools
import logging
from typing import Any, Mapping, NamedTuple, Optional, Sequence, Tuple

import mujoco
import numpy as np

from composer_tasks.physics import MODEL_DOESNT_TRIGGER_DIRTY, PhysicsError, warning_error

# The overflow flags of MuJoCo Warp's `OverflowType` that mean a buffer was too small
# (contacts or constraint rows dropped); the solver's iteration limits are not.
_BUFFER_FLAGS = {
    1 << 0: "constraint rows (nefc > njmax)",
    1 << 1: "constraint Jacobian non-zeros (njmax_nnz)",
    1 << 2: "broadphase collision pairs (nconmax)",
    1 << 3: "contacts (nconmax)",
    1 << 4: "convex-collision contacts (nccdmax)",
    1 << 5: "height-field contacts",
    1 << 6: "contact-match sensor matches",
    1 << 7: "island degrees of freedom (nvmax)",
    1 << 8: "EPA horizon",
    1 << 11: "tactile sensor pairs",
}
_BUFFER_MASK = sum(_BUFFER_FLAGS)
# The flags a larger nconmax (contacts) or njmax (constraint rows) cures.
_CONTACT_FLAGS = (1 << 2) | (1 << 3) | (1 << 4)
_ROW_FLAGS = (1 << 0) | (1 << 1)
# Doublings of the buffers tried within one step before it raises.
_MAX_GROWTHS = 6
# MuJoCo's bound on a state value before it warns of divergence (mjMAXVAL).
_MAX_STATE_VALUE = 1e10
_ARRAY_MODULES = ("numpy", "jax")
_RK4 = int(mujoco.mjtIntegrator.mjINT_RK4)
_NUM_WARNINGS = int(mujoco.mjtWarning.mjNWARNING)
# The divergence warning MuJoCo raises for a bad value of each state field.
_DIVERGENCE_WARNINGS = (
    ("qpos", int(mujoco.mjtWarning.mjWARN_BADQPOS)),
    ("qvel", int(mujoco.mjtWarning.mjWARN_BADQVEL)),
    ("qacc", int(mujoco.mjtWarning.mjWARN_BADQACC)),
)
# Margin over the most contacts and constraint rows a CPU probe of the model saw.
_BUFFER_MARGIN = 4
_PROBE_STEPS = 200


_LOGGER = logging.getLogger(__name__)
# Model fields that move the geoms welded to the world.
_STATIC_POSE_FIELDS = frozenset({"geom_pos", "geom_quat", "body_pos", "body_quat"})


@functools.cache
def _batchable_fields() -> frozenset:
    """The MuJoCo Warp Model fields that can hold a value per world (array specs whose
    shape starts with '*')."""
    from mujoco_warp._src import types as warp_types
    from mujoco_warp._src import warp_util

    names = set()
    for field in dataclasses.fields(warp_types.Model):
        shape = getattr(field.type, "shape", ())
        if warp_util.is_array_spec(field.type) and shape and shape[0] == "*":
            names.add(field.name)
    return frozenset(names)


@functools.cache
def _batchable_options() -> dict:
    """{"opt.<MjOption field>": MuJoCo Warp Option field} of the options MuJoCo Warp
    can hold per world (its Option arrays whose shape starts with '*': timestep, the
    solver tolerances, gravity, wind, magnetic, density, viscosity and impratio, kept
    as 1 / sqrt(impratio))."""
    from mujoco_warp._src import types as warp_types
    from mujoco_warp._src import warp_util

    names = {}
    options = mujoco.MjModel.from_xml_string("<mujoco/>").opt
    for field in dataclasses.fields(warp_types.Option):
        shape = getattr(field.type, "shape", ())
        if warp_util.is_array_spec(field.type) and shape and shape[0] == "*":
            option = "impratio" if field.name == "impratio_invsqrt" else field.name
            # Only options held as MuJoCo holds them (or converted by
            # `_warp_option_values`): a Warp-only array has no per-copy source.
            if hasattr(options, option):
                names[f"opt.{option}"] = field.name
    return names


def _warp_option_values(name: str, values: np.ndarray) -> np.ndarray:
    """MjOption values (float64, one row per copy) as MuJoCo Warp's Option field of
    `name` holds them: `mujoco_warp.put_model` stores impratio as 1 / sqrt(impratio)
    (at least mjMINVAL) and raises the solver tolerance to at least 1e-6 (float32)."""
    values = np.asarray(values, dtype=np.float64)
    if name == "opt.impratio":
        return 1.0 / np.sqrt(np.maximum(values, mujoco.mjMINVAL))
    if name == "opt.tolerance":
        return np.maximum(values, _MIN_WARP_TOLERANCE)
    return values


# Fluid forces run in MuJoCo Warp only where the model it was made from has some.
_FLUID_OPTIONS = frozenset({"opt.wind", "opt.density", "opt.viscosity"})
# `mujoco_warp.put_model`'s floor on the solver tolerance.
_MIN_WARP_TOLERANCE = 1e-6


def _simulated(name: str) -> bool:
    """False for a model field that changes only what is drawn (a site's colour) and
    that MuJoCo Warp holds no per-world copy of: the worlds run without it (the batch
    Physics' model still reads each copy's own values)."""
    return name in _batchable_fields() or name.partition("_")[2] not in MODEL_DOESNT_TRIGGER_DIRTY


_RESTORE_KERNEL: list = []


def _restore_entries_kernel() -> Any:
    """A Warp kernel over (world, i): target[world, entries[i]] = source[world, entries[i]]
    (made on first use: Warp is imported only by the Warp backend)."""
    if not _RESTORE_KERNEL:
        import warp as wp

        @wp.kernel
        def restore_entries(
            entries: wp.array(dtype=wp.int32),  # type: ignore[valid-type]
            source: wp.array2d(dtype=wp.float32),  # type: ignore[valid-type]
            target: wp.array2d(dtype=wp.float32),  # type: ignore[valid-type]
        ) -> None:
            world, position = wp.tid()  # pyright: ignore
            entry = entries[position]
            target[world, entry] = source[world, entry]

        _RESTORE_KERNEL.append(restore_entries)
    return _RESTORE_KERNEL[0]


_SCATTER_KERNEL: list = []


def _scatter_rows_kernel() -> Any:
    """A generic Warp kernel over (i, entry): target[rows[i], entry] = source[i, entry]
    (made on first use, as `_restore_entries_kernel`)."""
    if not _SCATTER_KERNEL:
        import warp as wp

        @wp.kernel
        def scatter_rows(
            rows: wp.array(dtype=wp.int32),  # type: ignore[valid-type]
            source: wp.array2d(dtype=Any),  # type: ignore[valid-type]
            target: wp.array2d(dtype=Any),  # type: ignore[valid-type]
        ) -> None:
            position, entry = wp.tid()  # pyright: ignore
            target[rows[position], entry] = source[position, entry]

        _SCATTER_KERNEL.append(scatter_rows)
    return _SCATTER_KERNEL[0]


def _rotation_matrices(quaternions: np.ndarray) -> np.ndarray:
    """(..., 3, 3) rotation matrices of unit quaternions (..., 4) in MuJoCo's (w, x, y, z)."""
    w, x, y, z = np.moveaxis(quaternions, -1, 0)
    return np.stack(
        [
            np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
            np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
            np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
        ],
        -2,
    )


class WarpBufferOverflow(RuntimeError):
    """A MuJoCo Warp step overflowed a contact or constraint buffer of some worlds."""


@dataclasses.dataclass(frozen=True)
class WarpOptions:
    """Settings of the Warp backend (`BatchEnvironment(backend=WarpOptions(...))`).

    Attributes:
      device: Warp device ("cuda:0", "cpu", ...); None: the first CUDA device if
        Warp finds one, else "cpu".
      nconmax: contacts allocated per world; None: sized from the model
        (`buffer_sizes`).
      njmax: constraint rows allocated per world; None: sized from the model.
      array_module: "numpy" (the task's functions read NumPy arrays) or "jax"
        (JAX arrays sharing the Warp data's memory, `wp.to_jax`; the task's
        functions must then accept JAX arrays).
      grow_buffers: True: a step that overflows the contact or constraint buffers
        is redone from its starting state with those buffers doubled (logged);
        False: it raises `WarpBufferOverflow`.
      return_jax: with array_module "jax": True makes `step` and `reset` return the
        TimeStep's arrays (step types, rewards, discounts, observations) as JAX
        arrays on the device; False (the default) returns NumPy arrays, as the CPU
        batch does. With array_module "jax" the observations and outcome are
        computed on the device either way (`JaxStep`).
    """

    device: Optional[str] = None
    nconmax: Optional[int] = None
    njmax: Optional[int] = None
    array_module: str = "numpy"
    grow_buffers: bool = True
    return_jax: bool = False

    def __post_init__(self) -> None:
        if self.device is not None and not isinstance(self.device, str):
            raise TypeError(f"WarpOptions.device must be a str or None, got {self.device!r}")
        for name in ("nconmax", "njmax"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1
            ):
                raise ValueError(
                    f"WarpOptions.{name} must be an integer >= 1 or None, got {value!r}"
                )
        if self.array_module not in _ARRAY_MODULES:
            raise ValueError(
                f"WarpOptions.array_module must be one of {_ARRAY_MODULES}, got {self.array_module!r}"
            )
        if self.return_jax and self.array_module != "jax":
            raise ValueError(
                "WarpOptions.return_jax=True needs array_module='jax' (the observations and "
                f"outcome are computed on the device only then), got {self.array_module!r}"
            )


def resolve_backend(backend: Any, device: Optional[str]) -> Optional[WarpOptions]:
    """The Warp options a `BatchEnvironment(backend=..., device=...)` asks for, or None
    for the CPU batch."""
    if isinstance(backend, WarpOptions):
        return backend if device is None else dataclasses.replace(backend, device=device)
    if backend == "cpu":
        if device is not None:
            raise ValueError(
                f"device={device!r} is for backend='warp'; the CPU batch runs on CPU threads "
                "(num_threads)"
            )
        return None
    if backend == "warp":
        return WarpOptions(device=device)
    raise ValueError(f"backend must be 'cpu', 'warp' or a WarpOptions, got {backend!r}")


def _import_warp() -> Tuple[Any, Any]:
    try:
        import mujoco_warp
        import warp
    except ImportError as error:
        raise ImportError(
            "backend='warp' needs MuJoCo Warp: pip install 'composer_tasks[gpu]' "
            f"(mujoco-warp and warp-lang) ({error})"
        ) from error
    return warp, mujoco_warp


def buffer_sizes(model: mujoco.MjModel, data: mujoco.MjData) -> Tuple[int, int]:
    """(nconmax, njmax) per world for `model`: `_BUFFER_MARGIN` times the most
    contacts and constraint rows a CPU rollout of `_PROBE_STEPS` physics steps from
    `data`'s state with zero controls reached, and at least MuJoCo Warp's own
    defaults for the model. `data` is left unchanged."""
    _, mujoco_warp = _import_warp()
    probe = mujoco.MjData(model)
    mujoco.mj_copyData(probe, model, data)
    probe.ctrl[:] = 0.0
    most_contacts, most_rows = probe.ncon, probe.nefc
    for _ in range(_PROBE_STEPS):
        mujoco.mj_step(model, probe)
        if not (np.all(np.isfinite(probe.qpos)) and np.all(np.isfinite(probe.qvel))):
            break
        most_contacts = max(most_contacts, probe.ncon)
        most_rows = max(most_rows, probe.nefc)
    io = mujoco_warp._src.io
    nconmax = max(io._default_nconmax(model), _BUFFER_MARGIN * most_contacts)
    njmax = max(io._default_njmax(model), _BUFFER_MARGIN * most_rows)
    return int(nconmax), int(njmax)


class WarpData:
    """The Warp data's (N, ...) fields by MjData name, shaped as a CPU batch's
    (`mujoco.batch` rows: `xmat` (N, nbody, 9), `xquat` (N, nbody, 4), ...).

    On Warp's CPU device a field is a NumPy view of the Warp array (live); on a GPU
    a host copy made at first read after each step. With `array_module="jax"`,
    fields are JAX arrays over the Warp arrays' memory (`wp.to_jax`).
    """

    def __init__(self, simulation: "WarpSimulation") -> None:
        self._simulation = simulation
        self._cached: list[str] = []

    def refresh(self, arrays_replaced: bool = False) -> None:
        """Drops the fields read so far where they are host copies (after a step),
        or all of them once the Warp arrays were replaced (grown buffers)."""
        if self._simulation.live_views and not arrays_replaced:
            return
        for name in self._cached:
            delattr(self, name)
        self._cached = []

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        value = self._simulation.field(name)
        setattr(self, name, value)
        self._cached.append(name)
        return value


class WarpSimulation:
    """One MuJoCo Warp model and data holding a batch's N copies as worlds.

    Args:
      model: the batch's shared model (copy 0's as built).
      data: an MjData of `model` at an initial state (for sizing the buffers).
      num_envs: N, the number of worlds.
      nstep: physics substeps per control step.
      per_world_fields: MjModel field names to hold per world from the start.
      options: `WarpOptions`.
      task_name: the task's class name, for error messages.
    """

    def __init__(
        self,
        model: mujoco.MjModel,
        data: mujoco.MjData,
        num_envs: int,
        nstep: int,
        per_world_fields: Sequence[str],
        options: WarpOptions,
        task_name: str,
    ) -> None:
        self._wp, self._mjw = _import_warp()
        wp = self._wp
        self._options = options
        self._task_name = task_name
        self._num_envs = num_envs
        self._nstep = int(nstep)
        self._host_model = model
        self._template = mujoco.MjData(model)
        if options.device is None:
            self.device = wp.get_device("cuda:0" if wp.is_cuda_available() else "cpu")
        else:
            try:
                self.device = wp.get_device(options.device)
            except (RuntimeError, ValueError) as error:
                raise ValueError(f"Warp has no device {options.device!r}: {error}") from None
        self.live_views = self.device.is_cpu and options.array_module == "numpy"
        nconmax, njmax = buffer_sizes(model, data)
        self.nconmax = int(options.nconmax) if options.nconmax is not None else nconmax
        self.njmax = int(options.njmax) if options.njmax is not None else njmax
        self._per_world: Tuple[str, ...] = ()
        # The geoms welded to the world (not under a mocap body), whose poses MuJoCo
        # Warp computes only when the data is made, and their bodies.
        geom_bodies = model.geom_bodyid
        static = (model.body_weldid[geom_bodies] == 0) & (
            model.body_mocapid[model.body_rootid[geom_bodies]] == -1
        )
        self._static_geoms = np.flatnonzero(static)
        self._static_geom_bodies = geom_bodies[self._static_geoms]
        # The sensordata entries of the acceleration-stage sensors (see `_step1`).
        acc = np.flatnonzero(model.sensor_needstage == int(mujoco.mjtStage.mjSTAGE_ACC))
        entries = [
            index
            for sensor in acc
            for index in range(
                model.sensor_adr[sensor], model.sensor_adr[sensor] + model.sensor_dim[sensor]
            )
        ]
        self._acc_sensor_entries: Any = None
        self._kept_sensordata: Any = None
        if entries:
            self._acc_sensor_entries = wp.array(
                np.array(entries, dtype=np.int32), dtype=wp.int32, device=self.device
            )
        with wp.ScopedDevice(self.device):
            self._build_model(tuple(filter(_simulated, per_world_fields)))
            self.data_arrays = self._mjw.make_data(
                model, nworld=num_envs, nconmax=self.nconmax, njmax=self.njmax
            )
        self._check_state_fields()
        self._graph: Any = None
        # The integration state's fields (set by the first upload) and their values
        # at the start of the last step, from which a step that overflowed is redone.
        self._state_names: Tuple[str, ...] = ()
        self._saved: dict[str, Any] = {}
        self.data = WarpData(self)

    # Model.

    def _build_model(self, per_world: Tuple[str, ...]) -> None:
        batchable, options = _batchable_fields(), _batchable_options()
        blocked = [name for name in per_world if name not in batchable and name not in options]
        if blocked:
            raise ValueError(
                f"{self._task_name}: the copies' models differ in {blocked}, which MuJoCo Warp "
                "cannot hold per world (its per-world model fields are the Model arrays whose "
                f"shape starts with '*' and the options {sorted(options)}); use backend='cpu' "
                "for this task or these variations"
            )
        self.model_arrays = self._mjw.put_model(
            self._host_model,
            batch_sizes={name: self._num_envs for name in per_world if name in batchable},
        )
        opt = self.model_arrays.opt
        for name in per_world:
            if name in options:
                # put_model makes each option array with one row shared by the worlds
                # (MuJoCo Warp indexes them by world modulo their length): N rows here.
                shared = getattr(opt, options[name])
                rows = np.repeat(shared.numpy(), self._num_envs, axis=0)
                setattr(
                    opt, options[name], self._wp.array(rows, dtype=shared.dtype, device=self.device)
                )
        if _FLUID_OPTIONS.intersection(per_world):
            # Some copy may have fluid forces where copy 0 has none; a world with zero
            # wind, density and viscosity gets zero fluid force.
            self.model_arrays.has_fluid = True
        # Overflows are read from `Data.overflow` after each step (`check`), not printed.
        opt.warn_overflow = 0
        self._per_world = per_world
        self._graph = None
        self._static_poses_vary = bool(_STATIC_POSE_FIELDS.intersection(per_world))

    def write_model_fields(self, fields: Mapping[str, np.ndarray]) -> None:
        """Gives every world its copy's values of these MjModel fields and MjModel
        options (`opt.<name>`) ((N, ...) each, as the CPU batch expands them); a field
        not yet per world rebuilds the Warp model with it per world."""
        fields = {name: rows for name, rows in fields.items() if _simulated(name)}
        missing = tuple(name for name in fields if name not in self._per_world)
        if missing:
            with self._wp.ScopedDevice(self.device):
                self._build_model(self._per_world + missing)
        options = _batchable_options()
        for name, rows in fields.items():
            if name in options:
                array = getattr(self.model_arrays.opt, options[name])
                rows = _warp_option_values(name, rows)
            else:
                array = getattr(self.model_arrays, name)
            # The array's shape as NumPy sees it, known without reading it back.
            shape = tuple(array.shape) + tuple(getattr(array.dtype, "_shape_", ()))
            scalar = getattr(array.dtype, "_wp_scalar_type_", array.dtype)
            values = np.asarray(rows)
            if values.size != int(np.prod(shape)):
                raise ValueError(
                    f"{self._task_name}: MuJoCo Warp's per-world {name} holds "
                    f"{int(np.prod(shape))} values for {self._num_envs} worlds, the copies' "
                    f"models {values.size}"
                )
            array.assign(values.reshape(shape).astype(self._wp.dtype_to_numpy(scalar), copy=False))

    # State.

    def _check_state_fields(self) -> None:
        for name in ("plugin_state",):
            if getattr(self._template, name).size:
                raise ValueError(
                    f"{self._task_name}: the model has a nonzero MjData.{name}, which the Warp "
                    "backend does not carry; use backend='cpu'"
                )

    def upload(self, state: Mapping[str, np.ndarray], rows: Optional[np.ndarray]) -> None:
        """Writes the integration state of worlds `rows` (None: all) from the CPU
        batch's (N, ...) state rows `state`, reading nothing back from the device
        (the rows go up and are scattered into their worlds by a kernel)."""
        wp = self._wp
        if not self._state_names:
            self._state_names = tuple(name for name in state if name != "plugin_state")
        index = None
        if rows is not None:
            index = wp.array(np.asarray(rows, dtype=np.int32), dtype=wp.int32, device=self.device)
        for name, values in state.items():
            if name == "plugin_state":
                continue
            flat = self._world_rows(getattr(self.data_arrays, name))
            source = np.asarray(values if rows is None else values[rows])
            converted = np.ascontiguousarray(
                source.reshape(len(source), -1), dtype=wp.dtype_to_numpy(flat.dtype)
            )
            if converted.shape[1] != flat.shape[1]:
                raise ValueError(
                    f"{self._task_name}: MuJoCo Warp's {name} holds {flat.shape[1]} values per "
                    f"world, the copies' state {converted.shape[1]}"
                )
            if not converted.shape[1]:
                continue
            if index is None:
                flat.assign(converted)
            else:
                wp.launch(
                    _scatter_rows_kernel(),
                    dim=converted.shape,
                    inputs=[index, wp.array(converted, dtype=flat.dtype, device=self.device)],
                    outputs=[flat],
                    device=self.device,
                )

    def _world_rows(self, array: Any) -> Any:
        """A (N, values per world) Warp array of scalars sharing the memory of the
        world-major Warp data array `array` (of scalars, vectors or quaternions)."""
        if not array.is_contiguous:
            raise RuntimeError(f"MuJoCo Warp's data array {array.shape} is not contiguous")
        scalar = getattr(array.dtype, "_wp_scalar_type_", array.dtype)
        width = int(np.prod(array.shape[1:], dtype=np.int64)) * self._wp.types.type_size(
            array.dtype
        )
        if not width:
            return self._wp.zeros((array.shape[0], 0), dtype=scalar, device=self.device)
        return self._wp.array(
            ptr=array.ptr, dtype=scalar, shape=(array.shape[0], width), device=self.device
        )

    def forward_positions(self) -> None:
        """Runs the position and velocity stages in every world (`step1`): after an
        upload, the derived quantities describe the uploaded state."""
        with self._wp.ScopedDevice(self.device):
            self._step1(self.data_arrays)
        if self._static_poses_vary:
            self._place_static_geoms()
        self.data.refresh()

    def _step1(self, data: Any) -> None:
        """MuJoCo Warp's `step1` (position and velocity stages) keeping the values of
        the acceleration-stage sensors (touch, accelerometer, force, ...), which its
        `step1` zeroes and MuJoCo's `mj_step1` leaves as the last step computed them."""
        if self._acc_sensor_entries is None:
            self._mjw.step1(self.model_arrays, data)
            return
        if self._kept_sensordata is None or self._kept_sensordata.shape != data.sensordata.shape:
            self._kept_sensordata = self._wp.empty_like(data.sensordata)
        self._wp.copy(self._kept_sensordata, data.sensordata)
        self._mjw.step1(self.model_arrays, data)
        self._wp.launch(
            _restore_entries_kernel(),
            dim=(self._num_envs, self._acc_sensor_entries.shape[0]),
            inputs=[self._acc_sensor_entries, self._kept_sensordata],
            outputs=[data.sensordata],
        )

    def _place_static_geoms(self) -> None:
        """Recomputes the poses of the geoms welded to the world in every world.

        MuJoCo Warp computes those once, when the data is made, from the shared
        model, and its kinematics never updates them; where the copies' geom or body
        poses differ, each world's are computed here from its own model values (in
        float64, stored in float32)."""
        if not self._static_geoms.size:
            return
        data = self.data_arrays
        bodies = self._static_geom_bodies
        xpos = data.xpos.numpy()[:, bodies].astype(np.float64)
        xmat = data.xmat.numpy()[:, bodies].astype(np.float64)
        shape = (self._num_envs, len(self._static_geoms))
        geom_pos = np.broadcast_to(
            self.model_arrays.geom_pos.numpy()[:, self._static_geoms], shape + (3,)
        ).astype(np.float64)
        geom_quat = np.broadcast_to(
            self.model_arrays.geom_quat.numpy()[:, self._static_geoms], shape + (4,)
        ).astype(np.float64)
        geom_xpos = data.geom_xpos.numpy()
        geom_xmat = data.geom_xmat.numpy()
        geom_xpos[:, self._static_geoms] = xpos + np.einsum("wgij,wgj->wgi", xmat, geom_pos)
        geom_xmat[:, self._static_geoms] = np.einsum(
            "wgij,wgjk->wgik", xmat, _rotation_matrices(geom_quat)
        )
        if not self.device.is_cpu:
            data.geom_xpos.assign(geom_xpos)
            data.geom_xmat.assign(geom_xmat)

    def write_ctrl(self, actions: Any) -> None:
        """Writes the (N, nu) controls of every world: a NumPy array through the host,
        a JAX array (`JaxActions`' float32 rows) from its device memory (`wp.from_jax`,
        DLPack; a copy between devices only where JAX and Warp use different ones)."""
        ctrl = self.data_arrays.ctrl
        if is_jax_array(actions):
            if tuple(actions.shape) != tuple(ctrl.shape) or actions.dtype != np.float32:
                raise ValueError(
                    f"{self._task_name}: the JAX controls are {actions.dtype} "
                    f"{tuple(actions.shape)}; the worlds' ctrl is float32 {tuple(ctrl.shape)}"
                )
            # Warp reads the buffer on its own stream: JAX must have finished writing it.
            actions.block_until_ready()
            self._wp.copy(ctrl, self._wp.from_jax(actions, dtype=self._wp.float32))
            return
        if self.device.is_cpu:
            ctrl.numpy()[...] = actions
        else:
            ctrl.assign(np.asarray(actions, dtype=np.float32))

    def _substeps(self, data: Any) -> None:
        model = self.model_arrays
        for name, saved in self._saved.items():
            self._wp.copy(saved, getattr(data, name))
        data.overflow.zero_()
        if int(self._host_model.opt.integrator) == _RK4:
            for _ in range(self._nstep):
                self._mjw.step(model, data)
        else:
            self._mjw.step2(model, data)
            for _ in range(self._nstep - 1):
                self._mjw.step(model, data)
        self._step1(data)

    def step(self, skip: Optional[np.ndarray] = None) -> None:
        """Advances every world one control step (`nstep` substeps), then reads the
        worlds' overflow flags back.

        A step that overflowed a contact or constraint buffer in a world not in
        `skip` (worlds whose results are discarded) is redone from its starting
        state with the overflowed buffers doubled, or raises `WarpBufferOverflow`
        (`WarpOptions.grow_buffers`).
        """
        self.launch()
        for growth in range(_MAX_GROWTHS + 1):
            if not self.redo_overflowed(self.data_arrays.overflow.numpy(), skip, growth):
                break

    def launch(self) -> None:
        """Advances every world one control step and reads nothing back: the caller
        must pass the worlds' overflow flags (`data_arrays.overflow`, read after the
        step) to `redo_overflowed` before using the step's results."""
        if not self._saved:
            names = self._state_names
            if self._acc_sensor_entries is not None:
                # A step refused after it ran (`roll_back`) leaves the acceleration-stage
                # sensors as the last accepted step computed them.
                names += ("sensordata",)
            self._saved = {
                name: self._wp.empty_like(getattr(self.data_arrays, name)) for name in names
            }
        self._launch()
        self.data.refresh()

    def redo_overflowed(
        self, overflow: np.ndarray, skip: Optional[np.ndarray], growth: int
    ) -> bool:
        """After `launch`: given the (N,) overflow flags the step left (`Data.overflow`,
        read back), False if no world outside `skip` overflowed a buffer; else the
        step is redone from its starting state with the overflowed buffers doubled
        (True; `growth` counts the redos of this step so far), or `WarpBufferOverflow`
        is raised (`WarpOptions.grow_buffers`, or `_MAX_GROWTHS` redos reached)."""
        overflow = np.asarray(overflow).astype(np.int64) & _BUFFER_MASK
        if skip is not None:
            overflow[skip] = 0
        overflowed = np.flatnonzero(overflow)
        if not len(overflowed):
            return False
        self._grow(
            int(np.bitwise_or.reduce(overflow[overflowed])), overflowed, growth == _MAX_GROWTHS
        )
        self._launch()
        self.data.refresh()
        return True

    def roll_back(self) -> None:
        """Returns every world to the state the last step started from (a step whose
        actions were refused after it ran, `JaxStep`), with its derived quantities."""
        with self._wp.ScopedDevice(self.device):
            for name, saved in self._saved.items():
                self._wp.copy(getattr(self.data_arrays, name), saved)
            self._step1(self.data_arrays)
        self.data.refresh()

    def _launch(self) -> None:
        wp = self._wp
        with wp.ScopedDevice(self.device):
            if self.device.is_cuda:
                if self._graph is None:
                    # The kernels compile on a throwaway data of the same sizes first
                    # (a capture cannot compile on drivers before CUDA 12.3).
                    self._substeps(
                        self._mjw.make_data(
                            self._host_model,
                            nworld=self._num_envs,
                            nconmax=self.nconmax,
                            njmax=self.njmax,
                        )
                    )
                    with wp.ScopedCapture() as capture:
                        self._substeps(self.data_arrays)
                    self._graph = capture.graph
                wp.capture_launch(self._graph)
            else:
                self._substeps(self.data_arrays)

    def _grow(self, flags: int, overflowed: np.ndarray, last: bool) -> None:
        """Doubles the overflowed buffers (or raises) and returns every world to the
        state the step started from."""
        buffers = [text for bit, text in _BUFFER_FLAGS.items() if flags & bit]
        message = (
            f"{self._task_name}: MuJoCo Warp ran out of {', '.join(buffers)} in copies "
            f"{overflowed[:10].tolist()}{' ...' if len(overflowed) > 10 else ''} "
            f"(nconmax={self.nconmax}, njmax={self.njmax} per world)"
        )
        growable = flags & (_CONTACT_FLAGS | _ROW_FLAGS)
        if not self._options.grow_buffers or flags & ~growable or last:
            raise WarpBufferOverflow(
                f"{message}; the step's results are incomplete. Build the batch with larger "
                f"buffers, e.g. backend=WarpOptions(nconmax={2 * self.nconmax}, "
                f"njmax={2 * self.njmax})"
            )
        nconmax = self.nconmax * (2 if flags & _CONTACT_FLAGS else 1)
        njmax = self.njmax * (2 if flags & _ROW_FLAGS else 1)
        _LOGGER.warning("%s; redoing the step with nconmax=%d, njmax=%d", message, nconmax, njmax)
        previous = self.data_arrays
        with self._wp.ScopedDevice(self.device):
            grown = self._mjw.make_data(
                self._host_model, nworld=self._num_envs, nconmax=nconmax, njmax=njmax
            )
            for name, saved in self._saved.items():
                self._wp.copy(getattr(grown, name), saved)
            for name in ("geom_xpos", "geom_xmat"):
                self._wp.copy(getattr(grown, name), getattr(previous, name))
            self._step1(grown)
        self.data_arrays = grown
        self.nconmax, self.njmax = nconmax, njmax
        self._saved = {name: self._wp.empty_like(getattr(grown, name)) for name in self._saved}
        self._graph = None
        self.data.refresh(arrays_replaced=True)

    def device_overflow(self) -> Any:
        """The (N,) int32 overflow flags of the last step (`Data.overflow`), as a JAX
        array over the Warp array's memory (read nothing)."""
        return self._wp.to_jax(self.data_arrays.overflow)

    def time(self) -> np.ndarray:
        return np.array(self.data_arrays.time.numpy(), dtype=np.float64)

    def check(
        self,
        skip: Optional[np.ndarray],
        start_s: Optional[np.ndarray],
        suspects: Optional[np.ndarray] = None,
    ) -> dict[int, PhysicsError]:
        """After a step that started at times `start_s` (N,; None: read from the
        state saved at the step's start): {copy: PhysicsError} of the worlds not in
        `skip` whose state diverged (MuJoCo's warning text for its matching warning,
        as the CPU batch reports it). `suspects`: (N,) bools, the only worlds that
        may have diverged (computed on the device, `JaxStep`); none: no host read."""
        considered = np.ones(self._num_envs, dtype=bool)
        if suspects is not None:
            if not np.count_nonzero(suspects):
                return {}
            considered &= suspects
        if skip is not None:
            considered[skip] = False
        if start_s is None:
            start_s = np.array(self._saved["time"].numpy(), dtype=np.float64)
        bad = np.zeros(self._num_envs, dtype=bool)
        first_field = np.full(self._num_envs, -1)
        first_entry = np.zeros(self._num_envs, dtype=np.int64)
        for position, (name, _) in enumerate(_DIVERGENCE_WARNINGS):
            values = (
                self.field(name) if self.live_views else getattr(self.data_arrays, name).numpy()
            )
            values = np.asarray(values).reshape(self._num_envs, -1)
            if not values.shape[1]:
                continue
            wrong = ~(np.abs(values) <= _MAX_STATE_VALUE)
            rows = wrong.any(axis=1) & ~bad & considered
            first_field[rows] = position
            first_entry[rows] = np.argmax(wrong[rows], axis=1)
            bad |= rows
        errors = {}
        for index in np.flatnonzero(bad):
            numbers = np.zeros(_NUM_WARNINGS, dtype=np.int64)
            lastinfo = np.zeros(_NUM_WARNINGS, dtype=np.int64)
            warning = _DIVERGENCE_WARNINGS[first_field[index]][1]
            numbers[warning] = 1
            lastinfo[warning] = first_entry[index]
            errors[int(index)] = warning_error(numbers, lastinfo, float(start_s[index]))
        return errors

    # Reading.

    def field(self, name: str) -> Any:
        """Data field `name` of every world, (N,) + the MjData field's shape."""
        expected = getattr(self._template, name, None)
        if isinstance(expected, float):  # MjData.time
            expected = np.zeros(())
        array = getattr(self.data_arrays, name, None)
        if not isinstance(expected, np.ndarray) or array is None or not hasattr(array, "numpy"):
            raise AttributeError(
                f"the Warp backend's batch data has the (N, ...) MjData fields MuJoCo Warp keeps "
                f"per world; {name!r} is not one (contacts and constraint rows are not per world)"
            )
        shape = (self._num_envs,) + expected.shape
        if self._options.array_module == "jax":
            return self._wp.to_jax(array).reshape(shape)
        host = array.numpy()
        if host.size != int(np.prod(shape)):
            raise AttributeError(
                f"MuJoCo Warp's {name} has {host.size} values for {self._num_envs} worlds, not "
                f"the MjData field's {expected.size} per world"
            )
        host = host.reshape(shape)
        host.flags.writeable = False
        return host


def is_jax_array(value: Any) -> bool:
    """Whether `value` is a JAX array (imports nothing: JAX may be absent)."""
    return type(value).__module__.startswith(("jax", "jaxlib")) and hasattr(value, "__dlpack__")


class JaxActions:
    """Checks (N, *action_shape) JAX actions on their device, by the NumPy path's rule,
    and gives their float32 (N, A) rows for the worlds' ctrl (`BatchEnvironment.step`
    with a JAX array on the Warp backend).

    The NumPy path casts the actions to the spec's dtype and refuses a batch with an
    entry that is not finite or lies outside [minimum, maximum]. Here the comparison
    runs in the spec's dtype where JAX has it (float64 needs `jax_enable_x64`), else
    in float32 against the spec's bounds rounded inward to float32: a float32 value
    lies within a bound rounded inward exactly when it lies within the bound itself,
    so both paths accept and refuse the same actions. What comes back to the host is
    one scalar, whether any entry failed: read at once (`__call__`), or with the step's
    flags after the worlds stepped (`check`, then `JaxStep.step`, which rolls the
    worlds back on a refusal); the caller then reads the actions back to name the copy
    with the NumPy path's message.

    Args:
      spec: the bounded action spec of one copy.
      num_envs: N.
    """

    def __init__(self, spec: Any, num_envs: int) -> None:
        import jax
        import jax.numpy as jnp

        self._jax = jax
        dtype = np.dtype(jax.dtypes.canonicalize_dtype(spec.dtype))
        shape = tuple(spec.shape)
        minimum = np.broadcast_to(np.asarray(spec.minimum, np.float64), shape)
        maximum = np.broadcast_to(np.asarray(spec.maximum, np.float64), shape)
        low, high = minimum.astype(dtype), maximum.astype(dtype)
        low = np.where(low.astype(np.float64) < minimum, np.nextafter(low, dtype.type(np.inf)), low)
        high = np.where(
            high.astype(np.float64) > maximum, np.nextafter(high, dtype.type(-np.inf)), high
        )
        bounds = (jnp.asarray(low, dtype), jnp.asarray(high, dtype))

        def check(actions: Any) -> Tuple[Any, Any]:
            values = actions.astype(dtype)
            inside = jnp.isfinite(values) & (values >= bounds[0]) & (values <= bounds[1])
            return values.reshape(num_envs, -1).astype(jnp.float32), ~jnp.all(inside)

        self._check = jax.jit(check)

    def __call__(self, actions: Any) -> Tuple[Any, bool]:
        """(the float32 (N, A) rows, whether some entry is not finite or out of bounds)."""
        rows, refused = self._check(actions)
        return rows, bool(self._jax.device_get(refused))

    def check(self, actions: Any) -> Tuple[Any, Any]:
        """(the float32 (N, A) rows, a JAX bool scalar: whether some entry is not
        finite or out of bounds), reading nothing back (`JaxStep.step` reads it with
        the step's flags)."""
        return self._check(actions)


class _RecordedFields:
    """Fields by name from `lookup`, recording the names of the array fields read
    (the eager first evaluation that tells which fields the task's functions need)."""

    def __init__(self, lookup: Any, convert: Any) -> None:
        self._lookup = lookup
        self._convert = convert
        self._read: dict[str, None] = {}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        value = self._lookup(name)
        if _is_array(value):
            self._read[name] = None
            value = self._convert(value)
        return value


class _TracedFields:
    """The traced (N, ...) arrays given by name, and the non-array attributes of
    `lookup` (opt, named accessors, sizes)."""

    def __init__(self, arrays: Mapping[str, Any], lookup: Any, kind: str) -> None:
        self._arrays = arrays
        self._lookup = lookup
        self._kind = kind

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._arrays:
            return self._arrays[name]
        value = self._lookup(name)
        if _is_array(value):
            raise AttributeError(
                f"{self._kind}.{name} was not read when the task's functions ran eagerly, "
                "so it is not an input of the traced step (a function that reads different "
                "fields from step to step cannot be traced)"
            )
        return value


def _is_array(value: Any) -> bool:
    return (
        isinstance(value, np.ndarray)
        or hasattr(value, "__jax_array__")
        or (type(value).__module__.startswith("jax"))
    )


class JaxStep:
    """A batch's observations and outcome computed as JAX over the Warp data, traced
    once with `jax.jit` (`WarpOptions(array_module="jax")`).

    The task's functions (each enabled observable's `raw_callable` and the outcome
    rule) run first eagerly on JAX arrays, which records the data and model fields
    they read; then one function of those fields (the (N, ...) `wp.to_jax` views of
    the Warp data, the copies' model values uploaded once per reset) is traced with
    `jax.jit`. A function that cannot be traced (a Python branch on an array value,
    a host conversion) is named in one log line and runs eagerly on JAX arrays each
    step; the others stay in the jitted function.

    Args:
      template: copy 0's Physics (its `over_arrays` keeps its cached ids).
      model: the batch's per-copy model fields by attribute ((N, ...) NumPy arrays,
        non-array attributes as MjModel's).
      simulation: the `WarpSimulation` whose data the functions read.
      observation_functions: (name, raw_callable) of the enabled observables.
      outcome: the outcome rule, `outcome(physics) -> (reward, terminated, discount)`.
      num_envs: N.
    """

    def __init__(
        self,
        template: Any,
        model: Any,
        simulation: "WarpSimulation",
        observation_functions: Sequence[Tuple[str, Any]],
        outcome: Any,
        num_envs: int,
    ) -> None:
        import jax
        import jax.numpy as jnp

        self._jax, self._jnp = jax, jnp
        self._template = template
        self._model = model
        self._simulation = simulation
        self._num_envs = num_envs
        self._pieces: dict[str, Any] = dict(observation_functions)
        self._observation_names = tuple(name for name, _ in observation_functions)
        self._pieces[_OUTCOME] = outcome
        self._data_names: Tuple[str, ...] = ()
        self._model_names: Tuple[str, ...] = ()
        self._model_values: Optional[dict[str, Any]] = None
        self._traced: Any = None
        self._eager: Tuple[str, ...] = ()
        self._pack = jax.jit(functools.partial(_pack_flags, jnp))
        self._accepted = jnp.zeros((), bool)

    def invalidate_model(self) -> None:
        """The copies' model values changed (resets): upload them again at next use."""
        self._model_values = None

    def _model_inputs(self) -> dict[str, Any]:
        if self._model_values is None:
            self._model_values = {
                name: self._jnp.asarray(np.asarray(getattr(self._model, name)))
                for name in self._model_names
            }
        return self._model_values

    def _data_inputs(self) -> dict[str, Any]:
        data = self._simulation.data
        return {name: getattr(data, name) for name in self._data_names}

    def _physics(self, data: Any, model: Any) -> Any:
        return self._template.over_arrays(model, data)

    def _run(self, names: Sequence[str], physics: Any) -> dict[str, Any]:
        return {name: self._pieces[name](physics) for name in names}

    def _first(self) -> Any:
        """Evaluates every function eagerly (recording the fields read), traces them and
        returns the jitted function."""
        jnp = self._jnp
        data = _RecordedFields(lambda name: getattr(self._simulation.data, name), lambda v: v)
        model = _RecordedFields(
            lambda name: getattr(self._model, name), lambda v: jnp.asarray(np.asarray(v))
        )
        self._run(tuple(self._pieces), self._physics(data, model))
        # The divergence check's fields are always inputs.
        self._data_names = tuple(
            dict.fromkeys(list(data._read) + [name for name, _ in _DIVERGENCE_WARNINGS])
        )
        self._model_names = tuple(model._read)
        self._trace()
        return self._traced

    def _trace(self) -> None:
        """Jits the functions that trace; names the others (run eagerly) in a log line."""
        jax = self._jax
        data, model = self._data_inputs(), self._model_inputs()
        names = tuple(self._pieces)
        traceable = names
        try:
            jax.jit(self._traced_function(names)).lower(data, model)
        except Exception:  # noqa: BLE001 - which function failed is found below.
            traceable = []
            for name in names:
                try:
                    jax.jit(self._traced_function((name,))).lower(data, model)
                except Exception as error:  # noqa: BLE001 - named in the log line.
                    _LOGGER.warning(
                        "the Warp backend runs %s eagerly on JAX arrays: it cannot be traced "
                        "by jax.jit (%s: %s)",
                        _describe(name, self._pieces[name]),
                        type(error).__name__,
                        str(error).splitlines()[0] if str(error) else "",
                    )
                    continue
                traceable.append(name)
            traceable = tuple(traceable)
        self._eager = tuple(name for name in names if name not in traceable)
        self._traced = jax.jit(self._traced_function(traceable))

    def _traced_function(self, names: Sequence[str]) -> Any:
        jnp = self._jnp
        num_envs = self._num_envs
        data_lookup = lambda name: getattr(self._simulation.data, name)  # noqa: E731
        model_lookup = lambda name: getattr(self._model, name)  # noqa: E731

        def function(data: dict, model: dict) -> Tuple[dict, Any]:
            physics = self._physics(
                _TracedFields(data, data_lookup, "data"),
                _TracedFields(model, model_lookup, "model"),
            )
            results = self._run(names, physics)
            if _OUTCOME in results:
                reward, terminated, discount = results[_OUTCOME]
                results[_OUTCOME] = (
                    jnp.broadcast_to(jnp.asarray(reward, jnp.float32), (num_envs,)),
                    jnp.broadcast_to(jnp.asarray(terminated, bool), (num_envs,)),
                    jnp.broadcast_to(jnp.asarray(discount, jnp.float32), (num_envs,)),
                )
            return results, _diverged(jnp, data, num_envs)

        return function

    def step(
        self, skip: Optional[np.ndarray], after_launch: Any, refused: Any = None
    ) -> Tuple[dict, Any, Any, "StepFlags"]:
        """Advances the worlds one control step and computes its observations and
        outcome on the device, with one small read back to the host: the (4, N)
        int32 flags of which copies ended, which may have diverged, which overflowed
        a buffer, and whether the actions were refused (`refused`, a JAX bool scalar
        from `JaxActions.check`; None: they were accepted already).

        `after_launch()` runs after the worlds stepped, before anything is read (the
        batch uploads the resetting copies' rows there). A step that overflowed a
        buffer in a world not in `skip` is redone with grown buffers (then the flags
        are read again) or raises `WarpBufferOverflow`, before any result is used; a
        step whose actions were refused is rolled back (`WarpSimulation.roll_back`)
        and returns `StepFlags.refused` True, its results to be discarded.

        Returns:
          (observation {name: (N, ...) JAX}, reward (N,) JAX, discount (N,) JAX,
          `StepFlags` of NumPy values).
        """
        simulation = self._simulation
        simulation.launch()
        after_launch()
        growth = 0
        while True:
            observation, reward, discount, flags = self._evaluate(refused)
            if flags[_REFUSED_ROW, 0]:
                simulation.roll_back()
                return observation, reward, discount, StepFlags(flags[0] != 0, flags[1] != 0, True)
            if not simulation.redo_overflowed(flags[_OVERFLOW_ROW], skip, growth):
                return observation, reward, discount, StepFlags(flags[0] != 0, flags[1] != 0, False)
            growth += 1
            after_launch()

    def _evaluate(self, refused: Any) -> Tuple[dict, Any, Any, np.ndarray]:
        """The step's observations, reward and discount (JAX), and the (4, N) host
        flags (`step`), read back in one `jax.device_get`."""
        jnp = self._jnp
        traced = self._traced if self._traced is not None else self._first()
        data, model = self._data_inputs(), self._model_inputs()
        results, diverged = traced(data, model)
        if self._eager:
            physics = self._physics(
                _TracedFields(data, lambda name: getattr(self._simulation.data, name), "data"),
                _TracedFields(model, lambda name: getattr(self._model, name), "model"),
            )
            eager = self._run(self._eager, physics)
            if _OUTCOME in eager:
                reward, terminated, discount = eager[_OUTCOME]
                shape = (self._num_envs,)
                eager[_OUTCOME] = (
                    jnp.broadcast_to(jnp.asarray(reward, jnp.float32), shape),
                    jnp.broadcast_to(jnp.asarray(terminated, bool), shape),
                    jnp.broadcast_to(jnp.asarray(discount, jnp.float32), shape),
                )
            results = {**results, **eager}
        reward, terminated, discount = results[_OUTCOME]
        if refused is None:
            refused = self._accepted
        overflow = self._simulation.device_overflow()
        flags = np.asarray(
            self._jax.device_get(self._pack(terminated, diverged, overflow, refused))
        )
        observation = {name: jnp.asarray(results[name]) for name in self._observation_names}
        return observation, reward, discount, flags


class StepFlags(NamedTuple):
    """What the host learns of a step on the device (`JaxStep.step`), as NumPy."""

    terminated: np.ndarray  # (N,) bools: the outcome rule ended these copies' episodes.
    diverged: np.ndarray  # (N,) bools: these worlds may have diverged (`WarpSimulation.check`).
    refused: bool  # The actions were refused: the worlds were rolled back.


# The rows of `JaxStep`'s (4, N) flags: terminated, diverged, overflow bits, refused.
_OVERFLOW_ROW = 2
_REFUSED_ROW = 3


def _pack_flags(jnp: Any, terminated: Any, diverged: Any, overflow: Any, refused: Any) -> Any:
    """The (4, N) int32 flags `JaxStep` reads back in one transfer."""
    shape = terminated.shape
    return jnp.stack(
        [
            terminated.astype(jnp.int32),
            diverged.astype(jnp.int32),
            jnp.reshape(overflow, shape).astype(jnp.int32) & _BUFFER_MASK,
            jnp.broadcast_to(jnp.asarray(refused).astype(jnp.int32), shape),
        ]
    )


# The key of the outcome rule among a JaxStep's functions.
_OUTCOME = "(outcome)"


def _describe(name: str, function: Any) -> str:
    if name == _OUTCOME:
        return "the task's outcome (get_reward, should_terminate_episode, get_discount)"
    qualified = getattr(function, "__qualname__", type(function).__name__)
    return f"observable {name!r} ({qualified})"


def _diverged(jnp: Any, data: Mapping[str, Any], num_envs: int) -> Any:
    """(N,) bools: the worlds whose qpos, qvel or qacc holds a non-finite value or one
    beyond MuJoCo's bound (`WarpSimulation.check` then names the field)."""
    bad = jnp.zeros((num_envs,), bool)
    for name, _ in _DIVERGENCE_WARNINGS:
        values = jnp.reshape(data[name], (num_envs, -1))
        bad = bad | jnp.any(~(jnp.abs(values) <= _MAX_STATE_VALUE), axis=1)
    return bad
